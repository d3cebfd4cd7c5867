//! Case folding for comparisons (duplicate e-mails and usernames, msgs matched by words), without
//! the Unicode case tables, which would be most of the wasm's binary data.
//!
//! Decision: letters of Latin (with every Vietnamese letter), Greek and Cyrillic are folded; other
//! scripts compare as written. The platform's users write Vietnamese and English, so its e-mails
//! and usernames are in these scripts. To fold more, extend [`fold_char`] (tested against
//! `char::to_lowercase` on every character it claims).

use std::borrow::Cow;

/// `c` in lower case, for the scripts above; any other character as it is.
pub fn fold_char(c: char) -> char {
    let u = c as u32;
    let lower = match u {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE | 0x391..=0x3A1 | 0x3A3..=0x3AB | 0x410..=0x42F => {
            u + 32
        }
        0x400..=0x40F => u + 80,
        0x100..=0x12F | 0x132..=0x137 | 0x14A..=0x177 | 0x1EA0..=0x1EFF if u % 2 == 0 => u + 1,
        0x139..=0x148 | 0x179..=0x17E if u % 2 == 1 => u + 1,
        0x178 => 0xFF,
        0x1A0 | 0x1AF => u + 1, // Ơ Ư
        _ => u,
    };
    char::from_u32(lower).unwrap_or(c)
}

/// Whether `s` is ASCII: a plain loop (texts here are short), where `str::is_ascii` brings the
/// wasm its word-at-a-time routine.
#[inline(never)]
pub(crate) fn is_ascii(s: &str) -> bool {
    for b in s.bytes() {
        if b >= 0x80 {
            return false;
        }
    }
    true
}

/// `s` folded, allocating only when something changes.
pub fn fold(s: &str) -> Cow<'_, str> {
    if is_ascii(s) {
        // Most e-mails and usernames: bytewise.
        // (Plain loops here and in the validators: each `Iterator::any` or `all` over bytes
        // brings the wasm a generic fold of its own.)
        for b in s.bytes() {
            if b.is_ascii_uppercase() {
                return Cow::Owned(s.to_ascii_lowercase());
            }
        }
        return Cow::Borrowed(s);
    }
    if s.chars().all(|c| fold_char(c) == c) {
        Cow::Borrowed(s)
    } else {
        // (Pushed: `collect` brings the wasm a generic copy per iterator.)
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            out.push(fold_char(c));
        }
        Cow::Owned(out)
    }
}

/// Where the first byte of `s` that `hit` picks is: a byte loop (`str::find` brings the wasm
/// its char searcher and memchr).
#[inline(never)]
pub fn find_byte(s: &str, hit: fn(u8) -> bool) -> Option<usize> {
    s.bytes().position(hit)
}

/// `s.trim()` (Unicode whitespace, as `char::is_whitespace`), in one forward pass: std's trim
/// brings the wasm a backward character decoder and pattern machinery.
#[inline(never)]
pub fn trim(s: &str) -> &str {
    let (mut start, mut end) = (None, 0);
    for (i, c) in s.char_indices() {
        if !c.is_whitespace() {
            start.get_or_insert(i);
            end = i + c.len_utf8();
        }
    }
    s.get(start.unwrap_or(0)..end).unwrap_or_default()
}

/// `s.trim_start()`, as [`trim`].
pub fn trim_start(s: &str) -> &str {
    let start = s.char_indices().find(|(_, c)| !c.is_whitespace());
    s.get(start.map_or(s.len(), |(i, _)| i)..)
        .unwrap_or_default()
}

/// Where `s` is in `names` (a `const fn`, for defaults written as their names).
pub const fn position(names: &[&str], s: &str) -> Option<usize> {
    let mut i = 0;
    while i < names.len() {
        let (a, b) = (names[i].as_bytes(), s.as_bytes());
        let mut same = a.len() == b.len();
        let mut j = 0;
        while same && j < a.len() {
            same = a[j] == b[j];
            j += 1;
        }
        if same {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Concatenates parts into one string: one small copy of the code for every caller, where
/// `[..].concat()` brings the wasm the generic `join`.
#[inline(never)]
pub fn cat(parts: &[&str]) -> String {
    let mut len = 0;
    for p in parts {
        len += p.len();
    }
    let mut out = String::with_capacity(len);
    for p in parts {
        out.push_str(p);
    }
    out
}

/// The test of a file generated from the core (a doc, a TypeScript table): `text` is what the
/// repository's file at `path` must hold; with `LPM_WRITE_DOCS=1` it is written first. `test`
/// names the test that writes it, for the message.
#[cfg(test)]
pub(crate) fn assert_generated(path: &str, text: &str, test: &str) {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("LPM_WRITE_DOCS").is_some() {
        std::fs::write(&file, text).expect("the generated file written");
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == text,
        "{path} is stale: run `LPM_WRITE_DOCS=1 cargo test -p lpm-client {test}` and commit it"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn is_ascii_is_strs(s in "[a-zA-Z0-9@. ~\u{7f}\u{80}é✓😀]{0,12}") {
            proptest::prop_assert_eq!(is_ascii(&s), s.is_ascii());
        }
    }

    #[test]
    fn folds_like_unicode_where_it_folds() {
        let mut folded = 0;
        for c in (0..0x2000u32).filter_map(char::from_u32) {
            let f = fold_char(c);
            if f != c {
                folded += 1;
                let mut std = c.to_lowercase();
                assert_eq!(
                    (std.next(), std.next()),
                    (Some(f), None),
                    "{c:?} U+{:04X}",
                    c as u32
                );
            }
        }
        assert!(folded > 200, "{folded}");
        assert_eq!(fold("ĐẶNG Thị Ư@Ví-Dụ.VN"), "đặng thị ư@ví-dụ.vn");
        assert_eq!(fold("THÀNH CÔNG, LỖI"), "thành công, lỗi");
        assert!(matches!(fold("already lower"), Cow::Borrowed(_)));
    }

    #[test]
    fn trims_like_std() {
        for s in [
            "",
            " ",
            "a",
            " a ",
            "\u{3000}\u{a0}xy z\t\n",
            "\u{85}ệ\u{2029}",
            "ab\u{200b}",
            "\r\n",
        ] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
            assert_eq!(trim_start(s), s.trim_start(), "{s:?}");
        }
    }
}
