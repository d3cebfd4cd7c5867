//! Request planning with arbitrary base URLs, tokens and ids.
//!
//! Input: text lines `base`, `token`, `id`, `email`, `username`, `title`, `start`, `limit`, each
//! optional (a missing line takes a working default, so a short input still fuzzes the base URL).
//!
//! Checks: no panic; when `get_user` / `get_course` plans, the id fills exactly one path segment
//! (the URL is the one planned for a plain id with only that segment changed, the segment holds
//! no `/ ? # \` nor is a dot-segment, `%2e` forms included, and it percent-decodes to the id);
//! `start` / `limit` are sent as given; no planned URL holds `#`, whitespace or a control
//! character; `redacted_url()` and `Debug` never hold the token.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lpm_client::{Planner, Request, UserPath};
use lpm_client_fuzz::assert_no_token;

/// An id that fills one segment as is; where it lands in a planned URL is where any id must.
const PLAIN_ID: &str = "PLAINid0fuzz";

/// The bytes `s` percent-decodes to, or `None` when an escape is malformed.
fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Checks every planned request: no token in its logged forms, a URL a parser reads as planned.
fn check_request<R>(req: &Request<R>, token: Option<&str>) {
    let url = req.url();
    assert!(
        !url.contains('#') && !url.chars().any(|c| c.is_whitespace() || c.is_control()),
        "planned URL holds '#', whitespace or a control character: {url:?}"
    );
    if let Some(token) = token {
        assert_no_token("redacted_url()", &req.redacted_url(), token);
        assert_no_token("Debug of the request", &format!("{req:?}"), token);
    }
}

/// Checks that `id` fills exactly one segment: `planned` equals `plain` (planned for
/// [`PLAIN_ID`]) with that segment replaced.
fn check_id_segment<R>(planned: &Request<R>, plain: &Request<R>, base: &str, id: &str) {
    let (url, reference) = (planned.url(), plain.url());
    let at = base.len()
        + reference[base.len()..]
            .find(PLAIN_ID)
            .expect("plain id in its URL");
    let (before, after) = (&reference[..at], &reference[at + PLAIN_ID.len()..]);
    assert!(
        url.starts_with(before) && url.ends_with(after) && url.len() >= before.len() + after.len(),
        "id {id:?} changed the URL outside its segment: {url:?} (plain: {reference:?})"
    );
    let seg = &url[before.len()..url.len() - after.len()];
    assert!(
        !seg.contains(['/', '?', '#', '\\']),
        "id {id:?} left its segment: {seg:?} in {url:?}"
    );
    // WHATWG URL parsers read `%2e` as a dot in dot-segments.
    let dots = seg.to_ascii_lowercase().replace("%2e", ".");
    assert!(
        dots != "." && dots != "..",
        "id {id:?} became a dot-segment: {seg:?} in {url:?}"
    );
    assert_eq!(
        percent_decode(seg).as_deref(),
        Some(id.as_bytes()),
        "segment {seg:?} does not decode to the id {id:?}"
    );
}

/// The value of query parameter `key` in `url`, still encoded.
fn query_param<'a>(url: &'a str, key: &str) -> Option<&'a str> {
    let query = url.split_once('?')?.1;
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    let mut line = |default: &'static str| lines.next().map_or(default.to_owned(), str::to_owned);
    let base = line("https://school.example.com");
    let token = line("kT3~fz.ZQ_9-mW2pLx8vR4nB7cY1sD6gH0jK5eA2uN");
    let id = line("DSuaHiqBri7Yzg2am");
    let email = line("an@example.com");
    let username = line("nguyenvanan");
    let title = line("vật lý");
    let start = line("0").trim().parse::<u64>().unwrap_or(0);
    let limit = line("100").trim().parse::<u32>().unwrap_or(100);

    let Ok(api) = Planner::new(&base) else { return };
    let base_url = api.base_url().to_owned();
    assert!(
        !base_url.contains(['?', '#']),
        "normalised base URL keeps a query or fragment: {base_url:?}"
    );
    let no_token = api.clone();
    let (api, token) = match api.with_token(&token) {
        Ok(api) => (api, Some(token.as_str())),
        Err(e) => {
            // A refused token must not be echoed; skip tokens that are words of the error's
            // own template ("token", "the token is").
            let templates = ["", "short", "has space", "\u{0}"]
                .map(|t| Planner::new("https://x.example").and_then(|a| a.with_token(t)))
                .map(|r| r.err().map(|e| format!("{e} {e:?}")).unwrap_or_default());
            if !templates.iter().any(|t| t.contains(token.as_str())) {
                assert_no_token("token error", &format!("{e} {e:?}"), &token);
            }
            (no_token, None)
        }
    };

    for user_path in [UserPath::Users, UserPath::User] {
        let api = api.clone().with_user_path(user_path);
        if let Ok(req) = api.get_user(&id) {
            check_request(&req, token);
            let plain = api.get_user(PLAIN_ID).expect("a plain id plans");
            check_id_segment(&req, &plain, &base_url, &id);
        }
    }
    if let Ok(req) = api.get_course(&id) {
        check_request(&req, token);
        let plain = api.get_course(PLAIN_ID).expect("a plain id plans");
        check_id_segment(&req, &plain, &base_url, &id);
    }
    if let Ok(req) = api.search_user(Some(&email), Some(&username)) {
        check_request(&req, token);
    }
    if let Ok(req) = api.search_user(None, Some(&username)) {
        check_request(&req, token);
    }
    if let Ok(req) = api.search_courses(&title) {
        check_request(&req, token);
    }
    if let Ok(req) = api.get_me() {
        check_request(&req, token);
    }
    let pages = [
        api.get_users(start, limit).map(|r| r.url().to_owned()),
        api.get_courses(start, limit).map(|r| r.url().to_owned()),
    ];
    for url in pages.into_iter().flatten() {
        assert_eq!(
            query_param(&url, "start"),
            Some(start.to_string().as_str()),
            "{url}"
        );
        assert_eq!(
            query_param(&url, "limit"),
            Some(limit.to_string().as_str()),
            "{url}"
        );
    }
    if let Ok(req) = api.get_users(start, limit) {
        check_request(&req, token);
    }
});
