//! The main job: generate `--count` mazes per algorithm (accepted ones, with `--accept`),
//! measure each, write one Parquet row per maze and optionally each maze to a store, with a
//! progress bar on a terminal and a closing summary line.
//!
//! Both outputs are written through [`batchgen::atomic_file`] and committed together at the
//! end. SIGINT/SIGTERM stop the workers between mazes; the writers are then dropped (their
//! temporary files go with them), a line says how far the run got, and the process exits with
//! 130/143 ([`Interrupted`]).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use batchgen::atomic_file;
use batchgen::batch::{self, Job};
use batchgen::interrupt;
use batchgen::sink::{ParquetSink, RunInfo, SinkError};
use batchgen::store::{StoreError, StoreWriter};

use crate::cli::Config;
use crate::cmd::{Interrupted, UsageError};

/// Either output failing while chunks are written.
#[derive(Debug, thiserror::Error)]
enum WriteError {
    #[error(transparent)]
    Sink(#[from] SinkError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Run the validated main job.
pub fn run(cfg: &Config, command_line: &str) -> anyhow::Result<()> {
    let names: Vec<String> = cfg.algos.iter().map(|a| a.name()).collect();
    let mut extra = vec![
        ("batchgen.count_per_algo".into(), cfg.count.to_string()),
        (
            "batchgen.size".into(),
            format!("{}x{}", cfg.width, cfg.height),
        ),
        ("batchgen.seed".into(), cfg.seed.to_string()),
        ("batchgen.algos".into(), names.join(",")),
    ];
    if let Some(a) = &cfg.accept {
        extra.push(("batchgen.accept".into(), a.source().to_string()));
        extra.push((
            "batchgen.max_candidates".into(),
            cfg.max_candidates.to_string(),
        ));
    }
    let info = RunInfo {
        command_line: command_line.to_string(),
        ends_rule: cfg.ends_rule.clone(),
        extra,
    };
    // Creating the temporary files is the writability check: still before any work.
    let as_usage = |flag: &str, path: &std::path::Path, e: &dyn std::fmt::Display| {
        anyhow::Error::new(UsageError::flag(flag, &path.display().to_string(), e))
    };
    // From here on SIGINT/SIGTERM set a flag instead of killing the process, so the
    // temporary files created next are always removed.
    interrupt::install().context("installing the SIGINT/SIGTERM handlers")?;
    let mut sink = ParquetSink::create(&cfg.out, &info).map_err(|e| match e {
        SinkError::Create { .. } | SinkError::Output(_) => as_usage("--out", &cfg.out, &e),
        other => anyhow::Error::new(other),
    })?;
    let mut store = match &cfg.mazes {
        None => None,
        Some(p) => Some(
            StoreWriter::create(p, cfg.width, cfg.height, cfg.seed, &names)
                .map_err(|e| as_usage("--mazes", p, &e))?,
        ),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("starting the worker threads")?;
    let job = Job {
        algos: cfg.algos.clone(),
        width: cfg.width,
        height: cfg.height,
        count: cfg.count,
        seed: cfg.seed,
        ends: cfg.ends,
        accept: cfg.accept.clone(),
        max_candidates: cfg.max_candidates,
        keep_walls: store.is_some(),
    };
    let total = cfg.count * cfg.algos.len() as u64;
    let bar = progress_bar(total, cfg.quiet);
    let started = Instant::now();
    let stop = interrupt::stop_flag();
    let interrupted = |done: u64| -> anyhow::Error {
        let sig = interrupt::received().unwrap_or(interrupt::SIGINT);
        let mut outs = format!("'{}'", cfg.out.display());
        if let Some(m) = &cfg.mazes {
            outs += &format!(" or '{}'", m.display());
        }
        anyhow::Error::new(Interrupted {
            signal: sig,
            message: format!(
                "interrupted by {} after {done} of {total} mazes ({:.1}%) in {:.2} s; \
                 temporary files removed, nothing written to {outs} (an existing file there \
                 is untouched)",
                interrupt::name(sig),
                100.0 * done as f64 / total.max(1) as f64,
                started.elapsed().as_secs_f64()
            ),
        })
    };
    let tallies = batch::run_cancellable(&job, &pool, stop, |chunk| {
        let pos = cfg.algos.iter().position(|a| a == chunk.algo).unwrap_or(0);
        sink.write(&names[pos], cfg.width, cfg.height, cfg.seed, chunk.rows)?;
        if let Some(store) = store.as_mut() {
            for (k, r) in chunk.rows.iter().enumerate() {
                let w = &chunk.walls[k * chunk.words_per_maze..(k + 1) * chunk.words_per_maze];
                store.append(pos as u32, r.index, r.maze_seed, w)?;
            }
        }
        bar.inc(chunk.rows.len() as u64);
        if cfg.accept.is_some() {
            bar.set_message(format!(
                "{} candidates of {}",
                chunk.candidates,
                chunk.algo.name()
            ));
        }
        Ok::<(), WriteError>(())
    })
    .with_context(|| format!("writing {}", cfg.out.display()))?;
    bar.finish_and_clear();
    if stop.load(std::sync::atomic::Ordering::SeqCst) {
        // Returning drops the sink and the store: their temporary files are removed.
        return Err(interrupted(sink.rows()));
    }

    let candidates: u64 = tallies.iter().map(|t| t.candidates).sum();
    let short: Vec<String> = tallies
        .iter()
        .zip(&names)
        .filter(|(t, _)| t.accepted < cfg.count)
        .map(|(t, n)| format!("{n}: {} of {} candidates", t.accepted, t.candidates))
        .collect();
    if !short.is_empty() {
        // Dropping the sink and store removes their temporary files: nothing is left behind.
        anyhow::bail!(
            "--accept '{}' accepted too few mazes within --max-candidates {} (needed {} per \
             algorithm): {}; nothing was written. Loosen the filter or raise --max-candidates.",
            cfg.accept.as_ref().map_or("", |a| a.source()),
            cfg.max_candidates,
            cfg.count,
            short.join("; ")
        );
    }
    for (t, n) in tallies.iter().zip(&names) {
        sink.add_metadata(
            &format!("batchgen.candidates.{n}"),
            &t.candidates.to_string(),
        );
        sink.add_metadata(&format!("batchgen.accepted.{n}"), &t.accepted.to_string());
        if cfg.accept.is_some() {
            let rate = t.accepted as f64 / t.candidates.max(1) as f64;
            sink.add_metadata(
                &format!("batchgen.acceptance_rate.{n}"),
                &format!("{rate:.6}"),
            );
        }
    }
    let rows = sink.rows();
    // Complete and sync both files, then make them visible together (or neither).
    let store = match store {
        Some(s) => Some(s.prepare().context("finishing the maze store")?),
        None => None,
    };
    let sink = sink
        .prepare()
        .with_context(|| format!("finishing {}", cfg.out.display()))?;
    if stop.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(interrupted(rows));
    }
    let bytes = sink.size();
    let store_bytes = store.as_ref().map(|s| s.size());
    let mut files = vec![sink];
    files.extend(store);
    atomic_file::commit_all(files).with_context(|| {
        let mut what = format!("committing {}", cfg.out.display());
        if let Some(m) = &cfg.mazes {
            what += &format!(" and {}", m.display());
        }
        what
    })?;
    let secs = started.elapsed().as_secs_f64();
    if !cfg.quiet {
        let mut line = format!(
            "wrote {rows} mazes ({} x {}x{}) in {secs:.2} s, {:.0} mazes/s, {} ({})",
            names.join(","),
            cfg.width,
            cfg.height,
            rows as f64 / secs.max(1e-9),
            cfg.out.display(),
            human_bytes(bytes)
        );
        if cfg.accept.is_some() {
            line += &format!(
                "; accepted {rows} of {candidates} candidates ({:.2}%, {:.0} candidates/s)",
                100.0 * rows as f64 / candidates.max(1) as f64,
                candidates as f64 / secs.max(1e-9)
            );
        }
        if let (Some(b), Some(p)) = (store_bytes, &cfg.mazes) {
            line += &format!("; maze store {} ({})", p.display(), human_bytes(b));
        }
        eprintln!("{line}");
    }
    Ok(())
}

fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} mazes  {per_sec}  ETA {eta}  {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// `1234567` → `1.2 MB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}
