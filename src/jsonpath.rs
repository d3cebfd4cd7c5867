//! The JSON path of the value at which decoding failed, found from serde_json's error position.
//!
//! serde_json reports where in the text it stopped (line and column); a small scan of the body
//! up to that point tells which keys and indexes lead there. This replaces a path-tracking
//! deserializer, which cost ~55 KB of wasm (every model's visitor instantiated twice) for
//! something only the error path needs. Output format: `course.price.original`,
//! `courses[3].price`, `.` for the whole body.

enum Frame {
    /// An object and the key whose value is being read (None between a `,` and the next key).
    Object(Option<String>),
    /// An array and the index of the element being read.
    Array(usize),
}

/// Byte offset just after (`line`, `column`) as serde_json counts them (1-based, bytes).
fn offset(body: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match body[start..].iter().position(|&b| b == b'\n') {
            Some(nl) => start += nl + 1,
            None => break,
        }
    }
    (start + column).min(body.len())
}

/// End of the string token starting at `i` (which holds `"`), just past its closing quote.
fn string_end(body: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < body.len() {
        match body[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    body.len()
}

/// The path of a decode error: where the data did not fit, or `.` when the body is not
/// well-formed JSON at all (a syntax error or a cut-off body concerns the whole body).
pub fn error_path(body: &[u8], e: &serde_json::Error) -> String {
    if e.is_data() {
        path_at(body, e.line(), e.column())
    } else {
        ".".to_owned()
    }
}

/// The path of the value being read when serde_json stopped at (`line`, `column`).
pub fn path_at(body: &[u8], line: usize, column: usize) -> String {
    let end = offset(body, line, column);
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    // When the last consumed byte closes a container, the error is about the container itself
    // (a missing field, a wrong length): its own key or index is not part of the path.
    let mut closing = false;
    while i < end {
        let b = body[i];
        let token_end = match b {
            b'"' => string_end(body, i),
            b'{' | b'[' | b'}' | b']' | b',' | b':' => i + 1,
            b if b.is_ascii_whitespace() => i + 1,
            _ => {
                let mut j = i;
                while j < body.len() && !b",:]} \t\r\n".contains(&body[j]) {
                    j += 1;
                }
                j
            }
        };
        if token_end >= end && matches!(b, b'}' | b']') {
            closing = true;
            break;
        }
        if token_end > end || (token_end == end && matches!(b, b'{' | b'[' | b'"')) {
            // The failing token itself (a value being read, or a container being opened).
            break;
        }
        match b {
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(key)) => *key = None,
                None => {}
            },
            b'"' => {
                if let Some(Frame::Object(key @ None)) = stack.last_mut() {
                    let raw = &body[i + 1..token_end.saturating_sub(1).max(i + 1)];
                    let text = String::from_utf8_lossy(raw);
                    *key = Some(
                        serde_json::from_str::<String>(&format!("\"{text}\""))
                            .unwrap_or_else(|_| text.into_owned()),
                    );
                }
            }
            _ => {}
        }
        i = token_end;
    }
    if closing {
        match stack.last_mut() {
            Some(Frame::Object(key)) => *key = None,
            Some(Frame::Array(_)) => {
                stack.pop();
            }
            None => {}
        }
    }
    let mut out = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(key)) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Frame::Object(None) => {}
            Frame::Array(n) => {
                out.push('[');
                out.push_str(&n.to_string());
                out.push(']');
            }
        }
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_of<T: serde::de::DeserializeOwned + core::fmt::Debug>(body: &str) -> String {
        let e = serde_json::from_str::<T>(body).unwrap_err();
        path_at(body.as_bytes(), e.line(), e.column())
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Price {
        original: f64,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Course {
        title: String,
        price: Price,
        tags: Vec<u32>,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Page {
        courses: Vec<Course>,
    }

    #[test]
    fn paths_of_typical_failures() {
        let ok = r#"{"title":"a","price":{"original":1},"tags":[1]}"#;
        let bad_price = ok.replace("\"original\":1", "\"original\":\"x\"");
        assert_eq!(
            path_of::<Page>(&format!(r#"{{"courses":[{ok},{bad_price}]}}"#)),
            "courses[1].price.original"
        );
        assert_eq!(
            path_of::<Course>(r#"{"title":"a","price":{},"tags":[]}"#),
            "price"
        );
        assert_eq!(
            path_of::<Course>(r#"{"title":"a","price":{"original":1},"tags":[1,"x"]}"#),
            "tags[1]"
        );
        assert_eq!(path_of::<Course>(r#"{"title":null}"#), "title");
        assert_eq!(path_of::<Course>(r#"{"title":{"a":1}}"#), "title");
        assert_eq!(path_of::<Course>(r#"{"title":[1]}"#), "title");
        assert_eq!(
            path_of::<Course>("{\n  \"ti\\\"tle\": 1,\n  \"title\": 2\n}"),
            "title"
        );
        assert_eq!(path_of::<Course>("[]"), ".");
        assert_eq!(path_of::<Course>("{"), ".");
    }
}
