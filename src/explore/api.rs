//! The explorer's JSON API: one function from a request path and query to a response, with no
//! network in it (the server only moves bytes). Parameters are checked with the CLI's own
//! parsers, so a bad one gives HTTP 400 with the message the command line would print.
//!
//! | path | answer |
//! |---|---|
//! | `/api/columns` | rows, files, generators, groups and the numeric columns (name, integer, metric, filterable) |
//! | `/api/counts?accept=E&count=N` | per (algo, size): total, pass, share, candidates per accepted maze with a 95% interval, the generation command that makes its first N passing rows (or why none does); the `batchgen levels` command |
//! | `/api/hist?column=C&accept=E` | bins and per (algo, size) all-rows and passing counts; without `column`, every metric column |
//! | `/api/density?x=C&y=C&accept=E[&algo=A]` | a 2D histogram of two columns: all rows and passing rows |
//! | `/api/sample?accept=E&n=K` | a reproducible random sample of K ≤ 100 passing rows with their identifiers and values |
//! | `/api/levels?accept=E&count=N&per=K` | per (algo, size) the first K ≤ 100 of the N levels `batchgen levels` writes (the first N passing rows by index), and that command |
//! | `/api/mask.txt?hash=H` | the files' mask of hash `H` as a text mask: the `mask.txt` the printed commands' `--mask mask.txt` reads |
//! | `/api/maze.svg?algo=A&size=S&seed=X&index=I[&ends=diameter or &entrance=X,Y&exit=X,Y][&mask=H][&braid=P][&grid=G]` | the maze drawn with its solution: on the files' mask of hash `H` (holes solid), braided with chance `P`; on grid `G` (`hex`, `triangle`, `polar`: the rows of a `--grid` file, drawn as polygons; cells as `X,Y`, polar `RING,I`) |

use std::fmt::Write as _;

use serde::{Serialize, Serializer};

use super::data::{Group, Loaded, Selection, Table};
use crate::accept::Accept;
use crate::generate::Algorithm;
use crate::grid::Size;
use crate::json;
use crate::level::LevelSpec;
use crate::run::value::{parse_count, parse_size3, ArgError, DEFAULT_SEED};
use crate::run::{EndsRule, Output, RenderSpec, RunSpec};
use crate::topo::Grid;

/// Longest accept expression accepted, bytes.
pub(crate) const MAX_EXPR: usize = 4096;
/// Most rows one sample returns.
pub const MAX_SAMPLE: usize = 100;
/// Most cells of a maze drawn on request.
pub const MAX_MAZE_CELLS: u64 = 512 * 512;
/// Most random-walk steps one maze drawn on request is expected to take
/// ([`Algorithm::expected_walk_steps`]): a few seconds of one core. Every square grid up to
/// [`MAX_MAZE_CELLS`] (about 4·10^7 at 512×512) fits; a long thin grid or a winding mask of as
/// many cells (about 7·10^10 at 262144×1, tens of minutes) does not.
pub(crate) const MAX_MAZE_WALK_STEPS: f64 = 2e8;
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
    /// `body` as a JSON answer ([`json::compact`]: one line, safe inside HTML; non-finite
    /// numbers are `null`).
    fn json(body: &impl Serialize) -> Response {
        Response {
            status: 200,
            content_type: "application/json",
            body: json::compact(body).into_bytes(),
        }
    }

    /// A JSON error `{"error": message}` (with `position`, the 1-based character of an accept
    /// error, when known).
    pub fn error(status: u16, message: &str, position: Option<usize>) -> Response {
        Response {
            status,
            ..Response::json(&ErrorBody {
                error: message,
                position,
            })
        }
    }
}

/// The body of an error answer.
#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<usize>,
}

/// `%XX` and `+` decoded; `None` when the bytes are not UTF-8 or an escape is broken: every
/// `%` must be followed by two hex digits (the decoder alone would pass `%zz` through as text).
pub(crate) fn url_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let escapes_whole = b.iter().enumerate().all(|(i, &c)| {
        c != b'%'
            || b.get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
    });
    if !escapes_whole {
        return None;
    }
    // `+` is a space in a query; an escaped plus (`%2B`) is decoded after this.
    let spaced = s.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .ok()
        .map(|d| d.into_owned())
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
pub(crate) fn ends_flags(rule: &str, size: crate::grid::Size) -> Vec<(String, String)> {
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

/// The flags that reproduce the ends of group `g` on a grid other than the square one (its
/// rule names cell ids, `entrance=cell E exit=cell X …`): nothing for the grid's corners, else
/// `--entrance`/`--exit` as `X,Y` (hex, triangle) or `RING,I` (polar).
fn grid_ends_flags(g: &Group) -> Result<Vec<(String, String)>, String> {
    let size = crate::topo::GridSize::new(g.grid, g.size.width, g.size.height);
    let graph = match &g.mask {
        None => crate::topo::CellGraph::new(size),
        Some(m) => {
            let (w, h) = (m.size().width, m.size().height);
            let cells: Vec<bool> = (0..w * h).map(|c| m.contains(c)).collect();
            crate::topo::CellGraph::masked(size, w, h, &cells).map_err(|e| e.to_string())?
        }
    };
    let Some(crate::Ends::Cells { entrance, exit }) =
        crate::maze_id::parse_grid_ends_rule(&g.ends, size)
    else {
        return Err(format!(
            "the {} {} rows record the ends rule '{}', which no run on the {} grid takes; \
             batchgen levels picks from the rows themselves",
            g.algo, g.size, g.ends, g.grid
        ));
    };
    if (entrance, exit) == graph.corners() {
        return Ok(Vec::new());
    }
    let text = |c: u32| {
        let (a, b) = graph.place(c);
        format!("{a},{b}")
    };
    Ok(vec![
        ("entrance".into(), text(entrance)),
        ("exit".into(), text(exit)),
    ])
}

/// The flags that reproduce the ends of group `g`'s rows on any grid: [`ends_flags`], or on
/// another grid its cells in the grid's own coordinates ([`grid_ends_flags`]).
fn group_ends_flags(g: &Group) -> Vec<(String, String)> {
    match g.grid {
        Grid::Square => ends_flags(&g.ends, g.size),
        _ => grid_ends_flags(g).unwrap_or_else(|_| ends_flags(&g.ends, g.size)),
    }
}

/// The parameters beyond the ends that remake group `g`'s mazes: its mask's hash (the mask
/// itself is the file's `batchgen.mask`, held by the explorer) and its braid chance.
fn made_with(g: &Group) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if g.grid != Grid::Square {
        out.push(("grid", g.grid.name().to_string()));
    }
    if let Some(m) = &g.mask {
        out.push(("mask", m.hash().to_string()));
    }
    if g.braid > 0.0 {
        out.push(("braid", g.braid.to_string()));
    }
    out
}

/// The filter a generation run needs to make the rows of group `g` that pass `accept`: the
/// file's own filter (`batchgen.accept`: its rows are the candidates that passed it) and
/// `accept`, ANDed.
fn run_filter(g: &Group, accept: Option<&str>) -> Option<String> {
    match (g.accept.as_deref(), accept) {
        (Some(f), Some(a)) => Some(format!("({f}) AND ({a})")),
        (Some(f), None) => Some(f.to_string()),
        (None, a) => a.map(str::to_string),
    }
}

/// The `--max-candidates` a run with a filter needs to reach candidate `last` when the
/// default (a thousand per level asked for, at least 100,000) stops short of it.
fn candidates_needed(count: u64, last: Option<u64>) -> Option<u64> {
    let default = count.saturating_mul(1000).max(100_000);
    last.map(|l| l + 1).filter(|&n| n > default)
}

/// The command that makes `count` levels of group `g` passing `accept` (the filter of
/// [`run_filter`]), with every field that fixes the mazes of the group's rows: size (depth
/// included), seed, ends rule, mask, braid chance; the generator's parameters are part of its
/// name. `last` is the index of the last level the files' rows give, which the candidate limit
/// must reach. Printed by [`RunSpec::command_line`]; a filter that does not parse is refused.
fn generate_command(
    g: &Group,
    accept: Option<&str>,
    count: u64,
    last: Option<u64>,
) -> Result<String, String> {
    let file = |p: &str| Output {
        path: p.into(),
        folder: false,
    };
    let mut spec = RunSpec::new()
        .algos([g.algo.as_str()])
        .size(g.size)
        .seed(g.seed)
        .braid(g.braid)
        .count(count)
        .mazes(file("levels.arrow"))
        .out(file("levels.parquet"))
        .grid(g.grid);
    let ends = if g.grid == Grid::Square {
        ends_flags(&g.ends, g.size)
    } else {
        grid_ends_flags(g)?
    };
    for (k, v) in ends {
        spec = match k.as_str() {
            "ends" => spec.ends(EndsRule::Diameter),
            "entrance" => spec.entrance(v),
            _ => spec.exit(v),
        };
    }
    if let Some(m) = &g.mask {
        spec = spec.mask(m.clone(), "mask.txt");
    }
    if let Some(a) = run_filter(g, accept) {
        let filter = Accept::parse(&a).map_err(|e| format!("the filter '{a}': {e}"))?;
        spec = spec.accept(filter);
        if let Some(n) = candidates_needed(count, last) {
            spec = spec.max_candidates(n);
        }
    }
    Ok(spec.command_line())
}

/// The `batchgen levels` command that writes the levels of the explorer's selection: the
/// first `count` rows passing `accept` per (algo, size) in index order, from the explorer's
/// inputs, as Tiled maps.
fn levels_command(t: &Table, accept: Option<&str>, count: u64) -> String {
    let mut words: Vec<String> = vec!["batchgen".into(), "levels".into()];
    words.extend(t.inputs.iter().cloned());
    if let Some(a) = accept {
        words.extend(["--accept".into(), a.to_string()]);
    }
    // Triangle and polar levels have no Tiled map: JSON then.
    let tiled = t
        .groups
        .iter()
        .all(|g| matches!(g.grid, Grid::Square | Grid::Hex));
    words.extend([
        "--count".into(),
        count.to_string(),
        "--format".into(),
        if tiled { "tmx" } else { "json" }.into(),
        "--out".into(),
        "levels/".into(),
    ]);
    crate::shell::join(words)
}

/// The groups of key `key` (an index into [`Keys::keys`]).
fn in_key(k: &Keys, key: usize) -> impl Fn(usize) -> bool + '_ {
    move |g| k.of_group[g] == key
}

/// The generation command for key `key`'s levels, or why none reproduces them: rows of
/// several runs (seeds, ends rules, masks, braid chances or filters) under one (algo, size),
/// or rows that do not hold every index up to the last level (a shard or a part of a run),
/// where a run would make candidates these files do not have.
fn key_command(
    t: &Table,
    k: &Keys,
    key: usize,
    accept: Option<&str>,
    count: u64,
    picked: &[(u64, usize)],
) -> Result<String, String> {
    let (algo, size, first) = &k.keys[key];
    let g = &t.groups[*first];
    // What differs between the key's first group and another of its groups, if anything.
    let differs = |o: &Group| -> Option<String> {
        let hash = |g: &Group| g.mask.as_ref().map_or(0, |m| m.hash());
        if o.seed != g.seed {
            Some(format!("seeds {} and {}", g.seed, o.seed))
        } else if o.ends != g.ends {
            Some("ends rules".into())
        } else if hash(o) != hash(g) {
            Some("masks".into())
        } else if o.braid != g.braid {
            Some(format!("braid chances {} and {}", g.braid, o.braid))
        } else if o.accept != g.accept {
            Some("filters (batchgen.accept)".into())
        } else {
            None
        }
    };
    if let Some(what) = t
        .groups
        .iter()
        .enumerate()
        .filter(|&(i, _)| k.of_group[i] == key)
        .find_map(|(_, o)| differs(o))
    {
        return Err(format!(
            "the {algo} {size} rows come from runs with different {what}: no one generation \
             command makes them; batchgen levels picks from the rows themselves"
        ));
    }
    let last = picked.last().map(|p| p.0);
    if let (None, Some(l)) = (&g.accept, last) {
        let held = t.rows_up_to(in_key(k, key), l)?;
        if held != l + 1 {
            return Err(format!(
                "the {algo} {size} rows hold {held} of the indices 0 to {l} (a shard or a part \
                 of a run): a generation run would make other mazes; batchgen levels picks \
                 from the rows themselves"
            ));
        }
    }
    generate_command(g, accept, count, last)
}

/// The `batchgen render` command that draws row `(g, index)` ([`RenderSpec::command_line`]),
/// with every field that fixes its maze (the ends rule, mask and braid chance, as
/// [`generate_command`]) and its solution, into `maze.svg`.
fn render_command(g: &Group, index: u64) -> String {
    let mut spec = RenderSpec::new(g.algo.as_str(), g.size, g.seed, index);
    for (k, v) in group_ends_flags(g) {
        spec = match k.as_str() {
            "ends" => spec.ends(EndsRule::Diameter),
            "entrance" => spec.entrance(v),
            _ => spec.exit(v),
        };
    }
    if g.mask.is_some() {
        spec = spec.mask("mask.txt");
    }
    spec.grid(g.grid)
        .braid(g.braid)
        .solution(true)
        .out("maze.svg")
        .command_line()
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
        "/api/levels" => levels(t, &p),
        "/api/maze.svg" => maze(t, &p),
        "/api/mask.txt" => mask_text(t, &p),
        _ => Err(Response::error(
            404,
            &format!("no such API path '{path}'"),
            None,
        )),
    };
    r.unwrap_or_else(|e| e)
}

/// `/api/columns`: what the files hold.
#[derive(Serialize)]
struct ColumnsBody<'a> {
    rows: usize,
    files: usize,
    algos: Vec<&'a str>,
    groups: Vec<GroupBody<'a>>,
    masks: Vec<MaskBody>,
    braids: Vec<f64>,
    columns: Vec<ColumnBody<'a>>,
}

/// One (algo, size) of `/api/columns`, with the first group's identifiers.
#[derive(Serialize)]
struct GroupBody<'a> {
    algo: &'a str,
    size: &'a str,
    seed: u64,
    ends: &'a str,
    /// The mask's hash as a string (JavaScript numbers hold 53 bits), `"0"` without a mask.
    mask_hash: String,
    braid: f64,
    total: u64,
}

/// A mask of the files, for the page's header.
#[derive(Serialize)]
struct MaskBody {
    /// As a string: JavaScript numbers hold 53 bits.
    hash: String,
    size: String,
    cells: u32,
}

/// A numeric column of `/api/columns`.
#[derive(Serialize)]
struct ColumnBody<'a> {
    name: &'a str,
    integer: bool,
    metric: bool,
    filterable: bool,
    doc: &'a str,
}

fn columns(t: &Table) -> Response {
    let k = keys(t);
    let mut algos: Vec<&str> = Vec::new();
    for key in &k.keys {
        if !algos.contains(&key.0.as_str()) {
            algos.push(&key.0);
        }
    }
    let groups = k
        .keys
        .iter()
        .enumerate()
        .map(|(i, (algo, size, g))| {
            let total: u64 = t
                .groups
                .iter()
                .zip(&k.of_group)
                .filter(|(_, &kk)| kk == i)
                .map(|(g, _)| g.rows)
                .sum();
            let grp = &t.groups[*g];
            GroupBody {
                algo,
                size,
                seed: grp.seed,
                ends: &grp.ends,
                mask_hash: grp.mask.as_ref().map_or(0, |m| m.hash()).to_string(),
                braid: grp.braid,
                total,
            }
        })
        .collect();
    // The masks and braid chances of the files, for the page's header.
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
    let masks = masks
        .iter()
        .map(|m| MaskBody {
            hash: m.hash().to_string(),
            size: m.size().to_string(),
            cells: m.cells(),
        })
        .collect();
    let columns = t
        .columns
        .iter()
        .map(|c| ColumnBody {
            name: &c.name,
            integer: c.integer,
            metric: c.metric,
            filterable: c.known.is_some_and(|k| {
                !matches!(
                    crate::accept::COLUMNS[k].filter,
                    crate::metrics::Filter::Refused(_)
                )
            }),
            doc: c.known.map_or("", |k| crate::accept::COLUMNS[k].doc),
        })
        .collect();
    Response::json(&ColumnsBody {
        rows: t.rows,
        files: t.files.len(),
        algos,
        groups,
        masks,
        braids,
        columns,
    })
}

/// `count=` (levels per (algo, size); 100 when absent), checked as `--count` is.
fn count_of(p: &Params) -> Result<u64, Response> {
    match p.get("count") {
        None => Ok(100),
        Some(c) => match parse_count("--count", c).map_err(bad)? {
            0 => Err(bad(ArgError::new(
                "--count",
                c,
                "expected at least 1 level",
            ))),
            n => Ok(n),
        },
    }
}

fn counts(t: &Table, p: &Params) -> Answer {
    let a = accept_of(p)?;
    let count = count_of(p)?;
    let sel = selection(t, a.as_ref())?;
    let k = keys(t);
    let total: Vec<u64> = t.groups.iter().map(|g| g.rows).collect();
    let pass: Vec<u64> = sel.as_ref().map_or(total.clone(), |s| s.pass.clone());
    let (tk, pk) = (by_key(&k, &total, 1), by_key(&k, &pass, 1));
    let groups = k
        .keys
        .iter()
        .enumerate()
        .map(|(i, (algo, size, _))| {
            let (n, x) = (tk[i][0], pk[i][0]);
            let picked = t
                .first_passing(sel.as_deref(), in_key(&k, i), count as usize)
                .map_err(bad)?;
            let source = a.as_ref().map(|a| a.source());
            let (command, command_note) = match key_command(t, &k, i, source, count, &picked) {
                Ok(c) => (Some(c), None),
                Err(why) => (None, Some(why)),
            };
            let (lo, hi) = wilson(x, n);
            let share = if n > 0 { x as f64 / n as f64 } else { 0.0 };
            let cand = |q: f64| (q > 0.0).then(|| 1.0 / q);
            Ok(CountsGroup {
                algo,
                size,
                total: n,
                pass: x,
                share,
                candidates: cand(share),
                candidates_low: cand(hi),
                candidates_high: cand(lo),
                command,
                command_note,
            })
        })
        .collect::<Result<_, Response>>()?;
    Ok(Response::json(&CountsBody {
        accept: a.as_ref().map(|a| a.source()),
        levels_command: levels_command(t, a.as_ref().map(|a| a.source()), count),
        groups,
    }))
}

/// `/api/counts`: the filter, the `batchgen levels` command for it and, per (algo, size), how
/// many rows pass it.
#[derive(Serialize)]
struct CountsBody<'a> {
    accept: Option<&'a str>,
    levels_command: String,
    groups: Vec<CountsGroup<'a>>,
}

/// One (algo, size) of `/api/counts`: candidates per accepted maze (`null` when none pass)
/// with its 95% interval, and the command that makes such levels.
#[derive(Serialize)]
struct CountsGroup<'a> {
    algo: &'a str,
    size: &'a str,
    total: u64,
    pass: u64,
    share: f64,
    candidates: Option<f64>,
    candidates_low: Option<f64>,
    candidates_high: Option<f64>,
    /// The generation command that makes the group's levels (`null` when none does).
    command: Option<String>,
    /// Why there is no such command.
    command_note: Option<String>,
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
    let mut columns = Vec::with_capacity(cols.len());
    for (i, &c) in cols.iter().enumerate() {
        let l = t.column(c).map_err(bad)?;
        let n = l.bins.n;
        let all = by_key(&k, &l.all, n);
        let pass = match &hists {
            Some(h) => by_key(&k, &h[i], n),
            None => all.clone(),
        };
        let groups = k
            .keys
            .iter()
            .zip(all.into_iter().zip(pass))
            .map(|((algo, size, _), (all, pass))| HistGroup {
                algo,
                size,
                all,
                pass,
            })
            .collect();
        columns.push(HistColumn {
            axis: Axis::of(t, c, l),
            groups,
        });
    }
    Ok(Response::json(&HistBody { columns }))
}

/// A column's bins: `bins` bins of `width` from `lo`.
#[derive(Serialize)]
struct Axis<'a> {
    name: &'a str,
    integer: bool,
    lo: f64,
    width: f64,
    bins: usize,
}

impl<'a> Axis<'a> {
    fn of(t: &'a Table, c: usize, l: &Loaded) -> Axis<'a> {
        Axis {
            name: &t.columns[c].name,
            integer: t.columns[c].integer,
            lo: l.bins.lo,
            width: l.bins.width,
            bins: l.bins.n,
        }
    }
}

/// `/api/hist`: one histogram per column.
#[derive(Serialize)]
struct HistBody<'a> {
    columns: Vec<HistColumn<'a>>,
}

/// A column's bins and its counts per (algo, size).
#[derive(Serialize)]
struct HistColumn<'a> {
    #[serde(flatten)]
    axis: Axis<'a>,
    groups: Vec<HistGroup<'a>>,
}

/// Bin counts of one (algo, size): every row, and the rows passing the filter.
#[derive(Serialize)]
struct HistGroup<'a> {
    algo: &'a str,
    size: &'a str,
    all: Vec<u64>,
    pass: Vec<u64>,
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
    Ok(Response::json(&DensityBody {
        x: Axis::of(t, cx, lx),
        y: Axis::of(t, cy, ly),
        all,
        pass,
    }))
}

/// `/api/density`: counts of a 2D histogram, row by row of `y`'s bins.
#[derive(Serialize)]
struct DensityBody<'a> {
    x: Axis<'a>,
    y: Axis<'a>,
    all: Vec<u64>,
    pass: Vec<u64>,
}

/// A number of rows to return (parameter `key`, `default` when absent): 0 to [`MAX_SAMPLE`].
fn rows_param(p: &Params, key: &str, default: usize) -> Result<usize, Response> {
    match p.get(key) {
        None => Ok(default),
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if n <= MAX_SAMPLE => Ok(n),
            _ => Err(bad(ArgError::new(
                key,
                v,
                format!("expected a whole number from 0 to {MAX_SAMPLE}"),
            ))),
        },
    }
}

fn sample(t: &Table, p: &Params) -> Answer {
    let a = accept_of(p)?;
    let n = rows_param(p, "n", 12)?;
    let sel = match &a {
        Some(a) => t.select(a).map_err(bad)?,
        None => t
            .select(&Accept::parse("TRUE").expect("valid"))
            .map_err(bad)?,
    };
    let key = a.as_ref().map_or("", |a| a.source());
    let rows = t.sample(&sel, n, key);
    let passing: u64 = sel.pass.iter().sum();
    let idx = t.index_values().map_err(bad)?;
    let out = rows
        .iter()
        .map(|&r| sample_row(t, r, idx.get(r) as u64))
        .collect();
    Ok(Response::json(&SampleBody {
        pass: passing,
        rows: out,
    }))
}

/// Row `r` (of index `index`) as the page shows it: identifiers, maze URL, render command,
/// values.
fn sample_row(t: &Table, r: usize, index: u64) -> SampleRow<'_> {
    let g = &t.groups[t.group_of(r)];
    let mut svg = format!(
        "/api/maze.svg?algo={}&size={}&seed={}&index={index}",
        url_encode(&g.algo),
        g.size,
        g.seed
    );
    for (k, v) in group_ends_flags(g) {
        let _ = write!(svg, "&{k}={}", url_encode(&v));
    }
    for (k, v) in made_with(g) {
        let _ = write!(svg, "&{k}={}", url_encode(&v));
    }
    SampleRow {
        row: r,
        algo: &g.algo,
        size: g.size.to_string(),
        seed: g.seed,
        index,
        svg,
        render: render_command(g, index),
        values: Values(t.row_values(r)),
    }
}

/// `/api/levels?accept=E&count=N&per=K`: the levels `batchgen levels --accept E --count N`
/// writes, per (algo, size) in the order it writes them (the first N passing rows by index),
/// the first `min(K, N)` of each with its row.
fn levels(t: &Table, p: &Params) -> Answer {
    let a = accept_of(p)?;
    let count = count_of(p)?;
    let per = rows_param(p, "per", 4)?;
    let sel = selection(t, a.as_ref())?;
    let k = keys(t);
    let total: Vec<u64> = t.groups.iter().map(|g| g.rows).collect();
    let pass = by_key(&k, sel.as_ref().map_or(&total, |s| &s.pass), 1);
    let groups = k
        .keys
        .iter()
        .enumerate()
        .map(|(i, (algo, size, _))| {
            let n = (count.min(per as u64)) as usize;
            let picked = t
                .first_passing(sel.as_deref(), in_key(&k, i), n)
                .map_err(bad)?;
            Ok(LevelsGroup {
                algo,
                size,
                pass: pass[i][0],
                levels: pass[i][0].min(count),
                rows: picked
                    .iter()
                    .map(|&(index, r)| sample_row(t, r, index))
                    .collect(),
            })
        })
        .collect::<Result<_, Response>>()?;
    Ok(Response::json(&LevelsBody {
        accept: a.as_ref().map(|a| a.source()),
        count,
        command: levels_command(t, a.as_ref().map(|a| a.source()), count),
        groups,
    }))
}

/// `/api/levels`: the filter, the levels asked for per (algo, size) and the command that
/// writes them, and per (algo, size) the first levels.
#[derive(Serialize)]
struct LevelsBody<'a> {
    accept: Option<&'a str>,
    count: u64,
    command: String,
    groups: Vec<LevelsGroup<'a>>,
}

/// One (algo, size) of `/api/levels`: passing rows, levels the command writes (at most
/// `count`), and the first of them in the order it writes them.
#[derive(Serialize)]
struct LevelsGroup<'a> {
    algo: &'a str,
    size: &'a str,
    pass: u64,
    levels: u64,
    rows: Vec<SampleRow<'a>>,
}

/// `/api/sample`: how many rows pass, and the sampled ones.
#[derive(Serialize)]
struct SampleBody<'a> {
    pass: u64,
    rows: Vec<SampleRow<'a>>,
}

/// A sampled row: its identifiers, its maze's drawing, the command that draws it, its values.
#[derive(Serialize)]
struct SampleRow<'a> {
    row: usize,
    algo: &'a str,
    size: String,
    seed: u64,
    index: u64,
    svg: String,
    render: String,
    values: Values,
}

/// A row's values as an object in column order (`null` where unknown).
struct Values(Vec<(String, Option<f64>)>);

impl Serialize for Values {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// Percent-encode everything but unreserved characters.
pub fn url_encode(s: &str) -> String {
    /// Every byte but ASCII letters, digits and `-_.~` (RFC 3986's unreserved characters).
    const ESCAPED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(s, ESCAPED).to_string()
}

/// The mask of hash `h` (parameter `key`): one of the masks of the files (their
/// `batchgen.mask`), which is how the API names a mask.
fn mask_of(t: &Table, key: &str, h: &str) -> Result<std::sync::Arc<crate::grid::Mask>, Response> {
    let found = h.trim().parse::<u64>().ok().and_then(|h| {
        t.groups
            .iter()
            .filter_map(|g| g.mask.clone())
            .find(|m| m.hash() == h)
    });
    found.ok_or_else(|| {
        bad(ArgError::new(
            key,
            h,
            "no file of this explorer has a mask (batchgen.mask) of this hash",
        ))
    })
}

/// `/api/mask.txt?hash=H`: the files' mask of hash `H` as a text mask (`#` no cell, `.` a
/// cell), the file the printed commands' `--mask mask.txt` reads once saved.
fn mask_text(t: &Table, p: &Params) -> Answer {
    let h = p
        .get("hash")
        .ok_or_else(|| bad("missing parameter 'hash'"))?;
    Ok(Response {
        status: 200,
        content_type: "text/plain; charset=utf-8",
        body: mask_of(t, "hash", h)?.to_text().into_bytes(),
    })
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
    let mask = match p.get("mask") {
        None => None,
        Some(h) => Some(mask_of(t, "mask", h)?),
    };
    let steps = match &mask {
        Some(m) => algo.expected_walk_steps_on(m),
        None => algo.expected_walk_steps(size),
    };
    if let Some(steps) = steps.filter(|&s| s > MAX_MAZE_WALK_STEPS) {
        return Err(bad(ArgError::new(
            "--size",
            size_s,
            format!(
                "{}'s random walk is expected to take about {steps:.1e} steps on this {}; the \
                 explorer draws mazes of at most {MAX_MAZE_WALK_STEPS:.0e} (batchgen render \
                 draws it)",
                algo.name(),
                if mask.is_some() { "mask" } else { "grid" }
            ),
        )));
    }
    let braid = match p.get("braid") {
        None => 0.0,
        Some(b) => crate::run::value::braid_value(b)
            .map_err(|why| bad(ArgError::new("--braid", b, why)))?,
    };
    let grid = match p.get("grid") {
        None => Grid::Square,
        Some(g) => Grid::parse(g).map_err(|why| bad(ArgError::new("--grid", g, why)))?,
    };
    if grid != Grid::Square {
        // Between the row's ends, as the grid's runs measure them.
        let level = LevelSpec {
            mask,
            ..LevelSpec::new(algo, Size::planar(size.width, size.height), seed, index)
                .braid(braid)
                .on_grid(grid)
        }
        .ends_of_flags(p.get("ends"), p.get("entrance"), p.get("exit"))
        .map_err(bad)?
        .build()
        .map_err(bad)?;
        let (g, m) = (
            level.graph().expect("a grid level"),
            level.graph_maze().expect("a grid level"),
        );
        let svg = crate::render::polygon::svg(
            g,
            m,
            Some(level.solution()),
            (level.entrance(), level.exit()),
            CELL_PX,
        );
        return Ok(Response {
            status: 200,
            content_type: "image/svg+xml",
            body: svg.into_bytes(),
        });
    }
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
        // A sign is not a hex digit: `%+5` and `%-5` are broken escapes, not bytes 5 and -5.
        assert!(parse_query("x=%+5").is_err());
        assert!(parse_query("x=%-5").is_err());
        assert!(parse_query("x=%4").is_err());
        assert!(parse_query("x=a%").is_err());
        assert_eq!(
            parse_query("x=%2B+%c3%a9%25").unwrap(),
            vec![("x".into(), "+ é%".into())]
        );
        assert_eq!(crate::shell::quote("wilson"), "wilson");
        assert_eq!(crate::shell::quote("a > 'b'"), r"'a > '\''b'\'''");
        assert_eq!(
            Response::error(400, "<a\"\n", Some(3)).body,
            br#"{"error":"\u003ca\"\n","position":3}"#
        );
        assert_eq!(url_encode("a b/c"), "a%20b%2Fc");
        assert_eq!(url_encode("Az09-_.~+é"), "Az09-_.~%2B%C3%A9");
        assert_eq!(url_decode(&url_encode("a+b %é/'")).unwrap(), "a+b %é/'");
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
