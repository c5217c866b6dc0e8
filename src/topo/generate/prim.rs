//! Simplified Prim on a cell graph: from a random cell, keep a list of the frontier slots (from a
//! tree cell to a neighbour); take a uniform one (swap-remove); when its neighbour is not in the
//! tree yet, open it and add that cell's slots to cells outside the tree.
//!
//! Speed: a frontier entry holds the slot's neighbour and edge, not the slot, so a draw tests
//! the cell it drew without first loading it through the slot; the buffer keeps its size across
//! mazes (only entries below the length are read); the batch's generator runs on a copy in
//! locals, stored back once (the same draws); the loops index the frontier, the marks and the
//! graph's slot tables without bounds checks. A stale draw (the neighbour joined meanwhile) is
//! skipped by a branch, which mispredicts often (on a hex grid about two thirds of the draws
//! are stale), yet a branch-free loop that pushes every drawn cell's slots with none kept when
//! stale, over a fixed number of slots per cell, was slower: whole runs of `batchgen --algo
//! prim --grid hex --size 64x64 --count 3000 --threads 1` took 0.74 to 0.84 s of user time
//! against 0.55 to 0.58 s, as the length the next draw needs then waits on the marks of every
//! drawn cell's neighbours, where a predicted skip does not.
//!
//! A polar grid runs [`grow_flat`]: about half of its draws are stale, a coin flip for the
//! branch above, so a stale draw pushes nothing instead (as on the square grid), and the
//! drawn cell's slots come from one 16-bit record ([`CellGraph::slots16`]), not through the
//! slot offsets. Its frontier entries are one word each (`edge << 16 | neighbour`), so a
//! swap-remove moves one word and a push writes one per slot: against two words per entry,
//! 36-ring polar mazes took 0.95× the instructions per cell (`benches/grids_callgrind.sh BIN
//! 20 prim`: 215.8 against 205.4) and 0.94× the time (`benches/generators.sh OLD NEW 5 --
//! --algo prim --grid polar --size 36 --count 3000`, release builds).
//!
//! A full hex grid (no mask) runs on the padded layout of [`HexLayout`] ([`grow_hex`]), with
//! no read of the graph's tables: median `gen_ns` per cell of `--algo prim --grid hex --size
//! 64x64 --count 1000 --threads 1`, three runs in turn, 20.1 to 20.2 ns against 22.1 to
//! 22.3 ns through the graph.
//!
//! A batch worker makes two mazes at once ([`generate_pair`]) wherever the slot records exist:
//! both run [`grow_flat`]'s loop, one draw of each in turn, so the two chains from a draw to
//! the next overlap. Against one maze after the other, median `gen_ns` per cell
//! (`benches/generators.sh OLD NEW 5 -- --algo prim --grid G --size S --count 3000`, release
//! builds): 0.64× on a 36-ring polar grid, 0.53× on a 64x64 triangle grid, 0.88× on a 64x64
//! hex grid (where the single maze's branch on stale draws is the faster loop, and the padded
//! layout's loop without that branch, paired, took 0.93×), 0.57× on a hex grid with
//! `data/masks/rooms.txt` (`--count 20000`).

use super::hex_layout::{HexLayout, HexMoves};
use super::{random_cell, GraphScratch};
use crate::generate::padded::{padded_marks, FREE, IN_TREE};
use crate::rng::{with_local_rng, RandomSource};
use crate::topo::{CellGraph, GraphMaze, Grid};

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    let hex = HexLayout::of(g);
    let polar = g.size().grid == Grid::Polar;
    with_local_rng!(rng, |r| match (hex, g.slots16()) {
        (Some(l), _) => grow_hex(g, &l, maze, s, r),
        (None, Some(slots)) if polar => grow_flat(g, slots, maze, s, r),
        _ => grow(g, maze, s, r),
    })
}

/// The loop of [`generate`]. Entry `k` of the frontier is `front[2k]`, the neighbour of its
/// slot, and `front[2k + 1]`, the slot's edge: a draw reads the cell it tests at once, not
/// through the slot (one load less on the path from one draw to the next).
#[inline(always)]
fn grow<R: RandomSource>(g: &CellGraph, maze: &mut GraphMaze, s: &mut GraphScratch, rng: &mut R) {
    s.marks(g.len());
    let start = random_cell(g, rng);
    // A slot joins the frontier at most once (when its cell joins the tree), so the buffer
    // holds every edge once, plus one cell's slots written past the length; only entries
    // below the length are read, so it is never re-zeroed.
    let room = 2 * (g.edges() as usize + g.max_degree() as usize + 1);
    let front = &mut s.next;
    if front.len() < room {
        front.resize(room, 0);
    }
    let front = &mut front[..];
    let mark = &mut s.mark[..];
    assert!(mark.len() == g.len() as usize && front.len() >= room);
    mark[start as usize] = 1;
    let mut len = push(g, front, mark, 0, start);
    while len > 0 {
        let i = rng.choose(len as u32) as usize;
        debug_assert!(i < len && 2 * len <= front.len());
        // SAFETY: `i < len`, and the frontier's entries below `len` lie in the buffer (the
        // room above); a frontier entry's cell is a neighbour, a cell id below `g.len()`,
        // the length of `mark` (asserted above).
        let v = unsafe {
            let (v, e) = (*front.get_unchecked(2 * i), *front.get_unchecked(2 * i + 1));
            len -= 1;
            *front.get_unchecked_mut(2 * i) = *front.get_unchecked(2 * len);
            *front.get_unchecked_mut(2 * i + 1) = *front.get_unchecked(2 * len + 1);
            let m = mark.get_unchecked_mut(v as usize);
            if *m != 0 {
                continue;
            }
            *m = 1;
            maze.open(e);
            v
        };
        len = push(g, front, mark, len, v);
    }
}

/// Push the slots of cell `c` to cells outside the tree onto `front` (see [`grow`]) from entry
/// `len` on, in slot order, without a branch on the marks (each slot is written, and the
/// length moves past it only when its neighbour is outside); returns the new length.
#[inline(always)]
fn push(g: &CellGraph, front: &mut [u32], mark: &[u8], mut len: usize, c: u32) -> usize {
    debug_assert!(c < g.len() && mark.len() == g.len() as usize);
    // SAFETY: `c` is a cell (below `g.len()`), so its span holds slots; a slot's neighbour
    // is a cell, below `mark.len()` (the caller's assertion); the frontier holds each edge
    // once, so `len` plus the cell's slots stays within the room [`grow`] made for it.
    unsafe {
        let (a, n) = g.slot_span_unchecked(c);
        for t in a..a + n {
            let v = g.nbr_unchecked(t);
            debug_assert!(2 * len + 1 < front.len());
            *front.get_unchecked_mut(2 * len) = v;
            *front.get_unchecked_mut(2 * len + 1) = g.edge_unchecked(t);
            len += (*mark.get_unchecked(v as usize) == 0) as usize;
        }
    }
    len
}

/// [`grow`] without a branch on stale draws, on the graph's 16-bit slot records
/// ([`CellGraph::slots16`]), for the polar grid: the same draws, frontier and passages. A
/// stale draw pushes nothing through the marks (as the square grid's loop does) rather than
/// being skipped by a branch: on a polar grid about half the draws are stale, a coin flip for
/// the branch predictor. A push reads the drawn cell's record (its neighbours in one place,
/// not through the slot offsets) over a fixed number of slots (the graph's largest degree,
/// the padding's neighbour an extra mark that is never free), so the next draw waits on two
/// reads after the drawn entry. A frontier entry is `edge << 16 | neighbour` (both fit 16 bits
/// where the records exist).
#[inline(always)]
fn grow_flat<R: RandomSource>(
    g: &CellGraph,
    slots: &[[[u16; 2]; 8]],
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    let mut f = Flat::begin(g, slots, s, rng);
    while f.len > 0 {
        f.advance(maze, rng);
    }
}

/// Whether [`generate_pair`] interleaves two mazes of `g`: where the graph has slot records
/// ([`CellGraph::slots16`]), on every grid.
pub(super) fn pairs(g: &CellGraph) -> bool {
    g.slots16().is_some()
}

/// Two mazes of `g` at once, each with its own buffers and random source: exactly the mazes
/// [`generate`] makes of each alone. Where [`pairs`], both run [`grow_flat`]'s loop, one draw
/// of each in turn, so the two chains from a draw to the next (the drawn entry, its mark, the
/// drawn cell's record and its neighbours' marks) overlap; the maze whose frontier lasts
/// longer then goes on alone. On a full hex grid that is also the loop a single maze does not
/// run (it skips stale draws by a branch, [`grow_hex`]): interleaved, the loop without the
/// branch is the faster. Elsewhere one maze after the other.
pub(super) fn generate_pair<R: RandomSource>(
    g: &CellGraph,
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut R),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut R),
) {
    let Some(slots) = g.slots16() else {
        generate(g, ma, sa, ra);
        return generate(g, mb, sb, rb);
    };
    with_local_rng!(ra, |x| with_local_rng!(rb, |y| {
        let mut a = Flat::begin(g, slots, sa, x);
        let mut b = Flat::begin(g, slots, sb, y);
        while a.len > 0 && b.len > 0 {
            a.advance(ma, x);
            b.advance(mb, y);
        }
        while a.len > 0 {
            a.advance(ma, x);
        }
        while b.len > 0 {
            b.advance(mb, y);
        }
    }));
}

/// The state of [`grow_flat`]'s loop over one maze: its frontier, marks and length, and the
/// graph's slot records.
struct Flat<'a> {
    /// The graph's slot records ([`CellGraph::slots16`]), one per cell.
    slots: &'a [[[u16; 2]; 8]],
    /// The frontier: entry `k` is `front[k]`, `edge << 16 | neighbour`.
    front: &'a mut [u32],
    /// Per cell (and the padding's neighbour `n`), 1 once in the tree.
    mark: &'a mut [u8],
    /// Entries in the frontier.
    len: usize,
    /// The slots a push reads of each record (the graph's largest degree).
    deg: usize,
}

impl<'a> Flat<'a> {
    /// The loop's state after the first cell (drawn from `rng`) joined, in `s`'s buffers.
    #[inline(always)]
    fn begin<R: RandomSource>(
        g: &CellGraph,
        slots: &'a [[[u16; 2]; 8]],
        s: &'a mut GraphScratch,
        rng: &mut R,
    ) -> Flat<'a> {
        let n = g.len() as usize;
        let deg = g.max_degree() as usize;
        s.marks(g.len() + 1);
        let start = random_cell(g, rng);
        // The padding's neighbour `n` reads as in the tree.
        s.mark[n] = 1;
        // As in [`grow`]: every edge once, plus one cell's (padded) slots past the length; an
        // entry is one word, `edge << 16 | neighbour`.
        let room = g.edges() as usize + 8 + 1;
        if s.next.len() < room {
            s.next.resize(room, 0);
        }
        let front = &mut s.next[..];
        let mark = &mut s.mark[..];
        assert!(mark.len() == n + 1 && slots.len() == n && deg <= 8 && front.len() >= room);
        mark[start as usize] = 1;
        let len = push_flat(&slots[start as usize], deg, front, mark, 0, true);
        Flat {
            slots,
            front,
            mark,
            len,
            deg,
        }
    }

    /// One draw from the frontier (`len > 0`): its entry leaves, and when its cell is outside
    /// the tree the cell joins by the entry's edge and its slots to cells outside are pushed.
    #[inline(always)]
    fn advance<R: RandomSource>(&mut self, maze: &mut GraphMaze, rng: &mut R) {
        let (slots, front, mark) = (self.slots, &mut *self.front, &mut *self.mark);
        let mut len = self.len;
        let i = rng.choose(len as u32) as usize;
        debug_assert!(i < len && len <= front.len());
        // SAFETY: `i < len`, and the frontier's entries below `len` lie in the buffer (the
        // room of [`Flat::begin`]); a kept entry's cell is a neighbour, a cell id below `n`,
        // and `mark` and `slots` have `n + 1` and `n` entries (asserted there).
        let (v, fresh) = unsafe {
            let x = *front.get_unchecked(i);
            let (v, e) = (x & 0xffff, x >> 16);
            len -= 1;
            *front.get_unchecked_mut(i) = *front.get_unchecked(len);
            let m = mark.get_unchecked_mut(v as usize);
            let fresh = *m == 0;
            *m = 1;
            maze.open_if(e, fresh);
            (v, fresh)
        };
        debug_assert!((v as usize) < slots.len());
        // SAFETY: as above, `v < n`.
        let cell = unsafe { slots.get_unchecked(v as usize) };
        self.len = push_flat(cell, self.deg, front, mark, len, fresh);
    }
}

/// Push the first `deg` slots of a cell's record (see [`grow_flat`]) onto `front` from entry
/// `len` on, each written and kept when `fresh` (the cell just joined) and its neighbour is
/// outside the tree; returns the new length.
#[inline(always)]
fn push_flat(
    cell: &[[u16; 2]; 8],
    deg: usize,
    front: &mut [u32],
    mark: &[u8],
    mut len: usize,
    fresh: bool,
) -> usize {
    for &[v, e] in cell.iter().take(deg) {
        debug_assert!(len < front.len() && (v as usize) < mark.len());
        // SAFETY: the frontier holds each edge at most once, so `len` plus a cell's padded
        // slots stays within the room [`grow_flat`] made; a record's neighbour is a cell or
        // the padding's `n`, below `mark.len()` (asserted there).
        unsafe {
            *front.get_unchecked_mut(len) = (e as u32) << 16 | v as u32;
            len += (fresh & (*mark.get_unchecked(v as usize) == 0)) as usize;
        }
    }
    len
}

/// [`grow`] on a full hex grid, on the padded layout ([`HexLayout`]): the same draws, the same
/// frontier (each cell's entries in direction order, which is its slot order) and the same
/// passages. An entry is `p << 32 | y << 17 | d`: the neighbour's padded index, its row and
/// the direction it was reached by, so a push is six adds to the drawn entry
/// and six mark reads (no table of the graph), and the edge of a join is one read of the
/// layout's forward edges ([`HexMoves::forward_edges`]) at the cell it belongs to. A stale draw
/// is skipped by a branch, as in [`grow`]: pushing nothing through the masks instead, as the
/// square grid does, took 25 ns per cell against 20 (median
/// `gen_ns` per cell of `--algo prim --grid hex --size 64x64 --count 1000 --threads 1`), the
/// next draw then waiting on seven mark reads per draw, at three draws per cell.
#[inline(always)]
fn grow_hex<R: RandomSource>(
    g: &CellGraph,
    l: &HexLayout,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    let start = random_cell(g, rng);
    padded_marks(&mut s.mark, l.w, l.h);
    // Every edge enters the frontier at most once, plus six entries written past its length.
    let room = g.edges() as usize + 7;
    let front = &mut s.wide;
    if front.len() < room {
        front.resize(room, 0);
    }
    let front = &mut front[..];
    let mark = &mut s.mark[..];
    // Per row parity and direction: the padded step, and the entry's step (the walker's of
    // [`HexMoves`] with `d`, which replaces the drawn entry's, whose low three bits are cleared).
    let mv = HexMoves::new(*l);
    let edges = mv.forward_edges(&mut s.hex);
    let dq = mv.dq;
    let step: [[u64; 6]; 2] =
        std::array::from_fn(|odd| std::array::from_fn(|d| mv.step[odd][d] + d as u64));
    // From a joined cell (by its row parity and the direction `d` it was reached by) back to
    // the cell whose forward edge it is, as a padded step: itself when `d` is W, NW or NE,
    // otherwise the cell it came from (on the same row for E, on the row above, of the other
    // parity, for SE and SW); and that forward direction.
    let back: [[u32; 8]; 2] = std::array::from_fn(|odd| {
        std::array::from_fn(|d| match d {
            0 => dq[odd][0].wrapping_neg(),
            1 | 2 => dq[1 - odd][d].wrapping_neg(),
            _ => 0,
        })
    });
    const FORWARD: [u32; 8] = [0, 1, 2, 0, 1, 2, 0, 0];
    let (x, y) = (start % l.w, start / l.w);
    let p = l.padded(x, y);
    mark[p as usize] = IN_TREE;
    let first = (p as u64) << 32 | (y << 17) as u64;
    let mut len = push_hex(front, mark, &dq, &step, 0, first);
    while len > 0 {
        let i = rng.choose(len as u32) as usize;
        debug_assert!(i < len && len <= front.len());
        // SAFETY: `i < len`, and the frontier's entries lie in the buffer (its room above).
        let v = unsafe { *front.get_unchecked(i) };
        len -= 1;
        // SAFETY: as above, `len` is now the last entry's index.
        unsafe { *front.get_unchecked_mut(i) = *front.get_unchecked(len) };
        let (p, lo) = ((v >> 32) as u32, v as u32);
        debug_assert!((p as usize) < mark.len());
        // SAFETY: an entry's padded index is a cell of the padded array (only entries of
        // free cells, which the ring never is, are kept).
        let m = unsafe { mark.get_unchecked_mut(p as usize) };
        if *m != FREE {
            continue;
        }
        *m = IN_TREE;
        let d = (lo & 7) as usize;
        let at = p.wrapping_add(back[((lo >> 17) & 1) as usize][d]);
        // Wrapping, as in [`HexMoves::edge`]: a cell without an east edge may hold the id
        // below 0.
        maze.open(edges[at as usize].wrapping_add(FORWARD[d]));
        len = push_hex(front, mark, &dq, &step, len, v & !7);
    }
}

/// Push the entries of the hex cell of entry `v` (direction cleared), just joined, to free
/// neighbours onto `front` from entry `len` on, in direction order, without a branch on the
/// marks (see [`push`]); returns the new length.
#[inline(always)]
fn push_hex(
    front: &mut [u64],
    mark: &[u8],
    dq: &[[u32; 6]; 2],
    step: &[[u64; 6]; 2],
    len: usize,
    v: u64,
) -> usize {
    let odd = ((v >> 17) & 1) as usize;
    let p = (v >> 32) as u32;
    let (dq, step) = (&dq[odd], &step[odd]);
    debug_assert!(len + 6 <= front.len());
    let keep: [usize; 6] = std::array::from_fn(|d| {
        let q = p.wrapping_add(dq[d]) as usize;
        debug_assert!(q < mark.len());
        // SAFETY: `p` is a cell of the padded array and `q` one of its neighbours or a ring
        // cell around it, inside the array.
        (unsafe { *mark.get_unchecked(q) } == FREE) as usize
    });
    let mut at = [len; 6];
    for d in 1..6 {
        at[d] = at[d - 1] + keep[d - 1];
    }
    for d in 0..6 {
        // SAFETY: `at[d] < len + 6`, and the buffer holds an entry per edge and six more, as
        // the frontier never holds more entries than edges.
        unsafe { *front.get_unchecked_mut(at[d]) = v.wrapping_add(step[d]) };
    }
    (keep[0] + keep[1]) + (keep[2] + keep[3]) + (keep[4] + keep[5]) + len
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::GridSize;
    use crate::Rng;

    /// The polar loop on the slot records makes the general loop's mazes from the same draws.
    #[test]
    fn flat_loop_makes_the_general_loops_mazes() {
        for size in [
            GridSize::new(Grid::Polar, 36, crate::topo::polar::FIRST_RING),
            GridSize::new(Grid::Polar, 6, 6),
            GridSize::new(Grid::Polar, 5, 3),
            GridSize::new(Grid::Polar, 1, 1),
        ] {
            let g = CellGraph::new(size);
            let slots = g.slots16().expect("a small polar grid has slot records");
            let mut s = GraphScratch::new();
            for index in 0..10 {
                let mut mazes = [GraphMaze::new(&g), GraphMaze::new(&g)];
                let mut rngs = [Rng::from_maze_seed(index), Rng::from_maze_seed(index)];
                grow_flat(&g, slots, &mut mazes[0], &mut s, &mut rngs[0]);
                grow(&g, &mut mazes[1], &mut s, &mut rngs[1]);
                assert_eq!(mazes[0], mazes[1], "{size} index {index}");
                assert!(mazes[0].is_spanning_tree(&g), "{size} index {index}");
                assert_eq!(rngs[0].next_u32(), rngs[1].next_u32(), "the same draws");
            }
        }
    }
}
