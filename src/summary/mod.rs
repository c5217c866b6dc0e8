//! Summaries of metrics files: per algorithm and size, the count, mean ± standard error and
//! quantiles of every numeric metric column, and with an accept filter the pass rate.
//!
//! Inputs are Parquet files, glob patterns or folders (searched recursively, so a
//! hive-partitioned dataset `DIR/algo=NAME/size=WxH/part-….parquet` works; a column missing
//! from the files is taken from the `algo=`/`size=` folder names). Metric columns are
//! discovered from each file's schema: every numeric column except identifiers
//! ([`NOT_METRICS`]), so new columns appear without code changes. Row groups are streamed in
//! parallel and folded into per-group [`dist::Stat`]s whose memory does not grow with rows.

pub mod dist;
pub mod inputs;
pub mod report;
pub mod report_json;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type,
    UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, GenericStringArray, OffsetSizeTrait, RecordBatch};
use arrow_schema::{DataType, Schema};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;
use rayon::prelude::*;

use crate::accept::{Accept, COLUMNS};
use crate::topo::Grid;
use dist::Stat;

/// Numeric columns that identify a maze or a cell rather than measure it (`cells` and
/// `mask_hash` describe the grid, like `width` and `height`).
pub const NOT_METRICS: [&str; 11] = [
    "seed",
    "maze_seed",
    "maze_hash",
    "index",
    "width",
    "height",
    "depth",
    "diameter_start",
    "diameter_end",
    "cells",
    "mask_hash",
];

/// The quantiles reported.
pub(crate) const QUANTILES: [f64; 5] = [0.05, 0.25, 0.5, 0.75, 0.95];

/// Why a summary could not be made. Every variant but [`SummaryError::Read`] is bad input
/// found before any statistics are computed.
#[derive(Debug, thiserror::Error)]
pub enum SummaryError {
    /// A path or pattern matched nothing.
    #[error("'{0}': no such file, folder or matching path")]
    NotFound(String),
    /// A folder held no Parquet files.
    #[error("'{0}': the folder holds no .parquet files")]
    EmptyFolder(String),
    /// The file is not Parquet (or is unreadable).
    #[error("'{path}': not a readable Parquet file ({why})")]
    NotParquet {
        /// The file.
        path: String,
        /// The reader's complaint.
        why: String,
    },
    /// A Parquet file that batchgen did not write.
    #[error("'{path}': not a batchgen metrics file ({why})")]
    NotBatchgen {
        /// The file.
        path: String,
        /// What is missing.
        why: String,
    },
    /// An input that is a FIFO, socket, device or folder link.
    #[error(transparent)]
    NotRegular(crate::folder_walk::InputError),
    /// A column of batchgen's schema holds another type.
    #[error("'{path}': column '{column}' is {found}, where batchgen writes {want}")]
    ColumnType {
        /// The file.
        path: String,
        /// The column.
        column: String,
        /// Its type in the file.
        found: String,
        /// The type batchgen writes.
        want: String,
    },
    /// A column is compressed with a codec this build cannot read.
    #[error("'{path}': column '{column}' is compressed with {codec}; batchgen reads uncompressed, ZSTD and SNAPPY Parquet (rewrite it with one of those, e.g. pyarrow's compression='zstd')")]
    Codec {
        /// The file.
        path: String,
        /// The column.
        column: String,
        /// The codec.
        codec: String,
    },
    /// A metrics file with no rows.
    #[error("'{0}': the file has no rows")]
    Empty(String),
    /// The filter uses a column the file lacks.
    #[error("'{path}': --accept uses column '{column}', which this file does not have")]
    MissingColumn {
        /// The file.
        path: String,
        /// The column.
        column: String,
    },
    /// A key column (algo, width, height, depth) holds NULLs: those rows have no generator or
    /// size to be grouped under.
    #[error("'{path}': column '{column}' holds {nulls} NULL value(s); batchgen's key columns (algo, width, height, depth) name each row's generator and size and are never NULL: fill them or drop those rows")]
    NullKey {
        /// The file.
        path: String,
        /// The column.
        column: String,
        /// NULLs counted (in the file's statistics, or in the batch that was being read).
        nulls: u64,
    },
    /// Reading failed part-way (I/O error, corrupt page).
    #[error("reading '{path}': {why}")]
    Read {
        /// The file.
        path: String,
        /// What failed.
        why: String,
    },
}

/// What to group rows by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupBy {
    /// Separate generators.
    pub algo: bool,
    /// Separate grid sizes.
    pub size: bool,
}

impl GroupBy {
    /// Parse `algo,size`, `algo`, `size` or `none`.
    pub fn parse(s: &str) -> Result<GroupBy, String> {
        let mut g = GroupBy {
            algo: false,
            size: false,
        };
        for part in s.split(',').map(str::trim) {
            match part {
                "algo" => g.algo = true,
                "size" => g.size = true,
                "none" | "" => {}
                other => return Err(format!("unknown key '{other}' (use algo, size or none)")),
            }
        }
        Ok(g)
    }
}

/// One group's key: generator and size (`None` when not grouped by it).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    /// Generator name.
    pub algo: Option<String>,
    /// `WxH` or `WxHxD`.
    pub size: Option<String>,
}

/// One group's statistics.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Rows.
    pub rows: u64,
    /// Rows passing the accept filter (when there is one).
    pub passing: u64,
    /// Per metric column, in schema order.
    pub metrics: Vec<(String, Stat)>,
}

impl Group {
    /// Pass-rate figures (every report format prints them): share of rows passing and
    /// candidates per accepted maze (infinite when none passes).
    pub(crate) fn pass_rate(&self) -> (f64, f64) {
        let share = self.passing as f64 / self.rows.max(1) as f64;
        let per = if self.passing == 0 {
            f64::INFINITY
        } else {
            self.rows as f64 / self.passing as f64
        };
        (share, per)
    }
}

/// A finished summary.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Groups in key order.
    pub groups: Vec<(Key, Group)>,
    /// The accept filter, if any.
    pub accept: Option<String>,
    /// Files read.
    pub files: usize,
}

/// A validated input file.
#[derive(Clone, Debug)]
pub(crate) struct Input {
    pub(crate) path: PathBuf,
    pub(crate) row_groups: usize,
    /// Metric columns (name, leaf index) in schema order.
    pub(crate) metrics: Vec<(String, usize)>,
    pub(crate) algo: Source,
    pub(crate) width: Source,
    pub(crate) height: Source,
    pub(crate) depth: Option<Source>,
    /// For each column the filter reads: its leaf index.
    pub(crate) accept_cols: Vec<(u8, usize)>,
    /// The grid of the file's mazes, the filter's `grid` ([`file_grid`]).
    pub(crate) grid: Grid,
}

/// Where a key column's value comes from.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    Column(usize),
    Constant(String),
}

impl Input {
    /// The leaf indices of the key columns (algo, width, height, depth) the file holds as
    /// columns rather than as constants.
    pub(crate) fn key_columns(&self) -> impl Iterator<Item = usize> + '_ {
        [&self.algo, &self.width, &self.height]
            .into_iter()
            .chain(self.depth.as_ref())
            .filter_map(|s| match s {
                Source::Column(i) => Some(*i),
                Source::Constant(_) => None,
            })
    }
}

/// A reader of row group `rg` of `b`'s file, of the columns `wanted` (leaf indices, sorted and
/// deduplicated here, so that a batch's column `k` is the leaf `wanted[k]`), in batches of
/// 65,536 rows.
pub(crate) fn row_group_reader(
    b: ParquetRecordBatchReaderBuilder<File>,
    wanted: &mut Vec<usize>,
    rg: usize,
) -> parquet::errors::Result<ParquetRecordBatchReader> {
    wanted.sort_unstable();
    wanted.dedup();
    let mask = ProjectionMask::roots(b.parquet_schema(), wanted.iter().copied());
    b.with_projection(mask)
        .with_row_groups(vec![rg])
        .with_batch_size(65_536)
        .build()
}

/// The Parquet codecs this build reads (the `parquet` crate's `zstd` and `snap` features).
fn supported_codec(c: parquet::basic::Compression) -> bool {
    use parquet::basic::Compression as C;
    matches!(c, C::UNCOMPRESSED | C::SNAPPY | C::ZSTD(_))
}

/// A codec's name without its level (`GZIP`, not `GZIP(GzipLevel(6))`).
fn codec_name(c: parquet::basic::Compression) -> String {
    let s = c.to_string();
    s.split('(').next().unwrap_or(&s).to_string()
}

/// Is this an arrow type we read as a number?
pub(crate) fn numeric(t: &DataType) -> bool {
    t.is_integer() || matches!(t, DataType::Float32 | DataType::Float64)
}

/// `algo=NAME` and `size=WxH` folder names in a path (hive partitioning).
fn partitions(path: &Path) -> BTreeMap<String, String> {
    path.components()
        .filter_map(|c| c.as_os_str().to_str())
        .filter_map(|c| c.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The file at `path` as a Parquet reader: a regular file that Parquet can read.
fn open_reader(
    path: &Path,
    shown: &str,
) -> Result<ParquetRecordBatchReaderBuilder<File>, SummaryError> {
    let file = crate::folder_walk::open_regular(path).map_err(|e| match e {
        e @ crate::folder_walk::InputError::NotRegular { .. } => SummaryError::NotRegular(e),
        e => SummaryError::NotParquet {
            path: shown.to_string(),
            why: e.to_string(),
        },
    })?;
    ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| SummaryError::NotParquet {
        path: shown.to_string(),
        why: e.to_string(),
    })
}

/// The footer says batchgen wrote the file, it has rows, and every column's codec is one this
/// build reads.
fn check_footer(
    b: &ParquetRecordBatchReaderBuilder<File>,
    shown: &str,
) -> Result<(), SummaryError> {
    let meta = b.metadata().file_metadata();
    let is_ours = meta
        .key_value_metadata()
        .is_some_and(|kv| kv.iter().any(|k| k.key == crate::meta_keys::VERSION));
    if !is_ours {
        return Err(SummaryError::NotBatchgen {
            path: shown.to_string(),
            why: "no batchgen.version in its metadata".into(),
        });
    }
    if meta.num_rows() == 0 {
        return Err(SummaryError::Empty(shown.to_string()));
    }
    for rg in b.metadata().row_groups() {
        for c in rg.columns() {
            if !supported_codec(c.compression()) {
                return Err(SummaryError::Codec {
                    path: shown.to_string(),
                    column: c.column_path().string(),
                    codec: codec_name(c.compression()),
                });
            }
        }
    }
    Ok(())
}

/// A column batchgen writes must have the type batchgen writes (the algo names may be plain
/// or dictionary-encoded strings, as other writers store them).
fn check_column_types(schema: &Schema, shown: &str) -> Result<(), SummaryError> {
    let ours = crate::sink::arrow::schema();
    for f in schema.fields() {
        let Ok(want) = ours.field_with_name(f.name()) else {
            continue;
        };
        let ok = match want.data_type() {
            DataType::Utf8 => {
                matches!(f.data_type(), DataType::Utf8 | DataType::LargeUtf8)
                    || matches!(f.data_type(), DataType::Dictionary(_, v) if **v == DataType::Utf8)
            }
            t => f.data_type() == t,
        };
        if !ok {
            return Err(SummaryError::ColumnType {
                path: shown.to_string(),
                column: f.name().clone(),
                found: f.data_type().to_string(),
                want: want.data_type().to_string(),
            });
        }
    }
    Ok(())
}

/// The key columns (algo, width, height, depth): from the file's columns, else from the
/// `algo=`/`size=` folder names of `path`.
fn key_sources(
    path: &Path,
    schema: &Schema,
    shown: &str,
) -> Result<(Source, Source, Source, Option<Source>), SummaryError> {
    let parts = partitions(path);
    let leaf = |name: &str| schema.fields().iter().position(|f| f.name() == name);
    let missing = |name: &str| SummaryError::NotBatchgen {
        path: shown.to_string(),
        why: format!("no '{name}' column"),
    };
    let key = |name: &str, part: &str| -> Result<Source, SummaryError> {
        match leaf(name) {
            Some(i) => Ok(Source::Column(i)),
            None => match parts.get(part) {
                Some(v) => Ok(Source::Constant(v.clone())),
                None => Err(missing(name)),
            },
        }
    };
    let size_part = parts.get("size").map(|s| {
        let v: Vec<&str> = s.split(['x', 'X']).collect();
        (v.first().copied(), v.get(1).copied(), v.get(2).copied())
    });
    let dim = |name: &str, k: usize| -> Result<Source, SummaryError> {
        match (leaf(name), size_part) {
            (Some(i), _) => Ok(Source::Column(i)),
            (None, Some(p)) => {
                let v = [p.0, p.1, p.2][k].unwrap_or("1");
                Ok(Source::Constant(v.to_string()))
            }
            (None, None) => Err(missing(name)),
        }
    };
    let algo = key("algo", "algo")?;
    let (width, height) = (dim("width", 0)?, dim("height", 1)?);
    let depth = match leaf("depth") {
        Some(i) => Some(Source::Column(i)),
        None => size_part
            .and_then(|p| p.2)
            .map(|d| Source::Constant(d.into())),
    };
    Ok((algo, width, height, depth))
}

/// For each column the filter reads, its leaf index; a column the file lacks (or holds as
/// anything but numbers) is an error.
fn accept_columns(
    schema: &Schema,
    accept: Option<&Accept>,
    shown: &str,
) -> Result<Vec<(u8, usize)>, SummaryError> {
    let leaf = |name: &str| schema.fields().iter().position(|f| f.name() == name);
    let mut accept_cols = Vec::new();
    if let Some(a) = accept {
        for &c in a.columns_used() {
            let name = COLUMNS[c as usize].name;
            match leaf(name) {
                Some(i) if numeric(schema.field(i).data_type()) => accept_cols.push((c, i)),
                _ => {
                    return Err(SummaryError::MissingColumn {
                        path: shown.to_string(),
                        column: name.into(),
                    })
                }
            }
        }
    }
    Ok(accept_cols)
}

/// Refuse a key column with NULLs that the file's statistics count (before any row is read;
/// a file without statistics is caught as it is read, by [`no_null_keys`]).
fn check_key_nulls<'a>(
    meta: &parquet::file::metadata::ParquetMetaData,
    schema: &Schema,
    keys: impl Iterator<Item = &'a Source>,
    shown: &str,
) -> Result<(), SummaryError> {
    for k in keys {
        let Source::Column(i) = k else { continue };
        let name = schema.field(*i).name();
        let descr = meta.file_metadata().schema_descr();
        let top = |c: usize| descr.column(c).path().parts() == [name.as_str()];
        let Some(leaf) = (0..descr.num_columns()).find(|&c| top(c)) else {
            continue;
        };
        let nulls: u64 = meta
            .row_groups()
            .iter()
            .filter_map(|rg| rg.column(leaf).statistics()?.null_count_opt())
            .sum();
        if nulls > 0 {
            return Err(SummaryError::NullKey {
                path: shown.to_string(),
                column: name.clone(),
                nulls,
            });
        }
    }
    Ok(())
}

/// Refuse a NULL in the key columns `cols` (indices into `batch`) of a batch read from `path`.
pub(crate) fn no_null_keys(
    path: &Path,
    batch: &RecordBatch,
    cols: impl IntoIterator<Item = usize>,
) -> Result<(), SummaryError> {
    for c in cols {
        let nulls = batch.column(c).null_count();
        if nulls > 0 {
            return Err(SummaryError::NullKey {
                path: crate::printable::path(path),
                column: batch.schema().field(c).name().clone(),
                nulls: nulls as u64,
            });
        }
    }
    Ok(())
}

pub(crate) fn open(path: &Path, accept: Option<&Accept>) -> Result<Input, SummaryError> {
    let shown = crate::printable::path(path);
    let b = open_reader(path, &shown)?;
    check_footer(&b, &shown)?;
    let schema = b.schema();
    check_column_types(schema, &shown)?;
    let (algo, width, height, depth) = key_sources(path, schema, &shown)?;
    let keys = [&algo, &width, &height].into_iter().chain(depth.as_ref());
    check_key_nulls(b.metadata(), schema, keys, &shown)?;
    let metrics = schema
        .fields()
        .iter()
        .enumerate()
        .filter(|(_, f)| numeric(f.data_type()) && !NOT_METRICS.contains(&f.name().as_str()))
        .map(|(i, f)| (f.name().clone(), i))
        .collect();
    let accept_cols = accept_columns(schema, accept, &shown)?;
    let grid = file_grid(b.metadata().file_metadata(), path)?;
    Ok(Input {
        path: path.to_path_buf(),
        row_groups: b.metadata().num_row_groups(),
        metrics,
        algo,
        width,
        height,
        depth,
        accept_cols,
        grid,
    })
}

/// The grid of a file's mazes: its `batchgen.grid` metadata, square without it (a name that is
/// no grid is refused naming the file).
pub(crate) fn file_grid(
    meta: &parquet::file::metadata::FileMetaData,
    path: &Path,
) -> Result<Grid, SummaryError> {
    let value = meta
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == crate::meta_keys::GRID))
        .and_then(|k| k.value.as_deref());
    value.map_or(Ok(Grid::Square), |g| {
        Grid::parse(g).map_err(|e| SummaryError::Read {
            path: crate::printable::path(path),
            why: format!("its {} metadata: {e}", crate::meta_keys::GRID),
        })
    })
}

/// Numbers of one column of a batch, as doubles (into a reused buffer); a NULL reads as NaN
/// (left out of the statistics, and NULL to an accept filter on a nullable column).
pub(crate) fn to_f64(a: &ArrayRef, out: &mut Vec<f64>) {
    out.clear();
    macro_rules! prim {
        ($t:ty) => {{
            let p = a.as_primitive::<$t>();
            match p.nulls().filter(|n| n.null_count() > 0) {
                None => out.extend(p.values().iter().map(|&v| v as f64)),
                Some(nulls) => {
                    out.extend(p.values().iter().zip(nulls.iter()).map(|(&v, valid)| {
                        if valid {
                            v as f64
                        } else {
                            f64::NAN
                        }
                    }))
                }
            }
        }};
    }
    match a.data_type() {
        DataType::UInt8 => prim!(UInt8Type),
        DataType::UInt16 => prim!(UInt16Type),
        DataType::UInt32 => prim!(UInt32Type),
        DataType::UInt64 => prim!(UInt64Type),
        DataType::Int8 => prim!(Int8Type),
        DataType::Int16 => prim!(Int16Type),
        DataType::Int32 => prim!(Int32Type),
        DataType::Int64 => prim!(Int64Type),
        DataType::Float32 => prim!(Float32Type),
        DataType::Float64 => prim!(Float64Type),
        _ => out.resize(a.len(), f64::NAN),
    }
}

/// Strings of a column (plain or dictionary-encoded), into a reused buffer of owned names;
/// `ids[r]` indexes `names`.
pub(crate) fn strings(a: &ArrayRef, names: &mut Vec<String>, ids: &mut Vec<u32>) {
    names.clear();
    ids.clear();
    match a.data_type() {
        DataType::Dictionary(_, _) => {
            let d = a.as_any_dictionary();
            let values = d.values();
            if let Some(v) = values.as_string_opt::<i32>() {
                names.extend(v.iter().map(|s| s.unwrap_or("").to_string()));
            }
            let keys = d.normalized_keys();
            ids.extend(keys.iter().map(|&k| k as u32));
        }
        _ => {
            if let Some(s) = a.as_string_opt::<i32>() {
                string_runs(s, names, ids);
            } else if let Some(s) = a.as_string_opt::<i64>() {
                string_runs(s, names, ids);
            } else {
                ids.resize(a.len(), 0);
                names.push(String::new());
            }
        }
    }
}

/// A plain string column as runs: a name for each run of equal values, `ids[r]` its index.
fn string_runs<O: OffsetSizeTrait>(
    s: &GenericStringArray<O>,
    names: &mut Vec<String>,
    ids: &mut Vec<u32>,
) {
    for v in s.iter() {
        let v = v.unwrap_or("");
        if names.last().map(String::as_str) != Some(v) {
            names.push(v.to_string());
        }
        ids.push(names.len() as u32 - 1);
    }
}

/// Partial result of some row groups.
#[derive(Default)]
struct Partial {
    groups: BTreeMap<Key, Group>,
}

impl Partial {
    fn merge(mut self, other: Partial) -> Partial {
        for (k, g) in other.groups {
            match self.groups.get_mut(&k) {
                None => {
                    self.groups.insert(k, g);
                }
                Some(mine) => {
                    mine.rows += g.rows;
                    mine.passing += g.passing;
                    for (name, st) in g.metrics {
                        match mine.metrics.iter_mut().find(|m| m.0 == name) {
                            Some(m) => m.1.merge(&st),
                            None => mine.metrics.push((name, st)),
                        }
                    }
                }
            }
        }
        self
    }
}

/// A read failure of `input`'s file, naming it.
fn read_error(input: &Input) -> impl Fn(&dyn std::fmt::Display) -> SummaryError + '_ {
    |e| SummaryError::Read {
        path: crate::printable::path(&input.path),
        why: e.to_string(),
    }
}

/// Column index in [`COLUMNS`] → slot of the filter's columns of `input`.
fn accept_slots(input: &Input) -> [usize; 256] {
    let mut slot = [usize::MAX; 256];
    for (k, &(c, _)) in input.accept_cols.iter().enumerate() {
        slot[c as usize] = k;
    }
    slot
}

/// The generator names of a batch's `n` rows into reused buffers (see [`strings`]): from the
/// column `col` when the file has one, else the one name its folder gives.
fn algo_names<'a>(
    source: &Source,
    col: impl Fn(usize) -> &'a ArrayRef,
    n: usize,
    names: &mut Vec<String>,
    ids: &mut Vec<u32>,
) {
    match source {
        Source::Column(i) => strings(col(*i), names, ids),
        Source::Constant(s) => {
            names.clear();
            names.push(s.clone());
            ids.clear();
            ids.resize(n, 0);
        }
    }
}

/// The file columns a row group read needs: metrics, key columns, filter columns (the reader
/// sorts them).
fn projected(input: &Input) -> Vec<usize> {
    let mut wanted: Vec<usize> = input.metrics.iter().map(|m| m.1).collect();
    wanted.extend(input.key_columns());
    wanted.extend(input.accept_cols.iter().map(|c| c.1));
    wanted
}

/// One batch's columns as numbers, in buffers reused from batch to batch.
struct Columns {
    names: Vec<String>,
    ids: Vec<u32>,
    w: Vec<f64>,
    h: Vec<f64>,
    d: Vec<f64>,
    metric_vals: Vec<Vec<f64>>,
    accept_vals: Vec<Vec<f64>>,
}

impl Columns {
    fn new(input: &Input) -> Columns {
        Columns {
            names: Vec::new(),
            ids: Vec::new(),
            w: Vec::new(),
            h: Vec::new(),
            d: Vec::new(),
            metric_vals: vec![Vec::new(); input.metrics.len()],
            accept_vals: vec![Vec::new(); input.accept_cols.len()],
        }
    }

    /// Read `batch`, whose column `pos(i)` holds file column `i`.
    fn load(&mut self, input: &Input, batch: &RecordBatch, pos: impl Fn(usize) -> usize) {
        let n = batch.num_rows();
        let col = |i: usize| batch.column(pos(i));
        algo_names(&input.algo, col, n, &mut self.names, &mut self.ids);
        let dim = |s: &Source, out: &mut Vec<f64>| match s {
            Source::Column(i) => to_f64(col(*i), out),
            Source::Constant(v) => {
                out.clear();
                out.resize(n, v.parse().unwrap_or(f64::NAN));
            }
        };
        dim(&input.width, &mut self.w);
        dim(&input.height, &mut self.h);
        match &input.depth {
            Some(s) => dim(s, &mut self.d),
            None => {
                self.d.clear();
                self.d.resize(n, 1.0);
            }
        }
        for (k, m) in input.metrics.iter().enumerate() {
            to_f64(col(m.1), &mut self.metric_vals[k]);
        }
        for (k, c) in input.accept_cols.iter().enumerate() {
            to_f64(col(c.1), &mut self.accept_vals[k]);
        }
    }

    /// The end of the run of rows from `r` that share one group (rows of one group come in
    /// runs: the group is looked up once per run).
    fn run_end(&self, r: usize, n: usize) -> usize {
        let (ids, w, h, d) = (&self.ids, &self.w, &self.h, &self.d);
        let mut end = r + 1;
        while end < n && ids[end] == ids[r] && w[end] == w[r] && h[end] == h[r] && d[end] == d[r] {
            end += 1;
        }
        end
    }

    /// The group key of row `r`.
    fn key(&self, r: usize, by: GroupBy) -> Key {
        let (w, h, d) = (self.w[r], self.h[r], self.d[r]);
        let size = if d == 1.0 {
            format!("{w}x{h}")
        } else {
            format!("{w}x{h}x{d}")
        };
        Key {
            algo: by.algo.then(|| self.names[self.ids[r] as usize].clone()),
            size: by.size.then_some(size),
        }
    }
}

/// Add rows `r..end` (one group's run) of the loaded columns to group `g`.
fn add_run(
    g: &mut Group,
    input: &Input,
    cols: &Columns,
    (r, end): (usize, usize),
    accept: Option<&Accept>,
    slot: &[usize; 256],
) {
    if g.metrics.is_empty() {
        g.metrics = input
            .metrics
            .iter()
            .map(|m| (m.0.clone(), Stat::default()))
            .collect();
    }
    g.rows += (end - r) as u64;
    for (k, m) in input.metrics.iter().enumerate() {
        // Files with different columns can share a group: find by name.
        let st = if g.metrics.get(k).is_some_and(|x| x.0 == m.0) {
            &mut g.metrics[k].1
        } else {
            match g.metrics.iter().position(|x| x.0 == m.0) {
                Some(p) => &mut g.metrics[p].1,
                None => {
                    g.metrics.push((m.0.clone(), Stat::default()));
                    &mut g.metrics.last_mut().expect("pushed").1
                }
            }
        };
        for &v in &cols.metric_vals[k][r..end] {
            st.add(v);
        }
    }
    if let Some(a) = accept {
        let algo = cols.names[cols.ids[r] as usize].as_str();
        let vals = &cols.accept_vals;
        g.passing += (r..end)
            .filter(|&row| a.eval_with(algo, input.grid, |c| vals[slot[c as usize]][row]))
            .count() as u64;
    }
}

/// Read one row group of `input` into a partial summary.
fn read_row_group(
    input: &Input,
    rg: usize,
    by: GroupBy,
    accept: Option<&Accept>,
) -> Result<Partial, SummaryError> {
    let err = read_error(input);
    let file = File::open(&input.path).map_err(|e| err(&e))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| err(&e))?;
    let mut wanted = projected(input);
    let reader = row_group_reader(b, &mut wanted, rg).map_err(|e| err(&e))?;
    // Batch column index of file column `i`.
    let pos = |i: usize| wanted.binary_search(&i).expect("projected");
    let mut part = Partial::default();
    let mut cols = Columns::new(input);
    let slot = accept_slots(input);
    for batch in reader {
        let batch: RecordBatch = batch.map_err(|e| err(&e))?;
        let n = batch.num_rows();
        no_null_keys(&input.path, &batch, input.key_columns().map(pos))?;
        cols.load(input, &batch, pos);
        let mut r = 0;
        while r < n {
            let end = cols.run_end(r, n);
            let g = part.groups.entry(cols.key(r, by)).or_default();
            add_run(g, input, &cols, (r, end), accept, &slot);
            r = end;
        }
    }
    Ok(part)
}

/// Summarise the files (already resolved by [`inputs::resolve`]). All files are opened and
/// checked before any statistics are computed.
pub fn summarize(
    files: &[PathBuf],
    by: GroupBy,
    accept: Option<&Accept>,
) -> Result<Summary, SummaryError> {
    let inputs: Vec<Input> = files
        .iter()
        .map(|p| open(p, accept))
        .collect::<Result<_, _>>()?;
    let units: Vec<(usize, usize)> = inputs
        .iter()
        .enumerate()
        .flat_map(|(f, i)| (0..i.row_groups).map(move |rg| (f, rg)))
        .collect();
    let total = units
        .par_iter()
        .map(|&(f, rg)| read_row_group(&inputs[f], rg, by, accept))
        .try_reduce(Partial::default, |a, b| Ok(a.merge(b)))?;
    Ok(Summary {
        groups: total.groups.into_iter().collect(),
        accept: accept.map(|a| a.source().to_string()),
        files: files.len(),
    })
}

/// Visit every row of the files in order: its algorithm, the values of `columns` (by name, in
/// the given order; a column a file lacks reads as NaN) and whether it passes `accept`.
pub fn scan(
    files: &[PathBuf],
    columns: &[&str],
    accept: Option<&Accept>,
    mut f: impl FnMut(&str, &[f64], bool),
) -> Result<(), SummaryError> {
    let inputs: Vec<Input> = files
        .iter()
        .map(|p| open(p, accept))
        .collect::<Result<_, _>>()?;
    let mut row = vec![0.0; columns.len()];
    for input in &inputs {
        let err = read_error(input);
        let file = File::open(&input.path).map_err(|e| err(&e))?;
        let b = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| err(&e))?;
        let schema = b.schema().clone();
        let leaf = |name: &str| schema.fields().iter().position(|x| x.name() == name);
        let col_leaf: Vec<Option<usize>> = columns.iter().map(|c| leaf(c)).collect();
        let mut wanted: Vec<usize> = col_leaf.iter().flatten().copied().collect();
        if let Source::Column(i) = input.algo {
            wanted.push(i);
        }
        wanted.extend(input.accept_cols.iter().map(|c| c.1));
        wanted.sort_unstable();
        wanted.dedup();
        let mask = ProjectionMask::roots(b.parquet_schema(), wanted.iter().copied());
        let reader = b
            .with_projection(mask)
            .with_batch_size(65_536)
            .build()
            .map_err(|e| err(&e))?;
        let pos = |i: usize| wanted.binary_search(&i).expect("projected");
        let (mut names, mut ids) = (Vec::new(), Vec::new());
        let mut vals: Vec<Vec<f64>> = vec![Vec::new(); columns.len()];
        let mut acc: Vec<Vec<f64>> = vec![Vec::new(); input.accept_cols.len()];
        let slot = accept_slots(input);
        for batch in reader {
            let batch = batch.map_err(|e| err(&e))?;
            let n = batch.num_rows();
            let col = |i: usize| batch.column(pos(i));
            algo_names(&input.algo, col, n, &mut names, &mut ids);
            for (k, l) in col_leaf.iter().enumerate() {
                match l {
                    Some(i) => to_f64(batch.column(pos(*i)), &mut vals[k]),
                    None => {
                        vals[k].clear();
                        vals[k].resize(n, f64::NAN);
                    }
                }
            }
            for (k, c) in input.accept_cols.iter().enumerate() {
                to_f64(batch.column(pos(c.1)), &mut acc[k]);
            }
            for r in 0..n {
                let algo = names[ids[r] as usize].as_str();
                let pass = accept
                    .is_some_and(|a| a.eval_with(algo, input.grid, |c| acc[slot[c as usize]][r]));
                for (k, v) in vals.iter().enumerate() {
                    row[k] = v[r];
                }
                f(algo, &row, pass);
            }
        }
    }
    Ok(())
}
