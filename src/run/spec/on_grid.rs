//! A [`RunSpec`] on a grid other than the square one (hex, triangle, polar): the same fields,
//! checked against the grid's own size rule, generators and cells. Which fields apply where is
//! written down in `src/topo/README.md` ("Runs on each grid"): the ends are the corners or
//! cells given as `X,Y` (hex, triangle) or `RING,I` (polar), or a farthest pair of each maze
//! (`--ends diameter`); braiding is the square rule read on the grid ([`crate::topo::braid`]);
//! 3D sizes are refused naming the grid.

use std::sync::Arc;

use super::{check_total, Run, RunSpec, DEFAULT_COUNT};
use crate::batch::GraphJob;
use crate::generate::Algorithm;
use crate::grid::{Mask, Size};
use crate::metrics::Ends;
use crate::run::error::{Field, Reason, RunError};
use crate::run::value::{grid_ends, DEFAULT_SEED};
use crate::topo::generate as tgen;
use crate::topo::{polar, CellGraph, GraphEnds, Grid, GridSize};

/// The size a polar run has without one: 32 rings.
const DEFAULT_RINGS: u32 = 32;

/// The grid size and cell graph of `grid` at `size` (default 64×64, 32 rings for polar, or the
/// mask's size), over the cells of `mask` (named `name` in messages; hex and triangle only,
/// its cells connected through the grid's neighbours). For polar, `size` is `R×C`.
pub fn grid_graph(
    grid: Grid,
    size: Option<Size>,
    mask: Option<(&Mask, &str)>,
) -> Result<(GridSize, CellGraph), RunError> {
    let gs = grid_size(grid, size, mask)?;
    Ok((gs, graph_of(gs, mask)?))
}

/// The checked grid size of [`grid_graph`], without building the graph: what a run's or a
/// picture's checks (ends, memory) need before the graph is built.
pub fn grid_size(
    grid: Grid,
    size: Option<Size>,
    mask: Option<(&Mask, &str)>,
) -> Result<GridSize, RunError> {
    if grid == Grid::Polar && mask.is_some() {
        return Err(RunError::value(
            Field::Mask,
            mask.map_or("", |m| m.1),
            Reason::text("masks work on square, hex and triangle grids, not with ")
                .field(Field::Grid)
                .then(" polar"),
        ));
    }
    if let Some(s) = size.filter(|s| s.is_3d()) {
        let expected = if grid == Grid::Polar {
            "R (rings, the centre included) or RxC, e.g. 12"
        } else {
            "WIDTHxHEIGHT"
        };
        return Err(RunError::value(
            Field::Size,
            s,
            Reason::text("")
                .field(Field::Grid)
                .then(format!(" {grid} is 2D: expected {expected}")),
        ));
    }
    let (a, b) = match (size, mask) {
        (Some(s), _) => (s.width, s.height),
        (None, Some((m, _))) => (m.size().width, m.size().height),
        (None, None) if grid == Grid::Polar => (DEFAULT_RINGS, polar::FIRST_RING),
        (None, None) => (64, 64),
    };
    let shown = GridSize::new(grid, a, b).to_string();
    let gs =
        GridSize::parse(grid, &shown).map_err(|why| RunError::value(Field::Size, &shown, why))?;
    if let Some((m, name)) = mask {
        let (mw, mh) = (m.size().width, m.size().height);
        if (mw, mh) != (gs.a, gs.b) {
            return Err(RunError::value(
                Field::Size,
                &shown,
                Reason::text(format!(
                    "the mask '{name}' is {mw}x{mh} (the mask sets the size: drop "
                ))
                .field(Field::Size)
                .then(" or give ")
                .field(Field::Size)
                .then(format!(" {mw}x{mh})")),
            ));
        }
    }
    Ok(gs)
}

/// The cell graph of `gs` (checked by [`grid_size`]) over the cells of `mask`, refused naming
/// the mask when they are not connected through the grid's neighbours.
pub fn graph_of(gs: GridSize, mask: Option<(&Mask, &str)>) -> Result<CellGraph, RunError> {
    match mask {
        None => Ok(CellGraph::new(gs)),
        Some((m, name)) => {
            let (mw, mh) = (m.size().width, m.size().height);
            let cells: Vec<bool> = (0..mw * mh).map(|c| m.contains(c)).collect();
            CellGraph::masked(gs, mw, mh, &cells)
                .map_err(|e| RunError::value(Field::Mask, name, e.to_string()))
        }
    }
}

impl RunSpec {
    /// [`RunSpec::validate`] on a grid other than the square one.
    pub(super) fn validate_on_grid(&self) -> Result<Run, RunError> {
        let grid = self.grid;
        let mask = self.mask.as_ref();
        let named = mask.map(|m| (m.mask.as_ref(), m.name.as_str()));
        let gs = grid_size(grid, self.size, named)?;
        let spec = self.algo_text();
        let parsed = Algorithm::parse_list(&spec)
            .map_err(|e| RunError::value(Field::Algo, &spec, e.to_string()))?;
        let has_all = spec.split(',').any(|p| p.trim() == "all");
        let (algos, skipped): (Vec<Algorithm>, Vec<Algorithm>) = parsed
            .into_iter()
            .partition(|a| tgen::check(a, grid).is_ok());
        if let (false, Some(a)) = (has_all, skipped.first()) {
            let why = tgen::check(a, grid).unwrap_err();
            return Err(RunError::value(Field::Algo, &spec, why));
        }
        let note = (!skipped.is_empty()).then(|| {
            let names: Vec<String> = skipped.iter().map(|a| a.name()).collect();
            Reason::text("").field(Field::Grid).then(format!(
                " {grid}: running the {} generators defined on it; skipping {}",
                algos.len(),
                names.join(", ")
            ))
        });
        let count = self.count.unwrap_or(DEFAULT_COUNT);
        check_total(count, algos.len())?;
        let threads = self.threads_checked()?;
        let ends = grid_ends(
            self.ends,
            self.entrance.as_deref(),
            self.exit.as_deref(),
            gs,
            mask.map(|m| m.mask.as_ref()),
        )?;
        let max_candidates = self.max_candidates_checked(count)?;
        if !(0.0..=1.0).contains(&self.braid) {
            return Err(RunError::value(
                Field::Braid,
                self.braid,
                "expected a chance from 0 to 1, e.g. 0, 0.25 or 1",
            ));
        }
        self.shard_accept_checked()?;
        self.outputs_checked()?;
        let mazes = self.mazes.is_some();
        let size = gs.to_string();
        let mask_cells = mask.map(|m| m.mask.cells());
        // Before the graph is built: a graph too large for memory is refused, not aborted.
        crate::run::grid_cost::check_memory_on(&algos, gs, mask_cells, &size, threads, mazes)?;
        let graph = graph_of(gs, named)?;
        if !self.no_time_limit {
            let mask_name = mask.map(|m| m.name.as_str());
            crate::run::grid_cost::check_walk_steps_on(&algos, &graph, &size, mask_name)?;
        }
        let graph_ends = match ends {
            Ends::Cells { entrance, exit } => GraphEnds::new(&graph, entrance, exit),
            Ends::Diameter => GraphEnds::corners(&graph),
        };
        let ends_rule = match ends {
            Ends::Diameter => Ends::Diameter.rule(Size::planar(gs.a, gs.b)),
            Ends::Cells { .. } => self.graph_ends_rule(&graph, graph_ends),
        };
        let mask_hash = mask.map_or(0, |m| m.mask.hash());
        Ok(Run {
            algos,
            size: Size::planar(gs.a, gs.b),
            count,
            seed: self.seed.unwrap_or(DEFAULT_SEED),
            threads,
            ends,
            ends_rule,
            mask: mask.map(|m| m.mask.clone()),
            accept: self.accept.clone(),
            max_candidates,
            braid: if self.braid == 0.0 { 0.0 } else { self.braid },
            shard: self.shard.clone(),
            out: self.out.clone(),
            mazes: self.mazes.clone(),
            note,
            grid: Some(GraphJob {
                size: gs,
                graph: Arc::new(graph),
                ends: graph_ends,
                mask_hash,
            }),
        })
    }

    /// The ends rule recorded in the metadata.
    fn graph_ends_rule(&self, g: &CellGraph, ends: GraphEnds) -> String {
        let grid = g.size().grid;
        if self.entrance.is_none() && self.exit.is_none() {
            return format!(
                "entrance=cell {} exit=cell {} (the first and last cell of the {grid} grid)",
                ends.entrance, ends.exit
            );
        }
        let form = if grid == Grid::Polar { "RING,I" } else { "X,Y" };
        let given = |t: &Option<String>| t.as_deref().unwrap_or("default").to_string();
        format!(
            "entrance=cell {} exit=cell {} (on the {grid} grid; entrance {} exit {} as {form})",
            ends.entrance,
            ends.exit,
            given(&self.entrance),
            given(&self.exit)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::value::EndsRule;
    use crate::run::Names;

    #[test]
    fn a_grid_run_validates_with_fields_named() {
        let spec = RunSpec::new()
            .grid(Grid::Polar)
            .algos(["sidewinder,wilson"])
            .size(Size::planar(5, polar::FIRST_RING))
            .entrance("1,2")
            .count(10)
            .threads(1);
        assert_eq!(
            spec.command_line(),
            "batchgen --algo sidewinder,wilson --grid polar --size 5 --entrance 1,2 \
             --threads 1 --count 10"
        );
        let run = spec.validate().unwrap();
        assert_eq!(run.size_text(), "5");
        assert_eq!(run.grid_name(), "polar");
        let g = run.grid.as_ref().unwrap();
        assert_eq!((g.ends.entrance, g.ends.exit), (3, g.graph.len() - 1));
        let job = run.job(false);
        assert_eq!(job.cells(), g.graph.len() as u64);
        let info = run.info("cmd");
        assert!(info
            .extra
            .iter()
            .any(|(k, v)| k == crate::meta_keys::GRID && v == "polar"));
        for (spec, field, text) in [
            (
                RunSpec::new().grid(Grid::Hex).braid(1.5),
                Field::Braid,
                "expected a chance from 0 to 1",
            ),
            (
                RunSpec::new().grid(Grid::Hex).algos(["eller"]),
                Field::Algo,
                "eller does not run on a hex grid",
            ),
            (
                RunSpec::new().grid(Grid::Hex).size(Size::new(4, 4, 2)),
                Field::Size,
                "grid hex is 2D",
            ),
            (
                RunSpec::new().grid(Grid::Polar).size(Size::planar(4, 2)),
                Field::Size,
                "at least 3",
            ),
            (
                RunSpec::new()
                    .grid(Grid::Hex)
                    .size(Size::planar(4, 4))
                    .exit("4,0"),
                Field::Exit,
                "outside the 4x4 grid",
            ),
        ] {
            let e = spec.validate().unwrap_err();
            assert_eq!(e.field(), Some(field), "{e}");
            assert!(e.to_string().contains(text), "{e}");
        }
        let e = RunSpec::new()
            .grid(Grid::Hex)
            .algos(["eller"])
            .validate()
            .unwrap_err();
        assert!(e.message(Names::Flags).contains("hex"), "{e}");
    }

    #[test]
    fn braid_and_the_diameter_rule_run_on_every_grid() {
        for grid in [Grid::Hex, Grid::Triangle, Grid::Polar] {
            let run = RunSpec::new()
                .grid(grid)
                .braid(0.5)
                .ends(EndsRule::Diameter)
                .validate()
                .unwrap();
            assert_eq!((run.braid, run.ends), (0.5, Ends::Diameter), "{grid}");
            assert!(run.ends_rule.starts_with("diameter"), "{}", run.ends_rule);
            let job = run.job(false);
            assert_eq!((job.braid.p(), job.ends), (0.5, Ends::Diameter));
        }
        let e = RunSpec::new()
            .grid(Grid::Triangle)
            .ends(EndsRule::Diameter)
            .entrance("1,1")
            .validate()
            .unwrap_err();
        let text = e.message(Names::Flags);
        assert!(
            text.contains("--ends diameter chooses the entrance"),
            "{text}"
        );
    }
}
