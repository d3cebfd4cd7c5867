//! Planning of every endpoint (method, URL, body), percent-encoding of the token and of path ids,
//! refusals before sending, keeping the token out of every text, and the decoding rules of
//! `Request::decode` (envelope first, whatever the HTTP status).
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

mod common;

use common::{new_user, percent_decode, url_parts};
use lpm_client::{
    AddCoursesInput, Category, ConfigError, Endpoint, Error, Method, NewUser, PathSegment, Planner,
    Reason, UserPath,
};
use serde_json::{json, Value};

/// A token using every kind of character a token may hold (RFC 3986 unreserved only).
const TOKEN: &str = "Ab-c.d_e~f0123456789ABCDEFGHIJklmn";
/// `TOKEN` in a query: unreserved characters need no encoding, so it is the token itself.
const TOKEN_ENC: &str = TOKEN;
const BASE: &str = "https://x.example/school/";
const PREFIX: &str = "https://x.example/school/manage/api/";

fn api() -> Planner {
    Planner::new(BASE).unwrap().with_token(TOKEN).unwrap()
}

fn body_json(body: Option<&str>) -> Value {
    serde_json::from_str(body.expect("a body")).expect("the body is JSON")
}

fn input(users: usize, courses: usize) -> AddCoursesInput {
    AddCoursesInput {
        users: (0..users).map(|i| format!("U{i:016}")).collect(),
        courses: (0..courses).map(|i| format!("C{i:016}")).collect(),
    }
}

fn validation<T: core::fmt::Debug>(r: Result<T, Error>) -> lpm_client::ValidationError {
    match r {
        Err(Error::Validation(e)) => e,
        other => panic!("expected a validation error, got {other:?}"),
    }
}

fn keys(path: &[PathSegment]) -> Value {
    serde_json::to_value(path).unwrap()
}

// ---- method, URL and body of every endpoint ---------------------------------------------------

#[test]
fn every_endpoint_method_url_and_body() {
    for base in [
        "https://x.example/school/",
        "https://x.example/school",
        "https://x.example/school//",
    ] {
        let api = Planner::new(base).unwrap().with_token(TOKEN).unwrap();
        assert_eq!(api.base_url(), "https://x.example/school");
        let q = format!("?token={TOKEN_ENC}");

        let users = [new_user(1), new_user(2)];
        let r = api.create_users(&users).unwrap();
        assert_eq!(
            (r.endpoint(), r.method(), r.url()),
            (
                Endpoint::CreateUsers,
                Method::Post,
                format!("{PREFIX}users/create-multi-user{q}").as_str()
            )
        );
        assert_eq!(
            body_json(r.body()),
            json!({"users": [serde_json::to_value(&users[0]).unwrap(), serde_json::to_value(&users[1]).unwrap()]})
        );
        assert_eq!(
            body_json(r.body())["users"][1],
            json!({"name": "Người dùng 2", "username": "user2", "email": "user2@example.com", "password": "secret-password"})
        );

        let mut one = new_user(3);
        one.gender = Some("Nữ".into());
        let r = api.create_user_raw(&one).unwrap();
        assert_eq!(r.method(), Method::Post);
        assert_eq!(r.url(), format!("{PREFIX}users/create-single-user{q}"));
        assert_eq!(
            body_json(r.body()),
            json!({"name": "Người dùng 3", "username": "user3", "email": "user3@example.com", "password": "secret-password", "gender": "Nữ"})
        );

        let r = api.get_users(20, 50).unwrap();
        assert_eq!(r.method(), Method::Get);
        assert_eq!(
            r.url(),
            format!("{PREFIX}users/get-multi-user{q}&start=20&limit=50")
        );
        assert_eq!(r.body(), None);

        let r = api.get_user("X7mKq2RBtWdHn4sPz").unwrap();
        assert_eq!(r.method(), Method::Get);
        assert_eq!(
            r.url(),
            format!("{PREFIX}users/get-single-user/X7mKq2RBtWdHn4sPz{q}")
        );
        assert_eq!(r.body(), None);

        let r = api.get_me().unwrap();
        assert_eq!(r.method(), Method::Get);
        assert_eq!(r.url(), format!("{PREFIX}users/get-me{q}"));
        assert_eq!(r.body(), None);

        let r = api.search_user(Some("an+vn@x.vn"), Some("bob")).unwrap();
        assert_eq!(r.method(), Method::Get);
        assert_eq!(
            r.url(),
            format!("{PREFIX}users/search-user{q}&email=an%2Bvn%40x.vn&username=bob")
        );
        assert_eq!(r.body(), None);

        let r = api.get_course("cFowRMyb7hieymiX2").unwrap();
        assert_eq!(r.method(), Method::Get);
        assert_eq!(
            r.url(),
            format!("{PREFIX}courses/get-single-course/cFowRMyb7hieymiX2{q}")
        );
        assert_eq!(r.body(), None);

        let r = api.get_courses(0, 0).unwrap();
        assert_eq!(r.method(), Method::Get);
        assert_eq!(
            r.url(),
            format!("{PREFIX}courses/get-multi-course{q}&start=0&limit=0")
        );
        assert_eq!(r.body(), None);

        let r = api.search_courses("Trắc nghiệm").unwrap();
        assert_eq!(r.method(), Method::Get);
        assert_eq!(
            r.url(),
            format!("{PREFIX}courses/search-course{q}&title=Tr%E1%BA%AFc%20nghi%E1%BB%87m")
        );
        assert_eq!(r.body(), None);

        let r = api
            .add_courses_to_users(&AddCoursesInput {
                users: vec!["u1".into(), "u2".into()],
                courses: vec!["c1".into()],
            })
            .unwrap();
        assert_eq!(r.method(), Method::Post);
        assert_eq!(
            r.url(),
            format!("{PREFIX}courses/add-multi-course-to-multi-user{q}")
        );
        assert_eq!(
            body_json(r.body()),
            json!({"users": ["u1", "u2"], "courses": ["c1"]})
        );

        let r = api.login("admin@x.vn", "pa ss+wörd").unwrap();
        assert_eq!(r.method(), Method::Post);
        assert_eq!(r.url(), format!("{PREFIX}users/login-user"));
        assert_eq!(
            body_json(r.body()),
            json!({"email": "admin@x.vn", "password": "pa ss+wörd"})
        );

        let r = api.create_login_token("u 1").unwrap();
        assert_eq!(r.method(), Method::Post);
        assert_eq!(r.url(), format!("{PREFIX}users/create-user-login-token{q}"));
        assert_eq!(body_json(r.body()), json!({"userid": "u 1"}));
        assert_eq!(
            api.create_login_token("").unwrap_err().kind(),
            "validation",
            "an empty user id is refused before sending"
        );
    }
}

#[test]
fn base_without_prefix() {
    let api = Planner::new("http://localhost:8080/")
        .unwrap()
        .with_token("t0123456")
        .unwrap();
    assert_eq!(
        api.get_me().unwrap().url(),
        "http://localhost:8080/manage/api/users/get-me?token=t0123456"
    );
}

#[test]
fn get_single_user_both_spellings() {
    let r = api().get_user("abc").unwrap();
    assert_eq!(
        url_parts(r.url()).0,
        ["school", "manage", "api", "users", "get-single-user", "abc"]
    );
    let r = api()
        .with_user_path(UserPath::Users)
        .get_user("abc")
        .unwrap();
    assert!(r.url().contains("/manage/api/users/get-single-user/abc?"));
    let r = api()
        .with_user_path(UserPath::User)
        .get_user("abc")
        .unwrap();
    assert_eq!(
        r.url(),
        format!("{PREFIX}user/get-single-user/abc?token={TOKEN_ENC}")
    );
    assert_eq!(UserPath::default(), UserPath::Users);
}

// ---- the token in the query ---------------------------------------------------------------------

fn every_request_url(api: &Planner) -> Vec<String> {
    let input = input(1, 1);
    vec![
        api.create_users(&[new_user(1)]).unwrap().url().to_owned(),
        api.create_user_raw(&new_user(1)).unwrap().url().to_owned(),
        api.get_users(0, 1).unwrap().url().to_owned(),
        api.get_user("a").unwrap().url().to_owned(),
        api.get_me().unwrap().url().to_owned(),
        api.search_user(None, Some("bob")).unwrap().url().to_owned(),
        api.get_course("c").unwrap().url().to_owned(),
        api.get_courses(0, 1).unwrap().url().to_owned(),
        api.search_courses("toán").unwrap().url().to_owned(),
        api.add_courses_to_users(&input).unwrap().url().to_owned(),
    ]
}

#[test]
fn token_is_sent_once_verbatim() {
    for url in every_request_url(&api()) {
        assert_eq!(url.matches("token=").count(), 1, "{url}");
        let (_, query) = url_parts(&url);
        let query = query.expect("a query");
        let tokens: Vec<&str> = query
            .split('&')
            .filter_map(|kv| kv.strip_prefix("token="))
            .collect();
        assert_eq!(tokens, [TOKEN], "{url}");
    }
}

#[test]
fn tokens_outside_the_unreserved_alphabet_or_too_short_are_refused() {
    for bad in [
        "",
        "short",
        "1234567",
        "has space inside",
        "plus+sign0123",
        "slash/0123456",
        "equals=0123456",
        "amp&0123456789",
        "query?01234567",
        "pct%2B01234567",
        "quote\"0123456",
        "tab\t012345678",
        "Tr\u{1ea7}n0123456",
    ] {
        match Planner::new(BASE).unwrap().with_token(bad) {
            Err(Error::Config(ConfigError::Token { .. })) => {}
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    for good in [
        "12345678",
        "Ab-c.d_e~f",
        "demo-admin-token-00000000000000000000000000",
    ] {
        assert!(
            Planner::new(BASE).unwrap().with_token(good).is_ok(),
            "{good}"
        );
    }
}

#[test]
fn login_carries_no_token() {
    let r = api().login("a@b.vn", "secret1").unwrap();
    assert!(!r.url().contains("token"));
    assert!(!r.url().contains('?'));
    // and works on a Planner that has none
    let r = Planner::new(BASE)
        .unwrap()
        .login("a@b.vn", "secret1")
        .unwrap();
    assert_eq!(r.url(), format!("{PREFIX}users/login-user"));
}

#[test]
fn endpoints_needing_a_token_refuse_without_one() {
    let api = Planner::new(BASE).unwrap();
    let no_token = |r: Result<(), Error>, endpoint: Endpoint| match r {
        Err(Error::Config(ConfigError::NoToken { endpoint: e })) => assert_eq!(e, endpoint),
        other => panic!("{endpoint}: expected NoToken, got {other:?}"),
    };
    no_token(
        api.create_users(&[new_user(1)]).map(drop),
        Endpoint::CreateUsers,
    );
    no_token(
        api.create_user_raw(&new_user(1)).map(drop),
        Endpoint::CreateUser,
    );
    no_token(api.get_users(0, 1).map(drop), Endpoint::GetUsers);
    no_token(api.get_user("a").map(drop), Endpoint::GetUser);
    no_token(api.get_me().map(drop), Endpoint::GetMe);
    no_token(
        api.search_user(Some("a@b.vn"), None).map(drop),
        Endpoint::SearchUser,
    );
    no_token(api.get_course("c").map(drop), Endpoint::GetCourse);
    no_token(api.get_courses(0, 0).map(drop), Endpoint::GetCourses);
    no_token(api.search_courses("x").map(drop), Endpoint::SearchCourses);
    no_token(
        api.add_courses_to_users(&input(1, 1)).map(drop),
        Endpoint::AddCoursesToUsers,
    );
    let e = api.get_me().unwrap_err();
    assert_eq!(e.kind(), "config");
    assert!(!e.retryable());
}

// ---- ids in exactly one path segment ---------------------------------------------------------------

const ODD_IDS: &[&str] = &[
    "a/b",
    "a?b",
    "a#b",
    "a%b",
    "a%2Fb",
    "a b",
    " lead and trail ",
    "Nguyễn Văn Ánh",
    "a..b",
    "../../admin",
    "..%2F..%2Fadmin",
    "..a",
    "...",
    "./x",
    "x/.",
    "/",
    "?",
    "#",
    "&token=stolen",
    "a\\b",
    "😀",
    "\u{0}",
];

#[test]
fn ids_fill_exactly_one_path_segment() {
    for path in [UserPath::Users, UserPath::User] {
        let api = api().with_user_path(path);
        for id in ODD_IDS {
            for (url, dir, name) in [
                (
                    api.get_user(id).unwrap().url().to_owned(),
                    match path {
                        UserPath::Users => "users",
                        UserPath::User => "user",
                    },
                    "get-single-user",
                ),
                (
                    api.get_course(id).unwrap().url().to_owned(),
                    "courses",
                    "get-single-course",
                ),
            ] {
                let (segments, query) = url_parts(&url);
                assert_eq!(segments.len(), 6, "{id:?}: {url}");
                assert_eq!(&segments[..5], ["school", "manage", "api", dir, name]);
                let last = &segments[5];
                assert!(!last.contains(['/', '?', '#']), "{id:?}: {url}");
                assert_ne!(last, ".");
                assert_ne!(last, "..");
                assert_eq!(percent_decode(last).as_deref(), Some(*id), "{url}");
                assert_eq!(query, Some(format!("token={TOKEN_ENC}")), "{id:?}: {url}");
            }
        }
    }
}

#[test]
fn dot_and_empty_ids_are_refused() {
    for (id, code) in [
        (".", "dot_segment"),
        ("..", "dot_segment"),
        (" .. ", "dot_segment"),
        ("", "required"),
        ("   ", "required"),
    ] {
        let e = validation(api().get_user(id));
        assert_eq!(e.endpoint, Endpoint::GetUser);
        assert_eq!(e.report.issues[0].code, code, "{id:?}");
        let e = validation(api().get_course(id));
        assert_eq!(e.endpoint, Endpoint::GetCourse);
        assert_eq!(e.report.issues[0].code, code, "{id:?}");
        let e = validation(api().add_courses_to_users(&AddCoursesInput {
            users: vec![id.into()],
            courses: vec!["c".into()],
        }));
        assert_eq!(keys(&e.report.issues[0].path), json!(["users", 0]));
    }
}

// ---- queries and limits ----------------------------------------------------------------------------

#[test]
fn search_user_query() {
    let r = api()
        .search_user(Some("an.nguyen+lop12@gmail.com"), None)
        .unwrap();
    let (_, q) = url_parts(r.url());
    assert_eq!(
        q.unwrap(),
        format!("token={TOKEN_ENC}&email=an.nguyen%2Blop12%40gmail.com")
    );
    let r = api().search_user(None, Some("nguyenvanan")).unwrap();
    assert!(r
        .url()
        .ends_with(&format!("token={TOKEN_ENC}&username=nguyenvanan")));
    // an empty e-mail is not sent
    let r = api().search_user(Some(""), Some("bob")).unwrap();
    assert!(!r.url().contains("email="));
    let e = validation(api().search_user(None, None));
    assert_eq!(e.report.issues[0].code, "email_or_username_required");
    let e = validation(api().search_user(Some(" "), Some("")));
    assert_eq!(e.endpoint, Endpoint::SearchUser);
}

#[test]
fn search_course_query_is_utf8_percent_encoded() {
    let r = api().search_courses("Trắc nghiệm").unwrap();
    let (_, q) = url_parts(r.url());
    let q = q.unwrap();
    assert_eq!(
        q,
        format!("token={TOKEN_ENC}&title=Tr%E1%BA%AFc%20nghi%E1%BB%87m")
    );
    let title = q.split_once("&title=").unwrap().1;
    assert_eq!(percent_decode(title).as_deref(), Some("Trắc nghiệm"));
    let r = api().search_courses("a&b=c#d").unwrap();
    assert!(r.url().ends_with("&title=a%26b%3Dc%23d"));
    let e = validation(api().search_courses("  "));
    assert_eq!(keys(&e.report.issues[0].path), json!(["title"]));
}

#[test]
fn start_and_limit_are_always_sent() {
    let r = api().get_users(0, 1).unwrap();
    assert!(r.url().ends_with("&start=0&limit=1"));
    let r = api().get_courses(0, 0).unwrap();
    assert!(r.url().ends_with("&start=0&limit=0"));
    let r = api().get_users(u32::MAX.into(), 100).unwrap();
    assert!(r.url().ends_with(&format!("&start={}&limit=100", u32::MAX)));
}

#[test]
fn page_limits() {
    for limit in [0, 101, 1000, u32::MAX] {
        let e = validation(api().get_users(0, limit));
        assert_eq!(e.endpoint, Endpoint::GetUsers);
        assert_eq!(keys(&e.report.issues[0].path), json!(["limit"]), "{limit}");
    }
    for limit in [1, 2, 99, 100] {
        assert!(api().get_users(0, limit).is_ok(), "{limit}");
    }
    for limit in [0, 1, 100] {
        assert!(api().get_courses(7, limit).is_ok(), "{limit}");
    }
    for limit in [101, u32::MAX] {
        let e = validation(api().get_courses(0, limit));
        assert_eq!(e.endpoint, Endpoint::GetCourses);
        assert_eq!(e.report.issues[0].code, "too_large");
    }
    assert_eq!(
        validation(api().get_users(0, 0)).report.issues[0].code,
        "too_small"
    );
}

// ---- create-users ----------------------------------------------------------------------------------

#[test]
fn create_users_batch_size() {
    let e = validation(api().create_users(&[]));
    assert_eq!(e.endpoint, Endpoint::CreateUsers);
    assert_eq!(e.report.issues[0].code, "empty");
    assert!(e.report.issues[0].path.is_empty());

    let users: Vec<NewUser> = (0..101).map(new_user).collect();
    let e = validation(api().create_users(&users));
    assert_eq!(e.report.issues[0].code, "too_many");

    let r = api().create_users(&users[..100]).unwrap();
    assert_eq!(body_json(r.body())["users"].as_array().unwrap().len(), 100);
    assert!(api().create_users(&users[..1]).is_ok());
}

#[test]
fn create_users_duplicate_emails_case_insensitive() {
    let mut users = vec![new_user(1), new_user(2)];
    users[0].email = "An.Nguyen@Gmail.com".into();
    users[1].email = "an.nguyen@gmail.COM".into();
    let e = validation(api().create_users(&users));
    let issue = &e.report.issues[0];
    assert_eq!(issue.code, "duplicate_email");
    assert_eq!(
        issue.path,
        vec![PathSegment::Index(1), PathSegment::Key("email".into())]
    );
    assert_eq!(keys(&issue.path), json!([1, "email"]));
    assert!(!e.to_string().is_empty());

    // same username: also refused
    let mut users = vec![new_user(1), new_user(2)];
    users[1].username = users[0].username.clone();
    let e = validation(api().create_users(&users));
    assert_eq!(e.report.issues[0].code, "duplicate_username");
}

#[test]
fn create_users_platform_rules_only_when_strict() {
    let mut users = vec![new_user(1), new_user(2)];
    users[1].name = "An".into();
    assert!(api().create_users(&users).is_ok());
    let e = validation(api().with_strict_platform_rules(true).create_users(&users));
    let issue = &e.report.issues[0];
    assert_eq!(issue.code, "too_short");
    assert_eq!(keys(&issue.path), json!([1, "name"]));

    // the same for the single-user call
    let mut one = new_user(1);
    one.name = "An".into();
    assert!(api().create_user_raw(&one).is_ok());
    let e = validation(api().with_strict_platform_rules(true).create_user_raw(&one));
    assert_eq!(e.endpoint, Endpoint::CreateUser);
    assert_eq!(keys(&e.report.issues[0].path), json!(["name"]));
}

#[test]
fn create_users_missing_required_field_refused() {
    let mut users = vec![new_user(1), new_user(2)];
    users[1].password = "  ".into();
    let e = validation(api().create_users(&users));
    assert_eq!(keys(&e.report.issues[0].path), json!([1, "password"]));
    assert_eq!(e.report.issues[0].code, "required");
    // raw JSON (what the wasm layer plans from): see plan.rs's unit test
}

// ---- add-courses -----------------------------------------------------------------------------------

#[test]
fn add_courses_sizes() {
    let e = validation(api().add_courses_to_users(&input(0, 1)));
    assert_eq!(e.endpoint, Endpoint::AddCoursesToUsers);
    assert_eq!(keys(&e.report.issues[0].path), json!(["users"]));
    assert_eq!(e.report.issues[0].code, "empty");

    let e = validation(api().add_courses_to_users(&input(101, 1)));
    assert_eq!(e.report.issues[0].code, "too_many");

    let e = validation(api().add_courses_to_users(&input(1, 0)));
    assert_eq!(keys(&e.report.issues[0].path), json!(["courses"]));

    let r = api().add_courses_to_users(&input(100, 3)).unwrap();
    let body = body_json(r.body());
    assert_eq!(body["users"].as_array().unwrap().len(), 100);
    assert_eq!(body["courses"].as_array().unwrap().len(), 3);
}

// ---- configuration ----------------------------------------------------------------------------------

#[test]
fn bad_base_urls() {
    for base in [
        "ftp://x",
        "http://",
        "https://",
        "https:///school",
        "https://x/?a=1",
        "https://x.example/school#top",
        "x.example",
        "//x.example",
        "",
        "   ",
        "https://x .example",
        "https://x.example/my school",
        "https://x.example/\tschool",
        "https://x.example/\nschool",
    ] {
        match Planner::new(base) {
            Err(Error::Config(ConfigError::BaseUrl { reason })) => {
                assert!(!reason.is_empty())
            }
            other => panic!("{base:?}: expected a BaseUrl error, got {other:?}"),
        }
    }
    for good in ["http://x", "https://x.example:8443/a/b/", "HTTPS://x"] {
        assert!(Planner::new(good).is_ok(), "{good}");
    }
    // Credentials in the URL would travel with every request and show in host errors.
    for userinfo in ["https://admin:pw@x.example", "http://user@x.example/school"] {
        match Planner::new(userinfo) {
            Err(Error::Config(ConfigError::BaseUrl { .. })) => {}
            other => panic!("{userinfo}: {other:?}"),
        }
    }
}

#[test]
fn scheme_and_host_are_normalised_to_lower_case_but_not_the_path() {
    let api = Planner::new("HTTPS://School.Example.COM:8443/App/").unwrap();
    assert_eq!(api.base_url(), "https://school.example.com:8443/App");
    // One spelling of a server, so one create-interval guard key.
    assert_eq!(
        lpm_client::interval::guard_key(api.base_url(), Some(TOKEN)),
        lpm_client::interval::guard_key(
            Planner::new("https://school.example.com:8443/App")
                .unwrap()
                .base_url(),
            Some(TOKEN)
        )
    );
}

#[test]
fn blank_search_parameters_are_not_sent() {
    let url = api()
        .search_user(Some("   "), Some("bob"))
        .unwrap()
        .url()
        .to_owned();
    assert!(
        url.ends_with(&format!("token={TOKEN}&username=bob")),
        "{url}"
    );
    assert!(matches!(
        api().search_user(Some("  "), Some("")),
        Err(Error::Validation(_))
    ));
}

#[test]
fn parameters_must_be_an_object_or_absent() {
    use lpm_client::validate::{validate_params, ValidateOptions};
    let opts = ValidateOptions::default();
    for ok in [json!(null), json!({}), json!({"start": 1})] {
        assert!(validate_params(&ok, opts).is_ok(), "{ok}");
    }
    for bad in [json!("x"), json!(3), json!([1, 2]), json!(true)] {
        let r = validate_params(&bad, opts);
        assert_eq!(r.issues.len(), 1, "{bad}");
        assert_eq!(r.issues[0].code, "params_not_object");
        assert!(r.issues[0].path.is_empty());
    }
}

#[test]
fn bad_tokens() {
    for token in [
        "",
        " ",
        "a b",
        "ab\t",
        "\nab",
        "a\u{0}b",
        "a\u{a0}b",
        "0123456 7",
        "01234567\u{a0}",
    ] {
        match Planner::new(BASE).unwrap().with_token(token) {
            Err(Error::Config(ConfigError::Token { .. })) => {}
            other => panic!("{token:?}: expected a Token error, got {other:?}"),
        }
    }
}

// ---- the token never shows ----------------------------------------------------------------------------

fn assert_secret_free(text: &str, what: &str) {
    assert!(!text.contains(TOKEN), "{what} shows the token: {text}");
    assert!(
        !text.contains(TOKEN_ENC),
        "{what} shows the encoded token: {text}"
    );
    assert!(
        !text.contains(&TOKEN_ENC.to_lowercase()),
        "{what} shows the encoded token (lower case): {text}"
    );
}

fn assert_error_secret_free(e: &Error, what: &str) {
    assert_secret_free(&e.to_string(), &format!("{what} Display"));
    assert_secret_free(&format!("{e:?}"), &format!("{what} Debug"));
    assert_secret_free(&format!("{e:#?}"), &format!("{what} Debug"));
    assert_secret_free(
        &serde_json::to_string(e).unwrap(),
        &format!("{what} serialized"),
    );
}

#[test]
fn token_absent_from_request_debug_and_redacted_url() {
    let api = api();
    assert_secret_free(&format!("{api:?}"), "Planner Debug");
    assert_secret_free(&format!("{:?}", api.token()), "Token Debug");
    let input = input(1, 1);
    let debugs = [
        format!("{:?}", api.create_users(&[new_user(1)]).unwrap()),
        format!("{:?}", api.create_user_raw(&new_user(1)).unwrap()),
        format!("{:?}", api.get_users(0, 1).unwrap()),
        format!("{:?}", api.get_user("a").unwrap()),
        format!("{:?}", api.get_me().unwrap()),
        format!("{:?}", api.search_user(None, Some("bob")).unwrap()),
        format!("{:?}", api.get_course("c").unwrap()),
        format!("{:?}", api.get_courses(0, 1).unwrap()),
        format!("{:#?}", api.search_courses("toán").unwrap()),
        format!("{:?}", api.add_courses_to_users(&input).unwrap()),
        format!("{:?}", api.login("a@b.vn", "pw").unwrap()),
    ];
    for d in &debugs {
        assert_secret_free(d, "Request Debug");
    }
    let r = api.get_users(0, 1).unwrap();
    assert_eq!(
        r.redacted_url(),
        format!("{PREFIX}users/get-multi-user?token=<redacted>&start=0&limit=1")
    );
    for url in [
        api.get_me().unwrap().redacted_url(),
        api.get_user(TOKEN).unwrap().redacted_url(),
        api.search_courses(TOKEN).unwrap().redacted_url(),
        api.create_users(&[new_user(1)]).unwrap().redacted_url(),
    ] {
        assert_secret_free(&url, "redacted_url");
        assert!(url.contains("token=<redacted>"), "{url}");
    }
}

#[test]
fn login_debug_hides_the_password() {
    let r = Planner::new(BASE)
        .unwrap()
        .login("admin@x.vn", "Sup3r-S3cret-Pw")
        .unwrap();
    let d = format!("{r:?} {r:#?}");
    assert!(!d.contains("Sup3r-S3cret-Pw"), "{d}");
    assert!(r.body().unwrap().contains("Sup3r-S3cret-Pw"));
    let d = format!("{:?}", new_user(1));
    assert!(!d.contains("secret-password"), "{d}");
}

#[test]
fn api_errors_echoing_the_token_are_redacted() {
    let api = api();
    let msg = format!("Invalid token {TOKEN} (query token={TOKEN_ENC})");
    let body = json!({"respCode": "08", "users": null, "msg": msg}).to_string();
    let e = api
        .create_users(&[new_user(1)])
        .unwrap()
        .decode(401, body.as_bytes())
        .unwrap_err();
    assert!(matches!(&e, Error::Api(a) if a.code == "08"), "{e:?}");
    assert_error_secret_free(&e, "API error");

    // a respCode that echoes it too
    let body = json!({"respCode": TOKEN, "msg": TOKEN_ENC}).to_string();
    let e = api
        .get_me()
        .unwrap()
        .decode(200, body.as_bytes())
        .unwrap_err();
    assert_eq!(e.kind(), "api");
    assert_error_secret_free(&e, "API error (code)");
}

#[test]
fn http_errors_echoing_the_token_are_redacted() {
    let api = api();
    let html = format!(
        "<html><body><h1>502 Bad Gateway</h1><p>GET /school/manage/api/users/get-me?token={TOKEN_ENC}</p><p>{TOKEN}</p></body></html>"
    );
    let e = api
        .get_me()
        .unwrap()
        .decode(502, html.as_bytes())
        .unwrap_err();
    assert!(matches!(&e, Error::Http(h) if h.status == 502), "{e:?}");
    assert_error_secret_free(&e, "HTTP error");

    // JSON that is not an envelope, on a non-2xx
    let body = json!({"error": format!("bad token {TOKEN}")}).to_string();
    let e = api
        .get_me()
        .unwrap()
        .decode(500, body.as_bytes())
        .unwrap_err();
    assert_eq!(e.kind(), "http");
    assert_error_secret_free(&e, "HTTP error (JSON)");
}

#[test]
fn http_excerpt_never_keeps_a_cut_token() {
    // The token straddles the 200-character cut: the excerpt must not keep its first half.
    let api = api();
    let html = format!("{}{TOKEN}{}", "x".repeat(185), "y".repeat(100));
    let e = api
        .get_me()
        .unwrap()
        .decode(500, html.as_bytes())
        .unwrap_err();
    let Error::Http(h) = &e else { panic!("{e:?}") };
    let head = &TOKEN[..12];
    assert!(
        !h.excerpt.contains(head),
        "the excerpt keeps the token's first characters: {}",
        h.excerpt
    );
}

#[test]
fn texts_taken_from_the_server_are_bounded() {
    // A 5 MB msg and respCode: the ApiError keeps 200 characters of each, marked as cut.
    let huge = "m".repeat(5 << 20);
    let body = format!(r#"{{"respCode":"4{huge}","msg":"{huge}"}}"#);
    let e = api()
        .get_me()
        .unwrap()
        .decode(400, body.as_bytes())
        .unwrap_err();
    let Error::Api(a) = &e else {
        panic!("{}", e.kind())
    };
    assert_eq!(a.msg.chars().count(), 201);
    assert!(a.msg.ends_with('…') && a.code.ends_with('…'));
    assert!(e.message().len() < 1000, "{}", e.message().len());
    // A short msg is kept as received, spaces included.
    let e = api()
        .get_me()
        .unwrap()
        .decode(400, br#"{"respCode":"42","msg":" as sent "}"#)
        .unwrap_err();
    assert!(matches!(&e, Error::Api(a) if a.msg == " as sent "), "{e:?}");
    // (A DecodeError's path and detail pass through the same bound; the checker builds them from
    // the reply's description, so no server text reaches them today.)
}

#[test]
fn decode_errors_echoing_the_token_are_redacted() {
    let api = api();
    // 2xx, a JSON string that is not an envelope
    let body = serde_json::to_string(TOKEN).unwrap();
    let e = api
        .get_me()
        .unwrap()
        .decode(200, body.as_bytes())
        .unwrap_err();
    assert!(matches!(&e, Error::Decode(d) if d.path == "."), "{e:?}");
    assert_error_secret_free(&e, "decode error (not an envelope)");

    // a value of the wrong type whose text is the token
    let body = json!({"respCode": "00", "course": {"price": {"original": TOKEN}}}).to_string();
    let e = api
        .get_course("c")
        .unwrap()
        .decode(200, body.as_bytes())
        .unwrap_err();
    assert!(
        matches!(&e, Error::Decode(d) if d.path == "course.price.original"),
        "{e:?}"
    );
    assert_error_secret_free(&e, "decode error (value)");
}

#[test]
fn decode_error_path_echoing_the_token_is_redacted() {
    // A map key on the path of a decode error: the path must be redacted like the message.
    let api = api();
    let body = format!(
        r#"{{"respCode":"00","course":{{"affiliates":{{"basic_payout_value":{{"{TOKEN}":"ten"}}}}}}}}"#
    );
    let e = api
        .get_course("c")
        .unwrap()
        .decode(200, body.as_bytes())
        .unwrap_err();
    assert_eq!(e.kind(), "decode");
    assert_error_secret_free(&e, "decode error (path)");
}

/// Defence in depth: tokens are unreserved characters (so they travel unencoded), but `redact`
/// also knows a secret's percent-encoded forms in either case of hex digits, should the alphabet
/// ever be relaxed.
#[test]
fn redact_finds_percent_encoded_forms_in_either_case() {
    let secret = "ab+c/d=e&f?g%h_0123456789ABCDEFGHIJ";
    for echo in [
        secret.to_owned(),
        "ab%2Bc%2Fd%3De%26f%3Fg%25h_0123456789ABCDEFGHIJ".to_owned(),
        "ab%2bc%2fd%3de%26f%3fg%25h_0123456789ABCDEFGHIJ".to_owned(),
        "ab%2Bc%2fd%3De%26f%3Fg%25h_0123456789ABCDEFGHIJ".to_owned(),
    ] {
        let text = format!("bad token={echo} (again: {echo})");
        assert_eq!(
            lpm_client::error::redact(&text, Some(secret)),
            "bad token=<redacted> (again: <redacted>)",
            "{echo}"
        );
    }
    // Letter case does not matter either (a server that upper-cases what it echoes).
    let other = "AB%2Bc%2Fd%3De%26f%3Fg%25h_0123456789abcdefghij";
    assert_eq!(lpm_client::error::redact(other, Some(secret)), "<redacted>");
}

// ---- decoding rules ------------------------------------------------------------------------------------

#[test]
fn non_2xx_with_an_envelope_decodes_the_envelope() {
    let body = br#"{"respCode":"04","user":null,"msg":"Invalid token or Token has expired"}"#;
    match api().get_me().unwrap().decode(401, body) {
        Err(Error::Api(e)) => {
            assert_eq!(e.status, 401);
            assert_eq!(e.code, "04");
            assert_eq!(e.endpoint, Endpoint::GetMe);
            assert_eq!(e.category, Category::Authentication);
            assert_eq!(e.reason, Reason::InvalidToken);
            assert_eq!(e.msg, "Invalid token or Token has expired");
            assert!(!e.retryable);
        }
        other => panic!("{other:?}"),
    }
    // a success envelope under a non-2xx status is still the success
    let ok = br#"{"respCode":"00","users":[],"msg":"Success"}"#;
    assert!(api().get_users(0, 1).unwrap().decode(400, ok).is_ok());
}

#[test]
fn non_2xx_html_is_an_http_error_with_a_short_excerpt() {
    let long = format!(
        "  <html>{}</html>",
        "Lỗi máy chủ. ".repeat(60) // multi-byte characters, well over 200 chars
    );
    let e = api()
        .get_me()
        .unwrap()
        .decode(503, long.as_bytes())
        .unwrap_err();
    let Error::Http(h) = &e else { panic!("{e:?}") };
    assert_eq!(h.status, 503);
    assert_eq!(h.endpoint, Endpoint::GetMe);
    assert_eq!(h.excerpt.chars().count(), 201);
    assert!(h.excerpt.ends_with('…'));
    let expected: String = long.trim().chars().take(200).collect();
    assert_eq!(h.excerpt.trim_end_matches('…'), expected);
    assert!(e.retryable());

    // a short body is kept whole, with no ellipsis
    let e = api()
        .get_me()
        .unwrap()
        .decode(404, b"<h1>Not Found</h1>")
        .unwrap_err();
    match &e {
        Error::Http(h) => assert_eq!(h.excerpt, "<h1>Not Found</h1>"),
        other => panic!("{other:?}"),
    }
    assert!(!e.retryable());

    // not UTF-8
    let e = api()
        .get_me()
        .unwrap()
        .decode(500, &[0xff, 0xfe, b'x', 0xc3])
        .unwrap_err();
    assert_eq!(e.kind(), "http");
}

#[test]
fn two_xx_with_a_non_envelope_is_a_decode_error_at_root() {
    for body in [
        &b"<html>ok</html>"[..],
        b"",
        b"[]",
        b"null",
        b"{\"foo\":1}",
        b"{\"respCode\":\"00\"",
    ] {
        for status in [200, 201, 204, 299] {
            match api().get_courses(0, 1).unwrap().decode(status, body) {
                Err(Error::Decode(d)) => {
                    assert_eq!(d.path, ".", "{:?}", String::from_utf8_lossy(body));
                    assert_eq!(d.status, status);
                    assert_eq!(d.endpoint, Endpoint::GetCourses);
                }
                other => panic!("{:?}: {other:?}", String::from_utf8_lossy(body)),
            }
        }
    }
    // An envelope-shaped body with a mistyped head names the key.
    let body = b"{\"respCode\":0,\"msg\":\"x\"}";
    match api().get_courses(0, 1).unwrap().decode(200, body) {
        Err(Error::Decode(d)) => assert_eq!(d.path, "respCode"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn null_or_absent_data_key_on_errors() {
    let null = br#"{"respCode":"03","user":null,"msg":"User not found"}"#;
    let absent = br#"{"respCode":"03","msg":"User not found"}"#;
    for body in [&null[..], &absent[..]] {
        match api().get_user("abc").unwrap().decode(400, body) {
            Err(Error::Api(e)) => {
                assert_eq!(e.reason, Reason::UserNotFound);
                assert_eq!(e.category, Category::NotFound);
                assert_eq!(e.status, 400);
            }
            other => panic!("{other:?}"),
        }
    }
    let users_null =
        br#"{"respCode":"08","users":null,"msg":"Invalid token or Token has expired"}"#;
    let e = api()
        .create_users(&[new_user(1)])
        .unwrap()
        .decode(200, users_null)
        .unwrap_err();
    assert!(matches!(e, Error::Api(ref a) if a.reason == Reason::InvalidToken));
    let no_data = br#"{"respCode":"02","msg":"Kh\u00f4ng c\u00f3 body request"}"#;
    let e = api()
        .add_courses_to_users(&input(1, 1))
        .unwrap()
        .decode(400, no_data)
        .unwrap_err();
    assert!(matches!(e, Error::Api(ref a) if a.reason == Reason::NoBody));
    // msg absent altogether
    let e = api()
        .get_me()
        .unwrap()
        .decode(200, br#"{"respCode":"77"}"#)
        .unwrap_err();
    assert!(matches!(e, Error::Api(ref a) if a.code == "77" && a.msg.is_empty()));
}

#[test]
fn success_code_with_null_user_is_a_decode_error_at_user() {
    let body = br#"{"respCode":"00","user":null,"msg":"Success"}"#;
    for r in [
        api().get_me().unwrap(),
        api().get_user("abc").unwrap(),
        api().search_user(Some("a@b.vn"), None).unwrap(),
    ] {
        match r.decode(200, body) {
            Err(Error::Decode(d)) => assert_eq!(d.path, "user"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn create_13_resolves_with_items() {
    let body =
        std::fs::read(common::fixtures_dir().join("create-multi-user/all-failed-13.json")).unwrap();
    let reply = api()
        .create_users(&[new_user(1), new_user(2)])
        .unwrap()
        .decode(200, &body)
        .unwrap();
    assert_eq!(reply.counts.resp_code, "13");
    assert_eq!(reply.users.len(), 2);
    assert_eq!((reply.counts.created, reply.counts.failed), (0, 2));
    assert!(reply
        .users
        .iter()
        .all(|u| !u.success && u.user_id.is_none()));
    // 13 is a result on create-multi-user only
    let e = api().get_me().unwrap().decode(200, &body).unwrap_err();
    assert_eq!(e.kind(), "api");
}

#[test]
fn retryable() {
    let http = |status| {
        api()
            .get_me()
            .unwrap()
            .decode(status, b"<html>busy</html>")
            .unwrap_err()
    };
    for s in [429, 500, 502, 503, 504, 599] {
        assert!(http(s).retryable(), "{s}");
    }
    for s in [0, 100, 301, 400, 401, 403, 404, 405, 600, 999] {
        let e = http(s);
        assert_eq!(e.kind(), "http", "{s}");
        assert!(!e.retryable(), "{s}");
    }
    let api_err = |r: Result<(), Error>| r.unwrap_err();
    let create = |code: &str, msg: &str| {
        let body = json!({"respCode": code, "users": null, "msg": msg}).to_string();
        api_err(
            api()
                .create_users(&[new_user(1)])
                .unwrap()
                .decode(500, body.as_bytes())
                .map(drop),
        )
    };
    assert!(create("07", "Server not able to authenticate your account").retryable());
    assert!(create("10", "Server is not able to check your website resources").retryable());
    assert!(!create("10", "Your account does not have permission").retryable());
    assert!(!create("08", "Invalid token or Token has expired").retryable());
    assert!(!create("12", "There are only 3 available accounts").retryable());
    let me =
        br#"{"respCode":"03","user":null,"msg":"Server not able to authenticate your account"}"#;
    assert!(api()
        .get_me()
        .unwrap()
        .decode(401, me)
        .unwrap_err()
        .retryable());
    let login = |code: &str, msg: &str| {
        let body = json!({"respCode": code, "msg": msg}).to_string();
        Planner::new(BASE)
            .unwrap()
            .login("a@b.vn", "pw")
            .unwrap()
            .decode(500, body.as_bytes())
            .unwrap_err()
    };
    assert!(login("06", "Server not able to check password").retryable());
    assert!(login("08", "Server not able to generate token").retryable());
    assert!(!login("07", "Wrong password").retryable());
    // config and validation errors never are
    assert!(!validation(api().get_users(0, 0)).report.issues.is_empty());
    assert!(!Error::Validation(validation(api().get_users(0, 0))).retryable());
}
