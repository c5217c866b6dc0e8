//! Kruskal on a cell graph: the edges in a uniformly shuffled order (Fisher–Yates with
//! unbiased `below`), each opened when its two cells are not yet joined (union-find).
//!
//! Speed: the batch's generator runs on a copy in locals, stored back once (the same draws);
//! the union loop works on the borrowed forest and opens an edge without a branch on whether
//! it joined two sets (a coin flip to the branch predictor); the shuffled ids are 16 bits wide
//! where they fit ([`shuffle_join`]).

use super::GraphScratch;
use crate::dsu::Dsu;
use crate::rng::RandomSource;
use crate::topo::{CellGraph, GraphMaze};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    if let Some(rng) = rng.as_rng() {
        let mut local = rng.clone();
        join(g, maze, s, &mut local);
        *rng = local;
    } else {
        join(g, maze, s, rng);
    }
}

/// The shuffle and the union loop of [`generate`], on 16-bit edge ids where they fit
/// ([`shuffle_join`]).
#[inline(always)]
fn join<R: RandomSource>(g: &CellGraph, maze: &mut GraphMaze, s: &mut GraphScratch, rng: &mut R) {
    s.dsu.reset(g.len());
    if g.edges() <= 1 << 16 {
        s.narrow.clear();
        s.narrow.extend((0..g.edges()).map(|e| e as u16));
        shuffle_join(g, maze, &mut s.narrow, &mut s.dsu, rng);
    } else {
        s.order.clear();
        s.order.extend(0..g.edges());
        shuffle_join(g, maze, &mut s.order, &mut s.dsu, rng);
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
) {
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        order.swap(i, j);
    }
    let mut forest = dsu.forest();
    let mut left = g.cells() - 1;
    for &e in order.iter() {
        if left == 0 {
            break;
        }
        let e: u32 = e.into();
        let [a, b] = g.ends(e);
        let joined = forest.union(a, b);
        maze.open_if(e, joined);
        left -= joined as u32;
    }
}
