//! The binary: first stdout line, credentials, port 0, quick start.

use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

use crate::common::*;

#[tokio::test]
async fn binary_prints_address_and_credentials_then_serves() {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_lpm-emulator"))
        .args([
            "--port",
            "0",
            "--seed",
            "empty",
            "--admin-token",
            "cli-admin-token",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn lpm-emulator");
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let first = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
        .await
        .expect("first line in time")
        .unwrap()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(2), "starts quickly");
    let base = first
        .strip_prefix("lpm-emulator listening on http://127.0.0.1:")
        .unwrap_or_else(|| panic!("unexpected first line: {first}"));
    let port: u16 = base.parse().expect("port");
    assert_ne!(port, 0);
    let mut rest = Vec::new();
    for _ in 0..7 {
        rest.push(lines.next_line().await.unwrap().unwrap());
    }
    assert!(rest.contains(&"admin-token: cli-admin-token".to_string()));
    assert!(rest.contains(&format!("user-token: {USER}")));
    assert!(rest.contains(&format!("expired-token: {EXPIRED}")));
    assert!(rest.contains(&"admin-email: admin@demo.lpm.test".to_string()));
    assert!(rest.contains(&"admin-password: demo-admin-password".to_string()));

    let addr = format!("127.0.0.1:{port}").parse().unwrap();
    let r = raw(
        addr,
        "GET",
        "/manage/api/users/get-me?token=cli-admin-token",
        None,
        &[],
    )
    .await;
    r.expect(200, "00", "Success");
    let s = raw(addr, "GET", "/_emulator/state", None, &[]).await.json();
    assert_eq!(s["courses"], 0);
    child.kill().await.ok();
}

#[tokio::test]
async fn binary_rejects_bad_arguments() {
    let out = Command::new(env!("CARGO_BIN_EXE_lpm-emulator"))
        .args(["--seed", "nope"])
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_lpm-emulator"))
        .arg("--help")
        .output()
        .await
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("--status-mode"));
}
