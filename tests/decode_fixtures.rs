//! Every fixture of `tests/fixtures/cases.json` decodes to the outcome the manifest names, and
//! every success decodes without losing a key.
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

mod common;

use common::{body, cases, decode, numbers_as_f64};
use lpm_client::{Basis, Endpoint, Error, Reason};
use serde_json::Value;

/// The key(s) of the envelope that carry the data, per endpoint.
fn data_keys(endpoint: Endpoint) -> &'static [&'static str] {
    match endpoint {
        Endpoint::CreateUsers | Endpoint::GetUsers => &["users"],
        Endpoint::GetUser | Endpoint::GetMe | Endpoint::SearchUser => &["user"],
        Endpoint::GetCourse => &["course"],
        Endpoint::GetCourses | Endpoint::SearchCourses => &["courses"],
        Endpoint::AddCoursesToUsers => &["validCourses", "result"],
        Endpoint::Login | Endpoint::CreateLoginToken => &["token", "tokenExpires"],
        Endpoint::CreateUser => &[],
    }
}

#[test]
fn every_fixture_decodes_to_its_outcome() {
    let cases = cases();
    assert!(cases.len() >= 60, "manifest too small: {}", cases.len());
    for case in &cases {
        let endpoint = Endpoint::from_key(&case.endpoint).expect("known endpoint");
        let bytes = body(case);
        let got = decode(endpoint, case.status, &bytes);
        let ctx = format!("{} ({})", case.file, case.outcome);
        match case.outcome.as_str() {
            "ok" => {
                let reply = got.unwrap_or_else(|e| panic!("{ctx}: {e}"));
                let sent: Value = serde_json::from_slice(&bytes).unwrap();
                // Lossless: every data key re-encodes to exactly what was received.
                for key in data_keys(endpoint) {
                    assert_eq!(
                        numbers_as_f64(reply[key].clone()),
                        numbers_as_f64(sent[key].clone()),
                        "{ctx}: key {key} changed in decoding"
                    );
                }
                assert_eq!(reply["msg"], sent["msg"], "{ctx}");
                if endpoint == Endpoint::CreateUser {
                    assert_eq!(reply["respCode"], sent["respCode"], "{ctx}");
                }
            }
            "api-error" => match got {
                Err(Error::Api(e)) => {
                    assert_eq!(Some(&e.code), case.resp_code.as_ref(), "{ctx}");
                    assert_eq!(Some(&e.msg), case.msg.as_ref(), "{ctx}");
                    assert_eq!(e.status, case.status, "{ctx}");
                    assert_eq!(e.endpoint, endpoint, "{ctx}");
                    if let Some(reason) = &case.reason {
                        assert_eq!(&serde_json::to_value(e.reason).unwrap(), reason, "{ctx}");
                    }
                    if case.source == "contract" || case.source == "notes" {
                        assert_ne!(
                            e.reason,
                            Reason::Unknown,
                            "{ctx}: documented code undecoded"
                        );
                        assert!(matches!(e.basis, Basis::Contract | Basis::Notes), "{ctx}");
                    }
                }
                other => panic!("{ctx}: expected an API error, got {other:?}"),
            },
            "http-error" => match got {
                Err(Error::Http(e)) => {
                    assert_eq!(e.status, case.status, "{ctx}");
                    assert!(e.excerpt.chars().count() <= 201, "{ctx}");
                }
                other => panic!("{ctx}: expected an HTTP error, got {other:?}"),
            },
            "decode-error" => match got {
                Err(Error::Decode(e)) => {
                    if let Some(path) = &case.decode_path {
                        assert_eq!(&e.path, path, "{ctx}");
                    }
                }
                other => panic!("{ctx}: expected a decode error, got {other:?}"),
            },
            other => panic!("{ctx}: unknown outcome {other}"),
        }
    }
}

#[test]
fn code_13_is_a_result_with_items() {
    let bytes =
        std::fs::read(common::fixtures_dir().join("create-multi-user/all-failed-13.json")).unwrap();
    let reply = decode(Endpoint::CreateUsers, 200, &bytes).unwrap();
    assert_eq!(reply["respCode"], "13");
    assert_eq!(reply["created"], 0);
    assert!(reply["failed"].as_u64().unwrap() >= 1);
    assert_eq!(
        reply["failed"].as_u64().unwrap() as usize,
        reply["users"].as_array().unwrap().len()
    );
}

#[test]
fn msg_counts_are_read_but_items_are_the_truth() {
    let bytes =
        std::fs::read(common::fixtures_dir().join("create-multi-user/msg-disagrees.json")).unwrap();
    let sent: Value = serde_json::from_slice(&bytes).unwrap();
    let reply = decode(Endpoint::CreateUsers, 200, &bytes).unwrap();
    let items = sent["users"].as_array().unwrap();
    let ok = items.iter().filter(|i| i["success"] == true).count();
    assert_eq!(reply["created"].as_u64().unwrap() as usize, ok);
    assert_eq!(reply["failed"].as_u64().unwrap() as usize, items.len() - ok);
    let counts = &reply["msgCounts"];
    assert!(counts.is_object(), "msg counts read");
    assert_ne!(
        (
            counts["succeeded"].as_u64().unwrap() as usize,
            counts["failed"].as_u64().unwrap() as usize
        ),
        (ok, items.len() - ok),
        "this fixture's msg disagrees with its items"
    );
}

#[test]
fn add_courses_vietnamese_summary_is_read() {
    let bytes =
        std::fs::read(common::fixtures_dir().join("add-multi-course-to-multi-user/success.json"))
            .unwrap();
    let reply = decode(Endpoint::AddCoursesToUsers, 200, &bytes).unwrap();
    assert_eq!(reply["msgCounts"]["succeeded"], 4);
    assert_eq!(reply["msgCounts"]["failed"], 0);
    assert_eq!(reply["succeeded"], 4);
}

#[test]
fn capacity_12_carries_the_free_slots() {
    let bytes =
        std::fs::read(common::fixtures_dir().join("create-multi-user/err-12.json")).unwrap();
    match decode(Endpoint::CreateUsers, 400, &bytes) {
        Err(Error::Api(e)) => {
            assert_eq!(e.reason, Reason::NotEnoughSlots);
            assert_eq!(e.available_slots, Some(7));
            assert!(!e.retryable);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn extra_fields_survive_decoding() {
    let bytes =
        std::fs::read(common::fixtures_dir().join("get-single-course/extra-fields.json")).unwrap();
    let api = common::api();
    let reply = api.get_course("x").unwrap().decode(200, &bytes).unwrap();
    assert!(!reply.course.extra.is_empty(), "top-level extras kept");
    assert!(!reply.course.price.extra.is_empty(), "nested extras kept");
}
