//! The Parquet sink: a writer that only ever shows a complete file. The columns, their values
//! and the key-value metadata come from [`crate::sink::arrow`]; this file only encodes them.
//!
//! Rows are written through arrow's `ArrowWriter` into an [`AtomicFile`] (a temporary file next
//! to the target, see [`crate::atomic_file`]). [`ParquetSink::prepare`] writes the footer and
//! syncs, [`crate::atomic_file::commit_all`] then renames it into place together with the
//! run's other outputs ([`ParquetSink::finish`] does both for a file on its own). If anything
//! fails, or the sink is dropped unfinished, the temporary file is removed: an interrupted run
//! never leaves a file that looks finished.
//!
//! Encodings: `algo` is dictionary-encoded (one distinct value per generator); `index` is
//! `DELTA_BINARY_PACKED` without dictionary (consecutive numbers compress to almost nothing);
//! `maze_seed` and `maze_hash` are random 64-bit values, stored plain without dictionary;
//! everything is zstd-compressed. Row groups hold at most [`ROW_GROUP_ROWS`] rows.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use crate::atomic_file::{AtomicFile, OutputError, Prepared};
use crate::grid::Size;
use crate::metrics::Row;
pub use crate::sink::arrow::RunInfo;
use crate::sink::arrow::{
    base_metadata, grid_record_batch, record_batch, schema, with_grid_column, GRID_COLUMN,
};

/// Rows per Parquet row group (bounds the writer's memory).
pub const ROW_GROUP_ROWS: usize = 1 << 18;

/// Failure while writing the Parquet file.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// The temporary output file could not be created (missing or read-only folder, …).
    #[error("cannot create output file in '{dir}': {source}")]
    Create {
        /// The folder the file was to be written in.
        dir: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// Encoding or writing failed.
    #[error("writing parquet: {0}")]
    Parquet(#[from] parquet::errors::ParquetError),
    /// Building a record batch failed.
    #[error("building arrow batch: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// The target was refused, or syncing / renaming the file failed.
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// A Parquet file being written; see the module docs for the temporary-file protocol.
pub struct ParquetSink {
    writer: ArrowWriter<AtomicFile>,
    schema: SchemaRef,
    /// The grid of every row, on a grid other than the square one (a last `grid` column).
    grid: Option<&'static str>,
    final_path: PathBuf,
    rows: u64,
}

impl std::fmt::Debug for ParquetSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetSink")
            .field("tmp_path", &self.writer.inner().temp_path())
            .field("final_path", &self.final_path)
            .field("rows", &self.rows)
            .finish()
    }
}

/// The writer settings of every Parquet file batchgen writes: zstd level 3, row groups of
/// [`ROW_GROUP_ROWS`], `created_by` naming this version, the footer key-values `kv`, and
/// dictionary encoding only for `algo`.
pub fn writer_properties(
    kv: Vec<KeyValue>,
) -> Result<parquet::file::properties::WriterPropertiesBuilder, parquet::errors::ParquetError> {
    Ok(WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_created_by(format!("batchgen {}", env!("CARGO_PKG_VERSION")))
        .set_key_value_metadata(Some(kv))
        .set_dictionary_enabled(false)
        .set_column_dictionary_enabled(ColumnPath::from("algo"), true))
}

impl ParquetSink {
    /// Start writing `path` (through a temporary file in the same folder; a target that is not
    /// a regular file is refused, see [`crate::atomic_file::Target::resolve`]).
    pub fn create(path: &Path, info: &RunInfo) -> Result<ParquetSink, SinkError> {
        ParquetSink::create_on(path, info, None)
    }

    /// [`ParquetSink::create`] for mazes on the grid named `grid` when it is not the square
    /// one: the file ends with a dictionary-encoded [`GRID_COLUMN`].
    pub fn create_on(
        path: &Path,
        info: &RunInfo,
        grid: Option<&'static str>,
    ) -> Result<ParquetSink, SinkError> {
        let file = AtomicFile::create(path).map_err(|e| match e {
            OutputError::Create { dir, source } => SinkError::Create { dir, source },
            other => SinkError::Output(other),
        })?;
        let base = base_metadata(info);
        let kv = base
            .iter()
            .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
            .collect();
        let mut props = writer_properties(kv)?
            .set_column_encoding(ColumnPath::from("index"), Encoding::DELTA_BINARY_PACKED);
        if grid.is_some() {
            props = props.set_column_dictionary_enabled(ColumnPath::from(GRID_COLUMN), true);
        }
        let props = props.build();
        // The run's metadata also goes into the Arrow schema that the writer embeds
        // (`ARROW:schema`): pyarrow takes a file's schema from there, so without it
        // `pyarrow.parquet.read_table` would hand Python a table without the ends rule or mask.
        let mut schema = Arc::new(
            schema().as_ref().clone().with_metadata(
                base.into_iter()
                    .collect::<std::collections::HashMap<_, _>>(),
            ),
        );
        if grid.is_some() {
            schema = with_grid_column(&schema);
        }
        // On error the file is dropped, which removes it.
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(props))?;
        Ok(ParquetSink {
            writer,
            schema,
            grid,
            final_path: path.to_path_buf(),
            rows: 0,
        })
    }

    /// Append one chunk of rows of one algorithm, size and master seed.
    pub fn write(
        &mut self,
        algo: &str,
        size: Size,
        seed: u64,
        rows: &[Row],
    ) -> Result<(), SinkError> {
        if rows.is_empty() {
            return Ok(());
        }
        let batch = match self.grid {
            None => record_batch(&self.schema, algo, size, seed, rows)?,
            Some(g) => grid_record_batch(&self.schema, g, algo, size, seed, rows)?,
        };
        self.writer.write(&batch)?;
        self.rows += rows.len() as u64;
        Ok(())
    }

    /// Write any buffered rows to the (temporary) file as a row group, freeing their memory;
    /// used when a dataset run has finished one generator's part but keeps it open.
    pub fn flush(&mut self) -> Result<(), SinkError> {
        self.writer.flush()?;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Add a key-value pair to the footer (e.g. a count known only at the end).
    pub(crate) fn add_metadata(&mut self, key: &str, value: &str) {
        self.writer
            .append_key_value_metadata(KeyValue::new(key.to_string(), value.to_string()));
    }

    /// The path given to [`ParquetSink::create`].
    pub fn path(&self) -> &Path {
        &self.final_path
    }

    /// Write the footer and sync: the file is complete but not yet visible; commit it with
    /// [`crate::atomic_file::commit_all`] (together with the run's other outputs).
    pub fn prepare(self) -> Result<Prepared, SinkError> {
        // If the footer or the sync fails, the AtomicFile inside is dropped: no temp is left.
        let file = self.writer.into_inner()?;
        Ok(file.prepare()?)
    }

    /// Write the footer, sync, and rename the file into place. Returns the file size in bytes.
    pub fn finish(self) -> Result<u64, SinkError> {
        Ok(self.prepare()?.commit()?)
    }
}
