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
//! the table's misses overlap with other work, the extra arithmetic per edge does not. A
//! worker's pair of mazes ([`generate_pair`]) shuffles 64-bit entries that carry each edge's
//! ends with its id ([`packed_ids`]), so its union loops read the ends in order: per cell
//! 0.90× the time on a 64x64 triangle grid, 0.94× on a 36-ring polar grid, 0.92× on a 64x64 hex
//! grid (`benches/generators.sh OLD NEW 5 -- --algo kruskal --grid G --size S --count 3000`;
//! on the hex grid with three links, below, where with four it took 1.1×). The finds follow
//! three parent links before their first test on the hex grid and four on the others
//! ([`links`]).

use super::GraphScratch;
use crate::dsu::{Dsu, Forest};
use crate::rng::{with_local_rng, RandomSource};
use crate::topo::{CellGraph, GraphMaze, Grid};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    with_local_rng!(rng, |r| join(g, maze, s, r))
}

/// Whether [`generate_pair`] interleaves two mazes of `g`: where the edge ids and their ends
/// fit 16 bits (the narrow path of [`join`]).
pub(super) fn pairs(g: &CellGraph) -> bool {
    g.edges() <= 1 << 16 && g.narrow_ends().is_some()
}

/// Two mazes of `g` at once, each with its own buffers and random source: exactly the mazes
/// [`generate`] makes of each alone. A shuffle step waits on its draw and a union on its finds
/// (chains of dependent loads), so the two shuffles run step by step together, then the two
/// union loops, each going on alone once the other's tree spans the cells. Where [`pairs`] is
/// false, one after the other.
pub(super) fn generate_pair<R: RandomSource>(
    g: &CellGraph,
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut R),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut R),
) {
    let Some(ends) = g.narrow_ends().filter(|_| pairs(g)) else {
        generate(g, ma, sa, ra);
        return generate(g, mb, sb, rb);
    };
    for s in [&mut *sa, &mut *sb] {
        s.dsu.reset(g.len());
        packed_ids(ends, s);
    }
    let (oa, ob) = (&mut sa.wide[..], &mut sb.wide[..]);
    with_local_rng!(ra, |x| with_local_rng!(rb, |y| {
        for i in (1..oa.len()).rev() {
            swap_draw(oa, i, x);
            swap_draw(ob, i, y);
        }
    }));
    assert!(sa.dsu.len() >= g.len() && sb.dsu.len() >= g.len());
    let (fa, fb) = (sa.dsu.forest(), sb.dsu.forest());
    let (a, b) = (Joins::new(g, &oa[..]), Joins::new(g, &ob[..]));
    // SAFETY: the forests cover the graph's cells (asserted above), and the packed ends are
    // cell ids.
    unsafe {
        if links(g) == 3 {
            join_pair::<3>((a, fa, ma), (b, fb, mb));
        } else {
            join_pair::<4>((a, fa, ma), (b, fb, mb));
        }
    }
}

/// Every edge of the graph of `ends` (its 16-bit ends, [`CellGraph::narrow_ends`]) in
/// `s.wide`, in id order, as `id | a << 16 | b << 32` ([`unpack`]): the pair's shuffles move
/// the edge with its ends, so the union loops read them in order rather than from the table
/// at random (the same permutation of the same draws as the 16-bit ids of [`generate`]).
fn packed_ids(ends: &[[u16; 2]], s: &mut GraphScratch) {
    s.wide.clear();
    s.wide.extend(
        ends.iter()
            .enumerate()
            .map(|(e, &[a, b])| e as u64 | (a as u64) << 16 | (b as u64) << 32),
    );
}

/// The edge id and ends of an entry of [`packed_ids`].
#[inline(always)]
fn unpack(x: u64) -> (u32, [u32; 2]) {
    (
        x as u32 & 0xffff,
        [(x >> 16) as u32 & 0xffff, (x >> 32) as u32],
    )
}

/// The two union loops of [`generate_pair`] over entries of [`packed_ids`], step by step
/// together, then each alone; the finds follow `LINKS` links before their first test
/// ([`links`]).
///
/// # Safety
///
/// The entries' ends are cell ids of the graph, which both forests cover.
#[inline(always)]
unsafe fn join_pair<const LINKS: u32>(
    (mut a, mut fa, ma): (Joins<'_, u64>, Forest<'_>, &mut GraphMaze),
    (mut b, mut fb, mb): (Joins<'_, u64>, Forest<'_>, &mut GraphMaze),
) {
    // SAFETY (each `join`): the caller's promise.
    while a.left > 0 && b.left > 0 {
        unsafe {
            a.join::<LINKS>(&unpack, &mut fa, ma);
            b.join::<LINKS>(&unpack, &mut fb, mb);
        }
    }
    unsafe {
        a.finish::<LINKS>(&unpack, &mut fa, ma);
        b.finish::<LINKS>(&unpack, &mut fb, mb);
    }
}

/// The links a find of the union loops follows before its first test, on `g`
/// ([`Forest::union_unchecked_links`]): three on a hex grid, four on the others.
fn links(g: &CellGraph) -> u32 {
    if g.size().grid == Grid::Hex {
        3
    } else {
        4
    }
}

/// Step `i` of the shuffle of [`shuffle_join`]: swap `order[i]` with a uniform entry of
/// `order[..=i]`.
#[inline(always)]
fn swap_draw<R: RandomSource, T: Copy>(order: &mut [T], i: usize, rng: &mut R) {
    let j = rng.below(i as u32 + 1) as usize;
    assert!(i < order.len());
    debug_assert!(j <= i);
    // SAFETY: `j <= i < order.len()` (`below(i + 1)` is at most `i`).
    unsafe {
        let (x, y) = (*order.get_unchecked(i), *order.get_unchecked(j));
        *order.get_unchecked_mut(i) = y;
        *order.get_unchecked_mut(j) = x;
    }
}

/// The union loop of one maze ([`shuffle_join`], and each maze of [`generate_pair`]): its
/// shuffled entries (edge ids, or [`packed_ids`]'s ids with their ends), the next one to take
/// and the joins still needed.
struct Joins<'a, T> {
    order: &'a [T],
    next: usize,
    left: u32,
}

impl<'a, T: Copy> Joins<'a, T> {
    fn new(g: &CellGraph, order: &'a [T]) -> Joins<'a, T> {
        Joins {
            order,
            next: 0,
            left: g.cells() - 1,
        }
    }

    /// Take the next entry, whose edge id and ends `edge` gives, opening the edge when it joins
    /// two sets (only while `left > 0`); the finds follow `LINKS` links before their first test
    /// ([`links`]).
    ///
    /// # Safety
    ///
    /// `edge` gives ends that are cell ids of the graph, which `forest` covers.
    #[inline(always)]
    unsafe fn join<const LINKS: u32>(
        &mut self,
        edge: &impl Fn(T) -> (u32, [u32; 2]),
        forest: &mut Forest<'_>,
        maze: &mut GraphMaze,
    ) {
        let (e, [a, b]) = edge(self.order[self.next]);
        self.next += 1;
        // SAFETY: the ends are cell ids, which the forest covers (the caller's promise).
        let joined = unsafe { forest.union_unchecked_links::<LINKS>(a, b) };
        maze.open_if(e, joined);
        self.left -= joined as u32;
    }

    /// [`Joins::join`] until the tree spans the cells.
    ///
    /// # Safety
    ///
    /// As [`Joins::join`].
    #[inline(always)]
    unsafe fn finish<const LINKS: u32>(
        &mut self,
        edge: &impl Fn(T) -> (u32, [u32; 2]),
        forest: &mut Forest<'_>,
        maze: &mut GraphMaze,
    ) {
        while self.left > 0 {
            // SAFETY: the caller's promise.
            unsafe { self.join::<LINKS>(edge, forest, maze) };
        }
    }
}

/// Every edge id of `g` in `s.narrow`, in order, 16 bits wide (the graph has at most 2¹⁶
/// edges).
fn narrow_ids(g: &CellGraph, s: &mut GraphScratch) {
    s.narrow.clear();
    s.narrow.extend((0..g.edges()).map(|e| e as u16));
}

/// The ends of an edge read from the graph's 16-bit table ([`CellGraph::narrow_ends`]), for
/// the shuffled ids, which are a permutation of the edge ids.
fn narrow_ends(ends: &[[u16; 2]]) -> impl Fn(u32) -> [u32; 2] + '_ {
    move |e| {
        assert!((e as usize) < ends.len());
        // SAFETY: `e` is below the table's length (asserted; the shuffled ids are edge ids,
        // one table entry each, so the check never fails).
        let [a, b] = unsafe { *ends.get_unchecked(e as usize) };
        [a as u32, b as u32]
    }
}

/// The shuffle and the union loop of [`generate`], on 16-bit edge ids where they fit
/// ([`shuffle_join`]).
#[inline(always)]
fn join<R: RandomSource>(g: &CellGraph, maze: &mut GraphMaze, s: &mut GraphScratch, rng: &mut R) {
    s.dsu.reset(g.len());
    if g.edges() <= 1 << 16 {
        narrow_ids(g, s);
        match g.narrow_ends() {
            Some(ends) => shuffle_join(g, maze, &mut s.narrow, &mut s.dsu, rng, narrow_ends(ends)),
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
        swap_draw(order, i, rng);
    }
    assert!(dsu.len() >= g.len(), "the forest covers the graph's cells");
    let mut forest = dsu.forest();
    let mut joins = Joins::new(g, order);
    let edge = |t: T| {
        let e: u32 = t.into();
        (e, ends(e))
    };
    // SAFETY: `ends` gives cells of `g`, ids below `g.len()`, which the forest covers
    // (checked above).
    unsafe {
        if links(g) == 3 {
            joins.finish::<3>(&edge, &mut forest, maze);
        } else {
            joins.finish::<4>(&edge, &mut forest, maze);
        }
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
