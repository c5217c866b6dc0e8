//! `batchgen render`: draw one maze, read from a maze store by record number or regenerated
//! from (algo, size, seed, index), optionally with its solution path, to stdout or a file.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;

use batchgen::atomic_file::{AtomicFile, Target};
use batchgen::render::{self, Format, Style};
use batchgen::store::{StoreError, StoreReader};
use batchgen::{metrics, Algorithm, Ends};

use crate::cmd::generate::check_walk_steps;
use crate::cmd::{mask_arg, values, Interrupted, UsageError};
use batchgen::args::{check_out, resolve_ends_sized, DEFAULT_SEED};
use batchgen::grid::Size;

/// Output formats of `batchgen render` (the names `--format` takes).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderFormat {
    /// `#`/space text (`render --format ascii` is read back by the tests).
    Ascii,
    /// Box-drawing text.
    Unicode,
    /// A standalone SVG document.
    Svg,
    /// An RGB PNG image (never to a terminal).
    Png,
}

impl RenderFormat {
    fn format(self) -> Format {
        match self {
            RenderFormat::Ascii => Format::Ascii,
            RenderFormat::Unicode => Format::Unicode,
            RenderFormat::Svg => Format::Svg,
            RenderFormat::Png => Format::Png,
        }
    }
}

/// Flags of `batchgen render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Read the maze from this maze store (made with `--mazes`) ...
    ///
    /// A stored maze carries its own generator, size, seed, mask and braid: `--seed` and
    /// `--braid` beside `--store` are refused (exit 2), not ignored.
    #[arg(long, value_name = "FILE", requires = "record", conflicts_with_all = ["algo", "size", "index", "seed", "braid"])]
    pub store: Option<PathBuf>,
    /// ... at this record number (0-based).
    #[arg(long, value_name = "K", requires = "store", allow_hyphen_values = true, value_parser = values::text(values::count))]
    pub record: Option<u64>,
    /// Or regenerate it: the generator's canonical name ...
    #[arg(long, value_name = "ALGO", requires = "index", value_parser = values::text(values::algorithm))]
    pub algo: Option<Algorithm>,
    /// ... the grid size (`WxH`, or `WxHxD` for a 3D maze) ...
    #[arg(long, value_name = "WxH[xD]", allow_hyphen_values = true, value_parser = values::text(values::size_arg))]
    pub size: Option<values::SizeArg>,
    /// Cell shape of a regenerated maze: square, hex, triangle or polar (SVG or PNG).
    ///
    /// As the main job's --grid: the maze of (grid, algo, size, seed, index), drawn as SVG or
    /// PNG with --solution and the entrance and exit marked.
    #[arg(long, value_name = "GRID", default_value = "square", value_parser = values::text(values::grid), conflicts_with = "store")]
    pub grid: batchgen::topo::Grid,
    /// ... the run's master seed (as the main job's) ...
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// The mask the maze was generated on (`--mask` of the main job); it sets the size.
    ///
    /// Holes of the mask are drawn solid.
    #[arg(long, value_name = "FILE", conflicts_with = "store")]
    pub mask: Option<PathBuf>,
    /// ... and the maze index.
    #[arg(long, value_name = "I", allow_hyphen_values = true, value_parser = values::text(values::count))]
    pub index: Option<u64>,
    /// ... braided with this chance per dead end, as `--braid P` made it (0 to 1).
    #[arg(long, value_name = "P", requires = "algo", allow_hyphen_values = true, value_parser = values::text(values::braid))]
    pub braid: Option<f64>,
    /// Regenerate with a random-walk generator even where the maze is expected to walk more
    /// than 10^11 steps (a long 1-wide grid, which can take hours), as the main job's flag.
    #[arg(long, conflicts_with = "store")]
    pub no_time_limit: bool,
    /// Output format [default: from the -o extension (.txt, .svg, .png), else ascii].
    #[arg(long, value_name = "FORMAT", value_enum)]
    pub format: Option<RenderFormat>,
    /// Draw the solution path (entrance to exit; for a stored maze, between the ends it was
    /// measured with, unless --ends, --entrance or --exit is given).
    #[arg(long)]
    pub solution: bool,
    /// Entrance cell X,Y (3D: X,Y,Z; --grid polar: RING,I) for --solution (default: the first
    /// cell).
    #[arg(long, value_name = "X,Y[,Z]", allow_hyphen_values = true)]
    pub entrance: Option<String>,
    /// Exit cell X,Y (3D: X,Y,Z; --grid polar: RING,I) for --solution (default: the last cell).
    #[arg(long, value_name = "X,Y[,Z]", allow_hyphen_values = true)]
    pub exit: Option<String>,
    /// The entrance and exit for --solution (default corners).
    #[arg(long, value_name = "RULE", value_enum)]
    pub ends: Option<values::EndsRule>,
    /// Pixels per maze cell (a cell and one wall), the same in SVG and PNG (default 10 for
    /// SVG, 8 for PNG; PNG rounds an odd size up).
    #[arg(long, value_name = "PX", allow_hyphen_values = true, value_parser = values::text(values::cell_px))]
    pub cell_px: Option<u32>,
    /// Write here instead of stdout (through a temporary file renamed when complete); the
    /// extension chooses the format unless --format is given.
    // `--output`, its name before every subcommand used `-o/--out`, still works (hidden).
    #[arg(short, long, alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Extensions of picture formats render cannot write: refused rather than filled with
/// something else.
const FOREIGN_IMAGES: [&str; 12] = [
    "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "pdf", "eps", "ps", "avif", "heic",
];

/// The format to write: `--format`, else the one `-o`'s extension names, else ascii. An
/// extension naming another format than `--format`, or one render cannot write, is refused.
fn choose_format(flag: Option<RenderFormat>, out: Option<&Path>) -> Result<Format, UsageError> {
    let flag = flag.map(RenderFormat::format);
    let Some(out) = out else {
        return Ok(flag.unwrap_or(Format::Ascii));
    };
    let shown = out.display().to_string();
    let ext = out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let by_ext = Format::from_path(out);
    match (flag, by_ext, ext.as_deref()) {
        (Some(f), Some(e), _) if f != e && !(e == Format::Ascii && f == Format::Unicode) => {
            Err(UsageError::flag(
                "--out",
                &shown,
                format!("the extension says {}, but --format is {}", e.name(), f.name()),
            ))
        }
        (Some(f), _, Some(x)) if FOREIGN_IMAGES.contains(&x) => Err(UsageError::flag(
            "--out",
            &shown,
            format!("render cannot write .{x}; writing {} into it would mislead", f.name()),
        )),
        (Some(f), _, _) => Ok(f),
        (None, Some(e), _) => Ok(e),
        (None, None, None) => Ok(Format::Ascii),
        (None, None, Some(x)) => Err(UsageError::flag(
            "--out",
            &shown,
            format!(
                "render cannot write .{x}: use .txt, .svg or .png (or --format ascii|unicode|svg|png)"
            ),
        )),
    }
}

/// A writer that stops with an error as soon as SIGINT or SIGTERM has arrived, so that a large
/// picture is abandoned mid-encoding (its temporary file is then dropped, hence removed).
struct Polled<W>(W);

impl<W: Write> Write for Polled<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if batchgen::interrupt::received().is_some() {
            // Not `ErrorKind::Interrupted`: `write_all` retries those.
            return Err(std::io::Error::other("stopped by a signal"));
        }
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// The picture's size is known from the grid alone: refuse a huge one before any work.
fn check_size(
    args: &RenderArgs,
    format: Format,
    style: &Style,
    size: Size,
) -> Result<(), UsageError> {
    render::check_picture(size, format, style).map_err(|why| {
        UsageError::flag(
            "--cell-px",
            &args
                .cell_px
                .map_or_else(|| "default".to_string(), |n| n.to_string()),
            why,
        )
    })
}

/// The maze store at `path` (`--store`); a file that is not one is bad input (exit 2).
fn open_store(path: &Path) -> anyhow::Result<StoreReader> {
    StoreReader::open(path).map_err(|e| match e {
        StoreError::Io { .. }
        | StoreError::Foreign { .. }
        | StoreError::Newer { .. }
        | StoreError::Truncated { .. }
        | StoreError::BadMask { .. }
        | StoreError::BadBraid { .. } => {
            anyhow::Error::new(UsageError::flag("--store", &path.display().to_string(), e))
        }
        other => anyhow::Error::new(other),
    })
}

/// The maze at `--record` of `store` (read from `path`), with the ends it was measured with
/// (its entrance and exit cells; per maze with `--ends diameter`).
fn from_store(
    args: &RenderArgs,
    store: &StoreReader,
    path: &Path,
    format: Format,
    style: &Style,
) -> anyhow::Result<(batchgen::Maze, Option<Ends>)> {
    let k = args.record.unwrap_or(0);
    let maze = store
        .maze(k)
        .map_err(|e| super::grid_render::record_error(path, k, e))?;
    let r = store
        .record(k)
        .map_err(|e| super::grid_render::record_error(path, k, e))?;
    check_size(args, format, style, maze.size())?;
    Ok((maze, Some(Ends::cells(r.entrance, r.exit))))
}

/// The maze regenerated from `--algo`, `--size` (or `--mask`), `--seed` and `--index`,
/// braided as `--braid` says.
fn regenerated(args: &RenderArgs) -> anyhow::Result<batchgen::Maze> {
    let mask = match &args.mask {
        Some(p) => Some(mask_arg::read("--mask", p)?),
        None => None,
    };
    let size = args.size.map(values::SizeArg::square).transpose()?;
    let grid = match &mask {
        Some(m) => Some(mask_arg::size_for(
            size,
            m.size(),
            Some(m),
            args.mask.as_deref(),
        )?),
        None => size,
    };
    let (Some(algo), Some(grid), Some(index)) = (args.algo, grid, args.index) else {
        return Err(UsageError(
            "render needs either --store FILE --record K, or --algo A --size WxH[xD] --index I \
             [--seed S] (--mask FILE instead of, or beside, --size)"
                .into(),
        )
        .into());
    };
    mask_arg::select_algos(&algo.name(), vec![algo], grid, mask.as_ref())?;
    if !args.no_time_limit {
        check_walk_steps(&[algo], grid, mask.as_deref().zip(args.mask.as_deref()))?;
    }
    let size = grid.to_string();
    let need = batchgen::memory::estimate(&[algo], grid, 1, 0, false);
    batchgen::memory::check(need).map_err(|why| UsageError::flag("--size", &size, why))?;
    let mut maze = batchgen::Maze::with_size(grid);
    maze.set_mask(mask);
    let mut scratch = batchgen::generate::Scratch::new();
    let maze_seed =
        batchgen::generate::regenerate(&algo, &mut maze, &mut scratch, args.seed, index);
    if let Some(p) = args.braid {
        let chance = batchgen::Chance::new(p);
        batchgen::braid::braid_seeded(&mut maze, chance, maze_seed, &mut Default::default());
    }
    Ok(maze)
}

/// The solution's ends: `--ends`, `--entrance` and `--exit` on this maze; a stored maze keeps
/// its `recorded` ends unless one of them says otherwise.
fn ends_of(
    args: &RenderArgs,
    maze: &batchgen::Maze,
    recorded: Option<Ends>,
) -> anyhow::Result<Ends> {
    let (ends, _) = resolve_ends_sized(
        args.ends.map(values::EndsRule::name),
        args.entrance.as_deref(),
        args.exit.as_deref(),
        maze.size(),
    )
    .map_err(UsageError::from)?;
    let (ends, _) = mask_arg::ends_on(
        (ends, String::new()),
        args.entrance.is_some(),
        args.exit.is_some(),
        maze.mask(),
    )?;
    let overridden = args.ends.is_some() || args.entrance.is_some() || args.exit.is_some();
    Ok(match recorded {
        Some(r) if !overridden => r,
        _ => ends,
    })
}

/// Signal `sig` stopped the drawing (`when`: "" or " while drawing"): nothing was written.
fn interrupted(sig: i32, when: &str, out: &Path) -> anyhow::Error {
    Interrupted {
        signal: sig,
        message: format!(
            "interrupted by {}{when}; nothing written to '{}'",
            batchgen::interrupt::name(sig),
            out.display()
        ),
    }
    .into()
}

/// Draw to the file `out` through a temporary file (batchgen::atomic_file); every error path
/// drops it, which removes it. A signal only sets a flag, checked before the commit.
fn draw_to_file(
    maze: &batchgen::Maze,
    path: Option<&[u32]>,
    format: Format,
    style: &Style,
    out: &Path,
    target: Target,
) -> anyhow::Result<()> {
    batchgen::interrupt::install().context("installing the signal handlers")?;
    let f = AtomicFile::create_target(target)
        .map_err(|e| UsageError::flag("--out", &out.display().to_string(), e))?;
    let mut w = Polled(std::io::BufWriter::new(f));
    let drawn = render::render(maze, path, format, style, &mut w);
    if let (Some(sig), Err(_)) = (batchgen::interrupt::received(), &drawn) {
        drop(w);
        return Err(interrupted(sig, " while drawing", out));
    }
    drawn?;
    let f =
        w.0.into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("writing {}", out.display()))?;
    let prepared = f.prepare()?;
    if let Some(sig) = batchgen::interrupt::received() {
        return Err(interrupted(sig, "", out));
    }
    prepared.commit()?;
    Ok(())
}

/// Run `batchgen render`.
pub fn run(args: &RenderArgs) -> anyhow::Result<()> {
    let format = choose_format(args.format, args.out.as_deref())?;
    // `--cell-px` counts a cell and one wall in both formats; the PNG encoder takes the side of
    // one wall-grid square (half of that).
    let style = Style {
        cell_px: args.cell_px.map(|n| match format {
            Format::Png => n.div_ceil(2),
            _ => n,
        }),
    };
    let target = match &args.out {
        Some(o) => {
            // The picture never replaces the store or the mask it is drawn from.
            let mut set = batchgen::output_set::OutputSet::new();
            let inputs = [("--store", &args.store), ("--mask", &args.mask)];
            for (flag, path) in inputs {
                if let Some(p) = path {
                    set.add_input(flag, p);
                }
            }
            set.add("--out", o, o)
                .map_err(|e| UsageError(e.to_string()))?;
            Some(check_out("--out", o).map_err(UsageError::from)?)
        }
        None => None,
    };
    if args.out.is_none() && format.is_binary() && std::io::stdout().is_terminal() {
        return Err(UsageError(format!(
            "refusing to write {} to a terminal: use -o/--out FILE or redirect stdout",
            format.name()
        ))
        .into());
    }
    let store = match &args.store {
        Some(p) => Some((open_store(p)?, p.as_path())),
        None => None,
    };
    let store_grid = store.as_ref().map(|(s, _)| {
        s.grid()
            .map_or(batchgen::topo::Grid::Square, |g| g.size().grid)
    });
    if let Some(g) = store_grid.filter(|&g| g != args.grid) {
        if args.grid != batchgen::topo::Grid::Square {
            return Err(UsageError::flag(
                "--grid",
                args.grid.name(),
                format!("the --store holds mazes on the {g} grid (leave --grid out)"),
            )
            .into());
        }
    }
    if let Some((s, path)) = &store {
        if s.grid().is_some() {
            let request = super::grid_render::StoreRender {
                path,
                record: args.record.unwrap_or(0),
                solution: args.solution,
                cell_px: args.cell_px,
                out: args.out.as_deref(),
                ends: args.ends.map(values::EndsRule::rule),
                entrance: args.entrance.as_deref(),
                exit: args.exit.as_deref(),
            };
            return super::grid_render::run_store(s, &request, format);
        }
    }
    if args.grid != batchgen::topo::Grid::Square {
        let request = super::grid_render::GridRender {
            grid: args.grid,
            algo: args.algo,
            size: args.size,
            mask: args.mask.as_deref(),
            seed: args.seed,
            index: args.index,
            solution: args.solution,
            cell_px: args.cell_px,
            out: args.out.as_deref(),
            braid: args.braid,
            ends: args.ends.map(values::EndsRule::rule),
            entrance: args.entrance.as_deref(),
            exit: args.exit.as_deref(),
            no_time_limit: args.no_time_limit,
        };
        return super::grid_render::run(&request, format);
    }
    if let Some(size) = args.size.map(values::SizeArg::square).transpose()? {
        check_size(args, format, &style, size)?;
    }
    let (maze, recorded) = match &store {
        Some((s, path)) => from_store(args, s, path, format, &style)?,
        None => (regenerated(args)?, None),
    };
    let ends = ends_of(args, &maze, recorded)?;
    let path = if args.solution {
        let mut scratch = metrics::Scratch::new();
        metrics::measure(&maze, ends, &mut scratch);
        Some(scratch.solution_path())
    } else {
        None
    };

    match (&args.out, target) {
        (Some(out), Some(target)) => {
            draw_to_file(&maze, path.as_deref(), format, &style, out, target)?;
        }
        _ => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            render::render(&maze, path.as_deref(), format, &style, &mut lock)?;
            lock.flush()?;
        }
    }
    Ok(())
}
