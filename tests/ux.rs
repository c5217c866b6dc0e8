//! The conventions a user expects of a command-line tool, run through the real binary:
//! completions and man pages, `--version` with the seeding scheme, `--color`, one output flag
//! name (`-o/--out`), machine-readable output (`--summary-json`, `list-algos --format json`),
//! the main job's closing table, and the uniformity report's width and verdicts.

use crate::common;

use common::batchgen;
use predicates::str::contains;
use serde_json::Value;

fn stdout(args: &[&str]) -> String {
    let a = batchgen().args(args).assert().success();
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

#[test]
fn completions_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef batchgen"),
        ("fish", "complete -c batchgen"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let text = stdout(&["completions", shell]);
        assert!(text.contains(marker), "{shell}: {marker} missing");
        // Subcommands and their flags are all known to the script.
        for word in ["render", "uniformity", "summary-json", "list-algos"] {
            assert!(text.contains(word), "{shell} script lacks {word}");
        }
    }
}

#[test]
fn man_pages_on_stdout_and_to_a_file() {
    let page = stdout(&["man"]);
    assert!(
        page.contains(".TH batchgen 1"),
        "{}",
        &page[..200.min(page.len())]
    );
    assert!(page.contains("\\-\\-summary\\-json"));
    assert!(page.contains("batchgen\\-render(1)"));
    let render = stdout(&["man", "render"]);
    assert!(render.contains(".TH batchgen-render 1"), "{render}");
    assert!(render.contains("\\-\\-out"));
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("batchgen.1");
    batchgen()
        .args(["man", "-o"])
        .arg(&f)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read_to_string(&f).unwrap(), page);
    batchgen()
        .args(["man", "nosuch"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'nosuch' for 'SUBCOMMAND'"))
        .stderr(contains("render"));
}

#[test]
fn version_names_the_seeding_scheme() {
    let v = stdout(&["--version"]);
    assert_eq!(
        v,
        format!(
            "batchgen {} (seeding scheme {})\n",
            env!("CARGO_PKG_VERSION"),
            batchgen::rng::SEEDING_SCHEME
        )
    );
    assert_eq!(v, "batchgen 0.1.0 (seeding scheme 2)\n");
}

#[test]
fn bad_values_exit_2_naming_flag_and_value() {
    for (args, needles) in [
        (
            vec!["--color", "sometimes", "list-algos"],
            vec!["--color", "sometimes"],
        ),
        (
            vec!["list-algos", "--color=rainbow"],
            vec!["--color", "rainbow"],
        ),
        (
            vec!["list-algos", "--format", "yaml"],
            vec!["--format", "yaml"],
        ),
        (vec!["completions", "tcsh"], vec!["tcsh", "SHELL"]),
    ] {
        let mut a = batchgen().args(&args).assert().code(2);
        for n in needles {
            a = a.stderr(contains(n));
        }
    }
}

#[test]
fn color_only_when_asked_or_on_a_terminal() {
    // A pipe is not a terminal: no escape codes unless --color always.
    let plain = batchgen()
        .args(["--entrance", "0,99", "--out", "x"])
        .assert()
        .code(2);
    let text = String::from_utf8(plain.get_output().stderr.clone()).unwrap();
    assert!(
        text.starts_with("error: ") && !text.contains('\x1b'),
        "{text}"
    );
    for args in [
        &["--color", "always", "--entrance", "0,99", "--out", "x"][..],
        &["--entrance", "0,99", "--color=always", "--out", "x"][..],
    ] {
        batchgen()
            .args(args)
            .env("NO_COLOR", "1")
            .assert()
            .code(2)
            .stderr(contains(
                "\x1b[1;31merror:\x1b[0m invalid value '0,99' for '--entrance'",
            ));
    }
    // The global flag works before and after a subcommand.
    let a = stdout(&["--color", "never", "list-algos"]);
    let b = stdout(&["list-algos", "--color", "never"]);
    assert_eq!(a, b);
}

#[test]
fn list_algos_as_json() {
    let v: Value = serde_json::from_str(&stdout(&["list-algos", "--format", "json"])).unwrap();
    let list = v["algorithms"].as_array().unwrap();
    let all = batchgen::Algorithm::all();
    assert_eq!(list.len(), all.len());
    for (j, a) in list.iter().zip(&all) {
        assert_eq!(j["name"], a.name());
        assert_eq!(j["uniform"], a.is_uniform());
        assert_eq!(j["texture"], a.description());
    }
    // Text stays the default, and the same as --list-algos.
    assert_eq!(stdout(&["list-algos"]), stdout(&["--list-algos"]));
    assert_eq!(
        stdout(&["list-algos", "--format", "text"]),
        stdout(&["--list-algos"])
    );
}

#[test]
fn summary_json_to_a_file_and_to_stdout() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.parquet");
    let js = d.path().join("run.json");
    let a = batchgen()
        .args([
            "--algo",
            "kruskal,binary-tree",
            "--size",
            "9x7",
            "--count",
            "321",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--summary-json")
        .arg(&js)
        .assert()
        .success();
    assert!(a.get_output().stdout.is_empty());
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&js).unwrap()).unwrap();
    assert_eq!(v["batchgen_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["seeding_scheme"], batchgen::rng::SEEDING_SCHEME);
    assert!(v["command_line"].as_str().unwrap().contains("--count 321"));
    assert_eq!(v["size"], "9x7");
    let gens = v["generators"].as_array().unwrap();
    assert_eq!(gens.len(), 2);
    assert_eq!(gens[0]["name"], "kruskal");
    assert_eq!(gens[1]["name"], "binary-tree");
    for g in gens {
        assert_eq!(g["mazes"], 321);
        assert_eq!(g["candidates"], 321);
        assert!(g["seconds"].as_f64().unwrap() > 0.0);
        assert!(g["mazes_per_second"].as_f64().unwrap() > 0.0);
    }
    let outputs = v["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0]["kind"], "parquet");
    assert_eq!(outputs[0]["path"], out.display().to_string());
    let size = std::fs::metadata(&out).unwrap().len();
    assert_eq!(outputs[0]["bytes"], size);
    assert_eq!(v["totals"]["mazes"], 642);
    assert_eq!(v["totals"]["bytes"], size);
    assert_eq!(common::read(&out).rows.len(), 642);

    // `-`: the document is stdout (the table stays on stderr); a dataset folder lists each
    // generator's own files.
    let ds = d.path().join("ds/");
    let a = batchgen()
        .args(["--algo", "wilson,prim", "--size", "6x6", "--count", "50"])
        .arg("--out")
        .arg(&ds)
        .arg("--mazes")
        .arg(d.path().join("ms/"))
        .args(["--summary-json", "-"])
        .assert()
        .success()
        .stderr(contains("generator"));
    let v: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert_eq!(v["outputs"].as_array().unwrap().len(), 4);
    let mut total = 0;
    for g in v["generators"].as_array().unwrap() {
        assert_eq!(g["mazes"], 50);
        for key in ["out", "store"] {
            let p = g[key]["path"].as_str().unwrap();
            let size = std::fs::metadata(p).unwrap().len();
            assert_eq!(g[key]["bytes"], size, "{p}");
            assert!(p.contains(&format!("algo={}", g["name"].as_str().unwrap())));
            total += size;
        }
    }
    assert_eq!(v["totals"]["bytes"], total);
}

#[test]
fn summary_json_is_checked_before_the_run() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.parquet");
    batchgen()
        .args(["--algo", "wilson", "--size", "4x4", "--count", "5"])
        .arg("--out")
        .arg(&out)
        .arg("--summary-json")
        .arg(d.path().join("missing/run.json"))
        .assert()
        .code(2)
        .stderr(contains("--summary-json"))
        .stderr(contains("does not exist"));
    batchgen()
        .args(["--algo", "wilson", "--size", "4x4", "--count", "5"])
        .arg("--out")
        .arg(&out)
        .arg("--summary-json")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains("--summary-json"));
    assert!(!out.exists());
}

#[test]
fn the_run_ends_with_a_table_per_generator() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.parquet");
    let a = batchgen()
        .args([
            "--algo",
            "backtracker,eller,fractal",
            "--size",
            "8x8",
            "--count",
            "1200",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with("generator") && lines[0].contains("mazes/s"),
        "{err}"
    );
    for (line, name) in lines[1..4].iter().zip(["backtracker", "eller", "fractal"]) {
        assert!(line.starts_with(name) && line.contains(" 1,200 "), "{err}");
    }
    assert!(
        lines[4].starts_with("total") && lines[4].contains("3,600"),
        "{err}"
    );
    assert!(lines[5].starts_with("wrote 3,600 mazes (8x8)"), "{err}");
    assert!(lines.iter().all(|l| l.chars().count() <= 100), "{err}");
    // No progress bar outside a terminal: nothing but the table and the closing line.
    assert_eq!(lines.len(), 6, "{err}");
    batchgen()
        .args([
            "--algo", "fractal", "--size", "8x8", "--count", "10", "--quiet",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stderr("");
}

#[test]
fn render_writes_with_o_out_and_the_old_output() {
    let d = tempfile::tempdir().unwrap();
    let base = ["render", "--algo", "prim", "--size", "7x5", "--index", "3"];
    let shown = stdout(&base);
    for flag in ["-o", "--out", "--output"] {
        let f = d.path().join(format!("m{flag}.txt"));
        batchgen()
            .args(base)
            .arg(flag)
            .arg(&f)
            .assert()
            .success()
            .stdout("");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), shown, "{flag}");
    }
    // `--output` is not advertised.
    let help = stdout(&["render", "--help"]);
    assert!(
        help.contains("-o, --out <FILE>") && !help.contains("--output"),
        "{help}"
    );
}

#[test]
fn every_command_that_writes_takes_o_and_out() {
    // The main job, plot and man take `-o` exactly as `--out`; render is tested above.
    let d = tempfile::tempdir().unwrap();
    let run = |flag: &str, name: &str| {
        let f = d.path().join(name);
        batchgen()
            .args(["--algo", "kruskal", "--size", "6x4", "--count", "20", "-q"])
            .arg(flag)
            .arg(&f)
            .assert()
            .success();
        std::fs::read(&f).unwrap().len()
    };
    assert!(run("-o", "a.parquet") > 0 && run("--out", "b.parquet") > 0);
    let plots = d.path().join("plots");
    batchgen()
        .arg("plot")
        .arg(d.path().join("a.parquet"))
        .arg("-o")
        .arg(&plots)
        .assert()
        .success();
    assert!(
        std::fs::read_dir(&plots).unwrap().count() > 0,
        "plot -o wrote pictures"
    );
    for cmd in ["--help", "plot --help", "man --help", "render --help"] {
        let help = stdout(&cmd.split(' ').collect::<Vec<_>>());
        assert!(help.contains("-o, --out <"), "{cmd}: {help}");
    }
}

#[test]
fn uniformity_fits_100_columns_with_a_verdict_per_generator() {
    let text = stdout(&["uniformity", "--size", "2x3", "--samples", "20000"]);
    for l in text.lines() {
        assert!(l.chars().count() <= 100, "{} chars: {l}", l.chars().count());
    }
    assert!(!text.contains('\x1b'));
    let verdicts = text
        .split("Verdict per generator:\n")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    for a in batchgen::Algorithm::all() {
        let line = verdicts
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", a.name())))
            .unwrap_or_else(|| panic!("no verdict for {}\n{verdicts}", a.name()));
        let want = if a.is_uniform() {
            "uniform: every maze equally likely — passes"
        } else {
            "biased: "
        };
        assert!(line.contains(want), "{line}");
    }
    // Exact verdicts state the ratio: Kruskal's most likely maze is 360/300 = 1.2× the least.
    assert!(
        verdicts.contains("biased: the most likely maze is 1.2× as likely as the least (exact)")
    );
    for term in ["τ (tau)", "p·τ", "TV (total variation", "Bonferroni"] {
        assert!(text.contains(term), "legend lacks {term}");
    }
    // The exact numbers are still there.
    assert!(text.contains("3/70 ≈ 0.0429"));
    let coloured = stdout(&[
        "uniformity",
        "--size",
        "2x2",
        "--samples",
        "100",
        "--color",
        "always",
    ]);
    assert!(coloured.contains("\x1b[1;32muniform\x1b[0m"), "{coloured}");
    assert!(coloured.contains("\x1b[1;31mbiased\x1b[0m"), "{coloured}");
}

/// The stderr of a run expected to fail with exit status 2.
fn refused(args: &[&str]) -> String {
    let a = batchgen().args(args).assert().code(2);
    String::from_utf8(a.get_output().stderr.clone()).unwrap()
}

#[test]
fn completions_offer_the_generator_names() {
    for shell in ["bash", "zsh", "fish"] {
        let text = stdout(&["completions", shell]);
        for f in &batchgen::generate::FAMILIES {
            assert!(text.contains(f.name), "{shell} script lacks {}", f.name);
        }
        // Choices are choices, not file names.
        for word in ["diameter", "unicode", "csv"] {
            assert!(text.contains(word), "{shell} script lacks {word}");
        }
    }
}

#[test]
fn slips_get_a_did_you_mean() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("x.parquet");
    let out = out.to_str().unwrap();
    for (args, needles) in [
        (
            vec!["--algo", "wilsn", "--out", out],
            vec!["'wilsn'", "--algo", "did you mean 'wilson'?"],
        ),
        (
            vec!["--algo", "kruskal,Wilson", "--out", out],
            vec!["'Wilson'", "did you mean 'wilson'?"],
        ),
        (
            vec!["--accept", "dead_end_shar <= 0.3", "--out", out],
            vec!["--accept", "did you mean 'dead_end_share'?"],
        ),
        (
            vec!["--accept", "algo == \"wilson\"", "--out", out],
            vec!["strings take single quotes ('wilson')"],
        ),
        // What the shell passes for an unquoted `--accept solution_length >= 10`.
        (
            vec!["--accept", "solution_length", "10", "--out", out],
            vec!["--accept 'solution_length >= 10'", "quoted"],
        ),
        (vec!["rendr"], vec!["'rendr'", "'render'"]),
        (vec!["summry", "x.parquet"], vec!["'summary'"]),
    ] {
        let err = refused(&args);
        for n in needles {
            assert!(err.contains(n), "{args:?}: no {n:?} in\n{err}");
        }
    }
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn counts_as_people_type_them() {
    let d = tempfile::tempdir().unwrap();
    for (count, rows) in [("1e3", 1000), ("1,200", 1200), ("2^9", 512)] {
        let t = common::run(
            d.path(),
            "c.parquet",
            &["--algo", "kruskal", "--size", "4×4", "--count", count],
        );
        assert_eq!(t.rows.len(), rows, "{count}");
    }
    let out = d.path().join("big.parquet");
    let out = out.to_str().unwrap();
    let e = refused(&["--count", "2^64", "--out", out]);
    assert!(e.contains("'2^64'") && e.contains("too large"), "{e}");
    let e = refused(&["--count", "1.5", "--out", out]);
    assert!(e.contains("not a whole number"), "{e}");
    // One generator's count fits, the run's total does not: refused, never wrapped.
    let e = refused(&["--count", "18446744073709551615", "--out", out]);
    assert!(
        e.contains("too large") && e.contains("14 generators"),
        "{e}"
    );
    assert!(!std::path::Path::new(out).exists());
}

/// The main job's help page and every subcommand's.
fn help_pages() -> Vec<Vec<&'static str>> {
    let mut pages = vec![vec![]];
    for sub in [
        "render",
        "summary",
        "plot",
        "check",
        "uniformity",
        "list-algos",
        "completions",
        "man",
        "explore",
        "levels",
    ] {
        pages.push(vec![sub]);
    }
    pages
}

#[test]
fn every_help_line_fits_100_columns() {
    for page in help_pages() {
        for flag in ["-h", "--help"] {
            let a = batchgen()
                .args(&page)
                .arg(flag)
                .env("COLUMNS", "100")
                .assert()
                .success();
            let text = String::from_utf8(a.get_output().stdout.clone()).unwrap();
            for line in text.lines() {
                assert!(
                    line.chars().count() <= 100,
                    "{page:?} {flag}: {} columns: {line}",
                    line.chars().count()
                );
            }
            if flag == "-h" && page.is_empty() {
                // The main job's usage shows --out as required.
                assert!(
                    text.contains("batchgen [OPTIONS] --out <FILE|DIR/>"),
                    "{text}"
                );
            }
        }
    }
    // One line per subcommand in the command list.
    let top = stdout(&["-h"]);
    let list: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(list.len() >= 8, "{top}");
    assert!(list.iter().all(|l| l.starts_with("  ")), "{list:?}");
}

/// The option blocks of a `--help` page: each flag's or argument's lines, joined.
fn option_blocks(text: &str) -> Vec<String> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let starts = (2..=6).contains(&indent)
            && (t.starts_with("--") || t.starts_with('<') || t.starts_with('-'))
            && !t.starts_with("- ");
        if starts && indent <= 6 && !line.starts_with("          ") {
            blocks.push(vec![t]);
            open = true;
        } else if !line.starts_with(' ') && !line.is_empty() {
            open = false;
        } else if open {
            blocks.last_mut().unwrap().push(t);
        }
    }
    blocks.into_iter().map(|b| b.join(" ")).collect()
}

#[test]
fn no_default_is_printed_twice() {
    // The parser sees a flag's whole text, so a doubled default cannot hide.
    let sample =
        "Options:\n      --cells <N>\n          Cells (default 60)\n          \n          \
                  [default: 60]\n\n  -h, --help\n          Print help\n";
    let blocks = option_blocks(sample);
    assert_eq!(blocks.len(), 2, "{blocks:?}");
    assert!(blocks[0].contains("(default 60)") && blocks[0].contains("[default: 60]"));
    let mut seen = 0;
    for page in help_pages() {
        let a = batchgen()
            .args(&page)
            .arg("--help")
            .env("COLUMNS", "100")
            .assert()
            .success();
        let text = String::from_utf8(a.get_output().stdout.clone()).unwrap();
        for block in option_blocks(&text) {
            // clap's `[default: …]` and a hand-written "default" in the same flag's text.
            let Some(at) = block.find("[default: ") else {
                continue;
            };
            seen += 1;
            let end = at + block[at..].find(']').unwrap();
            let rest = format!("{}{}", &block[..at], &block[end + 1..]);
            assert!(
                !rest.to_lowercase().contains("default"),
                "{page:?}: the default is given twice: {block}"
            );
            assert_eq!(block.matches("[default: ").count(), 1, "{block}");
        }
    }
    assert!(seen >= 10, "clap's defaults found: {seen}");
}

#[test]
fn non_utf8_paths_work_for_every_reader() {
    use std::os::unix::ffi::OsStrExt;
    let d = tempfile::tempdir().unwrap();
    let name = |s: &[u8]| d.path().join(std::ffi::OsStr::from_bytes(s));
    let file = name(b"m\xff.parquet");
    batchgen()
        .args(["--algo", "kruskal", "--size", "5x5", "--count", "20", "-q"])
        .arg("--out")
        .arg(&file)
        .assert()
        .success();
    let a = batchgen().arg("summary").arg(&file).assert().success();
    assert!(String::from_utf8_lossy(&a.get_output().stdout).contains("kruskal"));
    let pics = name(b"pics\xfe");
    batchgen()
        .arg("plot")
        .arg(&file)
        .arg("--out")
        .arg(&pics)
        .assert()
        .success();
    assert!(pics.join("hist_dead_ends.svg").is_file());
    let ds = name(b"ds\xfd/");
    batchgen()
        .args(["--algo", "kruskal", "--size", "5x5", "--count", "20", "-q"])
        .arg("--out")
        .arg(&ds)
        .assert()
        .success();
    batchgen()
        .arg("check")
        .arg(&ds)
        .assert()
        .success()
        .stdout(contains("complete"));
}

#[test]
fn a_misleading_output_extension_is_warned_about() {
    let d = tempfile::tempdir().unwrap();
    let csv = d.path().join("a.csv");
    let store = d.path().join("m.parquet");
    let a = batchgen()
        .args(["--algo", "kruskal", "--size", "4x4", "--count", "5", "-q"])
        .arg("--out")
        .arg(&csv)
        .arg("--mazes")
        .arg(&store)
        .assert()
        .success();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("warning: --out") && err.contains(".csv"),
        "{err}"
    );
    assert!(
        err.contains("warning: --mazes") && err.contains("Arrow"),
        "{err}"
    );
    assert_eq!(common::read(&csv).rows.len(), 5);
    // The right extensions: no warning.
    let a = batchgen()
        .args(["--algo", "kruskal", "--size", "4x4", "--count", "5", "-q"])
        .arg("--out")
        .arg(d.path().join("b.parquet"))
        .arg("--mazes")
        .arg(d.path().join("b.arrow"))
        .assert()
        .success();
    assert!(!String::from_utf8_lossy(&a.get_output().stderr).contains("warning"));
    // Every subcommand calls its text format `table`.
    assert_eq!(
        stdout(&["list-algos", "--format", "table"]),
        stdout(&["list-algos"])
    );
}

#[test]
fn man_writes_every_page_into_a_folder() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("man1/");
    batchgen().args(["man", "-o"]).arg(&dir).assert().success();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    for sub in ["render", "summary", "plot", "check", "uniformity"] {
        let name = format!("batchgen-{sub}.1");
        assert!(names.contains(&name), "{names:?}");
        let page = std::fs::read_to_string(dir.join(&name)).unwrap();
        assert_eq!(page, stdout(&["man", sub]), "{name}");
    }
    assert!(names.contains(&"batchgen.1".to_string()));
    assert!(names.iter().all(|n| n.ends_with(".1")), "{names:?}");
}
