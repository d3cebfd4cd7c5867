//! Property tests: decoding and validation never panic, every model round-trips through JSON
//! (fixture records mutated at random), and ids always fill exactly one path segment.
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

mod common;

use common::{fixtures_dir, new_user, numbers_as_f64, percent_decode, url_parts};
use lpm_client::validate::{self, PageKind};
use lpm_client::{
    AddCourseOutcome, AddCoursesInput, Course, CreatedUser, Endpoint, Lang, LoginReply, NewUser,
    Planner, User, ValidCourse, ValidateOptions,
};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

const TOKEN: &str = "Ab-c.d_e~f0123456789ABCDEFGHIJklmn";

fn api() -> Planner {
    Planner::new("https://x.example/school/")
        .unwrap()
        .with_token(TOKEN)
        .unwrap()
}

fn config() -> ProptestConfig {
    config_n(256)
}

fn config_n(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---- strategies --------------------------------------------------------------------------------

/// Any string of any Unicode scalar values (control characters and surrogate-free astral ones
/// included), short.
fn any_string() -> impl Strategy<Value = String> + Clone {
    prop::collection::vec(any::<char>(), 0..12).prop_map(String::from_iter)
}

fn finite_f64() -> impl Strategy<Value = f64> + Clone {
    any::<f64>().prop_filter("finite", |f| f.is_finite())
}

fn json_number() -> impl Strategy<Value = Value> + Clone {
    prop_oneof![
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        finite_f64().prop_map(Value::from),
    ]
}

/// Arbitrary JSON trees.
fn json_value() -> impl Strategy<Value = Value> + Clone {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        json_number(),
        any_string().prop_map(Value::String),
        Just(Value::String("00".into())),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(any_string(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Smaller JSON trees, for the extra keys sprinkled over every object of a record.
fn small_json() -> impl Strategy<Value = Value> + Clone {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        json_number(),
        any_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map(any_string(), inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Every field name any model knows: extra keys avoid them.
const KNOWN_KEYS: &[&str] = &[
    "_id",
    "createdAt",
    "username",
    "emails",
    "profile",
    "forSeller",
    "myCourses",
    "myCart",
    "balance",
    "myTransactions",
    "address",
    "verified",
    "name",
    "phone",
    "avatar",
    "affUserType",
    "tUid",
    "imageId",
    "imageLink",
    "callDistrCoeff",
    "getCall",
    "courseId",
    "activatedDate",
    "expiredAt",
    "currentLesson",
    "lessonStatus",
    "finish",
    "chapterId",
    "lessonId",
    "lessonSlug",
    "currentTime",
    "status",
    "refId",
    "title",
    "slug",
    "approval",
    "type",
    "label",
    "headline",
    "description",
    "requirement",
    "inCombo",
    "purpose",
    "target_audience",
    "tag",
    "category",
    "instructor",
    "topic",
    "chapters",
    "updatedAt",
    "trailer",
    "price",
    "affiliates",
    "credit_shared",
    "image_detail",
    "image_primary",
    "docs",
    "content",
    "source",
    "sourceType",
    "sourceName",
    "original",
    "discount_enable",
    "use_private_discount",
    "private_discount_price",
    "private_discount_time",
    "start",
    "end",
    "enable",
    "use_private",
    "use_basic_discount_percent",
    "basic_discount_percent",
    "use_basic_payout_percent",
    "basic_payout_value",
    "basic_payout_percent",
    "basic_discount_price",
    "use_private_value",
    "value",
    "thumbnail160",
    "preview",
    "path",
    "size",
    "extension",
    "meta",
    "url",
    "pipePath",
    "email",
    "password",
    "userId",
    "success",
    "token",
    "tokenExpires",
    "msg",
    "respCode",
    "result",
    "validCourses",
    "users",
    "courses",
    "user",
    "course",
];

fn extra_key() -> impl Strategy<Value = String> + Clone {
    any_string().prop_filter("not a known key", |k| !KNOWN_KEYS.contains(&k.as_str()))
}

/// Which record a fixture value is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    User,
    Course,
    CreatedUser,
    ValidCourse,
    AddOutcome,
    Login,
}

/// Whether `key` of the object under `parent` (the nearest enclosing object key, "" at the root)
/// is optional per the contract (and, for image-set members, per the model).
fn optional(kind: Kind, parent: &str, key: &str) -> bool {
    match (parent, kind) {
        ("", Kind::User) => matches!(
            key,
            "forSeller" | "myCourses" | "myCart" | "balance" | "myTransactions"
        ),
        ("", Kind::Course) => {
            matches!(
                key,
                "requirement" | "image_detail" | "image_primary" | "docs"
            )
        }
        ("", Kind::CreatedUser) => matches!(key, "name" | "username" | "email" | "password"),
        ("", _) => false,
        ("profile", _) => matches!(key, "phone" | "avatar" | "affUserType" | "tUid"),
        ("myCourses", _) => matches!(key, "currentLesson" | "lessonStatus" | "finish"),
        ("price", _) => key == "private_discount_price",
        ("private_discount_time", _) | ("affiliates", _) => true,
        ("purpose", _) | ("target_audience", _) => key == "content",
        ("docs", _) => matches!(key, "source" | "sourceName"),
        ("image_detail", _) | ("image_primary", _) => {
            matches!(key, "original" | "thumbnail160" | "preview")
        }
        _ => false,
    }
}

/// Inside a value the model keeps as raw JSON (extras, `balance`, `inCombo`, ...): mutate leaves
/// keeping their kind, keep the shape.
fn mutate_raw(v: &Value) -> BoxedStrategy<Value> {
    match v {
        Value::String(_) => any_string().prop_map(Value::String).boxed(),
        Value::Number(n) if n.is_f64() => finite_f64().prop_map(Value::from).boxed(),
        Value::Number(_) => prop_oneof![
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from)
        ]
        .boxed(),
        Value::Bool(_) => any::<bool>().prop_map(Value::Bool).boxed(),
        Value::Array(a) => a
            .iter()
            .map(mutate_raw)
            .collect::<Vec<_>>()
            .prop_map(Value::Array)
            .boxed(),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| {
                mutate_raw(v).prop_map({
                    let k = k.clone();
                    move |v| (k.clone(), v)
                })
            })
            .collect::<Vec<_>>()
            .prop_map(|kv| Value::Object(kv.into_iter().collect()))
            .boxed(),
        Value::Null => Just(Value::Null).boxed(),
    }
}

/// Mutates a record: string leaves to any strings, numbers to any finite numbers of the same kind
/// (`size` a non-negative integer), optional keys dropped at random, random extra keys added at
/// every object the model keeps extras of.
fn mutate(kind: Kind, v: &Value, key: &str) -> BoxedStrategy<Value> {
    // values the model holds as raw JSON
    if matches!(key, "balance" | "basic_payout_percent" | "inCombo" | "tag") {
        return mutate_raw(v);
    }
    match v {
        Value::String(_) => any_string().prop_map(Value::String).boxed(),
        Value::Number(_) if key == "size" => any::<u64>().prop_map(Value::from).boxed(),
        Value::Number(n) if n.is_f64() => finite_f64().prop_map(Value::from).boxed(),
        Value::Number(_) => prop_oneof![
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            finite_f64().prop_map(Value::from),
        ]
        .boxed(),
        Value::Bool(_) => any::<bool>().prop_map(Value::Bool).boxed(),
        Value::Null => Just(Value::Null).boxed(),
        Value::Array(a) => a
            .iter()
            .map(|item| mutate(kind, item, key))
            .collect::<Vec<_>>()
            .prop_map(Value::Array)
            .boxed(),
        Value::Object(o) => {
            // arrays pass their key down: items of `myCourses` have parent `myCourses`
            let here = key;
            let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = o
                .iter()
                .map(|(k, child)| {
                    let keep = if optional(kind, here, k) {
                        any::<bool>().boxed()
                    } else {
                        Just(true).boxed()
                    };
                    let k = k.clone();
                    (mutate(kind, child, &k), keep)
                        .prop_map(move |(v, keep)| keep.then(|| (k.clone(), v)))
                        .boxed()
                })
                .collect();
            let extra_value = if here == "basic_payout_value" {
                json_number().boxed()
            } else {
                small_json().boxed()
            };
            let extras = if kind == Kind::Login {
                Just(Vec::new()).boxed()
            } else {
                prop::collection::vec((extra_key(), extra_value), 0..2).boxed()
            };
            (fields, extras)
                .prop_map(|(fields, extras)| {
                    let mut map: Map<String, Value> = fields.into_iter().flatten().collect();
                    for (k, v) in extras {
                        map.entry(k).or_insert(v);
                    }
                    Value::Object(map)
                })
                .boxed()
        }
    }
}

fn fixture(path: &str) -> Value {
    let text = std::fs::read_to_string(fixtures_dir().join(path)).expect("fixture");
    serde_json::from_str(&text).expect("fixture JSON")
}

/// Records of one kind, from the fixtures.
fn records(kind: Kind) -> Vec<Value> {
    let list = |path: &str, key: &str| fixture(path)[key].as_array().unwrap().clone();
    match kind {
        Kind::User => {
            let mut v = list("get-multi-user/success.json", "users");
            v.push(fixture("get-me/success.json")["user"].clone());
            v.push(fixture("get-single-user/extra-fields.json")["user"].clone());
            v
        }
        Kind::Course => {
            let mut v = list("get-multi-course/success.json", "courses");
            v.push(fixture("get-single-course/extra-fields.json")["course"].clone());
            v
        }
        Kind::CreatedUser => {
            let mut v = list("create-multi-user/success-mixed.json", "users");
            v.extend(list("create-multi-user/all-failed-13.json", "users"));
            v
        }
        Kind::ValidCourse => list(
            "add-multi-course-to-multi-user/success.json",
            "validCourses",
        ),
        Kind::AddOutcome => list("add-multi-course-to-multi-user/partial.json", "result"),
        Kind::Login => {
            let mut login = fixture("login-user/success.json");
            login.as_object_mut().unwrap().remove("respCode");
            vec![login]
        }
    }
}

fn mutated(kind: Kind) -> impl Strategy<Value = Value> {
    let all: Vec<BoxedStrategy<Value>> =
        records(kind).iter().map(|r| mutate(kind, r, "")).collect();
    assert!(!all.is_empty());
    prop::strategy::Union::new(all)
}

fn round_trip<T>(input: &Value) -> Result<(), TestCaseError>
where
    T: DeserializeOwned + Serialize + PartialEq + core::fmt::Debug,
{
    let model: T = serde_json::from_value(input.clone())
        .map_err(|e| TestCaseError::fail(format!("decode failed: {e}\n{input:#}")))?;
    let out = serde_json::to_value(&model).expect("encodes");
    prop_assert_eq!(numbers_as_f64(out.clone()), numbers_as_f64(input.clone()));
    let again: T = serde_json::from_value(out).expect("decodes again");
    prop_assert_eq!(again, model);
    Ok(())
}

// ---- decode never panics -----------------------------------------------------------------------

/// Decodes `body` with a valid request of every endpoint; errors must be token-free.
fn decode_everywhere(status: u16, body: &[u8]) {
    fn check<R>(r: Result<R, lpm_client::Error>) {
        if let Err(e) = r {
            let text = format!("{e} {e:?}");
            assert!(!text.contains(TOKEN), "{text}");
        }
    }
    let api = api();
    check(
        api.create_users(&[new_user(1)])
            .unwrap()
            .decode(status, body),
    );
    check(
        api.create_user_raw(&new_user(1))
            .unwrap()
            .decode(status, body),
    );
    check(api.get_users(0, 100).unwrap().decode(status, body));
    check(api.get_user("abc").unwrap().decode(status, body));
    check(api.get_me().unwrap().decode(status, body));
    check(
        api.search_user(Some("a@b.co"), None)
            .unwrap()
            .decode(status, body),
    );
    check(api.get_course("abc").unwrap().decode(status, body));
    check(api.get_courses(0, 100).unwrap().decode(status, body));
    check(api.search_courses("toán").unwrap().decode(status, body));
    let input = AddCoursesInput {
        users: vec!["u1".into()],
        courses: vec!["c1".into()],
    };
    check(
        api.add_courses_to_users(&input)
            .unwrap()
            .decode(status, body),
    );
    check(api.login("a@b.co", "pw").unwrap().decode(status, body));
    check(api.create_login_token("u1").unwrap().decode(status, body));
}

const DATA_KEYS: &[&str] = &[
    "users",
    "user",
    "course",
    "courses",
    "validCourses",
    "result",
    "token",
    "tokenExpires",
];

/// An envelope: `respCode` (00, 13, a random string, or not a string), maybe a `msg`, and data
/// keys holding random shapes (sometimes arrays of objects, the shape lists have).
fn envelope() -> impl Strategy<Value = Value> {
    let code = prop_oneof![
        3 => Just(Value::from("00")),
        2 => Just(Value::from("13")),
        2 => any_string().prop_map(Value::String),
        1 => json_value(),
    ];
    let msg = prop::option::of(prop_oneof![
        any_string().prop_map(Value::String),
        Just(Value::from("3 success, 1 error")),
        Just(Value::from(
            "4 tài khoản thêm khoá học thành công, 0 tài khoản thêm khoá học lỗi"
        )),
        Just(Value::from("There are only 7 available accounts")),
        json_value(),
    ]);
    let data_value = prop_oneof![
        json_value(),
        prop::collection::vec(
            prop::collection::btree_map(prop::sample::select(KNOWN_KEYS), json_value(), 0..8)
                .prop_map(|m| Value::Object(
                    m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
            0..4
        )
        .prop_map(Value::Array),
    ];
    let data = prop::collection::vec((prop::sample::select(DATA_KEYS), data_value), 0..4);
    (
        code,
        msg,
        data,
        prop::collection::vec((extra_key(), json_value()), 0..2),
    )
        .prop_map(|(code, msg, data, extras)| {
            let mut m = Map::new();
            m.insert("respCode".into(), code);
            if let Some(msg) = msg {
                m.insert("msg".into(), msg);
            }
            for (k, v) in data {
                m.insert(k.to_owned(), v);
            }
            for (k, v) in extras {
                m.entry(k).or_insert(v);
            }
            Value::Object(m)
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn decode_never_panics_on_bytes(status in 0u16..=999, body in prop::collection::vec(any::<u8>(), 0..256)) {
        decode_everywhere(status, &body);
    }

    #[test]
    fn decode_never_panics_on_text(status in 0u16..=999, body in "\\PC{0,200}") {
        decode_everywhere(status, body.as_bytes());
    }

    #[test]
    fn decode_never_panics_on_envelopes(status in 0u16..=999, env in envelope()) {
        decode_everywhere(status, env.to_string().as_bytes());
        decode_everywhere(status, serde_json::to_string_pretty(&env).unwrap().as_bytes());
    }

}

proptest! {
    #![proptest_config(config_n(64))]

    #[test]
    fn decode_never_panics_on_mutated_success_bodies(status in 0u16..=999, user in mutated(Kind::User), course in mutated(Kind::Course), cut in 0usize..4000) {
        let body = serde_json::json!({"respCode": "00", "user": user, "users": [user], "course": course, "courses": [course], "msg": "Success"}).to_string();
        decode_everywhere(status, body.as_bytes());
        // truncated anywhere
        let cut = cut.min(body.len());
        decode_everywhere(status, &body.as_bytes()[..cut]);
    }
}

// ---- validators never panic ----------------------------------------------------------------------

fn options() -> impl Strategy<Value = ValidateOptions> {
    (prop_oneof![Just(Lang::En), Just(Lang::Vi)], any::<bool>()).prop_map(
        |(lang, platform_rules)| ValidateOptions {
            lang,
            platform_rules,
        },
    )
}

/// JSON values that look like a validator's input more often than random trees do.
fn validator_input() -> impl Strategy<Value = Value> {
    let item = prop::collection::btree_map(
        prop_oneof![
            prop::sample::select(
                &[
                    "name", "username", "email", "password", "phone", "city", "district", "street",
                    "gender", "job"
                ][..]
            )
            .prop_map(str::to_owned),
            extra_key(),
        ],
        prop_oneof![
            json_value(),
            any_string().prop_map(Value::String),
            "[a-zA-Z0-9@. ]{0,40}".prop_map(Value::String),
        ],
        0..8,
    )
    .prop_map(|m| Value::Object(m.into_iter().collect()));
    prop_oneof![
        json_value(),
        prop::collection::vec(item.clone(), 0..5).prop_map(Value::Array),
        prop::collection::vec(
            prop_oneof![
                json_value(),
                Just(Value::from("..")),
                Just(Value::from("u1"))
            ],
            0..120
        )
        .prop_map(Value::Array),
        item,
        any::<i64>().prop_map(Value::from),
    ]
}

fn check_reports(
    reports: &[lpm_client::Report],
    opts: ValidateOptions,
) -> Result<(), TestCaseError> {
    for r in reports {
        for issue in &r.issues {
            prop_assert!(!issue.message.trim().is_empty(), "{issue:?}");
            prop_assert!(!issue.code.as_str().is_empty());
            if !opts.platform_rules {
                prop_assert_eq!(issue.level, lpm_client::Level::Contract);
            }
        }
        prop_assert_eq!(r.is_ok(), r.issues.is_empty());
        prop_assert!(serde_json::to_string(r).is_ok());
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn validators_never_panic(a in validator_input(), b in validator_input(), opts in options()) {
        for lang in [Lang::En, Lang::Vi] {
            let opts = ValidateOptions { lang, ..opts };
            let reports = [
                validate::validate_create_users(&a, opts),
                validate::validate_create_user(&a, opts),
                validate::validate_page(PageKind::Users, &a, &b, opts),
                validate::validate_page(PageKind::Courses, &b, &a, opts),
                validate::validate_search_user(&a, &b, opts),
                validate::validate_search_courses(&a, opts),
                validate::validate_id(&a, opts),
                validate::validate_add_courses(&a, &b, opts),
                validate::validate_login(&a, &b, opts),
            ];
            check_reports(&reports, opts)?;
        }
    }

}

proptest! {
    #![proptest_config(config_n(96))]

    #[test]
    fn both_languages_give_the_same_findings(a in validator_input(), b in validator_input(), rules in any::<bool>()) {
        let en = ValidateOptions { lang: Lang::En, platform_rules: rules };
        let vi = ValidateOptions { lang: Lang::Vi, platform_rules: rules };
        let strip = |r: lpm_client::Report| r.issues.into_iter().map(|i| (i.path, i.code, i.level)).collect::<Vec<_>>();
        prop_assert_eq!(strip(validate::validate_create_users(&a, en)), strip(validate::validate_create_users(&a, vi)));
        prop_assert_eq!(strip(validate::validate_add_courses(&a, &b, en)), strip(validate::validate_add_courses(&a, &b, vi)));
    }
}

// ---- encode -> decode of every model ---------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn user_round_trips(v in mutated(Kind::User)) {
        round_trip::<User>(&v)?;
    }

    #[test]
    fn course_round_trips(v in mutated(Kind::Course)) {
        round_trip::<Course>(&v)?;
    }

    #[test]
    fn created_user_round_trips(v in mutated(Kind::CreatedUser)) {
        round_trip::<CreatedUser>(&v)?;
    }

    #[test]
    fn valid_course_round_trips(v in mutated(Kind::ValidCourse)) {
        round_trip::<ValidCourse>(&v)?;
    }

    #[test]
    fn add_course_outcome_round_trips(v in mutated(Kind::AddOutcome)) {
        round_trip::<AddCourseOutcome>(&v)?;
    }

    #[test]
    fn login_reply_round_trips(v in mutated(Kind::Login)) {
        round_trip::<LoginReply>(&v)?;
    }

    #[test]
    fn records_decode_inside_their_envelope(user in mutated(Kind::User), course in mutated(Kind::Course), status in 200u16..300) {
        let body = serde_json::json!({"respCode": "00", "user": user, "msg": "Success"}).to_string();
        let reply = api().get_me().unwrap().decode(status, body.as_bytes()).expect("user decodes");
        prop_assert_eq!(numbers_as_f64(serde_json::to_value(&reply.user).unwrap()), numbers_as_f64(user));
        let body = serde_json::json!({"respCode": "00", "courses": [course], "msg": "Success"}).to_string();
        let reply = api().get_courses(0, 1).unwrap().decode(status, body.as_bytes()).expect("course decodes");
        prop_assert_eq!(numbers_as_f64(serde_json::to_value(&reply.courses[0]).unwrap()), numbers_as_f64(course));
    }
}

/// A required field: any string that is not blank.
fn required_string() -> impl Strategy<Value = String> {
    any_string().prop_filter("not blank", |s| !s.trim().is_empty())
}

fn new_user_strategy() -> impl Strategy<Value = NewUser> {
    let opt = || prop::option::of(any_string());
    (
        (
            required_string(),
            required_string(),
            required_string(),
            required_string(),
        ),
        (opt(), opt(), opt(), opt(), opt(), opt()),
    )
        .prop_map(
            |((name, username, email, password), (phone, city, district, street, gender, job))| {
                NewUser {
                    name,
                    username,
                    email,
                    password,
                    phone,
                    city,
                    district,
                    street,
                    gender,
                    job,
                }
            },
        )
}

/// An id that passes validation: not blank, and not `.` / `..` once trimmed.
fn valid_id() -> impl Strategy<Value = String> {
    prop_oneof![any_string(), "[./?#% a-zA-Zế]{1,12}", Just("..".to_owned()),].prop_filter(
        "valid id",
        |s| {
            let t = s.trim();
            !t.is_empty() && t != "." && t != ".."
        },
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn new_user_plan_decode_round_trip(users in prop::collection::vec(new_user_strategy(), 1..5)) {
        // unique e-mails and usernames (the batch check is case-insensitive): prefix the row
        let users: Vec<NewUser> = users.into_iter().enumerate().map(|(i, mut u)| {
            u.email = format!("{i}:{}", u.email);
            u.username = format!("{i}:{}", u.username);
            u
        }).collect();
        let req = api().create_users(&users).expect("contract-valid batch is planned");
        let body: Value = serde_json::from_str(req.body().unwrap()).unwrap();
        let back: Vec<NewUser> = serde_json::from_value(body["users"].clone()).unwrap();
        prop_assert_eq!(&back, &users);
        prop_assert_eq!(body.as_object().unwrap().len(), 1);

        let req = api().create_user_raw(&users[0]).expect("planned");
        let back: NewUser = serde_json::from_str(req.body().unwrap()).unwrap();
        prop_assert_eq!(&back, &users[0]);
        // the model itself
        let again: NewUser = serde_json::from_value(serde_json::to_value(&users[0]).unwrap()).unwrap();
        prop_assert_eq!(&again, &users[0]);
    }

}

proptest! {
    #![proptest_config(config_n(96))]

    #[test]
    fn add_courses_plan_decode_round_trip(users in prop::collection::vec(valid_id(), 1..=100), courses in prop::collection::vec(valid_id(), 1..6)) {
        let input = AddCoursesInput { users, courses };
        let req = api().add_courses_to_users(&input).expect("contract-valid input is planned");
        let back: AddCoursesInput = serde_json::from_str(req.body().unwrap()).unwrap();
        prop_assert_eq!(&back, &input);
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn ids_percent_encode_into_one_segment(id in valid_id()) {
        for (url, n) in [
            (api().get_user(&id).unwrap().url().to_owned(), "get-single-user"),
            (api().get_course(&id).unwrap().url().to_owned(), "get-single-course"),
        ] {
            let (segments, query) = url_parts(&url);
            prop_assert_eq!(segments.len(), 6, "{}", url);
            prop_assert_eq!(&segments[4], n);
            let last = &segments[5];
            prop_assert!(!last.contains(['/', '?', '#']), "{}", url);
            prop_assert_eq!(percent_decode(last), Some(id.clone()));
            prop_assert!(query.unwrap().starts_with("token="));
        }
    }

    #[test]
    fn invalid_ids_are_refused(id in prop_oneof![Just(".".to_owned()), Just("..".to_owned()), "[ \t\n]{0,3}", "[ \t]{0,2}\\.{1,2}[ \t]{0,2}"]) {
        let t = id.trim();
        prop_assume!(t.is_empty() || t == "." || t == "..");
        prop_assert_eq!(api().get_user(&id).unwrap_err().kind(), "validation");
        prop_assert_eq!(api().get_course(&id).unwrap_err().kind(), "validation");
    }
}

#[test]
fn every_endpoint_is_exercised() {
    // decode_everywhere plans one request per endpoint
    assert_eq!(Endpoint::ALL.len(), 12);
    decode_everywhere(200, br#"{"respCode":"00","msg":"Success"}"#);
}
