//! Journal events and job options read from any [`JsonView`], for the wasm build (`wasm/`): serde's
//! derived `Deserialize` of these internally tagged enums would be most of the bulk wasm (its
//! `Content` buffering), this reader a small part. The types' serde attributes stay the one definition of the
//! wire: `tests::reads_what_serde_writes` holds this reader to serde's own reading of every
//! variant, and `tests::refuses_what_serde_refuses` to its refusals.

use core::ops::Range;

use super::journal::{
    DoubtReason, Event, Existing, FoundAccount, LookupOutcome, Outcome, PlannedRow,
};
use super::{Failure, GrantOptions, ImportOptions};
use crate::json::{JsonView, Kind};
use crate::validate::Lang;

/// The byte range of each item of the array a JSON text holds (`None`: not an array): an import
/// sends each row's text as it was given, rather than writing the parsed row out again.
pub fn items(text: &str) -> Option<Vec<Range<usize>>> {
    let mut s = crate::json::Scanner::new(text);
    s.expect(b'[').ok()?;
    let mut out = Vec::new();
    let mut first = true;
    while s.next_item(b']', first).ok()? {
        first = false;
        s.ws();
        let start = s.pos();
        s.skip(1).ok()?;
        out.push(start..s.pos());
    }
    Some(out)
}

fn uint(v: &impl JsonView, key: &str) -> Option<u64> {
    u64::try_from(v.get(key)?.as_integer()?).ok()
}

fn index(v: &impl JsonView, key: &str) -> Option<usize> {
    usize::try_from(uint(v, key)?).ok()
}

fn chunk(v: &impl JsonView) -> Option<u32> {
    u32::try_from(uint(v, "chunk")?).ok()
}

fn text(v: &impl JsonView, key: &str) -> Option<String> {
    v.get(key)?.as_str().map(str::to_owned)
}

/// An optional member: absent or `null` is `None`, another kind refuses.
fn maybe_text(v: &impl JsonView, key: &str) -> Option<Option<String>> {
    match v.get(key) {
        None => Some(None),
        Some(x) if x.is_null() => Some(None),
        Some(x) => x.as_str().map(|s| Some(s.to_owned())),
    }
}

fn list<J: JsonView, T>(v: &J, key: &str, item: impl Fn(&J) -> Option<T>) -> Option<Vec<T>> {
    let Kind::Arr(items) = v.get(key)?.kind() else {
        return None;
    };
    // A loop, not `collect` into an `Option`: its adapters would be a copy per kind of item.
    let mut out = Vec::with_capacity(items.len());
    for x in items {
        out.push(item(x)?);
    }
    Some(out)
}

fn row(v: &impl JsonView) -> Option<usize> {
    usize::try_from(v.as_integer()?).ok()
}

fn object<'v, J: JsonView>(v: &'v J, key: &str) -> Option<&'v J> {
    v.get(key).filter(|x| x.is_object())
}

fn tag<'a>(v: &'a impl JsonView, key: &str) -> Option<&'a str> {
    if !v.is_object() {
        return None;
    }
    v.get(key)?.as_str()
}

fn existing(v: &impl JsonView) -> Option<Existing> {
    let e = object(v, "existing")?;
    Some(Existing {
        user_id: text(e, "userId")?,
        username: text(e, "username")?,
        emails: list(e, "emails", |x| x.as_str().map(str::to_owned))?,
    })
}

fn found_account(a: &impl JsonView) -> Option<FoundAccount> {
    let strings = |x: &_| JsonView::as_str(x).map(str::to_owned);
    Some(FoundAccount {
        user_id: text(a, "userId")?,
        username: text(a, "username")?,
        emails: list(a, "emails", strings)?,
        courses: list(a, "courses", strings)?,
    })
}

fn outcome(v: &impl JsonView) -> Option<Outcome> {
    Some(match tag(v, "kind")? {
        "created" => Outcome::Created {
            user_id: text(v, "userId")?,
        },
        "failed" => Outcome::Failed {
            status: text(v, "status")?,
        },
        "conflict" => Outcome::Conflict {
            existing: existing(v)?,
        },
        "granted" => Outcome::Granted,
        "noResult" => Outcome::NoResult,
        "inDoubt" => Outcome::InDoubt {
            existing: existing(v)?,
        },
        _ => return None,
    })
}

fn failure(v: &impl JsonView) -> Option<Failure> {
    Some(match v.get("failure")?.as_str()? {
        "network" => Failure::Network,
        "timeout" => Failure::Timeout,
        "aborted" => Failure::Aborted,
        _ => return None,
    })
}

fn doubt(v: &impl JsonView) -> Option<DoubtReason> {
    Some(match tag(v, "kind")? {
        "transport" => DoubtReason::Transport {
            failure: failure(v)?,
        },
        "unreadable" => DoubtReason::Unreadable {
            status: u16::try_from(uint(v, "status")?).ok()?,
        },
        "noMatchingItem" => DoubtReason::NoMatchingItem,
        "noUserId" => DoubtReason::NoUserId,
        "interrupted" => DoubtReason::Interrupted,
        "alreadyInUse" => DoubtReason::AlreadyInUse {
            status: text(v, "status")?,
        },
        _ => return None,
    })
}

fn lookup(v: &impl JsonView) -> Option<LookupOutcome> {
    Some(match tag(v, "kind")? {
        "created" => LookupOutcome::Created {
            user_id: text(v, "userId")?,
        },
        "conflict" => LookupOutcome::Conflict {
            existing: existing(v)?,
        },
        "inDoubt" => LookupOutcome::InDoubt {
            existing: existing(v)?,
        },
        "notFound" => LookupOutcome::NotFound,
        _ => return None,
    })
}

fn planned(v: &impl JsonView) -> Option<PlannedRow> {
    if !v.is_object() {
        return None;
    }
    Some(PlannedRow {
        row: index(v, "row")?,
        email: maybe_text(v, "email")?,
        username: maybe_text(v, "username")?,
        user_id: maybe_text(v, "userId")?,
    })
}

/// One journal event, `None` when it is not one.
pub fn event(v: &impl JsonView) -> Option<Event> {
    Some(match tag(v, "event")? {
        "started" => Event::Started {
            job: text(v, "job")?,
            rows: index(v, "rows")?,
            courses: match v.get("courses") {
                None => Vec::new(),
                Some(_) => list(v, "courses", |x| x.as_str().map(str::to_owned))?,
            },
        },
        "chunkPlanned" => Event::ChunkPlanned {
            chunk: chunk(v)?,
            rows: list(v, "rows", planned)?,
        },
        "chunkSending" => Event::ChunkSending {
            chunk: chunk(v)?,
            at: uint(v, "at")?,
        },
        "chunkEnded" => Event::ChunkEnded {
            chunk: chunk(v)?,
            at: uint(v, "at")?,
        },
        "chunkRefused" => Event::ChunkRefused {
            chunk: chunk(v)?,
            code: text(v, "code")?,
            msg: text(v, "msg")?,
        },
        "rowsInDoubt" => Event::RowsInDoubt {
            chunk: chunk(v)?,
            rows: list(v, "rows", row)?,
            reason: doubt(object(v, "reason")?)?,
        },
        "chunkOutcomes" => Event::ChunkOutcomes {
            chunk: chunk(v)?,
            rows: list(v, "rows", row)?,
            outcomes: list(v, "outcomes", outcome)?,
        },
        "lookupResult" => Event::LookupResult {
            row: index(v, "row")?,
            result: lookup(object(v, "result")?)?,
        },
        "rowLooked" => Event::RowLooked {
            row: index(v, "row")?,
            email: text(v, "email")?,
            username: text(v, "username")?,
            account: match v.get("account") {
                None => None,
                Some(a) if a.is_null() => None,
                Some(a) => Some(found_account(a)?),
            },
        },
        _ => return None,
    })
}

/// A journal: an array of events, `Err(i)` naming the first that is not one.
pub fn journal(v: &impl JsonView) -> Result<Vec<Event>, usize> {
    let Kind::Arr(items) = v.kind() else {
        return Err(0);
    };
    let mut events = Vec::with_capacity(items.len());
    for (i, e) in items.iter().enumerate() {
        events.push(event(e).ok_or(i)?);
    }
    Ok(events)
}

/// A member that must be an unsigned integer when present (`Err` names it).
fn opt_uint(v: &impl JsonView, key: &'static str) -> Result<Option<u64>, &'static str> {
    match v.get(key) {
        None => Ok(None),
        Some(_) => uint(v, key).map(Some).ok_or(key),
    }
}

fn opt_lang(v: &impl JsonView) -> Result<Option<Lang>, &'static str> {
    match v.get("lang").map(|l| l.as_str()) {
        None => Ok(None),
        Some(Some("en")) => Ok(Some(Lang::En)),
        Some(Some("vi")) => Ok(Some(Lang::Vi)),
        Some(_) => Err("lang"),
    }
}

/// The members both jobs' options have, read over the values given.
struct Common<'a> {
    chunk_size: &'a mut usize,
    interval_ms: &'a mut u64,
    lang: &'a mut Lang,
    retry_delay_ms: &'a mut u64,
    attempts: &'a mut u32,
}

/// The [`Common`] members of an options struct.
macro_rules! common_of {
    ($o:ident) => {
        Common {
            chunk_size: &mut $o.chunk_size,
            interval_ms: &mut $o.interval_ms,
            lang: &mut $o.lang,
            retry_delay_ms: &mut $o.retry_delay_ms,
            attempts: &mut $o.attempts,
        }
    };
}

fn common(v: &impl JsonView, o: Common<'_>) -> Result<(), &'static str> {
    if let Some(n) = opt_uint(v, "chunkSize")? {
        *o.chunk_size = usize::try_from(n).map_err(|_| "chunkSize")?;
    }
    if let Some(n) = opt_uint(v, "intervalMs")? {
        *o.interval_ms = n;
    }
    if let Some(l) = opt_lang(v)? {
        *o.lang = l;
    }
    if let Some(n) = opt_uint(v, "retryDelayMs")? {
        *o.retry_delay_ms = n;
    }
    if let Some(n) = opt_uint(v, "attempts")? {
        *o.attempts = u32::try_from(n).map_err(|_| "attempts")?;
    }
    Ok(())
}

/// Import options over `base` (each member present replaces it); `Err` names the first member
/// of the wrong kind.
pub fn import_options(
    v: &impl JsonView,
    base: ImportOptions,
) -> Result<ImportOptions, &'static str> {
    let mut o = base;
    common(v, common_of!(o))?;
    match v.get("setAsidePlatform").map(|b| b.kind()) {
        None => {}
        Some(Kind::Bool) => o.set_aside_platform = v.get("setAsidePlatform").is_some_and(truthy),
        Some(_) => return Err("setAsidePlatform"),
    }
    Ok(o)
}

/// Grant options over `base`, as [`import_options`].
pub fn grant_options(v: &impl JsonView, base: GrantOptions) -> Result<GrantOptions, &'static str> {
    let mut o = base;
    common(v, common_of!(o))?;
    Ok(o)
}

/// `true` only for the JSON literal `true`.
fn truthy(v: &impl JsonView) -> bool {
    v.to_json() == "true"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn items_are_the_texts_of_the_array_items() {
        for text in [
            "[]",
            " [ ] ",
            "[1]",
            r#"[{"a":"]},[\"\\","b":[1,{"c":"}"}]}, 2 ,"x,y" , null,[[]],{}]"#,
            "\n[\t{\"name\": \"Lan \\u00c1nh\"} ,\r\n {\"n\":-1.5e3}\n]\n",
        ] {
            let crate::json::Value::Arr(want) = crate::json::parse(text).unwrap() else {
                panic!("{text}")
            };
            let ranges = items(text).unwrap();
            assert_eq!(ranges.len(), want.len(), "{text}");
            for (range, want) in ranges.into_iter().zip(&want) {
                assert_eq!(&crate::json::parse(&text[range]).unwrap(), want, "{text}");
            }
        }
        for text in ["{}", "1", "\"[1]\"", ""] {
            assert_eq!(items(text), None, "{text}");
        }
    }

    fn events() -> Vec<Event> {
        let existing = Existing {
            user_id: "u9".into(),
            username: "b".into(),
            emails: vec!["b@x.io".into()],
        };
        let mut out = vec![
            Event::Started {
                job: "grant".into(),
                rows: 3,
                courses: vec!["c1".into()],
            },
            Event::Started {
                job: "import".into(),
                rows: 0,
                courses: vec![],
            },
            Event::ChunkPlanned {
                chunk: 1,
                rows: vec![
                    PlannedRow {
                        row: 0,
                        email: Some("a@x.io".into()),
                        username: Some("an".into()),
                        user_id: None,
                    },
                    PlannedRow {
                        row: 1,
                        email: None,
                        username: None,
                        user_id: Some("u1".into()),
                    },
                ],
            },
            Event::ChunkSending {
                chunk: 1,
                at: 1_700_000_000_123,
            },
            Event::ChunkEnded {
                chunk: 1,
                at: 1_700_000_025_123,
            },
            Event::ChunkRefused {
                chunk: 1,
                code: "19".into(),
                msg: "Thiếu \"token\"".into(),
            },
        ];
        for reason in [
            DoubtReason::Transport {
                failure: Failure::Timeout,
            },
            DoubtReason::Transport {
                failure: Failure::Aborted,
            },
            DoubtReason::Unreadable { status: 502 },
            DoubtReason::NoMatchingItem,
            DoubtReason::NoUserId,
            DoubtReason::Interrupted,
            DoubtReason::AlreadyInUse {
                status: "Email already in use".into(),
            },
        ] {
            out.push(Event::RowsInDoubt {
                chunk: 2,
                rows: vec![4, 5],
                reason,
            });
        }
        let outcomes = [
            Outcome::Created {
                user_id: "u1".into(),
            },
            Outcome::Failed { status: "x".into() },
            Outcome::Conflict {
                existing: existing.clone(),
            },
            Outcome::Granted,
            Outcome::NoResult,
            Outcome::InDoubt {
                existing: existing.clone(),
            },
        ];
        out.push(Event::ChunkOutcomes {
            chunk: 3,
            rows: (0..outcomes.len()).collect(),
            outcomes: outcomes.to_vec(),
        });
        for result in [
            LookupOutcome::Created {
                user_id: "u2".into(),
            },
            LookupOutcome::Conflict {
                existing: existing.clone(),
            },
            LookupOutcome::InDoubt { existing },
            LookupOutcome::NotFound,
        ] {
            out.push(Event::LookupResult { row: 8, result });
        }
        for account in [
            None,
            Some(FoundAccount {
                user_id: "u3".into(),
                username: "Anh".into(),
                emails: vec!["a@x.io".into()],
                courses: vec!["c1".into(), "c2".into()],
            }),
        ] {
            out.push(Event::RowLooked {
                row: 9,
                email: "a@x.io".into(),
                username: "anh".into(),
                account,
            });
        }
        out
    }

    #[test]
    fn reads_what_serde_writes() {
        for e in events() {
            let wire = serde_json::to_value(&e).unwrap();
            assert_eq!(event(&wire), Some(e.clone()), "{wire}");
            // And through the wasm's own JSON tree, from the text ours writes.
            let text = crate::json::ser::to_string(&e);
            assert_eq!(text, serde_json::to_string(&e).unwrap());
            // The writer the derive writes, as serde writes it.
            assert_eq!(crate::json::ser::WriteJson::to_json(&e), text);
            assert_eq!(event(&crate::json::parse(&text).unwrap()), Some(e));
        }
    }

    /// The members an event may leave out.
    const OPTIONAL: [&str; 2] = ["courses", "account"];

    #[test]
    fn refuses_what_serde_refuses() {
        let mut cases: Vec<Value> = vec![
            json!(null),
            json!([]),
            json!({"event": "nope"}),
            json!({"event": "chunkSending", "chunk": -1, "at": 0}),
            json!({"event": "chunkSending", "chunk": 1.5, "at": 0}),
            json!({"event": "chunkSending", "chunk": 4294967296u64, "at": 0}),
            json!({"event": "chunkSending", "chunk": 1}),
            json!({"event": "rowsInDoubt", "chunk": 1, "rows": [1],
                   "reason": {"kind": "transport", "failure": "lost"}}),
            json!({"event": "rowOutcome", "row": 1, "outcome": {"kind": "created"}}),
            json!({"event": "chunkOutcomes", "chunk": 1, "rows": [1], "outcomes": [1]}),
            json!({"event": "chunkOutcomes", "chunk": 1, "rows": ["1"], "outcomes": [{"kind": "granted"}]}),
            json!({"event": "chunkOutcomes", "chunk": 1, "rows": [-1], "outcomes": [{"kind": "granted"}]}),
            json!({"event": "chunkOutcomes", "chunk": 1, "rows": [1], "outcomes": [{"kind": "created"}]}),
            json!({"event": "chunkPlanned", "chunk": 1, "rows": [{"email": "a"}]}),
            json!({"event": "chunkPlanned", "chunk": 1, "rows": [{"row": 1, "email": 3}]}),
            json!({"event": "started", "job": "import", "rows": 1, "courses": "c1"}),
        ];
        // Every event with one member removed or turned into another kind.
        for e in events() {
            let wire = serde_json::to_value(&e).unwrap();
            for key in wire.as_object().unwrap().keys() {
                let mut less = wire.clone();
                less.as_object_mut().unwrap().remove(key);
                // Members that may be left out: read as empty, as serde reads them.
                if OPTIONAL.contains(&key.as_str()) {
                    assert_eq!(
                        event(&less),
                        serde_json::from_value::<Event>(less.clone()).ok()
                    );
                    assert!(event(&less).is_some(), "{less}");
                } else {
                    cases.push(less);
                }
                let mut other = wire.clone();
                other[key] = json!({"x": 1});
                cases.push(other);
            }
        }
        for case in cases {
            let serde = serde_json::from_value::<Event>(case.clone()).ok();
            assert_eq!(event(&case), serde, "{case}");
            assert_eq!(serde, None, "{case}");
        }
    }

    #[test]
    fn a_journal_of_rowoutcome_events_is_refused_as_another_version() {
        let old = json!([
            {"event": "started", "job": "import", "rows": 3},
            {"event": "chunkPlanned", "chunk": 0, "rows": [{"row": 0, "email": "a@x.io", "username": "a"}]},
            {"event": "chunkSending", "chunk": 0, "at": 5},
            {"event": "rowOutcome", "row": 0, "outcome": {"kind": "created", "userId": "u1"}},
        ]);
        assert_eq!(journal(&old), Err(3));
    }

    #[test]
    fn options_read_as_serde_reads_them() {
        let full = json!({"chunkSize": 7, "intervalMs": 5, "setAsidePlatform": true, "lang": "vi",
                          "retryDelayMs": 9, "attempts": 2});
        let serde: ImportOptions = serde_json::from_value(full.clone()).unwrap();
        assert_eq!(import_options(&full, ImportOptions::default()), Ok(serde));
        let serde: GrantOptions = serde_json::from_value(full.clone()).unwrap();
        assert_eq!(grant_options(&full, GrantOptions::default()), Ok(serde));
        assert_eq!(
            import_options(&json!({}), ImportOptions::default()),
            Ok(ImportOptions::default())
        );
        for (bad, key) in [
            (json!({"chunkSize": "7"}), "chunkSize"),
            (json!({"chunkSize": -1}), "chunkSize"),
            (json!({"lang": "fr"}), "lang"),
            (json!({"setAsidePlatform": 1}), "setAsidePlatform"),
            (json!({"attempts": 1.5}), "attempts"),
        ] {
            assert_eq!(
                import_options(&bad, ImportOptions::default()),
                Err(key),
                "{bad}"
            );
        }
    }
}
