//! Arrow tables handed to Python through the Arrow PyCapsule interface
//! (`__arrow_c_schema__`, `__arrow_c_stream__`), built on arrow's own C data interface
//! (`arrow_schema::ffi`, `arrow_array::ffi_stream`): the consumer (pyarrow, polars, DuckDB)
//! imports the record batches' buffers as they are, without a copy. A small bridge written
//! here rather than `pyo3-arrow`, which pins an older arrow major than the one batchgen uses.

use std::collections::HashMap;
use std::path::PathBuf;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::SchemaRef;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::store::{StoreError, StoreReader};

/// An Arrow table held in Rust: a schema (with the run's key-value metadata) and its record
/// batches. Exported to Python any number of times, each time without copying the buffers.
#[pyclass(frozen, module = "batchgen", name = "Table")]
pub struct Table {
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
}

impl Table {
    /// A table of `batches`, each re-labelled with `schema` (the same columns; the schema may
    /// carry metadata the batches were built without).
    pub fn new(schema: SchemaRef, batches: Vec<RecordBatch>) -> PyResult<Table> {
        let batches = batches
            .into_iter()
            .map(|b| b.with_schema(schema.clone()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Table { schema, batches })
    }
}

#[pymethods]
impl Table {
    /// The schema as an `arrow_schema` PyCapsule (Arrow PyCapsule interface).
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(self.schema.as_ref())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        // The capsule owns the struct; a consumer moves it out and marks it released, so the
        // struct's own Drop (run by the capsule's destructor) releases only what was not taken.
        PyCapsule::new_with_value(py, schema, c"arrow_schema")
    }

    /// The table as an `arrow_array_stream` PyCapsule (Arrow PyCapsule interface). A requested
    /// schema is ignored (the protocol allows it): the columns always have their own types.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = RecordBatchIterator::new(
            self.batches.clone().into_iter().map(Ok),
            self.schema.clone(),
        );
        let reader: Box<dyn RecordBatchReader + Send> = Box::new(reader);
        PyCapsule::new_with_value(py, FFI_ArrowArrayStream::new(reader), c"arrow_array_stream")
    }

    /// Rows in the table.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batches.iter().map(|b| b.num_rows()).sum()
    }

    fn __len__(&self) -> usize {
        self.num_rows()
    }

    /// Column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    /// The key-value metadata (what the CLI writes into the Parquet footer).
    #[getter]
    fn metadata(&self) -> HashMap<String, String> {
        self.schema.metadata().clone().into()
    }

    fn __repr__(&self) -> String {
        format!(
            "batchgen.Table({} rows, {} columns: {})",
            self.num_rows(),
            self.schema.fields().len(),
            self.column_names().join(", ")
        )
    }
}

/// Open the maze store at `path` (checked as `batchgen check` would) and read it as an Arrow
/// table: one row per maze with its identifiers, ends and packed walls; the store's metadata
/// (size, seed, ends rule, …) is the schema's.
#[pyfunction]
pub fn read_store(py: Python<'_>, path: PathBuf) -> PyResult<Table> {
    let read = || -> Result<(SchemaRef, Vec<RecordBatch>), StoreError> {
        // Validates the file (magic, schema, every batch's layout) before it is decoded.
        StoreReader::open(&path)?;
        let io = |source| StoreError::Io {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::open(&path).map_err(io)?;
        let reader = arrow_ipc::reader::FileReader::try_new(std::io::BufReader::new(file), None)
            .map_err(|e| io(std::io::Error::other(e)))?;
        let schema = reader.schema();
        let batches = reader
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| io(std::io::Error::other(e)))?;
        Ok((schema, batches))
    };
    let (schema, batches) = py.detach(read).map_err(|e| match e {
        StoreError::Io { .. } => PyOSError::new_err(e.to_string()),
        other => PyValueError::new_err(other.to_string()),
    })?;
    Table::new(schema, batches)
}
