//! The explorer's JSON API: one function from a request path and query to a response, with no
//! network in it (the server only moves bytes). Parameters are checked with the CLI's own
//! parsers, so a bad one gives HTTP 400 with the message the command line would print.
//!
//! | path | answer |
//! |---|---|
//! | `/api/columns` | rows, files, generators, groups and the numeric columns (name, integer, metric, filterable) |
//! | `/api/counts?accept=E&count=N` | per (algo, size): total, pass, share, candidates per accepted maze with a 95% interval, the command for N such levels |
//! | `/api/hist?column=C&accept=E` | bins and per (algo, size) all-rows and passing counts; without `column`, every metric column |
//! | `/api/density?x=C&y=C&accept=E[&algo=A]` | a 2D histogram of two columns: all rows and passing rows |
//! | `/api/sample?accept=E&n=K` | a reproducible random sample of K ≤ 100 passing rows with their identifiers and values |
//! | `/api/maze.svg?algo=A&size=S&seed=X&index=I[&ends=diameter or &entrance=X,Y&exit=X,Y][&mask=H][&braid=P]` | the maze drawn with its solution: on the files' mask of hash `H` (holes solid), braided with chance `P` |

use std::fmt::Write as _;

use super::data::{Group, Selection, Table};
use crate::accept::Accept;
use crate::args::{parse_count, parse_size3, ArgError, DEFAULT_SEED};
use crate::generate::Algorithm;
use crate::level::LevelSpec;

/// Longest accept expression accepted, bytes.
pub const MAX_EXPR: usize = 4096;
/// Most rows one sample returns.
pub const MAX_SAMPLE: usize = 100;
/// Most cells of a maze drawn on request.
pub const MAX_MAZE_CELLS: u64 = 512 * 512;
/// Pixels per cell of the drawn mazes.
const CELL_PX: u32 = 6;

/// An HTTP answer.
#[derive(Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// MIME type.
    pub content_type: &'static str,
    /// Body.
    pub body: Vec<u8>,
}

impl Response {
    fn json(body: String) -> Response {
        Response {
            status: 200,
            content_type: "application/json",
            body: body.into_bytes(),
        }
    }

    /// A JSON error `{"error": message}` (with `position`, the 1-based character of an accept
    /// error, when known).
    pub fn error(status: u16, message: &str, position: Option<usize>) -> Response {
        let mut s = format!("{{\"error\":{}", json_str(message));
        if let Some(p) = position {
            let _ = write!(s, ",\"position\":{p}");
        }
        s.push('}');
        Response {
            status,
            content_type: "application/json",
            body: s.into_bytes(),
        }
    }
}

/// A JSON string literal, with `<`, `>` and `&` escaped too, so that it is safe inside HTML.
pub fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::uniformity::json::write_str(&mut out, s);
    // After JSON escaping these characters can only be the input's own.
    out.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// A JSON number (`null` for NaN and infinities, which JSON lacks).
fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".into()
    }
}

fn json_list(v: &[u64]) -> String {
    let mut s = String::with_capacity(v.len() * 4 + 2);
    s.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{x}");
    }
    s.push(']');
    s
}

/// `%XX` and `+` decoded; `None` when the bytes are not UTF-8 or an escape is broken.
pub fn url_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let h = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(h, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// A query string's parameters, decoded.
pub fn parse_query(q: &str) -> Result<Vec<(String, String)>, String> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            match (url_decode(k), url_decode(v)) {
                (Some(k), Some(v)) => Ok((k, v)),
                _ => Err(format!(
                    "the query parameter '{k}' is not valid URL-encoded UTF-8"
                )),
            }
        })
        .collect()
}

/// (algo, size) keys: what the counts and histograms are reported by.
struct Keys {
    /// Distinct (algo, size) in first-seen order, with the first group of each.
    keys: Vec<(String, String, usize)>,
    /// Group → key.
    of_group: Vec<usize>,
}

fn keys(t: &Table) -> Keys {
    let mut keys: Vec<(String, String, usize)> = Vec::new();
    let mut of_group = Vec::new();
    for (g, grp) in t.groups.iter().enumerate() {
        let size = grp.size.to_string();
        let k = match keys.iter().position(|k| k.0 == grp.algo && k.1 == size) {
            Some(k) => k,
            None => {
                keys.push((grp.algo.clone(), size, g));
                keys.len() - 1
            }
        };
        of_group.push(k);
    }
    Keys { keys, of_group }
}

/// Sum per-group rows of `n` values into per-key rows.
fn by_key(k: &Keys, per_group: &[u64], n: usize) -> Vec<Vec<u64>> {
    let mut out = vec![vec![0u64; n]; k.keys.len()];
    for (g, &key) in k.of_group.iter().enumerate() {
        for (o, x) in out[key].iter_mut().zip(&per_group[g * n..(g + 1) * n]) {
            *o += x;
        }
    }
    out
}

/// The CLI flags that reproduce a file's ends rule (its `batchgen.ends` metadata): nothing for
/// the default corners, `--ends diameter`, or `--entrance X,Y --exit X,Y`.
pub fn ends_flags(rule: &str, size: crate::grid::Size) -> Vec<(String, String)> {
    if rule.starts_with("diameter") {
        return vec![("ends".into(), "diameter".into())];
    }
    let mut it = rule.split_whitespace();
    let (Some(a), Some(b)) = (
        it.next().and_then(|t| t.strip_prefix("entrance=")),
        it.next().and_then(|t| t.strip_prefix("exit=")),
    ) else {
        return Vec::new();
    };
    let last = size.coords(size.cells() - 1);
    let last = if size.is_3d() {
        format!("{},{},{}", last.0, last.1, last.2)
    } else {
        format!("{},{}", last.0, last.1)
    };
    let first = if size.is_3d() { "0,0,0" } else { "0,0" };
    if a == first && b == last {
        return Vec::new();
    }
    vec![("entrance".into(), a.into()), ("exit".into(), b.into())]
}

/// The parameters beyond the ends that remake group `g`'s mazes: its mask's hash (the mask
/// itself is the file's `batchgen.mask`, held by the explorer) and its braid chance.
fn made_with(g: &Group) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if let Some(m) = &g.mask {
        out.push(("mask", m.hash().to_string()));
    }
    if g.braid > 0.0 {
        out.push(("braid", g.braid.to_string()));
    }
    out
}

/// The command-line flags beyond the ends for group `g`: `--mask mask.txt` (the file's
/// `batchgen.mask` saved as `mask.txt`) and `--braid P`.
fn made_with_flags(g: &Group) -> String {
    let mut c = String::new();
    if g.mask.is_some() {
        c.push_str(" --mask mask.txt");
    }
    if g.braid > 0.0 {
        let _ = write!(c, " --braid {}", g.braid);
    }
    c
}

/// The command that makes `count` levels of group `g` passing `accept`.
fn generate_command(g: &Group, accept: Option<&str>, count: u64) -> String {
    let mut c = format!(
        "batchgen --algo {} --size {}",
        crate::shell::quote(&g.algo),
        g.size
    );
    for (k, v) in ends_flags(&g.ends, g.size) {
        let _ = write!(c, " --{k} {}", crate::shell::quote(&v));
    }
    c.push_str(&made_with_flags(g));
    if let Some(a) = accept {
        let _ = write!(c, " --accept {}", crate::shell::quote(a));
    }
    let _ = write!(
        c,
        " --count {count} --mazes levels.arrow --out levels.parquet"
    );
    c
}

/// The `batchgen render` command that draws row `(g, index)`.
fn render_command(g: &Group, index: u64) -> String {
    let mut c = format!(
        "batchgen render --algo {} --size {} --seed {} --index {index}",
        crate::shell::quote(&g.algo),
        g.size,
        g.seed
    );
    for (k, v) in ends_flags(&g.ends, g.size) {
        let _ = write!(c, " --{k} {}", crate::shell::quote(&v));
    }
    c.push_str(&made_with_flags(g));
    c.push_str(" --solution -o maze.svg");
    c
}

/// Wilson's 95% interval for a proportion `k / n`.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

struct Params(Vec<(String, String)>);

impl Params {
    fn get(&self, k: &str) -> Option<&str> {
        self.0.iter().find(|p| p.0 == k).map(|p| p.1.as_str())
    }
}

type Answer = Result<Response, Response>;

fn bad(e: impl std::fmt::Display) -> Response {
    Response::error(400, &e.to_string(), None)
}

/// The flag as the command line's errors name it (clap adds the value's placeholder), so a
/// bad filter reads the same in the page as in `batchgen summary --accept`.
const ACCEPT_FLAG: &str = "--accept <EXPR>";

/// The filter of `accept=` (`None` when absent or blank: every row passes).
fn accept_of(p: &Params) -> Result<Option<Accept>, Response> {
    let Some(e) = p.get("accept").filter(|e| !e.trim().is_empty()) else {
        return Ok(None);
    };
    if e.len() > MAX_EXPR {
        return Err(bad(ArgError::new(
            ACCEPT_FLAG,
            &e[..e.char_indices().nth(40).map_or(e.len(), |c| c.0)],
            format!("longer than {MAX_EXPR} bytes"),
        )));
    }
    Accept::parse(e).map(Some).map_err(|err| {
        let col = e[..err.pos.min(e.len())].chars().count() + 1;
        Response::error(
            400,
            &ArgError::new(ACCEPT_FLAG, e, &err).to_string(),
            Some(col),
        )
    })
}

fn selection(t: &Table, a: Option<&Accept>) -> Result<Option<std::sync::Arc<Selection>>, Response> {
    match a {
        None => Ok(None),
        Some(a) => t.select(a).map(Some).map_err(bad),
    }
}

fn column_of(t: &Table, p: &Params, key: &str) -> Result<usize, Response> {
    let name = p
        .get(key)
        .ok_or_else(|| bad(format!("missing parameter '{key}'")))?;
    t.column_index(name).ok_or_else(|| {
        let names: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
        bad(format!(
            "invalid value '{name}' for '{key}': no such numeric column (columns: {})",
            names.join(", ")
        ))
    })
}

/// Answer one API request (`path` without the query, `query` without the `?`).
pub fn handle(t: &Table, path: &str, query: &str) -> Response {
    let p = match parse_query(query) {
        Ok(p) => Params(p),
        Err(e) => return bad(e),
    };
    let r = match path {
        "/api/columns" => Ok(columns(t)),
        "/api/counts" => counts(t, &p),
        "/api/hist" => hist(t, &p),
        "/api/density" => density(t, &p),
        "/api/sample" => sample(t, &p),
        "/api/maze.svg" => maze(t, &p),
        _ => Err(Response::error(
            404,
            &format!("no such API path '{path}'"),
            None,
        )),
    };
    r.unwrap_or_else(|e| e)
}

fn columns(t: &Table) -> Response {
    let mut s = format!(
        "{{\"rows\":{},\"files\":{},\"algos\":[",
        t.rows,
        t.files.len()
    );
    let k = keys(t);
    let mut algos: Vec<&str> = Vec::new();
    for key in &k.keys {
        if !algos.contains(&key.0.as_str()) {
            algos.push(&key.0);
        }
    }
    for (i, a) in algos.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&json_str(a));
    }
    s.push_str("],\"groups\":[");
    for (i, (algo, size, g)) in k.keys.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let total: u64 = t
            .groups
            .iter()
            .zip(&k.of_group)
            .filter(|(_, &kk)| kk == i)
            .map(|(g, _)| g.rows)
            .sum();
        let grp = &t.groups[*g];
        let _ = write!(
            s,
            "{{\"algo\":{},\"size\":{},\"seed\":{},\"ends\":{},\"mask_hash\":{},\
             \"braid\":{},\"total\":{total}}}",
            json_str(algo),
            json_str(size),
            grp.seed,
            json_str(&grp.ends),
            json_str(&grp.mask.as_ref().map_or(0, |m| m.hash()).to_string()),
            json_num(grp.braid)
        );
    }
    // The masks and braid chances of the files, for the page's header (hashes as strings:
    // JavaScript numbers hold 53 bits).
    let (mut masks, mut braids): (Vec<&crate::grid::Mask>, Vec<f64>) = (Vec::new(), Vec::new());
    for g in &t.groups {
        if let Some(m) = g
            .mask
            .as_deref()
            .filter(|m| !masks.iter().any(|x| x.hash() == m.hash()))
        {
            masks.push(m);
        }
        if !braids.contains(&g.braid) {
            braids.push(g.braid);
        }
    }
    s.push_str("],\"masks\":[");
    for (i, m) in masks.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"hash\":{},\"size\":{},\"cells\":{}}}",
            json_str(&m.hash().to_string()),
            json_str(&m.size().to_string()),
            m.cells()
        );
    }
    s.push_str("],\"braids\":[");
    for (i, b) in braids.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&json_num(*b));
    }
    s.push_str("],\"columns\":[");
    for (i, c) in t.columns.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let filterable = c.known.is_some_and(|k| {
            !matches!(
                crate::accept::COLUMNS[k].filter,
                crate::metrics::Filter::Refused(_)
            )
        });
        let doc = c.known.map_or("", |k| crate::accept::COLUMNS[k].doc);
        let _ = write!(
            s,
            "{{\"name\":{},\"integer\":{},\"metric\":{},\"filterable\":{filterable},\"doc\":{}}}",
            json_str(&c.name),
            c.integer,
            c.metric,
            json_str(doc)
        );
    }
    s.push_str("]}");
    Response::json(s)
}

fn counts(t: &Table, p: &Params) -> Answer {
    let a = accept_of(p)?;
    let count = match p.get("count") {
        None => 100,
        Some(c) => match parse_count("--count", c).map_err(bad)? {
            0 => {
                return Err(bad(ArgError::new(
                    "--count",
                    c,
                    "expected at least 1 level",
                )))
            }
            n => n,
        },
    };
    let sel = selection(t, a.as_ref())?;
    let k = keys(t);
    let total: Vec<u64> = t.groups.iter().map(|g| g.rows).collect();
    let pass: Vec<u64> = sel.as_ref().map_or(total.clone(), |s| s.pass.clone());
    let (tk, pk) = (by_key(&k, &total, 1), by_key(&k, &pass, 1));
    let mut s = format!(
        "{{\"accept\":{},\"groups\":[",
        a.as_ref().map_or("null".into(), |a| json_str(a.source()))
    );
    for (i, (algo, size, g)) in k.keys.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let (n, x) = (tk[i][0], pk[i][0]);
        let (lo, hi) = wilson(x, n);
        let share = if n > 0 { x as f64 / n as f64 } else { 0.0 };
        let cand = |q: f64| {
            if q > 0.0 {
                json_num(1.0 / q)
            } else {
                "null".into()
            }
        };
        let _ = write!(
            s,
            "{{\"algo\":{},\"size\":{},\"total\":{n},\"pass\":{x},\"share\":{},\
             \"candidates\":{},\"candidates_low\":{},\"candidates_high\":{},\"command\":{}}}",
            json_str(algo),
            json_str(size),
            json_num(share),
            cand(share),
            cand(hi),
            cand(lo),
            json_str(&generate_command(
                &t.groups[*g],
                a.as_ref().map(|a| a.source()),
                count
            ))
        );
    }
    s.push_str("]}");
    Ok(Response::json(s))
}

fn hist(t: &Table, p: &Params) -> Answer {
    let a = accept_of(p)?;
    let cols: Vec<usize> = match p.get("column") {
        Some(_) => vec![column_of(t, p, "column")?],
        None => (0..t.columns.len())
            .filter(|&c| t.columns[c].metric)
            .collect(),
    };
    let sel = selection(t, a.as_ref())?;
    let hists = match &sel {
        Some(sel) => Some(t.pass_histograms(&cols, sel).map_err(bad)?),
        None => {
            for &c in &cols {
                t.column(c).map_err(bad)?;
            }
            None
        }
    };
    let k = keys(t);
    let mut s = String::from("{\"columns\":[");
    for (i, &c) in cols.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let l = t.column(c).map_err(bad)?;
        let n = l.bins.n;
        let all = by_key(&k, &l.all, n);
        let pass = match &hists {
            Some(h) => by_key(&k, &h[i], n),
            None => all.clone(),
        };
        let _ = write!(
            s,
            "{{\"name\":{},\"integer\":{},\"lo\":{},\"width\":{},\"bins\":{n},\"groups\":[",
            json_str(&t.columns[c].name),
            t.columns[c].integer,
            json_num(l.bins.lo),
            json_num(l.bins.width)
        );
        for (j, (algo, size, _)) in k.keys.iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                "{{\"algo\":{},\"size\":{},\"all\":{},\"pass\":{}}}",
                json_str(algo),
                json_str(size),
                json_list(&all[j]),
                json_list(&pass[j])
            );
        }
        s.push_str("]}");
    }
    s.push_str("]}");
    Ok(Response::json(s))
}

fn density(t: &Table, p: &Params) -> Answer {
    let a = accept_of(p)?;
    let (cx, cy) = (column_of(t, p, "x")?, column_of(t, p, "y")?);
    let algo = p.get("algo").filter(|a| !a.is_empty());
    if let Some(name) = algo {
        if !t.algos.iter().any(|a| a == name) {
            return Err(bad(ArgError::new(
                "--algo",
                name,
                format!("no such generator in these files ({})", t.algos.join(", ")),
            )));
        }
    }
    let sel = selection(t, a.as_ref())?;
    let (lx, ly) = (t.column(cx).map_err(bad)?, t.column(cy).map_err(bad)?);
    let (nx, ny) = (lx.bins.n, ly.bins.n);
    let mut all = vec![0u64; nx * ny];
    let mut pass = vec![0u64; nx * ny];
    for run in &t.runs {
        if algo.is_some_and(|a| t.groups[run.group].algo != a) {
            continue;
        }
        for r in run.start..run.end {
            let cell = ly.bins.of(ly.values.get(r)) * nx + lx.bins.of(lx.values.get(r));
            all[cell] += 1;
            let ok = sel
                .as_ref()
                .is_none_or(|s| s.bits[r / 64] >> (r % 64) & 1 == 1);
            pass[cell] += ok as u64;
        }
    }
    let axis = |c: usize, l: &super::data::Loaded| {
        format!(
            "{{\"name\":{},\"integer\":{},\"lo\":{},\"width\":{},\"bins\":{}}}",
            json_str(&t.columns[c].name),
            t.columns[c].integer,
            json_num(l.bins.lo),
            json_num(l.bins.width),
            l.bins.n
        )
    };
    Ok(Response::json(format!(
        "{{\"x\":{},\"y\":{},\"all\":{},\"pass\":{}}}",
        axis(cx, lx),
        axis(cy, ly),
        json_list(&all),
        json_list(&pass)
    )))
}

fn sample(t: &Table, p: &Params) -> Answer {
    let a = accept_of(p)?;
    let n = match p.get("n") {
        None => 12,
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if n <= MAX_SAMPLE => n,
            _ => {
                return Err(bad(ArgError::new(
                    "n",
                    v,
                    format!("expected a whole number from 0 to {MAX_SAMPLE}"),
                )))
            }
        },
    };
    let sel = match &a {
        Some(a) => t.select(a).map_err(bad)?,
        None => t
            .select(&Accept::parse("TRUE").expect("valid"))
            .map_err(bad)?,
    };
    let key = a.as_ref().map_or("", |a| a.source());
    let rows = t.sample(&sel, n, key);
    let passing: u64 = sel.pass.iter().sum();
    let index_col = t.column_index("index");
    let mut s = format!("{{\"pass\":{passing},\"rows\":[");
    for (i, &r) in rows.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let g = &t.groups[t.group_of(r)];
        let index = match index_col {
            Some(c) => t.column(c).map_err(bad)?.values.get(r) as u64,
            None => return Err(bad("these files have no 'index' column")),
        };
        let mut svg = format!(
            "/api/maze.svg?algo={}&size={}&seed={}&index={index}",
            url_encode(&g.algo),
            g.size,
            g.seed
        );
        for (k, v) in ends_flags(&g.ends, g.size) {
            let _ = write!(svg, "&{k}={}", url_encode(&v));
        }
        for (k, v) in made_with(g) {
            let _ = write!(svg, "&{k}={}", url_encode(&v));
        }
        let _ = write!(
            s,
            "{{\"row\":{r},\"algo\":{},\"size\":{},\"seed\":{},\"index\":{index},\
             \"svg\":{},\"render\":{},\"values\":{{",
            json_str(&g.algo),
            json_str(&g.size.to_string()),
            g.seed,
            json_str(&svg),
            json_str(&render_command(g, index))
        );
        for (j, (name, v)) in t.row_values(r).iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                "{}:{}",
                json_str(name),
                v.map_or("null".into(), json_num)
            );
        }
        s.push_str("}}");
    }
    s.push_str("]}");
    Ok(Response::json(s))
}

/// Percent-encode everything but unreserved characters.
pub fn url_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

fn maze(t: &Table, p: &Params) -> Answer {
    let need = |k: &str| {
        p.get(k)
            .ok_or_else(|| bad(format!("missing parameter '{k}'")))
    };
    let name = need("algo")?;
    let algo = Algorithm::parse(name).map_err(|e| bad(ArgError::new("--algo", name, e)))?;
    let size_s = need("size")?;
    let size = parse_size3("--size", size_s).map_err(bad)?;
    if size.cells() as u64 > MAX_MAZE_CELLS {
        return Err(bad(ArgError::new(
            "--size",
            size_s,
            format!("the explorer draws mazes of at most {MAX_MAZE_CELLS} cells"),
        )));
    }
    let seed = match p.get("seed") {
        None => DEFAULT_SEED,
        Some(s) => s
            .trim()
            .parse::<u64>()
            .map_err(|_| bad(ArgError::new("--seed", s, "expected a whole number")))?,
    };
    let index = parse_count("--index", need("index")?).map_err(bad)?;
    // A mask is named by its hash: one of the masks of the files (their `batchgen.mask`).
    let mask = match p.get("mask") {
        None => None,
        Some(h) => {
            let found = h.trim().parse::<u64>().ok().and_then(|h| {
                t.groups
                    .iter()
                    .filter_map(|g| g.mask.clone())
                    .find(|m| m.hash() == h)
            });
            Some(found.ok_or_else(|| {
                bad(ArgError::new(
                    "mask",
                    h,
                    "no file of this explorer has a mask (batchgen.mask) of this hash",
                ))
            })?)
        }
    };
    let braid = match p.get("braid") {
        None => 0.0,
        Some(b) => {
            crate::args::braid_value(b).map_err(|why| bad(ArgError::new("--braid", b, why)))?
        }
    };
    let level = LevelSpec {
        mask,
        ..LevelSpec::new(algo, size, seed, index).braid(braid)
    }
    .ends_of_flags(p.get("ends"), p.get("entrance"), p.get("exit"))
    .map_err(bad)?
    .build()
    .map_err(bad)?;
    let svg = crate::render::svg(level.maze(), Some(level.solution()), CELL_PX).map_err(bad)?;
    Ok(Response {
        status: 200,
        content_type: "image/svg+xml",
        body: svg.into_bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_decoding_and_quoting() {
        assert_eq!(
            parse_query("accept=a+%3E%3D+3&n=2").unwrap(),
            vec![("accept".into(), "a >= 3".into()), ("n".into(), "2".into())]
        );
        assert!(parse_query("x=%zz").is_err());
        assert!(parse_query("x=%ff").is_err());
        assert_eq!(crate::shell::quote("wilson"), "wilson");
        assert_eq!(crate::shell::quote("a > 'b'"), r"'a > '\''b'\'''");
        assert_eq!(json_str("<a\"\n"), r#""\u003ca\"\n""#);
        assert_eq!(url_encode("a b/c"), "a%20b%2Fc");
    }

    #[test]
    fn wilson_interval_covers_the_share() {
        let (lo, hi) = wilson(30, 100);
        assert!(lo < 0.3 && 0.3 < hi);
        // Known values for 30/100: 0.2189 .. 0.3958.
        assert!((lo - 0.2189).abs() < 1e-3 && (hi - 0.3958).abs() < 1e-3);
        assert!(wilson(0, 100).0.abs() < 1e-12 && wilson(100, 100).1 == 1.0);
    }

    #[test]
    fn ends_rules_become_flags() {
        let s = crate::grid::Size::planar(8, 4);
        assert!(ends_flags("entrance=0,0 exit=7,3 (x,y; cell id = y*width+x)", s).is_empty());
        assert_eq!(
            ends_flags("diameter: entrance=diameter_start exit=diameter_end", s),
            vec![("ends".to_string(), "diameter".to_string())]
        );
        assert_eq!(
            ends_flags("entrance=1,0 exit=7,2 (x,y; cell id = y*width+x)", s),
            vec![
                ("entrance".to_string(), "1,0".to_string()),
                ("exit".to_string(), "7,2".to_string())
            ]
        );
    }
}
