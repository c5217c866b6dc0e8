//! `batchgen.generate`: the main job run from Python into an Arrow table instead of a Parquet
//! file. The arguments become a [`RunSpec`] checked by the run layer (the CLI's rules, a
//! `ValueError` naming the Python parameter before any work); a list or tuple of generators
//! is taken where the CLI takes a comma list. The run is [`Run::execute`] into an
//! [`ArrowTable`] on its own rayon pool with the GIL released: one record batch per chunk, the
//! schema carrying the metadata the CLI writes into its footer.
//! Ctrl-C (Python's SIGINT handler) is polled every few milliseconds while the workers run:
//! it stops them between mazes and raises `KeyboardInterrupt`. `mask=` and `braid=` are the
//! CLI's `--mask` and `--braid`: the same columns, metadata (`batchgen.mask`, `batchgen.braid`)
//! and values; `grid=` is `--grid` (`hex`, `triangle`, `polar`: a polar `size` may be the
//! rings alone). The schema's `batchgen.command_line` is the call itself, each argument written
//! as the Python literal it was given ([`crate::python_literal`]), so `eval` of it reruns it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyUserWarning};
use pyo3::prelude::*;

use super::table::Table;
use super::{braid_of, joined, literal, mask_of, mask_recorded, text, value_error};
use crate::accept::Accept;
use crate::grid::Size;
use crate::python_literal::{self, Literal};
use crate::run::value::{count_value, parse_size3, parse_threads, EndsRule};
use crate::run::{ArrowTable, ExecuteError, Field, Names, RowSink, Run, RunError, RunSpec};
use crate::topo::{polar::FIRST_RING, Grid};

/// How often the waiting thread looks for Ctrl-C while the workers run.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// A `ValueError` for a refused run, naming the Python parameters.
fn refused(e: RunError) -> PyErr {
    value_error(e.message(Names::Fields))
}

/// A whole number given as an `int` or as text (`1_000`, `1e6`), for `field`.
fn count_of(field: Field, v: &Bound<'_, PyAny>) -> PyResult<u64> {
    let t = text(v)?;
    count_value(&t).map_err(|why| refused(RunError::value(field, &t, why)))
}

/// The generators: a name, a comma list or `all`, or a list or tuple of those.
fn algos_of(v: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = v.extract::<String>() {
        return Ok(vec![s]);
    }
    match v.extract::<Vec<String>>() {
        Ok(names) if !names.is_empty() => Ok(names),
        _ => Err(refused(RunError::value(
            Field::Algo,
            text(v)?,
            "expected a generator name, a comma list, 'all', or a list or tuple of names",
        ))),
    }
}

/// Generate `count` mazes per generator and return their metrics table (see the package's
/// `generate` for the arguments).
#[pyfunction]
#[pyo3(signature = (
    algo, size, count, seed = None, *, threads = None, ends = None, entrance = None,
    exit = None, accept = None, max_candidates = None, mask = None, braid = None, grid = None,
    no_time_limit = false
))]
#[allow(clippy::too_many_arguments)]
pub fn generate(
    py: Python<'_>,
    algo: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    count: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    ends: Option<&str>,
    entrance: Option<&Bound<'_, PyAny>>,
    exit: Option<&Bound<'_, PyAny>>,
    accept: Option<&str>,
    max_candidates: Option<&Bound<'_, PyAny>>,
    mask: Option<&Bound<'_, PyAny>>,
    braid: Option<&Bound<'_, PyAny>>,
    grid: Option<&str>,
    no_time_limit: bool,
) -> PyResult<Table> {
    let grid_value = match grid {
        None => Grid::Square,
        Some(g) => Grid::parse(g).map_err(|why| refused(RunError::value(Field::Grid, g, why)))?,
    };
    let mut spec = RunSpec::new().algos(algos_of(algo)?).grid(grid_value);
    let mask_named = mask.map(mask_recorded);
    if let (Some(m), Some(name)) = (mask, &mask_named) {
        spec = spec.mask(mask_of(m, grid_value)?, name.clone());
    }
    let braid = braid.map(braid_of).transpose()?.unwrap_or(0.0);
    spec = spec.braid(braid).no_time_limit(no_time_limit);
    match size {
        Some(s) => {
            let t = joined(s, "x")?;
            let size = match t.trim().parse::<u32>() {
                // A polar grid's size may be its rings alone (a first ring of 6 cells).
                Ok(r) if grid_value == Grid::Polar => Size::planar(r, FIRST_RING),
                _ => parse_size3("size", &t)
                    .map_err(|e| refused(RunError::of_arg(Field::Size, e)))?,
            };
            spec = spec.size(size);
        }
        None if mask.is_none() => {
            return Err(value_error(
                "generate needs a size (or a mask, which sets it)",
            ))
        }
        None => {}
    }
    spec = spec.count(count_of(Field::Count, count)?);
    let seed_value = match seed {
        None => crate::run::value::DEFAULT_SEED,
        Some(s) => {
            let t = text(s)?;
            t.trim().parse::<u64>().map_err(|_| {
                refused(RunError::value(
                    Field::Seed,
                    &t,
                    "expected a whole number from 0 to 18446744073709551615",
                ))
            })?
        }
    };
    spec = spec.seed(seed_value);
    if let Some(t) = threads {
        let t = text(t)?;
        let n = parse_threads("threads", Some(&t))
            .map_err(|e| refused(RunError::of_arg(Field::Threads, e)))?;
        spec = spec.threads(n);
    }
    if let Some(rule) = ends {
        let rule = rule
            .parse::<EndsRule>()
            .map_err(|e| refused(RunError::of_arg(Field::Ends, e)))?;
        spec = spec.ends(rule);
    }
    if let Some(e) = entrance {
        spec = spec.entrance(joined(e, ",")?);
    }
    if let Some(e) = exit {
        spec = spec.exit(joined(e, ",")?);
    }
    if let Some(a) = accept {
        let filter = Accept::parse(a)
            .map_err(|e| refused(RunError::value(Field::Accept, a, e.to_string())))?;
        spec = spec.accept(filter);
    }
    if let Some(m) = max_candidates {
        spec = spec.max_candidates(count_of(Field::MaxCandidates, m)?);
    }
    let run = spec.validate().map_err(refused)?;

    let given = |v: Option<&Bound<'_, PyAny>>| v.map(literal).transpose();
    let named = [
        ("threads", given(threads)?),
        ("ends", ends.map(|e| Literal::Str(e.into()))),
        ("entrance", given(entrance)?),
        ("exit", given(exit)?),
        ("accept", accept.map(|a| Literal::Str(a.into()))),
        ("max_candidates", given(max_candidates)?),
        ("mask", mask_named.map(Literal::Str)),
        ("braid", (braid > 0.0).then_some(Literal::Float(braid))),
        ("grid", grid.map(|g| Literal::Str(g.into()))),
        (
            "no_time_limit",
            no_time_limit.then_some(Literal::Bool(true)),
        ),
    ];
    if let Some(note) = &run.note {
        let note = std::ffi::CString::new(note.render(Names::Fields)).map_err(value_error)?;
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &note, 1)?;
    }
    let call = python_literal::call(
        "batchgen.generate",
        &[
            literal(algo)?,
            size.map(literal).transpose()?.unwrap_or(Literal::None),
            literal(count)?,
            Literal::Int(run.seed.into()),
        ],
        named
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| (*k, v))),
    );
    let table = run_table(py, &run, ArrowTable::new(run.info(&call)))?;
    let (schema, batches) = table.into_parts();
    Table::new(schema, batches)
}

/// Execute `run` into `table` on its own pool with the GIL released; Ctrl-C is polled every
/// [`SIGNAL_POLL`] while the workers run and stops them between mazes.
fn run_table(py: Python<'_>, run: &Run, mut table: ArrowTable) -> PyResult<ArrowTable> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("starting the worker threads: {e}")))?;
    let cancel = AtomicBool::new(false);
    let (pool_ref, cancel_ref, table_ref) = (&pool, &cancel, &mut table);
    let (result, interrupt) = py.detach(|| {
        std::thread::scope(|s| {
            let (done_tx, done_rx) = mpsc::channel::<()>();
            let worker = s.spawn(move || {
                let r = run.execute(
                    pool_ref,
                    cancel_ref,
                    &mut [table_ref as &mut dyn RowSink],
                    |_, _| {},
                );
                let _ = done_tx.send(());
                r
            });
            let mut interrupt = None;
            while let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(SIGNAL_POLL) {
                if interrupt.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        cancel.store(true, Ordering::SeqCst);
                        interrupt = Some(e);
                    }
                }
            }
            let result = worker
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            (result, interrupt)
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    match result {
        Ok(_) => Ok(table),
        Err(ExecuteError::Shortfall(why)) => Err(PyRuntimeError::new_err(why)),
        Err(e) => Err(PyRuntimeError::new_err(format!(
            "building arrow batch: {e}"
        ))),
    }
}
