//! The rules of account creation: one item, and a batch (1 to 100 items, no duplicates).

use std::borrow::Cow;

use crate::text::fold;

use super::*;

/// The number of characters (Unicode scalar values) of `s`: its bytes that do not continue a
/// character (`chars().count()` brings the wasm a 1 KB vectorised counter for a few short fields).
fn chars(s: &str) -> usize {
    s.bytes().filter(|&b| (b as i8) >= -0x40).count()
}

/// An item's members: the contract's fields by their place in FIELDS (a repeated key: the last
/// counts, as `get` reads it), and the other keys (for `unknown_field`), in one pass; `None` for
/// an item that is not an object.
pub(super) struct Members<'a, J> {
    fields: [Option<&'a J>; FIELDS.len()],
    unknown: Vec<&'a str>,
}

pub(super) fn members<J: JsonView>(item: &J) -> Option<Members<'_, J>> {
    if !item.is_object() {
        return None;
    }
    let mut m = Members {
        fields: [None; FIELDS.len()],
        unknown: Vec::new(),
    };
    // Items of one batch usually list their keys in FIELDS' order: the field after the last one
    // found is tried first.
    let mut next = 0;
    item.each_member(&mut |k, v| {
        let same = |f: &&str| crate::json::same(f.as_bytes(), k.as_bytes());
        let found = match FIELDS.get(next) {
            Some(f) if same(f) => Some(next),
            // Length first, then a word at a time: most keys are told apart by their length.
            _ => FIELDS.iter().position(same),
        };
        match found.and_then(|i| Some((i, m.fields.get_mut(i)?))) {
            Some((i, slot)) => {
                *slot = Some(v);
                next = i + 1;
            }
            None => m.unknown.push(k),
        }
    });
    Some(m)
}

/// Checks one account-creation item at `prefix`.
pub(super) fn check_item<J: JsonView>(item: &J, prefix: &[PathSegment], sink: &mut Sink) {
    check_members(members(item).as_ref(), prefix, sink);
}

/// Checks one account-creation item at `prefix`, by its [`members`].
fn check_members<J: JsonView>(
    item: Option<&Members<'_, J>>,
    prefix: &[PathSegment],
    sink: &mut Sink,
) {
    let Some(Members { fields, unknown }) = item else {
        sink.push(
            copy(prefix, 0),
            IssueCode::NotObject,
            Level::Contract,
            Field::Item,
            0,
        );
        return;
    };

    // name: required; platform: at least 3 characters (Unicode scalar values, after trimming).
    let path = At {
        prefix,
        key: "name",
    };
    if let Some(name) = required_str(fields[0], path, Field::Name, sink) {
        let name = trim(name);
        // (A character is at most 4 bytes: a long enough text need not be counted.)
        if name.len() < 4 * NAME_MIN && chars(name) < NAME_MIN {
            sink.push(
                path,
                IssueCode::TooShort,
                Level::Platform,
                Field::Name,
                NAME_MIN,
            );
        }
    }

    // username: required; platform: 3-20 characters of a-z A-Z 0-9 (checked as given, untrimmed).
    let path = At {
        prefix,
        key: "username",
    };
    if let Some(u) = required_str(fields[1], path, Field::Username, sink) {
        let mut plain = true;
        for b in u.bytes() {
            if !b.is_ascii_alphanumeric() {
                plain = false;
                break;
            }
        }
        let len = if plain { u.len() } else { chars(u) };
        if len < USERNAME_MIN {
            sink.push(
                path,
                IssueCode::TooShort,
                Level::Platform,
                Field::Username,
                USERNAME_MIN,
            );
        } else if len > USERNAME_MAX {
            sink.push(
                path,
                IssueCode::TooLong,
                Level::Platform,
                Field::Username,
                USERNAME_MAX,
            );
        }
        if !plain {
            sink.push(
                path,
                IssueCode::InvalidChars,
                Level::Platform,
                Field::Username,
                0,
            );
        }
    }

    // email: required; platform: plausible.
    let path = At {
        prefix,
        key: "email",
    };
    if let Some(e) = required_str(fields[2], path, Field::Email, sink) {
        if !plausible_email(e) {
            sink.push(
                path,
                IssueCode::InvalidEmail,
                Level::Platform,
                Field::Email,
                0,
            );
        }
    }

    // password: required; platform: 6-35 characters (as given: spaces in a password count).
    let path = At {
        prefix,
        key: "password",
    };
    if let Some(p) = required_str(fields[3], path, Field::Password, sink) {
        let len = chars(p);
        if len < PASSWORD_MIN {
            sink.push(
                path,
                IssueCode::TooShort,
                Level::Platform,
                Field::Password,
                PASSWORD_MIN,
            );
        } else if len > PASSWORD_MAX {
            sink.push(
                path,
                IssueCode::TooLong,
                Level::Platform,
                Field::Password,
                PASSWORD_MAX,
            );
        }
    }

    // Optional strings: absent or null (= not sent) or any string. Gender `Nam`/`Nữ` is only
    // what the platform's UI offers, so other values are not flagged; a phone must look like one.
    for (k, v) in OPTIONAL_FIELDS.iter().zip(&fields[REQUIRED_FIELDS.len()..]) {
        if let Some(v) = v {
            if !matches!(v.kind(), Kind::Null | Kind::Str(_)) {
                sink.push(
                    at(prefix, key(k)),
                    IssueCode::NotString,
                    Level::Contract,
                    Field::of_key(k),
                    0,
                );
            }
        }
    }
    let phone = fields[REQUIRED_FIELDS.len()].and_then(|v| v.as_str());
    if phone.is_some_and(|p| !plausible_phone(p)) {
        let path = At {
            prefix,
            key: "phone",
        };
        sink.push(
            path,
            IssueCode::InvalidPhone,
            Level::Platform,
            Field::Phone,
            0,
        );
    }

    // Keys the contract does not list: likely typos (`usename`, `Email`).
    // (By reference: a by-value iterator of `&str` brings the wasm a `Debug`-formatted assert.)
    for &k in unknown {
        sink.push(
            at(prefix, key(k)),
            IssueCode::UnknownField,
            Level::Platform,
            Field::Item,
            0,
        );
    }
}

/// Validates the `users` array of create-multi-user. Paths start with the item's index
/// (`[3, "email"]`); findings about the array itself have the path `[]`.
///
/// Contract: an array (`not_array`), non-empty (`empty`), at most 100 items (`too_many`; the items
/// are still all checked); each item an object (`not_object`) with `name`, `username`, `email`,
/// `password` as non-empty strings (`required`, `not_string`) and `phone`, `city`, `district`,
/// `street`, `gender`, `job` as strings when present (`not_string`); no two items with the same
/// e-mail (trimmed, case-insensitive: `duplicate_email`) or the same username (trimmed:
/// `duplicate_username`), reported on the later item with the earlier row in the message.
///
/// Platform: see [`validate_create_user`]; plus `duplicate_username` when two usernames differ
/// only in letter case (the platform's account system compares them case-insensitively).
pub fn validate_create_users<J: JsonView>(users: &J, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    let Kind::Arr(items) = users.kind() else {
        not_array(&mut sink);
        return sink.finish();
    };
    list_issues(items.len(), &mut sink);
    let mut check = UsersCheck::with_room(items.len(), opts);
    check.items(items, &mut sink);
    sink.finish()
}

fn not_array(sink: &mut Sink) {
    sink.push(
        Vec::new(),
        IssueCode::NotArray,
        Level::Contract,
        Field::AccountList,
        0,
    );
}

/// The findings about a list of `n` accounts as a whole (path `[]`): `empty`, `too_many`.
fn list_issues(n: usize, sink: &mut Sink) {
    if n == 0 {
        sink.push(
            Vec::new(),
            IssueCode::Empty,
            Level::Contract,
            Field::AccountList,
            0,
        );
    } else if n > MAX_ITEMS {
        sink.push(
            Vec::new(),
            IssueCode::TooMany,
            Level::Contract,
            Field::AccountList,
            MAX_ITEMS,
        );
    }
}

/// [`validate_create_users`] of a list given a slice at a time (a sheet's 100,000 rows, a few
/// thousand a call, so no call holds them all): [`UsersCheck::check`] gives each slice's issues
/// as the whole call gives them for those items, paths counted from the list's first item, and
/// repeats of any earlier item (earlier slices included) found; [`UsersCheck::finish`] the
/// list's own (`empty`, `too_many`), which the whole call reports first. The whole call is this
/// over one slice: one code for both.
pub struct UsersCheck {
    opts: ValidateOptions,
    /// Items checked so far: the index of the next slice's first item.
    count: usize,
    /// The first item of each e-mail (trimmed, folded) and username (trimmed).
    emails: FirstSeen,
    usernames: FirstSeen,
    /// The first item of each folded username; made (a copy of `usernames`) only once a username
    /// changes when folded: until then it would hold the same keys at the same items.
    usernames_ci: Option<FirstSeen>,
}

impl UsersCheck {
    /// A check of a new list, with `opts` for every slice.
    pub fn new(opts: ValidateOptions) -> Self {
        Self::with_room(0, opts)
    }

    /// [`UsersCheck::new`] of a list of about `n` items: its tables made for them at once, not
    /// grown (and copied) as slices come; room reserved and never written costs no memory.
    pub fn with_room(n: usize, opts: ValidateOptions) -> Self {
        UsersCheck {
            opts,
            count: 0,
            emails: FirstSeen::with_room(n),
            usernames: FirstSeen::with_room(n),
            usernames_ci: None,
        }
    }

    /// The issues of `users`, the list's next items (a JSON array; anything else is `not_array`
    /// at `[]` and counts no item).
    pub fn check<J: JsonView>(&mut self, users: &J) -> Report {
        let mut sink = Sink::new(self.opts);
        match users.kind() {
            Kind::Arr(items) => self.items(items, &mut sink),
            _ => not_array(&mut sink),
        }
        sink.finish()
    }

    /// The list's own issues, once every item was given to [`UsersCheck::check`].
    pub fn finish(self) -> Report {
        let mut sink = Sink::new(self.opts);
        list_issues(self.count, &mut sink);
        sink.finish()
    }

    /// Checks `items` (the list's next ones) into `sink`: each item's own findings, then a repeat
    /// of an earlier item's e-mail or username (reported on the later item, naming the first).
    /// Each item's members read once, for its checks and for the repeats.
    fn items<J: JsonView>(&mut self, items: &[J], sink: &mut Sink) {
        fn given<'a, J: JsonView>(m: &Option<Members<'a, J>>, k: usize) -> Option<&'a str> {
            let s = trim(m.as_ref()?.fields.get(k).copied().flatten()?.as_str()?);
            (!s.is_empty()).then_some(s)
        }
        for item in items {
            let i = self.count;
            self.count += 1;
            let prefix = [PathSegment::Index(i)];
            let m = members(item);
            check_members(m.as_ref(), &prefix, sink);

            let email = given(&m, 2).map(fold);
            let first_email = email.and_then(|e| self.emails.insert(&e, i));
            let username = given(&m, 1);
            let first_username = username.and_then(|u| {
                let folded = fold(u);
                if matches!(folded, Cow::Owned(_)) && self.usernames_ci.is_none() {
                    self.usernames_ci = Some(self.usernames.clone());
                }
                let first_ci = self
                    .usernames_ci
                    .as_mut()
                    .and_then(|t| t.insert(&folded, i));
                match self.usernames.insert(u, i) {
                    Some(first) => Some((first, Level::Contract)),
                    // Read only where the exact table found nothing.
                    None => first_ci.map(|first| (first, Level::Platform)),
                }
            });

            if let Some(first) = first_email {
                sink.push(
                    at(&prefix, key("email")),
                    IssueCode::DuplicateEmail,
                    Level::Contract,
                    Field::Email,
                    first + 1,
                );
            }
            if let Some((first, level)) = first_username {
                sink.push(
                    at(&prefix, key("username")),
                    IssueCode::DuplicateUsername,
                    level,
                    Field::Username,
                    first + 1,
                );
            }
        }
    }
}

/// Validates one account-creation item (also the body of create-single-user). Paths start with the
/// key (`["email"]`); a non-object gives `not_object` at `[]`.
///
/// Contract: as for each item of [`validate_create_users`].
/// Platform (from the platform's documentation): name at least 3 characters after trimming
/// (`too_short`; Unicode characters, `Nguyễn` is 6); username 3–20 characters (`too_short`,
/// `too_long`) of a-z A-Z 0-9 only (`invalid_chars`); password 6–35 characters (`too_short`,
/// `too_long`); a plausible e-mail (`invalid_email`); a phone, when one is given, that looks like
/// a phone number (`invalid_phone`, see `plausible_phone`); keys other than the contract's fields
/// (`unknown_field`). `gender` is not restricted (the UI's `Nam`/`Nữ` is only a hint).
pub fn validate_create_user(item: &impl JsonView, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    check_item(item, &[], &mut sink);
    sink.finish()
}
