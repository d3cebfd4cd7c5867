//! Whose account a look-up found: the one judge every engine asks, so that no job reports
//! `created` for an account it cannot show it made.
//!
//! The evidence is time. A row the journal never sent has no send: an account holding its
//! e-mail and username is someone else's. A row in doubt had sends whose outcome is unknown: the
//! account is the job's only when the platform's `createdAt` falls inside one of them, from the
//! `chunkSending` time to its answer (or, for an answer lost, a while after the call was given
//! up), read on this machine's clock through the offset measured from the platform's `Date`
//! headers. Outside every window it is a conflict when the clocks are known to agree, and "in
//! doubt: check" when they cannot be compared or the account gives no time.

use super::answer::Found;
use super::journal::{Existing, LookupOutcome};
use crate::text::fold;

/// How far apart the platform's clock and this machine's may read the same moment once the
/// offset is measured, in ms.
// Decision: 2 s: the `Date` header counts whole seconds (±0.5 s about the middle taken) and an
// answer spends time on the way; more would let a stranger's account made right after a send pass.
pub(super) const CLOCK_TOLERANCE_MS: u64 = 2_000;

/// How long after a create call was given up (or sent, when the process died and the give-up is
/// unknown) the platform may still make its accounts, in ms.
// Decision: 2 minutes: the platform was seen holding a create 25 s; an account made later than
// this with the row's data is taken for another actor's (a conflict, never `created`).
pub(super) const LATE_COMMIT_MS: u64 = 120_000;

/// One send of a row in doubt, on this machine's clock (ms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    /// When the call left (`chunkSending`).
    pub from: u64,
    /// The latest moment the platform may have made the row's account.
    pub to: u64,
}

impl Window {
    /// All time: the window of a look-up made before the job sent the row anything (a sync's),
    /// where an account with the row's e-mail and username is the row's however old.
    pub const ALWAYS: Window = Window {
        from: 0,
        to: u64::MAX,
    };

    /// A send the platform answered at `answered`: it was done by then.
    pub fn answered(sent: u64, answered: u64) -> Window {
        Window {
            from: sent,
            to: answered.max(sent),
        }
    }

    /// A send whose answer was lost, given up at `gave_up` (`None`: the process died, when is
    /// unknown): the platform may have gone on a while.
    pub fn lost(sent: u64, gave_up: Option<u64>) -> Window {
        Window {
            from: sent,
            to: gave_up
                .unwrap_or(sent)
                .max(sent)
                .saturating_add(LATE_COMMIT_MS),
        }
    }
}

/// The row as the judge compares it: its e-mail trimmed and folded, its username trimmed.
#[derive(Clone, Copy, Debug)]
pub(super) struct RowKey<'a> {
    pub email_key: &'a str,
    pub username: &'a str,
}

/// The platform's clock less this machine's (ms), from an answer's `Date` header ([`http_date`]:
/// ms since the epoch) received at `now`.
// Decision: the middle of the header's second (the platform wrote a time in [date, date + 1 s));
// an offset within the tolerance is taken as none: the header cannot tell better, and times
// written to a store shared with other clients stay this machine's.
pub(super) fn offset_from(date: Option<u64>, now: u64) -> Option<i64> {
    let server = i64::try_from(date?).ok()?.saturating_add(500);
    let offset = server.saturating_sub(i64::try_from(now).ok()?);
    Some(if offset.unsigned_abs() <= CLOCK_TOLERANCE_MS {
        0
    } else {
        offset
    })
}

/// Whose `user` is, found for `row` whose sends in doubt are `sends` (empty: the journal never
/// sent it; [`Window::ALWAYS`]: a look-up before any send, where the row's data is the row's
/// account whenever made); `offset`: the platform's clock less this machine's, when measured.
pub(super) fn whose(
    row: RowKey<'_>,
    user: Found,
    sends: &[Window],
    offset: Option<i64>,
) -> LookupOutcome {
    let email = user.emails.iter().any(|e| fold(e.trim()) == row.email_key);
    let username = fold(user.username.trim()) == fold(row.username);
    let created = user.created_at;
    let existing = Existing {
        user_id: user.id,
        username: user.username,
        emails: user.emails,
    };
    if !(email && username) || sends.is_empty() {
        return LookupOutcome::Conflict { existing };
    }
    if sends.contains(&Window::ALWAYS) {
        return LookupOutcome::Created {
            user_id: existing.user_id,
        };
    }
    let Some(created) = created else {
        return LookupOutcome::InDoubt { existing };
    };
    // The account's creation on this machine's clock (the offset unknown: taken as none).
    let local = i128::from(created) - i128::from(offset.unwrap_or(0));
    let tol = i128::from(CLOCK_TOLERANCE_MS);
    let inside = sends
        .iter()
        .any(|w| i128::from(w.from) - tol <= local && local <= i128::from(w.to) + tol);
    match (inside, offset) {
        (true, _) => LookupOutcome::Created {
            user_id: existing.user_id,
        },
        (false, Some(_)) => LookupOutcome::Conflict { existing },
        // The clocks cannot be compared: this machine's may be off by hours.
        (false, None) => LookupOutcome::InDoubt { existing },
    }
}

/// `digits` as a number (`None`: a byte that is not an ASCII digit).
fn num(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |n, &d| {
        d.is_ascii_digit().then(|| n * 10 + u64::from(d - b'0'))
    })
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil); `None`
/// before 1970 or for a day outside 1..=31 or a month outside 1..=12.
fn days(year: u64, month: u64, day: u64) -> Option<u64> {
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let y = year.checked_sub(u64::from(month <= 2))?;
    let (era, yoe) = (y / 400, y % 400);
    let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    (era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy).checked_sub(719_468)
}

/// Milliseconds since the epoch of a time of day on a date.
fn at(days: u64, h: u64, m: u64, s: u64, ms: u64) -> Option<u64> {
    (h < 24 && m < 60 && s < 61).then(|| (((days * 24 + h) * 60 + m) * 60 + s) * 1000 + ms)
}

/// A `createdAt` as the platform writes it (ISO 8601 in UTC, `2024-09-05T08:10:31.207Z`, any
/// number of fraction digits or none) in ms since the epoch; `None` for another form (an offset
/// form, which the platform does not write, reads as no time: the judge cannot tell).
pub(super) fn iso_ms(iso: &str) -> Option<u64> {
    let b = iso.as_bytes();
    let sep = |i: usize, c: u8| b.get(i) == Some(&c);
    if !(sep(4, b'-') && sep(7, b'-') && sep(10, b'T') && sep(13, b':') && sep(16, b':')) {
        return None;
    }
    let field = |r: core::ops::Range<usize>| b.get(r).and_then(num);
    let d = days(field(0..4)?, field(5..7)?, field(8..10)?)?;
    let (mut i, mut ms, mut scale) = (19, 0, 1000);
    if sep(19, b'.') {
        i = 20;
        while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            scale /= 10;
            ms += u64::from(c - b'0') * scale;
            i += 1;
        }
    }
    (b.get(i..)? == b"Z").then_some(())?;
    at(d, field(11..13)?, field(14..16)?, field(17..19)?, ms)
}

/// An HTTP `Date` (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`) in ms since the epoch; `None`
/// for another form (the obsolete ones are not sent by servers of this century).
pub fn http_date(text: &str) -> Option<u64> {
    let b = text.trim().as_bytes();
    if b.len() != 29 || &b[3..5] != b", " || &b[25..] != b" GMT" {
        return None;
    }
    const MONTHS: [&[u8; 3]; 12] = [
        b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov",
        b"Dec",
    ];
    let month = MONTHS.iter().position(|m| &b[8..11] == *m)? as u64 + 1;
    if b[7] != b' ' || b[11] != b' ' || b[16] != b' ' || b[19] != b':' || b[22] != b':' {
        return None;
    }
    let d = days(num(&b[12..16])?, month, num(&b[5..7])?)?;
    at(d, num(&b[17..19])?, num(&b[20..22])?, num(&b[23..25])?, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(created: Option<u64>) -> Found {
        Found {
            id: "u1".into(),
            username: "Anh".into(),
            emails: vec!["old@x.io".into(), "AN@x.io".into()],
            created_at: created,
        }
    }

    const ROW: RowKey<'static> = RowKey {
        email_key: "an@x.io",
        username: "anh",
    };
    const T: u64 = 1_700_000_000_000;

    fn kind(o: &LookupOutcome) -> &'static str {
        match o {
            LookupOutcome::Created { .. } => "created",
            LookupOutcome::Conflict { .. } => "conflict",
            LookupOutcome::InDoubt { .. } => "inDoubt",
            LookupOutcome::NotFound => "notFound",
        }
    }

    #[test]
    fn an_account_is_the_jobs_only_inside_a_sends_window() {
        let sends = [Window::answered(T, T + 25_000)];
        let tol = CLOCK_TOLERANCE_MS;
        for (created, offset, expected) in [
            // On the same clock: inside, at the edges with the tolerance, outside.
            (T + 10_000, Some(0), "created"),
            (T - tol, Some(0), "created"),
            (T + 25_000 + tol, Some(0), "created"),
            (T - tol - 1, Some(0), "conflict"),
            (T + 25_000 + tol + 1, Some(0), "conflict"),
            // The platform's clock 2 days ahead, measured: its time read back on ours.
            (T + 2 * 86_400_000 + 5_000, Some(2 * 86_400_000), "created"),
            (T + 5_000, Some(2 * 86_400_000), "conflict"),
            // Not measured: inside on our clock is ours, outside cannot be told.
            (T + 5_000, None, "created"),
            (T + 3_600_000, None, "inDoubt"),
        ] {
            let o = whose(ROW, found(Some(created)), &sends, offset);
            assert_eq!(kind(&o), expected, "{created} {offset:?}");
        }
        // No time on the account: cannot be told.
        assert_eq!(kind(&whose(ROW, found(None), &sends, Some(0))), "inDoubt");
        // Never sent: never the job's, whatever the time.
        assert_eq!(kind(&whose(ROW, found(Some(T)), &[], Some(0))), "conflict");
        // Other data: a conflict.
        let other = Found {
            username: "someone".into(),
            ..found(Some(T))
        };
        assert_eq!(kind(&whose(ROW, other, &sends, Some(0))), "conflict");
        // A lost answer's window runs past the give-up; an unknown give-up counts from the send.
        assert_eq!(
            Window::lost(T, Some(T + 30_000)).to,
            T + 30_000 + LATE_COMMIT_MS
        );
        assert_eq!(Window::lost(T, None).to, T + LATE_COMMIT_MS);
        // A look-up before anything was sent (a sync's): the row's data is the row's account,
        // however old or without a time; other data is another's.
        for created in [Some(0), Some(T), None] {
            let o = whose(ROW, found(created), &[Window::ALWAYS], None);
            assert_eq!(kind(&o), "created", "{created:?}");
        }
        let other = Found {
            emails: vec!["someone@x.io".into()],
            ..found(None)
        };
        assert_eq!(
            kind(&whose(ROW, other, &[Window::ALWAYS], None)),
            "conflict"
        );
    }

    #[test]
    fn created_at_is_read_to_the_millisecond() {
        // Expected values: JavaScript's Date.parse.
        for (text, ms) in [
            ("1970-01-01T00:00:00.000Z", 0),
            ("2024-09-05T08:10:31.207Z", 1_725_523_831_207),
            ("2024-09-05T08:10:31Z", 1_725_523_831_000),
            ("2024-09-05T08:10:31.2Z", 1_725_523_831_200),
            ("2024-09-05T08:10:31.2079Z", 1_725_523_831_207),
            ("2000-02-29T23:59:59.999Z", 951_868_799_999),
        ] {
            assert_eq!(iso_ms(text), Some(ms), "{text}");
        }
        for text in [
            "",
            "2024-09-05",
            "2024-13-05T08:10:31Z",
            "2024-09-05T25:10:31Z",
            "2024-09-05T08:10:31",
            "2024-09-05T08:10:31.Z ",
            "2000-02-29T23:59:59.999+07:00",
            "1969-12-31T23:59:59.999Z",
            "２０２４-09-05T08:10:31Z",
        ] {
            assert_eq!(iso_ms(text), None, "{text}");
        }
    }

    #[test]
    fn http_dates_and_the_offset() {
        assert_eq!(
            http_date("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(784_111_777_000)
        );
        for bad in [
            "",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Xyz 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:49:37 GMT",
        ] {
            assert_eq!(http_date(bad), None, "{bad}");
        }
        let (date, now) = (Some(784_111_777_000), 784_111_777_000 - 10_000);
        assert_eq!(offset_from(date, now), Some(10_500));
        // Within the tolerance: the clocks agree as far as the header can tell.
        assert_eq!(offset_from(date, now + 9_000), Some(0));
        assert_eq!(offset_from(None, now), None);
    }
}
