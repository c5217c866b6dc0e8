//! Running a validated [`Run`]: [`Run::execute`] makes the run's mazes on a rayon pool, in
//! index order, and hands each chunk of rows to every [`RowSink`]; when all are made it checks
//! the filter's shortfall and closes each sink with the generators' tallies. The sinks: the
//! Parquet file or dataset folder ([`ParquetOutput`]), the maze store ([`StoreOutput`]) and an
//! Arrow table in memory ([`ArrowTable`], the Python module's). File sinks are completed and
//! synced by [`RowSink::prepare`], then made visible together by
//! [`crate::atomic_file::commit_all`]. A new writer is one [`RowSink`] implementation.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use crate::atomic_file::Prepared;
use crate::batch::{self, Chunk, Tally};
#[cfg(feature = "parquet")]
use crate::meta_keys as keys;
use crate::sink::arrow::{
    base_metadata, grid_record_batch, record_batch, schema, with_grid_column,
};
use crate::sink::RunInfo;
#[cfg(feature = "parquet")]
use crate::sink::{ParquetSink, SinkError};
use crate::store::{self, StoreInfo, StoreWriter};

use super::error::{Field, RunError};
use super::spec::{Output, Run};

/// A sink's failure while writing.
pub type SinkFailure = Box<dyn std::error::Error + Send + Sync>;

/// Where a run's rows go.
pub trait RowSink {
    /// Whether the sink needs each maze's wall words ([`Chunk::walls`]).
    fn needs_walls(&self) -> bool {
        false
    }

    /// One chunk of rows of generator `pos` (its position in [`Run::algos`]), in index order.
    fn write(&mut self, run: &Run, pos: usize, chunk: &Chunk<'_>) -> Result<(), SinkFailure>;

    /// Every row is written; `tallies` are each generator's candidates and rows.
    fn finish(&mut self, _run: &Run, _tallies: &[Tally]) -> Result<(), SinkFailure> {
        Ok(())
    }
}

/// Why [`Run::execute`] stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExecuteError {
    /// A sink failed.
    #[error(transparent)]
    Sink(SinkFailure),
    /// The stop flag was set: the workers stopped between mazes.
    #[error("stopped")]
    Stopped,
    /// The filter accepted too few mazes within the candidate limit.
    #[error("{0}")]
    Shortfall(String),
}

impl Run {
    /// Make the run's mazes on `pool` and write each chunk to every sink in turn, calling
    /// `progress` after each; stops between mazes once `stop` is set. On success every sink
    /// has been [finished](RowSink::finish) and the tallies are returned.
    pub fn execute(
        &self,
        pool: &rayon::ThreadPool,
        stop: &AtomicBool,
        sinks: &mut [&mut dyn RowSink],
        mut progress: impl FnMut(usize, &Chunk<'_>),
    ) -> Result<Vec<Tally>, ExecuteError> {
        let job = self.job(sinks.iter().any(|s| s.needs_walls()));
        let tallies = batch::run_cancellable(&job, pool, stop, |chunk| {
            let pos = self.algos.iter().position(|a| a == chunk.algo).unwrap_or(0);
            for s in sinks.iter_mut() {
                s.write(self, pos, chunk)?;
            }
            progress(pos, chunk);
            Ok::<(), SinkFailure>(())
        })
        .map_err(ExecuteError::Sink)?;
        if stop.load(Ordering::SeqCst) {
            return Err(ExecuteError::Stopped);
        }
        if let Some(why) = batch::shortfall(&job, &tallies, &self.names()) {
            return Err(ExecuteError::Shortfall(why));
        }
        for s in sinks.iter_mut() {
            s.finish(self, &tallies).map_err(ExecuteError::Sink)?;
        }
        Ok(tallies)
    }
}

/// The part file of generator `pos` in a dataset folder, its folder created; refused (as bad
/// input, before any work) when the folder cannot be made or the part is a folder.
fn part(run: &Run, field: Field, o: &Output, pos: usize, ext: &str) -> Result<PathBuf, RunError> {
    let path = run.part_path(o, pos, ext);
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder)
            .map_err(|e| RunError::value(field, folder.display(), e.to_string()))?;
    }
    if path.is_dir() {
        return Err(RunError::value(
            field,
            path.display(),
            "is a folder, expected a part file",
        ));
    }
    Ok(path)
}

/// The error of creating an output.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CreateError {
    /// The output's path cannot be written: bad input.
    #[error(transparent)]
    Refused(#[from] RunError),
    /// Anything else.
    #[error(transparent)]
    Failed(SinkFailure),
}

/// The metrics as Parquet: one file, or one part per generator in a dataset folder.
#[cfg(feature = "parquet")]
pub struct ParquetOutput {
    sinks: Vec<ParquetSink>,
    folder: bool,
    current: usize,
}

#[cfg(feature = "parquet")]
impl ParquetOutput {
    /// Create the file(s) of `o` (temporary until committed) with the run's metadata `info`.
    pub fn create(run: &Run, o: &Output, info: &RunInfo) -> Result<ParquetOutput, CreateError> {
        let grid = run.grid.as_ref().map(|g| g.size.grid.name());
        let sink = |path: &Path, info: &RunInfo| {
            ParquetSink::create_on(path, info, grid).map_err(|e| match e {
                SinkError::Create { .. } | SinkError::Output(_) => {
                    CreateError::Refused(RunError::value(Field::Out, path.display(), e.to_string()))
                }
                other => CreateError::Failed(Box::new(other)),
            })
        };
        let mut sinks = Vec::new();
        if o.folder {
            for (pos, n) in run.names().into_iter().enumerate() {
                let path = part(run, Field::Out, o, pos, "parquet")?;
                let mut info = info.clone();
                info.extra.push((keys::ALGO.into(), n));
                sinks.push(sink(&path, &info)?);
            }
        } else {
            sinks.push(sink(&o.path, info)?);
        }
        Ok(ParquetOutput {
            sinks,
            folder: o.folder,
            current: 0,
        })
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.sinks.iter().map(|s| s.rows()).sum()
    }

    /// Files written (one, or one part per generator).
    pub fn files(&self) -> usize {
        self.sinks.len()
    }

    /// Complete and sync every file (made visible later, together).
    pub fn prepare(self) -> Result<Vec<Prepared>, SinkError> {
        self.sinks.into_iter().map(|s| s.prepare()).collect()
    }
}

#[cfg(feature = "parquet")]
impl RowSink for ParquetOutput {
    fn write(&mut self, run: &Run, pos: usize, chunk: &Chunk<'_>) -> Result<(), SinkFailure> {
        if self.folder && pos != self.current {
            // The previous generator's part is done: write out its buffered rows.
            self.sinks[self.current].flush()?;
            self.current = pos;
        }
        let at = if self.folder { pos } else { 0 };
        let name = run.algos[pos].name();
        self.sinks[at].write(&name, run.size, run.seed, chunk.rows)?;
        Ok(())
    }

    fn finish(&mut self, run: &Run, tallies: &[Tally]) -> Result<(), SinkFailure> {
        for (pos, t) in tallies.iter().enumerate() {
            let sink = &mut self.sinks[if self.folder { pos } else { 0 }];
            for (k, v) in run.tally_metadata(pos, t) {
                sink.add_metadata(&k, &v);
            }
        }
        Ok(())
    }
}

/// Every maze's walls in the maze store format: one file, or one per generator in a dataset
/// folder.
pub struct StoreOutput {
    stores: Vec<StoreWriter>,
    folder: bool,
}

impl StoreOutput {
    /// Create the store(s) of `o` (temporary until committed).
    pub fn create(run: &Run, o: &Output) -> Result<StoreOutput, CreateError> {
        let store = |path: &Path, algos: Vec<String>| {
            let info = StoreInfo {
                width: run.size.width,
                height: run.size.height,
                depth: run.size.depth,
                seed: run.seed,
                algos,
                ends_rule: run.ends_rule.clone(),
                mask: run.mask.clone(),
                braid: run.braid,
            };
            StoreWriter::create_on(path, &info, run.grid.as_ref().map(|g| &*g.graph))
                .map_err(|e| RunError::value(Field::Mazes, path.display(), e.to_string()))
        };
        let mut stores = Vec::new();
        if o.folder {
            for (pos, n) in run.names().into_iter().enumerate() {
                let path = part(run, Field::Mazes, o, pos, store::EXTENSION)?;
                stores.push(store(&path, vec![n])?);
            }
        } else {
            stores.push(store(&o.path, run.names())?);
        }
        Ok(StoreOutput {
            stores,
            folder: o.folder,
        })
    }

    /// Complete and sync every file (made visible later, together).
    pub fn prepare(self) -> Result<Vec<Prepared>, store::StoreError> {
        self.stores.into_iter().map(|s| s.prepare()).collect()
    }
}

impl RowSink for StoreOutput {
    fn needs_walls(&self) -> bool {
        true
    }

    fn write(&mut self, run: &Run, pos: usize, chunk: &Chunk<'_>) -> Result<(), SinkFailure> {
        let (at, algo) = if self.folder {
            (pos, 0)
        } else {
            (0, pos as u32)
        };
        let store = &mut self.stores[at];
        let words = chunk.words_per_maze;
        for (k, r) in chunk.rows.iter().enumerate() {
            // The ends this maze was measured with (per maze for the diameter rule).
            let (entrance, exit) = run.ends.cells_of(&r.metrics);
            store.append(store::Entry {
                algo,
                index: r.index,
                maze_seed: r.maze_seed,
                maze_hash: r.metrics.maze_hash,
                entrance,
                exit,
                loops: r.metrics.loops,
                walls: &chunk.walls[k * words..(k + 1) * words],
            })?;
        }
        Ok(())
    }
}

/// The metrics as an Arrow table in memory: one record batch per chunk, the schema carrying
/// the metadata a Parquet file's footer holds.
pub struct ArrowTable {
    base: SchemaRef,
    /// The grid of the rows when not the square one (the table then ends with a `grid` column).
    grid: Option<&'static str>,
    batches: Vec<RecordBatch>,
    info: RunInfo,
}

impl ArrowTable {
    /// An empty table for a run with metadata `info`.
    pub fn new(info: RunInfo) -> ArrowTable {
        ArrowTable {
            base: schema(),
            grid: None,
            batches: Vec::new(),
            info,
        }
    }

    /// The schema (with the run's metadata) and the batches.
    pub fn into_parts(self) -> (SchemaRef, Vec<RecordBatch>) {
        let meta: std::collections::HashMap<_, _> = base_metadata(&self.info).into_iter().collect();
        let schema = Arc::new(self.base.as_ref().clone().with_metadata(meta));
        match self.grid {
            None => (schema, self.batches),
            Some(_) => (with_grid_column(&schema), self.batches),
        }
    }
}

impl RowSink for ArrowTable {
    fn write(&mut self, run: &Run, pos: usize, chunk: &Chunk<'_>) -> Result<(), SinkFailure> {
        let name = run.algos[pos].name();
        let b = match &run.grid {
            None => record_batch(&self.base, &name, run.size, run.seed, chunk.rows)?,
            Some(g) => {
                let grid = g.size.grid.name();
                self.grid = Some(grid);
                let schema = with_grid_column(&self.base);
                grid_record_batch(&schema, grid, &name, run.size, run.seed, chunk.rows)?
            }
        };
        self.batches.push(b);
        Ok(())
    }

    fn finish(&mut self, run: &Run, tallies: &[Tally]) -> Result<(), SinkFailure> {
        self.grid = run.grid.as_ref().map(|g| g.size.grid.name());
        for (pos, t) in tallies.iter().enumerate() {
            self.info.extra.extend(run.tally_metadata(pos, t));
        }
        Ok(())
    }
}
