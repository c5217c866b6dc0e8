//! The Python extension module `batchgen._batchgen` (cargo feature `python`, built by maturin
//! from `pyproject.toml`; the package `batchgen` in `src/python/batchgen` wraps it).
//!
//! It exposes the library as a Python user meets it: [`run::generate`] makes the metrics
//! table of a run (the same columns, types, metadata and values as the CLI's Parquet file),
//! [`level::PyLevel`] regenerates one maze with NumPy arrays for its walls and solution, and
//! [`table::read_store`] opens a maze store. Tables leave through the Arrow PyCapsule
//! interface ([`table::Table`]), so pyarrow, polars and DuckDB take them without a copy.
//! Bad arguments raise `ValueError` with the CLI's message (the parsers of [`crate::args`]).

mod level;
mod run;
mod table;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A `ValueError` carrying `e`'s message (a bad argument, as the CLI would report it).
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The text of an argument given as `str` or as a number (`42`, `"1_000"`).
fn text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(v.str()?.to_string())
}

/// The text of a size or cell given as `str` (`"32x32"`, `"3,4"`) or as a sequence of whole
/// numbers (`(32, 32)`, `(3, 4)`), joined with `sep`.
fn joined(v: &Bound<'_, PyAny>, sep: &str) -> PyResult<String> {
    if let Ok(s) = v.extract::<String>() {
        return Ok(s);
    }
    match v.extract::<Vec<Bound<'_, PyAny>>>() {
        Ok(parts) => Ok(parts
            .iter()
            .map(text)
            .collect::<PyResult<Vec<_>>>()?
            .join(sep)),
        Err(_) => text(v),
    }
}

#[pymodule]
fn _batchgen(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SEEDING_SCHEME", crate::rng::SEEDING_SCHEME)?;
    m.add(
        "ALGORITHMS",
        crate::Algorithm::all()
            .iter()
            .map(|a| a.name())
            .collect::<Vec<_>>(),
    )?;
    m.add_function(wrap_pyfunction!(run::generate, m)?)?;
    m.add_function(wrap_pyfunction!(table::read_store, m)?)?;
    m.add_class::<table::Table>()?;
    m.add_class::<level::PyLevel>()?;
    Ok(())
}
