//! [`redact`]: every echo of the token taken out of a text from a server, before an error keeps
//! it; and the shortest token, which redaction needs to tell a token from ordinary words. Below
//! the errors, which use it; the [`Token`](crate::Token) type that holds a token is above them.

/// The shortest token accepted. Platform tokens are 43 characters; a very short one would match
/// ordinary words in messages and could not be told apart from them when redacting.
pub const MIN_TOKEN_LEN: usize = 8;

/// The shortest run of the token's characters that is redacted on its own (a server that cuts an
/// echo short); a shorter token is redacted only whole.
pub const REDACT_RUN: usize = 16;

/// Replaces every echo of `secret` in `text` with `<redacted>`. An echo is found where each of
/// its characters is written as itself, as `%XX` or as a JSON `\uXXXX` escape (hex digits of
/// either case, forms mixed freely), in any ASCII letter case, and a run of at least
/// [`REDACT_RUN`] consecutive characters of the secret counts as an echo (of a shorter secret,
/// only the whole). Other transformations (base64, HTML entities, double encoding) are not
/// recognised: tokens are kept to RFC 3986 unreserved characters, which no usual encoding changes.
pub fn redact(text: &str, secret: Option<&str>) -> String {
    let Some(secret) = secret.filter(|s| !s.is_empty()) else {
        return text.to_owned();
    };
    // Read both ways: with escapes decoded, then byte by byte, since a `\uXXXX` or `%XX` the
    // text holds may be no escape at all (`\u0004` then 15 of the token's characters shows a
    // reader 16 of them: the `4` and the 15). `<redacted>` cannot join a run (a token holds no
    // `<` or `>`), so the second reading sees only what the first left.
    let once = redact_read(text, secret.as_bytes(), true);
    redact_read(&once, secret.as_bytes(), false)
}

/// [`redact`] in one reading of the text: unit by unit (with `decode`: `%XX` and `\uXXXX` as
/// the byte they encode) or byte by byte.
fn redact_read(text: &str, secret: &[u8], decode: bool) -> String {
    let run = secret.len().min(REDACT_RUN);
    let t = text.as_bytes();
    // Longest common substring, one unit of the text at a time: `m[o]` is the length and the text
    // offset of the match that ends here with the secret's byte `o`. A covered byte range of the
    // text is written out once the next one is found apart from it (touching ones merge).
    let mut m: Vec<(usize, usize)> = Vec::with_capacity(secret.len());
    for _ in secret {
        m.push((0, 0));
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut covered: Option<(usize, usize)> = None;
    let mut write = |out: &mut String, (start, end): (usize, usize)| {
        out.push_str(text.get(at..start).unwrap_or_default());
        out.push_str("<redacted>");
        at = end;
    };
    let mut i = 0;
    while let Some(&first) = t.get(i) {
        let (width, byte) = match decode {
            true => unit(t.get(i..).unwrap_or_default()),
            false => (1, first),
        };
        let end = i + width;
        let (mut longest, mut start) = (0, 0);
        // `m[o - 1]` as the previous unit left it.
        let mut before = (0, 0);
        for (slot, s) in m.iter_mut().zip(secret) {
            let here = match (s.eq_ignore_ascii_case(&byte), before) {
                (false, _) => (0, 0),
                (true, (0, _)) => (1, i),
                (true, (n, from)) => (n + 1, from),
            };
            before = core::mem::replace(slot, here);
            if here.0 > longest {
                (longest, start) = here;
            }
        }
        if longest >= run {
            match &mut covered {
                Some(last) if last.1 >= start => last.1 = end,
                _ => {
                    if let Some(done) = covered.replace((start, end)) {
                        write(&mut out, done);
                    }
                }
            }
        }
        i = end;
    }
    if let Some(done) = covered {
        write(&mut out, done);
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

/// The first unit of `t`: `%XX` or `\uXXXX` (below 0x80) as the byte it encodes, else one byte.
/// Covered units are ASCII (the secret's bytes are matched only by ASCII spellings or by
/// themselves), so cutting the text at their bounds keeps it UTF-8.
fn unit(t: &[u8]) -> (usize, u8) {
    let hex = |s: &[u8]| {
        s.iter()
            .try_fold(0u32, |n, &c| char::from(c).to_digit(16).map(|d| n * 16 + d))
    };
    let (width, digits) = match t {
        [b'%', rest @ ..] => (3, rest.get(..2)),
        [b'\\', b'u', rest @ ..] => (6, rest.get(..4)),
        _ => (1, None),
    };
    match digits.and_then(hex) {
        Some(n) if n < 0x80 => (width, n as u8),
        _ => (1, t.first().copied().unwrap_or_default()),
    }
}
