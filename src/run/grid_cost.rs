//! What a run on a hex, triangle or polar grid will cost before it starts, as the square
//! grid's checks say it: the random walks' expected steps per maze on the grid's own cell
//! graph, refused above [`MAX_WALK_STEPS`] unless `--no-time-limit` says otherwise (the square
//! rule: [`super::check_walk_steps`]), and the memory the workers need
//! ([`crate::memory::estimate_on_grid`]), refused when more than is available.

use crate::generate::Algorithm;
use crate::topo::{CellGraph, Grid, GridSize};

use super::error::{Field, Reason, RunError};
use super::spec::MAX_WALK_STEPS;

/// The cells a walk crosses end to end on `g`: the distance, over the grid's neighbours, from
/// the cell farthest from the first cell to the cell farthest from it (two breadth-first
/// searches; the grid's diameter on the square, hex and triangle grids without a mask, and
/// within a few cells of it on the others).
pub fn span(g: &CellGraph) -> u32 {
    let mut dist = vec![u32::MAX; g.len() as usize];
    let mut queue: Vec<u32> = Vec::with_capacity(g.cells() as usize);
    let mut farthest = |from: u32, dist: &mut Vec<u32>| -> (u32, u32) {
        dist.fill(u32::MAX);
        queue.clear();
        dist[from as usize] = 0;
        queue.push(from);
        let mut head = 0;
        let mut last = (from, 0);
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            let d = dist[c as usize];
            last = (c, d);
            for s in g.slots(c) {
                let n = g.nbr(s);
                if dist[n as usize] == u32::MAX {
                    dist[n as usize] = d + 1;
                    queue.push(n);
                }
            }
        }
        last
    };
    let (far, _) = farthest(g.corners().0, &mut dist);
    farthest(far, &mut dist).1
}

/// Every random-walk generator of `algos` (aldous-broder, the Wilsons) must be expected to
/// finish a maze of `g` within [`MAX_WALK_STEPS`]: the square grid's rule
/// ([`Algorithm::expected_walk_steps`]), `max(n ln² n, span²)`, for the graph's `n` cells and
/// its [`span`]. A refusal names `--size` (or `--mask`, named `mask` in messages, with one)
/// and `--no-time-limit`.
pub fn check_walk_steps_on(
    algos: &[Algorithm],
    g: &CellGraph,
    size_text: &str,
    mask: Option<&str>,
) -> Result<(), RunError> {
    let walks = |a: &&Algorithm| {
        a.expected_walk_steps(crate::grid::Size::planar(2, 2))
            .is_some()
    };
    let Some(a) = algos.iter().find(walks) else {
        return Ok(());
    };
    let n = g.cells() as f64;
    let span = span(g);
    let steps = (n * n.ln().powi(2)).max(f64::from(span) * f64::from(span));
    if steps <= MAX_WALK_STEPS {
        return Ok(());
    }
    let grid = g.size().grid;
    let (field, value, advice) = match mask {
        Some(name) => (
            Field::Mask,
            name.to_string(),
            "mask with fewer long corridors",
        ),
        None => (Field::Size, size_text.to_string(), "grid closer to round"),
    };
    Err(RunError::value(
        field,
        value,
        Reason::text(format!(
            "{}'s random walk is expected to take about {steps:.1e} steps per maze on this \
             {grid} grid ({} cells, {span} on its longest path; the limit is \
             {MAX_WALK_STEPS:.0e}): it could run for hours. Use a {advice}, another generator, \
             or ",
            a.name(),
            g.cells()
        ))
        .field(Field::NoTimeLimit),
    ))
}

/// Refuse up front a run on a grid of `size` (over a mask of `mask_cells` cells, if any) that
/// cannot fit in memory (`threads` workers, a maze store with `mazes`; [`memory_need`]),
/// naming `--size` (`size_text`) and `--threads`, as the square grid's check.
pub fn check_memory_on(
    algos: &[Algorithm],
    size: GridSize,
    mask_cells: Option<u32>,
    size_text: &str,
    threads: usize,
    mazes: bool,
) -> Result<(), RunError> {
    let need = memory_need(algos, size, mask_cells, threads, mazes);
    crate::memory::check(need).map_err(|why| {
        RunError::value(
            Field::Size,
            size_text,
            Reason::text("with ")
                .field(Field::Threads)
                .then(format!(" {threads}: {why}")),
        )
    })
}

/// [`crate::memory::estimate_on_grid`] of a run on a grid of `size` (over a mask of
/// `mask_cells` cells, if any) with nothing built: the cells come from the size
/// ([`GridSize::cells_u64`], the polar ring rule for polar grids) and the maze words from
/// [`edges_at_most`], so a grid whose cell graph alone would not fit is refused before the
/// graph is allocated.
pub fn memory_need(
    algos: &[Algorithm],
    size: GridSize,
    mask_cells: Option<u32>,
    threads: usize,
    mazes: bool,
) -> u64 {
    let cells = mask_cells.map_or_else(|| size.cells_u64(), u64::from);
    let chunk = crate::batch::chunk_len(cells, threads);
    let words = edges_at_most(size.grid, cells).div_ceil(64) as usize;
    crate::memory::estimate_on_grid(algos, size.grid, cells, words, threads, chunk, mazes)
}

/// An upper bound on the edges of a `grid` graph of `cells` cells (with or without a mask),
/// without building it: half the cells times the most neighbours a cell has (hex 6, triangle
/// 3, square 4); on a polar grid every cell but the centre has one inward edge and one
/// clockwise edge, and no other edge exists.
pub fn edges_at_most(grid: Grid, cells: u64) -> u64 {
    match grid {
        Grid::Hex => 3 * cells,
        Grid::Triangle => (3 * cells).div_ceil(2),
        Grid::Polar => 2 * cells,
        Grid::Square => 2 * cells,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::{Grid, GridSize};

    /// The span is the grid's diameter where it is known in closed form.
    #[test]
    fn span_of_small_grids() {
        // A 1-wide hex or triangle strip: one end to the other.
        assert_eq!(span(&CellGraph::new(GridSize::new(Grid::Hex, 9, 1))), 8);
        assert_eq!(
            span(&CellGraph::new(GridSize::new(Grid::Triangle, 9, 1))),
            8
        );
        // A 1-cell-wide hex column zigzags: each row is one step down.
        assert_eq!(span(&CellGraph::new(GridSize::new(Grid::Hex, 1, 7))), 6);
        // Polar, 3 rings: outer ring to the centre and out again is at most 2 + 2 + the ring's
        // own steps; at least the 4 steps through the centre.
        let p = span(&CellGraph::new(GridSize::new(Grid::Polar, 3, 6)));
        assert!((4..=12).contains(&p), "{p}");
    }

    /// A long strip of a random-walk generator is refused naming --size and --no-time-limit;
    /// the same strip is fine for a generator that does not walk, and a round grid passes.
    #[test]
    fn long_strips_are_refused_for_random_walks_only() {
        let strip = CellGraph::new(GridSize::new(Grid::Hex, 400_000, 1));
        let e =
            check_walk_steps_on(&[Algorithm::AldousBroder], &strip, "400000x1", None).unwrap_err();
        let text = e.message(super::super::Names::Flags);
        assert!(text.contains("'400000x1' for '--size'"), "{text}");
        assert!(
            text.contains("--no-time-limit") && text.contains("hex grid"),
            "{text}"
        );
        check_walk_steps_on(&[Algorithm::Backtracker], &strip, "400000x1", None).unwrap();
        let round = CellGraph::new(GridSize::new(Grid::Hex, 64, 64));
        check_walk_steps_on(&[Algorithm::Wilson], &round, "64x64", None).unwrap();
    }
}
