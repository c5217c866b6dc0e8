//! The README is the front door and the reference pages stand beside the code, so they must
//! stay true: every SQL, Python, bash and YAML block of a page is a file or snippet a suite runs,
//! every Rust block is a doctest, the test command is the one CI runs, and every `batchgen`
//! command of every `sh` block runs successfully (the main job with a smaller `--count`; CI runs
//! it as written). `text` blocks are outputs, or commands that take minutes, shown not run.

use crate::common;

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The command-line guide, which shows the render examples.
fn guide() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/cmd/README.md")).unwrap()
}

/// The fenced blocks of one language.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        match &mut cur {
            None if line.trim() == format!("```{lang}") => cur = Some(String::new()),
            Some(b) if line.trim() == "```" => {
                out.push(std::mem::take(b));
                cur = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    out
}

/// Split a shell command line into words (single and double quotes, backslash-newline).
fn words(cmd: &str) -> Vec<String> {
    let cmd = cmd.replace("\\\n", " ");
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in cmd.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Every file under `data/`, with its text.
fn data_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if let Ok(text) = std::fs::read_to_string(&p) {
                out.push((p.display().to_string(), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &mut out,
    );
    out
}

#[test]
fn every_sql_python_bash_and_yaml_block_is_a_file_a_test_runs() {
    let data = data_files();
    let mut checked = 0;
    for page in common::doc_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.display().to_string();
        let is_readme = page.ends_with("README.md")
            && page.parent() == Some(Path::new(env!("CARGO_MANIFEST_DIR")));
        for lang in ["sql", "python", "bash", "yaml"] {
            for block in blocks(&text, lang) {
                checked += 1;
                // Run elsewhere: the package examples of the README and of the Python
                // package's page by tests/python/test_readme.py, the README's three-line store
                // reader by tests/interop.rs.
                let is_package_page = page.ends_with("src/python/README.md");
                let elsewhere = lang == "python"
                    && ((is_readme || is_package_page) && block.starts_with("import batchgen")
                        || is_readme
                            && block
                                .starts_with("import pyarrow as pa\nmazes = pa.ipc.open_file("));
                assert!(
                    elsewhere || data.iter().any(|(_, t)| *t == block),
                    "{name}: this {lang} block is neither a file of data/ (which the tests run) \
                     nor a snippet a test runs:\n{block}"
                );
            }
        }
        // Rust blocks are doctests only in the README (src/lib.rs includes it).
        assert!(
            is_readme || blocks(&text, "rust").is_empty(),
            "{name}: a Rust block outside the README is not compiled; put it in the crate docs"
        );
    }
    assert!(checked >= 5, "only {checked} blocks checked");
    let recipes =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/README.md")).unwrap();
    for file in ["per_algo_stats.sql", "per_algo_stats.py"] {
        let body = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("data")
                .join(file),
        )
        .unwrap();
        let lang = if file.ends_with(".sql") {
            "sql"
        } else {
            "python"
        };
        assert!(
            blocks(&recipes, lang).contains(&body),
            "data/README.md shows data/{file} as run by the interop test"
        );
    }
    for page in common::doc_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        assert!(
            !text.contains("README_") && !text.contains("PEAK_RSS"),
            "a placeholder was left in {}",
            page.display()
        );
    }
}

#[test]
fn the_test_command_is_what_ci_runs() {
    let text = readme();
    let sh = blocks(&text, "sh").join("");
    assert!(sh.lines().any(|l| l.trim() == "cargo test --release"));
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    assert!(ci.lines().any(|l| {
        let l = l.trim();
        l == "cargo test --release" || l.starts_with("cargo test --release 2>&1 | tee ")
    }));
}

/// Run every `batchgen …` and `cargo run … -- …` line of these `sh` blocks, in order, in `dir`
/// (the headline job's 1,000,000 mazes become 500; CI runs it as written). Each must succeed;
/// returns (line, stdout) per command.
fn run_commands(blocks: &[String], dir: &std::path::Path) -> Vec<(String, String)> {
    let mut ran = Vec::new();
    for block in blocks {
        let joined = block.replace("\\\n", " ");
        for line in joined.lines() {
            let w = words(line);
            let args: Vec<String> = match w.first().map(String::as_str) {
                Some("batchgen") => w[1..].to_vec(),
                Some("cargo") if w.get(1).map(String::as_str) == Some("run") => {
                    let dash = w.iter().position(|x| x == "--").unwrap();
                    w[dash + 1..].to_vec()
                }
                _ => continue,
            };
            // `> FILE` at the end redirects stdout, as the shell would.
            let (args, redirect) = match args.iter().position(|a| a == ">") {
                Some(k) => (args[..k].to_vec(), args.get(k + 1).cloned()),
                None => (args, None),
            };
            let args: Vec<String> = args
                .iter()
                .map(|a| {
                    if a == "1000000" {
                        "500".to_string()
                    } else {
                        a.clone()
                    }
                })
                .collect();
            let out = common::batchgen()
                .args(&args)
                .current_dir(dir)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "README command failed: {line}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            if let Some(file) = redirect {
                std::fs::write(dir.join(file), &out.stdout).unwrap();
            }
            ran.push((line.to_string(), String::from_utf8(out.stdout).unwrap()));
        }
    }
    ran
}

#[test]
fn every_batchgen_command_of_every_page_runs() {
    let mut total = 0;
    for page in common::doc_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        // Each page in its own empty folder, its blocks in order, as a reader would.
        let d = tempfile::tempdir().unwrap();
        // The pages' mask examples name the repository's example masks, as a reader in the
        // repository would.
        let masks = d.path().join("data/masks");
        std::fs::create_dir_all(&masks).unwrap();
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        std::fs::copy(repo.join("data/masks/rooms.txt"), masks.join("rooms.txt")).unwrap();
        total += run_commands(&blocks(&text, "sh"), d.path()).len();
    }
    assert!(total >= 15, "found only {total} commands");
}

#[test]
fn the_quick_start_works_as_written() {
    // The section a newcomer follows, alone, in order, in an empty folder.
    let text = readme();
    let start = text
        .find("## Quick start")
        .expect("README has a quick start");
    let end = start + text[start..].find("\n## ").unwrap();
    let section = &text[start..end];
    let d = tempfile::tempdir().unwrap();
    let ran = run_commands(&blocks(section, "sh"), d.path());
    assert!(
        ran.len() >= 5,
        "the quick start runs {} commands",
        ran.len()
    );
    let summary = &ran
        .iter()
        .find(|(line, _)| line.starts_with("batchgen summary"))
        .expect("the quick start queries its first file")
        .1;
    for algo in ["backtracker 32x32", "kruskal 32x32", "wilson 32x32"] {
        assert!(summary.contains(algo), "summary lacks {algo}:\n{summary}");
    }
    for file in ["first.parquet", "metrics.parquet", "level.parquet"] {
        assert!(
            d.path().join(file).is_file(),
            "the quick start did not write {file}"
        );
    }
    let drawn = &ran.last().unwrap().1;
    assert!(
        drawn.contains('.'),
        "the level is drawn with its solution:\n{drawn}"
    );
}

/// The `text` block that follows `marker` in `text`.
fn block_after(text: &str, marker: &str) -> String {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("the page lacks {marker:?}"));
    blocks(&text[at..], "text").into_iter().next().unwrap()
}

#[test]
fn shown_outputs_are_what_the_commands_print() {
    let text = readme();
    let list = common::batchgen().arg("--list-algos").output().unwrap();
    assert_eq!(
        block_after(&text, "`batchgen --list-algos`"),
        String::from_utf8(list.stdout).unwrap()
    );
    let picture = common::batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "20x6", "--seed", "42", "--index", "17",
        ])
        .args(["--ends", "diameter", "--solution", "--format", "unicode"])
        .output()
        .unwrap();
    assert_eq!(
        block_after(&text, "# batchgen"),
        String::from_utf8(picture.stdout).unwrap(),
        "the picture at the top of the README is what its command draws"
    );
    let drawn = common::batchgen()
        .args([
            "render", "--algo", "wilson", "--size", "12x6", "--seed", "42", "--index", "17",
        ])
        .arg("--solution")
        .output()
        .unwrap();
    assert_eq!(
        block_after(&guide(), "The second command prints:"),
        String::from_utf8(drawn.stdout).unwrap()
    );
}
