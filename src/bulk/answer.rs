//! What the jobs read of an answer the gate ([`crate::decode`]'s `check`) has accepted: the few
//! fields they act on, read from the borrowed JSON tree, so the engines need neither serde_json
//! nor the typed replies (neither is in the wasm build). `tests::agree_with_the_typed_replies`
//! holds these readings to the typed decode of every fixture.

use crate::json::{self, JsonView, Kind, Value};

/// One item of a create-multi-user answer (`users[i]`), borrowed from the answer's tree (a
/// hundred items an answer: no copies of their strings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Created<'v> {
    pub email: Option<&'v str>,
    pub username: Option<&'v str>,
    pub user_id: Option<&'v str>,
    pub success: bool,
    pub status: &'v str,
}

/// The account of a search-user answer (`user`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Found {
    pub id: String,
    pub username: String,
    pub emails: Vec<String>,
    /// Its `createdAt` in ms since the epoch, on the platform's clock, when it reads as a time.
    pub created_at: Option<u64>,
}

/// One outcome of an add-courses answer (`result[i]`), borrowed from the answer's tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Granted<'v> {
    pub user_id: &'v str,
    pub success: bool,
    pub status: &'v str,
}

/// The body as a tree (a byte order mark dropped, as the gate drops it).
pub(super) fn tree(body: &[u8]) -> Option<Value<'_>> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    json::parse(core::str::from_utf8(body).ok()?).ok()
}

fn string(v: &Value<'_>, key: &str) -> Option<String> {
    v.get(key).and_then(JsonView::as_str).map(str::to_owned)
}

fn flag(v: &Value<'_>, key: &str) -> bool {
    matches!(v.get(key), Some(Value::Bool(true)))
}

fn items<'v, 'a>(v: &'v Value<'a>, key: &str) -> &'v [Value<'a>] {
    match v.get(key).map(JsonView::kind) {
        Some(Kind::Arr(items)) => items,
        _ => &[],
    }
}

fn text<'v>(v: &'v Value<'_>, key: &str) -> Option<&'v str> {
    v.get(key).and_then(JsonView::as_str)
}

/// The items of a create-multi-user answer (its [`tree`]).
pub(super) fn created<'v>(v: &'v Value<'_>) -> Vec<Created<'v>> {
    items(v, "users")
        .iter()
        .map(|it| Created {
            email: text(it, "email"),
            username: text(it, "username"),
            user_id: text(it, "userId"),
            success: flag(it, "success"),
            status: text(it, "status").unwrap_or_default(),
        })
        .collect()
}

/// A text the server sent, as the journal and the report keep it: through the function errors
/// redact the server's texts with ([`crate::error::redact`]: the token, in any of its encodings),
/// so an echo of the token is written nowhere.
#[inline(never)]
pub(super) fn kept(text: &str, secret: Option<&str>) -> String {
    crate::error::redact(text, secret)
}

/// The account of a search-user answer, its texts [`kept`].
pub(super) fn found(body: &[u8], secret: Option<&str>) -> Option<Found> {
    let v = tree(body)?;
    let user = v.get("user")?;
    let keep = |key: &str| string(user, key).map(|t| kept(&t, secret));
    Some(Found {
        id: keep("_id")?,
        username: keep("username").unwrap_or_default(),
        emails: items(user, "emails")
            .iter()
            .filter_map(|e| string(e, "address").map(|t| kept(&t, secret)))
            .collect(),
        created_at: text(user, "createdAt").and_then(super::judge::iso_ms),
    })
}

/// The ids of the courses the account of a search-user answer holds (`myCourses[].courseId`),
/// [`kept`].
pub(super) fn held(body: &[u8], secret: Option<&str>) -> Vec<String> {
    let Some(v) = tree(body) else {
        return Vec::new();
    };
    let Some(user) = v.get("user") else {
        return Vec::new();
    };
    items(user, "myCourses")
        .iter()
        .filter_map(|c| text(c, "courseId").map(|t| kept(t, secret)))
        .collect()
}

/// The outcomes of an add-courses answer (its [`tree`]).
pub(super) fn granted<'v>(v: &'v Value<'_>) -> Vec<Granted<'v>> {
    items(v, "result")
        .iter()
        .map(|o| Granted {
            user_id: text(o, "userId").unwrap_or_default(),
            success: flag(o, "success"),
            status: text(o, "status").unwrap_or_default(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AddCoursesReply, CreateUsersReply, UserReply};

    /// Every fixture body of an endpoint's folder that the typed reply decodes.
    fn bodies<R: serde::de::DeserializeOwned>(dir: &str) -> Vec<(Vec<u8>, R)> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");
        let mut out = Vec::new();
        for entry in std::fs::read_dir([root, dir].concat()).unwrap() {
            let body = std::fs::read(entry.unwrap().path()).unwrap();
            if let Ok(reply) = serde_json::from_slice::<R>(&body) {
                out.push((body, reply));
            }
        }
        assert!(!out.is_empty(), "no fixture of {dir} decodes");
        out
    }

    #[test]
    fn agree_with_the_typed_replies() {
        for (body, reply) in bodies::<CreateUsersReply>("create-multi-user") {
            let v = tree(&body).unwrap();
            let ours = created(&v);
            assert_eq!(ours.len(), reply.users.len());
            for (a, b) in ours.iter().zip(&reply.users) {
                assert_eq!(a.email, b.email.as_deref());
                assert_eq!(a.username, b.username.as_deref());
                assert_eq!(a.user_id, b.user_id.as_deref());
                assert_eq!(a.success, b.success);
                assert_eq!(a.status, b.status.as_str());
            }
        }
        for (body, reply) in bodies::<UserReply>("search-user") {
            let ours = found(&body, None).unwrap();
            assert_eq!(ours.id, reply.user.id);
            assert_eq!(ours.username, reply.user.username);
            let emails: Vec<&str> = reply
                .user
                .emails
                .iter()
                .map(|e| e.address.as_str())
                .collect();
            assert_eq!(ours.emails, emails);
        }
        for (body, reply) in bodies::<AddCoursesReply>("add-multi-course-to-multi-user") {
            let v = tree(&body).unwrap();
            let ours = granted(&v);
            assert_eq!(ours.len(), reply.result.len());
            for (a, b) in ours.iter().zip(&reply.result) {
                assert_eq!(a.user_id, b.user_id);
                assert_eq!(a.success, b.success);
                assert_eq!(a.status, b.status.as_str());
            }
        }
    }

    #[test]
    fn unreadable_bodies_are_none() {
        assert_eq!(tree(b"\xff"), None);
        assert_eq!(found(b"{\"user\":{}}", None), None);
        assert_eq!(tree(b"{"), None);
    }
}
