//! Small helpers: time formatting, a deterministic PRNG, Meteor-style ids,
//! query-string decoding and diacritic folding.

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// (year, month, day) to days since 1970-01-01.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Milliseconds since the epoch for a UTC date and time.
pub fn ms_at(y: i64, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> i64 {
    (days_from_civil(y, mo, d) * 86_400 + (h as i64) * 3600 + (mi as i64) * 60 + s as i64) * 1000
}

/// ISO 8601 UTC with milliseconds and `Z`, e.g. `2024-03-05T08:09:10.123Z`.
pub fn iso(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let h = rem / 3_600_000;
    let mi = (rem / 60_000) % 60;
    let s = (rem / 1000) % 60;
    let milli = rem % 1000;
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
}

pub const DAY_MS: i64 = 86_400_000;

/// SplitMix64: tiny, deterministic for a given seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// Seeded from the clock (ids of runtime-created records).
    pub fn from_clock() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9E37_79B9);
        Rng(nanos ^ 0xA076_1D64_78BD_642F)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-ish in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Meteor-style id of `len` characters.
    pub fn meteor_id(&mut self, len: usize) -> String {
        const ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz";
        (0..len)
            .map(|_| ALPHABET[self.below(ALPHABET.len())] as char)
            .collect()
    }

    /// A 43-character token (URL-safe base64 alphabet, as on the platform).
    pub fn token(&mut self) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        (0..43)
            .map(|_| ALPHABET[self.below(ALPHABET.len())] as char)
            .collect()
    }
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Percent-decoding; `plus_is_space` for query strings.
pub fn percent_decode(s: &str, plus_is_space: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex_val(bytes[i + 1]), hex_val(bytes[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        if b == b'+' && plus_is_space {
            out.push(b' ');
        } else {
            out.push(b);
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses a query string; the first occurrence of a key wins.
pub fn parse_query(q: Option<&str>) -> HashMap<String, String> {
    let mut map = HashMap::new();
    if let Some(q) = q {
        for pair in q.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            map.entry(percent_decode(k, true))
                .or_insert_with(|| percent_decode(v, true));
        }
    }
    map
}

/// Lower-cases and strips Vietnamese (and combining) diacritics; `đ` becomes `d`.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        if ('\u{0300}'..='\u{036f}').contains(&c) {
            continue;
        }
        out.push(fold_char(c));
    }
    out
}

fn fold_char(c: char) -> char {
    const TABLE: &[(char, &str)] = &[
        ('a', "àáạảãâầấậẩẫăằắặẳẵä"),
        ('e', "èéẹẻẽêềếệểễë"),
        ('i', "ìíịỉĩïî"),
        ('o', "òóọỏõôồốộổỗơờớợởỡö"),
        ('u', "ùúụủũưừứựửữüû"),
        ('y', "ỳýỵỷỹ"),
        ('d', "đ"),
        ('c', "ç"),
        ('n', "ñ"),
    ];
    if c.is_ascii() {
        return c;
    }
    for (base, variants) in TABLE {
        if variants.contains(c) {
            return *base;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_round_trip() {
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            iso(ms_at(2024, 2, 29, 23, 59, 58) + 7),
            "2024-02-29T23:59:58.007Z"
        );
        assert_eq!(
            iso(ms_at(2000, 12, 31, 0, 0, 0)),
            "2000-12-31T00:00:00.000Z"
        );
    }

    #[test]
    fn folding() {
        assert_eq!(fold("Trắc Nghiệm ĐỒ HỌA"), "trac nghiem do hoa");
        assert_eq!(fold("Tra\u{0306}\u{0301}c"), "trac");
    }

    #[test]
    fn query() {
        let q = parse_query(Some("a=1&b=x%20y+z&a=2&c"));
        assert_eq!(q["a"], "1");
        assert_eq!(q["b"], "x y z");
        assert_eq!(q["c"], "");
    }

    #[test]
    fn ids() {
        let mut r = Rng::new(1);
        assert_eq!(r.meteor_id(17).len(), 17);
        assert_eq!(r.token().len(), 43);
    }
}
