//! Collecting findings: the sink, paths built only when an issue is reported, and the
//! "first row of this key" table for duplicates.

use super::*;

/// Collects issues, leaving out platform-level ones when the options say so.
pub(crate) struct Sink {
    pub(super) opts: ValidateOptions,
    pub(super) issues: Vec<Issue>,
}

impl Sink {
    pub(crate) fn new(opts: ValidateOptions) -> Self {
        Sink {
            opts,
            issues: Vec::new(),
        }
    }

    pub(super) fn push(
        &mut self,
        path: impl Into<Vec<PathSegment>>,
        code: IssueCode,
        level: Level,
        field: Field,
        n: usize,
    ) {
        if level == Level::Platform && !self.opts.platform_rules {
            return;
        }
        let message = render(code, field, n, self.opts.lang);
        self.issues.push(Issue {
            path: path.into(),
            code,
            level,
            message,
        });
    }

    pub(crate) fn finish(self) -> Report {
        Report {
            issues: self.issues,
        }
    }
}

/// `prefix` followed by `seg`.
pub(super) fn at(prefix: &[PathSegment], seg: PathSegment) -> Vec<PathSegment> {
    let mut path = copy(prefix, 1);
    path.push(seg);
    path
}

/// A copy of `path` with room for `more` steps (a loop: `to_vec` and `extend_from_slice` each
/// bring the wasm a cloning fold of their own).
pub(super) fn copy(path: &[PathSegment], more: usize) -> Vec<PathSegment> {
    let mut out = Vec::with_capacity(path.len() + more);
    for seg in path {
        out.push(seg.clone());
    }
    out
}

/// The path `prefix` + `key`, built only when an issue is pushed (a valid batch allocates no
/// paths).
#[derive(Clone, Copy)]
pub(super) struct At<'p> {
    pub(super) prefix: &'p [PathSegment],
    pub(super) key: &'static str,
}

impl From<At<'_>> for Vec<PathSegment> {
    fn from(a: At<'_>) -> Vec<PathSegment> {
        at(a.prefix, key(a.key))
    }
}

pub(super) fn key(k: &str) -> PathSegment {
    PathSegment::Key(k.to_owned())
}

/// A required string: returns it when it is a string that is non-empty after trimming;
/// otherwise reports `required` (absent, `null`, blank) or `not_string` (another type).
pub(super) fn required_str<'a, J: JsonView>(
    value: Option<&'a J>,
    path: impl Into<Vec<PathSegment>>,
    field: Field,
    sink: &mut Sink,
) -> Option<&'a str> {
    let code = match value {
        None => IssueCode::Required,
        Some(v) => match v.kind() {
            Kind::Str(s) if !trim(s).is_empty() => return Some(s),
            Kind::Null | Kind::Str(_) => IssueCode::Required,
            _ => IssueCode::NotString,
        },
    };
    sink.push(path, code, Level::Contract, field, 0);
    None
}

/// `s.trim()`, without decoding characters when `s` starts and ends with a visible ASCII
/// character (the usual field, which has nothing to trim).
pub(super) fn trim(s: &str) -> &str {
    let visible = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    if visible(s.as_bytes().first()) && visible(s.as_bytes().last()) {
        s
    } else {
        crate::text::trim(s)
    }
}

/// Platform rule "a plausible e-mail address", kept deliberately simple (it is only a hint):
/// no whitespace or control characters anywhere; exactly one `@`; a non-empty local part; a domain
/// made of at least two non-empty dot-separated labels (so it has a dot, does not start or end with
/// a dot and has no `..`). Non-ASCII letters are allowed (internationalised addresses).
pub(super) fn plausible_email(s: &str) -> bool {
    // (ASCII, most addresses: by the byte; the same test.)
    let spaced = match crate::text::is_ascii(s) {
        true => {
            let mut spaced = false;
            for b in s.bytes() {
                if b <= b' ' || b == 0x7f {
                    spaced = true;
                    break;
                }
            }
            spaced
        }
        false => s.chars().any(|c| c.is_whitespace() || c.is_control()),
    };
    if spaced {
        return false;
    }
    // Byte by byte (`@` and `.` are ASCII, so never inside another character's bytes).
    let b = s.as_bytes();
    let Some(at) = b.iter().position(|&c| c == b'@') else {
        return false;
    };
    let (local, domain) = (
        b.get(..at).unwrap_or_default(),
        b.get(at + 1..).unwrap_or_default(),
    );
    // Labels all non-empty: no dot first or last, no two dots in a row.
    let mut prev = b'.';
    let mut dots = 0;
    for &c in domain {
        match c {
            b'@' => return false,
            b'.' if prev == b'.' => return false,
            b'.' => dots += 1,
            _ => {}
        }
        prev = c;
    }
    !local.is_empty() && dots > 0 && prev != b'.'
}

/// Platform rule "a phone number" (the platform documents none; this is what a sign-up form
/// expects): an optional leading `+`, then digits with the separators people type (space, `.`,
/// `-`, `(`, `)`), and [`PHONE_DIGITS_MIN`] to [`PHONE_DIGITS_MAX`] digits (E.164's longest; a
/// Vietnamese mobile is 10, `+84` and 9 is 11); spaces around it are left out. A blank phone is no
/// phone (an optional field left empty): it passes.
#[inline(never)]
pub(super) fn plausible_phone(s: &str) -> bool {
    let b = trim(s).as_bytes();
    let mut digits = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => digits += 1,
            b' ' | b'.' | b'-' | b'(' | b')' => {}
            b'+' if i == 0 => {}
            _ => return false,
        }
    }
    b.is_empty() || (PHONE_DIGITS_MIN..=PHONE_DIGITS_MAX).contains(&digits)
}

/// The first index at which each key occurs, for "already in row N" findings: a small
/// open-addressing hash table (O(n) for batches of any size; no map type and no sort, which
/// would bring the wasm their code and a sort most of a batch's validation time). It keeps its
/// own copy of the keys, one text for all of them, so it outlives the values they came from: a
/// list validated a slice at a time ([`crate::rules::UsersCheck`]) keeps one table across slices.
#[derive(Clone)]
pub(crate) struct FirstSeen {
    /// 0 free, else 1 + the key's place in `keys`; the length is a power of two, at least twice
    /// the keys.
    slots: Vec<usize>,
    /// Each key's end in `text` (it starts where the one before ends) and its first index.
    keys: Vec<(usize, usize)>,
    text: String,
}

/// A multiply-rotate hash (FxHash's step) over 8 bytes at a time: spreads short keys well
/// enough for a table that is at most half full, at a fraction of a bytewise hash's cost. The
/// rotation is 26, not FxHash's 5: a multiply carries a difference only upwards, and with 5 keys
/// that differ in their first word's high bytes (`bench17@…`, `bench18@…`) kept the slot bits
/// nearly alike (probes: docs/performance.md). Seeded with the key's length (no step of its own).
fn hash(key: &str) -> usize {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let step = |h: u64, w: u64| (h.rotate_left(26) ^ w).wrapping_mul(K);
    let b = key.as_bytes();
    let mut h = b.len() as u64;
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        h = step(h, u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
    }
    let mut last = 0u64;
    for (i, &c) in words.remainder().iter().enumerate() {
        last |= u64::from(c) << (8 * i);
    }
    (step(h, last) >> 32) as usize
}

impl FirstSeen {
    /// A table with room for `n` keys before it grows, empty.
    pub(crate) fn with_room(n: usize) -> Self {
        let size = (n * 2).next_power_of_two().max(2);
        FirstSeen {
            // (Zeroed memory from the allocator: no filling loop.)
            slots: vec![0; size],
            keys: Vec::with_capacity(n),
            // Room for keys of up to 32 bytes on average (e-mails, usernames): memory reserved
            // and not written is not used.
            text: String::with_capacity(n.saturating_mul(32)),
        }
    }

    /// The text of key `k` (its place in `keys`).
    fn key(&self, k: usize) -> &str {
        let from = match k {
            0 => 0,
            _ => self.keys.get(k - 1).map_or(0, |&(end, _)| end),
        };
        let to = self.keys.get(k).map_or(0, |&(end, _)| end);
        self.text.get(from..to).unwrap_or_default()
    }

    /// The slot of `key`: where it is, or the free slot where it would go.
    fn find(&self, key: &str) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = hash(key) & mask;
        loop {
            match self.slots.get(at).copied().unwrap_or(0) {
                0 => return at,
                k if crate::json::same(self.key(k - 1).as_bytes(), key.as_bytes()) => return at,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Records `key` at index `i` unless it is there already: then its first index.
    pub(crate) fn insert(&mut self, key: &str, i: usize) -> Option<usize> {
        let at = self.find(key);
        if let Some(&k) = self.slots.get(at).filter(|&&k| k != 0) {
            return self.keys.get(k - 1).map(|&(_, first)| first);
        }
        self.text.push_str(key);
        self.keys.push((self.text.len(), i));
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = self.keys.len();
        }
        // At most half full: past that, twice the slots and every key placed again.
        if self.keys.len() * 2 > self.slots.len() {
            self.slots = vec![0; self.slots.len() * 2];
            for k in 0..self.keys.len() {
                let at = self.find(self.key(k));
                if let Some(slot) = self.slots.get_mut(at) {
                    *slot = k + 1;
                }
            }
        }
        None
    }

    /// The table of every key (the bulk engines', read with [`FirstSeen::before`]).
    pub(crate) fn new<'k>(keys: impl ExactSizeIterator<Item = Option<&'k str>>) -> Self {
        let mut table = Self::with_room(keys.len());
        for (i, key) in keys.enumerate() {
            if let Some(key) = key {
                table.insert(key, i);
            }
        }
        table
    }

    /// For each of `n` keys, the index of the first earlier row with the same key: the table
    /// filled and read in one pass (each key hashed once). (A `dyn` iterator: one copy of the
    /// loop in the wasm for every caller.)
    pub(crate) fn earlier(
        n: usize,
        keys: &mut dyn Iterator<Item = Option<&str>>,
    ) -> Vec<Option<usize>> {
        let mut table = Self::with_room(n);
        let mut out = Vec::with_capacity(n);
        for (i, key) in keys.enumerate() {
            out.push(key.and_then(|k| table.insert(k, i)));
        }
        out
    }

    /// The first index of `key` when it is before `i`.
    pub(crate) fn before(&self, key: &str, i: usize) -> Option<usize> {
        let k = self.slots.get(self.find(key)).copied().unwrap_or(0);
        let first = self.keys.get(k.checked_sub(1)?)?.1;
        (first < i).then_some(first)
    }
}

#[cfg(test)]
mod tests {
    use super::{plausible_email, FirstSeen};
    use proptest::prelude::*;

    /// The rule as first written, by splitting: the byte scan must agree with it.
    fn plausible_by_splitting(s: &str) -> bool {
        if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return false;
        }
        let mut parts = s.split('@');
        let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else {
            return false;
        };
        !local.is_empty() && domain.contains('.') && domain.split('.').all(|l| !l.is_empty())
    }

    /// The table against a linear search for each key.
    fn first_seen_agrees(keys: &[Option<String>]) -> Result<(), TestCaseError> {
        let seen = FirstSeen::new(keys.iter().map(|k| k.as_deref()));
        for (i, key) in keys.iter().enumerate() {
            let Some(key) = key else { continue };
            let want = keys
                .iter()
                .position(|k| k.as_deref() == Some(key.as_str()))
                .filter(|&f| f < i);
            prop_assert_eq!(seen.before(key, i), want);
        }
        let earlier = FirstSeen::earlier(keys.len(), &mut keys.iter().map(|k| k.as_deref()));
        for (i, key) in keys.iter().enumerate() {
            let want = key.as_ref().and_then(|key| seen.before(key, i));
            prop_assert_eq!(earlier[i], want);
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn plausible_email_agrees_with_splitting(s in "[a.@é ]{0,8}") {
            prop_assert_eq!(plausible_email(&s), plausible_by_splitting(&s), "{:?}", s);
        }

        // Longer keys than the other test, so the table's hash reads whole words too.
        #[test]
        fn first_seen_finds_long_keys(keys in proptest::collection::vec(proptest::option::of("[ab]{0,3}x{0,20}"), 0..40)) {
            first_seen_agrees(&keys)?;
        }

        #[test]
        fn first_seen_finds_the_first_earlier_row(keys in proptest::collection::vec(proptest::option::of("[a-c]{0,2}"), 0..60)) {
            first_seen_agrees(&keys)?;
        }
    }
}
