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

use batchgen::atomic_file::{self, AtomicFile};
use batchgen::batch::{self, Job};
use batchgen::dataset;
use batchgen::interrupt;
use batchgen::meta_keys as keys;
use batchgen::shard::Shard;
use batchgen::sink::arrow::RunSpec;
use batchgen::sink::{ParquetSink, RunInfo, SinkError};
use batchgen::store::{self, StoreError, StoreInfo, StoreWriter};

use batchgen::accept::Accept;
use batchgen::args::{
    check_3d, check_out, check_out_dir, resolve_ends_sized, select_3d, DEFAULT_SEED,
};
use batchgen::grid::Size;
use batchgen::output_set::OutputSet;
use batchgen::shard::{self, Source};
use batchgen::{Algorithm, Ends};
use clap::Args;

use crate::cmd::progress::{self, human_bytes, Progress};
use crate::cmd::run_summary::{self, Destination, RunFacts};
use crate::cmd::{mask_arg, values};
use crate::cmd::{Interrupted, UsageError};
use batchgen::thousands::thousands;

/// Walk steps per maze above which a random-walk generator is refused without
/// `--no-time-limit` (see [`Algorithm::expected_walk_steps`]).
const MAX_WALK_STEPS: f64 = 1e11;

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
        value_parser = values::text(values::size)
    )]
    pub size: Option<Size>,
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
    /// Generators in canonical order.
    pub algos: Vec<Algorithm>,
    /// Grid size (depth 1 for 2D).
    pub size: Size,
    /// Mazes per algorithm.
    pub count: u64,
    /// Master seed.
    pub seed: u64,
    /// Output path.
    pub out: PathBuf,
    /// Worker threads.
    pub threads: usize,
    /// Entrance and exit cells.
    pub ends: Ends,
    /// The mask every maze fills (`--mask`), if any.
    pub mask: Option<std::sync::Arc<batchgen::grid::Mask>>,
    /// How `ends` was chosen, for the file metadata.
    pub ends_rule: String,
    /// Suppress progress and the closing line.
    pub quiet: bool,
    /// Accept filter.
    pub accept: Option<Accept>,
    /// Braid chance per dead end (0 = perfect mazes).
    pub braid: f64,
    /// Candidate limit per algorithm (with a filter).
    pub max_candidates: u64,
    /// Maze store output.
    pub mazes: Option<PathBuf>,
    /// This process's shard and where it came from; `None` = the whole range (1/1).
    pub shard: Option<(Shard, Source)>,
    /// `--out` is a dataset folder.
    pub out_is_dir: bool,
    /// `--mazes` is a dataset folder.
    pub mazes_is_dir: bool,
    /// Where `--summary-json` goes.
    pub summary_json: Option<Destination>,
    /// The line saying which generators a 3D `--algo all` skipped (printed on stderr).
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

impl Config {
    /// The shard (1/1 when unsharded).
    pub fn shard(&self) -> Shard {
        self.shard.as_ref().map_or(Shard::WHOLE, |s| s.0)
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

    /// [`RunArgs::validate`] with the environment given as a lookup function.
    pub fn validate_with_env(
        &self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, UsageError> {
        let mask = match &self.mask {
            Some(p) => Some(mask_arg::read("--mask", p)?),
            None => None,
        };
        let size = mask_arg::size_for(
            self.size,
            Size::planar(64, 64),
            mask.as_ref(),
            "--mask",
            self.mask.as_deref(),
        )?;
        let spec = self.algo.spec.as_str();
        let (algos, mask_note) =
            mask_arg::select_algos(spec, self.algo.algos.clone(), mask.as_ref())?;
        let (algos, note) = select_3d(spec, algos, size);
        let note = note.or(mask_note);
        check_3d("--algo", spec, &algos, size)?;
        if !self.no_time_limit {
            check_walk_steps(&algos, size, mask.as_deref().zip(self.mask.as_deref()))?;
        }
        let count = self.count;
        check_total(count, algos.len())?;
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let (ends, ends_rule) = self.ends_for(size, mask.as_ref())?;
        let accept = self.accept.clone();
        let max_candidates = self.max_candidates_for(count)?;
        let out = self
            .out
            .clone()
            .ok_or_else(|| UsageError("the main job needs --out FILE".into()))?;
        let shard = shard::resolve(self.shard.as_deref(), self.shard_count.as_deref(), env)
            .map_err(|e| UsageError(e.to_string()))?;
        check_shard_accept(shard.as_ref(), accept.as_ref())?;
        let out_is_dir = dataset::is_folder_target(&out);
        let mazes_is_dir = self.mazes.as_deref().is_some_and(dataset::is_folder_target);
        self.check_outputs(&out, out_is_dir, mazes_is_dir, shard.as_ref())?;
        let summary_json = match &self.summary_json {
            None => None,
            Some(p) if p.as_os_str() == "-" => Some(Destination::Stdout),
            Some(p) => Some(Destination::File(check_out("--summary-json", p)?)),
        };
        let warnings = self.extension_warnings(&out, out_is_dir, mazes_is_dir);
        let whole = shard.as_ref().map_or(Shard::WHOLE, |s| s.0);
        let outputs = Named {
            out: &out,
            out_is_dir,
            mazes: self.mazes.as_deref(),
            mazes_is_dir,
            summary_json: summary_json.as_ref(),
            mask: self.mask.as_deref(),
        };
        check_distinct(&outputs, &algos, size, whole)?;
        check_memory(&algos, size, threads, self.mazes.is_some())?;
        Ok(Config {
            algos,
            size,
            count,
            seed: self.seed,
            out,
            threads,
            ends,
            ends_rule,
            quiet: self.quiet,
            accept,
            braid: self.braid.unwrap_or(0.0),
            max_candidates,
            mazes: self.mazes.clone(),
            shard,
            out_is_dir,
            mazes_is_dir,
            summary_json,
            note,
            warnings,
            mask,
        })
    }

    /// The ends (and the rule's name) of `--ends`, `--entrance` and `--exit` on `size`; on a
    /// mask, its first and last cells for the ends not given.
    fn ends_for(
        &self,
        size: Size,
        mask: Option<&std::sync::Arc<batchgen::grid::Mask>>,
    ) -> Result<(Ends, String), UsageError> {
        let (ends, ends_rule) = resolve_ends_sized(
            self.ends.map(values::EndsRule::name),
            self.entrance.as_deref(),
            self.exit.as_deref(),
            size,
        )?;
        mask_arg::ends_on(
            (ends, ends_rule),
            self.entrance.is_some(),
            self.exit.is_some(),
            mask,
        )
    }

    /// `--max-candidates` (default: a thousand per maze asked for, at least 100,000); it only
    /// applies with `--accept`.
    fn max_candidates_for(&self, count: u64) -> Result<u64, UsageError> {
        if self.max_candidates.is_some() && self.accept.is_none() {
            return Err(UsageError(
                "--max-candidates only applies with --accept".into(),
            ));
        }
        Ok(self
            .max_candidates
            .unwrap_or_else(|| count.saturating_mul(1000).max(100_000)))
    }

    /// `--out` and `--mazes` can be written (as a file or a dataset folder each); a shard
    /// from the engine's environment runs as one of N tasks with the same command line, so a
    /// single output file would be overwritten by every task.
    fn check_outputs(
        &self,
        out: &Path,
        out_is_dir: bool,
        mazes_is_dir: bool,
        shard: Option<&(Shard, Source)>,
    ) -> Result<(), UsageError> {
        if out_is_dir {
            check_out_dir("--out", out)?;
        } else {
            check_out("--out", out)?;
        }
        if let Some((s, src)) = shard {
            if src.is_environment() && s.n > 1 {
                for (flag, path, is_dir) in [
                    ("--out", Some(out), out_is_dir),
                    ("--mazes", self.mazes.as_deref(), mazes_is_dir),
                ] {
                    if let (Some(p), false) = (path, is_dir) {
                        return Err(UsageError::flag(
                            flag,
                            &p.display().to_string(),
                            format!(
                                "this is shard {s} from the {src}; all {} tasks would write this \
                                 one file: give a dataset folder ({flag} DIR/)",
                                s.n
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(m) = &self.mazes {
            if mazes_is_dir {
                check_out_dir("--mazes", m)?;
            } else {
                check_out("--mazes", m)?;
            }
        }
        Ok(())
    }

    /// Warnings for output files whose extension is not the format written.
    fn extension_warnings(&self, out: &Path, out_is_dir: bool, mazes_is_dir: bool) -> Vec<String> {
        let mut warnings = Vec::new();
        if !out_is_dir {
            warnings.extend(extension_warning("--out", out, "parquet", "Parquet"));
        }
        if let (Some(m), false) = (&self.mazes, mazes_is_dir) {
            warnings.extend(extension_warning(
                "--mazes",
                m,
                "arrow",
                "an Arrow maze store",
            ));
        }
        warnings
    }
}

/// Every generator's random walk must be expected to finish in reasonable time on `size`, or
/// on `mask`'s own cells when there is one (its bounding box says nothing of a winding corridor).
/// `levels` and `render` apply it too, before they regenerate anything.
pub(crate) fn check_walk_steps(
    algos: &[Algorithm],
    size: Size,
    mask: Option<(&batchgen::grid::Mask, &std::path::Path)>,
) -> Result<(), UsageError> {
    for a in algos {
        let steps = match mask {
            Some((m, _)) => a.expected_walk_steps_on(m),
            None => a.expected_walk_steps(size),
        };
        match steps {
            Some(steps) if steps > MAX_WALK_STEPS => {
                let (flag, value, on) = match mask {
                    Some((m, p)) => (
                        "--mask",
                        p.to_string_lossy().into_owned(),
                        format!(
                            "this mask ({} cells, {} on its longest path)",
                            m.cells(),
                            m.span()
                        ),
                    ),
                    None => (
                        "--size",
                        size.to_string(),
                        format!("this grid ({} cells)", size.cells_u64()),
                    ),
                };
                return Err(UsageError::flag(
                    flag,
                    &value,
                    format!(
                        "{}'s random walk is expected to take about {steps:.1e} steps \
                         per maze on {on} (the limit is {MAX_WALK_STEPS:.0e}): it could run \
                         for hours. Use a {}, another generator, or --no-time-limit",
                        a.name(),
                        if mask.is_some() {
                            "mask with fewer long corridors"
                        } else {
                            "grid closer to square"
                        }
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The run's total must be countable: refused, never wrapped.
fn check_total(count: u64, generators: usize) -> Result<(), UsageError> {
    if count.checked_mul(generators as u64).is_none() {
        return Err(UsageError::flag(
            "--count",
            &count.to_string(),
            format!(
                "too large: {generators} generators × {count} mazes is more than {} (2^64 − 1)",
                u64::MAX
            ),
        ));
    }
    Ok(())
}

/// A shard cannot run `--accept`: the accepted mazes are the first that pass in index order.
fn check_shard_accept(
    shard: Option<&(Shard, Source)>,
    accept: Option<&Accept>,
) -> Result<(), UsageError> {
    if let (Some((s, _)), Some(a)) = (shard, accept) {
        return Err(UsageError(format!(
            "--shard {s} cannot be combined with --accept '{}': the accepted mazes are the \
             first that pass in index order, which no shard can know without the ones \
             before it. Filter the sharded dataset afterwards (DuckDB WHERE), or run \
             --accept unsharded",
            a.source()
        )));
    }
    Ok(())
}

/// The outputs a run names: the metrics, the maze store and the summary.
struct Named<'a> {
    out: &'a Path,
    out_is_dir: bool,
    mazes: Option<&'a Path>,
    mazes_is_dir: bool,
    summary_json: Option<&'a Destination>,
    /// The mask file the run reads: no output may replace it.
    mask: Option<&'a Path>,
}

/// Every file the run will write, resolved (symlinks, `..`, hard links) and compared with
/// each other and with the mask the run reads: no two outputs may land on one file, and no
/// output on an input.
fn check_distinct(
    o: &Named,
    algos: &[Algorithm],
    size: Size,
    whole: Shard,
) -> Result<(), UsageError> {
    let mut set = OutputSet::new();
    if let Some(mask) = o.mask {
        set.add_input("--mask", mask);
    }
    let mut plan = |flag: &str, given: &Path, is_dir: bool, ext: &str| {
        if !is_dir {
            return set.add(flag, given, given);
        }
        algos.iter().try_for_each(|a| {
            set.add(
                flag,
                given,
                &dataset::part_path(given, &a.name(), size, whole, ext),
            )
        })
    };
    let planned = plan("--out", o.out, o.out_is_dir, "parquet")
        .and_then(|()| match o.mazes {
            Some(m) => plan("--mazes", m, o.mazes_is_dir, store::EXTENSION),
            None => Ok(()),
        })
        .and_then(|()| match o.summary_json {
            Some(Destination::File(t)) => plan("--summary-json", &t.requested, false, ""),
            _ => Ok(()),
        });
    planned.map_err(|e| UsageError(e.to_string()))
}

/// Refuse up front what cannot fit, instead of aborting in the allocator mid-run.
fn check_memory(
    algos: &[Algorithm],
    size: Size,
    threads: usize,
    mazes: bool,
) -> Result<(), UsageError> {
    let chunk = batchgen::batch::chunk_len(size.cells_u64(), threads);
    let need = batchgen::memory::estimate(algos, size, threads, chunk, mazes);
    batchgen::memory::check(need).map_err(|why| {
        UsageError::flag(
            "--size",
            &size.to_string(),
            format!("with --threads {threads}: {why}"),
        )
    })
}

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
    let info = run_info(cfg, command_line, &names, shard, &range);
    print_notices(cfg, &range)?;
    // Creating the temporary files is the writability check: still before any work.
    // From here on SIGINT/SIGTERM/SIGHUP set a flag instead of killing the process, so the
    // temporary files created next are always removed.
    interrupt::install().context("installing the signal handlers")?;
    let (mut sinks, mut stores, summary_file) = create_outputs(cfg, &names, &info, shard)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("starting the worker threads")?;
    let job = job_of(cfg, &range, !stores.is_empty());
    let total = job.count * cfg.algos.len() as u64;
    let show = !cfg.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
    // Only a visible bar needs the ETA's calibration (see cmd/progress.rs).
    let cost = (show && cfg.size.cells_u64() <= progress::CALIBRATION_MAX_CELLS)
        .then(|| progress::calibrate(&cfg.algos, cfg.size, cfg.seed, cfg.ends, &pool));
    let mut bar = Progress::new(&names, job.count, cost, cfg.accept.is_some(), show);
    let started = Instant::now();
    let mut current = 0usize;
    let stop = interrupt::stop_flag();
    let interrupted = |done: u64| interrupted_error(cfg, total, started, done);
    let tallies = batch::run_cancellable(&job, &pool, stop, |chunk| {
        let pos = write_chunk(cfg, &names, &mut sinks, &mut stores, &mut current, chunk)?;
        bar.chunk(pos, chunk.rows.len() as u64, chunk.candidates);
        Ok::<(), WriteError>(())
    })
    .with_context(|| format!("writing {}", cfg.out.display()))?;
    bar.finish();
    if stop.load(std::sync::atomic::Ordering::SeqCst) {
        // Returning drops the sinks and the stores: their temporary files are removed.
        return Err(interrupted(sinks.iter().map(|s| s.rows()).sum()));
    }

    let candidates: u64 = tallies.iter().map(|t| t.candidates).sum();
    if let Some(why) = batch::shortfall(&job, &tallies, &names) {
        // Dropping the sink and store removes their temporary files: nothing is left behind.
        anyhow::bail!("{why}");
    }
    add_tally_metadata(cfg, &tallies, &names, &mut sinks);
    let rows: u64 = sinks.iter().map(|s| s.rows()).sum();
    let files = sinks.len();
    // Complete and sync every file, then make them visible together (or none of them).
    let (mut prepared, mut outputs, bytes, store_bytes) =
        prepare_outputs(cfg, sinks, stores, &mut bar)?;
    // Parquet first, then maze stores.
    outputs.sort_by_key(|o| o.0 != "parquet");
    let secs = started.elapsed().as_secs_f64();
    let summary = cfg.summary_json.as_ref().map(|_| {
        let facts = RunFacts {
            command_line,
            size: cfg.size.to_string(),
            seed: cfg.seed,
            count: cfg.count,
            shard: shard.to_string(),
            accept: cfg.accept.as_ref().map(|a| a.source()),
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
        let mut what = format!("committing {}", cfg.out.display());
        if let Some(m) = &cfg.mazes {
            what += &format!(" and {}", m.display());
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

/// The metadata every output of the run records: the run's parameters and its command line.
fn run_info(
    cfg: &Config,
    command_line: &str,
    names: &[String],
    shard: Shard,
    range: &std::ops::Range<u64>,
) -> RunInfo {
    let shard_source = cfg
        .shard
        .as_ref()
        .map_or_else(|| "none".into(), |(_, s)| s.to_string());
    let mut extra = batchgen::sink::arrow::run_metadata(&RunSpec {
        algos: names,
        size: cfg.size,
        count: cfg.count,
        seed: cfg.seed,
        shard: shard.to_string(),
        shard_source,
        indices: range.clone(),
        accept: cfg
            .accept
            .as_ref()
            .map(|a| (a.source(), cfg.max_candidates)),
        braid: cfg.braid,
    });
    if let Some(m) = &cfg.mask {
        extra.push((keys::MASK.into(), m.to_text()));
    }
    RunInfo {
        command_line: command_line.to_string(),
        ends_rule: cfg.ends_rule.clone(),
        extra,
    }
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
    if let Some((s, src)) = &cfg.shard {
        crate::errln!(
            "shard {s} from {src}: indices {}..{} of each generator's {}",
            range.start,
            range.end,
            cfg.count
        )?;
    }
    Ok(())
}

/// The batch job: this shard's slice of each generator's indices.
fn job_of(cfg: &Config, range: &std::ops::Range<u64>, keep_walls: bool) -> Job {
    Job {
        algos: cfg.algos.clone(),
        size: cfg.size,
        // This shard's slice of each generator's indices (all of them when unsharded).
        count: range.end - range.start,
        seed: cfg.seed,
        ends: cfg.ends,
        accept: cfg.accept.clone(),
        max_candidates: cfg.max_candidates,
        keep_walls,
        first_index: range.start,
        mask: cfg.mask.clone(),
        braid: batchgen::Chance::new(cfg.braid),
    }
}

/// The error of a run stopped by a signal after `done` of `total` mazes.
fn interrupted_error(cfg: &Config, total: u64, started: Instant, done: u64) -> anyhow::Error {
    let sig = interrupt::received().unwrap_or(interrupt::SIGINT);
    let mut outs = format!("'{}'", cfg.out.display());
    if let Some(m) = &cfg.mazes {
        outs += &format!(" or '{}'", m.display());
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

/// Write one chunk of rows to its sink and, with --mazes, its walls to its store; the
/// generator's position in `--algo`.
fn write_chunk(
    cfg: &Config,
    names: &[String],
    sinks: &mut [ParquetSink],
    stores: &mut [StoreWriter],
    current: &mut usize,
    chunk: &batch::Chunk<'_>,
) -> Result<usize, WriteError> {
    let pos = cfg.algos.iter().position(|a| a == chunk.algo).unwrap_or(0);
    // Dataset folders hold one part per generator; a single file holds them all.
    let (sink_at, store_at, store_algo) = (
        if cfg.out_is_dir { pos } else { 0 },
        if cfg.mazes_is_dir { pos } else { 0 },
        if cfg.mazes_is_dir { 0 } else { pos as u32 },
    );
    if cfg.out_is_dir && pos != *current {
        // The previous generator's part is done: write out its buffered rows.
        sinks[*current].flush()?;
        *current = pos;
    }
    sinks[sink_at].write(&names[pos], cfg.size, cfg.seed, chunk.rows)?;
    if let Some(store) = stores.get_mut(store_at) {
        for (k, r) in chunk.rows.iter().enumerate() {
            let w = &chunk.walls[k * chunk.words_per_maze..(k + 1) * chunk.words_per_maze];
            // The ends this maze was measured with (per maze for `--ends diameter`).
            let (entrance, exit) = cfg.ends.cells_of(&r.metrics);
            store.append(store::Entry {
                algo: store_algo,
                index: r.index,
                maze_seed: r.maze_seed,
                maze_hash: r.metrics.maze_hash,
                entrance,
                exit,
                loops: r.metrics.loops,
                walls: w,
            })?;
        }
    }
    Ok(pos)
}

/// Each generator's candidates and acceptance, recorded in its sink's metadata.
fn add_tally_metadata(
    cfg: &Config,
    tallies: &[batch::Tally],
    names: &[String],
    sinks: &mut [ParquetSink],
) {
    for (pos, (t, n)) in tallies.iter().zip(names).enumerate() {
        let sink = &mut sinks[if cfg.out_is_dir { pos } else { 0 }];
        let kv = batchgen::sink::arrow::tally_metadata(
            n,
            t.candidates,
            t.accepted,
            cfg.accept.is_some(),
        );
        for (k, v) in kv {
            sink.add_metadata(&k, &v);
        }
    }
}

/// Complete and sync every file (made visible later, together): the prepared files, the
/// outputs for the summary (kind, path, bytes), the Parquet bytes and the maze store bytes.
fn prepare_outputs(
    cfg: &Config,
    sinks: Vec<ParquetSink>,
    stores: Vec<StoreWriter>,
    bar: &mut Progress,
) -> anyhow::Result<PreparedOutputs> {
    let mut prepared = Vec::with_capacity(sinks.len() + stores.len());
    let mut outputs: Vec<(&'static str, String, u64)> = Vec::new();
    let mut store_bytes = None;
    for (k, s) in stores.into_iter().enumerate() {
        let p = s.prepare().context("finishing the maze store")?;
        store_bytes = Some(store_bytes.unwrap_or(0) + p.size());
        let path = p.target().requested.clone();
        outputs.push(("maze_store", path.display().to_string(), p.size()));
        if cfg.mazes_is_dir {
            bar.stats_mut()[k].store = Some((path, p.size()));
        }
        prepared.push(p);
    }
    let mut bytes = 0;
    for (k, s) in sinks.into_iter().enumerate() {
        let p = s
            .prepare()
            .with_context(|| format!("finishing {}", cfg.out.display()))?;
        bytes += p.size();
        let path = p.target().requested.clone();
        outputs.push(("parquet", path.display().to_string(), p.size()));
        if cfg.out_is_dir {
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
    let mut text = progress::table(bar.stats(), t.secs, cfg.accept.is_some());
    text += &format!(
        "wrote {} ({}) in {:.2} s to {} ({}{})",
        progress::plural(t.rows, "maze"),
        cfg.size,
        t.secs,
        cfg.out.display(),
        human_bytes(t.bytes),
        if cfg.out_is_dir {
            format!(
                " in {} of shard {shard}",
                progress::plural(t.files as u64, "part file")
            )
        } else {
            String::new()
        }
    );
    if let (Some(b), Some(p)) = (t.store_bytes, &cfg.mazes) {
        text += &format!("; maze store {} ({})", p.display(), human_bytes(b));
    }
    if cfg.accept.is_some() {
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

/// The Parquet sinks, the maze stores and the summary file (`--summary-json FILE`).
type Outputs = (Vec<ParquetSink>, Vec<StoreWriter>, Option<AtomicFile>);

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
        let folder = dataset::partition_dir(dir, name, cfg.size);
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
                width: cfg.size.width,
                height: cfg.size.height,
                depth: cfg.size.depth,
                seed: cfg.seed,
                algos: algos.to_vec(),
                ends_rule: info.ends_rule.clone(),
                mask: cfg.mask.clone(),
                braid: cfg.braid,
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
    // Created now, like the others: an unwritable folder is refused before any work.
    let summary = match &cfg.summary_json {
        Some(Destination::File(t)) => Some(
            AtomicFile::create_target(t.clone())
                .map_err(|e| as_usage("--summary-json", &t.requested, &e))?,
        ),
        _ => None,
    };
    Ok((sinks, stores, summary))
}
