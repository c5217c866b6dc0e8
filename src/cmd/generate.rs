//! The main job: generate `--count` mazes per algorithm, measure each, write one Parquet row per
//! maze, with a progress bar on a terminal and a closing summary line.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use batchgen::batch::{self, Job};
use batchgen::sink::{ParquetSink, RunInfo, SinkError};

use crate::cli::Config;
use crate::cmd::UsageError;

/// Run the validated main job.
pub fn run(cfg: &Config, command_line: &str) -> anyhow::Result<()> {
    let info = RunInfo {
        command_line: command_line.to_string(),
        ends_rule: cfg.ends_rule.clone(),
        extra: vec![
            ("batchgen.count_per_algo".into(), cfg.count.to_string()),
            (
                "batchgen.size".into(),
                format!("{}x{}", cfg.width, cfg.height),
            ),
            ("batchgen.seed".into(), cfg.seed.to_string()),
        ],
    };
    // Creating the temporary file is the writability check: still before any work.
    let mut sink = ParquetSink::create(&cfg.out, &info).map_err(|e| match e {
        SinkError::Create { .. } => {
            anyhow::Error::new(UsageError::flag("--out", &cfg.out.display().to_string(), e))
        }
        other => anyhow::Error::new(other),
    })?;
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
    };
    let total = cfg.count * cfg.algos.len() as u64;
    let bar = progress_bar(total, cfg.quiet);
    let names: Vec<String> = cfg.algos.iter().map(|a| a.name()).collect();
    let started = Instant::now();
    batch::run(&job, &pool, |algo, rows| {
        let pos = cfg.algos.iter().position(|a| a == algo).unwrap_or(0);
        sink.write(&names[pos], cfg.width, cfg.height, cfg.seed, rows)?;
        bar.inc(rows.len() as u64);
        Ok::<(), SinkError>(())
    })
    .with_context(|| format!("writing {}", cfg.out.display()))?;
    let rows = sink.rows();
    let bytes = sink
        .finish()
        .with_context(|| format!("finishing {}", cfg.out.display()))?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    if !cfg.quiet {
        eprintln!(
            "wrote {rows} mazes ({} x {}x{}) in {secs:.2} s, {:.0} mazes/s, {} ({})",
            names.join(","),
            cfg.width,
            cfg.height,
            rows as f64 / secs.max(1e-9),
            cfg.out.display(),
            human_bytes(bytes)
        );
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
            "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} mazes  {per_sec}  ETA {eta}",
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
