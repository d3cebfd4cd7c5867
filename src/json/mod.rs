//! A small JSON layer of our own, so the wasm build carries no serde_json: a validating scanner
//! (used by the decoder's gate, [`crate::check`]), a borrowed value tree for validating what a
//! caller passes ([`Value`], [`parse`]), and text output ([`push_str`], [`push_uint`], [`ser`]).
//!
//! Strict RFC 8259: what it accepts, `JSON.parse` accepts too, so a body that passed the check
//! always parses in JavaScript. Never panics; nesting deeper than [`MAX_DEPTH`] is refused (as
//! serde_json does), so no input can exhaust the stack.

pub mod ser;
mod value;

use std::borrow::Cow;

pub use value::{parse, JsonView, Kind, Value};

/// Deepest nesting accepted (serde_json's limit too).
pub const MAX_DEPTH: u32 = 128;

/// Why a text is not well-formed JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// It ends in the middle of a value.
    Eof,
    /// A character that cannot start or continue a value here.
    Unexpected,
    /// A backslash escape that JSON does not have.
    BadEscape,
    /// Bytes that are not UTF-8.
    BadUtf8,
    /// A raw control character inside a string.
    ControlChar,
    /// A malformed number.
    BadNumber,
    /// A `\u` escape of half a surrogate pair.
    LoneSurrogate,
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// Something follows the value.
    Trailing,
}

impl Syntax {
    /// A short English description.
    pub fn describe(self) -> &'static str {
        match self {
            Syntax::Eof => "it ends in the middle of a value",
            Syntax::Unexpected => "unexpected character",
            Syntax::BadEscape => "invalid escape in a string",
            Syntax::BadUtf8 => "bytes that are not UTF-8",
            Syntax::ControlChar => "control character inside a string",
            Syntax::BadNumber => "malformed number",
            Syntax::LoneSurrogate => "lone surrogate in a \\u escape",
            Syntax::TooDeep => "nested too deeply",
            Syntax::Trailing => "characters after the value",
        }
    }
}

/// A string as it stands in the text (valid, between its quotes), decoded on demand.
#[derive(Clone, Copy, Debug)]
pub struct Str<'a> {
    raw: &'a [u8],
    escaped: bool,
    /// The same text as a `str`, when the scanner knows its input is UTF-8 (so no string is
    /// validated again).
    text: Option<&'a str>,
}

impl<'a> Str<'a> {
    /// Whether its decoded content is `s`.
    #[inline]
    pub fn is(&self, s: &str) -> bool {
        if self.escaped {
            self.decode() == s
        } else {
            same(self.raw, s.as_bytes())
        }
    }

    /// Whether it holds a backslash escape.
    pub fn escaped(&self) -> bool {
        self.escaped
    }

    /// The text between the quotes, as written.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The decoded content (borrowed when it has no escape).
    pub fn decode(&self) -> Cow<'a, str> {
        let Some(text) = self.text.or_else(|| core::str::from_utf8(self.raw).ok()) else {
            return Cow::Borrowed("");
        };
        if !self.escaped {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('b') => out.push('\u{8}'),
                Some('f') => out.push('\u{c}'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hi = hex4(&mut chars);
                    let code = if (0xD800..0xDC00).contains(&hi) {
                        chars.next();
                        chars.next();
                        let lo = hex4(&mut chars);
                        0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                    } else {
                        hi
                    };
                    out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                }
                Some(other) => out.push(other),
                None => {}
            }
        }
        Cow::Owned(out)
    }

    /// [`Str::decode`], with the common case (no escape, the text known) inlined: the tree's
    /// strings.
    #[inline(always)]
    pub(crate) fn cow(&self) -> Cow<'a, str> {
        match (self.escaped, self.text) {
            (false, Some(text)) => Cow::Borrowed(text),
            _ => self.decode(),
        }
    }

    /// The decoded content, owned.
    pub fn to_owned_string(&self) -> String {
        self.decode().into_owned()
    }
}

/// Whether two short byte strings are equal: keys are compared a word at a time from both ends
/// (the words overlap), not through a memcmp call or byte by byte.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && same_len(a, b)
}

/// [`same`] for strings of one length, inlined where the gate matches a key (once per key).
#[inline(always)]
fn same_len(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    let w8 = |s: &[u8], at: usize| {
        u64::from_le_bytes(
            s.get(at..at + 8)
                .and_then(|w| w.try_into().ok())
                .unwrap_or([0; 8]),
        )
    };
    let w4 = |s: &[u8], at: usize| {
        u32::from_le_bytes(
            s.get(at..at + 4)
                .and_then(|w| w.try_into().ok())
                .unwrap_or([0; 4]),
        )
    };
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        _ => a == b,
    }
}

fn hex4(chars: &mut core::str::Chars<'_>) -> u32 {
    let mut n = 0;
    for _ in 0..4 {
        n = n * 16 + chars.next().and_then(|c| c.to_digit(16)).unwrap_or(0);
    }
    n
}

/// What a number literal looks like.
#[derive(Clone, Copy, Debug)]
pub struct Num {
    /// No fraction and no exponent.
    pub integer: bool,
    /// It starts with `-`.
    pub negative: bool,
}

impl Num {
    /// Whether `text` (this literal) is an integer in `0..=u64::MAX`.
    pub fn is_u64(&self, text: &[u8]) -> bool {
        self.integer && !self.negative && parse_u64(text).is_some()
    }
}

/// The value of a literal made only of ASCII digits, if it fits a `u64`.
pub fn parse_u64(text: &[u8]) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &b in text {
        if !b.is_ascii_digit() {
            return None;
        }
        n = times_ten(n)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(n)
}

/// `n * 10`, if it fits a `u64`: a comparison, where `checked_mul`'s overflow check brings the
/// wasm a 128-bit multiplication routine.
pub(crate) fn times_ten(n: u64) -> Option<u64> {
    if n <= u64::MAX / 10 {
        Some(n * 10)
    } else {
        None
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Marks (high bit of the byte) the zero bytes of `w`; the lowest mark is exact, marks above
/// a zero byte may be false.
#[inline(always)]
fn zeros(w: u64) -> u64 {
    w.wrapping_sub(ONES) & !w & HIGHS
}

/// Marks the bytes of `w` that end a plain run of string content: `"`, `\\`, or a control
/// character below 0x20 (lowest mark exact).
#[inline(always)]
fn special(w: u64) -> u64 {
    zeros(w ^ (ONES * u64::from(b'"')))
        | zeros(w ^ (ONES * u64::from(b'\\')))
        | (w.wrapping_sub(ONES * 0x20) & !w & HIGHS)
}

/// A cursor over JSON text that checks what it passes.
pub struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    /// The input as a `str`, when it is known to be UTF-8.
    src: Option<&'a str>,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Scanner {
            b: text.as_bytes(),
            i: 0,
            src: Some(text),
        }
    }

    /// A scanner over bytes the caller has already found to be UTF-8 (`check::Utf8`: natively
    /// by `from_utf8`, in the wasm by the pass that writes their ASCII form, `ascii`). Nothing
    /// unsafe follows from a wrong claim: strings are only ever read through `str::from_utf8`.
    pub fn from_utf8_bytes(b: &'a [u8]) -> Self {
        Scanner { b, i: 0, src: None }
    }

    /// The current offset.
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.i
    }

    /// Moves back to an earlier offset.
    #[inline(always)]
    pub fn set_pos(&mut self, i: usize) {
        self.i = i;
    }

    /// The text from `start` to the current offset.
    #[inline(always)]
    pub fn slice(&self, start: usize) -> &'a [u8] {
        self.b.get(start..self.i).unwrap_or_default()
    }

    /// The next byte, not consumed.
    #[inline(always)]
    pub fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Skips whitespace: inline, one comparison when there is none (compact JSON, the usual
    /// body); the loop out of line.
    #[inline(always)]
    pub fn ws(&mut self) {
        if matches!(self.peek(), Some(c) if c <= b' ') {
            self.ws_run();
        }
    }

    #[inline(never)]
    fn ws_run(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    /// Skips whitespace, then consumes `b`.
    #[inline(always)]
    pub fn expect(&mut self, b: u8) -> Result<(), Syntax> {
        self.ws();
        match self.peek() {
            Some(c) if c == b => {
                self.i += 1;
                Ok(())
            }
            Some(_) => Err(Syntax::Unexpected),
            None => Err(Syntax::Eof),
        }
    }

    /// Only whitespace is left.
    pub fn end(&mut self) -> Result<(), Syntax> {
        self.ws();
        if self.i < self.b.len() {
            Err(Syntax::Trailing)
        } else {
            Ok(())
        }
    }

    /// Inside an array or object just opened: whether another item follows (consuming the `,`
    /// between items), or the container closes with `close` (consumed).
    #[inline(always)]
    pub fn next_item(&mut self, close: u8, first: bool) -> Result<bool, Syntax> {
        self.ws();
        match self.peek() {
            Some(c) if c == close => {
                self.i += 1;
                Ok(false)
            }
            Some(_) if first => Ok(true),
            Some(b',') => {
                self.i += 1;
                Ok(true)
            }
            Some(_) => Err(Syntax::Unexpected),
            None => Err(Syntax::Eof),
        }
    }

    /// An object key and its `:`.
    pub fn key(&mut self) -> Result<Str<'a>, Syntax> {
        self.ws();
        match self.peek() {
            Some(b'"') => {}
            Some(_) => return Err(Syntax::Unexpected),
            None => return Err(Syntax::Eof),
        }
        let k = self.string_here()?;
        // The colon, usually right after the key.
        match self.peek() {
            Some(b':') => self.i += 1,
            _ => self.expect(b':')?,
        }
        Ok(k)
    }

    /// When the next key is exactly `name` written without escapes, consumes it and its `:` and
    /// says so; else moves nothing. `name` must hold no `"`, `\` or control character (the
    /// models' wire names), so bytes equal to it followed by a quote are that whole string: the
    /// gate's way to match the key it expects without scanning it first.
    #[inline]
    pub fn key_is(&mut self, name: &[u8]) -> bool {
        self.ws();
        let (open, end) = (self.i, self.i + 1 + name.len());
        if matches!(self.b.get(open), Some(b'"'))
            && matches!(self.b.get(end), Some(b'"'))
            && self
                .b
                .get(open + 1..end)
                .is_some_and(|raw| same_len(raw, name))
        {
            self.i = end + 1;
            if self.expect(b':').is_ok() {
                return true;
            }
            // Not a key after all: the general path reports the error.
            self.i = open;
        }
        false
    }

    /// `true`, `false` or `null`.
    pub fn literal(&mut self) -> Result<(), Syntax> {
        let rest = self.b.get(self.i..).unwrap_or_default();
        let word: &[u8] = match rest.first() {
            Some(b't') => b"true",
            Some(b'f') => b"false",
            _ => b"null",
        };
        match rest.get(..word.len()) {
            Some(w) if w == word => {
                self.i += word.len();
                Ok(())
            }
            _ if word.starts_with(rest) => Err(Syntax::Eof),
            _ => Err(Syntax::Unexpected),
        }
    }

    #[inline(always)]
    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - start
    }

    /// A number literal.
    pub fn number(&mut self) -> Result<Num, Syntax> {
        let negative = matches!(self.peek(), Some(b'-'));
        if negative {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            None => return Err(Syntax::Eof),
            Some(_) => return Err(Syntax::BadNumber),
        }
        let mut integer = true;
        if matches!(self.peek(), Some(b'.')) {
            self.i += 1;
            integer = false;
            if self.digits() == 0 {
                return Err(self.bad_number());
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            integer = false;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.bad_number());
            }
        }
        Ok(Num { integer, negative })
    }

    fn bad_number(&self) -> Syntax {
        if self.peek().is_none() {
            Syntax::Eof
        } else {
            Syntax::BadNumber
        }
    }

    /// A string (at its opening quote), checked: escapes, UTF-8, no raw control characters.
    pub fn string(&mut self) -> Result<Str<'a>, Syntax> {
        self.expect(b'"')?;
        self.i -= 1;
        self.string_here()
    }

    /// A string whose opening quote is the next byte.
    #[inline(always)]
    pub(crate) fn string_here(&mut self) -> Result<Str<'a>, Syntax> {
        self.i += 1;
        let start = self.i;
        let escaped = self.rest_of_string()?;
        let end = self.i - 1;
        let raw = self.b.get(start..end).unwrap_or_default();
        let text = match self.src {
            Some(t) => t.get(start..end),
            None => None,
        };
        Ok(Str { raw, escaped, text })
    }

    /// Skips a string (at its opening quote), checking it, without reading it: the gate's
    /// string values.
    #[inline]
    pub fn skip_string(&mut self) -> Result<(), Syntax> {
        match self.peek() {
            Some(b'"') => {
                self.i += 1;
                self.rest_of_string().map(|_| ())
            }
            Some(_) => Err(Syntax::Unexpected),
            None => Err(Syntax::Eof),
        }
    }

    /// [`Scanner::skip_string`] when the next byte is known to be the opening quote, inlined:
    /// the gate's string fields (the most common value).
    #[inline(always)]
    pub(crate) fn skip_string_here(&mut self) -> Result<(), Syntax> {
        self.i += 1;
        self.rest_of_string().map(|_| ())
    }

    /// From just inside a string's opening quote to just past its closing one, checked; whether
    /// it holds an escape.
    #[inline(always)]
    fn rest_of_string(&mut self) -> Result<bool, Syntax> {
        let mut escaped = false;
        loop {
            // Eight bytes at a time: the mask marks quotes, backslashes and control characters
            // (its lowest mark is exact). Most strings end inside their first or second word.
            // UTF-8 was checked once for the whole text (`Scanner::new`).
            while let Some(chunk) = self.b.get(self.i..self.i + 8) {
                let w = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
                let m = special(w);
                if m != 0 {
                    self.i += (m.trailing_zeros() / 8) as usize;
                    break;
                }
                self.i += 8;
            }
            while let Some(&b) = self.b.get(self.i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            match self.peek() {
                None => return Err(Syntax::Eof),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(escaped);
                }
                Some(b'\\') => {
                    escaped = true;
                    self.i += 1;
                    self.escape()?;
                }
                Some(_) => return Err(Syntax::ControlChar),
            }
        }
    }

    fn escape(&mut self) -> Result<(), Syntax> {
        match self.peek() {
            None => Err(Syntax::Eof),
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.i += 1;
                Ok(())
            }
            Some(b'u') => {
                self.i += 1;
                let hi = self.hex4()?;
                if (0xDC00..0xE000).contains(&hi) {
                    return Err(Syntax::LoneSurrogate);
                }
                if (0xD800..0xDC00).contains(&hi) {
                    if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                        return Err(Syntax::LoneSurrogate);
                    }
                    self.i += 2;
                    if !(0xDC00..0xE000).contains(&self.hex4()?) {
                        return Err(Syntax::LoneSurrogate);
                    }
                }
                Ok(())
            }
            Some(_) => Err(Syntax::BadEscape),
        }
    }

    fn hex4(&mut self) -> Result<u32, Syntax> {
        let mut n = 0;
        for _ in 0..4 {
            let d = match self.peek() {
                None => return Err(Syntax::Eof),
                Some(c) => (c as char).to_digit(16).ok_or(Syntax::BadEscape)?,
            };
            n = n * 16 + d;
            self.i += 1;
        }
        Ok(n)
    }

    /// Skips one value of any type, checking it; `depth` is the nesting it starts at.
    pub fn skip(&mut self, depth: u32) -> Result<(), Syntax> {
        self.ws();
        match self.peek() {
            None => Err(Syntax::Eof),
            Some(b'"') => self.skip_string(),
            Some(b't' | b'f' | b'n') => self.literal(),
            Some(b'-' | b'0'..=b'9') => self.number().map(|_| ()),
            Some(open @ (b'[' | b'{')) => {
                if depth >= MAX_DEPTH {
                    return Err(Syntax::TooDeep);
                }
                self.i += 1;
                let close = if open == b'[' { b']' } else { b'}' };
                let mut first = true;
                while self.next_item(close, first)? {
                    first = false;
                    if open == b'{' {
                        self.key()?;
                    }
                    self.skip(depth + 1)?;
                }
                Ok(())
            }
            Some(_) => Err(Syntax::Unexpected),
        }
    }
}

/// The offset of the first byte at or after `i` that is not ASCII (`text.len()` when none),
/// eight bytes at a time.
fn next_non_ascii(text: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = text.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) & HIGHS;
        if w != 0 {
            return i + w.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    while matches!(text.get(i), Some(b) if *b < 0x80) {
        i += 1;
    }
    i
}

/// The JSON text `text` with each character beyond ASCII written as a `\\uXXXX` escape: the
/// same JSON value in ASCII, which a JavaScript
/// `TextDecoder` turns into a one-byte string an order of magnitude faster than UTF-8 with other
/// characters in it, and `JSON.parse` reads as fast. Only for a text that is well-formed JSON (outside strings it has nothing beyond
/// ASCII; inside, an escape means the character). `None`: `text` is not UTF-8; empty: it is to
/// be read as it is: all ASCII already, with a character beyond U+FFFF, or led by a character
/// beyond ASCII: a byte order mark (which a `TextDecoder` drops; escaped, it would stand before
/// the value), or any other, which no JSON starts with (the gate refuses that text). Decision:
/// no size limit of its own: a body is bounded by `maxResponseBytes` (32 MiB by default), and its
/// ASCII form at most three times as long (`é`, 2 bytes, is `\\u00e9`, 6).
pub fn ascii(text: &[u8]) -> Option<Vec<u8>> {
    // One pass: runs of ASCII are found a word at a time and copied; only the characters
    // beyond them are decoded, and checked (`char_at`), so a text that is not UTF-8 is refused
    // without a separate pass over all of it. Read as it is, a text is checked whole.
    let mut out = Vec::new();
    let (mut i, mut from) = (0, 0);
    loop {
        i = next_non_ascii(text, i);
        if i == text.len() {
            break;
        }
        // Led by four bytes or more: beyond U+FFFF (an emoji: rare, and a pair of escapes), or
        // not UTF-8. First: a byte order mark (JSON cannot start with any other such
        // character). Either way the text is read as it is, once checked whole.
        if text.get(i) >= Some(&0xF0) || i == 0 {
            core::str::from_utf8(text).ok()?;
            return Some(Vec::new());
        }
        let (u, n) = char_at(text, i)?;
        if from == 0 {
            // Room for the whole at once (an answer's ASCII form is a little longer than its
            // UTF-8), not a dozen doublings, each a copy.
            out.reserve(text.len() + text.len() / 8);
        }
        out.extend_from_slice(text.get(from..i).unwrap_or_default());
        // The four nibbles, most significant first, a byte each; then each to its hex digit
        // (`a`..`f` are 39 past where `9` + 1 would be).
        let n4 = (u >> 12 & 15) | (u >> 8 & 15) << 8 | (u >> 4 & 15) << 16 | (u & 15) << 24;
        let [a, b, c, d] =
            (n4 + 0x3030_3030 + ((n4 + 0x0606_0606) >> 4 & 0x0101_0101) * 39).to_le_bytes();
        out.extend_from_slice(&[b'\\', b'u', a, b, c, d]);
        i += n;
        from = i;
    }
    if from > 0 {
        out.extend_from_slice(text.get(from..).unwrap_or_default());
    }
    Some(out)
}

/// The character of two or three bytes of UTF-8 (RFC 3629) that starts at `i`, and its length;
/// `None` when the bytes there are no such character (a lone continuation byte, a lead of four
/// or more, a cut sequence, an overlong form, a surrogate) or `i` is the end.
fn char_at(t: &[u8], i: usize) -> Option<(u32, usize)> {
    let b0 = *t.get(i)?;
    // The lead's high ones count the bytes; its other bits start the character, which must
    // need them: more bits than the form one byte shorter holds.
    let n = b0.leading_ones() as usize;
    let fewer = match n {
        2 => 7,
        3 => 11,
        _ => return None,
    };
    let mut u = u32::from(b0) & 0x7F >> n;
    for b in t.get(i + 1..i + n)? {
        if b & 0xC0 != 0x80 {
            return None;
        }
        u = u << 6 | u32::from(b & 0x3F);
    }
    (u >> fewer != 0 && !(0xD800..0xE000).contains(&u)).then_some((u, n))
}

/// Appends `s` as a JSON string literal.
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(s.get(from..i).unwrap_or_default());
        if esc.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
        } else {
            out.push_str(esc);
        }
        from = i + 1;
    }
    out.push_str(s.get(from..).unwrap_or_default());
    out.push('"');
}

/// Appends `n` in decimal (no `core::fmt` on this path: it costs the wasm kilobytes).
pub fn push_uint(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(char::from(b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_ten_is_checked_mul() {
        for n in [
            0,
            1,
            u64::MAX / 10 - 1,
            u64::MAX / 10,
            u64::MAX / 10 + 1,
            u64::MAX,
        ] {
            assert_eq!(times_ten(n), n.checked_mul(10), "{n}");
        }
        assert_eq!(parse_u64(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_u64(b"18446744073709551616"), None);
        assert_eq!(parse_u64(b"99999999999999999999"), None);
    }
    use super::same;

    #[test]
    fn ascii_escapes_what_is_beyond_ascii_and_refuses_what_is_not_utf8() {
        use super::ascii;
        assert_eq!(ascii(br#"{"a":"plain"}"#), Some(Vec::new()));
        let text = "{\"tên\":\"Nguyễn Văn A ✓\",\"n\":1,\"ok\":\"é\"}";
        let out = ascii(text.as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"t\u00ean":"Nguy\u1ec5n V\u0103n A \u2713","n":1,"ok":"\u00e9"}"#
        );
        // Read as it is: beyond U+FFFF, led by a byte order mark.
        assert_eq!(ascii("[\"é 😀\"]".as_bytes()), Some(Vec::new()));
        assert_eq!(ascii("\u{feff}[\"é\"]".as_bytes()), Some(Vec::new()));
        // The same value, as serde_json reads both; at every length (the word and byte scans).
        for n in 0..40 {
            let text = format!("[\"{}é{}\",\"ü\"]", "a".repeat(n), "b".repeat(n % 9));
            let out = ascii(text.as_bytes()).unwrap();
            let a: serde_json::Value = serde_json::from_str(&text).unwrap();
            let b: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(a, b, "{n}");
        }
        // Not UTF-8: a lone continuation byte, a cut sequence, an overlong form, a surrogate,
        // beyond U+10FFFF, a lead without its continuation.
        for bad in [
            &b"\"\x80\""[..],
            b"\"\xE1\x80",
            b"\"\xC0\xAF\"",
            b"\"\xED\xA0\x80\"",
            b"\"\xF4\x90\x80\x80\"",
            b"\"\xE1\x80a\"",
        ] {
            assert_eq!(ascii(bad), None, "{bad:?}");
        }
    }

    proptest::proptest! {
        /// `ascii` refuses exactly what is not UTF-8 (it checks only the characters beyond
        /// ASCII it meets), and what it writes is the same text.
        #[test]
        fn ascii_refuses_exactly_what_is_not_utf8(bytes in proptest::collection::vec(proptest::prop_oneof![
            // (No backslash: the check below undoes the escapes `ascii` writes.)
            4 => proptest::strategy::Strategy::prop_map(0x20u8..0x7f, |b| if b == b'\\' { b'/' } else { b }),
            1 => 0x80u8..=0xff,
            1 => proptest::sample::select(vec![0xC3u8, 0xA9, 0xE1, 0xBB, 0x85, 0xED, 0xF0, 0x9F, 0xF4, 0x90, 0xEF, 0xBF]),
        ], 0..48)) {
            let got = super::ascii(&bytes);
            let utf8 = core::str::from_utf8(&bytes);
            proptest::prop_assert_eq!(got.is_some(), utf8.is_ok());
            if let (Some(out), Ok(text)) = (got, utf8) {
                if !out.is_empty() {
                    proptest::prop_assert!(out.is_ascii());
                    // Undo the escapes: the same characters.
                    let back = String::from_utf8(out).unwrap();
                    let mut undone = String::new();
                    let mut rest = back.as_str();
                    while let Some(at) = rest.find("\\u") {
                        undone.push_str(&rest[..at]);
                        let u = u32::from_str_radix(&rest[at + 2..at + 6], 16).unwrap();
                        undone.push(char::from_u32(u).unwrap());
                        rest = &rest[at + 6..];
                    }
                    undone.push_str(rest);
                    proptest::prop_assert_eq!(undone, text);
                }
            }
        }
    }

    #[test]
    fn same_is_slice_equality_at_every_length() {
        let a: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for n in 0..=a.len() {
            let x = &a[..n];
            let copy = x.to_vec();
            assert!(same(x, &copy), "{n}");
            for at in 0..n {
                let mut y = x.to_vec();
                y[at] ^= 1;
                assert!(!same(x, &y), "{n} {at}");
            }
            if n > 0 {
                assert!(!same(x, &a[..n - 1]), "{n}");
            }
        }
    }
}
