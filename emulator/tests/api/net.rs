//! Connection handling (issue 12): a header-read timeout and a connection limit, so clients that
//! never finish their headers can neither hold a connection for ever nor exhaust the server.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::timeout;

use crate::common::*;
use lpm_emulator::Config;

/// Reads until the server closes the connection (end of stream or reset); `false` if it is
/// still open after `limit`.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    let mut buf = [0u8; 1024];
    let closing = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    timeout(limit, closing).await.is_ok()
}

#[tokio::test]
async fn unfinished_headers_time_out_and_connections_are_limited() {
    const PARTIAL: usize = 50;
    let emu = start_with(Config {
        header_read_timeout_ms: 1500,
        max_connections: 20,
        ..Config::default()
    })
    .await;
    let mut partial = Vec::new();
    for _ in 0..PARTIAL {
        let mut s = TcpStream::connect(emu.addr).await.expect("connect");
        s.write_all(b"GET /manage/api/users/get-me?token=x HTTP/1.1\r\nHost: 127.0")
            .await
            .expect("write");
        partial.push(s);
    }
    // A complete request behind 50 unfinished ones: the 20 slots are taken, so it waits (in the
    // listen backlog) rather than failing, and is answered once the stalled ones time out.
    let addr = emu.addr;
    let normal =
        tokio::spawn(async move { raw(addr, "GET", "/manage/api/users/get-me", None, &[]).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !normal.is_finished(),
        "answered at once: the connection limit is not applied"
    );
    let r = timeout(Duration::from_secs(20), normal)
        .await
        .expect("a complete request is still answered")
        .expect("request task");
    r.expect(401, "02", "No token");
    // Every unfinished connection is closed by the server (after the header timeout).
    for (i, s) in partial.iter_mut().enumerate() {
        assert!(
            closed_within(s, Duration::from_secs(20)).await,
            "connection {i} still open"
        );
    }
}

/// An idle keep-alive connection is closed by the same timeout.
#[tokio::test]
async fn idle_keep_alive_connection_is_closed() {
    let emu = start_with(Config {
        header_read_timeout_ms: 300,
        ..Config::default()
    })
    .await;
    let mut s = TcpStream::connect(emu.addr).await.expect("connect");
    let req = format!(
        "GET /manage/api/users/get-me HTTP/1.1\r\nHost: {}\r\n\r\n",
        emu.addr
    );
    s.write_all(req.as_bytes()).await.expect("write");
    assert!(closed_within(&mut s, Duration::from_secs(20)).await);
}
