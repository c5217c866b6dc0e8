//! `batchgen render`: draw one maze, read from a maze store by record number or regenerated
//! from (algo, size, seed, index), optionally with its solution path, to stdout or a file.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use batchgen::atomic_file::AtomicFile;
use batchgen::render::{self, Format, Style};
use batchgen::store::{StoreError, StoreReader};
use batchgen::{metrics, Algorithm, Ends};

use crate::cmd::{Interrupted, UsageError};
use batchgen::args::{
    check_3d, check_out, parse_count, parse_size3, resolve_ends_sized, DEFAULT_SEED,
};

/// Flags of `batchgen render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Read the maze from this maze store (made with `--mazes`) ...
    #[arg(long, value_name = "FILE", requires = "record", conflicts_with_all = ["algo", "size", "index"])]
    pub store: Option<PathBuf>,
    /// ... at this record number (0-based).
    #[arg(long, value_name = "K", requires = "store", allow_hyphen_values = true)]
    pub record: Option<String>,
    /// Or regenerate it: the generator's canonical name ...
    #[arg(long, value_name = "ALGO", requires_all = ["size", "index"])]
    pub algo: Option<String>,
    /// ... the grid size (`WxH`, or `WxHxD` for a 3D maze) ...
    #[arg(long, value_name = "WxH[xD]", allow_hyphen_values = true)]
    pub size: Option<String>,
    /// ... the run's master seed (default 42, as the main job) ...
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// ... and the maze index.
    #[arg(long, value_name = "I", allow_hyphen_values = true)]
    pub index: Option<String>,
    /// Output format: ascii, unicode, svg or png (default: from the -o/--out extension, else
    /// ascii).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// Draw the solution path (entrance to exit; for a stored maze, between the ends it was
    /// measured with, unless --ends, --entrance or --exit is given).
    #[arg(long)]
    pub solution: bool,
    /// Entrance cell X,Y (3D: X,Y,Z) for --solution (default: the first cell).
    #[arg(long, value_name = "X,Y[,Z]", allow_hyphen_values = true)]
    pub entrance: Option<String>,
    /// Exit cell X,Y (3D: X,Y,Z) for --solution (default: the last cell).
    #[arg(long, value_name = "X,Y[,Z]", allow_hyphen_values = true)]
    pub exit: Option<String>,
    /// `corners` or `diameter` (draw a longest path).
    #[arg(long, value_name = "RULE")]
    pub ends: Option<String>,
    /// Pixels per cell (svg, default 10) or per wall-grid square (png, default 4).
    #[arg(long, value_name = "PX", allow_hyphen_values = true)]
    pub cell_px: Option<String>,
    /// Write here instead of stdout (through a temporary file renamed when complete).
    // `--output`, its name before every subcommand used `-o/--out`, still works (hidden).
    #[arg(short, long, alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Run `batchgen render`.
pub fn run(args: &RenderArgs) -> anyhow::Result<()> {
    let format = match (&args.format, &args.out) {
        (Some(f), _) => f
            .parse::<Format>()
            .map_err(|_| UsageError::flag("--format", f, "expected ascii, unicode, svg or png"))?,
        (None, Some(p)) => Format::from_path(p).unwrap_or(Format::Ascii),
        (None, None) => Format::Ascii,
    };
    let style = Style {
        cell_px: match &args.cell_px {
            None => None,
            Some(p) => match p.trim().parse::<u32>() {
                Ok(n) if n >= 1 => Some(n),
                _ => {
                    return Err(
                        UsageError::flag("--cell-px", p, "expected a whole number ≥ 1").into(),
                    )
                }
            },
        },
    };
    let target = match &args.out {
        Some(o) => Some(check_out("--out", o).map_err(UsageError::from)?),
        None => None,
    };
    if args.out.is_none() && format.is_binary() && std::io::stdout().is_terminal() {
        return Err(UsageError(format!(
            "refusing to write {} to a terminal: use -o/--out FILE or redirect stdout",
            format.name()
        ))
        .into());
    }

    // From a store: the walls and the ends the maze was measured with (its entrance and exit
    // cells; per maze with `--ends diameter`).
    let (maze, recorded) = if let Some(path) = &args.store {
        let record = args.record.as_deref().unwrap_or("0");
        let k = parse_count("--record", record).map_err(UsageError::from)?;
        let as_store = |e: StoreError| {
            anyhow::Error::new(UsageError::flag("--store", &path.display().to_string(), e))
        };
        let store = StoreReader::open(path).map_err(|e| match e {
            StoreError::Io { .. }
            | StoreError::Foreign { .. }
            | StoreError::Newer { .. }
            | StoreError::Truncated { .. } => as_store(e),
            other => anyhow::Error::new(other),
        })?;
        let maze = store.maze(k).map_err(|e| match e {
            StoreError::NoSuchRecord { .. } => {
                anyhow::Error::new(UsageError::flag("--record", record, e))
            }
            // A corrupt record is bad input too: named, exit 2, never a panic later.
            StoreError::BadRecord { .. } | StoreError::NotPerfect { .. } => as_store(e),
            other => anyhow::Error::new(other),
        })?;
        let r = store.record(k).map_err(as_store)?;
        (maze, Some(Ends::cells(r.entrance, r.exit)))
    } else {
        let (Some(a), Some(size), Some(index)) = (&args.algo, &args.size, &args.index) else {
            return Err(UsageError(
                "render needs either --store FILE --record K, or --algo A --size WxH[xD] --index I \
                 [--seed S]"
                    .into(),
            )
            .into());
        };
        let algo = Algorithm::parse(a).map_err(|e| UsageError::flag("--algo", a, e))?;
        let grid = parse_size3("--size", size).map_err(UsageError::from)?;
        check_3d("--algo", a, &[algo], grid).map_err(UsageError::from)?;
        let index = parse_count("--index", index).map_err(UsageError::from)?;
        let need = batchgen::memory::estimate(&[algo], grid, 1, 0, false);
        batchgen::memory::check(need).map_err(|why| UsageError::flag("--size", size, why))?;
        let maze = batchgen::generate::regenerated(&algo, grid, args.seed, index);
        (maze, None)
    };

    let (ends, _) = resolve_ends_sized(
        args.ends.as_deref(),
        args.entrance.as_deref(),
        args.exit.as_deref(),
        maze.size(),
    )
    .map_err(UsageError::from)?;
    // A stored maze keeps its recorded ends unless --ends, --entrance or --exit says otherwise.
    let overridden = args.ends.is_some() || args.entrance.is_some() || args.exit.is_some();
    let ends = match recorded {
        Some(r) if !overridden => r,
        _ => ends,
    };
    let path = if args.solution {
        let mut scratch = metrics::Scratch::new();
        metrics::measure(&maze, ends, &mut scratch);
        Some(scratch.solution_path())
    } else {
        None
    };

    match &args.out {
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            render::render(&maze, path.as_deref(), format, &style, &mut lock)?;
            lock.flush()?;
        }
        Some(out) => {
            // Through a temporary file (batchgen::atomic_file); every error path below drops
            // it, which removes it. A signal only sets a flag, checked before the commit.
            batchgen::interrupt::install().context("installing the signal handlers")?;
            let target = target.expect("checked above");
            let f = AtomicFile::create_target(target)
                .map_err(|e| UsageError::flag("--out", &out.display().to_string(), e))?;
            let mut w = std::io::BufWriter::new(f);
            render::render(&maze, path.as_deref(), format, &style, &mut w)?;
            let f = w
                .into_inner()
                .map_err(|e| e.into_error())
                .with_context(|| format!("writing {}", out.display()))?;
            let prepared = f.prepare()?;
            if let Some(sig) = batchgen::interrupt::received() {
                return Err(Interrupted {
                    signal: sig,
                    message: format!(
                        "interrupted by {}; nothing written to '{}'",
                        batchgen::interrupt::name(sig),
                        out.display()
                    ),
                }
                .into());
            }
            prepared.commit()?;
        }
    }
    Ok(())
}
