//! Using the core from Rust: plan a request, send it with any HTTP client, decode the answer.
//! Here the "HTTP client" is a canned response, so this runs anywhere: `cargo run --example plan_decode`.
// A profiling aid run by hand: a panic (a file not found) is its failure, said where it is.
#![allow(clippy::unwrap_used)]

use lpm_client::{Category, Error, NewUser, Planner};

fn main() -> Result<(), Error> {
    let api = Planner::new("https://school.example.com")?.with_token("my-api-token")?;

    // Plan: method, URL (token percent-encoded), JSON body. Input is validated first.
    let batch = vec![NewUser {
        name: "Nguyễn Văn An".into(),
        username: "nguyenvanan".into(),
        email: "an@example.vn".into(),
        password: "matkhau123".into(),
        phone: None,
        city: Some("Hà Nội".into()),
        district: None,
        street: None,
        gender: Some("Nam".into()),
        job: None,
    }];
    let request = api.create_users(&batch)?;
    println!("{} {}", request.method().as_str(), request.redacted_url());
    println!("body: {} bytes", request.body().map_or(0, str::len));

    // Decode: (HTTP status, body bytes) -> typed reply, or a typed error.
    let body = r#"{"respCode":"00","msg":"1 success, 0 error","users":[{"name":"Nguyễn Văn An",
        "username":"nguyenvanan","email":"an@example.vn","password":"matkhau123",
        "userId":"Xq3kPz9LmN2bVc7Rt","success":true,"status":"Success created"}]}"#;
    let reply = request.decode(200, body.as_bytes())?;
    println!(
        "created {} / failed {}: {:?}",
        reply.counts.created, reply.counts.failed, reply.users[0].user_id
    );

    // Errors are decoded per endpoint: get-single-user 03 is "no token" or "not found" by its msg.
    let lookup = api.get_user("Xq3kPz9LmN2bVc7Rt")?;
    match lookup.decode(
        400,
        br#"{"respCode":"03","user":null,"msg":"User not found"}"#,
    ) {
        Err(Error::Api(e)) if e.category == Category::NotFound => {
            println!("not found: {} ({})", e.msg, e.explanation)
        }
        other => println!("unexpected: {other:?}"),
    }
    Ok(())
}
