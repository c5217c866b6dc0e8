//! `batchgen explore`: its counts equal `batchgen summary --accept` and DuckDB's `WHERE` row for
//! row (NULL-producing filters included), its gallery rows satisfy the filter when regenerated
//! and re-measured (with the file's ends rule), its HTTP server answers bad requests with 400
//! and the CLI's message and survives them (a maze whose random walk would take minutes is one
//! of them), answers connections over its limit 503 (not a reset), closes a request head that
//! drips in slower than its deadline with 408, bad input stops it with exit 2 before serving,
//! Ctrl-C ends it with 130 and it writes nothing; and the page works in headless Chromium. A
//! masked and a braided file are explored with their mazes made as their rows were: the mask
//! the explorer serves (`/api/mask.txt`, offered in the page beside the printed commands) is
//! the file's, and with it saved as `mask.txt` a row's printed `batchgen render` command draws
//! the maze the page shows, holes solid; the header names the mask and the braid chance.
//!
//! The gallery shows the levels `batchgen levels` writes (the first N passing rows by index per
//! (algo, size), DuckDB's `ROW_NUMBER()` over the passing rows), and the generation command the
//! page prints for a file made with any identity flag (seed, ends, entrance/exit, mask, braid,
//! depth, generator parameters, a filter) makes exactly those rows: run, its mazes' hashes are
//! the rows'. A brush that ends on the last bar is open (`>=`), as DuckDB counts it; Back
//! restores the previous filter; a clicked maze's row is shown beside the gallery.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use batchgen::accept::{Accept, Candidate};
use batchgen::explore::{api, data::Table};
use batchgen::metrics::Row;
use batchgen::LevelSpec;

/// Two files in one folder: every generator at 12×12 (corners), and two at 10×8 measured
/// between a farthest pair (`--ends diameter`, another seed).
fn files(dir: &Path) -> PathBuf {
    let d = dir.join("runs");
    std::fs::create_dir(&d).unwrap();
    common::run(
        &d,
        "all.parquet",
        &["--algo", "all", "--size", "12x12", "--count", "1500"],
    );
    common::run(
        &d,
        "diam.parquet",
        &[
            "--algo",
            "wilson,kruskal",
            "--size",
            "10x8",
            "--count",
            "800",
            "--seed",
            "7",
            "--ends",
            "diameter",
        ],
    );
    d
}

/// Filters (batchgen's, DuckDB's spelling): thresholds, strings, sizes, and NULL/NaN makers.
const FILTERS: &[(&str, &str)] = &[
    ("dead_end_share <= 0.3 AND tortuosity >= 1.5", ""),
    ("dead_ends BETWEEN 20 AND 30", ""),
    ("algo IN ('wilson', 'prim') OR solution_length > 30", ""),
    ("width = 10 AND solution_length = diameter", ""),
    ("depth = 1 AND height < 10 AND dead_ends > 15", ""),
    ("solution_length * 0.1 = 3 OR mean_dead_end_length >= 2", ""),
    ("0 / (diameter - diameter) > 1", ""),
    (
        "dead_ends / (diameter - diameter) = 0 / 0 AND junctions < 20",
        "",
    ),
    ("NULL > 1 OR width = 12", ""),
    (
        "1 // (dead_ends - dead_ends) IS NULL AND junctions > 10",
        "TRY(1 // (dead_ends - dead_ends)) IS NULL AND junctions > 10",
    ),
    (
        "NOT (solution_length // (diameter - diameter) = 0) OR straights < 5",
        "NOT (TRY(solution_length // (diameter - diameter)) = 0) OR straights < 5",
    ),
    (
        "solution_length % (diameter - diameter) = 0 OR corridors > 70",
        "TRY(solution_length % (diameter - diameter)) = 0 OR corridors > 70",
    ),
];

type Counts = BTreeMap<(String, String), (u64, u64)>;

/// DuckDB's (total, pass) per (algo, size) for each filter.
fn duckdb_counts(dir: &Path, exprs: &[&str]) -> Vec<Counts> {
    const PY: &str = r#"
import sys, duckdb, json
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
src = sys.argv[1]
for line in sys.stdin:
    e = json.loads(line)
    q = (f"SELECT algo, width || 'x' || height, count(*), count(*) FILTER (WHERE {e}) "
         f"FROM read_parquet('{src}/*.parquet') GROUP BY ALL")
    print(json.dumps(con.execute(q).fetchall()))
"#;
    let mut child = Command::new(common::python())
        .arg("-c")
        .arg(PY)
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for e in exprs {
            writeln!(stdin, "{}", serde_json::Value::String(e.to_string())).unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "duckdb failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Vec<(String, String, u64, u64)> = serde_json::from_str(l).unwrap();
            v.into_iter().map(|(a, s, n, p)| ((a, s), (n, p))).collect()
        })
        .collect()
}

/// The rows of a DuckDB query, as JSON arrays (doubles as strings).
fn duckdb_json(sql: &str) -> Vec<serde_json::Value> {
    const PY: &str = r#"
import sys, duckdb, json
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
rows = con.execute(sys.argv[1]).fetchall()
# Doubles as their shortest round-trip text (serde_json's own parsing may round).
print(json.dumps([[repr(x) if isinstance(x, float) else x for x in r] for r in rows], default=str))
"#;
    let out = Command::new(common::python())
        .args(["-c", PY, sql])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// DuckDB's first `n` rows passing `expr` by index per (algo, size): (algo, size, index),
/// sorted.
fn first_passing_duckdb(dir: &Path, expr: &str, n: u64) -> Vec<(String, String, u64)> {
    let rows = duckdb_json(&format!(
        "SELECT algo, CASE WHEN depth > 1 THEN width || 'x' || height || 'x' || depth \
         ELSE width || 'x' || height END, index FROM (SELECT *, ROW_NUMBER() OVER \
         (PARTITION BY algo, width, height, depth ORDER BY index) AS k \
         FROM read_parquet('{}/**/*.parquet') WHERE {expr}) WHERE k <= {n} ORDER BY ALL",
        dir.display()
    ));
    let mut out = triples(&rows);
    out.sort();
    out
}

/// `[algo, size, index]` arrays as tuples.
fn triples(rows: &[serde_json::Value]) -> Vec<(String, String, u64)> {
    rows.iter()
        .map(|r| {
            (
                r[0].as_str().unwrap().to_string(),
                r[1].as_str().unwrap().to_string(),
                r[2].as_u64().unwrap(),
            )
        })
        .collect()
}

/// (total, pass) per (algo, size) of a list of `{algo, size, total, pass}` objects (an
/// `/api/counts` answer's groups, or the page's `data-*` numbers).
fn counts_of(groups: &serde_json::Value) -> Counts {
    groups
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                (
                    g["algo"].as_str().unwrap().to_string(),
                    g["size"].as_str().unwrap().to_string(),
                ),
                (g["total"].as_u64().unwrap(), g["pass"].as_u64().unwrap()),
            )
        })
        .collect()
}

/// The explorer's (total, pass) per (algo, size), from an `/api/counts` answer.
fn explore_counts(body: &[u8]) -> Counts {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap();
    counts_of(&v["groups"])
}

/// The explorer's (total, pass) per (algo, size) under `expr` (`/api/counts`, which must
/// answer 200).
fn api_counts(table: &Table, expr: &str) -> Counts {
    let r = api::handle(table, "/api/counts", &query(expr));
    assert_eq!(
        r.status,
        200,
        "{expr}: {}",
        String::from_utf8_lossy(&r.body)
    );
    explore_counts(&r.body)
}

/// `batchgen summary --accept`'s (rows, passing) per (algo, size).
fn summary_counts(dir: &Path, expr: &str) -> Counts {
    let out = common::batchgen()
        .args(["summary", "--format", "csv", "--accept", expr])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (a, s, r, p) = (at("algo"), at("size"), at("rows"), at("passing"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                (f[a].to_string(), f[s].to_string()),
                (f[r].parse().unwrap(), f[p].parse().unwrap()),
            )
        })
        .collect()
}

fn query(expr: &str) -> String {
    format!("accept={}", api::url_encode(expr))
}

#[test]
fn counts_equal_summary_and_duckdb_row_for_row() {
    let d = tempfile::tempdir().unwrap();
    let dir = files(d.path());
    let found = batchgen::summary::inputs::resolve(&[dir.display().to_string()]).unwrap();
    let table = Table::open(&found).unwrap();
    let duck: Vec<&str> = FILTERS
        .iter()
        .map(|(a, b)| if b.is_empty() { *a } else { *b })
        .collect();
    let want = duckdb_counts(&dir, &duck);
    for ((expr, _), want) in FILTERS.iter().zip(want) {
        let got = api_counts(&table, expr);
        assert_eq!(got, want, "{expr}: explore vs DuckDB");
        assert_eq!(
            summary_counts(&dir, expr),
            want,
            "{expr}: summary vs DuckDB"
        );
        // The histograms of the same filter count the same passing rows.
        let h = api::handle(&table, "/api/hist", &query(expr));
        let v: serde_json::Value = serde_json::from_slice(&h.body).unwrap();
        for col in v["columns"].as_array().unwrap() {
            for g in col["groups"].as_array().unwrap() {
                let key = (
                    g["algo"].as_str().unwrap().to_string(),
                    g["size"].as_str().unwrap().to_string(),
                );
                let sum = |k: &str| -> u64 {
                    g[k].as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap())
                        .sum()
                };
                assert_eq!(
                    (sum("all"), sum("pass")),
                    got[&key],
                    "{expr}: {}",
                    col["name"]
                );
            }
        }
    }
}

/// Regenerate and re-measure the maze of a `/api/maze.svg` URL: its identifiers and the
/// ends given there; returns the candidate's pass under `accept`.
fn remeasured_pass(url: &str, accept: &Accept) -> bool {
    let (_, q) = url.split_once('?').unwrap();
    let p: BTreeMap<String, String> = api::parse_query(q).unwrap().into_iter().collect();
    let size = batchgen::args::parse_size3("--size", &p["size"]).unwrap();
    let (ends, _) = batchgen::args::resolve_ends_sized(
        p.get("ends").map(String::as_str),
        p.get("entrance").map(String::as_str),
        p.get("exit").map(String::as_str),
        size,
    )
    .unwrap();
    let index: u64 = p["index"].parse().unwrap();
    let seed: u64 = p["seed"].parse().unwrap();
    let level = LevelSpec::new(p["algo"].parse().unwrap(), size, seed, index)
        .ends(ends)
        .build()
        .unwrap();
    let row = Row {
        index,
        metrics: *level.metrics(),
        ..Default::default()
    };
    accept.eval(&Candidate {
        algo: &p["algo"],
        grid: batchgen::topo::Grid::Square,
        size,
        seed,
        row: &row,
    })
}

#[test]
fn gallery_rows_pass_when_regenerated_and_the_sample_is_reproducible() {
    let d = tempfile::tempdir().unwrap();
    let dir = files(d.path());
    let found = batchgen::summary::inputs::resolve(&[dir.display().to_string()]).unwrap();
    let table = Table::open(&found).unwrap();
    // `solution_length = diameter` holds for every maze of the diameter file, and only with its
    // ends rule: a gallery that ignored it would draw corner-to-corner solutions.
    for expr in [
        "dead_end_share <= 0.3 AND tortuosity >= 1.5",
        "width = 10 AND solution_length = diameter AND dead_ends > 18",
        "algo = 'prim' AND solution_turns BETWEEN 5 AND 9",
    ] {
        let accept = Accept::parse(expr).unwrap();
        let a = api::handle(&table, "/api/sample", &format!("{}&n=12", query(expr)));
        let b = api::handle(&table, "/api/sample", &format!("{}&n=12", query(expr)));
        assert_eq!(a.status, 200);
        assert_eq!(a.body, b.body, "the same filter gives the same sample");
        let v: serde_json::Value = serde_json::from_slice(&a.body).unwrap();
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 12.min(v["pass"].as_u64().unwrap() as usize));
        assert!(!rows.is_empty(), "{expr}");
        for r in rows {
            let url = r["svg"].as_str().unwrap();
            assert!(remeasured_pass(url, &accept), "{expr}: {url}");
            let cmd = r["render"].as_str().unwrap();
            assert!(cmd.starts_with("batchgen render --algo"), "{cmd}");
            if r["size"] == "10x8" {
                assert!(cmd.contains("--ends diameter") && url.contains("ends=diameter"));
            }
            // The drawn maze is the row's maze: the SVG answer is well-formed XML.
            let svg = api::handle(&table, "/api/maze.svg", url.split_once('?').unwrap().1);
            assert_eq!(svg.status, 200);
            roxmltree::Document::parse(std::str::from_utf8(&svg.body).unwrap()).unwrap();
        }
    }
    // The command for N levels names the file's ends rule and the filter.
    let r = api::handle(
        &table,
        "/api/counts",
        &format!("{}&count=25", query("dead_ends > 20")),
    );
    let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    let wilson = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["algo"] == "wilson" && g["size"] == "10x8")
        .unwrap();
    assert_eq!(
        wilson["command"],
        "batchgen --algo wilson --size 10x8 --seed 7 --ends diameter --accept 'dead_ends > 20' \
         --count 25 --mazes levels.arrow --out levels.parquet"
    );
}

/// The server, started on `inputs`; its URL read from its first line.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(cwd: &Path, inputs: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_batchgen"))
            .arg("explore")
            .args(inputs)
            .current_dir(cwd)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// Send raw bytes, return (status, headers + body as text).
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.write_all(request).unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        let text = String::from_utf8_lossy(&out).into_owned();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        (status, text)
    }

    fn get(&self, target: &str) -> (u16, String) {
        self.raw(format!("GET {target} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr).as_bytes())
    }

    fn body(&self, target: &str) -> (u16, String) {
        let (s, t) = self.get(target);
        (s, t.split_once("\r\n\r\n").unwrap().1.to_string())
    }

    fn interrupt(mut self) -> (Option<i32>, String) {
        unsafe_kill(self.child.id(), libc::SIGINT);
        let st = self.child.wait().unwrap();
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        (st.code(), err)
    }
}

fn unsafe_kill(pid: u32, sig: i32) {
    // SAFETY: kill(2) on our own child's pid with a valid signal number.
    let r = unsafe { libc::kill(pid as i32, sig) };
    assert_eq!(r, 0);
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_server_answers_bad_requests_with_400_and_the_cli_message() {
    let d = tempfile::tempdir().unwrap();
    let dir = files(d.path());
    let work = d.path().join("cwd");
    std::fs::create_dir(&work).unwrap();
    let srv = Server::start(&work, &[dir.to_str().unwrap()]);
    let (s, page) = srv.get("/");
    assert_eq!(s, 200);
    assert!(page.contains("Content-Security-Policy: default-src 'self'"));
    assert!(page.contains("<script src=\"/app.js\">"));
    assert_eq!(srv.get("/app.js").0, 200);
    // The CLI's own message for a bad filter, and its position.
    let cli = common::batchgen()
        .args(["--color", "never", "summary", "--accept", "dead_ends >"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(cli.status.code(), Some(2));
    let cli_msg = String::from_utf8(cli.stderr).unwrap();
    // The same message, less clap's pointer to `--help`, which means nothing to the page.
    let cli_msg = cli_msg
        .trim_end()
        .trim_end_matches("For more information, try '--help'.")
        .trim_end()
        .strip_prefix("error: ")
        .unwrap();
    let (s, body) = srv.body(&format!("/api/counts?{}", query("dead_ends >")));
    assert_eq!(s, 400);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"].as_str().unwrap(), cli_msg);
    assert_eq!(v["position"], 12);
    // Unescaped user text never comes back: `<` is escaped in the JSON.
    let (s, body) = srv.body(&format!("/api/hist?column={}", api::url_encode("<b>x</b>")));
    assert_eq!(s, 400);
    assert!(
        !body.contains("<b>") && body.contains("\\u003cb\\u003e"),
        "{body}"
    );
    for (target, want) in [
        ("/api/sample?n=1000".to_string(), "for 'n'"),
        (
            "/api/maze.svg?algo=nope&size=8x8&index=1".into(),
            "for '--algo'",
        ),
        (
            "/api/maze.svg?algo=wilson&size=8&index=1".into(),
            "for '--size'",
        ),
        (
            "/api/maze.svg?algo=wilson&size=4000x4000&index=1".into(),
            "at most",
        ),
        (
            "/api/maze.svg?algo=wilson&size=8x8&index=-1".into(),
            "for '--index'",
        ),
        // Few enough cells, but a random walk of about 7e10 steps: refused, not started.
        (
            "/api/maze.svg?algo=aldous-broder&size=262144x1&seed=1&index=0".into(),
            "random walk is expected to take",
        ),
        ("/api/counts?count=0".into(), "for '--count'"),
        ("/api/density?x=dead_ends&y=nope".into(), "for 'y'"),
        ("/api/counts?accept=%zz".into(), "URL-encoded"),
        (
            format!("/api/counts?{}", query(&"(".repeat(200))),
            "nested too deeply",
        ),
        (
            format!("/api/counts?{}", query(&"x".repeat(5000))),
            "longer than",
        ),
    ] {
        let (s, body) = srv.body(&target);
        assert_eq!(s, 400, "{target}: {body}");
        assert!(body.contains(want), "{target}: {body}");
    }
    assert_eq!(srv.get("/../../etc/passwd").0, 404);
    assert_eq!(srv.get("/api/nothing").0, 404);
    assert_eq!(
        srv.raw(b"POST / HTTP/1.1\r\nHost: localhost\r\n\r\n").0,
        405
    );
    // Only its own names are answered: a page elsewhere whose host name was made to resolve
    // here (DNS rebinding) gets nothing.
    let port = srv.addr.rsplit_once(':').unwrap().1;
    for (host, want) in [
        (format!("localhost:{port}"), 200),
        ("LOCALHOST".to_string(), 200),
        (format!("app.localhost:{port}"), 200),
        (format!("127.0.0.1:{port}"), 200),
        (format!("attacker.example:{port}"), 403),
        ("attacker.example".to_string(), 403),
        ("127.0.0.1.attacker.example".to_string(), 403),
        ("[::1]:99".to_string(), 200),
        ("[::1".to_string(), 403),
    ] {
        let req = format!("GET /api/sample?n=2 HTTP/1.1\r\nHost: {host}\r\n\r\n");
        let (status, text) = srv.raw(req.as_bytes());
        assert_eq!(status, want, "Host: {host}: {text}");
    }
    let (status, text) = srv.raw(b"GET /api/sample?n=2 HTTP/1.1\r\n\r\n");
    assert_eq!(status, 403, "no Host header: {text}");
    assert!(text.contains("--allow-remote"), "{text}");
    assert_eq!(srv.raw(b"\x00\x01 garbage\r\n\r\n").0, 400);
    let big = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(20_000));
    assert_eq!(srv.raw(big.as_bytes()).0, 431);
    // A client that connects and goes away does not stop the server either.
    drop(TcpStream::connect(&srv.addr).unwrap());
    let (s, body) = srv.body("/api/maze.svg?algo=wilson&size=8x8&seed=3&index=5");
    assert_eq!(s, 200);
    assert!(
        body.starts_with("<svg") || body.starts_with("<?xml"),
        "{body}"
    );
    assert_eq!(srv.body("/api/columns").0, 200);
    let (code, err) = srv.interrupt();
    assert_eq!(code, Some(130), "{err}");
    // It never writes a file.
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

#[test]
fn connections_over_the_limit_get_503_and_a_dripping_head_times_out() {
    use batchgen::explore::server::{MAX_CONNECTIONS, READ_TIMEOUT};
    use std::time::Duration;
    let d = tempfile::tempdir().unwrap();
    let dir = files(d.path());
    let srv = Server::start(d.path(), &[dir.to_str().unwrap()]);
    // (No request first: one still closing would hold a slot and leave a holder over the
    // limit.) Every slot held by a connection that sends nothing (the server waits on each for its
    // head); those over the limit are read and answered 503, never reset (`raw` unwraps the
    // read, so a reset fails the test).
    let holders: Vec<TcpStream> = (0..MAX_CONNECTIONS)
        .map(|_| TcpStream::connect(&srv.addr).unwrap())
        .collect();
    for _ in 0..5 {
        let (status, text) = srv.get("/api/columns");
        assert_eq!(status, 503, "{text}");
        assert!(text.contains("too many connections"), "{text}");
    }
    // The slots come back when the holders go away.
    drop(holders);
    let mut served = false;
    for _ in 0..100 {
        if srv.get("/").0 == 200 {
            served = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        served,
        "the server never served again after the holders left"
    );
    // A head dripping one byte every 250 ms (far inside any per-read timeout) is closed with
    // 408 once the whole-request deadline passes: well before the drip would end.
    let mut s = TcpStream::connect(&srv.addr).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    s.set_read_timeout(Some(Duration::from_millis(250)))
        .unwrap();
    let drips = 4 * READ_TIMEOUT.as_secs() as usize * 4;
    let mut answer = Vec::new();
    for i in 0..drips {
        if s.write_all(if i % 2 == 0 { b"X" } else { b"y" }).is_err() {
            break;
        }
        let mut buf = [0u8; 4096];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                answer.extend_from_slice(&buf[..n]);
                break;
            }
            Err(_) => {}
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.starts_with("HTTP/1.1 408"),
        "a head dripping for {drips} x 250 ms was not closed with 408: {answer:?}"
    );
    // Still serving.
    assert_eq!(srv.get("/api/columns").0, 200);
}

#[test]
fn bad_input_stops_it_with_exit_2_before_serving() {
    let d = tempfile::tempdir().unwrap();
    let text = d.path().join("notes.parquet");
    std::fs::write(&text, "not parquet").unwrap();
    let good = d.path().join("good.parquet");
    common::run(
        d.path(),
        "good.parquet",
        &["--algo", "wilson", "--size", "6x6", "--count", "10"],
    );
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let glob = format!("{}/none-*.parquet", d.path().display());
    for (args, want) in [
        (vec![text.to_str().unwrap()], "not a readable Parquet file"),
        (vec![glob.as_str()], "no such file"),
        (vec![good.to_str().unwrap(), "--port", &port], "'--port'"),
        (
            vec![good.to_str().unwrap(), "--host", "0.0.0.0"],
            "--allow-remote",
        ),
        (vec![good.to_str().unwrap(), "--host", "nowhere"], "--host"),
    ] {
        let out = common::batchgen()
            .arg("explore")
            .args(&args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing served");
    }
}

/// Debian's Chromium, installed with apt-get when missing (the tests run as root in CI).
/// Several tests (and test processes) drive the page at once: a file lock makes the others wait
/// for the first one's install (two apt-gets at once fail on dpkg's lock), and apt-get itself
/// waits for a dpkg lock held by anyone else.
fn chromium() -> PathBuf {
    crate::common::debian_program("chromium", "chromium")
}

/// Mean and variance of a PNG's luminance.
fn luminance_variance(png_path: &Path) -> f64 {
    let dec = png::Decoder::new(BufReader::new(std::fs::File::open(png_path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let ch = info.color_type.samples();
    let px: Vec<f64> = buf[..info.buffer_size()]
        .chunks(ch)
        .map(|p| (p[0] as f64 + p[1.min(ch - 1)] as f64 + p[2.min(ch - 1)] as f64) / 3.0)
        .collect();
    let mean = px.iter().sum::<f64>() / px.len() as f64;
    px.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / px.len() as f64
}

/// Drive the page of `srv` in headless Chromium (`tests/explore/page.py`, screenshot to
/// `shot`); returns what the script reports.
fn page(srv: &Server, shot: &Path) -> serde_json::Value {
    page_with(srv, shot, &[])
}

/// [`page`] with the script's further arguments (`edge:COLUMN`).
fn page_with(srv: &Server, shot: &Path, more: &[&str]) -> serde_json::Value {
    let out = Command::new(common::python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explore/page.py"))
        .arg(chromium())
        .arg(format!("http://{}", srv.addr))
        .arg(shot)
        .args(more)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "page.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_page_works_in_headless_chromium() {
    let d = tempfile::tempdir().unwrap();
    let dir = files(d.path());
    let srv = Server::start(d.path(), &[dir.to_str().unwrap()]);
    let shot = d.path().join("explore.png");
    let v = page(&srv, &shot);
    assert_eq!(
        v["load_errors"],
        serde_json::json!([]),
        "console errors on load"
    );
    assert_eq!(v["errors"], serde_json::json!([]), "console errors");
    // Every generator's numbers, unfiltered: all rows pass.
    let counts = |k: &str| counts_of(&v[k]);
    let initial = counts("initial");
    assert_eq!(initial.len(), 16);
    assert!(initial.values().all(|(t, p)| t == p));
    let hist: Vec<&str> = v["hist_columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    for c in [
        "dead_ends",
        "dead_end_share",
        "solution_length",
        "tortuosity",
        "gen_ns",
    ] {
        assert!(hist.contains(&c), "{c} in {hist:?}");
    }
    assert!(v["hist_bars"].as_u64().unwrap() > 100);
    // Unfiltered, every (algo, size) has levels: the gallery shows the first of each.
    assert_eq!(v["gallery"], 16);
    assert!(hist.contains(&"solution_twist"), "{hist:?}");
    // The scripted brush gives DuckDB's numbers.
    let brushed = v["brushed_accept"].as_str().unwrap().to_string();
    assert!(brushed.starts_with("dead_ends BETWEEN "), "{brushed}");
    let duck = duckdb_counts(&dir, &[&brushed]).remove(0);
    assert_eq!(counts("brushed"), duck, "{brushed}");
    assert!(
        duck.values().any(|(t, p)| p < t),
        "the brush filters something"
    );
    let url: BTreeMap<String, String> =
        api::parse_query(v["brushed_url"].as_str().unwrap().trim_start_matches('?'))
            .unwrap()
            .into_iter()
            .collect();
    assert_eq!(url["accept"], brushed, "the state is in the URL");
    assert!(
        v["typed_error"]
            .as_str()
            .unwrap()
            .contains("at position 12"),
        "{}",
        v["typed_error"]
    );
    // Back, after another filter, restores the brushed one.
    assert_eq!(v["back_accept"], brushed.as_str());
    assert_eq!(counts("back"), duck);
    let back: BTreeMap<String, String> =
        api::parse_query(v["back_url"].as_str().unwrap().trim_start_matches('?'))
            .unwrap()
            .into_iter()
            .collect();
    assert_eq!(back["accept"], brushed);
    // ?accept= restores the same state.
    assert_eq!(v["restored_accept"], brushed.as_str());
    assert_eq!(counts("restored"), duck);
    assert_eq!(v["brush_drawn"], 1);
    // The gallery's mazes pass the filter when regenerated and re-measured; the near misses
    // do not.
    let accept = Accept::parse(&brushed).unwrap();
    let srcs = v["gallery_src"].as_array().unwrap();
    assert!(!srcs.is_empty());
    for s in srcs {
        assert!(remeasured_pass(s.as_str().unwrap(), &accept), "{s}");
    }
    let near = v["near_src"].as_array().unwrap();
    assert!(!near.is_empty(), "near misses drawn");
    for s in near {
        assert!(!remeasured_pass(s.as_str().unwrap(), &accept), "{s}");
    }
    assert!(v["row_text"]
        .as_str()
        .unwrap()
        .starts_with("batchgen render --algo "));
    // The gallery's levels, three per (algo, size), are the first three passing rows by index
    // of each, in the order `batchgen levels` writes them.
    let want = first_passing_duckdb(&dir, &brushed, 3);
    let got = triples(v["gallery_pairs"].as_array().unwrap());
    let mut sorted = got.clone();
    sorted.sort();
    assert_eq!(
        sorted, want,
        "the gallery's levels are DuckDB's first 3 per group"
    );
    assert!(got.len() > 3 && got.len() <= 3 * 16, "{got:?}");
    let mut seen = Vec::new();
    for w in got.windows(2) {
        // Index order within an (algo, size); the groups follow each other.
        if (&w[0].0, &w[0].1) == (&w[1].0, &w[1].1) {
            assert!(w[0].2 < w[1].2, "{w:?}");
        } else {
            assert!(!seen.contains(&(&w[1].0, &w[1].1)), "{w:?}");
            seen.push((&w[0].0, &w[0].1));
        }
    }
    // The levels command for this selection, shell-quoted.
    assert_eq!(
        v["levels_command"],
        batchgen::shell::join([
            "batchgen",
            "levels",
            dir.to_str().unwrap(),
            "--accept",
            &brushed,
            "--count",
            "100",
            "--format",
            "tmx",
            "--out",
            "levels/"
        ])
    );
    // The picked maze's row in the panel beside it: its values are the file's.
    let panel = &v["row_panel"];
    assert_eq!(panel["hidden"], false, "{panel}");
    assert_eq!(panel["beside"], true, "{panel}");
    let picked = &panel["picked"];
    let values = &panel["values"];
    assert_eq!(values["algo"], picked[0]);
    assert_eq!(values["size"], picked[1]);
    assert_eq!(values["index"].as_str().unwrap(), picked[2].to_string());
    let (w, h) = picked[1].as_str().unwrap().split_once('x').unwrap();
    let row = duckdb_json(&format!(
        "SELECT dead_ends, solution_length, solution_turns, solution_twist, tortuosity \
         FROM read_parquet('{}/*.parquet') WHERE algo = '{}' AND width = {w} AND height = {h} \
         AND index = {}",
        dir.display(),
        picked[0].as_str().unwrap(),
        picked[2]
    ));
    let row = &row[0];
    for (i, c) in [
        "dead_ends",
        "solution_length",
        "solution_turns",
        "solution_twist",
        "tortuosity",
    ]
    .iter()
    .enumerate()
    {
        let shown: f64 = values[c].as_str().unwrap().parse().unwrap();
        let want: f64 = match &row[i] {
            serde_json::Value::String(x) => x.parse().unwrap(),
            x => x.as_f64().unwrap(),
        };
        assert_eq!(shown, want, "{c}");
    }
    // At 1280x800 the first screen holds the pass table and some mazes.
    let first = &v["first_screen"];
    assert_eq!(
        (first["width"].as_u64(), first["height"].as_u64()),
        (Some(1280), Some(800))
    );
    assert!(first["table_bottom"].as_f64().unwrap() <= 800.0, "{first}");
    assert!(first["table_right"].as_f64().unwrap() <= 1280.0, "{first}");
    assert!(first["mazes"].as_u64().unwrap() >= 4, "{first}");
    // A screenshot was written and is not blank.
    let var = luminance_variance(&shot);
    assert!(var > 100.0, "screenshot luminance variance {var}");
    let (code, _) = srv.interrupt();
    assert_eq!(code, Some(130));
}

/// A masked file (`--mask`, the rooms mask) and a braided one (`--braid 0.5`) in one folder.
fn masked_and_braided(dir: &Path) -> (PathBuf, String) {
    let d = dir.join("shaped");
    std::fs::create_dir(&d).unwrap();
    let mask = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/masks/rooms.txt");
    let mask_arg = mask.display().to_string();
    common::run(
        &d,
        "masked.parquet",
        &[
            "--algo",
            "wilson,prim",
            "--mask",
            &mask_arg,
            "--count",
            "400",
            "--seed",
            "3",
        ],
    );
    common::run(
        &d,
        "braided.parquet",
        &[
            "--algo",
            "wilson,kruskal",
            "--size",
            "12x10",
            "--braid",
            "0.5",
            "--count",
            "400",
        ],
    );
    (d, std::fs::read_to_string(mask).unwrap())
}

/// Run a gallery row's `batchgen render` command (with `mask_text`, the mask the explorer
/// serves, saved as `mask.txt`, as the command says) at the explorer's cell size; returns the
/// SVG it writes.
fn render_of(cmd: &str, cwd: &Path, mask_text: &str) -> String {
    std::fs::write(cwd.join("mask.txt"), mask_text).unwrap();
    let words: Vec<String> = cmd
        .split_whitespace()
        .map(|w| w.trim_matches('\'').to_string())
        .collect();
    assert_eq!(words[..2], ["batchgen", "render"], "{cmd}");
    common::batchgen()
        .current_dir(cwd)
        .args(&words[1..])
        .args(["--cell-px", "6"])
        .assert()
        .success();
    std::fs::read_to_string(cwd.join("maze.svg")).unwrap()
}

#[test]
fn masked_and_braided_files_draw_their_rows_mazes() {
    let d = tempfile::tempdir().unwrap();
    let (dir, mask_text) = masked_and_braided(d.path());
    let found = batchgen::summary::inputs::resolve(&[dir.display().to_string()]).unwrap();
    let table = Table::open(&found).unwrap();
    let mask = batchgen::grid::Mask::from_text(&mask_text).unwrap();
    // The groups carry the files' mask and braid chance; the header data names them.
    let v: serde_json::Value =
        serde_json::from_slice(&api::handle(&table, "/api/columns", "").body).unwrap();
    assert_eq!(v["masks"][0]["hash"], mask.hash().to_string());
    assert_eq!(v["masks"][0]["cells"], mask.cells());
    assert_eq!(v["braids"].as_array().unwrap().len(), 2, "{}", v["braids"]);
    // The mask the printed commands' `--mask mask.txt` reads is served as text: the same mask.
    let served = api::handle(&table, "/api/mask.txt", &format!("hash={}", mask.hash()));
    assert_eq!(
        (served.status, served.content_type),
        (200, "text/plain; charset=utf-8")
    );
    let served = String::from_utf8(served.body).unwrap();
    let parsed = batchgen::grid::Mask::from_text(&served).unwrap();
    assert_eq!((parsed.hash(), parsed.cells()), (mask.hash(), mask.cells()));
    for (query, want) in [("hash=12345", "12345"), ("", "missing parameter 'hash'")] {
        let r = api::handle(&table, "/api/mask.txt", query);
        assert_eq!(r.status, 400, "{query}");
        assert!(String::from_utf8_lossy(&r.body).contains(want), "{query}");
    }
    for (size, (hash, braid)) in [
        ("26x14", (mask.hash().to_string(), 0.0)),
        ("12x10", ("0".to_string(), 0.5)),
    ] {
        for g in v["groups"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["size"] == size)
        {
            assert_eq!(
                (
                    g["mask_hash"].as_str().unwrap(),
                    g["braid"].as_f64().unwrap()
                ),
                (hash.as_str(), braid)
            );
        }
    }
    // Every sampled maze is its row's: the drawing equals `batchgen render` of the row, and the
    // regenerated maze has the row's walls hash, loops and cells.
    let sample = api::handle(&table, "/api/sample", "n=16");
    let v: serde_json::Value = serde_json::from_slice(&sample.body).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let sizes: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["size"].as_str().unwrap()).collect();
    assert_eq!(sizes.len(), 2, "both files sampled: {sizes:?}");
    for r in rows {
        let (url, cmd) = (r["svg"].as_str().unwrap(), r["render"].as_str().unwrap());
        let masked = r["size"] == "26x14";
        assert_eq!(url.contains("&mask="), masked, "{url}");
        assert_eq!(cmd.contains("--mask mask.txt"), masked, "{cmd}");
        assert_eq!(
            url.contains("&braid=0.5") && cmd.contains("--braid 0.5"),
            !masked,
            "{cmd}"
        );
        let drawn = api::handle(&table, "/api/maze.svg", url.split_once('?').unwrap().1);
        assert_eq!(
            drawn.status,
            200,
            "{}",
            String::from_utf8_lossy(&drawn.body)
        );
        let drawn = String::from_utf8(drawn.body).unwrap();
        assert_eq!(drawn, render_of(cmd, d.path(), &served), "{cmd}");
        let values = &r["values"];
        if masked {
            assert_eq!(
                (values["cells"].as_u64(), values["loops"].as_u64()),
                (Some(mask.cells() as u64), Some(0))
            );
        } else {
            assert_eq!(values["braid"].as_f64(), Some(0.5), "{values}");
        }
    }
    // A mask hash no file has is refused, naming it.
    let bad = api::handle(
        &table,
        "/api/maze.svg",
        "algo=wilson&size=26x14&index=0&mask=12345",
    );
    assert_eq!(bad.status, 400);
    assert!(String::from_utf8_lossy(&bad.body).contains("12345"));
    // In the page: the header says the mask and the braid chance, and a picked maze is the
    // render of its row.
    let srv = Server::start(d.path(), &[dir.to_str().unwrap()]);
    let v = page(&srv, &d.path().join("shaped.png"));
    assert_eq!(v["errors"], serde_json::json!([]), "console errors");
    let about = v["about"].as_str().unwrap();
    assert!(
        about.contains(&format!(
            "mask 26x14 ({} cells, hash {})",
            mask.cells(),
            mask.hash()
        )),
        "{about}"
    );
    assert!(about.ends_with(" · braid 0.5"), "{about}");
    let cmd = v["row_text"]
        .as_str()
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    // The picked maze is a masked one, and the page offers its mask beside the command: saved
    // under the name offered, it makes the command draw the page's maze.
    assert!(cmd.contains("--mask mask.txt"), "{cmd}");
    let offered = &v["row_mask"];
    assert_eq!(offered["download"], "mask.txt", "{offered}");
    let offered = offered["text"].as_str().unwrap();
    assert_eq!(offered, served);
    assert_eq!(
        v["picked_svg"].as_str().unwrap(),
        render_of(&cmd, d.path(), offered),
        "{cmd}"
    );
    // The generate command's mask is offered when, and only when, it says `--mask`.
    let command = v["command"].as_str().unwrap();
    assert_eq!(
        v["command_mask"].is_null(),
        !command.contains("--mask mask.txt"),
        "{command}: {}",
        v["command_mask"]
    );
    if !v["command_mask"].is_null() {
        assert_eq!(v["command_mask"]["text"], served);
    }
    let (code, _) = srv.interrupt();
    assert_eq!(code, Some(130));
}

/// Files made with every identity flag at a value other than its default, one (algo, size)
/// each, and a shard that does not start at index 0.
fn identity_files(dir: &Path) -> (PathBuf, String) {
    let d = dir.join("made");
    std::fs::create_dir(&d).unwrap();
    let mask = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/masks/rooms.txt");
    let mask_arg = mask.display().to_string();
    let runs: &[(&str, &[&str])] = &[
        (
            "seed",
            &["--algo", "wilson", "--size", "9x7", "--seed", "777"],
        ),
        (
            "ends",
            &[
                "--algo", "kruskal", "--size", "8x8", "--ends", "diameter", "--seed", "5",
            ],
        ),
        (
            "entrance",
            &[
                "--algo",
                "prim",
                "--size",
                "8x6",
                "--entrance",
                "1,0",
                "--exit",
                "6,4",
            ],
        ),
        (
            "mask",
            &["--algo", "wilson", "--mask", &mask_arg, "--seed", "3"],
        ),
        (
            "braid",
            &[
                "--algo", "kruskal", "--size", "10x10", "--braid", "0.3", "--seed", "11",
            ],
        ),
        (
            "depth",
            &["--algo", "backtracker", "--size", "5x4x3", "--seed", "9"],
        ),
        (
            "straight",
            &["--algo", "wilson-straight:0.7", "--size", "8x8"],
        ),
        (
            "mix",
            &[
                "--algo",
                "growing-tree:mix:0.25",
                "--size",
                "7x9",
                "--seed",
                "13",
            ],
        ),
        (
            "filtered",
            &[
                "--algo",
                "eller",
                "--size",
                "8x8",
                "--accept",
                "dead_ends >= 17",
            ],
        ),
        (
            "shard",
            &["--algo", "sidewinder", "--size", "8x8", "--shard", "2/2"],
        ),
    ];
    for (name, args) in runs {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--count", "240"]);
        common::run(&d, &format!("{name}.parquet"), &all);
    }
    (d, std::fs::read_to_string(mask).unwrap())
}

#[test]
fn the_gallery_is_the_levels_and_the_printed_command_makes_them() {
    let d = tempfile::tempdir().unwrap();
    let (dir, mask_text) = identity_files(d.path());
    let found = batchgen::summary::inputs::resolve(&[dir.display().to_string()]).unwrap();
    let mut table = Table::open(&found).unwrap();
    table.inputs = vec![dir.display().to_string()];
    // The twist column is its definition, on 2D, 3D, masked and braided rows alike.
    let off = duckdb_json(&format!(
        "SELECT count(*) FROM read_parquet('{}/*.parquet') WHERE solution_twist IS DISTINCT \
         FROM (CASE WHEN solution_length > 1 THEN solution_turns / (solution_length - 1) \
         ELSE 0 END) OR solution_twist NOT BETWEEN 0 AND 1",
        dir.display()
    ));
    assert_eq!(off[0][0], 0, "solution_twist differs from its definition");
    let n = 6u64;
    for expr in [
        "solution_length >= 9",
        "dead_end_share <= 0.3 AND solution_twist >= 0.4",
    ] {
        let want = first_passing_duckdb(&dir, expr, n);
        // The gallery: `/api/levels` with `per` = N is every level of the command.
        let r = api::handle(
            &table,
            "/api/levels",
            &format!("{}&count={n}&per={n}", query(expr)),
        );
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        let mut got = Vec::new();
        for g in v["groups"].as_array().unwrap() {
            let idx: Vec<u64> = g["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["index"].as_u64().unwrap())
                .collect();
            assert!(idx.windows(2).all(|w| w[0] < w[1]), "{expr}: {idx:?}");
            assert_eq!(idx.len() as u64, g["levels"].as_u64().unwrap());
            for i in idx {
                got.push((
                    g["algo"].as_str().unwrap().to_string(),
                    g["size"].as_str().unwrap().to_string(),
                    i,
                ));
            }
        }
        got.sort();
        assert_eq!(got, want, "{expr}: gallery vs DuckDB");
        assert!(got.len() > 40, "{expr}: {}", got.len());
        // Each printed generation command makes those rows' mazes.
        let counts = api::handle(&table, "/api/counts", &format!("{}&count={n}", query(expr)));
        let c: serde_json::Value = serde_json::from_slice(&counts.body).unwrap();
        assert_eq!(
            c["levels_command"],
            batchgen::shell::join([
                "batchgen",
                "levels",
                dir.to_str().unwrap(),
                "--accept",
                expr,
                "--count",
                &n.to_string(),
                "--format",
                "tmx",
                "--out",
                "levels/",
            ])
        );
        // That command (as JSON lines instead of maps) writes exactly the gallery's levels,
        // group by group in index order.
        let jsonl = d.path().join("levels.jsonl");
        let _ = std::fs::remove_file(&jsonl);
        let out = crate::common::batchgen()
            .args(["levels", dir.to_str().unwrap(), "--accept", expr, "--count"])
            .arg(n.to_string())
            .args(["--format", "jsonl", "--out", jsonl.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{expr}: batchgen levels: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut written: Vec<(String, String, u64)> = std::fs::read_to_string(&jsonl)
            .unwrap()
            .lines()
            .map(|line| {
                let l: serde_json::Value = serde_json::from_str(line).unwrap();
                let (w, h, z) = (&l["width"], &l["height"], l["depth"].as_u64().unwrap());
                let size = if z > 1 {
                    format!("{w}x{h}x{z}")
                } else {
                    format!("{w}x{h}")
                };
                (
                    l["algo"].as_str().unwrap().to_string(),
                    size,
                    l["index"].as_u64().unwrap(),
                )
            })
            .collect();
        written.sort();
        assert_eq!(written, got, "{expr}: batchgen levels vs the gallery");
        for g in c["groups"].as_array().unwrap() {
            let (algo, size) = (g["algo"].as_str().unwrap(), g["size"].as_str().unwrap());
            if algo == "sidewinder" {
                // The second half of a run: no generation run starts there.
                assert!(g["command"].is_null(), "{g}");
                assert!(
                    g["command_note"].as_str().unwrap().contains("indices"),
                    "{g}"
                );
                continue;
            }
            let cmd = g["command"].as_str().unwrap_or_else(|| panic!("{g}"));
            let rows: Vec<(u64, String)> = duckdb_json(&format!(
                "SELECT index, maze_hash FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY index) AS k \
                 FROM read_parquet('{}/*.parquet') WHERE algo = '{algo}' AND \
                 (CASE WHEN depth > 1 THEN width || 'x' || height || 'x' || depth \
                 ELSE width || 'x' || height END) = '{size}' AND ({expr})) WHERE k <= {n} \
                 ORDER BY index",
                dir.display()
            ))
            .iter()
            .map(|r| {
                (
                    r[0].as_u64().unwrap(),
                    r[1].to_string().trim_matches('"').to_string(),
                )
            })
            .collect();
            assert!(!rows.is_empty(), "{expr}: {algo} {size}");
            let work = d
                .path()
                .join(format!("run-{}", api::url_encode(&format!("{algo}{size}"))));
            let _ = std::fs::remove_dir_all(&work);
            std::fs::create_dir(&work).unwrap();
            std::fs::write(work.join("mask.txt"), &mask_text).unwrap();
            let words = batchgen::shell::split(cmd).unwrap();
            assert_eq!(words[0], "batchgen", "{cmd}");
            common::batchgen()
                .current_dir(&work)
                .args(&words[1..])
                .arg("--quiet")
                .assert()
                .success();
            let made = common::read(&work.join("levels.parquet"));
            let (ic, hc) = (made.col("index"), made.col("maze_hash"));
            let made: Vec<(u64, String)> = made
                .rows
                .iter()
                .take(rows.len())
                .map(|r| (r[ic].parse().unwrap(), r[hc].clone()))
                .collect();
            assert_eq!(made, rows, "{expr}: {cmd}");
            for (flag, file) in [
                ("--seed 777", "9x7"),
                ("--ends diameter", "8x8"),
                ("--entrance 1,0 --exit 6,4", "8x6"),
                ("--mask mask.txt", "26x14"),
                ("--braid 0.3", "10x10"),
            ] {
                if size == file && (file != "8x8" || algo == "kruskal") {
                    assert!(cmd.contains(flag), "{cmd}");
                }
            }
            if algo == "eller" {
                assert!(cmd.contains("--accept '(dead_ends >= 17) AND ("), "{cmd}");
            }
        }
    }
}

/// A file whose solution lengths reach far beyond the histogram's range: a few 40×40 mazes
/// beside many 12×12 ones.
fn long_tail(dir: &Path) -> PathBuf {
    let d = dir.join("tail");
    std::fs::create_dir(&d).unwrap();
    common::run(
        &d,
        "small.parquet",
        &[
            "--algo",
            "wilson,kruskal",
            "--size",
            "12x12",
            "--count",
            "1500",
        ],
    );
    common::run(
        &d,
        "big.parquet",
        &["--algo", "wilson", "--size", "40x40", "--count", "30"],
    );
    d
}

#[test]
fn a_brush_to_the_last_bar_keeps_the_rows_beyond_it() {
    let d = tempfile::tempdir().unwrap();
    let dir = long_tail(d.path());
    let found = batchgen::summary::inputs::resolve(&[dir.display().to_string()]).unwrap();
    let table = Table::open(&found).unwrap();
    let h = api::handle(&table, "/api/hist", "column=solution_length");
    let h: serde_json::Value = serde_json::from_slice(&h.body).unwrap();
    let col = &h["columns"][0];
    let top = col["lo"].as_f64().unwrap()
        + col["bins"].as_f64().unwrap() * col["width"].as_f64().unwrap();
    let beyond = duckdb_json(&format!(
        "SELECT count(*) FROM read_parquet('{}/*.parquet') WHERE solution_length >= {top}",
        dir.display()
    ));
    assert!(
        beyond[0][0].as_u64().unwrap() > 0,
        "rows beyond the last bar ({top})"
    );
    let srv = Server::start(d.path(), &[dir.to_str().unwrap()]);
    let v = page_with(&srv, &d.path().join("edge.png"), &["edge:solution_length"]);
    assert_eq!(v["errors"], serde_json::json!([]), "console errors");
    let accept = v["accept"].as_str().unwrap();
    let lo = accept
        .strip_prefix("solution_length >= ")
        .unwrap_or_else(|| panic!("an open brush: {accept}"));
    assert_eq!(v["label"].as_str().unwrap().trim(), format!("≥ {lo}"));
    let duck = duckdb_counts(&dir, &[accept]).remove(0);
    assert_eq!(counts_of(&v["counts"]), duck, "{accept}");
    // The 40×40 mazes, all beyond the last bar, pass.
    assert_eq!(duck[&("wilson".to_string(), "40x40".to_string())], (30, 30));
    let accept = Accept::parse(accept).unwrap();
    for s in v["near_src"].as_array().unwrap() {
        assert!(!remeasured_pass(s.as_str().unwrap(), &accept), "{s}");
    }
    let (code, _) = srv.interrupt();
    assert_eq!(code, Some(130));
}

#[test]
fn rows_of_several_runs_under_one_generator_get_no_generation_command() {
    let d = tempfile::tempdir().unwrap();
    for seed in ["1", "2"] {
        common::run(
            d.path(),
            &format!("s{seed}.parquet"),
            &[
                "--algo", "wilson", "--size", "6x6", "--count", "50", "--seed", seed,
            ],
        );
    }
    let found = batchgen::summary::inputs::resolve(&[d.path().display().to_string()]).unwrap();
    let table = Table::open(&found).unwrap();
    let r = api::handle(&table, "/api/counts", "count=5");
    let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    let g = &v["groups"][0];
    assert!(g["command"].is_null(), "{g}");
    let note = g["command_note"].as_str().unwrap();
    assert!(note.contains("seeds 1 and 2"), "{note}");
    // The levels are still the first rows by index, both runs together.
    let r = api::handle(&table, "/api/levels", "count=5&per=5");
    let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    let idx: Vec<u64> = v["groups"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    assert_eq!(idx, [0, 0, 1, 1, 2]);
}

/// A file of another grid, its ends given as cells: the gallery's mazes are drawn on that grid
/// (polygons, the solution as long as the row's), the row's render command carries `--grid`
/// and the ends and draws the same maze and solution, the printed levels command is one that format takes, and the generation command
/// carries `--grid`: it makes the same mazes, whose store `render --store` draws as the row's
/// render command does and `Level::from_store` reads back.
#[test]
fn grid_files_are_explored_with_their_grids_mazes() {
    // Cells of both grids: X,Y on the 7x5 hex grid, RING,I on the 4-ring polar one.
    const ENDS: [&str; 4] = ["--entrance", "1,1", "--exit", "2,3"];
    let d = tempfile::tempdir().unwrap();
    for (grid, size) in [("hex", "7x5"), ("polar", "4")] {
        let file = d.path().join(format!("{grid}.parquet"));
        common::batchgen()
            .args([
                "--grid",
                grid,
                "--size",
                size,
                "--algo",
                "wilson,prim",
                "--count",
                "6",
            ])
            .args(ENDS)
            .args(["--seed", "5", "--quiet", "--out"])
            .arg(&file)
            .assert()
            .success();
        let table = Table::open(std::slice::from_ref(&file)).unwrap();
        let a = api::handle(&table, "/api/sample", "n=8");
        assert_eq!(a.status, 200);
        let v: serde_json::Value = serde_json::from_slice(&a.body).unwrap();
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 8);
        for r in rows {
            let url = r["svg"].as_str().unwrap();
            assert!(url.contains(&format!("&grid={grid}")), "{url}");
            let (path, q) = url.split_once('?').unwrap();
            let m = api::handle(&table, path, q);
            let svg = String::from_utf8(m.body).unwrap();
            assert_eq!(m.status, 200, "{svg}");
            assert!(svg.contains(r#"id="walls""#) && svg.contains(r#"class="exit""#));
            let steps = svg
                .split(r#"id="solution" d=""#)
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .matches('L')
                .count();
            assert_eq!(
                Some(steps as u64),
                r["values"]["solution_length"].as_u64(),
                "{url}"
            );
            let render = r["render"].as_str().unwrap();
            assert!(render.contains(&format!("--grid {grid}")), "{render}");
            let out = d.path().join("r.svg");
            let words: Vec<&str> = render.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "-o").unwrap();
            common::batchgen()
                .args(&words[1..at])
                .arg("-o")
                .arg(&out)
                .assert()
                .success();
            let drawn = std::fs::read_to_string(&out).unwrap();
            let walls = |s: &str| s.split(r#"id="walls""#).count();
            assert_eq!(walls(&drawn), walls(&svg));
            assert!(drawn.contains(r#"id="solution""#), "{render}");
            assert!(
                render.contains("--entrance") && render.contains("--exit"),
                "{render}"
            );
            // The same path in another scale: as many steps as the row's solution.
            let path = drawn.split(r#"id="solution" d=""#).nth(1).unwrap();
            let path = path.split('"').next().unwrap();
            assert_eq!(path.matches('L').count(), steps, "{render}");
        }
        let c = api::handle(&table, "/api/counts", "");
        let text = String::from_utf8(c.body).unwrap();
        assert_eq!(c.status, 200, "{text}");
        let want = if grid == "hex" {
            "--format tmx"
        } else {
            "--format json"
        };
        assert!(text.contains(want), "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let command = v["groups"][0]["command"].as_str().unwrap().to_string();
        assert!(command.contains(&format!("--grid {grid}")), "{command}");
        assert!(command.contains("--mazes levels.arrow"), "{command}");
        let run = d.path().join(format!("run-{grid}"));
        std::fs::create_dir(&run).unwrap();
        let words: Vec<&str> = command.split_whitespace().collect();
        common::batchgen()
            .current_dir(&run)
            .args(&words[1..])
            .arg("--quiet")
            .assert()
            .success();
        let store = batchgen::store::StoreReader::open(&run.join("levels.arrow")).unwrap();
        let algo = store.algos()[0].clone();
        let level = batchgen::Level::from_store(&store, 2).unwrap();
        assert_eq!(level.grid().name(), grid);
        let again = batchgen::MazeId::from_store(&store, 2)
            .unwrap()
            .level()
            .unwrap();
        assert_eq!(level.maze_hash(), again.maze_hash());
        assert_eq!(level.solution(), again.solution());
        let from_store = run.join("store.svg");
        common::batchgen()
            .arg("render")
            .arg("--store")
            .arg(run.join("levels.arrow"))
            .args(["--record", "2", "--solution", "-o"])
            .arg(&from_store)
            .assert()
            .success();
        let regenerated = run.join("regenerated.svg");
        common::batchgen()
            .args(["render", "--grid", grid, "--size", size, "--algo", &algo])
            .args(ENDS)
            .args(["--seed", "5", "--index", "2", "--solution", "-o"])
            .arg(&regenerated)
            .assert()
            .success();
        assert_eq!(
            std::fs::read(&from_store).unwrap(),
            std::fs::read(&regenerated).unwrap(),
            "{command}"
        );
    }
}

/// `grid` filters the same rows in the explorer, `batchgen summary --accept` and DuckDB over a
/// folder of square, hex and triangle files (DuckDB reads the square file's missing `grid`
/// column as NULL under `union_by_name`: `coalesce(grid, 'square')` is batchgen's `grid`), and
/// `batchgen levels --accept` writes the first passing rows DuckDB numbers.
#[test]
fn grid_filters_agree_in_explore_summary_levels_and_duckdb() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("runs");
    std::fs::create_dir(&dir).unwrap();
    for (name, args) in [
        ("sq", &["--size", "6x6", "--algo", "wilson,prim"][..]),
        (
            "hex",
            &["--grid", "hex", "--size", "7x5", "--algo", "wilson,prim"],
        ),
        (
            "tri",
            &["--grid", "triangle", "--size", "6x4", "--algo", "prim"],
        ),
    ] {
        common::run(
            &dir,
            &format!("{name}.parquet"),
            &[args, &["--count", "80", "--seed", "9"]].concat(),
        );
    }
    let found = batchgen::summary::inputs::resolve(&[dir.display().to_string()]).unwrap();
    let table = Table::open(&found).unwrap();
    let src = format!(
        "read_parquet('{}/*.parquet', union_by_name = true)",
        dir.display()
    );
    let g = "coalesce(grid, 'square')";
    for expr in [
        "grid = 'hex'",
        "grid <> 'square' AND dead_ends > 6",
        "grid IN ('triangle', 'square') OR algo = 'prim'",
        "grid = 'hexagon' OR dead_ends < 5",
        "grid > 'hex' AND NOT grid = algo",
    ] {
        let sql = expr.replace("grid", g);
        let rows = duckdb_json(&format!(
            "SELECT algo, width || 'x' || height, count(*), count(*) FILTER (WHERE {sql}) \
             FROM {src} GROUP BY ALL"
        ));
        let want: Counts = rows
            .iter()
            .map(|r| {
                (
                    (r[0].as_str().unwrap().into(), r[1].as_str().unwrap().into()),
                    (r[2].as_u64().unwrap(), r[3].as_u64().unwrap()),
                )
            })
            .collect();
        assert_eq!(want.len(), 5, "{expr}: {want:?}");
        assert_eq!(api_counts(&table, expr), want, "{expr}: explore vs DuckDB");
        assert_eq!(
            summary_counts(&dir, expr),
            want,
            "{expr}: summary vs DuckDB"
        );
        let passing: u64 = want.values().map(|c| c.1).sum();
        if passing == 0 {
            continue;
        }
        let first = duckdb_json(&format!(
            "SELECT algo, width || 'x' || height, index FROM (SELECT *, ROW_NUMBER() OVER \
             (PARTITION BY algo, width, height ORDER BY index) AS k FROM {src} WHERE {sql}) \
             WHERE k <= 3 ORDER BY ALL"
        ));
        let out = d.path().join("levels.jsonl");
        common::batchgen()
            .args([
                "levels", "--accept", expr, "--count", "3", "--format", "jsonl", "--out",
            ])
            .arg(&out)
            .arg(&dir)
            .assert()
            .success();
        let mut got: Vec<(String, String, u64)> = std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let size = format!("{}x{}", v["width"], v["height"]);
                (
                    v["algo"].as_str().unwrap().into(),
                    size,
                    v["index"].as_u64().unwrap(),
                )
            })
            .collect();
        got.sort();
        assert_eq!(got, triples(&first), "{expr}: levels vs DuckDB");
    }
}
