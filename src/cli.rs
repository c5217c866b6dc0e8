//! The command line: clap definitions, and their validation into a [`Config`] before any work
//! starts. Every bad value is reported with the flag and the value, and exits with status 2.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use batchgen::accept::Accept;
use batchgen::atomic_file::{Mode, OutputError, Target};
use batchgen::dataset;
use batchgen::shard::{self, Shard, Source};
use batchgen::{Algorithm, Ends};

use crate::cmd::UsageError;

/// Default master seed when `--seed` is not given (always recorded in the output).
pub const DEFAULT_SEED: u64 = 42;

/// batchgen: generate perfect mazes by the million, measure every one, write Parquet.
#[derive(Parser, Debug)]
#[command(
    name = "batchgen",
    version,
    about,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    /// A subcommand; without one, batchgen runs the main job (generate, measure, write).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The main job's flags.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Subcommands besides the main job.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List every generator with its texture and whether it samples uniformly.
    ListAlgos,
    /// Draw one maze (from a maze store, or regenerated from its algo, size, seed and index)
    /// as ascii, unicode, svg or png.
    Render(Box<crate::cmd::render::RenderArgs>),
    /// Show exactly which generators are biased on a small grid: spanning-tree count,
    /// exhaustive Kruskal orders, exact distributions, chi-square sampling, per-wall bias.
    Uniformity(crate::cmd::uniformity::UniformityArgs),
    /// Check that a dataset folder (`--out DIR/` of sharded runs) is complete and consistent:
    /// every shard of every (algo, size) once, same parameters, ranges disjoint and covering.
    /// Exit status 0 complete, 1 incomplete or inconsistent (with what to re-run), 2 bad input.
    Check(crate::cmd::check::CheckArgs),
    /// Per algorithm and size: count, mean ± standard error and quantiles of every metric
    /// column of metrics files; with --accept, how many rows a filter would pass.
    Summary(crate::cmd::summary::SummaryArgs),
    /// Histograms of every metric (one colour per algorithm) and a solution length vs
    /// dead-end share density, as PNG and SVG.
    Plot(crate::cmd::plot::PlotArgs),
}

/// Flags of the main job.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Generators: a comma list of names, or `all` (see `--list-algos`).
    #[arg(long, default_value = "all", value_name = "LIST")]
    pub algo: String,
    /// Grid size, width x height in cells.
    #[arg(
        long,
        default_value = "64x64",
        value_name = "WxH",
        allow_hyphen_values = true
    )]
    pub size: String,
    /// Mazes per algorithm.
    #[arg(
        long,
        default_value = "1000",
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub count: String,
    /// Master seed; every maze's own seed is derived from it, the algorithm, the size and the
    /// maze index.
    #[arg(long, default_value_t = DEFAULT_SEED, value_name = "S")]
    pub seed: u64,
    /// Output Parquet file (written to a temporary file, renamed when complete), or a dataset
    /// folder `DIR/` (trailing slash, or an existing folder): one file per generator and shard,
    /// `DIR/algo=NAME/size=WxH/part-KKKKK-of-NNNNN.parquet`.
    #[arg(long, value_name = "FILE|DIR/", required_unless_present = "list_algos")]
    pub out: Option<PathBuf>,
    /// Make only the K-th of N contiguous slices of each generator's index range (1-based).
    /// Without it, a Slurm job array, Kubernetes Indexed Job or AWS Batch array job sets it.
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// The number of shards where the engine does not export it (Kubernetes Indexed Jobs:
    /// JOB_COMPLETION_INDEX gives K; also settable as BATCHGEN_SHARD_COUNT).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub shard_count: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub threads: Option<String>,
    /// Entrance cell `X,Y` for solution_length and solution_turns (default: 0,0, top-left).
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub entrance: Option<String>,
    /// Exit cell `X,Y` (default: the bottom-right cell).
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub exit: Option<String>,
    /// Keep only mazes whose metrics pass this expression, e.g.
    /// 'dead_end_share <= 0.12 && solution_length >= 300'; `--count` then counts accepted mazes
    /// (candidates are tried in index order and keep their index).
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub accept: Option<String>,
    /// With --accept: give up on an algorithm after this many candidates (default: 1000 per
    /// requested maze, at least 100000).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub max_candidates: Option<String>,
    /// Where the solution runs: `corners` (default; or set --entrance/--exit) or `diameter`
    /// (a farthest pair, so the solution is a longest path).
    #[arg(long, value_name = "RULE")]
    pub ends: Option<String>,
    /// Also write every (accepted) maze's walls to this maze store file (see README), or to a
    /// dataset folder `DIR/` (one `.arrow` per generator and shard, laid out as for `--out`).
    #[arg(long, value_name = "FILE|DIR/")]
    pub mazes: Option<PathBuf>,
    /// No progress bar and no closing line (a sharded run still prints its one shard line).
    #[arg(long, short)]
    pub quiet: bool,
    /// List every generator with its texture and whether it is uniform, then exit.
    #[arg(long)]
    pub list_algos: bool,
}

/// The main job, validated.
#[derive(Debug, Clone)]
pub struct Config {
    /// Generators in canonical order.
    pub algos: Vec<Algorithm>,
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
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
    /// How `ends` was chosen, for the file metadata.
    pub ends_rule: String,
    /// Suppress progress and the closing line.
    pub quiet: bool,
    /// Accept filter.
    pub accept: Option<Accept>,
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
}

impl Config {
    /// The shard (1/1 when unsharded).
    pub fn shard(&self) -> Shard {
        self.shard.as_ref().map_or(Shard::WHOLE, |s| s.0)
    }
}

/// Parse `WxH` into a size (see [`batchgen::args::parse_size`]).
pub fn parse_size(flag: &str, s: &str) -> Result<(u32, u32), UsageError> {
    Ok(batchgen::args::parse_size(flag, s)?)
}

/// Parse `X,Y` into a cell id of a `width × height` grid (see [`batchgen::args::parse_cell`]).
pub fn parse_cell(flag: &str, s: &str, width: u32, height: u32) -> Result<u32, UsageError> {
    Ok(batchgen::args::parse_cell(flag, s, width, height)?)
}

/// Parse a count (see [`batchgen::args::parse_count`]).
pub fn parse_count(flag: &str, s: &str) -> Result<u64, UsageError> {
    Ok(batchgen::args::parse_count(flag, s)?)
}

impl RunArgs {
    /// Validate every flag; nothing has been written or allocated when this fails. The engine
    /// environment is read from the process.
    pub fn validate(&self) -> Result<Config, UsageError> {
        self.validate_with_env(&|k| std::env::var(k).ok())
    }

    /// [`RunArgs::validate`] with the environment given as a lookup function.
    pub fn validate_with_env(
        &self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, UsageError> {
        let algos = Algorithm::parse_list(&self.algo)
            .map_err(|e| UsageError::flag("--algo", &self.algo, e))?;
        let (width, height) = parse_size("--size", &self.size)?;
        let count = parse_count("--count", &self.count)?;
        let threads = match &self.threads {
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(t) => match t.trim().parse::<usize>() {
                Ok(n) if (1..=1024).contains(&n) => n,
                _ => {
                    return Err(UsageError::flag(
                        "--threads",
                        t,
                        "expected a whole number from 1 to 1024",
                    ))
                }
            },
        };
        let (ends, ends_rule) = resolve_ends(
            self.ends.as_deref(),
            self.entrance.as_deref(),
            self.exit.as_deref(),
            width,
            height,
        )?;
        let accept = match &self.accept {
            None => None,
            Some(e) => Some(Accept::parse(e).map_err(|err| UsageError::flag("--accept", e, err))?),
        };
        let max_candidates = match &self.max_candidates {
            None => count.saturating_mul(1000).max(100_000),
            Some(m) => match parse_count("--max-candidates", m)? {
                0 => {
                    return Err(UsageError::flag(
                        "--max-candidates",
                        m,
                        "must be at least 1",
                    ))
                }
                n => n,
            },
        };
        if self.max_candidates.is_some() && accept.is_none() {
            return Err(UsageError(
                "--max-candidates only applies with --accept".into(),
            ));
        }
        let out = self
            .out
            .clone()
            .ok_or_else(|| UsageError("the main job needs --out FILE".into()))?;
        let shard = shard::resolve(self.shard.as_deref(), self.shard_count.as_deref(), env)
            .map_err(|e| UsageError(e.to_string()))?;
        if let (Some((s, _)), Some(a)) = (&shard, &accept) {
            return Err(UsageError(format!(
                "--shard {s} cannot be combined with --accept '{}': the accepted mazes are the \
                 first that pass in index order, which no shard can know without the ones \
                 before it. Filter the sharded dataset afterwards (DuckDB WHERE), or run \
                 --accept unsharded",
                a.source()
            )));
        }
        let out_is_dir = dataset::is_folder_target(&out);
        let mazes_is_dir = self.mazes.as_deref().is_some_and(dataset::is_folder_target);
        let out_target = if out_is_dir {
            check_out_dir("--out", &out)?;
            None
        } else {
            Some(check_out("--out", &out)?)
        };
        // A shard from the engine's environment runs as one of N tasks with the same command
        // line: a single output file would be overwritten by every task.
        if let Some((s, src)) = &shard {
            if src.is_environment() && s.n > 1 {
                for (flag, path, is_dir) in [
                    ("--out", Some(&out), out_is_dir),
                    ("--mazes", self.mazes.as_ref(), mazes_is_dir),
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
            let mazes_target = if mazes_is_dir {
                check_out_dir("--mazes", m)?;
                None
            } else {
                Some(check_out("--mazes", m)?)
            };
            // Compare the files the paths resolve to (`./a/../m.parquet` and `m.parquet`, a
            // symlink and its target), not the text. Two device write-throughs may share.
            if let (Some(t), Some(o)) = (&mazes_target, &out_target) {
                if t.resolved == o.resolved && t.mode == Mode::Replace {
                    return Err(UsageError::flag(
                        "--mazes",
                        &m.display().to_string(),
                        format!(
                            "is the same file as --out '{}' (both resolve to '{}')",
                            out.display(),
                            t.resolved.display()
                        ),
                    ));
                }
            }
        }
        // Refuse up front what cannot fit, instead of aborting in the allocator mid-run.
        let chunk = batchgen::batch::chunk_len(width as u64 * height as u64, threads);
        let need =
            batchgen::memory::estimate(&algos, width, height, threads, chunk, self.mazes.is_some());
        batchgen::memory::check(need).map_err(|why| {
            UsageError::flag(
                "--size",
                &self.size,
                format!("with --threads {threads}: {why}"),
            )
        })?;
        Ok(Config {
            algos,
            width,
            height,
            count,
            seed: self.seed,
            out,
            threads,
            ends,
            ends_rule,
            quiet: self.quiet,
            accept,
            max_candidates,
            mazes: self.mazes.clone(),
            shard,
            out_is_dir,
            mazes_is_dir,
        })
    }
}

/// A dataset folder must be a folder if it exists; if it does not, it is created (with its
/// parents) when the run starts, so its nearest existing ancestor must be a folder.
pub fn check_out_dir(flag: &str, dir: &std::path::Path) -> Result<(), UsageError> {
    let shown = dir.display().to_string();
    // Without the trailing slash, so that "afile/" finds the file "afile".
    let dir: std::path::PathBuf = dir.components().collect();
    let mut p = Some(dir.as_path());
    while let Some(q) = p {
        if q.as_os_str().is_empty() {
            break;
        }
        if q.exists() || q.symlink_metadata().is_ok() {
            if !q.is_dir() {
                return Err(UsageError::flag(
                    flag,
                    &shown,
                    format!("'{}' is a file, not a folder", q.display()),
                ));
            }
            break;
        }
        p = q.parent();
    }
    Ok(())
}

/// The entrance/exit rule from `--ends`, `--entrance` and `--exit`, and its description for
/// the file metadata.
pub fn resolve_ends(
    ends: Option<&str>,
    entrance: Option<&str>,
    exit: Option<&str>,
    width: u32,
    height: u32,
) -> Result<(Ends, String), UsageError> {
    match ends {
        Some("diameter") => {
            if entrance.is_some() || exit.is_some() {
                return Err(UsageError(
                    "--ends diameter chooses the entrance and exit itself; drop --entrance/--exit"
                        .into(),
                ));
            }
            return Ok((
                Ends::Diameter,
                "diameter: entrance=diameter_start exit=diameter_end (a farthest pair)".into(),
            ));
        }
        None | Some("corners") => {}
        Some(other) => {
            return Err(UsageError::flag(
                "--ends",
                other,
                "expected 'corners' or 'diameter'",
            ))
        }
    }
    let entrance = match entrance {
        Some(e) => parse_cell("--entrance", e, width, height)?,
        None => 0,
    };
    let exit = match exit {
        Some(e) => parse_cell("--exit", e, width, height)?,
        None => width * height - 1,
    };
    let rule = format!(
        "entrance={},{} exit={},{} (x,y; cell id = y*width+x)",
        entrance % width,
        entrance / width,
        exit % width,
        exit / width
    );
    Ok((Ends::cells(entrance, exit), rule))
}

/// Resolve an output path (see [`batchgen::atomic_file::Target::resolve`]): its folder must
/// exist, and a target that exists must be a regular file (replaced) or a character device
/// (written straight through); a symlink is followed. (Writability is proved by creating the
/// temporary file, still before any maze is generated.)
pub fn check_out(flag: &str, out: &std::path::Path) -> Result<Target, UsageError> {
    let shown = out.display().to_string();
    Target::resolve(out).map_err(|e| match e {
        OutputError::Special {
            kind: "a folder", ..
        } if out.is_dir() => UsageError::flag(flag, &shown, "is a folder, expected a file path"),
        OutputError::Folder { dir, source } if source.kind() == std::io::ErrorKind::NotFound => {
            UsageError::flag(
                flag,
                &shown,
                format!("folder '{}' does not exist", dir.display()),
            )
        }
        other => UsageError::flag(flag, &shown, other),
    })
}
