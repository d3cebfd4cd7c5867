//! A tiny HTTP/1.1 client over a TcpStream and an in-process emulator.

use std::net::SocketAddr;

use lpm_emulator::{bind, serve, AppState, Config};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const ADMIN: &str = "demo-admin-token-00000000000000000000000000";
pub const USER: &str = "demo-user-token-000000000000000000000000000";
pub const EXPIRED: &str = "demo-expired-token-000000000000000000000000";

/// get-me, the simplest endpoint to put faults on.
pub const ME: &str = "/manage/api/users/get-me";

/// get-me with the admin token.
pub fn me() -> String {
    format!("{ME}?token={ADMIN}")
}

#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The body has as many bytes as Content-Length announced.
    pub complete: bool,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Asserts the envelope: HTTP status, respCode and msg.
    #[track_caller]
    pub fn expect(&self, status: u16, code: &str, msg: &str) -> Value {
        let v = self.json();
        assert_eq!(
            (self.status, v["respCode"].as_str(), v["msg"].as_str()),
            (status, Some(code), Some(msg)),
            "full body: {v}"
        );
        v
    }
}

pub struct Emu {
    pub addr: SocketAddr,
}

pub async fn start() -> Emu {
    start_with(Config::default()).await
}

pub async fn start_with(cfg: Config) -> Emu {
    let (listener, addr) = bind("127.0.0.1", 0).await.expect("bind");
    tokio::spawn(serve(listener, AppState::new(cfg)));
    Emu { addr }
}

fn decode_chunked(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(pos) = data.windows(2).position(|w| w == b"\r\n") {
        let size_line = String::from_utf8_lossy(&data[..pos]).to_string();
        let size = usize::from_str_radix(size_line.split(';').next().unwrap_or("0").trim(), 16)
            .unwrap_or(0);
        data = &data[pos + 2..];
        if size == 0 || data.len() < size {
            out.extend_from_slice(&data[..size.min(data.len())]);
            break;
        }
        out.extend_from_slice(&data[..size]);
        data = &data[(size + 2).min(data.len())..];
    }
    out
}

/// What came back on one connection: every byte until the server closed it, and the error the
/// reading ended with, if any (`ConnectionReset` after a TCP RST).
pub struct Wire {
    pub bytes: Vec<u8>,
    pub error: Option<std::io::ErrorKind>,
}

/// Sends one request (with `Connection: close`) and reads until the connection ends.
pub async fn exchange(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Wire {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    req.push_str("\r\n");
    if let Some(b) = body {
        req.push_str(b);
    }
    stream.write_all(req.as_bytes()).await.expect("write");
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let error = loop {
        match stream.read(&mut chunk).await {
            Ok(0) => break None,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) => break Some(e.kind()),
        }
    };
    Wire { bytes, error }
}

pub async fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Resp {
    parse_response(&exchange(addr, method, path, body, headers).await.bytes)
}

/// Splits an HTTP/1.1 response into status, headers and (de-chunked) body.
pub fn parse_response(buf: &[u8]) -> Resp {
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("no header end in response");
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    let rest = &buf[split + 4..];
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let find = |n: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.clone())
    };
    let (body, complete) = if find("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        (decode_chunked(rest), true)
    } else {
        let len = find("content-length").and_then(|v| v.parse::<usize>().ok());
        (rest.to_vec(), !matches!(len, Some(l) if l != rest.len()))
    };
    Resp {
        status,
        headers,
        body,
        complete,
    }
}

impl Emu {
    pub async fn get(&self, path: &str) -> Resp {
        raw(self.addr, "GET", path, None, &[]).await
    }

    pub async fn post(&self, path: &str, body: &str) -> Resp {
        raw(self.addr, "POST", path, Some(body), &[]).await
    }

    pub async fn post_empty(&self, path: &str) -> Resp {
        raw(self.addr, "POST", path, None, &[]).await
    }

    pub async fn delete(&self, path: &str) -> Resp {
        raw(self.addr, "DELETE", path, None, &[]).await
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Resp {
        self.post(path, &body.to_string()).await
    }

    pub async fn fault(&self, spec: Value) {
        let r = self.post_json("/_emulator/faults", &spec).await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    }

    pub async fn state(&self) -> Value {
        self.get("/_emulator/state").await.json()
    }

    /// A user record's `_id`, from get-multi-user.
    pub async fn some_user_ids(&self, n: usize) -> Vec<String> {
        let v = self
            .get(&format!(
                "/manage/api/users/get-multi-user?token={ADMIN}&start=10&limit={n}"
            ))
            .await
            .json();
        v["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["_id"].as_str().unwrap().to_string())
            .collect()
    }

    pub async fn course_ids(&self) -> Vec<String> {
        let v = self
            .get(&format!(
                "/manage/api/courses/get-multi-course?token={ADMIN}&start=0&limit=100"
            ))
            .await
            .json();
        v["courses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["_id"].as_str().unwrap().to_string())
            .collect()
    }
}

/// ISO 8601 UTC with milliseconds and `Z`.
pub fn is_iso(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 24
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'.'
        && b[23] == b'Z'
        && s.chars()
            .enumerate()
            .all(|(i, c)| [4, 7, 10, 13, 16, 19, 23].contains(&i) || c.is_ascii_digit())
}

pub fn is_meteor_id(s: &str) -> bool {
    s.len() == 17
        && s.chars()
            .all(|c| "23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz".contains(c))
}
