//! Choosing rows of metrics files and making their mazes again: the reading half of
//! `batchgen levels` (the exporters in [`crate::export`] are the writing half), kept apart so
//! that any front end picks the same rows by the same rule.
//!
//! Inputs are what `summary` takes ([`crate::summary::inputs::resolve`]: files, globs,
//! dataset folders). Rows are grouped by (algo, width, height, depth, grid; the grid is a
//! file's `batchgen.grid` metadata, square without it) and, within a group,
//! picked by one of two rules:
//!
//! - [`Pick::First`]: the `N` passing rows of smallest `index` (ties, e.g. two files of one
//!   group with different seeds, by input order and then row order). This is the rule the main
//!   job's `--accept` with `--count N` uses (it tries indices 0, 1, 2, … and keeps the first N
//!   that pass), so on a file made without a filter the same filter picks the same mazes both
//!   ways.
//! - [`Pick::Sample`]`(s)`: the `N` passing rows of smallest *sample key*
//!   `splitmix64(s ^ splitmix64(fnv1a64("ALGO WxH[xD]") ^ index))` (ties as above): a
//!   reproducible sample that does not depend on file order, sharding or the other rows, and
//!   changes completely with `s`.
//!
//! Either way the picked rows of a group are handed back in `index` order, the groups in the
//! order they first appear in the inputs. Without `N` every passing row is picked, up to
//! [`MAX_UNCOUNTED`] in all (more is an error asking for a count).
//!
//! The first pass reads only the columns it needs (the identity columns, `maze_hash` and the
//! filter's columns); with [`Pick::First`] and a count, a row group whose statistics show one
//! group that is already full with smaller indices is skipped, and reading a row group of one
//! group stops as soon as that group is full (when its indices ascend, as batchgen writes them). The second pass ([`row_values`]) reads every column of the
//! picked rows only. [`Picked::level`] makes the maze again from its identity and the file's
//! metadata (ends rule, mask) and refuses one whose hash is not the row's `maze_hash`.

use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type,
    UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReaderBuilder, RowSelection};
use parquet::arrow::ProjectionMask;
use parquet::file::statistics::Statistics;

use crate::accept::Accept;
use crate::grid::{Mask, Size};
use crate::level::Level;
use crate::meta_keys as keys;
use crate::metrics::Ends;
use crate::summary::{self, SummaryError};
use crate::topo::{Grid, GridSize};
use crate::{Algorithm, MazeId};

/// Most rows picked without a count.
pub const MAX_UNCOUNTED: usize = 10_000;

/// How rows are chosen within a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The passing rows of smallest index (the main job's `--accept` + `--count` rule).
    First,
    /// A reproducible sample keyed by this seed (see the module docs for the exact rule).
    Sample(u64),
}

/// What to pick.
#[derive(Clone, Debug)]
pub struct PickSpec<'a> {
    /// Only rows passing this filter (all rows without one).
    pub accept: Option<&'a Accept>,
    /// Rows per (algo, size) group; `None`: every passing row (at most [`MAX_UNCOUNTED`]).
    pub count: Option<u64>,
    /// The rule.
    pub pick: Pick,
    /// The ends rule for files without `batchgen.ends` (as [`Ends::rule`] writes it).
    pub ends_rule: Option<&'a str>,
    /// The mask text for files of masked rows without `batchgen.mask`.
    pub mask: Option<Arc<Mask>>,
}

/// Why rows could not be picked or their mazes made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PickError {
    /// An input problem found while opening the files (as `summary` reports it).
    #[error(transparent)]
    Input(#[from] SummaryError),
    /// A column needed to make a row's maze again is missing.
    #[error("'{path}': no '{column}' column; a level is made again from its row's algo, width, height, seed, index and maze_hash")]
    NoColumn {
        /// The file.
        path: String,
        /// The column.
        column: &'static str,
    },
    /// The file does not say how its entrance and exit were chosen.
    #[error("'{path}': the file's metadata has no batchgen.ends (the entrance/exit rule of its rows); give it with --ends-rule, e.g. --ends-rule diameter or --ends-rule 'entrance=0,0 exit=31,31'")]
    NoEndsRule {
        /// The file.
        path: String,
    },
    /// An ends rule that does not fit the row's size.
    #[error("'{path}': the entrance/exit rule '{rule}' does not fit a {size} maze; give the right one with --ends-rule")]
    BadEndsRule {
        /// The file.
        path: String,
        /// The rule.
        rule: String,
        /// The size.
        size: Size,
    },
    /// Masked rows in a file that does not hold its mask.
    #[error("'{path}' row {row}: the maze fills the mask of hash {hash} (its mask_hash) and the file's metadata holds no batchgen.mask; give the mask file with --mask FILE")]
    NoMask {
        /// The file.
        path: String,
        /// The row (0-based, in the file).
        row: u64,
        /// The mask's hash.
        hash: u64,
    },
    /// A mask that is not the row's.
    #[error("'{path}' row {row}: the maze fills the mask of hash {want}, the mask {from} hashes to {got}")]
    WrongMask {
        /// The file.
        path: String,
        /// The row.
        row: u64,
        /// The row's `mask_hash`.
        want: u64,
        /// The mask's hash.
        got: u64,
        /// Where the mask came from.
        from: &'static str,
    },
    /// The file's `batchgen.mask` text does not parse.
    #[error("'{path}': its batchgen.mask metadata is not a mask ({why}); give the mask file with --mask FILE")]
    BadMask {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
    /// A generator name this version does not know.
    #[error("'{path}' row {row}: {why}")]
    Row {
        /// The file.
        path: String,
        /// The row.
        row: u64,
        /// What is wrong.
        why: String,
    },
    /// The regenerated maze is not the row's.
    #[error("'{path}' row {row} ({id}): the maze made again hashes to {got}, the row's maze_hash is {want}; batchgen {version} (seeding scheme {scheme}) does not make this row's maze, so it is not delivered")]
    HashMismatch {
        /// The file.
        path: String,
        /// The row.
        row: u64,
        /// The maze's identity.
        id: String,
        /// The row's hash.
        want: u64,
        /// The hash of the maze made.
        got: u64,
        /// This batchgen's version.
        version: &'static str,
        /// This batchgen's seeding scheme.
        scheme: u32,
    },
    /// Too many rows pass without a count.
    #[error("{passing} rows pass, more than the {max} levels written without a count; give --count N (levels per algo and size) or a narrower --accept")]
    TooMany {
        /// Rows passing.
        passing: usize,
        /// [`MAX_UNCOUNTED`].
        max: usize,
    },
    /// Reading failed part-way.
    #[error("reading '{path}': {why}")]
    Read {
        /// The file.
        path: String,
        /// What failed.
        why: String,
    },
}

/// One picked row: where it is and what identifies its maze.
#[derive(Clone, Debug)]
pub struct Picked {
    /// The maze's identity (ends as the file's rule gives them).
    pub id: MazeId,
    /// The mask the maze fills (when `id.mask_hash` is not 0).
    pub mask: Option<Arc<Mask>>,
    /// The row's `maze_hash`.
    pub maze_hash: u64,
    /// The file (as resolved).
    pub path: Arc<PathBuf>,
    /// The row within the file (0-based).
    pub row: u64,
}

impl Picked {
    /// Make the maze again and check it against the row's `maze_hash`.
    pub fn level(&self) -> Result<Level, PickError> {
        let level = self
            .id
            .level_on(self.mask.clone())
            .map_err(|e| PickError::Row {
                path: self.path.display().to_string(),
                row: self.row,
                why: e.to_string(),
            })?;
        let got = level.maze_hash();
        if got != self.maze_hash {
            return Err(PickError::HashMismatch {
                path: self.path.display().to_string(),
                row: self.row,
                id: self.id.to_string(),
                want: self.maze_hash,
                got,
                version: env!("CARGO_PKG_VERSION"),
                scheme: crate::rng::SEEDING_SCHEME,
            });
        }
        Ok(level)
    }
}

/// The sample key of row `index` of group `group` (`"ALGO WxH"`, `"ALGO WxHxD"` in 3D) under pick seed `seed`.
pub fn sample_key(seed: u64, group: &str, index: u64) -> u64 {
    use crate::rng::{fnv1a64, splitmix64};
    splitmix64(seed ^ splitmix64(fnv1a64(group.as_bytes()) ^ index))
}

/// A group's name in sample keys and messages: `wilson 32x32`, `kruskal 8x8x4`.
pub fn group_name(algo: &str, size: Size) -> String {
    format!("{algo} {size}")
}

/// [`group_name`] of a group on `grid`: the square grid's as [`group_name`], the others'
/// with the grid before the size (`wilson hex 8x8`, `prim polar 12`).
pub fn grid_group_name(algo: &str, size: Size, grid: Grid) -> String {
    match grid {
        Grid::Square => group_name(algo, size),
        g => format!("{algo} {g} {}", GridSize::new(g, size.width, size.height)),
    }
}

/// A candidate in a group's heap; ordered by (key, file, row).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Cand {
    key: u64,
    file: usize,
    row: u64,
    index: u64,
    seed: u64,
    mask_hash: u64,
    braid_bits: u64,
    maze_hash: u64,
}

/// One group's picks so far.
struct Group {
    algo: Algorithm,
    name: String,
    size: Size,
    grid: Grid,
    heap: BinaryHeap<Cand>,
}

/// A file's per-file facts.
struct FileInfo {
    path: Arc<PathBuf>,
    ends_rule: Option<String>,
    mask: Option<Arc<Mask>>,
    mask_error: Option<String>,
}

/// Leaf index of every column the first pass reads.
struct Leaves {
    algo: usize,
    width: usize,
    height: usize,
    depth: Option<usize>,
    seed: usize,
    index: usize,
    maze_hash: usize,
    mask_hash: Option<usize>,
    braid: Option<usize>,
}

fn leaves(schema: &arrow_schema::Schema, path: &Path) -> Result<Leaves, PickError> {
    let at = |name: &str| schema.fields().iter().position(|f| f.name() == name);
    let need = |name: &'static str| {
        at(name).ok_or_else(|| PickError::NoColumn {
            path: path.display().to_string(),
            column: name,
        })
    };
    Ok(Leaves {
        algo: need("algo")?,
        width: need("width")?,
        height: need("height")?,
        depth: at("depth"),
        seed: need("seed")?,
        index: need("index")?,
        maze_hash: need("maze_hash")?,
        mask_hash: at("mask_hash"),
        braid: at("braid"),
    })
}

/// The value of a column chunk's statistics when its minimum equals its maximum.
fn single_value(s: Option<&Statistics>) -> Option<Vec<u8>> {
    match s? {
        Statistics::ByteArray(v) => {
            let (a, b) = (v.min_opt()?, v.max_opt()?);
            (a == b).then(|| a.data().to_vec())
        }
        Statistics::Int32(v) => {
            let (a, b) = (v.min_opt()?, v.max_opt()?);
            (a == b).then(|| a.to_le_bytes().to_vec())
        }
        _ => None,
    }
}

/// Numbers of an unsigned integer column, as u64 (into a reused buffer).
fn to_u64(a: &ArrayRef, out: &mut Vec<u64>) {
    out.clear();
    match a.data_type() {
        DataType::UInt32 => out.extend(
            a.as_primitive::<UInt32Type>()
                .values()
                .iter()
                .map(|&v| v as u64),
        ),
        DataType::UInt64 => out.extend(a.as_primitive::<UInt64Type>().values().iter().copied()),
        _ => out.resize(a.len(), 0),
    }
}

/// Pick rows of `files` (resolved by [`summary::inputs::resolve`]) by `spec`. All files are
/// opened and checked before any row is read.
pub fn choose(files: &[PathBuf], spec: &PickSpec<'_>) -> Result<Vec<Picked>, PickError> {
    let inputs: Vec<summary::Input> = files
        .iter()
        .map(|p| summary::open(p, spec.accept))
        .collect::<Result<_, _>>()?;
    let mut groups: Vec<Group> = Vec::new();
    let mut slot_of: HashMap<(String, Size, Grid), usize> = HashMap::new();
    let mut infos = Vec::with_capacity(files.len());
    let mut total = 0usize;
    let cap = spec.count.map(|n| n.min(usize::MAX as u64) as usize);
    for (f, input) in inputs.iter().enumerate() {
        let path = &input.path;
        let shown = path.display().to_string();
        let err = |e: &dyn std::fmt::Display| PickError::Read {
            path: shown.clone(),
            why: e.to_string(),
        };
        let b = ParquetRecordBatchReaderBuilder::try_new(File::open(path).map_err(|e| err(&e))?)
            .map_err(|e| err(&e))?;
        let meta: HashMap<String, String> = b
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .map(|kv| {
                kv.iter()
                    .filter_map(|k| Some((k.key.clone(), k.value.clone()?)))
                    .collect()
            })
            .unwrap_or_default();
        let grid = match meta.get(keys::GRID) {
            None => Grid::Square,
            Some(g) => Grid::parse(g).map_err(|why| PickError::Read {
                path: shown.clone(),
                why: format!("metadata {}: {why}", keys::GRID),
            })?,
        };
        // A hex or triangle mask is connected through its own grid's neighbours (checked
        // when its graph is built), not necessarily through the square ones.
        let read_mask = |text: &str| match grid {
            Grid::Square => Mask::from_text(text),
            _ => Mask::cells_from_bytes(text.as_bytes()),
        };
        let (mask, mask_error) = match (&spec.mask, meta.get(keys::MASK)) {
            (Some(m), _) => (Some(m.clone()), None),
            (None, Some(text)) => match read_mask(text) {
                Ok(m) => (Some(Arc::new(m)), None),
                Err(e) => (None, Some(e.to_string())),
            },
            (None, None) => (None, None),
        };
        infos.push(FileInfo {
            path: Arc::new(path.clone()),
            ends_rule: spec
                .ends_rule
                .map(str::to_string)
                .or_else(|| meta.get(keys::ENDS).cloned()),
            mask,
            mask_error,
        });
        let lv = leaves(b.schema(), path)?;
        let mut wanted: Vec<usize> = [
            lv.algo,
            lv.width,
            lv.height,
            lv.seed,
            lv.index,
            lv.maze_hash,
        ]
        .into_iter()
        .chain(lv.depth)
        .chain(lv.mask_hash)
        .chain(lv.braid)
        .chain(input.accept_cols.iter().map(|c| c.1))
        .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let pos = |i: usize| wanted.binary_search(&i).expect("projected");
        let mut slot = [usize::MAX; 256];
        for (k, &(c, _)) in input.accept_cols.iter().enumerate() {
            slot[c as usize] = k;
        }
        let row_groups: Vec<(usize, u64)> = b
            .metadata()
            .row_groups()
            .iter()
            .enumerate()
            .map(|(i, rg)| (i, rg.num_rows() as u64))
            .collect();
        let metadata = b.metadata().clone();
        let mut first_row = 0u64;
        let (mut names, mut ids) = (Vec::new(), Vec::new());
        let (mut w, mut h, mut d, mut seed, mut index, mut hash, mut mh) = Default::default();
        let mut braid: Vec<f64> = Vec::new();
        let mut accept_vals: Vec<Vec<f64>> = vec![Vec::new(); input.accept_cols.len()];
        for (rg, rg_rows) in row_groups {
            let rg_first = first_row;
            first_row += rg_rows;
            // A row group of one group, already full with smaller indices, is skipped.
            let rg_meta = metadata.row_group(rg);
            let one_group = {
                let st = |leaf: usize| single_value(rg_meta.column(leaf).statistics());
                let algo = st(lv.algo).and_then(|v| String::from_utf8(v).ok());
                let dim = |leaf: Option<usize>| match leaf {
                    None => Some(1u32),
                    Some(l) => st(l).map(|v| u32::from_le_bytes(v[..4].try_into().expect("4"))),
                };
                match (
                    algo,
                    dim(Some(lv.width)),
                    dim(Some(lv.height)),
                    dim(lv.depth),
                ) {
                    (Some(a), Some(w), Some(h), Some(d)) => {
                        slot_of.get(&(a, Size::new(w, h, d), grid)).copied()
                    }
                    _ => None,
                }
            };
            let full = |g: &Group, below: u64| match (spec.pick, cap) {
                (Pick::First, Some(n)) => {
                    g.heap.len() >= n && g.heap.peek().is_some_and(|top| top.key < below)
                }
                _ => false,
            };
            if let Some(g) = one_group {
                let min_index = match rg_meta.column(lv.index).statistics() {
                    Some(Statistics::Int64(v)) => v.min_opt().map(|&m| m as u64),
                    _ => None,
                };
                if min_index.is_some_and(|m| full(&groups[g], m)) {
                    continue;
                }
            }
            let b =
                ParquetRecordBatchReaderBuilder::try_new(File::open(path).map_err(|e| err(&e))?)
                    .map_err(|e| err(&e))?;
            let mask = ProjectionMask::roots(b.parquet_schema(), wanted.iter().copied());
            let reader = b
                .with_projection(mask)
                .with_row_groups(vec![rg])
                .with_batch_size(65_536)
                .build()
                .map_err(|e| err(&e))?;
            let mut batch_first = rg_first;
            // Whether the row group's indices so far never decrease (batchgen writes each
            // group's rows in index order; a file sorted otherwise is read to the end).
            let (mut ascending, mut last_index) = (true, 0u64);
            for batch in reader {
                let batch: RecordBatch = batch.map_err(|e| err(&e))?;
                let n = batch.num_rows();
                let col = |i: usize| batch.column(pos(i));
                let keys = [lv.algo, lv.width, lv.height].into_iter().chain(lv.depth);
                summary::no_null_keys(path, &batch, keys.map(pos))?;
                summary::strings(col(lv.algo), &mut names, &mut ids);
                to_u64(col(lv.width), &mut w);
                to_u64(col(lv.height), &mut h);
                match lv.depth {
                    Some(l) => to_u64(col(l), &mut d),
                    None => {
                        d.clear();
                        d.resize(n, 1)
                    }
                }
                to_u64(col(lv.seed), &mut seed);
                to_u64(col(lv.index), &mut index);
                ascending = ascending
                    && index.first().is_none_or(|&i| i >= last_index)
                    && index.windows(2).all(|w| w[0] <= w[1]);
                last_index = index.last().copied().unwrap_or(last_index);
                to_u64(col(lv.maze_hash), &mut hash);
                match lv.mask_hash {
                    Some(l) => to_u64(col(l), &mut mh),
                    None => {
                        mh.clear();
                        mh.resize(n, 0)
                    }
                }
                braid.clear();
                match lv.braid {
                    Some(l) => summary::to_f64(col(l), &mut braid),
                    None => braid.resize(n, 0.0),
                }
                for (k, c) in input.accept_cols.iter().enumerate() {
                    summary::to_f64(col(c.1), &mut accept_vals[k]);
                }
                let mut r = 0;
                while r < n {
                    // A run of rows of one group.
                    let mut end = r + 1;
                    while end < n
                        && ids[end] == ids[r]
                        && w[end] == w[r]
                        && h[end] == h[r]
                        && d[end] == d[r]
                    {
                        end += 1;
                    }
                    let algo_name = names[ids[r] as usize].as_str();
                    let size = Size::new(w[r] as u32, h[r] as u32, d[r] as u32);
                    let key = (algo_name.to_string(), size, grid);
                    let g = match slot_of.get(&key) {
                        Some(&g) => g,
                        None => {
                            let algo = Algorithm::parse(algo_name).map_err(|e| PickError::Row {
                                path: shown.clone(),
                                row: batch_first + r as u64,
                                why: e.to_string(),
                            })?;
                            groups.push(Group {
                                algo,
                                name: grid_group_name(algo_name, size, grid),
                                size,
                                grid,
                                heap: BinaryHeap::new(),
                            });
                            slot_of.insert(key, groups.len() - 1);
                            groups.len() - 1
                        }
                    };
                    let group = &mut groups[g];
                    for row in r..end {
                        let sort_key = match spec.pick {
                            Pick::First => index[row],
                            Pick::Sample(s) => sample_key(s, &group.name, index[row]),
                        };
                        if cap.is_some_and(|n| {
                            group.heap.len() >= n
                                && group
                                    .heap
                                    .peek()
                                    .is_some_and(|top| (top.key, top.file) < (sort_key, f))
                        }) {
                            continue;
                        }
                        if let Some(a) = spec.accept {
                            if !a.eval_with(algo_name, grid, |c| accept_vals[slot[c as usize]][row])
                            {
                                continue;
                            }
                        }
                        group.heap.push(Cand {
                            key: sort_key,
                            file: f,
                            row: batch_first + row as u64,
                            index: index[row],
                            seed: seed[row],
                            mask_hash: mh[row],
                            braid_bits: braid[row].to_bits(),
                            maze_hash: hash[row],
                        });
                        match cap {
                            Some(n) if group.heap.len() > n => {
                                group.heap.pop();
                            }
                            Some(_) => {}
                            None => {
                                total += 1;
                                if total > MAX_UNCOUNTED {
                                    return Err(PickError::TooMany {
                                        passing: total,
                                        max: MAX_UNCOUNTED,
                                    });
                                }
                            }
                        }
                    }
                    r = end;
                }
                batch_first += n as u64;
                // The rest of a one-group row group in index order has larger indices: stop
                // once the group is full.
                if let (Some(g), true) = (one_group, ascending) {
                    if full(&groups[g], last_index) {
                        break;
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for g in groups {
        let mut picks = g.heap.into_vec();
        picks.sort_by_key(|c| (c.index, c.file, c.row));
        for c in picks {
            let info = &infos[c.file];
            let shown = || info.path.display().to_string();
            let rule = info
                .ends_rule
                .as_deref()
                .ok_or_else(|| PickError::NoEndsRule { path: shown() })?;
            let ends = match g.grid {
                Grid::Square => Ends::parse_rule(rule, g.size),
                grid => crate::maze_id::parse_grid_ends_rule(
                    rule,
                    GridSize::new(grid, g.size.width, g.size.height),
                ),
            };
            let ends = ends.ok_or_else(|| PickError::BadEndsRule {
                path: shown(),
                rule: rule.to_string(),
                size: g.size,
            })?;
            let mask = if c.mask_hash == 0 {
                None
            } else {
                let m = match (&info.mask, &info.mask_error) {
                    (_, Some(why)) => {
                        return Err(PickError::BadMask {
                            path: shown(),
                            why: why.clone(),
                        })
                    }
                    (Some(m), None) => m.clone(),
                    (None, None) => {
                        return Err(PickError::NoMask {
                            path: shown(),
                            row: c.row,
                            hash: c.mask_hash,
                        })
                    }
                };
                if m.hash() != c.mask_hash {
                    return Err(PickError::WrongMask {
                        path: shown(),
                        row: c.row,
                        want: c.mask_hash,
                        got: m.hash(),
                        from: if spec.mask.is_some() {
                            "given with --mask"
                        } else {
                            "in the file's batchgen.mask"
                        },
                    });
                }
                Some(m)
            };
            out.push(Picked {
                id: MazeId::new(g.algo, g.size, c.seed, c.index, ends)
                    .on_mask(c.mask_hash)
                    .braided(f64::from_bits(c.braid_bits))
                    .on_grid(g.grid),
                mask,
                maze_hash: c.maze_hash,
                path: info.path.clone(),
                row: c.row,
            });
        }
    }
    Ok(out)
}

/// A cell of a metrics row, typed as its column.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// NULL.
    Null,
    /// An unsigned integer column.
    Unsigned(u64),
    /// A signed integer column.
    Signed(i64),
    /// A floating-point column.
    Float(f64),
    /// A string column.
    Text(String),
}

/// The value at `row` of column `a`.
fn value(a: &ArrayRef, row: usize) -> Value {
    if a.is_null(row) {
        return Value::Null;
    }
    macro_rules! p {
        ($t:ty, $v:ident, $conv:ty) => {
            Value::$v(a.as_primitive::<$t>().value(row) as $conv)
        };
    }
    match a.data_type() {
        DataType::UInt8 => p!(UInt8Type, Unsigned, u64),
        DataType::UInt16 => p!(UInt16Type, Unsigned, u64),
        DataType::UInt32 => p!(UInt32Type, Unsigned, u64),
        DataType::UInt64 => p!(UInt64Type, Unsigned, u64),
        DataType::Int8 => p!(Int8Type, Signed, i64),
        DataType::Int16 => p!(Int16Type, Signed, i64),
        DataType::Int32 => p!(Int32Type, Signed, i64),
        DataType::Int64 => p!(Int64Type, Signed, i64),
        DataType::Float32 => p!(Float32Type, Float, f64),
        DataType::Float64 => p!(Float64Type, Float, f64),
        DataType::Dictionary(_, _) => {
            let d = a.as_any_dictionary();
            let k = d.normalized_keys()[row];
            d.values()
                .as_string_opt::<i32>()
                .map_or(Value::Null, |s| Value::Text(s.value(k).to_string()))
        }
        DataType::Utf8 => Value::Text(a.as_string::<i32>().value(row).to_string()),
        DataType::LargeUtf8 => Value::Text(a.as_string::<i64>().value(row).to_string()),
        _ => Value::Null,
    }
}

/// A file and its picked rows: (row in the file, position in the pick).
type FileRows = (Arc<PathBuf>, Vec<(u64, usize)>);

/// Every column of the picked rows, in the order of `picked` (column names with values).
pub fn row_values(picked: &[Picked]) -> Result<Vec<Vec<(String, Value)>>, PickError> {
    let mut out: Vec<Vec<(String, Value)>> = vec![Vec::new(); picked.len()];
    // Per file: the picked rows, in file order, with their positions in `picked`.
    let mut by_file: Vec<FileRows> = Vec::new();
    for (k, p) in picked.iter().enumerate() {
        match by_file.iter_mut().find(|(f, _)| f == &p.path) {
            Some((_, rows)) => rows.push((p.row, k)),
            None => by_file.push((p.path.clone(), vec![(p.row, k)])),
        }
    }
    for (path, mut rows) in by_file {
        rows.sort_unstable();
        let err = |e: &dyn std::fmt::Display| PickError::Read {
            path: path.display().to_string(),
            why: e.to_string(),
        };
        let b = ParquetRecordBatchReaderBuilder::try_new(File::open(&*path).map_err(|e| err(&e))?)
            .map_err(|e| err(&e))?;
        let total = b.metadata().file_metadata().num_rows() as usize;
        let ranges: Vec<std::ops::Range<usize>> = rows
            .iter()
            .map(|&(r, _)| r as usize..r as usize + 1)
            .collect();
        let selection = RowSelection::from_consecutive_ranges(ranges.into_iter(), total);
        let reader = b
            .with_row_selection(selection)
            .with_batch_size(8192)
            .build()
            .map_err(|e| err(&e))?;
        let mut k = 0;
        for batch in reader {
            let batch = batch.map_err(|e| err(&e))?;
            let schema = batch.schema();
            for r in 0..batch.num_rows() {
                let Some(&(_, at)) = rows.get(k) else { break };
                out[at] = schema
                    .fields()
                    .iter()
                    .zip(batch.columns())
                    .map(|(f, c)| (f.name().clone(), value(c, r)))
                    .collect();
                k += 1;
            }
        }
        if k != rows.len() {
            return Err(err(&format!("read {k} of {} picked rows", rows.len())));
        }
    }
    Ok(out)
}
