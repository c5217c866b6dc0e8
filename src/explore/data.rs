//! The explorer's data engine: the rows of a fixed set of metrics files held in memory, column
//! by column, each in the narrowest unsigned type that holds its values (most metrics of a
//! 64×64 maze fit `u16`; doubles stay `f64`), loaded on first use. Rows of one (algo, size,
//! seed, ends rule, mask, braid chance) come in runs, so the identifiers cost a few bytes per
//! run, not per row. A file's mask (`batchgen.mask`) and braid chance (`batchgen.braid`) are
//! read from its metadata with its ends rule, so each shown maze is regenerated as its row was.
//!
//! A filter update evaluates the accept program column-wise ([`super::filter`]) over blocks
//! of rows in parallel into a selection bitmap, counts it per run with `popcount`, and bins
//! every histogram column with one pass over the selected rows (or over the rejected ones when
//! they are fewer, subtracting from the all-rows histogram); columns are binned in parallel.

use std::collections::HashMap;
use std::fs::File;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use rayon::prelude::*;

use super::filter::{self, BLOCK};
use crate::accept::{Accept, COLUMNS};
use crate::grid::{Mask, Size};
use crate::summary::{self, Source, SummaryError};

/// Bins of a histogram (at most; integer columns may use fewer).
pub(crate) const BINS: usize = 40;

/// How many interquartile ranges beyond the quartiles a histogram's range reaches at most:
/// a tail farther than that lands in the end bins, so outliers cannot squeeze every other
/// value into one bin.
const FENCE: f64 = 10.0;

/// Filters whose selections are kept (the page asks for counts, histograms and a sample of the
/// same filter in a row).
const CACHED: usize = 6;

/// Numeric columns the explorer never loads: identifiers that are no metric and no filter.
const SKIPPED: [&str; 3] = ["seed", "maze_seed", "maze_hash"];

/// One run of consecutive rows with the same identifiers.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// First row.
    pub start: usize,
    /// One past the last row.
    pub end: usize,
    /// Index into [`Table::groups`].
    pub group: usize,
}

/// Rows with the same generator, size, master seed and ends rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Generator name.
    pub algo: String,
    /// Index into [`Table::algos`].
    pub algo_code: u16,
    /// Grid size.
    pub size: Size,
    /// Master seed.
    pub seed: u64,
    /// The file's `batchgen.ends` metadata (how entrance and exit were chosen).
    pub ends: String,
    /// The file's mask (`batchgen.mask`), if its mazes fill one.
    pub mask: Option<Arc<Mask>>,
    /// The file's braid chance (`batchgen.braid`; 0 for perfect mazes).
    pub braid: f64,
    /// The filter the file was made with (`batchgen.accept`): its rows are the candidates
    /// that passed it.
    pub accept: Option<String>,
    /// Rows.
    pub rows: u64,
    /// The file's grid (`batchgen.grid`; square without it).
    pub grid: crate::topo::Grid,
}

/// A column's values in memory.
pub enum Values {
    /// Unsigned values below 2^8.
    U8(Vec<u8>),
    /// Unsigned values below 2^16.
    U16(Vec<u16>),
    /// Unsigned values below 2^32.
    U32(Vec<u32>),
    /// Doubles with at most 2^16 distinct values, as codes into a sorted dictionary.
    Dict(Vec<u16>, Vec<f64>),
    /// Anything else (doubles, larger integers, negatives).
    F64(Vec<f64>),
}

impl Values {
    /// Bytes held.
    pub fn bytes(&self) -> usize {
        match self {
            Values::U8(v) => v.len(),
            Values::U16(v) => v.len() * 2,
            Values::U32(v) => v.len() * 4,
            Values::Dict(v, d) => v.len() * 2 + d.len() * 8,
            Values::F64(v) => v.len() * 8,
        }
    }

    /// The value of row `r` as a double.
    #[inline]
    pub fn get(&self, r: usize) -> f64 {
        match self {
            Values::U8(v) => v[r] as f64,
            Values::U16(v) => v[r] as f64,
            Values::U32(v) => v[r] as f64,
            Values::Dict(v, d) => d[v[r] as usize],
            Values::F64(v) => v[r],
        }
    }

    fn fill(&self, start: usize, out: &mut [f64]) {
        let end = start + out.len();
        macro_rules! conv {
            ($v:expr) => {
                for (o, &x) in out.iter_mut().zip(&$v[start..end]) {
                    *o = x as f64;
                }
            };
        }
        match self {
            Values::U8(v) => conv!(v),
            Values::U16(v) => conv!(v),
            Values::U32(v) => conv!(v),
            Values::Dict(v, d) => {
                for (o, &x) in out.iter_mut().zip(&v[start..end]) {
                    *o = d[x as usize];
                }
            }
            Values::F64(v) => out.copy_from_slice(&v[start..end]),
        }
    }

    /// Narrow the chunks of doubles read to the smallest form holding them exactly.
    fn narrow(chunks: Vec<Vec<f64>>, integer: bool) -> Values {
        let it = || chunks.iter().flatten().copied();
        let whole = integer && it().all(|x| x >= 0.0 && x.fract() == 0.0);
        let max = it().fold(0.0f64, f64::max);
        let n: usize = chunks.iter().map(Vec::len).sum();
        let gather = |cap: usize| -> Vec<f64> {
            let mut v = Vec::with_capacity(cap);
            for c in &chunks {
                v.extend_from_slice(c);
            }
            v
        };
        match () {
            _ if whole && max < 256.0 => Values::U8(it().map(|x| x as u8).collect()),
            _ if whole && max < 65_536.0 => Values::U16(it().map(|x| x as u16).collect()),
            _ if whole && max < 4_294_967_296.0 => Values::U32(it().map(|x| x as u32).collect()),
            _ => {
                // Few distinct doubles (ratios of small integers): codes into a dictionary.
                let mut dict: Vec<f64> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for x in it() {
                    if seen.insert(x.to_bits()) {
                        dict.push(x);
                        if dict.len() > 65_536 {
                            return Values::F64(gather(n));
                        }
                    }
                }
                dict.sort_by(|a, b| a.total_cmp(b));
                let code: HashMap<u64, u16> = dict
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (x.to_bits(), i as u16))
                    .collect();
                Values::Dict(it().map(|x| code[&x.to_bits()]).collect(), dict)
            }
        }
    }

    /// The bin of every possible code, for the types whose values are small codes.
    fn lut(&self, bins: &Bins) -> Option<Vec<u8>> {
        match self {
            Values::U8(_) => Some((0..256).map(|x| bins.of(x as f64) as u8).collect()),
            Values::U16(v) => {
                let max = v.iter().copied().max().unwrap_or(0) as usize;
                Some((0..=max).map(|x| bins.of(x as f64) as u8).collect())
            }
            Values::Dict(_, d) => Some(d.iter().map(|&x| bins.of(x) as u8).collect()),
            _ => None,
        }
    }
}

/// Histogram bins of one column: bin `k` holds `lo + k·width ≤ v < lo + (k+1)·width`; the first
/// and last bins also hold everything beyond.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bins {
    /// Lower edge of the first bin.
    pub lo: f64,
    /// Bin width (a whole number for integer columns).
    pub width: f64,
    /// Number of bins.
    pub n: usize,
}

impl Bins {
    /// The bin of value `v`: the `k` with `lo + k·width ≤ v < lo + (k+1)·width` (edges as
    /// the page draws them), clamped to the first and last bin.
    #[inline]
    pub fn of(&self, v: f64) -> usize {
        let k = ((v - self.lo) / self.width).floor();
        let k = if k >= self.n as f64 {
            return self.n - 1;
        } else if k > 0.0 {
            k as usize
        } else {
            return 0;
        };
        // Division rounding can put a value next to an edge one bin off: check the edges.
        if k + 1 < self.n && v >= self.lo + (k + 1) as f64 * self.width {
            k + 1
        } else if v < self.lo + k as f64 * self.width {
            k - 1
        } else {
            k
        }
    }

    /// Bins covering the bulk of `values` (a sorted sample).
    fn choose(sorted: &[f64], integer: bool) -> Bins {
        let q = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
        // The full range, cut at far fences: ten interquartile ranges beyond the quartiles
        // (timings: stalls of milliseconds among microseconds land in the end bins).
        let iqr = q(0.75) - q(0.25);
        let (mut lo, mut hi) = (q(0.0), q(1.0));
        if iqr > 0.0 {
            lo = lo.max(q(0.25) - FENCE * iqr);
            hi = hi.min(q(0.75) + FENCE * iqr);
        }
        if !lo.is_finite() || !hi.is_finite() {
            let finite: Vec<f64> = sorted.iter().copied().filter(|x| x.is_finite()).collect();
            (lo, hi) = (
                finite.first().copied().unwrap_or(0.0),
                finite.last().copied().unwrap_or(1.0),
            );
        }
        if integer {
            let (lo, hi) = (lo.floor(), hi.floor());
            let span = hi - lo + 1.0;
            let width = (span / BINS as f64).ceil().max(1.0);
            Bins {
                lo,
                width,
                n: (span / width).ceil() as usize,
            }
        } else {
            let width = if hi > lo {
                (hi - lo) / BINS as f64
            } else {
                1.0
            };
            Bins { lo, width, n: BINS }
        }
    }
}

/// A numeric column of the files.
pub struct Column {
    /// Its name.
    pub name: String,
    /// Index into [`COLUMNS`], when it is one of batchgen's columns.
    pub known: Option<usize>,
    /// Whole numbers (integer Parquet type).
    pub integer: bool,
    /// Whether it gets a histogram (a metric, not an identifier).
    pub metric: bool,
    /// Leaf index of the column in each file (`None`: the file lacks it).
    leaf: Vec<Option<usize>>,
    loaded: OnceLock<Result<Loaded, String>>,
}

/// A loaded column: values, bins and the all-rows histogram (per group).
pub struct Loaded {
    /// The values.
    pub values: Values,
    /// Its histogram bins.
    pub bins: Bins,
    /// The bin of each code, when the values are small codes (`U8`, `U16`, `Dict`).
    lut: Option<Vec<u8>>,
    /// All rows' counts, `groups × bins.n`.
    pub all: Vec<u64>,
}

/// One evaluated filter: which rows pass, per group.
pub struct Selection {
    /// One bit per row.
    pub bits: Vec<u64>,
    /// Passing rows per group.
    pub pass: Vec<u64>,
    hists: Mutex<HashMap<usize, Arc<Vec<u64>>>>,
}

/// The rows of a fixed set of metrics files.
pub struct Table {
    /// The files, in order.
    pub files: Vec<PathBuf>,
    /// The inputs as the user named them (files, globs, folders), for the printed
    /// `batchgen levels` command; the files' paths unless set.
    pub inputs: Vec<String>,
    /// (file, row group, first row) of each row group.
    units: Vec<(usize, usize, usize)>,
    /// Total rows.
    pub rows: usize,
    /// Generator names (the codes of [`Group::algo_code`]).
    pub algos: Vec<String>,
    /// Distinct identifier groups.
    pub groups: Vec<Group>,
    /// Runs of rows, in row order.
    pub runs: Vec<Run>,
    /// Numeric columns (union over the files, schema order of the first file that has each).
    pub columns: Vec<Column>,
    /// `COLUMNS` index → index into `columns`.
    by_known: [Option<usize>; COLUMNS.len()],
    cache: Mutex<Vec<(String, Arc<Selection>)>>,
    /// Per run: are its `index` values ascending (as a run writes them)?
    ascending: OnceLock<Result<Vec<bool>, String>>,
}

fn read_err(path: &std::path::Path, e: impl std::fmt::Display) -> SummaryError {
    SummaryError::Read {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}

/// What a file's metadata says about how its mazes were made.
#[derive(Clone, Debug, Default)]
struct FileMeta {
    /// `batchgen.ends` (empty when absent).
    ends: String,
    /// `batchgen.mask`, parsed.
    mask: Option<Arc<Mask>>,
    /// `batchgen.braid` (0 when absent).
    braid: f64,
    /// `batchgen.accept`, when the file was made with a filter.
    accept: Option<String>,
    /// `batchgen.grid` (square when absent).
    grid: crate::topo::Grid,
}

/// The ends rule, mask and braid chance of a file's metadata; a mask or chance that does not
/// parse is refused naming the file.
fn file_meta(path: &std::path::Path) -> Result<FileMeta, SummaryError> {
    let f = File::open(path).map_err(|e| read_err(path, e))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| read_err(path, e))?;
    let kv = b.metadata().file_metadata().key_value_metadata();
    let get = |key: &str| {
        kv.and_then(|kv| kv.iter().find(|k| k.key == key))
            .and_then(|k| k.value.clone())
    };
    let grid = summary::file_grid(b.metadata().file_metadata(), path)?;
    // A hex or triangle mask is connected through its own grid's neighbours.
    let parse_mask = |t: &str| match grid {
        crate::topo::Grid::Square => Mask::from_text(t),
        _ => Mask::cells_from_bytes(t.as_bytes()),
    };
    let mask = get(crate::meta_keys::MASK)
        .map(|t| parse_mask(&t).map(Arc::new))
        .transpose()
        .map_err(|e| {
            read_err(
                path,
                format!("its {} metadata: {e}", crate::meta_keys::MASK),
            )
        })?;
    let braid = get(crate::meta_keys::BRAID)
        .map(|t| crate::run::value::braid_value(&t))
        .transpose()
        .map_err(|e| {
            read_err(
                path,
                format!("its {} metadata: {e}", crate::meta_keys::BRAID),
            )
        })?;
    Ok(FileMeta {
        ends: get(crate::meta_keys::ENDS).unwrap_or_default(),
        mask,
        braid: braid.unwrap_or(0.0),
        accept: get(crate::meta_keys::ACCEPT).filter(|a| !a.trim().is_empty()),
        grid,
    })
}

impl Table {
    /// Open the files (resolved by [`summary::inputs::resolve`]): every file is checked to be a
    /// batchgen metrics file with rows, and the identifiers are read; columns load on use.
    pub fn open(files: &[PathBuf]) -> Result<Table, SummaryError> {
        let inputs: Vec<summary::Input> = files
            .iter()
            .map(|p| summary::open(p, None))
            .collect::<Result<_, _>>()?;
        let meta: Vec<FileMeta> = files
            .iter()
            .map(|p| file_meta(p))
            .collect::<Result<_, _>>()?;
        // Numeric columns, by name, over all files.
        let mut columns: Vec<Column> = Vec::new();
        let mut seed_leaf = Vec::new();
        for (f, p) in files.iter().enumerate() {
            let file = File::open(p).map_err(|e| read_err(p, e))?;
            let b = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| read_err(p, e))?;
            let mut seed = None;
            for (i, field) in b.schema().fields().iter().enumerate() {
                let name = field.name().as_str();
                if name == "seed" {
                    seed = Some(i);
                }
                let t = field.data_type();
                if !summary::numeric(t)
                    || SKIPPED.contains(&name)
                    || ["width", "height", "depth"].contains(&name)
                {
                    continue;
                }
                let c = match columns.iter().position(|c| c.name == name) {
                    Some(c) => c,
                    None => {
                        columns.push(Column {
                            name: name.to_string(),
                            known: crate::metrics::column_index(name),
                            integer: t.is_integer(),
                            metric: !summary::NOT_METRICS.contains(&name),
                            leaf: vec![None; files.len()],
                            loaded: OnceLock::new(),
                        });
                        columns.len() - 1
                    }
                };
                columns[c].leaf[f] = Some(i);
            }
            seed_leaf.push(seed.ok_or_else(|| SummaryError::NotBatchgen {
                path: p.display().to_string(),
                why: "no 'seed' column".into(),
            })?);
        }
        let mut units = Vec::new();
        for (f, inp) in inputs.iter().enumerate() {
            for rg in 0..inp.row_groups {
                units.push((f, rg, 0));
            }
        }
        // Identifiers of every row group, in parallel: runs of (algo, w, h, d, seed).
        type Key = (String, u32, u32, u32, u64);
        let parts: Vec<Vec<(Key, usize)>> = units
            .par_iter()
            .map(|&(f, rg, _)| read_keys(&inputs[f], seed_leaf[f], rg))
            .collect::<Result<_, _>>()?;
        let mut table = Table {
            files: files.to_vec(),
            inputs: files.iter().map(|p| p.display().to_string()).collect(),
            units: Vec::with_capacity(units.len()),
            rows: 0,
            algos: Vec::new(),
            groups: Vec::new(),
            runs: Vec::new(),
            columns,
            by_known: [None; COLUMNS.len()],
            cache: Mutex::new(Vec::new()),
            ascending: OnceLock::new(),
        };
        for (&(f, rg, _), part) in units.iter().zip(parts) {
            table.units.push((f, rg, table.rows));
            for ((algo, w, h, d, seed), n) in part {
                let size = Size::new(w, h, d);
                let fm = &meta[f];
                let hash = |m: &Option<Arc<Mask>>| m.as_ref().map_or(0, |m| m.hash());
                let g = match table.groups.iter().position(|g| {
                    g.algo == algo
                        && g.size == size
                        && g.seed == seed
                        && g.ends == fm.ends
                        && hash(&g.mask) == hash(&fm.mask)
                        && g.braid == fm.braid
                        && g.accept == fm.accept
                        && g.grid == fm.grid
                }) {
                    Some(g) => g,
                    None => {
                        let code = match table.algos.iter().position(|a| *a == algo) {
                            Some(c) => c,
                            None => {
                                table.algos.push(algo.clone());
                                table.algos.len() - 1
                            }
                        };
                        table.groups.push(Group {
                            algo,
                            algo_code: code as u16,
                            size,
                            seed,
                            ends: fm.ends.clone(),
                            mask: fm.mask.clone(),
                            braid: fm.braid,
                            accept: fm.accept.clone(),
                            rows: 0,
                            grid: fm.grid,
                        });
                        table.groups.len() - 1
                    }
                };
                table.groups[g].rows += n as u64;
                match table.runs.last_mut() {
                    Some(r) if r.group == g && r.end == table.rows => r.end += n,
                    _ => table.runs.push(Run {
                        start: table.rows,
                        end: table.rows + n,
                        group: g,
                    }),
                }
                table.rows += n;
            }
        }
        for (i, c) in table.columns.iter().enumerate() {
            if let Some(k) = c.known {
                table.by_known[k] = Some(i);
            }
        }
        Ok(table)
    }

    /// Index into [`Table::columns`] of the column named `name`.
    pub(crate) fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// Column `c`, loaded (read from the files on first use).
    pub fn column(&self, c: usize) -> Result<&Loaded, String> {
        self.columns[c]
            .loaded
            .get_or_init(|| self.load(c))
            .as_ref()
            .map_err(|e| e.clone())
    }

    /// Bytes of column values held in memory.
    pub fn bytes(&self) -> usize {
        self.columns
            .iter()
            .filter_map(|c| c.loaded.get().and_then(|l| l.as_ref().ok()))
            .map(|l| l.values.bytes())
            .sum()
    }

    fn load(&self, c: usize) -> Result<Loaded, String> {
        let col = &self.columns[c];
        let chunks: Vec<Vec<f64>> = self
            .units
            .par_iter()
            .map(|&(f, rg, _)| -> Result<Vec<f64>, String> {
                let path = &self.files[f];
                let n = self.unit_rows(f, rg);
                let Some(leaf) = col.leaf[f] else {
                    return Ok(vec![f64::NAN; n]);
                };
                let e = |e: &dyn std::fmt::Display| format!("reading '{}': {e}", path.display());
                let file = File::open(path).map_err(|x| e(&x))?;
                let b = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|x| e(&x))?;
                let reader =
                    summary::row_group_reader(b, &mut vec![leaf], rg).map_err(|x| e(&x))?;
                let mut out = Vec::with_capacity(n);
                let mut buf = Vec::new();
                for batch in reader {
                    let batch = batch.map_err(|x| e(&x))?;
                    summary::to_f64(batch.column(0), &mut buf);
                    out.extend_from_slice(&buf);
                }
                Ok(out)
            })
            .collect::<Result<_, _>>()?;
        // A sample of at most 200 000 values for the range.
        let step = (self.rows / 200_000).max(1);
        let mut sample: Vec<f64> = chunks.iter().flatten().step_by(step).copied().collect();
        sample.sort_by(|a, b| a.total_cmp(b));
        let bins = Bins::choose(&sample, col.integer);
        let values = Values::narrow(chunks, col.integer);
        let lut = values.lut(&bins);
        let mut loaded = Loaded {
            values,
            bins,
            lut,
            all: Vec::new(),
        };
        loaded.all = self.histogram(&loaded, None, false);
        Ok(loaded)
    }

    fn unit_rows(&self, f: usize, rg: usize) -> usize {
        let k = self
            .units
            .iter()
            .position(|&(uf, urg, _)| uf == f && urg == rg)
            .expect("a unit of the table");
        let end = self.units.get(k + 1).map_or(self.rows, |u| u.2);
        end - self.units[k].2
    }

    /// Per group × bin counts of column `l` over the rows whose selection bit is `want` (all
    /// rows when `bits` is `None`).
    fn histogram(&self, l: &Loaded, bits: Option<&[u64]>, want: bool) -> Vec<u64> {
        let n = l.bins.n;
        let chunks = self.runs.par_iter().map(|run| {
            let mut h = vec![0u64; n];
            let (s, e) = (run.start, run.end);
            // Small codes go through the table; other values are binned arithmetically.
            macro_rules! count {
                ($v:expr, $bin:expr) => {
                    match bits {
                        None => {
                            for &x in &$v[s..e] {
                                h[$bin(x)] += 1;
                            }
                        }
                        Some(bits) => for_rows(bits, s, e, want, |r| h[$bin($v[r])] += 1),
                    }
                };
            }
            match (&l.values, &l.lut) {
                (Values::U8(v), Some(t)) => count!(v, |x: u8| t[x as usize] as usize),
                (Values::U16(v), Some(t)) => count!(v, |x: u16| t[x as usize] as usize),
                (Values::Dict(v, _), Some(t)) => count!(v, |x: u16| t[x as usize] as usize),
                (Values::U32(v), _) => count!(v, |x: u32| l.bins.of(x as f64)),
                (Values::F64(v), _) => count!(v, |x: f64| l.bins.of(x)),
                (Values::U8(v), None) => count!(v, |x: u8| l.bins.of(x as f64)),
                (Values::U16(v) | Values::Dict(v, _), None) => {
                    count!(v, |x: u16| l.bins.of(x as f64))
                }
            }
            (run.group, h)
        });
        let parts: Vec<(usize, Vec<u64>)> = chunks.collect();
        let mut out = vec![0u64; self.groups.len() * n];
        for (g, h) in parts {
            for (o, x) in out[g * n..(g + 1) * n].iter_mut().zip(h) {
                *o += x;
            }
        }
        out
    }

    /// Evaluate a filter (cached by its text): the selection bitmap and passing rows per group.
    /// Every column the filter reads is loaded first.
    pub fn select(&self, accept: &Accept) -> Result<Arc<Selection>, String> {
        let key = accept.source().to_string();
        if let Some(s) = self.cached(&key) {
            return Ok(s);
        }
        let mut src = Columns {
            table: self,
            cols: Vec::new(),
        };
        src.cols.resize(COLUMNS.len(), None);
        for &k in accept.columns_used() {
            let name = COLUMNS[k as usize].name;
            if matches!(name, "width" | "height" | "depth") {
                continue;
            }
            let c = self.by_known[k as usize].ok_or_else(|| {
                format!("--accept uses column '{name}', which these files do not have")
            })?;
            src.cols[k as usize] = Some(&self.column(c)?.values);
        }
        let words = self.rows.div_ceil(64);
        let mut bits = vec![0u64; words];
        bits.par_chunks_mut(BLOCK / 64).enumerate().for_each_init(
            || (filter::Scratch::default(), vec![false; BLOCK]),
            |(scratch, pass), (b, out)| {
                let start = b * BLOCK;
                let n = BLOCK.min(self.rows - start);
                accept.eval_block(&src, start, n, scratch, pass);
                for (w, chunk) in out.iter_mut().zip(pass[..n].chunks(64)) {
                    *w = chunk
                        .iter()
                        .enumerate()
                        .fold(0u64, |acc, (i, &p)| acc | ((p as u64) << i));
                }
            },
        );
        let mut pass = vec![0u64; self.groups.len()];
        for run in &self.runs {
            pass[run.group] += count_ones(&bits, run.start, run.end);
        }
        let sel = Arc::new(Selection {
            bits,
            pass,
            hists: Mutex::new(HashMap::new()),
        });
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|(k, _)| *k != key);
        if cache.len() >= CACHED {
            cache.remove(0);
        }
        cache.push((key, Arc::clone(&sel)));
        Ok(sel)
    }

    fn cached(&self, key: &str) -> Option<Arc<Selection>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, s)| Arc::clone(s))
    }

    /// Passing rows of column `c`'s histogram under `sel`, per group × bin.
    pub(crate) fn pass_histogram(
        &self,
        c: usize,
        sel: &Selection,
    ) -> Result<Arc<Vec<u64>>, String> {
        if let Some(h) = sel.hists.lock().unwrap_or_else(|e| e.into_inner()).get(&c) {
            return Ok(Arc::clone(h));
        }
        let l = self.column(c)?;
        let passing: u64 = sel.pass.iter().sum();
        // Walk the smaller side: passing rows, or rejected rows subtracted from all rows.
        let h = if passing * 2 <= self.rows as u64 {
            self.histogram(l, Some(&sel.bits), true)
        } else {
            let rejected = self.histogram(l, Some(&sel.bits), false);
            l.all.iter().zip(rejected).map(|(a, r)| a - r).collect()
        };
        let h = Arc::new(h);
        sel.hists
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(c, Arc::clone(&h));
        Ok(h)
    }

    /// The histograms of several columns under `sel`, computed in parallel.
    pub(crate) fn pass_histograms(
        &self,
        cols: &[usize],
        sel: &Selection,
    ) -> Result<Vec<Arc<Vec<u64>>>, String> {
        // Load first (each load is parallel inside), then bin in parallel over columns.
        for &c in cols {
            self.column(c)?;
        }
        cols.par_iter()
            .map(|&c| self.pass_histogram(c, sel))
            .collect()
    }

    /// The group of row `r`.
    pub(crate) fn group_of(&self, r: usize) -> usize {
        let k = self.runs.partition_point(|run| run.end <= r);
        self.runs[k].group
    }

    /// Up to `n` passing rows, a reproducible random sample for the filter text `key`.
    pub fn sample(&self, sel: &Selection, n: usize, key: &str) -> Vec<usize> {
        let total: u64 = sel.pass.iter().sum();
        let n = (n as u64).min(total) as usize;
        let mut rng = crate::rng::Rng::from_maze_seed(crate::rng::fnv1a64(key.as_bytes()));
        // Floyd's algorithm: n distinct ranks among the passing rows.
        let mut ranks: Vec<u64> = Vec::with_capacity(n);
        for j in (total - n as u64)..total {
            let t = draw_below(&mut rng, j + 1);
            if ranks.contains(&t) {
                ranks.push(j);
            } else {
                ranks.push(t);
            }
        }
        ranks.sort_unstable();
        // Rank → row, walking the bitmap once.
        let mut rows = Vec::with_capacity(n);
        let (mut seen, mut k) = (0u64, 0usize);
        for (w, &word) in sel.bits.iter().enumerate() {
            if k == n {
                break;
            }
            let c = word.count_ones() as u64;
            while k < n && ranks[k] < seen + c {
                let mut bitsleft = word;
                for _ in 0..(ranks[k] - seen) {
                    bitsleft &= bitsleft - 1;
                }
                rows.push(w * 64 + bitsleft.trailing_zeros() as usize);
                k += 1;
            }
            seen += c;
        }
        rows
    }

    /// The `index` column, loaded.
    pub(crate) fn index_values(&self) -> Result<&Values, String> {
        let c = self
            .column_index("index")
            .ok_or("these files have no 'index' column")?;
        Ok(&self.column(c)?.values)
    }

    /// Per run, whether its `index` values ascend (computed once).
    fn ascending(&self) -> Result<&[bool], String> {
        self.ascending
            .get_or_init(|| {
                let idx = self.index_values()?;
                Ok(self
                    .runs
                    .par_iter()
                    .map(|run| (run.start + 1..run.end).all(|r| idx.get(r - 1) <= idx.get(r)))
                    .collect())
            })
            .as_ref()
            .map(Vec::as_slice)
            .map_err(Clone::clone)
    }

    /// The pick rule of `batchgen levels` and of `--accept` with `--count` while generating:
    /// the first `n` rows passing `sel` (every row without one) by `index` among the rows of
    /// the groups for which `of(group)` holds, as `(index, row)` in index order (rows with
    /// equal indices in row order).
    pub fn first_passing(
        &self,
        sel: Option<&Selection>,
        of: impl Fn(usize) -> bool,
        n: usize,
    ) -> Result<Vec<(u64, usize)>, String> {
        let idx = self.index_values()?;
        let ascending = self.ascending()?;
        // The n smallest (index, row) pairs: a max-heap of at most n.
        let mut best: std::collections::BinaryHeap<(u64, usize)> =
            std::collections::BinaryHeap::with_capacity(n.min(1 << 16) + 1);
        if n == 0 {
            return Ok(Vec::new());
        }
        for (k, run) in self.runs.iter().enumerate() {
            if !of(run.group) {
                continue;
            }
            let mut taken = 0usize;
            let mut visit = |r: usize| -> bool {
                let key = (idx.get(r) as u64, r);
                if best.len() < n {
                    best.push(key);
                } else if key < *best.peek().expect("n > 0") {
                    best.pop();
                    best.push(key);
                }
                taken += 1;
                // In an ascending run the rows after the first n passing ones come later.
                !(ascending[k] && taken >= n)
            };
            match sel {
                None => {
                    for r in run.start..run.end {
                        if !visit(r) {
                            break;
                        }
                    }
                }
                Some(sel) => {
                    for r in set_rows(&sel.bits, run.start, run.end) {
                        if !visit(r) {
                            break;
                        }
                    }
                }
            }
        }
        Ok(best.into_sorted_vec())
    }

    /// How many rows of the groups for which `of(group)` holds have an `index` of at most
    /// `last`.
    pub(crate) fn rows_up_to(&self, of: impl Fn(usize) -> bool, last: u64) -> Result<u64, String> {
        let idx = self.index_values()?;
        let ascending = self.ascending()?;
        let mut n = 0u64;
        for (k, run) in self.runs.iter().enumerate() {
            if !of(run.group) {
                continue;
            }
            n += if ascending[k] {
                // The first row past `last`, by bisection.
                let (mut lo, mut hi) = (run.start, run.end);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if idx.get(mid) as u64 <= last {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                (lo - run.start) as u64
            } else {
                (run.start..run.end)
                    .filter(|&r| idx.get(r) as u64 <= last)
                    .count() as u64
            };
        }
        Ok(n)
    }

    /// Column values of row `r` (`None` where a file lacks the column or it failed to load).
    pub fn row_values(&self, r: usize) -> Vec<(String, Option<f64>)> {
        self.columns
            .iter()
            .enumerate()
            .map(|(c, col)| {
                let v = self.column(c).ok().map(|l| l.values.get(r));
                (col.name.clone(), v.filter(|x| !x.is_nan() || !col.integer))
            })
            .collect()
    }
}

/// An unbiased draw below `n` (which fits `u32` for any table this holds).
fn draw_below(rng: &mut crate::rng::Rng, n: u64) -> u64 {
    rng.below(n.min(u32::MAX as u64) as u32) as u64
}

/// Call `f` for every row in `start..end` whose bit equals `want`.
#[inline]
fn for_rows(bits: &[u64], start: usize, end: usize, want: bool, mut f: impl FnMut(usize)) {
    for_words(bits, start, end, want, |w, mut word| {
        while word != 0 {
            f(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    });
}

/// The rows in `start..end` whose bit is set, in order.
fn set_rows(bits: &[u64], start: usize, end: usize) -> impl Iterator<Item = usize> + '_ {
    let (first, last) = (start / 64, end.saturating_sub(1) / 64);
    (first..=last)
        .filter(move |_| start < end)
        .flat_map(move |w| {
            let mut word = bits[w];
            if w == first {
                word &= !0u64 << (start % 64);
            }
            if w == last && !end.is_multiple_of(64) {
                word &= !0u64 >> (64 - end % 64);
            }
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros() as usize;
                    word &= word - 1;
                    w * 64 + b
                })
            })
        })
}

/// Set bits in rows `start..end`.
fn count_ones(bits: &[u64], start: usize, end: usize) -> u64 {
    let mut n = 0u64;
    for_words(bits, start, end, true, |_, w| n += w.count_ones() as u64);
    n
}

/// Call `f(word index, word)` for the words of rows `start..end`, inverted unless `want`,
/// with the bits outside the range cleared.
#[inline]
fn for_words(bits: &[u64], start: usize, end: usize, want: bool, mut f: impl FnMut(usize, u64)) {
    if start >= end {
        return;
    }
    let (first, last) = (start / 64, (end - 1) / 64);
    for (w, &word) in bits.iter().enumerate().take(last + 1).skip(first) {
        let mut word = if want { word } else { !word };
        if w == first {
            word &= !0u64 << (start % 64);
        }
        if w == last && !end.is_multiple_of(64) {
            word &= !0u64 >> (64 - end % 64);
        }
        f(w, word);
    }
}

/// Identifier runs of one row group: ((algo, w, h, d, seed), rows).
#[allow(clippy::type_complexity)]
fn read_keys(
    input: &summary::Input,
    seed_leaf: usize,
    rg: usize,
) -> Result<Vec<((String, u32, u32, u32, u64), usize)>, SummaryError> {
    let path = &input.path;
    let file = File::open(path).map_err(|e| read_err(path, e))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| read_err(path, e))?;
    let mut wanted = vec![seed_leaf];
    wanted.extend(input.key_columns());
    let reader = summary::row_group_reader(b, &mut wanted, rg).map_err(|e| read_err(path, e))?;
    let pos = |i: usize| wanted.binary_search(&i).expect("projected");
    let mut out: Vec<((String, u32, u32, u32, u64), usize)> = Vec::new();
    let (mut names, mut ids) = (Vec::new(), Vec::new());
    let (mut w, mut h, mut d, mut s) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for batch in reader {
        let batch = batch.map_err(|e| read_err(path, e))?;
        let n = batch.num_rows();
        summary::no_null_keys(path, &batch, input.key_columns().map(pos))?;
        match &input.algo {
            Source::Column(i) => summary::strings(batch.column(pos(*i)), &mut names, &mut ids),
            Source::Constant(v) => {
                names.clear();
                names.push(v.clone());
                ids.clear();
                ids.resize(n, 0);
            }
        }
        let dim = |src: Option<&Source>, out: &mut Vec<f64>| match src {
            Some(Source::Column(i)) => summary::to_f64(batch.column(pos(*i)), out),
            Some(Source::Constant(v)) => {
                out.clear();
                out.resize(n, v.parse().unwrap_or(1.0));
            }
            None => {
                out.clear();
                out.resize(n, 1.0);
            }
        };
        dim(Some(&input.width), &mut w);
        dim(Some(&input.height), &mut h);
        dim(input.depth.as_ref(), &mut d);
        // Seeds are 64-bit: read them exactly, not through a double.
        s.clear();
        let sc = batch.column(pos(seed_leaf));
        match sc.as_any().downcast_ref::<arrow_array::UInt64Array>() {
            Some(a) => s.extend(a.values().iter().copied()),
            None => {
                let mut f = Vec::new();
                summary::to_f64(sc, &mut f);
                s.extend(f.iter().map(|&x| x as u64));
            }
        }
        for r in 0..n {
            let key = (
                names[ids[r] as usize].as_str(),
                w[r] as u32,
                h[r] as u32,
                d[r] as u32,
                s[r],
            );
            match out.last_mut() {
                Some((k, c))
                    if k.0 == key.0 && (k.1, k.2, k.3, k.4) == (key.1, key.2, key.3, key.4) =>
                {
                    *c += 1
                }
                _ => out.push(((key.0.to_string(), key.1, key.2, key.3, key.4), 1)),
            }
        }
    }
    Ok(out)
}

/// The table as the filter sees it: loaded columns by `COLUMNS` index, sizes from the runs.
struct Columns<'a> {
    table: &'a Table,
    cols: Vec<Option<&'a Values>>,
}

impl filter::Source for Columns<'_> {
    fn fill(&self, column: u8, start: usize, out: &mut [f64]) {
        match self.cols[column as usize] {
            Some(v) => v.fill(start, out),
            None => {
                // width, height, depth: constant over a run.
                let name = COLUMNS[column as usize].name;
                self.per_group(start, out, |g| {
                    (match name {
                        "width" => g.size.width,
                        "height" => g.size.height,
                        _ => g.size.depth,
                    }) as f64
                });
            }
        }
    }

    fn algo_codes(&self, start: usize, out: &mut [u16]) {
        self.per_group(start, out, |g| g.algo_code);
    }

    fn algos(&self) -> &[String] {
        &self.table.algos
    }

    fn grid_codes(&self, start: usize, out: &mut [u16]) {
        self.per_group(start, out, |g| {
            crate::topo::Grid::ALL
                .iter()
                .position(|&x| x == g.grid)
                .unwrap_or(0) as u16
        });
    }
}

impl Columns<'_> {
    /// `value(group)` of the group of each of rows `start .. start + out.len()`: a value that
    /// is constant over a run, filled run by run.
    fn per_group<T: Copy>(&self, start: usize, out: &mut [T], value: impl Fn(&Group) -> T) {
        let mut r = start;
        while r < start + out.len() {
            let k = self.table.runs.partition_point(|run| run.end <= r);
            let run = self.table.runs[k];
            let end = run.end.min(start + out.len());
            out[r - start..end - start].fill(value(&self.table.groups[run.group]));
            r = end;
        }
    }
}
