//! Imports run one way: no two modules of the library (or of the program) use each other,
//! directly or through others. A module's edges are the `crate::`, `super::` and `self::`
//! paths in its code (not its comments or its `#[cfg(test)]` part) and the paths that start
//! with one of its child modules, each resolved to the deepest module it names. Edges between a
//! module and its own ancestors are left out: a folder's `mod.rs` declares and uses its files
//! and they use what it defines, which is how a module is built, not a circle. A circle between
//! two files of one folder, or two folders, fails here with its path.
//!
//! `cargo test --release --test tests -- imports:: --nocapture` prints every edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path below the crate root (`["accept", "parser"]`); empty for the root.
type Module = Vec<String>;

/// Every module reachable from the crate root `root_file` through `mod NAME;`, with its source.
fn modules(root_file: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![(Vec::new(), root_file.to_path_buf())];
    while let Some((m, file)) = todo.pop() {
        let text = std::fs::read_to_string(&file).unwrap();
        // The folder holding this module's children.
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let dir: PathBuf = if m.is_empty() || stem == "mod" {
            file.parent().unwrap().to_path_buf()
        } else {
            file.parent().unwrap().join(stem)
        };
        for name in declared(&text) {
            let one = dir.join(format!("{name}.rs"));
            let child = if one.exists() {
                one
            } else {
                dir.join(&name).join("mod.rs")
            };
            let mut cm = m.clone();
            cm.push(name);
            todo.push((cm, child));
        }
        out.insert(m, code(&text));
    }
    out
}

/// The names `text` declares with `mod NAME;` (a file module, not an inline one).
fn declared(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter_map(|l| {
            let l = l.strip_prefix("pub(crate) ").unwrap_or(l);
            let l = l.strip_prefix("pub ").unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect()
}

/// `text` without comments and without what follows its first `#[cfg(test)]` (or
/// `#[cfg(all(test, …))]`) line: the module's own code.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") || t.starts_with("#[cfg(all(test") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        // A trailing comment; a `//` inside a string literal (a URL) cuts too much, which can
        // only drop an edge written after it on the same line.
        out.push_str(line.split(" //").next().unwrap());
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths after `at` in `s` (`a::b`, `a::{b, c::{d}}`), each as its segments.
fn paths_at(s: &str, at: usize) -> Vec<Vec<String>> {
    let rest = &s[at..];
    let mut segs = Vec::new();
    let mut i = 0;
    let b = rest.as_bytes();
    loop {
        let start = i;
        while i < b.len() && is_ident(b[i] as char) {
            i += 1;
        }
        if i > start {
            segs.push(rest[start..i].to_string());
        }
        if rest[i..].starts_with("::{") {
            // A group: split at its top-level commas.
            let open = i + 3;
            let mut depth = 1;
            let mut j = open;
            while j < b.len() && depth > 0 {
                match b[j] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            let inner = &rest[open..j.saturating_sub(1)];
            let mut out = vec![segs.clone()];
            let (mut d, mut from) = (0, 0);
            let mut items = Vec::new();
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => d += 1,
                    '}' => d -= 1,
                    ',' if d == 0 => {
                        items.push(&inner[from..k]);
                        from = k + 1;
                    }
                    _ => {}
                }
            }
            items.push(&inner[from..]);
            for item in items {
                let item = item.trim();
                if item.is_empty() || item == "self" || item == "*" {
                    continue;
                }
                for p in paths_at(item, 0) {
                    let mut full = segs.clone();
                    full.extend(p);
                    out.push(full);
                }
            }
            return out;
        }
        if rest[i..].starts_with("::") && rest[i + 2..].starts_with(is_ident) {
            i += 2;
        } else {
            return vec![segs];
        }
    }
}

/// Positions in `s` where the word `word` starts and is followed by `::`, not preceded by an
/// identifier character or `::`.
fn starts_of(s: &str, word: &str) -> Vec<usize> {
    let pat = format!("{word}::");
    s.match_indices(&pat)
        .map(|(i, _)| i)
        .filter(|&i| {
            let before = &s[..i];
            !before.ends_with(is_ident) && !before.ends_with("::")
        })
        .collect()
}

/// Each module's edges to other modules (ancestors left out).
fn edges(mods: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let resolve = |p: &[String]| -> Module {
        (0..=p.len())
            .rev()
            .map(|n| p[..n].to_vec())
            .find(|m| mods.contains_key(m))
            .unwrap()
    };
    let mut out = BTreeMap::new();
    for (m, text) in mods {
        let mut to = BTreeSet::new();
        let mut add = |base: Module, at: usize| {
            for p in paths_at(text, at) {
                let mut full = base.clone();
                let mut segs = p.as_slice();
                // The word itself (`crate`, `super`, `self`, a child's name) is segs[0].
                match segs[0].as_str() {
                    "crate" | "self" => segs = &segs[1..],
                    "super" => {
                        full.pop();
                        segs = &segs[1..];
                        while segs.first().is_some_and(|s| s == "super") {
                            full.pop();
                            segs = &segs[1..];
                        }
                    }
                    _ => {}
                }
                full.extend(segs.iter().cloned());
                to.insert(resolve(&full));
            }
        };
        for at in starts_of(text, "crate") {
            add(Vec::new(), at);
        }
        for at in starts_of(text, "super") {
            add(m.clone(), at);
        }
        for at in starts_of(text, "self") {
            add(m.clone(), at);
        }
        for child in mods
            .keys()
            .filter(|c| c.len() == m.len() + 1 && c.starts_with(m))
        {
            for at in starts_of(text, child.last().unwrap()) {
                add(m.clone(), at);
            }
        }
        // Not to itself, nor between it and an ancestor or a descendant.
        to.retain(|t| !t.starts_with(m) && !m.starts_with(t));
        out.insert(m.clone(), to);
    }
    out
}

/// A circle of `edges`, if there is one, as the modules along it (the first repeated last).
fn circle(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    // Depth-first search: 1 on the current path, 2 finished.
    fn visit(
        m: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        state: &mut BTreeMap<Module, u8>,
        path: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        state.insert(m.clone(), 1);
        path.push(m.clone());
        for t in edges.get(m).into_iter().flatten() {
            match state.get(t) {
                Some(1) => {
                    let from = path.iter().position(|p| p == t).unwrap();
                    let mut c = path[from..].to_vec();
                    c.push(t.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(t, edges, state, path) {
                        return Some(c);
                    }
                }
            }
        }
        path.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in edges.keys() {
        if !state.contains_key(m) {
            if let Some(c) = visit(m, edges, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn show(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

fn check_crate(root: &str) {
    let mods = modules(Path::new(env!("CARGO_MANIFEST_DIR")).join(root).as_path());
    let edges = edges(&mods);
    for (m, to) in &edges {
        for t in to {
            println!("{root}: {} -> {}", show(m), show(t));
        }
    }
    if let Some(c) = circle(&edges) {
        let c: Vec<String> = c.iter().map(show).collect();
        panic!("{root}: import circle {}", c.join(" -> "));
    }
}

#[test]
fn the_library_has_no_import_circle() {
    check_crate("src/lib.rs");
}

#[test]
fn the_program_has_no_import_circle() {
    check_crate("src/main.rs");
}

#[test]
fn circles_are_found_and_ancestors_do_not_make_one() {
    let m = |s: &str| -> Module { s.split("::").map(str::to_string).collect() };
    let mods: BTreeMap<Module, String> = [
        (vec![], "mod a;\nmod b;\n".to_string()),
        (
            m("a"),
            "mod x;\nmod y;\nuse x::Thing;\npub struct Shared;\n".into(),
        ),
        // x -> y -> x through a group, a nested path and `super`.
        (m("a::x"), "use super::{Shared, y::{self, Other}};\n".into()),
        (
            m("a::y"),
            "fn f() { crate::a::x::g() }\n// crate::b::z\n".into(),
        ),
        (m("b"), "use crate::a::Shared;\n".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k, code(&v)))
    .collect();
    let e = edges(&mods);
    assert_eq!(e[&m("a::x")], BTreeSet::from([m("a::y")]));
    assert_eq!(e[&m("a::y")], BTreeSet::from([m("a::x")]));
    assert_eq!(e[&m("b")], BTreeSet::from([m("a")]));
    assert!(e[&m("a")].is_empty(), "{:?}", e[&m("a")]);
    let c = circle(&e).expect("x and y use each other");
    assert_eq!(c.first(), c.last());
    assert_eq!(c.len(), 3);
    // Without y's use of x, no circle: a's use of its child and the child's use of a are not.
    let mut mods = mods;
    mods.insert(m("a::y"), "fn f() {}\n".into());
    assert_eq!(circle(&edges(&mods)), None);
}
