//! The README is the front door, so it must stay true: its SQL and pandas snippets are the files
//! the interop test runs, its test command is the one CI runs, and every `batchgen` command it
//! shows runs successfully (the main job with a smaller `--count`; CI runs it as written).

mod common;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
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

#[test]
fn snippets_are_the_files_the_tests_run() {
    let text = readme();
    let sql = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/per_algo_stats.sql"
    ))
    .unwrap();
    let py = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/per_algo_stats.py"
    ))
    .unwrap();
    assert!(
        blocks(&text, "sql").contains(&sql),
        "README's SQL block must equal data/per_algo_stats.sql"
    );
    assert!(
        blocks(&text, "python").contains(&py),
        "README's pandas block must equal data/per_algo_stats.py"
    );
    assert!(
        !text.contains("README_"),
        "a placeholder was left in the README"
    );
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
fn every_batchgen_command_in_the_readme_runs() {
    let d = tempfile::tempdir().unwrap();
    let ran = run_commands(&blocks(&readme(), "sh"), d.path());
    assert!(ran.len() >= 5, "found only {} commands", ran.len());
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

/// The `text` block that follows `marker` in the README.
fn block_after(text: &str, marker: &str) -> String {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("README lacks {marker:?}"));
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
        block_after(&text, "The second command prints:"),
        String::from_utf8(drawn.stdout).unwrap()
    );
}
