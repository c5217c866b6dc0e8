//! The Python extension module `batchgen._batchgen` (cargo feature `python`, built by maturin
//! from `pyproject.toml`; the package `batchgen` in `src/python/batchgen` wraps it).
//!
//! It exposes the library as a Python user meets it: [`run::generate`] makes the metrics
//! table of a run (the same columns, types, metadata and values as the CLI's Parquet file),
//! [`level::PyLevel`] regenerates one maze with NumPy arrays for its walls and solution, and
//! [`table::read_store`] opens a maze store. Tables leave through the Arrow PyCapsule
//! interface ([`table::Table`]), so pyarrow, polars and DuckDB take them without a copy.
//! Bad arguments raise `ValueError` naming the parameter (the checks of [`crate::run`]).
//! Masks (`mask=`, a path or the mask's text) and braid (`braid=`) are taken by both
//! [`run::generate`] and [`level::PyLevel`], checked here ([`mask_of`], [`braid_of`]).

mod level;
mod run;
mod table;

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::grid::Mask;
use crate::python_literal::Literal;
use crate::run::value::ArgError;

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

/// `v` as the Python literal it is (a `None`, bool, int, float, `str`, tuple or list, the
/// items of a tuple or list in turn); anything else, such as a path object or a NumPy
/// number, as the `str` of its text, which every argument also takes.
fn literal(v: &Bound<'_, PyAny>) -> PyResult<Literal> {
    use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};
    let items = |it: pyo3::Bound<'_, pyo3::types::PyIterator>| -> PyResult<Vec<Literal>> {
        it.map(|item| literal(&item?)).collect()
    };
    Ok(if v.is_none() {
        Literal::None
    } else if let Ok(b) = v.cast::<PyBool>() {
        Literal::Bool(b.is_true())
    } else if v.is_instance_of::<PyInt>() {
        match v.extract::<i128>() {
            Ok(i) => Literal::Int(i),
            Err(_) => Literal::Str(text(v)?),
        }
    } else if let Ok(x) = v.cast::<PyFloat>() {
        Literal::Float(x.value())
    } else if let Ok(s) = v.cast::<PyString>() {
        Literal::Str(s.to_cow()?.into_owned())
    } else if v.is_instance_of::<PyTuple>() {
        Literal::Tuple(items(v.try_iter()?)?)
    } else if v.is_instance_of::<PyList>() {
        Literal::List(items(v.try_iter()?)?)
    } else {
        Literal::Str(text(v)?)
    })
}

/// The `mask=` argument: a path (`str` or `os.PathLike`) to a text or PNG mask file, the
/// mask's text itself (a `str` with a line break: `#` a hole, any other character a cell), or
/// the file's `bytes`. Refused with a `ValueError` naming `mask` when it cannot be read, is
/// empty or is not connected (on another grid than the square one, the run checks that its
/// cells connect through the grid's neighbours).
fn mask_of(v: &Bound<'_, PyAny>, grid: crate::topo::Grid) -> PyResult<Arc<Mask>> {
    let bad = |shown: &str, why: String| value_error(ArgError::new("mask", shown, why));
    let parse = match grid {
        crate::topo::Grid::Square => Mask::from_bytes,
        _ => Mask::cells_from_bytes,
    };
    let parsed = if let Some(text) = v.extract::<String>().ok().filter(|t| t.contains('\n')) {
        let shown = text.lines().next().unwrap_or_default().to_string() + "\\n...";
        match grid {
            crate::topo::Grid::Square => Mask::from_text(&text),
            _ => parse(text.as_bytes()),
        }
        .map_err(|e| bad(&shown, e.to_string()))
    } else if let Ok(bytes) = v.cast::<pyo3::types::PyBytes>() {
        parse(bytes.as_bytes()).map_err(|e| bad("<bytes>", e.to_string()))
    } else {
        let path = v.extract::<std::path::PathBuf>().map_err(|_| {
            bad(
                &text(v).unwrap_or_default(),
                "expected a path to a mask file, the mask's text or its bytes".into(),
            )
        })?;
        // The CLI's --mask rules (a FIFO is refused, not waited on).
        return crate::run::paths::read_mask("mask", &path, parse).map_err(value_error);
    };
    parsed.map(Arc::new)
}

/// The `mask=` argument as the run's `batchgen.command_line` names it: a path as given (as the
/// CLI records its `--mask` path in its argv), or `"mask.txt"` for a mask given as its text or
/// its bytes: the file's `batchgen.mask` saved under that name, as the explorer's printed
/// commands say.
fn mask_recorded(v: &Bound<'_, PyAny>) -> String {
    let text = v.extract::<String>().ok().filter(|t| t.contains('\n'));
    if text.is_some() || v.cast::<pyo3::types::PyBytes>().is_ok() {
        return "mask.txt".into();
    }
    v.extract::<std::path::PathBuf>()
        .map_or_else(|_| "mask.txt".into(), |p| p.display().to_string())
}

/// The `braid=` argument: a chance from 0 to 1 ([`crate::run::value::braid_value`]), as a number or
/// text; a `ValueError` naming `braid` otherwise.
fn braid_of(v: &Bound<'_, PyAny>) -> PyResult<f64> {
    let t = text(v)?;
    crate::run::value::braid_value(&t).map_err(|why| value_error(ArgError::new("braid", &t, why)))
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
