//! Response decoding of every endpoint, with a known token on the request.
//!
//! Input: an optional header line `<endpoint-key> <status> [<token-index>]\n`, then the body
//! (`scripts/fuzz.sh` seeds `get-single-user 200\n{...fixture...}`). Without a usable header the
//! endpoint and status are derived from the input, and the whole input is the body.
//!
//! Checks: `decode` never panics, and no text of an error (Display, Debug, JSON, each string
//! field) holds the token, whatever the server sends (bodies that echo it included); the wasm's
//! ASCII pass (`json::ascii`) refuses exactly the bodies that are not UTF-8.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lpm_client::{AddCoursesInput, Planner, Endpoint, Error, NewUser};
use lpm_client_fuzz::{assert_error_clean, TOKENS};

/// Interesting statuses, for headers whose status is not a number.
const STATUSES: [u16; 12] = [200, 201, 204, 301, 400, 401, 403, 404, 429, 500, 502, 503];

struct Case<'a> {
    endpoint: Endpoint,
    status: u16,
    token: &'static str,
    body: &'a [u8],
}

fn parse(data: &[u8]) -> Case<'_> {
    let h = data.iter().fold(0usize, |h, &b| {
        h.wrapping_mul(31).wrapping_add(usize::from(b))
    });
    let mut case = Case {
        endpoint: Endpoint::ALL[h % Endpoint::ALL.len()],
        status: STATUSES[(h / 16) % STATUSES.len()],
        token: TOKENS[(h / 256) % TOKENS.len()],
        body: data,
    };
    let Some(nl) = data.iter().position(|&b| b == b'\n') else {
        return case;
    };
    let Ok(header) = std::str::from_utf8(&data[..nl]) else {
        return case;
    };
    let mut words = header.split(' ');
    let Some(endpoint) = words.next().and_then(Endpoint::from_key) else {
        return case;
    };
    case.endpoint = endpoint;
    case.body = &data[nl + 1..];
    if let Some(status) = words.next().and_then(|s| s.parse::<u16>().ok()) {
        case.status = status;
    }
    if let Some(t) = words.next().and_then(|s| s.parse::<usize>().ok()) {
        case.token = TOKENS[t % TOKENS.len()];
    }
    case
}

/// Plans a valid request of `endpoint` with `token` and decodes `body` with it; the error, if any.
fn decode(endpoint: Endpoint, token: &str, status: u16, body: &[u8]) -> Option<Error> {
    let api = Planner::new("https://school.example.com")
        .and_then(|a| a.with_token(token))
        .expect("a valid base URL and token");
    let user = NewUser {
        name: "Nguyễn Văn An".into(),
        username: "nguyenvanan".into(),
        email: "an@example.com".into(),
        password: "Secret-Passw0rd".into(),
        phone: None,
        city: None,
        district: None,
        street: None,
        gender: None,
        job: None,
    };
    macro_rules! run {
        ($planned:expr) => {
            $planned
                .expect("a valid request plans")
                .decode(status, body)
                .err()
        };
    }
    match endpoint {
        Endpoint::CreateUsers => run!(api.create_users(std::slice::from_ref(&user))),
        Endpoint::CreateUser => run!(api.create_user_raw(&user)),
        Endpoint::GetUsers => run!(api.get_users(0, 100)),
        Endpoint::GetUser => run!(api.get_user("DSuaHiqBri7Yzg2am")),
        Endpoint::GetMe => run!(api.get_me()),
        Endpoint::SearchUser => run!(api.search_user(Some("an@example.com"), None)),
        Endpoint::GetCourse => run!(api.get_course("cFowRMyb7hieymiX2")),
        Endpoint::GetCourses => run!(api.get_courses(0, 100)),
        Endpoint::SearchCourses => run!(api.search_courses("vật lý")),
        Endpoint::AddCoursesToUsers => run!(api.add_courses_to_users(&AddCoursesInput {
            users: vec!["DSuaHiqBri7Yzg2am".into()],
            courses: vec!["cFowRMyb7hieymiX2".into()],
        })),
        Endpoint::Login => run!(api.login("an@example.com", "Secret-Passw0rd")),
        Endpoint::CreateLoginToken => run!(api.create_login_token("DSuaHiqBri7Yzg2am")),
    }
}

fuzz_target!(|data: &[u8]| {
    let case = parse(data);
    // The wasm's pass before its check: it refuses exactly what is not UTF-8, never panics.
    assert_eq!(
        lpm_client::json::ascii(case.body).is_some(),
        std::str::from_utf8(case.body).is_ok()
    );
    if let Some(err) = decode(case.endpoint, case.token, case.status, case.body) {
        assert_error_clean(&err, case.token);
    }
});
