//! A borrowed JSON value for validating what callers pass, and [`JsonView`], the read-only view
//! the validators take, so that they work on this tree (the wasm build) and on
//! `serde_json::Value` (the native API) alike.

use std::borrow::Cow;

use super::{push_str, Scanner, Syntax, MAX_DEPTH};

/// A parsed JSON value; strings without escapes borrow from the text.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as its literal.
    Num(&'a str),
    /// A string.
    Str(Cow<'a, str>),
    /// An array.
    Arr(Vec<Value<'a>>),
    /// An object, keys in order (a repeated key: the last one counts, as in `JSON.parse`).
    Obj(Vec<(Cow<'a, str>, Value<'a>)>),
}

/// Parses `text` as one JSON value.
pub fn parse(text: &str) -> Result<Value<'_>, Syntax> {
    let mut s = Scanner::new(text);
    let v = value(&mut s, 0)?;
    s.end()?;
    Ok(v)
}

fn value<'a>(s: &mut Scanner<'a>, depth: u32) -> Result<Value<'a>, Syntax> {
    s.ws();
    Ok(match s.peek() {
        None => return Err(Syntax::Eof),
        Some(b'"') => Value::Str(s.string()?.cow()),
        Some(c @ (b't' | b'f' | b'n')) => {
            s.literal()?;
            match c {
                b't' => Value::Bool(true),
                b'f' => Value::Bool(false),
                _ => Value::Null,
            }
        }
        Some(b'-' | b'0'..=b'9') => {
            let start = s.pos();
            s.number()?;
            Value::Num(core::str::from_utf8(s.slice(start)).unwrap_or("0"))
        }
        Some(open @ (b'[' | b'{')) => {
            if depth >= MAX_DEPTH {
                return Err(Syntax::TooDeep);
            }
            s.i += 1;
            let close = if open == b'[' { b']' } else { b'}' };
            let mut items = Vec::new();
            // Room for an account's fields at once (one allocation, not three as it grows).
            let mut entries = Vec::with_capacity(if open == b'{' { 10 } else { 0 });
            let mut first = true;
            while s.next_item(close, first)? {
                first = false;
                if open == b'{' {
                    let k = s.key()?.cow();
                    entries.push((k, value(s, depth + 1)?));
                } else {
                    items.push(value(s, depth + 1)?);
                }
            }
            if open == b'[' {
                Value::Arr(items)
            } else {
                Value::Obj(entries)
            }
        }
        Some(_) => return Err(Syntax::Unexpected),
    })
}

impl Value<'_> {
    /// The number a literal holds, without the float parser (which would cost the wasm several
    /// KB): exact for integers and, by Clinger's fast path, for up to 15 significant digits
    /// scaled by at most 10^22 (every number an option is likely to be); else within an ulp or
    /// two. For option values written by `JSON.stringify`, never for data.
    pub fn as_f64(&self) -> Option<f64> {
        let Value::Num(text) = self else {
            return None;
        };
        let mut m = 0f64;
        let (negative, exp, _) = literal(text, &mut |d| m = m * 10.0 + f64::from(d));
        // (An exponent beyond ±1000 scales any digits to infinity or zero alike.)
        let mut scale = 1f64;
        for _ in 0..exp.unsigned_abs() {
            scale *= 10.0;
        }
        let n = if exp < 0 { m / scale } else { m * scale };
        Some(if negative { -n } else { n })
    }

    /// JavaScript's truthiness of the value the JSON was written from (`0`, `""`, `false`,
    /// `null` are false).
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Num(n) => {
                // A digit other than 0 before any exponent.
                let mut digits = 0;
                literal(n, &mut |d| digits |= d);
                digits != 0
            }
            Value::Str(s) => !s.is_empty(),
            Value::Arr(_) | Value::Obj(_) => true,
        }
    }

    /// Appends the value as JSON text (numbers as they were written).
    pub fn write(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Num(n) => out.push_str(n),
            Value::Str(s) => push_str(out, s),
            Value::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Value::Obj(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_str(out, k);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// What kind of value a [`JsonView`] is, with the parts validators read.
pub enum Kind<'v, J> {
    /// `null`.
    Null,
    /// A boolean.
    Bool,
    /// A number.
    Num,
    /// A string.
    Str(&'v str),
    /// An array.
    Arr(&'v [J]),
    /// An object.
    Obj,
}

/// A read-only view of a JSON value: what the validators and planners need.
pub trait JsonView: Sized {
    /// The value's kind.
    fn kind(&self) -> Kind<'_, Self>;
    /// The member `key` of an object (`None` for other kinds or a missing key).
    fn get(&self, key: &str) -> Option<&Self>;
    /// The keys of an object, in order (empty for other kinds).
    fn keys(&self) -> Vec<&str>;
    /// Calls `f` with each member of an object in order (nothing for other kinds): one pass where
    /// reading many keys with [`JsonView::get`] would scan the object once per key.
    fn each_member<'s>(&'s self, f: &mut dyn FnMut(&'s str, &'s Self));
    /// The integer a number holds: an integer literal within the `i64`/`u64` range, or a number
    /// with a fraction or exponent whose value is integral and within ±2^53 (where `f64` is
    /// exact): `1.0` and `1e2` count, `1.5` and `1e300` do not.
    fn as_integer(&self) -> Option<i128>;
    /// The value as JSON text.
    fn to_json(&self) -> String;

    /// `null`.
    fn is_null(&self) -> bool {
        matches!(self.kind(), Kind::Null)
    }
    /// An object.
    fn is_object(&self) -> bool {
        matches!(self.kind(), Kind::Obj)
    }
    /// The string, if it is one.
    fn as_str(&self) -> Option<&str> {
        match self.kind() {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// The text of a string or key of the tree: `Cow`'s deref, which the size profile leaves a
/// call, for every field a validator reads.
#[inline(always)]
#[allow(clippy::ptr_arg)] // (taking `&str` would be the deref this avoids)
fn text<'s>(s: &'s Cow<'_, str>) -> &'s str {
    match s {
        Cow::Borrowed(b) => b,
        Cow::Owned(o) => o,
    }
}

impl JsonView for Value<'_> {
    // (Inlined: read for every field a validator looks at; the size profile left it a call.)
    #[inline(always)]
    fn kind(&self) -> Kind<'_, Self> {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Num(_) => Kind::Num,
            Value::Str(s) => Kind::Str(text(s)),
            Value::Arr(a) => Kind::Arr(a),
            Value::Obj(_) => Kind::Obj,
        }
    }
    fn get(&self, key: &str) -> Option<&Self> {
        match self {
            // Keys are short: compared in place, length first.
            // (The last one, as `JSON.parse` keeps; a plain loop, iterator adapters bring the
            // wasm generic folds.)
            Value::Obj(entries) => {
                let mut found = None;
                for (k, v) in entries {
                    if super::same(text(k).as_bytes(), key.as_bytes()) {
                        found = Some(v);
                    }
                }
                found
            }
            _ => None,
        }
    }
    fn keys(&self) -> Vec<&str> {
        match self {
            Value::Obj(entries) => entries.iter().map(|(k, _)| k.as_ref()).collect(),
            _ => Vec::new(),
        }
    }
    fn each_member<'s>(&'s self, f: &mut dyn FnMut(&'s str, &'s Self)) {
        if let Value::Obj(entries) = self {
            for (k, v) in entries {
                f(text(k), v);
            }
        }
    }
    fn as_integer(&self) -> Option<i128> {
        match self {
            Value::Num(text) => literal_integer(text),
            _ => None,
        }
    }
    fn to_json(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

/// 2^53: up to here every integer is exact in an `f64`.
const F64_EXACT: i128 = 9_007_199_254_740_992;

/// Reads a well-formed number literal: gives `digit` its digits one by one (integer, then
/// fraction), and returns its sign, its scale (the value is the digits × 10^scale: the exponent,
/// cut to ±1000, less the fraction's length) and whether it has a fraction or an exponent. The
/// one reader of literals, for [`Value::as_f64`] and [`literal_integer`] alike.
fn literal(text: &str, digit: &mut dyn FnMut(u8)) -> (bool, i64, bool) {
    let (mut negative, mut fraction, mut scale) = (false, false, 0i64);
    // The exponent once its `e` is read: (negative, value).
    let mut exp: Option<(bool, i64)> = None;
    for b in text.bytes() {
        match (b, &mut exp) {
            (b'0'..=b'9', Some((_, e))) => *e = (*e * 10 + i64::from(b - b'0')).min(1000),
            (b'0'..=b'9', None) => {
                digit(b - b'0');
                scale -= i64::from(fraction);
            }
            (b'-', Some((minus, _))) => *minus = true,
            (b'-', None) => negative = true,
            (b'.', _) => fraction = true,
            (b'e' | b'E', _) => exp = Some((false, 0)),
            _ => {}
        }
    }
    let e = match exp {
        Some((true, e)) => -e,
        Some((false, e)) => e,
        None => 0,
    };
    (negative, scale + e, fraction || exp.is_some())
}

/// The integer a well-formed number literal holds, by the rule of [`JsonView::as_integer`],
/// computed on the digits in one pass with no allocation (no float parsing, which would cost the
/// wasm its formatting tables; u64 arithmetic, as i128's costs it its multiplication routine).
fn literal_integer(text: &str) -> Option<i128> {
    // The digits read so far without their trailing zeros (`None` past u64), and those zeros.
    let mut n = Some(0u64);
    let mut zeros = 0i64;
    let (negative, scale, written_as_float) = literal(text, &mut |d| {
        if d == 0 {
            zeros += 1;
            return;
        }
        for _ in 0..=zeros {
            n = n.and_then(super::times_ten);
        }
        n = n.and_then(|n| n.checked_add(u64::from(d)));
        zeros = 0;
    });
    // Past u64: larger than any integer accepted, or (its last digit not a zero) fractional.
    let mut n = n?;
    if n == 0 {
        return Some(0);
    }
    // Below 0: a fraction digit that is not zero.
    let scale = u64::try_from(scale + zeros).ok()?;
    for _ in 0..scale {
        n = super::times_ten(n)?;
    }
    let n = i128::from(n);
    let max = match (written_as_float, negative) {
        (true, _) => F64_EXACT,
        (false, true) => -i128::from(i64::MIN),
        (false, false) => i128::from(u64::MAX),
    };
    (n <= max).then_some(if negative { -n } else { n })
}

impl JsonView for serde_json::Value {
    fn kind(&self) -> Kind<'_, Self> {
        match self {
            serde_json::Value::Null => Kind::Null,
            serde_json::Value::Bool(_) => Kind::Bool,
            serde_json::Value::Number(_) => Kind::Num,
            serde_json::Value::String(s) => Kind::Str(s),
            serde_json::Value::Array(a) => Kind::Arr(a),
            serde_json::Value::Object(_) => Kind::Obj,
        }
    }
    fn get(&self, key: &str) -> Option<&Self> {
        self.as_object().and_then(|m| m.get(key))
    }
    fn keys(&self) -> Vec<&str> {
        self.as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }
    fn each_member<'s>(&'s self, f: &mut dyn FnMut(&'s str, &'s Self)) {
        if let Some(m) = self.as_object() {
            for (k, v) in m {
                f(k, v);
            }
        }
    }
    fn as_integer(&self) -> Option<i128> {
        let serde_json::Value::Number(n) = self else {
            return None;
        };
        if let Some(i) = n.as_i64() {
            return Some(i128::from(i));
        }
        if let Some(u) = n.as_u64() {
            return Some(i128::from(u));
        }
        let f = n.as_f64()?;
        (f.is_finite() && f.trunc() == f && f.abs() <= F64_EXACT as f64).then_some(f as i128)
    }
    fn to_json(&self) -> String {
        self.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_by_the_digits_agree_with_f64() {
        for (text, want) in [
            ("0", Some(0)),
            ("-0", Some(0)),
            ("12", Some(12)),
            ("1.0", Some(1)),
            ("1.50", None),
            ("1e2", Some(100)),
            ("1E+2", Some(100)),
            ("150e-2", None),
            ("1500e-2", Some(15)),
            ("-2.5e1", Some(-25)),
            ("9007199254740992.0", Some(9_007_199_254_740_992)),
            ("1e300", None),
            ("1e-300", None),
            ("0.0e99999999999", Some(0)),
            ("18446744073709551615", Some(i128::from(u64::MAX))),
            ("18446744073709551616", None),
        ] {
            let v = parse(text).unwrap();
            assert_eq!(v.as_integer(), want, "{text}");
        }
    }

    proptest::proptest! {
        #[test]
        fn integers_by_the_digits_agree_with_exact_arithmetic(
            negative: bool,
            int in 0u64..1_000_000,
            frac in proptest::option::of((0u64..10_000, 0usize..3)),
            exp in proptest::option::of(-8i32..9),
        ) {
            let mut text = String::new();
            if negative {
                text.push('-');
            }
            text.push_str(&int.to_string());
            let mut m = i128::from(int);
            let mut scale = 0i32;
            if let Some((f, pad)) = frac {
                let f = "0".repeat(pad) + &f.to_string();
                text.push('.');
                text.push_str(&f);
                m = m * 10i128.pow(f.len() as u32) + f.parse::<i128>().unwrap();
                scale -= f.len() as i32;
            }
            if let Some(e) = exp {
                text.push_str(&format!("e{e}"));
                scale += e;
            }
            let exact = if scale >= 0 {
                Some(m * 10i128.pow(scale as u32))
            } else {
                let d = 10i128.pow(scale.unsigned_abs());
                (m % d == 0).then(|| m / d)
            };
            let want = exact.map(|n| if negative { -n } else { n });
            let v = parse(&text).unwrap();
            proptest::prop_assert_eq!(v.as_integer(), want, "{}", text);
        }
    }

    #[test]
    fn numbers_as_written_by_json_stringify_read_exactly() {
        for n in [
            0.0,
            1.0,
            1.5,
            0.1,
            30_000.0,
            2.5e-3,
            1e21,
            123_456.789,
            -7.25,
        ] {
            // Rust's shortest round-trip form, as JSON.stringify writes (exponent aside).
            let text = format!("{n:?}").replace("e", "e+").replace("e+-", "e-");
            let v = parse(&text).unwrap();
            assert_eq!(v.as_f64(), Some(n), "{text}");
        }
        // Beyond the fast path: within an ulp or two.
        let far = parse("1e300").unwrap().as_f64().unwrap();
        assert!((far / 1e300 - 1.0).abs() < 1e-15, "{far}");
        assert_eq!(parse("\"1\"").unwrap().as_f64(), None);
    }

    #[test]
    fn truthiness_is_javascripts() {
        for (text, want) in [
            ("null", false),
            ("false", false),
            ("true", true),
            ("0", false),
            ("-0.0e5", false),
            ("0.5", true),
            ("\"\"", false),
            ("\"0\"", true),
            ("[]", true),
            ("{}", true),
        ] {
            assert_eq!(parse(text).unwrap().truthy(), want, "{text}");
        }
    }

    #[test]
    fn parses_and_writes_back() {
        let text = r#"{"a":[1,-2.5e3,true,null,"x\"\u00e9\ud83d\ude00"],"b":{}}"#;
        let v = parse(text).unwrap();
        assert_eq!(
            v.get("a").and_then(|a| match a.kind() {
                Kind::Arr(x) => Some(x.len()),
                _ => None,
            }),
            Some(5)
        );
        let again: serde_json::Value = serde_json::from_str(&v.to_json()).unwrap();
        let direct: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(again, direct);
        for bad in [
            "",
            "[1,]",
            "{\"a\"}",
            "\"\\ud800\"",
            "01",
            "1.",
            "[1] x",
            "\"a\u{1}\"",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(parse(&deep), Err(Syntax::TooDeep));
    }
}
