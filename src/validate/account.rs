//! The rules of account creation: one item, and a batch (1 to 100 items, no duplicates).

use std::borrow::Cow;

use crate::text::fold;

use super::*;

/// The number of characters (Unicode scalar values) of `s`: its bytes that do not continue a
/// character (`chars().count()` brings the wasm a 1 KB vectorised counter for a few short fields).
fn chars(s: &str) -> usize {
    s.bytes().filter(|&b| (b as i8) >= -0x40).count()
}

/// What the batch-level duplicate checks need from a valid-looking item.
#[derive(Default)]
pub(super) struct ItemKeys<'a> {
    pub(super) email: Option<&'a str>,
    pub(super) username: Option<&'a str>,
}

/// Checks one account-creation item at `prefix`.
pub(super) fn check_item<'a, J: JsonView>(
    item: &'a J,
    prefix: &[PathSegment],
    sink: &mut Sink,
) -> ItemKeys<'a> {
    if !item.is_object() {
        sink.push(
            prefix.to_vec(),
            IssueCode::NotObject,
            Level::Contract,
            Field::Item,
            0,
        );
        return ItemKeys::default();
    }

    // name: required; platform: at least 3 characters (Unicode scalar values, after trimming).
    let path = At {
        prefix,
        key: "name",
    };
    if let Some(name) = required_str(item.get("name"), path, Field::Name, sink) {
        if chars(name.trim()) < NAME_MIN {
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
    let username = required_str(item.get("username"), path, Field::Username, sink);
    if let Some(u) = username {
        let len = chars(u);
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
        if !u.chars().all(|c| c.is_ascii_alphanumeric()) {
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
    let email = required_str(item.get("email"), path, Field::Email, sink);
    if let Some(e) = email {
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
    if let Some(p) = required_str(item.get("password"), path, Field::Password, sink) {
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
    // what the platform's UI offers, so other values are not flagged.
    for k in OPTIONAL_FIELDS {
        match item.get(k).map(J::kind) {
            None | Some(Kind::Null) | Some(Kind::Str(_)) => {}
            Some(_) => sink.push(
                at(prefix, key(k)),
                IssueCode::NotString,
                Level::Contract,
                Field::of_key(k),
                0,
            ),
        }
    }

    // Keys the contract does not list: likely typos (`usename`, `Email`).
    // (By reference: a by-value iterator of `&str` brings the wasm a `Debug`-formatted assert.)
    let keys = item.keys();
    for &k in &keys {
        if !REQUIRED_FIELDS.contains(&k) && !OPTIONAL_FIELDS.contains(&k) {
            sink.push(
                at(prefix, key(k)),
                IssueCode::UnknownField,
                Level::Platform,
                Field::Item,
                0,
            );
        }
    }

    ItemKeys { email, username }
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
        sink.push(
            Vec::new(),
            IssueCode::NotArray,
            Level::Contract,
            Field::AccountList,
            0,
        );
        return sink.finish();
    };
    if items.is_empty() {
        sink.push(
            Vec::new(),
            IssueCode::Empty,
            Level::Contract,
            Field::AccountList,
            0,
        );
    } else if items.len() > MAX_ITEMS {
        sink.push(
            Vec::new(),
            IssueCode::TooMany,
            Level::Contract,
            Field::AccountList,
            MAX_ITEMS,
        );
    }

    // The first row of each e-mail and username (trimmed; e-mails and folded usernames
    // lower-cased), so that each later row can name it.
    fn given<'a, J: JsonView>(item: &'a J, key: &str) -> Option<&'a str> {
        item.get(key)
            .and_then(J::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
    let emails = FirstSeen::new(items.iter().map(|it| given(it, "email").map(fold)));
    let usernames = FirstSeen::new(items.iter().map(|it| given(it, "username").map(Cow::from)));
    let usernames_ci = FirstSeen::new(items.iter().map(|it| given(it, "username").map(fold)));
    for (i, item) in items.iter().enumerate() {
        let prefix = [PathSegment::Index(i)];
        let keys = check_item(item, &prefix, &mut sink);

        if let Some(email) = keys.email {
            if let Some(first) = emails.before(&fold(email.trim()), i) {
                sink.push(
                    at(&prefix, key("email")),
                    IssueCode::DuplicateEmail,
                    Level::Contract,
                    Field::Email,
                    first + 1,
                );
            }
        }

        if let Some(username) = keys.username {
            let trimmed = username.trim();
            if let Some(first) = usernames.before(&Cow::from(trimmed), i) {
                sink.push(
                    at(&prefix, key("username")),
                    IssueCode::DuplicateUsername,
                    Level::Contract,
                    Field::Username,
                    first + 1,
                );
            } else if let Some(first) = usernames_ci.before(&fold(trimmed), i) {
                sink.push(
                    at(&prefix, key("username")),
                    IssueCode::DuplicateUsername,
                    Level::Platform,
                    Field::Username,
                    first + 1,
                );
            }
        }
    }
    sink.finish()
}

/// Validates one account-creation item (also the body of create-single-user). Paths start with the
/// key (`["email"]`); a non-object gives `not_object` at `[]`.
///
/// Contract: as for each item of [`validate_create_users`].
/// Platform (from the platform's documentation): name at least 3 characters after trimming
/// (`too_short`; Unicode characters, `Nguyễn` is 6); username 3–20 characters (`too_short`,
/// `too_long`) of a-z A-Z 0-9 only (`invalid_chars`); password 6–35 characters (`too_short`,
/// `too_long`); a plausible e-mail (`invalid_email`); keys other than the contract's fields
/// (`unknown_field`). `gender` is not restricted (the UI's `Nam`/`Nữ` is only a hint).
pub fn validate_create_user(item: &impl JsonView, opts: ValidateOptions) -> Report {
    let mut sink = Sink::new(opts);
    check_item(item, &[], &mut sink);
    sink.finish()
}
