//! `batchgen render --grid hex|triangle|polar`: the maze of (grid, algo, size, seed, index), or
//! a record of a maze store of those grids (`--store FILE --record K`), as an SVG or PNG
//! picture ([`batchgen::render::polygon`]), with `--solution` and the entrance and exit marked,
//! braided by `--braid`, between the cells of `--entrance` and `--exit` in the grid's own
//! coordinates (`X,Y`; polar `RING,I`, as the main job takes them:
//! [`batchgen::run::value::grid_ends`]) or a farthest pair under `--ends diameter`. The text
//! formats draw square cells only and are refused naming the grid.

use std::io::Write;

use anyhow::Context;

use batchgen::atomic_file::AtomicFile;
use batchgen::metrics::Ends;
use batchgen::render::{polygon, Format};
use batchgen::run::grid_cost::{check_walk_steps_on, memory_need};
use batchgen::run::value::grid_ends;
use batchgen::run::{graph_of, grid_size, EndsRule, Names, RunError};
use batchgen::store::StoreError;
use batchgen::topo::generate::{self as tgen, GraphScratch};
use batchgen::topo::{self, measure_graph, GraphEnds, GraphMaze, GridEnds};
use batchgen::Rng;

use super::values::SizeArg;
use super::UsageError;

/// What `render --grid` draws: the render command's flags that apply to these grids, and the
/// square-only flags given (refused by name).
pub struct GridRender<'a> {
    /// `--grid` (not square).
    pub grid: topo::Grid,
    /// `--algo`.
    pub algo: Option<batchgen::Algorithm>,
    /// `--size`.
    pub size: Option<SizeArg>,
    /// `--mask`.
    pub mask: Option<&'a std::path::Path>,
    /// `--seed`.
    pub seed: u64,
    /// `--index`.
    pub index: Option<u64>,
    /// `--solution`.
    pub solution: bool,
    /// `--cell-px`.
    pub cell_px: Option<u32>,
    /// `-o/--out`.
    pub out: Option<&'a std::path::Path>,
    /// `--braid`: the chance per dead end (the square braid rule on the grid's neighbours).
    pub braid: Option<f64>,
    /// `--ends`: `diameter` draws between a farthest pair of the maze.
    pub ends: Option<EndsRule>,
    /// `--entrance`: a cell, `X,Y` (polar `RING,I`); the first cell by default.
    pub entrance: Option<&'a str>,
    /// `--exit`: a cell, as `--entrance`; the last cell by default.
    pub exit: Option<&'a str>,
    /// `--no-time-limit`.
    pub no_time_limit: bool,
}

/// Render `args` (whose `--grid` is not square) in `format`.
pub fn run(args: &GridRender<'_>, format: Format) -> anyhow::Result<()> {
    let grid = args.grid;
    if !matches!(format, Format::Svg | Format::Png) {
        return Err(UsageError(format!(
            "--grid {grid} is drawn as svg or png; {} draws square cells (use --format svg or \
             png, or -o FILE.svg)",
            format.name()
        ))
        .into());
    }
    let (Some(algo), Some(index)) = (args.algo, args.index) else {
        return Err(UsageError(format!(
            "render --grid {grid} needs --algo A --size SIZE --index I [--seed S]"
        ))
        .into());
    };
    tgen::check(&algo, grid).map_err(|why| UsageError::flag("--algo", &algo.name(), why))?;
    let (size, mask) = grid_size_of(grid, args.size, args.mask)?;
    let flags = |e: RunError| UsageError(e.message(Names::Flags));
    let ends =
        grid_ends(args.ends, args.entrance, args.exit, size, mask.as_deref()).map_err(flags)?;
    let size_text = size.to_string();
    // Before the graph is built: a graph too large for memory is refused, not aborted.
    let mask_cells = mask.as_ref().map(|m| m.cells());
    let need = memory_need(&[algo], size, mask_cells, 1, false);
    batchgen::memory::check(need).map_err(|why| UsageError::flag("--size", &size_text, why))?;
    let name = shown(args.mask);
    let g = graph_of(size, mask.as_deref().map(|m| (m, name.as_str()))).map_err(flags)?;
    if !args.no_time_limit {
        let mask_name = args.mask.map(|p| p.display().to_string());
        check_walk_steps_on(&[algo], &g, &size_text, mask_name.as_deref()).map_err(flags)?;
    }
    let mut maze = GraphMaze::new(&g);
    let seed = topo::maze_seed(args.seed, &algo.name(), size, index);
    tgen::generate(
        &algo,
        &g,
        &mut maze,
        &mut GraphScratch::new(),
        &mut Rng::from_maze_seed(seed),
    );
    if let Some(p) = args.braid {
        let chance = batchgen::Chance::new(p);
        topo::braid::braid_seeded(&g, &mut maze, chance, seed, &mut Default::default());
    }
    let ends = on_graph(&g, ends);
    let hash = mask.map_or(0, |m| m.hash());
    let picture = Picture {
        solution: args.solution,
        cell_px: args.cell_px,
        out: args.out,
    };
    draw(&g, &maze, ends, hash, &picture, format)
}

/// What `render --store FILE --record K` draws from a store of hex, triangle or polar mazes:
/// the record's maze between its recorded ends, or those `--ends`, `--entrance` and `--exit`
/// give (as the square store's picture).
pub struct StoreRender<'a> {
    /// `--store`.
    pub path: &'a std::path::Path,
    /// `--record`.
    pub record: u64,
    /// `--solution`.
    pub solution: bool,
    /// `--cell-px`.
    pub cell_px: Option<u32>,
    /// `-o/--out`.
    pub out: Option<&'a std::path::Path>,
    /// `--ends`, `--entrance` and `--exit` (as [`GridRender`]'s); without any of them the
    /// record's own ends.
    pub ends: Option<EndsRule>,
    /// `--entrance`.
    pub entrance: Option<&'a str>,
    /// `--exit`.
    pub exit: Option<&'a str>,
}

/// Render record `args.record` of `store`, a store of mazes on a grid other than the square
/// one ([`StoreReader::graph_maze`](batchgen::store::StoreReader::graph_maze): a spanning
/// tree of the grid's cells hashing to the record's `maze_hash`), in `format`.
pub fn run_store(
    store: &batchgen::store::StoreReader,
    args: &StoreRender<'_>,
    format: Format,
) -> anyhow::Result<()> {
    let g = store.grid().expect("a store of another grid");
    let grid = g.size().grid;
    if !matches!(format, Format::Svg | Format::Png) {
        return Err(UsageError(format!(
            "the --store holds mazes on the {grid} grid, drawn as svg or png; {} draws square \
             cells (use --format svg or png, or -o FILE.svg)",
            format.name()
        ))
        .into());
    }
    let given = args.ends.is_some() || args.entrance.is_some() || args.exit.is_some();
    let mask = store.mask().map(|m| m.as_ref());
    let asked = grid_ends(args.ends, args.entrance, args.exit, g.size(), mask)
        .map_err(|e| UsageError(e.message(Names::Flags)))?;
    let k = args.record;
    let maze = store
        .graph_maze(k)
        .map_err(|e| record_error(args.path, k, e))?;
    let r = store.record(k).map_err(|e| record_error(args.path, k, e))?;
    let ends = on_graph(
        g,
        if given {
            asked
        } else {
            Ends::cells(r.entrance, r.exit)
        },
    );
    let hash = store.mask().map_or(0, |m| m.hash());
    let picture = Picture {
        solution: args.solution,
        cell_px: args.cell_px,
        out: args.out,
    };
    draw(g, &maze, ends, hash, &picture, format)
}

/// `ends` (cells of `g`, or the diameter rule) as the grid measure takes them.
fn on_graph(g: &topo::CellGraph, ends: Ends) -> GridEnds {
    match ends {
        Ends::Cells { entrance, exit } => GridEnds::Cells(GraphEnds::new(g, entrance, exit)),
        _ => GridEnds::Diameter,
    }
}

/// A record read from a store: a missing record names `--record`, a corrupt one `--store`
/// (bad input too: named, exit 2, never a panic later).
pub(super) fn record_error(path: &std::path::Path, k: u64, e: StoreError) -> anyhow::Error {
    match e {
        StoreError::NoSuchRecord { .. } => {
            anyhow::Error::new(UsageError::flag("--record", &k.to_string(), e))
        }
        StoreError::BadRecord { .. } | StoreError::NotPerfect { .. } => {
            anyhow::Error::new(UsageError::flag("--store", &path.display().to_string(), e))
        }
        other => anyhow::Error::new(other),
    }
}

/// How a maze is drawn and where to.
struct Picture<'a> {
    solution: bool,
    cell_px: Option<u32>,
    out: Option<&'a std::path::Path>,
}

/// Draw `maze` (perfect or braided) on `g` between `ends` (its solution when asked) to stdout
/// or `--out`.
fn draw(
    g: &topo::CellGraph,
    maze: &GraphMaze,
    ends: GridEnds,
    mask_hash: u64,
    args: &Picture<'_>,
    format: Format,
) -> anyhow::Result<()> {
    let mut ms = measure_graph::Scratch::new();
    let m = topo::measure_maze(g, maze, ends, mask_hash, &mut ms);
    let path = ms.solution_path();
    let ends = match ends {
        GridEnds::Cells(e) => e,
        GridEnds::Diameter => GraphEnds::new(g, m.diameter_start, m.diameter_end),
    };
    let unit = args.cell_px.unwrap_or(16);
    let solution = args.solution.then_some(&path[..]);
    let doc = if format == Format::Png {
        polygon::png(g, maze, solution, (ends.entrance, ends.exit), unit)?
    } else {
        polygon::svg(g, maze, solution, (ends.entrance, ends.exit), unit).into_bytes()
    };
    match args.out {
        None => std::io::stdout().write_all(&doc)?,
        Some(o) => {
            let mut f = AtomicFile::create(o)
                .with_context(|| format!("cannot write -o {}", o.display()))?;
            f.write_all(&doc)?;
            f.prepare()?.commit()?;
        }
    }
    Ok(())
}

/// The grid size, cell graph and mask of `--grid`, `--size` and `--mask` ([`batchgen::run::grid_graph`]:
/// a mask on hex and triangle grids only, its cells connected through the grid's neighbours);
/// every refusal names the flag.
pub(super) fn grid_of(
    grid: topo::Grid,
    size: Option<SizeArg>,
    mask_path: Option<&std::path::Path>,
) -> Result<
    (
        topo::GridSize,
        topo::CellGraph,
        Option<std::sync::Arc<batchgen::grid::Mask>>,
    ),
    UsageError,
> {
    let (size, mask) = grid_size_of(grid, size, mask_path)?;
    let name = shown(mask_path);
    let g = graph_of(size, mask.as_deref().map(|m| (m, name.as_str())))
        .map_err(|e| UsageError(e.message(Names::Flags)))?;
    Ok((size, g, mask))
}

/// The checked grid size and the mask of `--grid`, `--size` and `--mask`
/// ([`batchgen::run::grid_size`]), without building the cell graph.
fn grid_size_of(
    grid: topo::Grid,
    size: Option<SizeArg>,
    mask_path: Option<&std::path::Path>,
) -> Result<(topo::GridSize, Option<std::sync::Arc<batchgen::grid::Mask>>), UsageError> {
    let mask = match mask_path {
        None => None,
        Some(p) => Some(super::mask_arg::read_with(
            "--mask",
            p,
            batchgen::grid::Mask::cells_from_bytes,
        )?),
    };
    let name = shown(mask_path);
    let size = size.map(|s| s.on_grid(grid)).transpose()?;
    let size = grid_size(grid, size, mask.as_deref().map(|m| (m, name.as_str())))
        .map_err(|e| UsageError(e.message(Names::Flags)))?;
    Ok((size, mask))
}

/// `--mask`'s file name as messages show it.
fn shown(mask_path: Option<&std::path::Path>) -> String {
    mask_path
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}
