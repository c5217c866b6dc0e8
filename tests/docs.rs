//! The documentation stays true: the column page is generated from the column table, every
//! column has an exact definition, every relative link and anchor of the Markdown pages
//! resolves (`tests/readme.rs` runs their code blocks), and no tracked text file speaks of the
//! project's development history.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every file `git ls-files` lists (the working tree's state of them).
fn tracked() -> Vec<PathBuf> {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(ROOT)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git ls-files failed");
    let mut files: Vec<PathBuf> = out
        .stdout
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| Path::new(ROOT).join(String::from_utf8_lossy(s).as_ref()))
        .filter(|p| p.is_file())
        .collect();
    // Pages not yet committed count too.
    for page in common::doc_pages() {
        if page.is_file() && !files.contains(&page) {
            files.push(page);
        }
    }
    files
}

#[test]
fn the_column_page_is_generated_from_the_column_table() {
    let path = Path::new(ROOT).join("src/metrics/columns.md");
    let want = batchgen::metrics::definitions::columns_page();
    if std::env::var_os("BATCHGEN_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "src/metrics/columns.md is stale: run BATCHGEN_BLESS=1 cargo test --release --test tests -- docs::"
    );
}

#[test]
fn every_column_has_an_exact_definition() {
    for c in batchgen::metrics::COLUMNS.iter() {
        assert!(
            batchgen::metrics::definitions::definition(c.name).is_some(),
            "column {} has no entry in metrics::definitions::DEFINITIONS",
            c.name
        );
    }
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The lines of a page outside its fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fence = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        } else if !fence {
            out.push(line);
        }
    }
    out
}

/// The anchors of a page's headings (outside code blocks), with GitHub's `-1`, `-2` suffixes.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for line in prose_lines(text) {
        if !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let base = anchor(&title.replace('`', ""));
        let mut a = base.clone();
        let mut k = 1;
        while seen.contains(&a) {
            a = format!("{base}-{k}");
            k += 1;
        }
        seen.insert(a);
    }
    seen
}

/// The targets of a page's Markdown links `[text](target)`, outside code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        // Drop code spans, whose brackets are not links.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            match after.find(')') {
                Some(end) => {
                    out.push(after[..end].to_string());
                    rest = &after[end..];
                }
                None => break,
            }
        }
    }
    out
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    let mut count = 0;
    for page in common::doc_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            count += 1;
            let (file, frag) = match link.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !target.exists() {
                broken.push(format!("{}: {link}: no such file", page.display()));
                continue;
            }
            if let Some(frag) = frag {
                let ok = target.is_file()
                    && std::fs::read_to_string(&target)
                        .map(|t| anchors(&t).contains(frag))
                        .unwrap_or(false);
                if !ok {
                    broken.push(format!("{}: {link}: no such anchor", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(count >= 20, "only {count} relative links found");
}

#[test]
fn the_anchor_rule_is_githubs() {
    assert_eq!(
        anchor("Past one machine: shards, clusters"),
        "past-one-machine-shards-clusters"
    );
    assert_eq!(anchor("Levels: masks and braid"), "levels-masks-and-braid");
    let a = anchors("# A\n```\n# not a heading\n```\n## A\n");
    assert_eq!(a, BTreeSet::from(["a".to_string(), "a-1".to_string()]));
    assert_eq!(
        links("see [x](a.md#b) and `[y](c)`"),
        vec!["a.md#b".to_string()]
    );
}

/// Mentions of development history in `text`: "session N", "issue N" and "#N" references.
fn history(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let bytes = lower.as_bytes();
    let mut found = Vec::new();
    for word in ["session", "sessions", "issue", "issues"] {
        let mut from = 0;
        while let Some(at) = lower[from..].find(word) {
            let start = from + at;
            let end = start + word.len();
            from = end;
            let word_start = start == 0 || !bytes[start - 1].is_ascii_alphanumeric();
            let rest = &lower[end..];
            let number = rest
                .strip_prefix(' ')
                .map(|r| r.trim_start_matches('#'))
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
            if word_start && number {
                found.push(lower[start..(end + 6).min(lower.len())].to_string());
            }
        }
    }
    // "#12" as a reference: after a space or `(`, digits, then not a hex digit or `;`/`'`/`"`
    // (CSS colours such as `#222;` are not references).
    for (i, _) in lower.match_indices('#') {
        let before_ok = i > 0 && matches!(bytes[i - 1], b' ' | b'(');
        let digits = lower[i + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let next = bytes.get(i + 1 + digits).copied();
        let after_ok = !matches!(next, Some(c) if c.is_ascii_hexdigit() || c == b';' || c == b'\'' || c == b'"');
        if before_ok && digits > 0 && after_ok {
            found.push(lower[i..i + 1 + digits].to_string());
        }
    }
    found
}

#[test]
fn the_history_rule_finds_what_it_should_and_nothing_else() {
    // The positive samples are assembled at run time, so the tree itself never holds them.
    let (session, issue) = ("session", "issue");
    assert_eq!(history(&format!("as in {session} 4")).len(), 1);
    assert_eq!(
        history(&format!("S{}s 4–7 measured", &session[1..])).len(),
        1
    );
    assert_eq!(
        history(&format!("fixed in {issue} 12 and {issue} 9")).len(),
        2
    );
    assert_eq!(history("issue #9").len(), 2); // the word and the reference
    assert_eq!(history("see (#29)").len(), 1);
    assert!(history("tmux kill-session, pytest scope=\"session\"").is_empty());
    assert!(history("a known issue: the session ends").is_empty());
    assert!(history("color: #222; '#fff' #[derive] #![deny] x#1").is_empty());
}

#[test]
fn no_tracked_text_file_speaks_of_sessions_or_issue_numbers() {
    let mut found = Vec::new();
    for file in tracked() {
        let rel = file
            .strip_prefix(ROOT)
            .unwrap()
            .to_string_lossy()
            .to_string();
        // Fuzz inputs are arbitrary bytes, not text of the project; this file holds the
        // rule's own examples.
        if rel.starts_with("tests/fuzz/seeds/")
            || rel.starts_with("tests/fuzz/regressions/")
            || rel == "tests/docs.rs"
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // binary
        };
        for hit in history(&text) {
            found.push(format!("{rel}: {hit:?}"));
        }
    }
    assert!(
        found.is_empty(),
        "history in tracked files:\n{}",
        found.join("\n")
    );
}
