//! `batchgen.generate`: the main job run from Python into an Arrow table instead of a Parquet
//! file. The arguments are validated by the CLI's parsers (same rules, same messages, a
//! `ValueError` before any work); the run is [`crate::batch::run_cancellable`] on its own
//! rayon pool with the GIL released; each chunk of rows becomes one record batch of the
//! Parquet sink's schema, and the schema carries the metadata the CLI writes into its footer.
//! Ctrl-C (Python's SIGINT handler) is polled every few milliseconds while the workers run:
//! it stops them between mazes and raises `KeyboardInterrupt`. `mask=` and `braid=` are the
//! CLI's `--mask` and `--braid`: the same columns, metadata (`batchgen.mask`, `batchgen.braid`)
//! and values. The schema's `batchgen.command_line` is the call itself, each argument written
//! as the Python literal it was given ([`crate::python_literal`]), so `eval` of it reruns it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use pyo3::exceptions::{PyRuntimeError, PyUserWarning};
use pyo3::prelude::*;

use super::table::Table;
use super::{braid_of, joined, literal, mask_of, mask_recorded, text, value_error};
use crate::accept::Accept;
use crate::args::{
    check_3d, parse_count, parse_max_candidates, parse_size3, parse_threads, resolve_ends_sized,
    select_3d, ArgError,
};
use crate::batch::{self, Job};
use crate::grid::{Mask, Size};
use crate::level::ends_on_mask;
use crate::meta_keys as keys;
use crate::metrics::Ends;
use crate::python_literal::{self, Literal};
use crate::shard::Shard;
use crate::sink::arrow::{base_metadata, record_batch, run_metadata, schema, RunSpec};
use crate::sink::RunInfo;
use crate::Algorithm;

/// How often the waiting thread looks for Ctrl-C while the workers run.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// The arguments as the CLI would see them: each value as its flag's text.
struct Texts {
    size: String,
    count: String,
    seed: Option<String>,
    threads: Option<String>,
    entrance: Option<String>,
    exit: Option<String>,
    max_candidates: Option<String>,
}

/// The arguments after the CLI's checks.
struct Valid {
    algos: Vec<Algorithm>,
    size: Size,
    count: u64,
    seed: u64,
    threads: usize,
    ends: Ends,
    ends_rule: String,
    accept: Option<Accept>,
    max_candidates: u64,
    note: Option<String>,
}

/// Generate `count` mazes per generator and return their metrics table (see the package's
/// `generate` for the arguments).
#[pyfunction]
#[pyo3(signature = (
    algo, size, count, seed = None, *, threads = None, ends = None, entrance = None,
    exit = None, accept = None, max_candidates = None, mask = None, braid = None
))]
#[allow(clippy::too_many_arguments)]
pub fn generate(
    py: Python<'_>,
    algo: &str,
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
) -> PyResult<Table> {
    let mask_named = mask.map(mask_recorded);
    let mask = mask.map(mask_of).transpose()?;
    let braid = braid.map(braid_of).transpose()?.unwrap_or(0.0);
    let size_text = match (size, &mask) {
        (Some(s), _) => joined(s, "x")?,
        (None, Some(m)) => m.size().to_string(),
        (None, None) => {
            return Err(value_error(
                "generate needs a size (or a mask, which sets it)",
            ))
        }
    };
    let texts = Texts {
        size: size_text,
        count: text(count)?,
        seed: seed.map(text).transpose()?,
        threads: threads.map(text).transpose()?,
        entrance: entrance.map(|e| joined(e, ",")).transpose()?,
        exit: exit.map(|e| joined(e, ",")).transpose()?,
        max_candidates: max_candidates.map(text).transpose()?,
    };
    let v = validate(algo, &texts, ends, accept, mask.as_ref())?;
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
    ];
    if let Some(note) = &v.note {
        let note = std::ffi::CString::new(note.as_str()).map_err(value_error)?;
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &note, 1)?;
    }
    let call = python_literal::call(
        "batchgen.generate",
        &[
            Literal::Str(algo.into()),
            size.map(literal).transpose()?.unwrap_or(Literal::None),
            literal(count)?,
            Literal::Int(v.seed.into()),
        ],
        named
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| (*k, v))),
    );

    let names: Vec<String> = v.algos.iter().map(|a| a.name()).collect();
    let job = Job {
        algos: v.algos,
        size: v.size,
        count: v.count,
        seed: v.seed,
        ends: v.ends,
        accept: v.accept,
        max_candidates: v.max_candidates,
        keep_walls: false,
        first_index: 0,
        mask: mask.clone(),
        braid: crate::rng::Chance::new(braid),
    };
    let base = schema();
    let (batches, tallies) = run_job(py, &job, v.threads, &names, &base)?;

    let info = RunInfo {
        command_line: call,
        ends_rule: v.ends_rule,
        extra: run_extra(&job, &names, &tallies, mask.as_deref(), braid),
    };
    let schema = Arc::new(
        base.as_ref()
            .clone()
            .with_metadata(base_metadata(&info).into_iter().collect::<HashMap<_, _>>()),
    );
    Table::new(schema, batches)
}

/// The run's metadata as the CLI writes it into its footer: the run, the mask, each
/// generator's tallies.
fn run_extra(
    job: &Job,
    names: &[String],
    tallies: &[batch::Tally],
    mask: Option<&Mask>,
    braid: f64,
) -> Vec<(String, String)> {
    let mut extra = run_metadata(&RunSpec {
        algos: names,
        size: job.size,
        count: job.count,
        seed: job.seed,
        shard: Shard::WHOLE.to_string(),
        shard_source: "none".to_string(),
        indices: 0..job.count,
        accept: job
            .accept
            .as_ref()
            .map(|a| (a.source(), job.max_candidates)),
        braid,
    });
    if let Some(m) = mask {
        extra.push((keys::MASK.into(), m.to_text()));
    }
    for (t, n) in tallies.iter().zip(names) {
        extra.extend(crate::sink::arrow::tally_metadata(
            n,
            t.candidates,
            t.accepted,
            job.accept.is_some(),
        ));
    }
    extra
}

/// The CLI's checks, in the CLI's order, with its messages: a flag's value is named as clap
/// names it, with its placeholder (`'--count <N>'`).
fn validate(
    algo: &str,
    t: &Texts,
    ends_text: Option<&str>,
    accept: Option<&str>,
    mask: Option<&Arc<Mask>>,
) -> PyResult<Valid> {
    let algos = Algorithm::parse_list(algo)
        .map_err(|e| value_error(ArgError::new("--algo <LIST>", algo, e)))?;
    let size = parse_size3("--size <WxH[xD]>", &t.size).map_err(value_error)?;
    let (algos, mask_note) = on_mask(algo, algos, size, mask)?;
    let (algos, note) = select_3d(algo, algos, size);
    let note = note.or(mask_note);
    check_3d("--algo", algo, &algos, size).map_err(value_error)?;
    let count = parse_count("--count <N>", &t.count).map_err(value_error)?;
    let seed = match &t.seed {
        None => crate::args::DEFAULT_SEED,
        Some(s) => s.trim().parse::<u64>().map_err(|_| {
            value_error(ArgError::new(
                "--seed <S>",
                s,
                "expected a whole number from 0 to 18446744073709551615",
            ))
        })?,
    };
    let threads = parse_threads("--threads <N>", t.threads.as_deref()).map_err(value_error)?;
    if let Some(rule) = ends_text.filter(|r| !["corners", "diameter"].contains(r)) {
        return Err(value_error(format!(
            "invalid value '{rule}' for '--ends <RULE>'\n  [possible values: corners, diameter]"
        )));
    }
    let (ends, ends_rule) =
        resolve_ends_sized(ends_text, t.entrance.as_deref(), t.exit.as_deref(), size)
            .map_err(value_error)?;
    let (ends, ends_rule) = match mask {
        None => (ends, ends_rule),
        Some(m) => masked_ends(m, ends, ends_rule, t, size)?,
    };
    let accept = accept
        .map(|e| {
            Accept::parse(e).map_err(|err| value_error(ArgError::new("--accept <EXPR>", e, err)))
        })
        .transpose()?;
    let max_candidates = parse_max_candidates(
        "--max-candidates <N>",
        t.max_candidates.as_deref(),
        count,
        accept.is_some(),
    )
    .map_err(value_error)?;
    let chunk = batch::chunk_len(size.cells_u64(), threads);
    let need = crate::memory::estimate(&algos, size, threads, chunk, false);
    crate::memory::check(need).map_err(|why| {
        value_error(ArgError::new(
            "--size",
            &t.size,
            format!("with --threads {threads}: {why}"),
        ))
    })?;
    Ok(Valid {
        algos,
        size,
        count,
        seed,
        threads,
        ends,
        ends_rule,
        accept,
        max_candidates,
        note,
    })
}

/// On a mask the ends not given are its first and last cells; given ones must be cells.
fn masked_ends(
    m: &Mask,
    ends: Ends,
    ends_rule: String,
    t: &Texts,
    size: Size,
) -> PyResult<(Ends, String)> {
    let given = [("--entrance", &t.entrance), ("--exit", &t.exit)];
    if let Ends::Cells { entrance, exit } = ends {
        for ((name, text), cell) in given.iter().zip([entrance, exit]) {
            if let (Some(v), false) = (text, m.contains(cell)) {
                return Err(value_error(ArgError::new(
                    name,
                    v,
                    "this cell is a hole of the mask ('#' or a dark pixel), not a cell \
                     of the maze",
                )));
            }
        }
    }
    let e = ends_on_mask(ends, t.entrance.is_some(), t.exit.is_some(), Some(m));
    Ok(match e {
        Ends::Cells { .. } => (e, e.rule(size)),
        Ends::Diameter => (e, ends_rule),
    })
}

/// Run `job` on its own pool of `threads` with the GIL released, one record batch per chunk;
/// Ctrl-C is polled every [`SIGNAL_POLL`] while the workers run and stops them between mazes.
fn run_job(
    py: Python<'_>,
    job: &Job,
    threads: usize,
    names: &[String],
    base: &SchemaRef,
) -> PyResult<(Vec<RecordBatch>, Vec<batch::Tally>)> {
    let (size, seed) = (job.size, job.seed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("starting the worker threads: {e}")))?;
    let cancel = AtomicBool::new(false);
    let mut batches = Vec::new();
    let (job_ref, pool_ref, cancel_ref, batches_ref) = (job, &pool, &cancel, &mut batches);
    let (names_ref, base_ref) = (names, base);
    let (result, interrupt) = py.detach(|| {
        std::thread::scope(|s| {
            let (done_tx, done_rx) = mpsc::channel::<()>();
            let worker = s.spawn(move || {
                let r = batch::run_cancellable(job_ref, pool_ref, cancel_ref, |chunk| {
                    let pos = job_ref
                        .algos
                        .iter()
                        .position(|a| a == chunk.algo)
                        .unwrap_or(0);
                    let algo = &names_ref[pos];
                    batches_ref.push(record_batch(base_ref, algo, size, seed, chunk.rows)?);
                    Ok::<(), arrow_schema::ArrowError>(())
                });
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
    let tallies =
        result.map_err(|e| PyRuntimeError::new_err(format!("building arrow batch: {e}")))?;
    if let Some(why) = batch::shortfall(job, &tallies, names) {
        return Err(PyRuntimeError::new_err(why));
    }
    Ok((batches, tallies))
}

/// The generators of `algo` on `mask` (the CLI's `--mask` rules): a mask is 2D and sets the
/// size, which a given size must equal; `all` keeps the generators that accept a mask (with a
/// note naming the others), a named one that does not is refused naming those that do.
fn on_mask(
    spec: &str,
    algos: Vec<Algorithm>,
    size: Size,
    mask: Option<&Arc<Mask>>,
) -> PyResult<(Vec<Algorithm>, Option<String>)> {
    let Some(m) = mask else {
        return Ok((algos, None));
    };
    if size != m.size() {
        return Err(value_error(ArgError::new(
            "--size",
            &size.to_string(),
            format!(
                "the mask is {} (the mask sets the size: drop size or give {})",
                m.size(),
                m.size()
            ),
        )));
    }
    let (keep, note) = Algorithm::on_mask(spec, algos)
        .map_err(|why| value_error(ArgError::new("--algo", spec, why)))?;
    Ok((keep, note.map(|n| format!("mask: {n}"))))
}
