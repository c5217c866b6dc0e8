//! `batchgen render --grid hex|triangle|polar`: the maze of (grid, algo, size, seed, index) as
//! an SVG picture ([`batchgen::render::polygon`]), with `--solution` and the entrance and exit
//! marked. The text formats draw square cells only and PNG is not drawn for these grids: both
//! are refused naming the grid, as are the square picture's other sources and options.

use std::io::Write;

use anyhow::Context;

use batchgen::atomic_file::AtomicFile;
use batchgen::render::{polygon, Format};
use batchgen::topo::generate::{self as tgen, GraphScratch};
use batchgen::topo::{self, GraphEnds, GraphMaze, MeasureScratch};
use batchgen::Rng;

use super::render::RenderArgs;
use super::UsageError;

/// Render `args` (whose `--grid` is not square) in `format`.
pub fn run(args: &RenderArgs, format: Format) -> anyhow::Result<()> {
    let grid = args.grid;
    if format != Format::Svg {
        return Err(UsageError(format!(
            "--grid {grid} is drawn as svg only; {} draws square cells (use --format svg or \
             -o FILE.svg)",
            format.name()
        ))
        .into());
    }
    for (given, flag) in [
        (args.braid.is_some(), "--braid"),
        (args.entrance.is_some(), "--entrance"),
        (args.exit.is_some(), "--exit"),
        (args.ends.is_some(), "--ends"),
    ] {
        if given {
            return Err(UsageError(format!(
                "{flag} works on the square grid only, not with --grid {grid}"
            ))
            .into());
        }
    }
    let (Some(algo), Some(index)) = (args.algo, args.index) else {
        return Err(UsageError(format!(
            "render --grid {grid} needs --algo A --size SIZE --index I [--seed S]"
        ))
        .into());
    };
    tgen::check(&algo, grid).map_err(|why| UsageError::flag("--algo", &algo.name(), why))?;
    let (size, g, mask) = super::grid_run::grid_of(grid, args.size, args.mask.as_deref())?;
    let mut maze = GraphMaze::new(&g);
    let seed = topo::maze_seed(args.seed, &algo.name(), size, index);
    tgen::generate(
        &algo,
        &g,
        &mut maze,
        &mut GraphScratch::new(),
        &mut Rng::from_maze_seed(seed),
    );
    let ends = GraphEnds::corners(&g);
    let mut ms = MeasureScratch::new();
    topo::measure(&g, &maze, ends, mask.map_or(0, |m| m.hash()), &mut ms);
    let path = ms.solution_path();
    let unit = args.cell_px.unwrap_or(16);
    let doc = polygon::svg(
        &g,
        &maze,
        args.solution.then_some(&path[..]),
        (ends.entrance, ends.exit),
        unit,
    );
    match &args.out {
        None => std::io::stdout().write_all(doc.as_bytes())?,
        Some(o) => {
            let mut f = AtomicFile::create(o)
                .with_context(|| format!("cannot write -o {}", o.display()))?;
            f.write_all(doc.as_bytes())?;
            f.prepare()?.commit()?;
        }
    }
    Ok(())
}
