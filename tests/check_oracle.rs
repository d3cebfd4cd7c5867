//! The decoder's gate (src/check.rs) reports the same path as serde_path_to_error, a
//! path-tracking typed deserializer, on every single-leaf corruption of real fixture bodies, and
//! accepts exactly what the typed decode accepts.
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

mod common;

use lpm_client::{CourseList, Error, UserList};
use serde_json::Value;

/// Every JSON pointer to a leaf or container inside `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = format!("{at}/{k}");
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(x, p, out);
            }
        }
        _ => {}
    }
}

/// A value of another JSON type than `v`.
fn wrong(v: &Value) -> Value {
    match v {
        Value::String(_) => Value::from(7),
        Value::Number(_) => Value::from("x"),
        Value::Bool(_) => Value::from("yes"),
        Value::Null => Value::from(1),
        Value::Object(_) => Value::from(3),
        Value::Array(_) => Value::from("list"),
    }
}

fn check<R: serde::de::DeserializeOwned + lpm_client::reply::Reply>(
    file: &str,
    decode: impl Fn(&[u8]) -> Result<R, Error>,
) -> usize {
    let text = std::fs::read_to_string(common::fixtures_dir().join(file)).unwrap();
    let body: Value = serde_json::from_str(&text).unwrap();
    let mut ptrs = Vec::new();
    pointers(&body, String::new(), &mut ptrs);
    let mut compared = 0;
    for (n, ptr) in ptrs.iter().enumerate() {
        if ptr == "/respCode" {
            continue;
        }
        let mut corrupt = body.clone();
        let slot = corrupt.pointer_mut(ptr).unwrap();
        *slot = wrong(slot);
        // Alternate compact and pretty bodies so multi-line positions are exercised too.
        let bytes = if n % 2 == 0 {
            serde_json::to_vec(&corrupt).unwrap()
        } else {
            serde_json::to_vec_pretty(&corrupt).unwrap()
        };
        let reference = serde_path_to_error::deserialize::<_, R>(
            &mut serde_json::Deserializer::from_slice(&bytes),
        );
        match (decode(&bytes), reference) {
            (Err(Error::Decode(d)), Err(r)) => {
                assert_eq!(d.path, r.path().to_string(), "{file} {ptr}");
                compared += 1;
            }
            (Ok(_), Ok(_)) => {}
            (ours, theirs) => panic!(
                "{file} {ptr}: ours {:?} vs reference ok={}",
                ours.err(),
                theirs.is_ok()
            ),
        }
    }
    compared
}

#[test]
fn error_paths_match_the_path_tracking_deserializer() {
    let api = common::api();
    let courses = check::<CourseList>("get-multi-course/success.json", |b| {
        api.get_courses(0, 100).unwrap().decode(200, b)
    });
    let users = check::<UserList>("get-multi-user/success.json", |b| {
        api.get_users(0, 100).unwrap().decode(200, b)
    });
    assert!(
        courses > 100 && users > 30,
        "compared {courses} course and {users} user corruptions"
    );
}
