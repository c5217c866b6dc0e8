//! The main job: generate `--count` mazes per algorithm (accepted ones, with `--accept`),
//! measure each, write one Parquet row per maze and optionally each maze to a store, with a
//! progress bar on a terminal and a closing summary line. With a shard (`--shard` or a cluster
//! engine's environment) only that slice of each generator's indices is made; with a dataset
//! folder (`--out DIR/`, `--mazes DIR/`) each generator gets its own part file.
//!
//! Every output is written through [`batchgen::atomic_file`] and all of them are committed
//! together at the end. SIGINT/SIGTERM/SIGHUP stop the workers between mazes; the writers are then
//! dropped (their temporary files go with them), a line says how far the run got, and the
//! process exits with 130/143 ([`Interrupted`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;

use batchgen::accept::Accept;
use batchgen::args::{check_out, DEFAULT_SEED};
use batchgen::atomic_file::{self, AtomicFile};
use batchgen::interrupt;
use batchgen::output_set::OutputSet;
use batchgen::run::{
    CreateError, ExecuteError, Names, Output, ParquetOutput, RowSink, Run, RunError, RunSpec,
    StoreOutput,
};
use batchgen::shard::{self, Shard};
use batchgen::store;
use clap::Args;

use crate::cmd::progress::{self, human_bytes, Progress};
use crate::cmd::run_summary::{self, Destination, RunFacts};
use crate::cmd::{mask_arg, values};
use crate::cmd::{Interrupted, UsageError};
use batchgen::thousands::thousands;
use batchgen::topo::Grid;

/// Flags of the main job.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Generators: a comma list of names, or `all` (see `--list-algos`).
    #[arg(long, default_value = "all", value_name = "LIST", value_parser = values::AlgoListParser, hide_possible_values = true)]
    pub algo: values::AlgoList,
    /// Grid size in cells, `WxH`, or `WxHxD` for a 3D maze (default 64x64).
    ///
    /// Width x height (`64x64` or `64×64`), or width x height x depth (layers): only the
    /// generators marked 3D in --list-algos; `--algo all` runs those. With --mask the mask
    /// sets the size (a --size given beside it must agree).
    #[arg(
        long,
        value_name = "WxH[xD]",
        allow_hyphen_values = true,
        value_parser = values::text(values::size_arg)
    )]
    pub size: Option<values::SizeArg>,
    /// Cell shape: square, hex, triangle or polar.
    ///
    /// hex: pointy-top hexagons, odd rows shifted right (`--size WxH`); triangle: cell (x, y)
    /// points up when x + y is even (`--size WxH`); polar: a centre cell and rings (`--size R`,
    /// or `RxC` with C cells in the first ring). Layouts: `src/topo/README.md`. Only the
    /// generators defined on the grid run (`--algo all` runs those).
    #[arg(long, value_name = "GRID", default_value = "square", value_parser = values::text(values::grid))]
    pub grid: batchgen::topo::Grid,
    /// Make every maze inside this shape: a text file (`#` = no cell) or a PNG (dark = no cell).
    ///
    /// One line (or pixel row) per grid row; any character but `#` (any light pixel) is a
    /// cell. The cells must be connected; each maze is a spanning tree of them, measured over
    /// them (`cells`, `mask_hash` columns; the file's metadata holds the mask). Only the
    /// generators that accept a mask run (`--algo all` runs those).
    #[arg(long, value_name = "FILE")]
    pub mask: Option<PathBuf>,
    /// Mazes per algorithm (1000, 1_000, 1,000,000, 1e6 or 2^20).
    #[arg(
        long,
        default_value = "1000",
        value_name = "N",
        allow_hyphen_values = true,
        value_parser = values::text(values::count)
    )]
    pub count: u64,
    /// Master seed.
    ///
    /// Every maze's own seed is derived from it, the algorithm, the size and the maze index.
    #[arg(long, default_value_t = DEFAULT_SEED, value_name = "S")]
    pub seed: u64,
    /// Output Parquet file, or a dataset folder `DIR/` (one file per generator and shard).
    ///
    /// A file is written to a temporary name and renamed when complete. A folder (a trailing
    /// slash, or an existing folder) gets `DIR/algo=NAME/size=WxH/part-KKKKK-of-NNNNN.parquet`.
    #[arg(
        short,
        long,
        value_name = "FILE|DIR/",
        required_unless_present = "list_algos"
    )]
    pub out: Option<PathBuf>,
    /// Make only the K-th of N slices of each generator's indices (1-based).
    ///
    /// The K-th of N contiguous slices of each generator's index range. Without it, a Slurm
    /// job array, Kubernetes Indexed Job or AWS Batch array job sets it.
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// The number of shards where the engine does not export it.
    ///
    /// Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX gives K; also settable as
    /// BATCHGEN_SHARD_COUNT.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub shard_count: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = values::text(values::threads))]
    pub threads: Option<usize>,
    /// Entrance cell `X,Y` (3D: `X,Y,Z`) of the solution (default: the first cell).
    ///
    /// Used by solution_length and solution_turns; in 3D, Z is the layer, 0 on top.
    #[arg(long, value_name = "X,Y[,Z]", allow_hyphen_values = true)]
    pub entrance: Option<String>,
    /// Exit cell `X,Y` (3D: `X,Y,Z`) (default: the last cell).
    ///
    /// The last cell is the bottom-right one of the last layer.
    #[arg(long, value_name = "X,Y[,Z]", allow_hyphen_values = true)]
    pub exit: Option<String>,
    /// Keep only mazes passing this filter, e.g. 'dead_end_share <= 0.12'.
    ///
    /// A SQL-like expression over the metric columns, e.g.
    /// 'dead_end_share <= 0.12 AND solution_length >= 300'; `--count` then counts accepted
    /// mazes (candidates are tried in index order and keep their index).
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true, value_parser = values::text(values::accept))]
    pub accept: Option<Accept>,
    /// With --accept: give up on a generator after this many candidates.
    ///
    /// Default: 1000 per requested maze, at least 100000.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = values::text(values::positive))]
    pub max_candidates: Option<u64>,
    /// Braid each maze: open one more wall of each dead end with chance P (0 to 1).
    ///
    /// After the perfect maze is made, its dead ends are visited in random order and each one
    /// still a dead end gets one more passage with chance P, towards a dead-end neighbour if
    /// there is one; every wall opened is one loop (`loops` column). 0 (the default) keeps
    /// perfect mazes; the maze under the loops is the same as without --braid.
    #[arg(long, value_name = "P", allow_hyphen_values = true, value_parser = values::text(values::braid))]
    pub braid: Option<f64>,
    /// Where the solution runs (default corners: the first and last cell, or --entrance and
    /// --exit).
    #[arg(long, value_name = "RULE", value_enum)]
    pub ends: Option<values::EndsRule>,
    /// Also write every maze's walls to this maze store file, or a dataset folder `DIR/`.
    ///
    /// Every (accepted) maze, in the maze store format (`batchgen::store`); a folder gets one
    /// `.arrow` per generator and shard, laid out as for `--out`.
    #[arg(long, value_name = "FILE|DIR/")]
    pub mazes: Option<PathBuf>,
    /// Also write a summary of the run as JSON to FILE, or to stdout with `-`.
    ///
    /// Version, seeding scheme, per generator mazes, seconds and mazes/s, every output with
    /// its size.
    #[arg(long, value_name = "FILE|-")]
    pub summary_json: Option<PathBuf>,
    /// No progress bar and no closing table.
    ///
    /// A sharded run still prints its one shard line.
    #[arg(long, short)]
    pub quiet: bool,
    /// List every generator, then exit (as `batchgen list-algos`).
    #[arg(long)]
    pub list_algos: bool,
    /// Run a random-walk generator even where one maze is expected to walk more than 10^11
    /// steps (a long 1-wide grid, which can take hours per maze).
    #[arg(long)]
    pub no_time_limit: bool,
}

/// The main job, validated.
#[derive(Debug, Clone)]
pub struct Config {
    /// The run.
    pub run: Run,
    /// Suppress progress and the closing line.
    pub quiet: bool,
    /// Where `--summary-json` goes.
    pub summary_json: Option<Destination>,
    /// The line saying which generators a 3D or masked `--algo all` skipped (printed on stderr).
    pub note: Option<String>,
    /// Warnings printed before the run (an output extension that does not match its format).
    pub warnings: Vec<String>,
}

/// A warning when `path`'s extension is not `want` (`--out a.csv` is still Parquet): the file
/// is written as asked, but the name misleads whoever opens it.
fn extension_warning(flag: &str, path: &Path, want: &str, what: &str) -> Option<String> {
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    (ext != want).then(|| {
        format!(
            "warning: {flag} '{}' ends in .{ext}, but it is written as {what} (.{want})",
            path.display()
        )
    })
}

/// A refused run, its fields spelt as flags.
fn usage(e: RunError) -> UsageError {
    UsageError(e.message(Names::Flags))
}

impl Config {
    /// The metrics output (`--out`).
    fn out(&self) -> &Output {
        self.run.out.as_ref().expect("the main job has --out")
    }
}

impl RunArgs {
    /// Validate every flag; nothing has been written or allocated when this fails. The engine
    /// environment is read from the process.
    pub fn validate(&self) -> Result<Config, UsageError> {
        // A value that is not UTF-8 is passed on (as U+FFFD) so it is refused naming the
        // variable, not mistaken for an unset one.
        self.validate_with_env(&|k| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned()))
    }

    /// The run these flags describe (the mask read, the shard resolved from the flags and
    /// `env`).
    pub fn spec(&self, env: &dyn Fn(&str) -> Option<String>) -> Result<RunSpec, UsageError> {
        let mut spec = RunSpec::new()
            .algos([self.algo.spec.as_str()])
            .count(self.count)
            .seed(self.seed)
            .no_time_limit(self.no_time_limit)
            .braid(self.braid.unwrap_or(0.0))
            .grid(self.grid);
        if let Some(p) = &self.mask {
            // On another grid the graph checks the cells' connectivity on its own neighbours.
            let mask = match self.grid {
                Grid::Square => mask_arg::read("--mask", p)?,
                _ => mask_arg::read_with("--mask", p, batchgen::grid::Mask::cells_from_bytes)?,
            };
            spec = spec.mask(mask, p.display().to_string());
        }
        if let Some(s) = self.size {
            spec = spec.size(s.on_grid(self.grid)?);
        }
        if let Some(t) = self.threads {
            spec = spec.threads(t);
        }
        if let Some(e) = self.ends {
            spec = spec.ends(e.rule());
        }
        if let Some(e) = &self.entrance {
            spec = spec.entrance(e);
        }
        if let Some(e) = &self.exit {
            spec = spec.exit(e);
        }
        if let Some(a) = &self.accept {
            spec = spec.accept(a.clone());
        }
        if let Some(n) = self.max_candidates {
            spec = spec.max_candidates(n);
        }
        if let Some(out) = &self.out {
            spec = spec.out(Output::new(out));
        }
        if let Some(m) = &self.mazes {
            spec = spec.mazes(Output::new(m));
        }
        let shard = shard::resolve(self.shard.as_deref(), self.shard_count.as_deref(), env)
            .map_err(|e| UsageError(e.to_string()))?;
        if let Some((s, src)) = shard {
            spec = spec.shard(s, src);
        }
        Ok(spec)
    }

    /// [`RunArgs::validate`] with the environment given as a lookup function.
    pub fn validate_with_env(
        &self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, UsageError> {
        if self.out.is_none() {
            return Err(UsageError("the main job needs --out FILE".into()));
        }
        let run = self.spec(env)?.validate().map_err(usage)?;
        let summary_json = match &self.summary_json {
            None => None,
            Some(p) if p.as_os_str() == "-" => Some(Destination::Stdout),
            Some(p) => Some(Destination::File(check_out("--summary-json", p)?)),
        };
        let out = run.out.as_ref().expect("given");
        let warnings = extension_warnings(out, run.mazes.as_ref());
        check_distinct(&run, summary_json.as_ref(), self.mask.as_deref())?;
        let note = run.note.as_ref().map(|n| n.render(Names::Flags));
        Ok(Config {
            run,
            quiet: self.quiet,
            summary_json,
            note,
            warnings,
        })
    }
}

/// The run layer's random-walk rule ([`batchgen::run::check_walk_steps`]) for `levels` and
/// `render`, which apply it before they regenerate anything; the message names flags.
pub(crate) fn check_walk_steps(
    algos: &[batchgen::Algorithm],
    size: batchgen::grid::Size,
    mask: Option<(&batchgen::grid::Mask, &std::path::Path)>,
) -> Result<(), UsageError> {
    let mask = mask.map(|(m, p)| (m, p.display().to_string()));
    batchgen::run::check_walk_steps(algos, size, mask.as_ref().map(|(m, p)| (*m, p.as_str())))
        .map_err(usage)
}

/// Warnings for output files whose extension is not the format written.
fn extension_warnings(out: &Output, mazes: Option<&Output>) -> Vec<String> {
    let mut warnings = Vec::new();
    if !out.folder {
        warnings.extend(extension_warning("--out", &out.path, "parquet", "Parquet"));
    }
    if let Some(m) = mazes.filter(|m| !m.folder) {
        warnings.extend(extension_warning(
            "--mazes",
            &m.path,
            "arrow",
            "an Arrow maze store",
        ));
    }
    warnings
}

/// Every file the run will write, resolved (symlinks, `..`, hard links) and compared with
/// each other and with the mask the run reads: no two outputs may land on one file, and no
/// output on an input.
fn check_distinct(
    run: &Run,
    summary_json: Option<&Destination>,
    mask: Option<&Path>,
) -> Result<(), UsageError> {
    let mut set = OutputSet::new();
    if let Some(mask) = mask {
        set.add_input("--mask", mask);
    }
    let mut plan = |flag: &str, o: &Output, ext: &str| {
        if !o.folder {
            return set.add(flag, &o.path, &o.path);
        }
        (0..run.algos.len()).try_for_each(|pos| set.add(flag, &o.path, &run.part_path(o, pos, ext)))
    };
    let out = run.out.as_ref().expect("given");
    let planned = plan("--out", out, "parquet")
        .and_then(|()| match &run.mazes {
            Some(m) => plan("--mazes", m, store::EXTENSION),
            None => Ok(()),
        })
        .and_then(|()| match summary_json {
            Some(Destination::File(t)) => plan(
                "--summary-json",
                &Output {
                    path: t.requested.clone(),
                    folder: false,
                },
                "",
            ),
            _ => Ok(()),
        });
    planned.map_err(|e| UsageError(e.to_string()))
}

/// A failure creating an output: bad input (exit 2) naming the flag, or an error.
fn created(e: CreateError) -> anyhow::Error {
    match e {
        CreateError::Refused(r) => anyhow::Error::new(usage(r)),
        CreateError::Failed(f) => anyhow::anyhow!(f),
        other => anyhow::anyhow!(other),
    }
}

/// Run the validated main job.
pub fn run(cfg: &Config, command_line: &str) -> anyhow::Result<()> {
    let run = &cfg.run;
    let names = run.names();
    let shard = run.whole_shard();
    let range = run.indices();
    let info = run.info(command_line);
    print_notices(cfg, &range)?;
    // Creating the temporary files is the writability check: still before any work.
    // From here on SIGINT/SIGTERM/SIGHUP set a flag instead of killing the process, so the
    // temporary files created next are always removed.
    interrupt::install().context("installing the signal handlers")?;
    let mut parquet = ParquetOutput::create(run, cfg.out(), &info).map_err(created)?;
    let mut store = match &run.mazes {
        Some(m) => Some(StoreOutput::create(run, m).map_err(created)?),
        None => None,
    };
    // Created now, like the others: an unwritable folder is refused before any work.
    let summary_file = match &cfg.summary_json {
        Some(Destination::File(t)) => Some(AtomicFile::create_target(t.clone()).map_err(|e| {
            UsageError::flag("--summary-json", &t.requested.display().to_string(), e)
        })?),
        _ => None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads)
        .build()
        .context("starting the worker threads")?;
    let per_algo = range.end - range.start;
    let total = per_algo * run.algos.len() as u64;
    let show = !cfg.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
    // Only a visible bar needs the ETA's calibration (see cmd/progress.rs).
    let cells = run
        .grid
        .as_ref()
        .map_or(run.size.cells_u64(), |g| u64::from(g.graph.cells()));
    let cost = (show && cells <= progress::CALIBRATION_MAX_CELLS).then(|| {
        progress::calibrate(
            &run.algos,
            run.size,
            run.seed,
            run.ends,
            run.grid.as_ref(),
            &pool,
        )
    });
    let mut bar = Progress::new(&names, per_algo, cost, run.accept.is_some(), show);
    let started = Instant::now();
    let stop = interrupt::stop_flag();
    let interrupted = |done: u64| interrupted_error(cfg, total, started, done);
    let mut sinks: Vec<&mut dyn RowSink> = vec![&mut parquet];
    if let Some(s) = store.as_mut() {
        sinks.push(s);
    }
    let result = run.execute(&pool, stop, &mut sinks, |pos, chunk| {
        bar.chunk(pos, chunk.rows.len() as u64, chunk.candidates, chunk.busy)
    });
    drop(sinks);
    let tallies = match result {
        Ok(t) => t,
        // Returning drops the sinks and the stores: their temporary files are removed.
        Err(ExecuteError::Stopped) => {
            bar.finish();
            return Err(interrupted(parquet.rows()));
        }
        Err(ExecuteError::Shortfall(why)) => {
            bar.finish();
            anyhow::bail!("{why}");
        }
        Err(e) => {
            return Err(anyhow::anyhow!(e))
                .with_context(|| format!("writing {}", cfg.out().path.display()))
        }
    };
    bar.finish();

    let candidates: u64 = tallies.iter().map(|t| t.candidates).sum();
    let rows = parquet.rows();
    let files = parquet.files();
    // Complete and sync every file, then make them visible together (or none of them).
    let (mut prepared, mut outputs, bytes, store_bytes) =
        prepare_outputs(cfg, parquet, store, &mut bar)?;
    // Parquet first, then maze stores.
    outputs.sort_by_key(|o| o.0 != "parquet");
    let secs = started.elapsed().as_secs_f64();
    bar.share(secs);
    let summary = cfg.summary_json.as_ref().map(|_| {
        let facts = RunFacts {
            command_line,
            size: run.size_text(),
            seed: run.seed,
            count: run.count,
            shard: shard.to_string(),
            accept: run.accept.as_ref().map(Accept::source),
            outputs,
            seconds: secs,
        };
        run_summary::document(&facts, bar.stats())
    });
    // The summary file is one of the run's outputs: it commits with them.
    if let (Some(f), Some(doc)) = (summary_file, &summary) {
        prepared.push(run_summary::prepare(f, doc)?);
    }
    if stop.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(interrupted(rows));
    }
    atomic_file::commit_all(prepared).with_context(|| {
        let mut what = format!("committing {}", cfg.out().path.display());
        if let Some(m) = &run.mazes {
            what += &format!(" and {}", m.path.display());
        }
        if let Some(Destination::File(t)) = &cfg.summary_json {
            what += &format!(" and {}", t.requested.display());
        }
        what
    })?;
    if !cfg.quiet {
        let totals = Totals {
            rows,
            files,
            bytes,
            store_bytes,
            candidates,
            secs,
        };
        crate::errln!("{}", done_message(cfg, &bar, shard, &totals))?;
    }
    if let (Some(Destination::Stdout), Some(doc)) = (&cfg.summary_json, &summary) {
        super::stdio::out(doc)?;
    }
    Ok(())
}

/// What is printed before the run even with --quiet.
fn print_notices(cfg: &Config, range: &std::ops::Range<u64>) -> anyhow::Result<()> {
    // Printed even with --quiet: what a 3D `--algo all` skipped changes what the run makes.
    if let Some(note) = &cfg.note {
        crate::errln!("{note}")?;
    }
    for w in &cfg.warnings {
        crate::errln!("{w}")?;
    }
    // Printed even with --quiet: engine logs should say which task made which slice.
    if let Some((s, src)) = &cfg.run.shard {
        crate::errln!(
            "shard {s} from {src}: indices {}..{} of each generator's {}",
            range.start,
            range.end,
            cfg.run.count
        )?;
    }
    Ok(())
}

/// The error of a run stopped by a signal after `done` of `total` mazes.
fn interrupted_error(cfg: &Config, total: u64, started: Instant, done: u64) -> anyhow::Error {
    let sig = interrupt::received().unwrap_or(interrupt::SIGINT);
    let mut outs = format!("'{}'", cfg.out().path.display());
    if let Some(m) = &cfg.run.mazes {
        outs += &format!(" or '{}'", m.path.display());
    }
    anyhow::Error::new(Interrupted {
        signal: sig,
        message: format!(
            "interrupted by {} after {} of {} ({:.1}%) in {:.2} s; \
             temporary files removed, nothing written to {outs} (an existing file there \
             is untouched)",
            interrupt::name(sig),
            thousands(done),
            progress::plural(total, "maze"),
            100.0 * done as f64 / total.max(1) as f64,
            started.elapsed().as_secs_f64()
        ),
    })
}

/// Complete and sync every file (made visible later, together): the prepared files, the
/// outputs for the summary (kind, path, bytes), the Parquet bytes and the maze store bytes.
fn prepare_outputs(
    cfg: &Config,
    parquet: ParquetOutput,
    store: Option<StoreOutput>,
    bar: &mut Progress,
) -> anyhow::Result<PreparedOutputs> {
    let mut prepared = Vec::new();
    let mut outputs: Vec<(&'static str, String, u64)> = Vec::new();
    let mut store_bytes = None;
    let stores = match store {
        Some(s) => s.prepare().context("finishing the maze store")?,
        None => Vec::new(),
    };
    let store_folder = cfg.run.mazes.as_ref().is_some_and(|m| m.folder);
    for (k, p) in stores.into_iter().enumerate() {
        store_bytes = Some(store_bytes.unwrap_or(0) + p.size());
        let path = p.target().requested.clone();
        outputs.push(("maze_store", path.display().to_string(), p.size()));
        if store_folder {
            bar.stats_mut()[k].store = Some((path, p.size()));
        }
        prepared.push(p);
    }
    let mut bytes = 0;
    let parts = parquet
        .prepare()
        .with_context(|| format!("finishing {}", cfg.out().path.display()))?;
    for (k, p) in parts.into_iter().enumerate() {
        bytes += p.size();
        let path = p.target().requested.clone();
        outputs.push(("parquet", path.display().to_string(), p.size()));
        if cfg.out().folder {
            bar.stats_mut()[k].out = Some((path, p.size()));
        }
        prepared.push(p);
    }
    Ok((prepared, outputs, bytes, store_bytes))
}

/// What [`prepare_outputs`] returns.
type PreparedOutputs = (
    Vec<atomic_file::Prepared>,
    Vec<(&'static str, String, u64)>,
    u64,
    Option<u64>,
);

/// What the run wrote, for its closing message.
struct Totals {
    rows: u64,
    files: usize,
    bytes: u64,
    store_bytes: Option<u64>,
    candidates: u64,
    secs: f64,
}

/// The closing message: the per-generator table, what was written where, and with --accept
/// the acceptance.
fn done_message(cfg: &Config, bar: &Progress, shard: Shard, t: &Totals) -> String {
    let accept = cfg.run.accept.is_some();
    let mut text = progress::table(bar.stats(), t.secs, accept);
    text += &format!(
        "wrote {} ({}) in {:.2} s to {} ({}{})",
        progress::plural(t.rows, "maze"),
        cfg.run.size_text(),
        t.secs,
        cfg.out().path.display(),
        human_bytes(t.bytes),
        if cfg.out().folder {
            format!(
                " in {} of shard {shard}",
                progress::plural(t.files as u64, "part file")
            )
        } else {
            String::new()
        }
    );
    if let (Some(b), Some(m)) = (t.store_bytes, &cfg.run.mazes) {
        text += &format!("; maze store {} ({})", m.path.display(), human_bytes(b));
    }
    if accept {
        text += &format!(
            "\naccepted {} of {} ({:.2}%, {} candidates/s)",
            thousands(t.rows),
            progress::plural(t.candidates, "candidate"),
            100.0 * t.rows as f64 / t.candidates.max(1) as f64,
            progress::rate_text(t.candidates as f64 / t.secs.max(1e-9))
        );
    }
    text
}
