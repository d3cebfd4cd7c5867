//! Connection handling (issue 12): a header-read timeout (also for bodies) and a connection limit,
//! so clients that never finish their request can neither hold a connection for ever nor exhaust
//! the server.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::timeout;

use crate::common::*;
use lpm_emulator::Config;

/// Reads until the server closes the connection (end of stream or reset) and returns what came;
/// `None` if it is still open after `limit`.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let closing = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    };
    timeout(limit, closing).await.ok()?;
    Some(got)
}

async fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    read_until_closed(stream, limit).await.is_some()
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

/// Starts an emulator with a 300 ms timeout, writes `request` (which does not end the exchange)
/// on one connection and returns everything the server sent until it closed the connection.
async fn answer_then_close(request: &str) -> Vec<u8> {
    let emu = start_with(Config {
        header_read_timeout_ms: 300,
        ..Config::default()
    })
    .await;
    let mut s = TcpStream::connect(emu.addr).await.expect("connect");
    s.write_all(request.as_bytes()).await.expect("write");
    read_until_closed(&mut s, Duration::from_secs(20))
        .await
        .expect("the server closes the connection")
}

/// An idle keep-alive connection is closed by the same timeout.
#[tokio::test]
async fn idle_keep_alive_connection_is_closed() {
    let got = answer_then_close("GET /manage/api/users/get-me HTTP/1.1\r\nHost: x\r\n\r\n").await;
    parse_response(&got).expect(401, "02", "No token");
}

/// A body that stops arriving counts as no body once the same timeout has passed (the handler
/// answers code 02) and the connection is closed, so stalled bodies cannot hold slots either.
#[tokio::test]
async fn stalled_body_is_answered_and_closed() {
    let got = answer_then_close(&format!(
        "POST /manage/api/users/create-multi-user?token={ADMIN} HTTP/1.1\r\nHost: x\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"users\":"
    ))
    .await;
    parse_response(&got).expect(400, "02", "No request body");
}

/// A client that trickles its request head (a byte now and then, never the end) is closed once
/// the header timeout has passed since the connection started, however often bytes come.
#[tokio::test]
async fn trickled_headers_are_closed_after_the_timeout() {
    let emu = start_with(Config {
        header_read_timeout_ms: 800,
        ..Config::default()
    })
    .await;
    let mut s = TcpStream::connect(emu.addr).await.expect("connect");
    let started = std::time::Instant::now();
    let head = b"GET /manage/api/users/get-me?token=x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    let mut closed = false;
    for i in 0..60 {
        let byte = head.get(i).copied().unwrap_or(b'a');
        if s.write_all(&[byte]).await.is_err() {
            closed = true;
            break;
        }
        let mut buf = [0u8; 64];
        match timeout(Duration::from_millis(100), s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {
                closed = true;
                break;
            }
            _ => {}
        }
    }
    let took = started.elapsed();
    assert!(closed, "still open after {took:?} of trickled headers");
    assert!(
        took < Duration::from_millis(2500),
        "closed only after {took:?}"
    );
}

/// On a kept connection, a next request whose head stops midway is closed after the timeout too,
/// as the first request's would be.
#[tokio::test]
async fn a_second_request_stuck_mid_headers_is_closed() {
    let emu = start_with(Config {
        header_read_timeout_ms: 600,
        ..Config::default()
    })
    .await;
    let mut s = TcpStream::connect(emu.addr).await.expect("connect");
    s.write_all(b"GET /manage/api/users/get-me HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let mut buf = [0u8; 4096];
    let n = timeout(Duration::from_secs(5), s.read(&mut buf))
        .await
        .expect("an answer")
        .expect("read");
    assert!(n > 0);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    s.write_all(b"GET /manage/api/users/get-me HTTP/1.1\r\nHo")
        .await
        .expect("write");
    assert!(
        closed_within(&mut s, Duration::from_secs(5)).await,
        "still open {:?} after a half head",
        started.elapsed()
    );
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
}

/// More stalled clients than connection slots: those waiting for a slot are not left open for
/// several timeouts in a row; every one is closed within a few header timeouts of connecting.
#[tokio::test]
async fn stalled_clients_beyond_the_slots_are_closed_soon() {
    let emu = start_with(Config {
        header_read_timeout_ms: 500,
        max_connections: 4,
        ..Config::default()
    })
    .await;
    let started = std::time::Instant::now();
    let mut stalled = Vec::new();
    for _ in 0..40 {
        let mut s = TcpStream::connect(emu.addr).await.expect("connect");
        s.write_all(b"GET /manage/api/users/get-me HTTP/1.1\r\nHo")
            .await
            .expect("write");
        stalled.push(s);
    }
    for (i, s) in stalled.iter_mut().enumerate() {
        assert!(
            closed_within(s, Duration::from_secs(10)).await,
            "connection {i} still open after {:?}",
            started.elapsed()
        );
    }
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(2000),
        "the last closed after {took:?}"
    );
}
