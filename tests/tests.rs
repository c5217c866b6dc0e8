//! The one integration-test binary: every suite `tests/NAME.rs` is a module of it, so arrow and
//! parquet are linked once, not once per suite. `cargo test --release` runs them all; one suite
//! runs alone with `cargo test --release --test tests -- NAME::`.
//!
//! Suites that run the program or use its modules need the `cli` feature; `generators` and
//! `props` test the core alone. The helpers of `tests/common/` are `crate::common`, the spanning
//! trees of `tests/trees/` are `crate::trees`. The tests at the end of this file fail when a Rust
//! file under `tests/` is not a module of this binary (it would silently never run).

#[cfg(feature = "cli")]
mod common;
#[cfg(feature = "cli")]
mod trees;

#[cfg(feature = "cli")]
mod accept;
#[cfg(feature = "cli")]
mod accept_sql;
#[cfg(feature = "cli")]
mod braid;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod cluster;
#[cfg(feature = "cli")]
mod dataset;
#[cfg(feature = "cli")]
mod dataset_ml;
#[cfg(feature = "cli")]
mod difficulty;
#[cfg(feature = "cli")]
mod docs;
#[cfg(feature = "cli")]
mod explore;
#[cfg(feature = "cli")]
mod foreign_parquet;
mod generators;
#[cfg(feature = "cli")]
mod golden;
#[cfg(feature = "cli")]
mod grids;
mod imports;
#[cfg(feature = "cli")]
mod integrity;
#[cfg(feature = "cli")]
mod interop;
#[cfg(feature = "cli")]
mod levels;
#[cfg(feature = "cli")]
mod mask_uniformity;
#[cfg(feature = "cli")]
mod masks;
#[cfg(feature = "cli")]
mod maze_id;
#[cfg(feature = "cli")]
mod memory_estimate;
#[cfg(feature = "cli")]
mod metrics3d;
#[cfg(feature = "cli")]
mod output_set;
#[cfg(feature = "cli")]
mod perfect;
#[cfg(feature = "cli")]
mod plot;
mod props;
#[cfg(feature = "cli")]
mod python;
#[cfg(feature = "cli")]
mod readme;
#[cfg(feature = "cli")]
mod render;
#[cfg(feature = "cli")]
mod render_cli;
#[cfg(feature = "cli")]
mod shard;
#[cfg(feature = "cli")]
mod store;
#[cfg(feature = "cli")]
mod summary;
#[cfg(feature = "cli")]
mod texture;
#[cfg(feature = "cli")]
mod threed;
#[cfg(feature = "cli")]
mod uniformity;
#[cfg(feature = "cli")]
mod ux;

/// Which Rust files under a test folder are modules of the binary rooted at its `tests.rs`, and
/// the tests that every file under `tests/` is one.
mod layout {
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    /// The names `file` declares with `mod NAME;` (after any attributes or `pub`), in order.
    fn declared(file: &Path) -> Vec<String> {
        declared_with_paths(file).into_iter().map(|d| d.0).collect()
    }

    /// [`declared`] with the `#[path = "…"]` each declaration carries, if any (on its line or
    /// the lines before it).
    fn declared_with_paths(file: &Path) -> Vec<(String, Option<String>)> {
        let text = std::fs::read_to_string(file).unwrap();
        let mut out = Vec::new();
        let mut path = None;
        for line in text.lines() {
            let mut l = line.trim();
            while l.starts_with("#[") {
                match l.find(']') {
                    Some(end) => {
                        let attr = l[2..end].trim();
                        if let Some(p) = attr.strip_prefix("path") {
                            let p = p.trim_start().trim_start_matches('=').trim();
                            path = Some(p.trim_matches('"').to_string());
                        }
                        l = l[end + 1..].trim_start();
                    }
                    None => break,
                }
            }
            if l.is_empty() {
                continue;
            }
            let l = l.strip_prefix("pub ").unwrap_or(l);
            if let Some(name) = l.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                out.push((name.trim().to_string(), path.take()));
            }
            path = None;
        }
        out
    }

    /// The file of module `name` declared in `parent`: `DIR/name.rs` or `DIR/name/mod.rs`,
    /// where DIR is the parent's folder for a crate root or a `mod.rs`, else `parent` without
    /// its `.rs`.
    fn child(root: &Path, parent: &Path, name: &str) -> Option<PathBuf> {
        let dir = if parent == root || parent.file_name().is_some_and(|n| n == "mod.rs") {
            parent.parent().unwrap().to_path_buf()
        } else {
            parent.with_extension("")
        };
        [
            dir.join(format!("{name}.rs")),
            dir.join(name).join("mod.rs"),
        ]
        .into_iter()
        .find(|p| p.is_file())
    }

    /// Every file reached from `root` through `mod NAME;` declarations, `root` included.
    fn reachable(root: &Path) -> BTreeSet<PathBuf> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![root.to_path_buf()];
        while let Some(f) = todo.pop() {
            if !seen.insert(f.clone()) {
                continue;
            }
            for (name, path) in declared_with_paths(&f) {
                // A `#[path]` is relative to the declaring file's folder.
                let c = match path {
                    Some(p) => Some(f.parent().unwrap().join(p)).filter(|p| p.is_file()),
                    None => child(root, &f, &name),
                };
                let c = c.unwrap_or_else(|| panic!("{}: `mod {name};` has no file", f.display()));
                todo.push(c);
            }
        }
        seen
    }

    /// Every `.rs` file under `dir`, skipping folders that hold their own crate (a
    /// `Cargo.toml`, like the fuzz targets) and build output.
    fn rust_files(dir: &Path) -> BTreeSet<PathBuf> {
        let mut out = BTreeSet::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            if d != dir && d.join("Cargo.toml").is_file() {
                continue;
            }
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    if p.file_name().is_some_and(|n| n != "target") {
                        stack.push(p);
                    }
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.insert(p);
                }
            }
        }
        out
    }

    /// The Rust files under `dir` that the binary rooted at `dir/tests.rs` never compiles.
    fn unreachable(dir: &Path) -> Vec<PathBuf> {
        let reached = reachable(&dir.join("tests.rs"));
        rust_files(dir)
            .into_iter()
            .filter(|p| !reached.contains(p))
            .collect()
    }

    const TESTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");

    #[test]
    fn every_suite_file_is_a_module_of_the_test_binary() {
        let dir = Path::new(TESTS);
        let declared = declared(&dir.join("tests.rs"));
        let mut missing = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            if p.extension().is_some_and(|x| x == "rs")
                && stem != "tests"
                && !declared.contains(&stem)
            {
                missing.push(stem);
            }
        }
        assert!(
            missing.is_empty(),
            "tests/*.rs not declared in tests/tests.rs (add `mod NAME;`): {missing:?}"
        );
    }

    #[test]
    fn every_rust_file_under_tests_is_compiled() {
        let unreached = unreachable(Path::new(TESTS));
        assert!(
            unreached.is_empty(),
            "Rust files under tests/ that no `mod` reaches from tests/tests.rs: {unreached:?}"
        );
    }

    #[test]
    fn an_undeclared_file_is_found() {
        let d = tempfile::tempdir().unwrap();
        let w = |p: &str, s: &str| {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, s).unwrap();
        };
        w(
            "tests.rs",
            "#[cfg(feature = \"cli\")]\nmod a;\nmod common;\n",
        );
        w(
            "a.rs",
            "use crate::common;\nmod nested;\n#[path = \"shared/x.rs\"]\nmod x;\n",
        );
        w("shared/x.rs", "");
        w("a/nested.rs", "");
        w("common/mod.rs", "pub mod util;\n");
        w("common/util.rs", "");
        w("common/stray.rs", "");
        w("b.rs", "// mod a;\n");
        w("fuzz/Cargo.toml", "");
        w("fuzz/fuzz_targets/t.rs", "");
        let got: Vec<_> = unreachable(d.path())
            .into_iter()
            .map(|p| p.strip_prefix(d.path()).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            got,
            [PathBuf::from("b.rs"), PathBuf::from("common/stray.rs")]
        );
    }
}
