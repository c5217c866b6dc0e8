//! Kruskal on a cell graph: the edges in a uniformly shuffled order (Fisher–Yates with
//! unbiased `below`), each opened when its two cells are not yet joined (union-find).
//!
//! Speed: the batch's generator runs on a copy in locals, stored back once (the same draws);
//! the union loop works on the borrowed forest and opens an edge without a branch on whether
//! it joined two sets (a coin flip to the branch predictor); the shuffled ids are 16 bits wide
//! where they fit ([`shuffle_join`]), and so are the edges' ends read by the union loop
//! ([`CellGraph::narrow_ends`], 48 KB on a 64x64 hex grid against 96 KB); the shuffle's swap
//! and the union skip their bounds checks (the union's check kept both ends in memory for its
//! panic message). The ends are read from the table rather than computed from a hex edge's id:
//! the table's misses overlap with other work, the extra arithmetic per edge does not.

use super::GraphScratch;
use crate::dsu::Dsu;
use crate::rng::{with_local_rng, RandomSource};
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    with_local_rng!(rng, |r| join(g, maze, s, r))
}

/// The shuffle and the union loop of [`generate`], on 16-bit edge ids where they fit
/// ([`shuffle_join`]).
#[inline(always)]
fn join<R: RandomSource>(g: &CellGraph, maze: &mut GraphMaze, s: &mut GraphScratch, rng: &mut R) {
    s.dsu.reset(g.len());
    if g.edges() <= 1 << 16 {
        s.narrow.clear();
        s.narrow.extend((0..g.edges()).map(|e| e as u16));
        match g.narrow_ends() {
            Some(ends) => shuffle_join(g, maze, &mut s.narrow, &mut s.dsu, rng, |e| {
                debug_assert!((e as usize) < ends.len());
                // SAFETY: the shuffled ids are a permutation of the edge ids, and the table
                // has one entry per edge.
                let [a, b] = unsafe { *ends.get_unchecked(e as usize) };
                [a as u32, b as u32]
            }),
            None => shuffle_join(g, maze, &mut s.narrow, &mut s.dsu, rng, |e| g.ends(e)),
        }
    } else {
        s.order.clear();
        s.order.extend(0..g.edges());
        shuffle_join(g, maze, &mut s.order, &mut s.dsu, rng, |e| g.ends(e));
    }
}

/// Shuffle the edge ids of `order` (Fisher–Yates from the end) and open each edge that joins
/// two sets, in that order, until the tree spans the cells. The ids are 16 bits wide where
/// they fit: the shuffle's list then takes half the cache (24 KB on a 64x64 hex grid, which
/// fits the first level), the same permutation of the same draws.
#[inline(always)]
fn shuffle_join<R: RandomSource, T: Copy + Into<u32>>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    order: &mut [T],
    dsu: &mut Dsu,
    rng: &mut R,
    ends: impl Fn(u32) -> [u32; 2],
) {
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        debug_assert!(j <= i && i < order.len());
        // SAFETY: `j <= i < order.len()` (`below(i + 1)` is at most `i`).
        unsafe {
            let (x, y) = (*order.get_unchecked(i), *order.get_unchecked(j));
            *order.get_unchecked_mut(i) = y;
            *order.get_unchecked_mut(j) = x;
        }
    }
    assert!(dsu.len() >= g.len(), "the forest covers the graph's cells");
    let mut forest = dsu.forest();
    let mut left = g.cells() - 1;
    for &e in order.iter() {
        if left == 0 {
            break;
        }
        let e: u32 = e.into();
        let [a, b] = ends(e);
        debug_assert!(a.max(b) < g.len());
        // SAFETY: `ends` gives cells of `g`, ids below `g.len()`, which the forest covers
        // (checked above).
        let joined = unsafe { forest.union_unchecked(a, b) };
        maze.open_if(e, joined);
        left -= joined as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::{Grid, GridSize};
    use crate::Rng;

    /// 16-bit edge ids and ends (`generate` on a small graph) and 32-bit ones give the same
    /// maze from the same draws, so a graph of more than 65,536 edges (32-bit ids) makes the
    /// maze its 16-bit twin would; and such a graph gets a spanning tree through `generate`.
    #[test]
    fn narrow_and_wide_ids_make_the_same_mazes() {
        for size in [
            GridSize::new(Grid::Hex, 9, 7),
            GridSize::new(Grid::Hex, 1, 1),
            GridSize::new(Grid::Triangle, 10, 6),
            GridSize::new(Grid::Polar, 6, 6),
        ] {
            let g = CellGraph::new(size);
            let mut dsu = Dsu::new(g.len());
            for index in 0..10 {
                let mut mazes = [GraphMaze::new(&g), GraphMaze::new(&g)];
                let mut rngs = [Rng::from_maze_seed(index), Rng::from_maze_seed(index)];
                // The narrow path as `generate` runs it: 16-bit ids and 16-bit ends.
                let mut s = GraphScratch::new();
                generate(&g, &mut mazes[0], &mut s, &mut rngs[0]);
                let mut wide: Vec<u32> = (0..g.edges()).collect();
                dsu.reset(g.len());
                shuffle_join(&g, &mut mazes[1], &mut wide, &mut dsu, &mut rngs[1], |e| {
                    g.ends(e)
                });
                assert_eq!(mazes[0], mazes[1], "{size} index {index}");
                assert!(mazes[0].is_spanning_tree(&g), "{size} index {index}");
                assert_eq!(rngs[0].next_u32(), rngs[1].next_u32(), "the same draws");
            }
        }
        let big = CellGraph::new(GridSize::new(Grid::Hex, 160, 160));
        assert!(big.edges() > 1 << 16);
        let (mut maze, mut s) = (GraphMaze::new(&big), GraphScratch::new());
        generate(&big, &mut maze, &mut s, &mut Rng::from_maze_seed(1));
        assert!(maze.is_spanning_tree(&big));
    }
}
