//! Tests of every rule, in both languages.

use super::*;
use crate::validate::*;
use serde_json::{json, Value};

fn en() -> ValidateOptions {
    ValidateOptions::default()
}

fn vi() -> ValidateOptions {
    ValidateOptions {
        lang: Lang::Vi,
        platform_rules: true,
    }
}

fn lax() -> ValidateOptions {
    ValidateOptions {
        lang: Lang::En,
        platform_rules: false,
    }
}

/// (path as JSON, code, level) of every issue, for compact assertions.
fn summary(r: &Report) -> Vec<(Value, &'static str, Level)> {
    r.issues
        .iter()
        .map(|i| {
            (
                serde_json::to_value(&i.path).unwrap(),
                i.code.as_str(),
                i.level,
            )
        })
        .collect()
}

fn codes_at(r: &Report, path: Value) -> Vec<&'static str> {
    r.issues
        .iter()
        .filter(|i| serde_json::to_value(&i.path).unwrap() == path)
        .map(|i| i.code.as_str())
        .collect()
}

fn user(n: usize) -> Value {
    json!({
        "name": format!("Người dùng {n}"),
        "username": format!("user{n}"),
        "email": format!("user{n}@example.com"),
        "password": "secret123",
    })
}

fn users(n: usize) -> Value {
    Value::Array((0..n).map(user).collect())
}

// ---- report, options, serialization -------------------------------------------------------

#[test]
fn options_default_and_deserialize() {
    let d = ValidateOptions::default();
    assert_eq!(d.lang, Lang::En);
    assert!(d.platform_rules);
    let o: ValidateOptions = serde_json::from_value(json!({})).unwrap();
    assert_eq!(o, d);
    let o: ValidateOptions =
        serde_json::from_value(json!({"lang": "vi", "platformRules": false})).unwrap();
    assert_eq!(
        o,
        ValidateOptions {
            lang: Lang::Vi,
            platform_rules: false
        }
    );
    let o: ValidateOptions = serde_json::from_value(json!({"lang": "vi"})).unwrap();
    assert!(o.platform_rules);
    assert_eq!(serde_json::to_value(Lang::Vi).unwrap(), json!("vi"));
}

#[test]
fn issue_serializes_with_path_as_json() {
    let mut items = users(4);
    items[3]["email"] = json!(null);
    let r = validate_create_users(&items, en());
    assert_eq!(r.issues.len(), 1);
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(
        v,
        json!({"issues": [{
            "path": [3, "email"],
            "code": "required",
            "level": "contract",
            "message": "Email is required"
        }]})
    );
}

#[test]
fn issues_are_written_as_serde_writes_them() {
    use crate::json::ser::{value_json, WriteJson};
    let mut items = users(3);
    items[0]["email"] = json!(5);
    items[1]["username"] = json!("a b\"é");
    items[2] = json!("not an object");
    let mut r = validate_create_users(&items, vi());
    r.issues
        .extend(validate_create_users(&json!([]), en()).issues);
    assert!(r.issues.len() >= 3);
    assert_eq!(r.to_json(), serde_json::to_string(&r).unwrap());
    assert_eq!(
        value_json(&r.issues),
        serde_json::to_string(&r.issues).unwrap()
    );
    assert_eq!(value_json(&Report::default()), r#"{"issues":[]}"#);
}

#[test]
fn report_levels() {
    let ok = Report::default();
    assert!(ok.is_ok());
    assert!(!ok.blocks(Level::Platform));
    assert!(!ok.has_contract_issues());

    let platform_only = validate_create_user(
        &json!({"name": "Al", "username": "al1", "email": "al@x.vn", "password": "secret1"}),
        en(),
    );
    assert_eq!(
        summary(&platform_only),
        vec![(json!(["name"]), "too_short", Level::Platform)]
    );
    assert!(!platform_only.is_ok());
    assert!(!platform_only.blocks(Level::Contract));
    assert!(platform_only.blocks(Level::Platform));
    assert!(!platform_only.has_contract_issues());

    let contract = validate_create_user(&json!({}), en());
    assert!(contract.blocks(Level::Contract));
    assert!(contract.blocks(Level::Platform));
    assert!(contract.has_contract_issues());
    assert!(Level::Contract < Level::Platform);
}

// ---- create: array level ---------------------------------------------------------------

#[test]
fn create_valid_batch_passes() {
    assert!(validate_create_users(&users(3), en()).is_ok());
    let full = json!([{
        "name": "Nguyễn Văn An", "username": "nguyenvanan", "email": "an@example.vn",
        "password": "mat khau 123", "phone": "0901234567", "city": "Hà Nội",
        "district": "Ba Đình", "street": "Phố Huế", "gender": "Nữ", "job": "Giáo viên"
    }]);
    assert!(validate_create_users(&full, en()).is_ok());
}

#[test]
fn create_users_must_be_array() {
    for bad in [
        json!(null),
        json!({}),
        json!("users"),
        json!(3),
        json!(true),
        json!(user(0)),
    ] {
        let r = validate_create_users(&bad, en());
        assert_eq!(
            summary(&r),
            vec![(json!([]), "not_array", Level::Contract)],
            "{bad}"
        );
    }
}

#[test]
fn create_users_empty() {
    let r = validate_create_users(&json!([]), en());
    assert_eq!(summary(&r), vec![(json!([]), "empty", Level::Contract)]);
}

#[test]
fn create_users_100_ok_101_too_many() {
    assert!(validate_create_users(&users(100), en()).is_ok());
    let r = validate_create_users(&users(101), en());
    assert_eq!(summary(&r), vec![(json!([]), "too_many", Level::Contract)]);
    assert_eq!(
        r.issues[0].message,
        "Account list can hold at most 100 items per request"
    );
    // Items beyond the limit are still checked.
    let mut many = users(101);
    many[100]["name"] = json!("");
    let r = validate_create_users(&many, en());
    assert_eq!(codes_at(&r, json!([100, "name"])), vec!["required"]);
}

#[test]
fn create_item_not_object() {
    let items = json!([user(0), [1, 2], "x", null, 5]);
    let r = validate_create_users(&items, en());
    assert_eq!(
        summary(&r),
        vec![
            (json!([1]), "not_object", Level::Contract),
            (json!([2]), "not_object", Level::Contract),
            (json!([3]), "not_object", Level::Contract),
            (json!([4]), "not_object", Level::Contract),
        ]
    );
    let r = validate_create_user(&json!([]), en());
    assert_eq!(
        summary(&r),
        vec![(json!([]), "not_object", Level::Contract)]
    );
}

// ---- create: item fields ----------------------------------------------------------------

#[test]
fn create_required_fields_all_reported_at_once() {
    let r = validate_create_users(&json!([user(0), {}]), en());
    assert_eq!(
        summary(&r),
        vec![
            (json!([1, "name"]), "required", Level::Contract),
            (json!([1, "username"]), "required", Level::Contract),
            (json!([1, "email"]), "required", Level::Contract),
            (json!([1, "password"]), "required", Level::Contract),
        ]
    );
}

#[test]
fn create_required_null_empty_blank_and_wrong_type() {
    for field in REQUIRED_FIELDS {
        for (value, code) in [
            (json!(null), "required"),
            (json!(""), "required"),
            (json!("  \t\n "), "required"),
            (json!(12), "not_string"),
            (json!(true), "not_string"),
            (json!(["a"]), "not_string"),
            (json!({"a": "b"}), "not_string"),
        ] {
            let mut item = user(0);
            item[field] = value.clone();
            let r = validate_create_user(&item, en());
            assert_eq!(
                summary(&r),
                vec![(json!([field]), code, Level::Contract)],
                "{field} = {value}"
            );
        }
    }
}

#[test]
fn create_optional_fields() {
    for field in OPTIONAL_FIELDS {
        for ok in [json!(null), json!(""), json!("Nam"), json!("anything")] {
            if field == "phone" && ok.as_str().is_some_and(|s| !s.is_empty()) {
                continue; // A phone must look like one (`phone_is_a_phone_number_at_platform_level`).
            }
            let mut item = user(0);
            item[field] = ok;
            assert!(validate_create_user(&item, en()).is_ok(), "{field}");
        }
        for bad in [json!(1), json!(false), json!([]), json!({})] {
            let mut item = user(0);
            item[field] = bad;
            let r = validate_create_user(&item, en());
            assert_eq!(
                summary(&r),
                vec![(json!([field]), "not_string", Level::Contract)]
            );
        }
    }
}

#[test]
fn create_gender_is_not_restricted() {
    for g in ["Nam", "Nữ", "Khác", "male", "F"] {
        let mut item = user(0);
        item["gender"] = json!(g);
        assert!(validate_create_user(&item, en()).is_ok(), "{g}");
    }
}

#[test]
fn create_unknown_field_is_platform() {
    let mut item = user(0);
    item["usename"] = json!("typo");
    item["Email"] = json!("x@y.z");
    let r = validate_create_users(&json!([item]), en());
    assert_eq!(
        summary(&r),
        vec![
            (json!([0, "Email"]), "unknown_field", Level::Platform),
            (json!([0, "usename"]), "unknown_field", Level::Platform),
        ]
    );
    assert!(validate_create_users(&json!([item]), lax()).is_ok());
}

#[test]
fn create_name_length_counts_unicode_chars() {
    for ok in ["Nguyễn", "Bảo", "Ann", "  Ann  ", "Lê Lý"] {
        let mut item = user(0);
        item["name"] = json!(ok);
        assert!(validate_create_user(&item, en()).is_ok(), "{ok}");
    }
    assert_eq!("Nguyễn".chars().count(), 6);
    // "Lý" is 3 bytes but 2 characters; "  ab  " is 2 after trimming.
    for short in ["Lý", "ab", "  ab  ", "A"] {
        let mut item = user(0);
        item["name"] = json!(short);
        let r = validate_create_user(&item, en());
        assert_eq!(
            summary(&r),
            vec![(json!(["name"]), "too_short", Level::Platform)],
            "{short}"
        );
        assert_eq!(r.issues[0].message, "Name must be at least 3 characters");
        let r = validate_create_user(&item, vi());
        assert_eq!(r.issues[0].message, "Tên phải có ít nhất 3 ký tự");
    }
}

#[test]
fn create_username_rules() {
    for ok in ["abc", "ABC123", "a1b2c3d4e5f6g7h8i9j0", "user2024"] {
        let mut item = user(0);
        item["username"] = json!(ok);
        assert!(validate_create_user(&item, en()).is_ok(), "{ok}");
    }
    let cases: [(&str, &[&str]); 8] = [
        ("ab", &["too_short"]),
        ("a1b2c3d4e5f6g7h8i9j0k", &["too_long"]),
        ("a_b", &["invalid_chars"]),
        ("tên123", &["invalid_chars"]),
        ("john doe", &["invalid_chars"]),
        (" abc", &["invalid_chars"]),
        ("a!", &["too_short", "invalid_chars"]),
        ("ab@cd.com", &["invalid_chars"]),
    ];
    for (u, codes) in cases {
        let mut item = user(0);
        item["username"] = json!(u);
        let r = validate_create_user(&item, en());
        assert_eq!(codes_at(&r, json!(["username"])), codes.to_vec(), "{u}");
        assert!(r.issues.iter().all(|i| i.level == Level::Platform));
        assert!(validate_create_user(&item, lax()).is_ok());
    }
}

#[test]
fn create_password_rules() {
    for ok in ["123456", "a".repeat(35).as_str(), "mật khẩu", "      x"] {
        let mut item = user(0);
        item["password"] = json!(ok);
        assert!(validate_create_user(&item, en()).is_ok(), "{ok}");
    }
    for (p, code) in [
        ("12345", "too_short"),
        ("ả".repeat(36).as_str(), "too_long"),
    ] {
        let mut item = user(0);
        item["password"] = json!(p);
        let r = validate_create_user(&item, en());
        assert_eq!(
            summary(&r),
            vec![(json!(["password"]), code, Level::Platform)]
        );
    }
}

#[test]
fn password_never_appears_in_messages() {
    let secrets = [
        "Zq9#x",
        "Zq9#xSecretSecretSecretSecretSecretSecret",
        "Zq9#xSecret",
    ];
    let mut items = Vec::new();
    for (i, s) in secrets.iter().enumerate() {
        // Every other field broken too, so many messages are produced.
        items.push(json!({
            "name": "x", "username": format!("Zq9#x{i}"), "email": s,
            "password": s, "phone": 5, "Zq9#x": s
        }));
    }
    items.push(
        json!({"name": "y", "username": "Zq9#x0", "email": secrets[0], "password": secrets[0]}),
    );
    let items = Value::Array(items);
    for opts in [en(), vi(), lax()] {
        let r = validate_create_users(&items, opts);
        assert!(r.issues.len() >= 5);
        for issue in &r.issues {
            assert!(!issue.message.contains("Zq9#"), "{}", issue.message);
        }
        let r = validate_login(&json!("a@b.c"), &json!(secrets[1]), opts);
        assert!(r.is_ok());
        let r = validate_login(&json!(secrets[1]), &json!(""), opts);
        assert!(r.issues.iter().all(|i| !i.message.contains("Zq9#")));
    }
}

#[test]
fn email_plausibility() {
    for ok in [
        "a@b.co",
        "first.last+tag@sub.example.com",
        "người@ví-dụ.việt.nam",
        "A@EXAMPLE.VN",
    ] {
        assert!(plausible_email(ok), "{ok}");
        let mut item = user(0);
        item["email"] = json!(ok);
        assert!(validate_create_user(&item, en()).is_ok(), "{ok}");
    }
    for bad in [
        "plainaddress",
        "@example.com",
        "a@",
        "a@b",
        "a@@b.com",
        "a@b@c.com",
        "a b@c.com",
        "a@b.com ",
        " a@b.com",
        "a@.b.com",
        "a@b.com.",
        "a@b..com",
        "a@b.\u{7}com",
    ] {
        assert!(!plausible_email(bad), "{bad}");
        let mut item = user(0);
        item["email"] = json!(bad);
        let r = validate_create_user(&item, en());
        assert_eq!(
            summary(&r),
            vec![(json!(["email"]), "invalid_email", Level::Platform)],
            "{bad}"
        );
        assert!(validate_create_user(&item, lax()).is_ok());
    }
}

// ---- create: duplicates -----------------------------------------------------------------

#[test]
fn duplicate_email_case_insensitive_on_later_item() {
    let mut items = users(4);
    items[0]["email"] = json!("An@Example.com");
    items[3]["email"] = json!("an@EXAMPLE.COM");
    let r = validate_create_users(&items, en());
    assert_eq!(
        summary(&r),
        vec![(json!([3, "email"]), "duplicate_email", Level::Contract)]
    );
    assert_eq!(r.issues[0].message, "Email already used in row 1");

    let mut items = users(3);
    items[1]["email"] = json!("dup@x.vn");
    items[2]["email"] = json!("  DUP@x.vn ");
    let r = validate_create_users(&items, vi());
    assert_eq!(
        codes_at(&r, json!([2, "email"])),
        vec!["invalid_email", "duplicate_email"]
    );
    let dup = r
        .issues
        .iter()
        .find(|i| i.code == "duplicate_email")
        .unwrap();
    assert_eq!(dup.message, "Email đã xuất hiện ở dòng 2");
    // Contract level: reported even without platform rules.
    let r = validate_create_users(&items, lax());
    assert_eq!(
        summary(&r),
        vec![(json!([2, "email"]), "duplicate_email", Level::Contract)]
    );
}

#[test]
fn duplicate_reported_against_first_occurrence() {
    let mut items = users(3);
    for i in 0..3 {
        items[i]["email"] = json!("same@x.vn");
    }
    let r = validate_create_users(&items, en());
    assert_eq!(
        summary(&r),
        vec![
            (json!([1, "email"]), "duplicate_email", Level::Contract),
            (json!([2, "email"]), "duplicate_email", Level::Contract),
        ]
    );
    assert!(r.issues.iter().all(|i| i.message.ends_with("row 1")));
}

#[test]
fn duplicate_username() {
    let mut items = users(3);
    items[2]["username"] = json!("user0");
    let r = validate_create_users(&items, en());
    assert_eq!(
        summary(&r),
        vec![(
            json!([2, "username"]),
            "duplicate_username",
            Level::Contract
        )]
    );
    assert_eq!(r.issues[0].message, "Username already used in row 1");
    let r = validate_create_users(&items, vi());
    assert_eq!(r.issues[0].message, "Tên đăng nhập đã xuất hiện ở dòng 1");

    // Differing only in case: a platform-level prediction.
    let mut items = users(3);
    items[1]["username"] = json!("USER0");
    let r = validate_create_users(&items, en());
    assert_eq!(
        summary(&r),
        vec![(
            json!([1, "username"]),
            "duplicate_username",
            Level::Platform
        )]
    );
    assert!(validate_create_users(&items, lax()).is_ok());
}

#[test]
fn no_duplicates_across_distinct_values_or_invalid_items() {
    let items = json!([
        {"name": "Ann", "username": "ann", "email": "a@x.vn", "password": "secret1"},
        {"name": "Ann", "username": "anna", "email": "ann@x.vn", "password": "secret1"},
        {"name": "Ann", "username": 5, "email": null, "password": "secret1"},
        {"name": "Ann", "username": 5, "email": null, "password": "secret1"}
    ]);
    let r = validate_create_users(&items, en());
    assert!(r
        .issues
        .iter()
        .all(|i| !i.code.as_str().starts_with("duplicate")));
}

// ---- languages and the message table ----------------------------------------------------

#[test]
fn every_code_has_both_languages() {
    for code in IssueCode::ALL {
        let (en, vi) = code.messages();
        assert!(!en.is_empty() && !vi.is_empty());
        assert_ne!(en, vi, "{code}");
        for lang in [Lang::En, Lang::Vi] {
            let m = render(code, Field::Name, 7, lang);
            assert!(!m.contains('{'), "{m}");
        }
    }
    let strings: std::collections::BTreeSet<_> =
        IssueCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(strings.len(), IssueCode::ALL.len(), "codes are distinct");
}

#[test]
fn every_emitted_code_is_in_the_table() {
    let inputs = odd_values();
    for v in &inputs {
        for r in run_all(v, en()) {
            for i in r.issues {
                assert!(IssueCode::ALL.contains(&i.code), "{}", i.code);
            }
        }
    }
}

#[test]
fn vietnamese_messages() {
    let r = validate_create_user(&json!({"name": null, "username": "ab", "email": 1}), vi());
    let msgs: Vec<&str> = r.issues.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "Bắt buộc nhập tên",
            "Tên đăng nhập phải có ít nhất 3 ký tự",
            "Email phải là chuỗi ký tự",
            "Bắt buộc nhập mật khẩu",
        ]
    );
    let r = validate_page(PageKind::Users, &json!(-1), &json!(101), vi());
    assert_eq!(
        r.issues[0].message,
        "Vị trí bắt đầu phải lớn hơn hoặc bằng 0"
    );
    assert_eq!(r.issues[1].message, "Số lượng phải nhỏ hơn hoặc bằng 100");
    let r = validate_search_user(&json!(null), &json!(null), vi());
    assert_eq!(r.issues[0].message, "Cần nhập email hoặc tên đăng nhập");
}

#[test]
fn english_messages() {
    let r = validate_create_user(&json!({"name": null, "username": "ab", "email": 1}), en());
    let msgs: Vec<&str> = r.issues.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "Name is required",
            "Username must be at least 3 characters",
            "Email must be text",
            "Password is required",
        ]
    );
}

#[test]
fn platform_rules_off_keeps_only_contract() {
    let items = json!([
        {"name": "A", "username": "a b", "email": "nope", "password": "1", "extra": 1},
        {"name": "Bob", "username": "bob", "email": "b@x.vn"}
    ]);
    let strict = validate_create_users(&items, en());
    assert!(strict.issues.iter().any(|i| i.level == Level::Platform));
    let r = validate_create_users(&items, lax());
    assert_eq!(
        summary(&r),
        vec![(json!([1, "password"]), "required", Level::Contract)]
    );
}

// ---- paging -----------------------------------------------------------------------------

#[test]
fn page_limits() {
    let check = |kind, start: Value, limit: Value| {
        summary(&validate_page(kind, &start, &limit, en()))
            .into_iter()
            .map(|(p, c, _)| (p, c))
            .collect::<Vec<_>>()
    };
    use PageKind::{Courses, Users};
    assert!(check(Users, json!(0), json!(1)).is_empty());
    assert!(check(Users, json!(5), json!(100)).is_empty());
    assert!(check(Users, json!(null), json!(null)).is_empty());
    assert!(check(Courses, json!(0), json!(0)).is_empty());
    assert!(check(Courses, json!(1.0), json!(100.0)).is_empty());
    assert!(check(Users, json!(u64::MAX), json!(50)).is_empty());
    assert_eq!(
        check(Users, json!(0), json!(0)),
        vec![(json!(["limit"]), "too_small")]
    );
    assert_eq!(
        check(Users, json!(0), json!(101)),
        vec![(json!(["limit"]), "too_large")]
    );
    assert_eq!(
        check(Courses, json!(0), json!(101)),
        vec![(json!(["limit"]), "too_large")]
    );
    assert_eq!(
        check(Courses, json!(0), json!(-1)),
        vec![(json!(["limit"]), "too_small")]
    );
    assert_eq!(
        check(Courses, json!(0), json!(u64::MAX)),
        vec![(json!(["limit"]), "too_large")]
    );
    assert_eq!(
        check(Users, json!(-1), json!(10)),
        vec![(json!(["start"]), "too_small")]
    );
    assert_eq!(
        check(Users, json!(i64::MIN), json!(10)),
        vec![(json!(["start"]), "too_small")]
    );
    for bad in [
        json!(1.5),
        json!("3"),
        json!(true),
        json!([1]),
        json!({}),
        json!(1e300),
        json!(-0.5),
    ] {
        assert_eq!(
            check(Courses, bad.clone(), bad.clone()),
            vec![
                (json!(["start"]), "not_integer"),
                (json!(["limit"]), "not_integer")
            ],
            "{bad}"
        );
    }
    let r = validate_page(Users, &json!(-3), &json!(0), en());
    assert!(r.issues.iter().all(|i| i.level == Level::Contract));
    assert_eq!(r.issues[0].message, "Start must be at least 0");
    assert_eq!(r.issues[1].message, "Limit must be at least 1");
}

// ---- search -----------------------------------------------------------------------------

#[test]
fn search_user() {
    let s = |e: Value, u: Value, o| summary(&validate_search_user(&e, &u, o));
    assert!(s(json!("a@b.vn"), json!(null), en()).is_empty());
    assert!(s(json!(null), json!("bob"), en()).is_empty());
    assert!(s(json!("a@b.vn"), json!("bob"), en()).is_empty());
    assert!(s(json!(""), json!("bob"), en()).is_empty());
    let one_of = (json!([]), "email_or_username_required", Level::Contract);
    assert_eq!(s(json!(null), json!(null), en()), vec![one_of.clone()]);
    assert_eq!(s(json!(""), json!("  "), en()), vec![one_of.clone()]);
    assert_eq!(
        s(json!(5), json!(null), en()),
        vec![
            (json!(["email"]), "not_string", Level::Contract),
            one_of.clone()
        ]
    );
    assert_eq!(
        s(json!("a@b.vn"), json!(["bob"]), en()),
        vec![(json!(["username"]), "not_string", Level::Contract)]
    );
    assert_eq!(
        s(json!("not an email"), json!(null), en()),
        vec![(json!(["email"]), "invalid_email", Level::Platform)]
    );
    assert!(s(json!("not an email"), json!(null), lax()).is_empty());
}

#[test]
fn search_courses() {
    assert!(validate_search_courses(&json!("lập trình"), en()).is_ok());
    for (v, code) in [
        (json!(null), "required"),
        (json!(""), "required"),
        (json!("   "), "required"),
        (json!(5), "not_string"),
        (json!({"t": 1}), "not_string"),
    ] {
        let r = validate_search_courses(&v, en());
        assert_eq!(
            summary(&r),
            vec![(json!(["title"]), code, Level::Contract)],
            "{v}"
        );
    }
    let r = validate_search_courses(&json!(""), vi());
    assert_eq!(r.issues[0].message, "Bắt buộc nhập tiêu đề");
}

// ---- ids --------------------------------------------------------------------------------

#[test]
fn ids() {
    for ok in [
        "X7mKq2RBtWdHn4sPz",
        "abcdefghijklmn",
        "abcdefghijklmnopqrst",
        "a/b?c#d",
        "../x",
        "...",
        ".a",
        "%2e%2e",
        "x".repeat(300).as_str(),
    ] {
        assert!(validate_id(&json!(ok), en()).is_ok(), "{ok}");
    }
    for (v, code) in [
        (json!("."), "dot_segment"),
        (json!(".."), "dot_segment"),
        (json!(" .. "), "dot_segment"),
        (json!(""), "required"),
        (json!(" "), "required"),
        (json!(null), "required"),
        (json!(5), "not_string"),
        (json!(["a"]), "not_string"),
    ] {
        let r = validate_id(&v, lax());
        assert_eq!(summary(&r), vec![(json!([]), code, Level::Contract)], "{v}");
    }
    let r = validate_id(&json!(".."), vi());
    assert_eq!(r.issues[0].message, "Mã không được là \".\" hoặc \"..\"");
}

#[test]
fn add_courses() {
    let ids =
        |n: usize, p: &str| Value::Array((0..n).map(|i| json!(format!("{p}{i:014}"))).collect());
    assert!(validate_add_courses(&ids(1, "u"), &ids(1, "c"), en()).is_ok());
    assert!(validate_add_courses(&ids(100, "u"), &ids(250, "c"), en()).is_ok());
    let r = validate_add_courses(&ids(101, "u"), &ids(1, "c"), en());
    assert_eq!(
        summary(&r),
        vec![(json!(["users"]), "too_many", Level::Contract)]
    );

    let r = validate_add_courses(&json!([]), &json!([]), en());
    assert_eq!(
        summary(&r),
        vec![
            (json!(["users"]), "empty", Level::Contract),
            (json!(["courses"]), "empty", Level::Contract),
        ]
    );
    let r = validate_add_courses(&json!(null), &json!("c1"), en());
    assert_eq!(
        summary(&r),
        vec![
            (json!(["users"]), "not_array", Level::Contract),
            (json!(["courses"]), "not_array", Level::Contract),
        ]
    );
    let r = validate_add_courses(&json!(["u1", "", 3, ".."]), &json!(["c1", null]), en());
    assert_eq!(
        summary(&r),
        vec![
            (json!(["users", 1]), "required", Level::Contract),
            (json!(["users", 2]), "not_string", Level::Contract),
            (json!(["users", 3]), "dot_segment", Level::Contract),
            (json!(["courses", 1]), "required", Level::Contract),
        ]
    );
    let r = validate_add_courses(&json!(["u1", "u2", "u1"]), &json!(["c1", "c1"]), en());
    assert_eq!(
        summary(&r),
        vec![
            (json!(["users", 2]), "duplicate_id", Level::Platform),
            (json!(["courses", 1]), "duplicate_id", Level::Platform),
        ]
    );
    assert_eq!(r.issues[0].message, "Account ID already listed in row 1");
    let r = validate_add_courses(&json!(["u1", "u2", "u1"]), &json!(["c1", "c1"]), vi());
    assert_eq!(r.issues[1].message, "Mã khoá học đã có ở dòng 1");
    assert!(validate_add_courses(&json!(["u1", "u1"]), &json!(["c1", "c1"]), lax()).is_ok());
}

// ---- login ------------------------------------------------------------------------------

#[test]
fn login() {
    assert!(validate_login(&json!("admin@x.vn"), &json!("pw"), en()).is_ok());
    let r = validate_login(&json!(null), &json!(""), en());
    assert_eq!(
        summary(&r),
        vec![
            (json!(["email"]), "required", Level::Contract),
            (json!(["password"]), "required", Level::Contract),
        ]
    );
    let r = validate_login(&json!(1), &json!({}), en());
    assert_eq!(
        summary(&r),
        vec![
            (json!(["email"]), "not_string", Level::Contract),
            (json!(["password"]), "not_string", Level::Contract),
        ]
    );
    let r = validate_login(&json!("admin"), &json!("pw"), en());
    assert_eq!(
        summary(&r),
        vec![(json!(["email"]), "invalid_email", Level::Platform)]
    );
    assert!(validate_login(&json!("admin"), &json!("pw"), lax()).is_ok());
}

// ---- never panics -----------------------------------------------------------------------

/// Small deterministic generator (xorshift), so the stress test needs no extra crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const ODD_STRINGS: [&str; 14] = [
    "",
    " ",
    ".",
    "..",
    "@",
    "a@b.c",
    "Nguyễn",
    "\u{0}",
    "\u{202e}",
    "👩‍👩‍👧‍👦",
    "e\u{301}\u{302}\u{323}",
    "name",
    "email",
    "\u{fffd}\u{fffd}",
];

fn random_value(rng: &mut Rng, depth: u32) -> Value {
    let pick = if depth == 0 {
        rng.below(7)
    } else {
        rng.below(10)
    };
    match pick {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.next() as i64),
        3 => json!(rng.next()),
        4 => serde_json::Number::from_f64(f64::from_bits(rng.next()))
            .map(Value::Number)
            .unwrap_or(Value::Null),
        5 => json!(ODD_STRINGS[rng.below(ODD_STRINGS.len() as u64) as usize]),
        6 => json!("x".repeat(rng.below(64) as usize)),
        7 | 8 => {
            let n = rng.below(6);
            let mut map = serde_json::Map::new();
            for _ in 0..n {
                let k = match rng.below(3) {
                    0 => REQUIRED_FIELDS[rng.below(4) as usize].to_owned(),
                    1 => OPTIONAL_FIELDS[rng.below(6) as usize].to_owned(),
                    _ => ODD_STRINGS[rng.below(ODD_STRINGS.len() as u64) as usize].to_owned(),
                };
                map.insert(k, random_value(rng, depth - 1));
            }
            Value::Object(map)
        }
        _ => {
            let n = rng.below(8);
            Value::Array((0..n).map(|_| random_value(rng, depth - 1)).collect())
        }
    }
}

fn odd_values() -> Vec<Value> {
    // Nested 500 deep (validators never descend into values, so depth costs nothing).
    let mut deep_array = json!([]);
    let mut deep_object = json!({});
    for _ in 0..500 {
        deep_array = json!([deep_array]);
        deep_object = json!({"email": deep_object});
    }
    let mut out = vec![
        Value::Null,
        json!(u64::MAX),
        json!(i64::MIN),
        json!(f64::MAX),
        json!(f64::MIN_POSITIVE),
        json!(-0.0),
        json!(1e300),
        json!({"name": {"name": {"name": []}}}),
        json!([[[[[]]]]]),
        json!([{"name": [], "username": {}, "email": 1e300, "password": [null]}]),
        json!(["..", ".", "", null, {}, []]),
        Value::Array(vec![json!({}); 300]),
        deep_array,
        deep_object,
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..400 {
        out.push(random_value(&mut rng, 4));
    }
    out
}

fn run_all(v: &Value, opts: ValidateOptions) -> Vec<Report> {
    let other = v.get(0).or_else(|| v.get("email")).unwrap_or(v);
    vec![
        validate_create_users(v, opts),
        validate_create_user(v, opts),
        validate_create_user(other, opts),
        validate_page(PageKind::Users, v, other, opts),
        validate_page(PageKind::Courses, other, v, opts),
        validate_search_user(v, other, opts),
        validate_search_courses(v, opts),
        validate_id(v, opts),
        validate_add_courses(v, other, opts),
        validate_login(v, other, opts),
    ]
}

#[test]
fn stress_odd_json_never_panics() {
    let values = odd_values();
    for v in &values {
        for opts in [en(), vi(), lax()] {
            for r in run_all(v, opts) {
                for issue in &r.issues {
                    assert!(!issue.message.is_empty());
                    if !opts.platform_rules {
                        assert_eq!(issue.level, Level::Contract);
                    }
                }
                assert!(serde_json::to_string(&r).is_ok());
                assert_eq!(r.is_ok(), r.issues.is_empty());
            }
        }
    }
}

#[test]
fn each_code_is_written_as_its_snake_case_name() {
    // TypeScript takes the names from the `serde(rename_all = "snake_case")` attribute; the JSON
    // from `as_str`: the two must agree.
    for code in IssueCode::ALL {
        let mut snake = String::new();
        for (i, c) in format!("{code:?}").chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                snake.push('_');
            }
            snake.push(c.to_ascii_lowercase());
        }
        assert_eq!(code.as_str(), snake);
        assert_eq!(serde_json::to_value(code).unwrap(), json!(snake));
    }
}

#[test]
fn phone_is_a_phone_number_at_platform_level() {
    let with = |phone: Value| {
        let mut u = user(1);
        u["phone"] = phone;
        u
    };
    for good in [
        "0912345678",
        "0912 345 678",
        "0912.345.678",
        "+84 912 345 678",
        "+84-912-345-678",
        "(024) 3869 1234",
        "  0912345678  ",
        "12345678",
        "123456789012345",
    ] {
        let r = validate_create_user(&with(json!(good)), en());
        assert!(r.is_ok(), "{good}: {:?}", r.issues);
    }
    // Blank and null are no phone (an optional form field left empty), not a bad one.
    for blank in [json!(""), json!("   "), json!(null)] {
        assert!(
            validate_create_user(&with(blank.clone()), en()).is_ok(),
            "{blank}"
        );
    }
    for bad in [
        "abc",
        "0912abc678",
        "1234567",
        "1234567890123456",
        "++84912345678",
        "84+912345678",
        "0912_345_678",
        "０９１２３４５６７８",
    ] {
        let r = validate_create_user(&with(json!(bad)), en());
        assert_eq!(
            summary(&r),
            vec![(json!(["phone"]), "invalid_phone", Level::Platform)],
            "{bad}"
        );
        assert!(!r.has_contract_issues(), "{bad}");
        assert!(
            validate_create_user(&with(json!(bad)), lax()).is_ok(),
            "{bad}"
        );
    }
    // Messages in both languages, without the value.
    let r = validate_create_user(&with(json!("abc")), en());
    assert_eq!(r.issues[0].message, "Phone is not a valid phone number");
    let r = validate_create_user(&with(json!("abc")), vi());
    assert!(r.issues[0]
        .message
        .starts_with("Số điện thoại không hợp lệ"));
    assert!(!r.issues[0].message.contains("abc"));
    // In a batch, at the item's path; a phone of another type stays a contract finding.
    let mut batch = users(2);
    batch[1]["phone"] = json!("abc");
    assert_eq!(
        summary(&validate_create_users(&batch, en())),
        vec![(json!([1, "phone"]), "invalid_phone", Level::Platform)]
    );
    batch[1]["phone"] = json!(912345678);
    assert_eq!(
        summary(&validate_create_users(&batch, en())),
        vec![(json!([1, "phone"]), "not_string", Level::Contract)]
    );
}

// ---- a list checked a slice at a time ------------------------------------------------------------

/// The issues of `list` checked in slices cut at `cuts` (`UsersCheck`), in the whole call's
/// order: the list's own first, then each slice's.
fn sliced(list: &Value, cuts: &[usize], opts: ValidateOptions) -> Vec<Issue> {
    let items = list.as_array().unwrap();
    // Tables made for every item at once, for a few, or grown from none: the same findings.
    let mut check = match cuts.len() % 3 {
        0 => UsersCheck::new(opts),
        1 => UsersCheck::with_room(items.len(), opts),
        _ => UsersCheck::with_room(3, opts),
    };
    let mut issues = Vec::new();
    let mut from = 0;
    for &to in cuts.iter().chain([&items.len()]) {
        let to = to.clamp(from, items.len());
        issues.extend(check.check(&Value::Array(items[from..to].to_vec())).issues);
        from = to;
    }
    let mut all = check.finish().issues;
    all.extend(issues);
    all
}

#[test]
fn a_list_in_slices_gives_the_whole_calls_issues() {
    let mut list = users(250);
    // Repeats across the boundary at 100 (and within a slice), an exact and a case-only username
    // repeat, a row that is not an object, a blank e-mail, another row's e-mail in upper case.
    list[100]["email"] = json!(" USER99@example.com");
    list[150]["username"] = json!("User50");
    list[210]["username"] = json!("user10");
    list[120] = json!(null);
    list[130]["email"] = json!("");
    list[20]["username"] = json!("user20\u{e9}");
    list[240]["username"] = json!("USER20\u{c9}");
    let whole = validate_create_users(&list, vi()).issues;
    let dup = |row: usize, code: &str, level: Level| {
        whole.iter().any(|i| {
            i.path.first() == Some(&PathSegment::Index(row))
                && i.code.as_str() == code
                && i.level == level
        })
    };
    assert!(dup(100, "duplicate_email", Level::Contract));
    assert!(dup(150, "duplicate_username", Level::Platform));
    assert!(dup(210, "duplicate_username", Level::Contract));
    assert!(dup(240, "duplicate_username", Level::Platform));
    assert_eq!(whole[0].code.as_str(), "too_many");
    for cuts in [
        vec![],
        vec![1],
        vec![100],
        vec![7, 14, 99, 100, 101, 200],
        vec![50, 120, 121, 249],
    ] {
        assert_eq!(sliced(&list, &cuts, vi()), whole, "cut at {cuts:?}");
    }
    let every: Vec<usize> = (1..250).collect();
    assert_eq!(sliced(&list, &every, vi()), whole);
    // The list's own findings need the count of every slice: empty, and not an array.
    assert_eq!(
        sliced(&json!([]), &[], en()),
        validate_create_users(&json!([]), en()).issues
    );
    let mut check = UsersCheck::new(en());
    assert_eq!(
        summary(&check.check(&json!({}))),
        vec![(json!([]), "not_array", Level::Contract)]
    );
}

proptest::proptest! {
    // Few keys, so repeats (exact and by letter case) fall within and across slices.
    #[test]
    fn a_list_in_slices_agrees_with_the_whole_call(
        rows in proptest::collection::vec(
            (proptest::option::of("[aAb]{0,2} ?"), proptest::option::of("[aAbé]{0,2}"), proptest::bool::ANY),
            0..40,
        ),
        cuts in proptest::collection::vec(0usize..40, 0..5),
        strict in proptest::bool::ANY,
    ) {
        let list = Value::Array(rows.iter().map(|(email, username, object)| match object {
            false => json!(7),
            true => json!({
                "name": "Tên người",
                "username": username,
                "email": email.as_ref().map(|e| format!("{e}@x.vn")),
                "password": "secret123",
            }),
        }).collect());
        let mut cuts = cuts;
        cuts.sort_unstable();
        let opts = ValidateOptions { lang: Lang::En, platform_rules: strict };
        proptest::prop_assert_eq!(sliced(&list, &cuts, opts), validate_create_users(&list, opts).issues);
    }
}
