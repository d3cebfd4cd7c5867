//! The core is layered one way: no cycle among `src/`'s top-level modules, and each uses only
//! modules on its line or a line above it in ARCHITECTURE.md's "Layers" list (which names every
//! one of them, and nothing else).
//!
//! A module uses another where its non-test code names it by a path: `crate::other::...`,
//! `crate::{other, ...}`, `$crate::other`, `super::other` that climbs to the crate's root, or a
//! name the crate's root re-exports from `other` (`crate::Planner`). Comments, string literals,
//! `#[cfg(test)]` items and `tests.rs` files are left out. A derive that expands to a crate path
//! counts as that path (`lpm_derive::Shape` writes `crate::check`). A method a module calls is
//! not a path: where it is defined in a module above its type's own (`Endpoint::route`, beside
//! the registry), the caller names that module in a `use`, as `src/validate.rs` does.
// A test may unwrap: its panic is its failure, said where it happens.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Derives whose expansion names a top-level module.
const DERIVE_PATHS: &[(&str, &str)] = &[("lpm_derive::Shape", "check")];

/// One source file of a top-level module.
struct File {
    module: String,
    path: String,
    text: String,
}

/// Which module uses which, and where: `edges[a][b]` is the files of `a` that name `b`.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// Whether the `r` at `i` begins a raw string literal rather than ending an identifier (`br`
/// begins one too).
fn starts_literal(c: &[char], i: usize) -> bool {
    let word = |k: usize| {
        i.checked_sub(k)
            .and_then(|j| c.get(j))
            .is_some_and(|p| p.is_alphanumeric() || *p == '_')
    };
    !word(1) || (c.get(i.wrapping_sub(1)) == Some(&'b') && !word(2))
}

/// `text` without comments, with every string and character literal emptied, so that neither
/// can hold a path.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(i + k).copied().unwrap_or('\0');
        if at(0) == '/' && at(1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if at(0) == '/' && at(1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if at(0) == 'r' && (at(1) == '"' || at(1) == '#') && starts_literal(&c, i) {
            // A raw string: r"..." or r#"..."# (or br#"..."#).
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if at(0) == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if at(0) == '\'' && (at(1) == '\\' || (at(1) != '\0' && at(2) == '\'')) {
            // A character literal ('x', '\n', '\u{..}'); a lifetime ('a) has no closing quote.
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// `code` (comments and literals gone) without its `#[cfg(test)]` items: each from the
/// attribute to its `;` or to the `}` that closes its body.
fn without_tests(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let mut depth = 0i32;
        let mut end = item.len();
        for (i, ch) in item.char_indices() {
            match ch {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => {
                    depth -= 1;
                    if depth == 0 && ch == '}' {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        // `#[cfg(test)]` ahead of another attribute: the attribute's brackets close at depth 0
        // without ending the item, which the scan above goes on past.
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The identifier at the start of `s`, if any.
fn ident(s: &str) -> &str {
    let end = s
        .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first segment of each path in a `{...}` group that starts `s` (after the `{`).
fn group_heads(s: &str) -> Vec<&str> {
    let mut heads = vec![ident(s.trim_start())];
    let mut depth = 0;
    for (i, ch) in s.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => heads.push(ident(s[i + 1..].trim_start())),
            _ => {}
        }
    }
    heads
}

/// The names `code` (one module's) declares `pub`: what a glob re-export of it brings.
fn pub_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for kw in [
        "pub struct ",
        "pub enum ",
        "pub trait ",
        "pub type ",
        "pub fn ",
        "pub const ",
        "pub static ",
        "pub mod ",
    ] {
        for (at, _) in code.match_indices(kw) {
            names.push(ident(&code[at + kw.len()..]).to_owned());
        }
    }
    for (at, _) in code.match_indices("pub use ") {
        let tail = &code[at + "pub use ".len()..];
        let stmt = &tail[..tail.find(';').unwrap_or(tail.len())];
        let last = stmt.rsplit("::").next().unwrap_or(stmt);
        let list = last.trim_start_matches('{').trim_end_matches('}');
        for item in list.split(',') {
            let name = item.rsplit(" as ").next().unwrap_or(item).trim();
            let name = name.rsplit("::").next().unwrap_or(name);
            names.push(ident(name.trim_start_matches('{')).to_owned());
        }
    }
    names.retain(|n| !n.is_empty() && n != "self");
    names
}

/// What the crate's root re-exports, by name: the module each name comes from.
fn root_exports(lib: &str, files: &[File]) -> BTreeMap<String, String> {
    let lib = without_tests(&code_only(lib));
    let mut map = BTreeMap::new();
    for (at, _) in lib.match_indices("pub use ") {
        let tail = &lib[at + "pub use ".len()..];
        let stmt = &tail[..tail.find(';').unwrap_or(tail.len())];
        let module = ident(stmt.trim_start_matches("crate::")).to_owned();
        let after = &stmt[stmt.find("::").map_or(stmt.len(), |i| i + 2)..];
        let names: Vec<String> = if after.trim() == "*" {
            files
                .iter()
                .filter(|f| f.module == module)
                .flat_map(|f| pub_names(&without_tests(&code_only(&f.text))))
                .collect()
        } else {
            let list = after.trim().trim_start_matches('{').trim_end_matches('}');
            list.split(',')
                .map(|item| {
                    let name = item.rsplit(" as ").next().unwrap_or(item).trim();
                    ident(name.rsplit("::").next().unwrap_or(name)).to_owned()
                })
                .filter(|n| !n.is_empty())
                .collect()
        };
        for name in names {
            map.entry(name).or_insert_with(|| module.clone());
        }
    }
    map
}

/// How deep a file's module is below the crate's root (`a.rs` and `a/mod.rs` in `src`: 1,
/// `a/b.rs`: 2).
fn depth(path: &str) -> usize {
    let parts: Vec<&str> = path.trim_start_matches("src/").split('/').collect();
    match parts.last() {
        Some(&"mod.rs") => parts.len() - 1,
        _ => parts.len(),
    }
}

/// The graph of the files' top-level modules, with `lib` (the crate root's text) for its
/// re-exports.
fn graph(lib: &str, files: &[File]) -> Graph {
    let modules: BTreeSet<&str> = files.iter().map(|f| f.module.as_str()).collect();
    let exports = root_exports(lib, files);
    let target = |name: &str| -> Option<String> {
        if modules.contains(name) {
            Some(name.to_owned())
        } else {
            exports.get(name).cloned()
        }
    };
    let mut g = Graph::new();
    for f in files {
        g.entry(f.module.clone()).or_default();
        if f.path.ends_with("/tests.rs") || f.path == "tests.rs" {
            continue;
        }
        let code = without_tests(&code_only(&f.text));
        let mut used = Vec::new();
        for (at, _) in code.match_indices("crate::") {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|p| p.is_alphanumeric() || p == '_') {
                continue;
            }
            let tail = &code[at + "crate::".len()..];
            match tail.strip_prefix('{') {
                Some(group) => used.extend(group_heads(group)),
                None => used.push(ident(tail)),
            }
        }
        for (at, _) in code.match_indices("super::") {
            if code[..at].ends_with("super::") {
                continue;
            }
            let mut tail = &code[at..];
            let mut climbs = 0;
            while let Some(t) = tail.strip_prefix("super::") {
                climbs += 1;
                tail = t;
            }
            if climbs >= depth(&f.path) {
                match tail.strip_prefix('{') {
                    Some(group) => used.extend(group_heads(group)),
                    None => used.push(ident(tail)),
                }
            }
        }
        for &(derive, module) in DERIVE_PATHS {
            if code.contains(derive) {
                used.push(module);
            }
        }
        for name in used {
            if let Some(m) = target(name).filter(|m| *m != f.module) {
                g.entry(f.module.clone())
                    .or_default()
                    .entry(m)
                    .or_default()
                    .insert(f.path.clone());
            }
        }
    }
    g
}

/// The cycles of the graph: one shortest closed walk per strongly connected group of modules,
/// written `a -> b -> ... -> a` with the group and the files that make each step.
fn cycles(g: &Graph) -> Vec<String> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(m) = todo.pop() {
            for next in g.get(&m).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for start in g.keys() {
        if done.contains(start) || !reach(start).contains(start) {
            continue;
        }
        // The group: the modules `start` reaches that reach it back.
        let group: BTreeSet<String> = reach(start)
            .into_iter()
            .filter(|m| reach(m).contains(start))
            .collect();
        // A shortest way back to `start`, breadth first within the group.
        let mut back: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        let mut last = None;
        while let Some(m) = queue.pop_front() {
            for next in g[&m].keys().filter(|n| group.contains(*n)) {
                if next == start {
                    last = Some(m.clone());
                    queue.clear();
                    break;
                }
                if !back.contains_key(next) {
                    back.insert(next.clone(), m.clone());
                    queue.push_back(next.clone());
                }
            }
        }
        let mut walk = vec![start.clone()];
        let mut at = last.expect("a module of a group reaches itself");
        while at != *start {
            walk.push(at.clone());
            at = back[&at].clone();
        }
        walk.push(start.clone());
        walk.reverse();
        let steps: Vec<String> = walk
            .windows(2)
            .map(|w| {
                let files: Vec<&str> = g[&w[0]][&w[1]].iter().map(String::as_str).collect();
                format!("  {} -> {} ({})", w[0], w[1], files.join(", "))
            })
            .collect();
        let members: Vec<&str> = group.iter().map(String::as_str).collect();
        found.push(format!(
            "{} (one cycle of the group {})\n{}",
            walk.join(" -> "),
            members.join(", "),
            steps.join("\n")
        ));
        done.extend(group);
    }
    found
}

/// The layers of ARCHITECTURE.md's "Layers" section: its numbered lines, bottom up, each the
/// modules named on it in backticks (`` `text` ``, `` `src/json/` ``) before its ` — ` (what
/// follows says what they hold, and may name their types).
fn layers(architecture: &str) -> Vec<Vec<String>> {
    let section = architecture
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .unwrap_or("");
    let mut out = Vec::new();
    for line in section.lines() {
        let t = line.trim_start();
        let numbered = t
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|ch| ch.is_ascii_digit()));
        if !numbered {
            continue;
        }
        let head = line.split(" — ").next().unwrap_or(line);
        let names = head
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|n| {
                let n = n.trim_start_matches("src/").trim_end_matches('/');
                n.trim_end_matches(".rs").to_owned()
            })
            .collect();
        out.push(names);
    }
    out
}

/// Every use that goes up the layers (or names a module no layer lists).
fn upward_uses(g: &Graph, layers: &[Vec<String>]) -> Vec<String> {
    let level = |m: &str| layers.iter().position(|l| l.iter().any(|n| n == m));
    let mut bad = Vec::new();
    for (from, uses) in g {
        let Some(lf) = level(from) else {
            bad.push(format!("{from} is on no line of the Layers list"));
            continue;
        };
        for (to, files) in uses {
            match level(to) {
                Some(lt) if lt <= lf => {}
                _ => bad.push(format!(
                    "{from} (line {}) uses {to}, which is not on a line at or above it ({})",
                    lf + 1,
                    files.iter().cloned().collect::<Vec<_>>().join(", ")
                )),
            }
        }
    }
    bad
}

/// Every name on the Layers list that is no top-level module of `src/` (a module moved out of the
/// crate, as the wasm shell did to `wasm/`, leaves the list).
fn stale_names(g: &Graph, layers: &[Vec<String>]) -> Vec<String> {
    layers
        .iter()
        .flatten()
        .filter(|n| !g.contains_key(n.as_str()))
        .map(|n| format!("{n} is on the Layers list but is no top-level module of src/"))
        .collect()
}

/// The crate's top-level modules' files, read from `src/`.
fn read_src(root: &Path) -> (String, Vec<File>) {
    let src = root.join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&src)
        .expect("src/")
        .map(|e| e.expect("an entry of src/").path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let module = name.trim_end_matches(".rs").to_owned();
        if name == "lib.rs" {
            continue;
        }
        let mut todo = vec![p.clone()];
        while let Some(p) = todo.pop() {
            if p.is_dir() {
                todo.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&p).unwrap();
                files.push(File {
                    module: module.clone(),
                    path: rel,
                    text,
                });
            }
        }
    }
    (lib, files)
}

#[test]
fn src_top_level_modules_form_no_cycle_and_keep_their_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (lib, files) = read_src(root);
    let g = graph(&lib, &files);
    let found = cycles(&g);
    assert!(
        found.is_empty(),
        "cycles among src/'s top-level modules (non-test code):\n{}",
        found.join("\n")
    );
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let layers = layers(&doc);
    let bad = match layers.is_empty() {
        true => vec!["ARCHITECTURE.md's Layers section has no numbered list".to_owned()],
        false => [upward_uses(&g, &layers), stale_names(&g, &layers)].concat(),
    };
    let uses: Vec<String> = g
        .iter()
        .map(|(m, to)| {
            format!(
                "  {m} -> {}",
                to.keys().cloned().collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "the module graph and ARCHITECTURE.md's Layers list disagree:\n{}\nthe graph:\n{}",
        bad.join("\n"),
        uses.join("\n")
    );
}

/// A made-up crate: `a` uses `b` by a path, `b` uses `c` through the root's re-export of `C`,
/// `c` uses `a` through `super::` in a submodule's file; what only a comment, a string, a test
/// item or a tests.rs file names does not count.
fn made_up(c_uses_a: bool) -> (String, Vec<File>) {
    let file = |module: &str, path: &str, text: &str| File {
        module: module.into(),
        path: path.into(),
        text: text.into(),
    };
    let c_to_a = if c_uses_a {
        "use super::super::a::A;"
    } else {
        ""
    };
    let files = vec![
        file("a", "src/a.rs", "use crate::{b::B, text};\npub struct A;"),
        file("b", "src/b.rs", "pub struct B(crate::C);"),
        file(
            "c",
            "src/c/mod.rs",
            "mod x;\n#[derive(lpm_derive::Shape)]\npub struct C;",
        ),
        file("c", "src/c/x.rs", c_to_a),
        file(
            "c",
            "src/c/y.rs",
            "// crate::b\n/* crate::b */ const S: &str = \"crate::b\";\n\
             const R: &str = r#\"crate::b\"#; const Q: char = '\"'; fn f<'a>(_: &'a str) {}\n\
             #[cfg(test)]\nmod t { use crate::b; }\n#[cfg(test)]\nuse crate::{b, a};",
        ),
        file("c", "src/c/tests.rs", "use crate::b;"),
        file("check", "src/check.rs", ""),
        file("text", "src/text.rs", ""),
    ];
    (
        "mod a;\nmod b;\nmod c;\npub use c::{C as C, other};".into(),
        files,
    )
}

#[test]
fn the_checker_names_a_made_up_cycle_and_nothing_else() {
    let (lib, files) = made_up(true);
    let g = graph(&lib, &files);
    let uses = |m: &str| g[m].keys().cloned().collect::<Vec<_>>();
    assert_eq!(uses("a"), ["b", "text"]);
    assert_eq!(uses("b"), ["c"]);
    assert_eq!(uses("c"), ["a", "check"]);
    assert!(uses("text").is_empty());
    let found = cycles(&g);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("a -> b -> c -> a (one cycle of the group a, b, c)\n"),
        "{}",
        found[0]
    );
    assert!(found[0].contains("  c -> a (src/c/x.rs)"), "{}", found[0]);

    let (lib, files) = made_up(false);
    let g = graph(&lib, &files);
    assert!(cycles(&g).is_empty());
    let doc =
        "# X\n\n## Layers\n\n1. `text`, `src/check.rs`\n2. `c`\n3. `b`, `a`\n\n## Next\n4. `a`";
    let layers = layers(doc);
    assert_eq!(layers, [vec!["text", "check"], vec!["c"], vec!["b", "a"]]);
    assert!(upward_uses(&g, &layers).is_empty());
    let wrong = layers.iter().rev().cloned().collect::<Vec<_>>();
    let bad = upward_uses(&g, &wrong);
    assert!(
        bad.iter().any(|b| b.starts_with("c (line 2) uses check")),
        "{bad:?}"
    );
    let bad = upward_uses(&g, &layers[..2]);
    assert!(
        bad.contains(&"a is on no line of the Layers list".to_owned()),
        "{bad:?}"
    );
    assert!(stale_names(&g, &layers).is_empty());
    let stale = self::layers(&doc.replace("3. `b`, `a`", "3. `b`, `a`\n4. `wasm`"));
    assert_eq!(
        stale_names(&g, &stale),
        ["wasm is on the Layers list but is no top-level module of src/"]
    );
}
