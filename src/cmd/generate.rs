//! The main job: generate `--count` mazes per algorithm (accepted ones, with `--accept`),
//! measure each, write one Parquet row per maze and optionally each maze to a store, with a
//! progress bar on a terminal and a closing summary line. With a shard (`--shard` or a cluster
//! engine's environment) only that slice of each generator's indices is made; with a dataset
//! folder (`--out DIR/`, `--mazes DIR/`) each generator gets its own part file.
//!
//! Every output is written through [`batchgen::atomic_file`] and all of them are committed
//! together at the end. SIGINT/SIGTERM stop the workers between mazes; the writers are then
//! dropped (their temporary files go with them), a line says how far the run got, and the
//! process exits with 130/143 ([`Interrupted`]).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use batchgen::atomic_file;
use batchgen::batch::{self, Job};
use batchgen::dataset::{self, keys};
use batchgen::interrupt;
use batchgen::metrics::Ends;
use batchgen::shard::Shard;
use batchgen::sink::{ParquetSink, RunInfo, SinkError};
use batchgen::store::{self, StoreError, StoreInfo, StoreWriter};

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
    let shard = cfg.shard();
    let range = shard.range(cfg.count);
    let mut extra = vec![
        ("batchgen.count_per_algo".into(), cfg.count.to_string()),
        (
            "batchgen.size".into(),
            format!("{}x{}", cfg.width, cfg.height),
        ),
        ("batchgen.seed".into(), cfg.seed.to_string()),
        ("batchgen.algos".into(), names.join(",")),
    ];
    extra.extend(shard_metadata(cfg, &range));
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
    // Printed even with --quiet: engine logs should say which task made which slice.
    if let Some((s, src)) = &cfg.shard {
        eprintln!(
            "shard {s} from {src}: indices {}..{} of each generator's {}",
            range.start, range.end, cfg.count
        );
    }
    // Creating the temporary files is the writability check: still before any work.
    // From here on SIGINT/SIGTERM set a flag instead of killing the process, so the
    // temporary files created next are always removed.
    interrupt::install().context("installing the SIGINT/SIGTERM handlers")?;
    let (mut sinks, mut stores) = create_outputs(cfg, &names, &info, shard)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("starting the worker threads")?;
    let job = Job {
        algos: cfg.algos.clone(),
        width: cfg.width,
        height: cfg.height,
        // This shard's slice of each generator's indices (all of them when unsharded).
        count: range.end - range.start,
        seed: cfg.seed,
        ends: cfg.ends,
        accept: cfg.accept.clone(),
        max_candidates: cfg.max_candidates,
        keep_walls: !stores.is_empty(),
        first_index: range.start,
    };
    let total = job.count * cfg.algos.len() as u64;
    let bar = progress_bar(total, cfg.quiet);
    let started = Instant::now();
    let mut current = 0usize;
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
        // Dataset folders hold one part per generator; a single file holds them all.
        let (sink_at, store_at, store_algo) = (
            if cfg.out_is_dir { pos } else { 0 },
            if cfg.mazes_is_dir { pos } else { 0 },
            if cfg.mazes_is_dir { 0 } else { pos as u32 },
        );
        if cfg.out_is_dir && pos != current {
            // The previous generator's part is done: write out its buffered rows.
            sinks[current].flush()?;
            current = pos;
        }
        sinks[sink_at].write(&names[pos], cfg.width, cfg.height, cfg.seed, chunk.rows)?;
        if let Some(store) = stores.get_mut(store_at) {
            for (k, r) in chunk.rows.iter().enumerate() {
                let w = &chunk.walls[k * chunk.words_per_maze..(k + 1) * chunk.words_per_maze];
                // The ends this maze was measured with (per maze for `--ends diameter`).
                let (entrance, exit) = match cfg.ends {
                    Ends::Cells { entrance, exit } => (entrance, exit),
                    Ends::Diameter => (r.metrics.diameter_start, r.metrics.diameter_end),
                };
                store.append(store::Entry {
                    algo: store_algo,
                    index: r.index,
                    maze_seed: r.maze_seed,
                    maze_hash: r.metrics.maze_hash,
                    entrance,
                    exit,
                    walls: w,
                })?;
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
        // Returning drops the sinks and the stores: their temporary files are removed.
        return Err(interrupted(sinks.iter().map(|s| s.rows()).sum()));
    }

    let candidates: u64 = tallies.iter().map(|t| t.candidates).sum();
    let short: Vec<String> = tallies
        .iter()
        .zip(&names)
        .filter(|(t, _)| t.accepted < job.count)
        .map(|(t, n)| format!("{n}: {} of {} candidates", t.accepted, t.candidates))
        .collect();
    if !short.is_empty() {
        // Dropping the sink and store removes their temporary files: nothing is left behind.
        anyhow::bail!(
            "--accept '{}' accepted too few mazes within --max-candidates {} (needed {} per \
             algorithm): {}; nothing was written. Loosen the filter or raise --max-candidates.",
            cfg.accept.as_ref().map_or("", |a| a.source()),
            cfg.max_candidates,
            job.count,
            short.join("; ")
        );
    }
    for (pos, (t, n)) in tallies.iter().zip(&names).enumerate() {
        let sink = &mut sinks[if cfg.out_is_dir { pos } else { 0 }];
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
    let rows: u64 = sinks.iter().map(|s| s.rows()).sum();
    let files = sinks.len();
    // Complete and sync every file, then make them visible together (or none of them).
    let mut prepared = Vec::with_capacity(sinks.len() + stores.len());
    let mut store_bytes = None;
    for s in stores {
        let p = s.prepare().context("finishing the maze store")?;
        store_bytes = Some(store_bytes.unwrap_or(0) + p.size());
        prepared.push(p);
    }
    let mut bytes = 0;
    for s in sinks {
        let p = s
            .prepare()
            .with_context(|| format!("finishing {}", cfg.out.display()))?;
        bytes += p.size();
        prepared.push(p);
    }
    if stop.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(interrupted(rows));
    }
    atomic_file::commit_all(prepared).with_context(|| {
        let mut what = format!("committing {}", cfg.out.display());
        if let Some(m) = &cfg.mazes {
            what += &format!(" and {}", m.display());
        }
        what
    })?;
    let secs = started.elapsed().as_secs_f64();
    if !cfg.quiet {
        let mut line = format!(
            "wrote {rows} mazes ({} x {}x{}) in {secs:.2} s, {:.0} mazes/s, {} ({}{})",
            names.join(","),
            cfg.width,
            cfg.height,
            rows as f64 / secs.max(1e-9),
            cfg.out.display(),
            human_bytes(bytes),
            if cfg.out_is_dir {
                format!(" in {files} part files of shard {shard}")
            } else {
                String::new()
            }
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

/// The shard facts every output file records, so `batchgen check` can verify a dataset.
fn shard_metadata(cfg: &Config, range: &std::ops::Range<u64>) -> Vec<(String, String)> {
    vec![
        (keys::SHARD.into(), cfg.shard().to_string()),
        (
            keys::SHARD_SOURCE.into(),
            cfg.shard
                .as_ref()
                .map_or_else(|| "none".into(), |(_, s)| s.to_string()),
        ),
        (keys::INDEX_START.into(), range.start.to_string()),
        (keys::INDEX_END.into(), range.end.to_string()),
    ]
}

type Outputs = (Vec<ParquetSink>, Vec<StoreWriter>);

/// Create the Parquet output(s) and maze store(s): one file each, or in a dataset folder one
/// part per generator (`DIR/algo=NAME/size=WxH/part-KKKKK-of-NNNNN.{parquet,arrow}`). Failing
/// here is bad input (exit 2): nothing has been generated yet.
fn create_outputs(
    cfg: &Config,
    names: &[String],
    info: &RunInfo,
    shard: Shard,
) -> anyhow::Result<Outputs> {
    let as_usage = |flag: &str, path: &Path, e: &dyn std::fmt::Display| {
        anyhow::Error::new(UsageError::flag(flag, &path.display().to_string(), e))
    };
    // The part file of one generator, its folder created.
    let part = |flag: &str, dir: &Path, name: &str, ext: &str| -> anyhow::Result<PathBuf> {
        let folder = dataset::partition_dir(dir, name, cfg.width, cfg.height);
        std::fs::create_dir_all(&folder).map_err(|e| as_usage(flag, &folder, &e))?;
        let path = folder.join(dataset::part_file_name(shard, ext));
        if path.is_dir() {
            return Err(as_usage(flag, &path, &"is a folder, expected a part file"));
        }
        Ok(path)
    };
    let sink = |path: &Path, info: &RunInfo| {
        ParquetSink::create(path, info).map_err(|e| match e {
            SinkError::Create { .. } | SinkError::Output(_) => as_usage("--out", path, &e),
            other => anyhow::Error::new(other),
        })
    };
    let mut sinks = Vec::new();
    if cfg.out_is_dir {
        for n in names {
            let path = part("--out", &cfg.out, n, "parquet")?;
            let mut info = info.clone();
            info.extra.push((keys::ALGO.into(), n.clone()));
            sinks.push(sink(&path, &info)?);
        }
    } else {
        sinks.push(sink(&cfg.out, info)?);
    }
    let mut stores = Vec::new();
    if let Some(p) = &cfg.mazes {
        let store = |path: &Path, algos: &[String]| {
            let info = StoreInfo {
                width: cfg.width,
                height: cfg.height,
                seed: cfg.seed,
                algos: algos.to_vec(),
                ends_rule: info.ends_rule.clone(),
            };
            StoreWriter::create(path, &info).map_err(|e| as_usage("--mazes", path, &e))
        };
        if cfg.mazes_is_dir {
            for n in names {
                let path = part("--mazes", p, n, store::EXTENSION)?;
                stores.push(store(&path, std::slice::from_ref(n))?);
            }
        } else {
            stores.push(store(p, names)?);
        }
    }
    Ok((sinks, stores))
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
