//! Collecting findings: the sink, paths built only when an issue is reported, and the
//! "first row of this key" table for duplicates.

use super::*;

/// Collects issues, leaving out platform-level ones when the options say so.
pub(super) struct Sink {
    pub(super) opts: ValidateOptions,
    pub(super) issues: Vec<Issue>,
}

impl Sink {
    pub(super) fn new(opts: ValidateOptions) -> Self {
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

    pub(super) fn finish(self) -> Report {
        Report {
            issues: self.issues,
        }
    }
}

/// `prefix` followed by `seg`.
pub(super) fn at(prefix: &[PathSegment], seg: PathSegment) -> Vec<PathSegment> {
    let mut path = Vec::with_capacity(prefix.len() + 1);
    path.extend_from_slice(prefix);
    path.push(seg);
    path
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
    match value.map(J::kind) {
        Some(Kind::Str(s)) if !s.trim().is_empty() => Some(s),
        None | Some(Kind::Null) | Some(Kind::Str(_)) => {
            sink.push(path, IssueCode::Required, Level::Contract, field, 0);
            None
        }
        Some(_) => {
            sink.push(path, IssueCode::NotString, Level::Contract, field, 0);
            None
        }
    }
}

/// Platform rule "a plausible e-mail address", kept deliberately simple (it is only a hint):
/// no whitespace or control characters anywhere; exactly one `@`; a non-empty local part; a domain
/// made of at least two non-empty dot-separated labels (so it has a dot, does not start or end with
/// a dot and has no `..`). Non-ASCII letters are allowed (internationalised addresses).
pub(super) fn plausible_email(s: &str) -> bool {
    if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let mut parts = s.split('@');
    let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    !local.is_empty() && domain.contains('.') && domain.split('.').all(|label| !label.is_empty())
}

/// The first index at which each key occurs, for "already in row N" findings: sorted once
/// (O(n log n) for batches of any size), no map type (a BTreeMap cost the wasm ~10 KB).
pub(super) struct FirstSeen<K> {
    /// (key, its first index), sorted by key.
    pub(super) firsts: Vec<(K, usize)>,
}

impl<K: Ord> FirstSeen<K> {
    pub(super) fn new(keys: impl Iterator<Item = Option<K>>) -> Self {
        let mut firsts: Vec<(K, usize)> = keys
            .enumerate()
            .filter_map(|(i, k)| Some((k?, i)))
            .collect();
        // (key, index) pairs are distinct, so any sort orders them the same.
        heap_sort(&mut firsts);
        firsts.dedup_by(|later, earlier| later.0 == earlier.0);
        FirstSeen { firsts }
    }

    /// The first index of `key` when it is before `i`.
    pub(super) fn before(&self, key: &K, i: usize) -> Option<usize> {
        let at = self.firsts.binary_search_by(|(k, _)| k.cmp(key)).ok()?;
        let first = self.firsts[at].1;
        (first < i).then_some(first)
    }
}

/// Sorts in place in O(n log n): a heap sort, about 0.3 KB of wasm where `sort_unstable` (a
/// pattern-defeating quicksort with its small-sort networks) costs about 3.7 KB.
fn heap_sort<T: Ord>(v: &mut [T]) {
    let n = v.len();
    for i in (0..n / 2).rev() {
        sift_down(v, i, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end);
    }
}

/// Moves `v[root]` down the max-heap `v[..end]` to its place.
fn sift_down<T: Ord>(v: &mut [T], mut root: usize, end: usize) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && v[child] < v[child + 1] {
            child += 1;
        }
        if v[root] >= v[child] {
            return;
        }
        v.swap(root, child);
        root = child;
    }
}

#[cfg(test)]
mod tests {
    use super::heap_sort;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn heap_sort_sorts_like_the_standard_sort(mut v in proptest::collection::vec((0u8..20, 0usize..1000), 0..200)) {
            let mut want = v.clone();
            want.sort();
            heap_sort(&mut v);
            prop_assert_eq!(v, want);
        }
    }
}
