//! Every path a document or a comment names exists: a Markdown link (resolved from its file) and
//! a path in backticks that starts at a top-level folder of the repository (`src/bulk/mod.rs`),
//! read from the root or from a folder above the file that names it.
//! Text that names a file gone is the first kind of text that stops being true.
//!
//! Read: the tracked text files (`git ls-files`), Markdown, Rust, TOML, TypeScript, JavaScript and
//! shell. Not read: what is generated into `docs/api/` (checked against the declarations by the
//! test command) and the CHANGELOG, whose entries tell what was true when they were written.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

const TEXT: [&str; 8] = ["md", "rs", "toml", "ts", "js", "mjs", "sh", "json"];
/// Written by builds, never tracked: a path under one is named before it exists.
const BUILT: [&str; 8] = [
    "pkg/",
    "pkg-bulk/",
    "target/",
    "www/dist",
    "node_modules/",
    "fuzz/corpus",
    "fuzz/artifacts",
    "fuzz/target",
];
/// What `scripts/build-pkg.sh` puts in a package (`pkg/`): the packages' READMEs
/// (`pkg-templates/`) and the scripts that read a built package name these by the package's path.
const PACKAGED: [&str; 5] = [
    "CHANGELOG.md",
    "LICENSE",
    "wasm/lpm_client",
    "wasm/lpm_validate",
    "wasm/bindgen.js",
];
/// Tracked files whose text tells history, is generated, or names made-up paths (this test's).
const SKIP: [&str; 4] = [
    "CHANGELOG.md",
    "docs/api/",
    "docs/performance.md",
    "tests/doc_paths.rs",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tracked() -> Vec<String> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git ls-files runs in the repository");
    String::from_utf8_lossy(&out.stdout)
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

/// `a/./b/../c` as `a/c`; `None` when it climbs out of the repository.
fn normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(s) => out.push(s),
            _ => return None,
        }
    }
    Some(out)
}

/// The Markdown link targets of `text` that point into the repository (`](target)`).
fn links(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        let target = target.split('#').next().unwrap_or("");
        let external = target.contains("://") || target.starts_with("mailto:");
        if !target.is_empty() && !external {
            out.push(target);
        }
    }
    out
}

/// The backticked spans of `text` that read as a path from the repository's root: a top-level
/// folder, then at least one more segment, no placeholder or pattern.
fn named_paths<'t>(text: &'t str, tops: &BTreeSet<String>) -> Vec<&'t str> {
    let quoted = text.split('`').skip(1).step_by(2);
    // Outside backticks, a word with a file's extension on a comment's line (`wasm/src/abi.rs`, in
    // a TOML comment); code's strings name paths of what it builds.
    let comment = |l: &&str| {
        let l = l.trim_start();
        ["#", "//", "*", "/*"].iter().any(|c| l.starts_with(c)) && !l.starts_with("#!")
    };
    let words = text
        .lines()
        .filter(comment)
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || "`'\"(),;:[]<>".contains(c)))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| {
            w.rsplit_once('/')
                .is_some_and(|(_, name)| name.contains('.'))
        });
    quoted
        .chain(words)
        .filter(|span| {
            let plain = span
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
            let mut parts = span.split('/');
            let top = parts.next().unwrap_or("");
            plain
                && span.contains('/')
                && !span.ends_with('/')
                && !span.contains("..")
                && tops.contains(top)
                && parts.all(|p| !p.is_empty())
        })
        .collect()
}

#[test]
fn every_path_a_document_names_exists() {
    let root = root();
    let files = tracked();
    let tops: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.split_once('/').map(|(top, _)| top.to_owned()))
        .collect();
    let built = |p: &str| BUILT.iter().any(|b| p.starts_with(b));
    let mut missing = Vec::new();
    for file in &files {
        let ext = file.rsplit('.').next().unwrap_or("");
        if !TEXT.contains(&ext) || SKIP.iter().any(|s| file.starts_with(s)) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue;
        };
        let dir = Path::new(file).parent().unwrap_or(Path::new(""));
        let packaged = |p: &str| {
            let in_pkg =
                |k: &&str| p.starts_with(k) && (k.contains('/') || file.starts_with("pkg-"));
            PACKAGED.iter().any(in_pkg)
        };
        // A path in backticks is read from the repository's root or from a folder above the file
        // (`src/index.js` in `sheets/README.md` is the reader's own).
        let exists = |p: &str| dir.ancestors().any(|d| root.join(d).join(p).exists());
        if ext == "md" {
            for target in links(&text) {
                match normal(&dir.join(target)) {
                    None => missing.push(format!("{file}: links {target} outside the repository")),
                    Some(p)
                        if !built(&p.to_string_lossy())
                            && !packaged(target)
                            && !root.join(&p).exists() =>
                    {
                        missing.push(format!("{file}: links {target}, which does not exist"))
                    }
                    Some(_) => {}
                }
            }
        }
        for path in named_paths(&text, &tops) {
            if !built(path) && !packaged(path) && !exists(path) {
                missing.push(format!("{file}: names `{path}`, which does not exist"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} paths named that do not exist:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_finder_reads_links_and_paths() {
    let tops: BTreeSet<String> = ["src".to_owned()].into();
    assert_eq!(
        links("see [a](x/y.md#top) and [b](https://e.com) [c](../z)"),
        ["x/y.md", "../z"]
    );
    assert_eq!(
        named_paths("`src/a.rs` `src/<n>.rs` `other/b.rs` `src` `src/x/`", &tops),
        ["src/a.rs"]
    );
    assert_eq!(normal(Path::new("a/../../b")), None);
}
