//! Hunt-and-kill on a cell graph: a random walk to unvisited neighbours (uniform, slot order)
//! from a random cell, opening each step; when it is stuck, the hunt scans the cells in id order
//! for the first unvisited cell with a visited neighbour, joins it to one of those (uniform) and
//! walks on from it. The scan resumes where the last one found no cell before it unvisited.
//!
//! Speed: where no cell has more than 8 neighbours, each cell keeps the mask of its unvisited
//! neighbours ([`Unvisited`]): a step finds its choices in one byte, and the hunt tells whether
//! an unvisited cell has a visited neighbour by comparing its mask with the full one, instead
//! of reading each neighbour's mark (the walk starts at a random cell, so the cells before it in
//! id order stay unvisited, and are scanned again, for much of the run). On a full hex grid the
//! masks live on the padded layout of [`HexLayout`] ([`HexHunt`]). A step is a chain of
//! dependent loads, so a batch worker makes two mazes of one graph at once ([`generate_pair`]):
//! every step adds one cell, so two hunts of the same cells end in the same round.
use super::hex_layout::{HexLayout, HexMoves, SEEN};
use super::{by_stride, candidates, count, random_cell, slot_at, slots_with, GraphScratch};
use super::{select, Unvisited};
use crate::rng::RandomSource;
use crate::topo::{CellGraph, GraphMaze};

/// One hunt-and-kill over a graph whose cells have at most 8 neighbours: the marks, the masks
/// of unvisited neighbours (visited by `K`: [`Unvisited`]), the current cell and where the hunt
/// resumes.
struct Hunt<'a, const K: usize> {
    mark: &'a mut [u8],
    open: Unvisited<'a, K>,
    full: &'a [u8],
    /// The current cell.
    u: u32,
    /// Every id before `ids[lo]` is visited or a hole.
    lo: usize,
}

impl<'a, const K: usize> Hunt<'a, K> {
    /// Start at a random cell of `g` (the first draw), with `full` the full masks.
    #[inline(always)]
    fn begin<R: RandomSource>(
        g: &'a CellGraph,
        full: &'a [u8],
        s: &'a mut GraphScratch,
        rng: &mut R,
    ) -> Hunt<'a, K> {
        s.marks(g.len());
        let mark = &mut s.mark[..];
        let mut open = Unvisited::new(g, &mut s.open);
        // The reads of `add` skip their bound checks on these lengths: every cell id is below
        // `g.len()`.
        assert!(mark.len() == g.len() as usize && open.masks.len() > mark.len());
        assert!(full.len() == mark.len() && g.ids().len() <= mark.len());
        let u = random_cell(g, rng);
        mark[u as usize] = 1;
        // SAFETY: a drawn cell is a cell id.
        unsafe { open.visit(u) };
        Hunt {
            mark,
            open,
            full,
            u,
            lo: 0,
        }
    }

    /// Add one cell: a step of the walk, or when it is stuck the hunt's find.
    ///
    /// # Safety
    ///
    /// Some cell of `g` (the graph of [`Hunt::begin`]) is unvisited: at most `g.cells() - 1`
    /// calls in all.
    #[inline(always)]
    unsafe fn add<R: RandomSource>(&mut self, g: &CellGraph, maze: &mut GraphMaze, rng: &mut R) {
        let (mark, full, ids) = (&mut *self.mark, self.full, g.ids());
        // The reads and writes below skip their bound checks: a cell id (`u`, an id of `ids`,
        // a carved-to neighbour) is below `g.len()`, the length of `mark`, `full` and the
        // masks (asserted in `begin`); and while some cell is unvisited (the caller's promise),
        // one of them at `lo` or after in `ids` has a visited neighbour (the graph is
        // connected), so the scans stop inside `ids`. Per cell on a 36-ring polar grid 0.97×
        // the time of checked reads, on a 64x64 triangle grid 0.93× (`benches/generators.sh
        // OLD NEW 5 -- --algo hunt-and-kill --grid polar --size 36 --count 3000`).
        // SAFETY: `u` is a cell id (above).
        let m = unsafe { *self.open.masks.get_unchecked(self.u as usize) };
        if m != 0 {
            // SAFETY: `u` is a cell id (above) and `m` its mask.
            self.u = unsafe { self.open.carve(maze, self.u, m, rng) };
            // SAFETY: the carved-to cell is a cell id (above).
            unsafe { *mark.get_unchecked_mut(self.u as usize) = 1 };
            return;
        }
        // Hunt: an unvisited cell with a visited neighbour has a bit of its full mask cleared.
        debug_assert!(ids[self.lo..].iter().any(|&c| mark[c as usize] == 0));
        // SAFETY: the scans stop inside `ids` (above).
        let at = |i: usize| unsafe { *ids.get_unchecked(i) } as usize;
        // SAFETY: an id of `ids` is a cell id (above).
        while unsafe { *mark.get_unchecked(at(self.lo)) } != 0 {
            self.lo += 1;
        }
        let mut i = self.lo;
        let c = loop {
            let c = at(i);
            // SAFETY: as above.
            let (seen, open, all) = unsafe {
                (
                    *mark.get_unchecked(c),
                    *self.open.masks.get_unchecked(c),
                    *full.get_unchecked(c),
                )
            };
            if seen == 0 && open != all {
                break c as u32;
            }
            i += 1;
        };
        let seen = full[c as usize] & !self.open.of(c);
        let slot = slot_at(g, c, seen, rng.choose(count(seen)));
        maze.open(g.edge(slot));
        mark[c as usize] = 1;
        // SAFETY: `c` is an id of `ids`, a cell id.
        unsafe { self.open.visit(c) };
        self.u = c;
    }
}

/// One hunt-and-kill on a full hex grid, by the moves of [`HexMoves`] on the padded layout of
/// [`HexLayout`] (the direction masks in `open`, the full ones in `full`): the same draws and
/// passages as [`Hunt`], with a step one add, a visit six byte updates at fixed offsets and
/// the hunt a scan of the padded masks in id order.
struct HexHunt<'a> {
    open: &'a mut [u8],
    full: &'a [u8],
    edges: &'a [u32],
    /// The current walker.
    v: u64,
    /// Every padded index before `lo` is visited or on the ring.
    lo: usize,
}

impl<'a> HexHunt<'a> {
    /// Start at a random cell of `g` (the first draw), in `s`'s buffers.
    #[inline(always)]
    fn begin<R: RandomSource>(
        g: &CellGraph,
        mv: &HexMoves,
        s: &'a mut GraphScratch,
        rng: &mut R,
    ) -> HexHunt<'a> {
        let (full, edges, v) = mv.start(g, &mut s.open, &mut s.hex, rng);
        let open = &mut s.open[..];
        HexHunt {
            open,
            full,
            edges,
            v,
            lo: 0,
        }
    }

    /// Add one cell, as [`Hunt::add`].
    #[inline(always)]
    fn add<R: RandomSource>(&mut self, mv: &HexMoves, maze: &mut GraphMaze, rng: &mut R) {
        let (open, full) = (&mut *self.open, self.full);
        let v = self.v;
        let m = open[HexMoves::index(v)] & !SEEN;
        if m != 0 {
            self.v = mv.carve(open, self.edges, maze, v, m, rng);
            return;
        }
        // Hunt: an unvisited cell with a visited neighbour has a bit of its full mask cleared.
        while open[self.lo] & SEEN != 0 {
            self.lo += 1;
        }
        let mut i = self.lo;
        while open[i] & SEEN != 0 || open[i] == full[i] {
            i += 1;
        }
        let c = mv.walker(i as u32);
        let seen = full[i] & !open[i];
        let d = select(seen, rng.choose(count(seen))) as usize;
        let t = mv.moved(c, d);
        maze.open(HexMoves::edge(self.edges, c, t, d));
        mv.visit(open, c);
        self.v = c;
    }
}

/// One maze (see the module docs).
pub(super) fn generate<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    if let Some(l) = HexLayout::of(g) {
        let mv = HexMoves::new(l);
        let mut h = HexHunt::begin(g, &mv, s, rng);
        for _ in 1..g.cells() {
            h.add(&mv, maze, rng);
        }
        return;
    }
    let Some(full) = g.full_masks() else {
        return scan(g, maze, s, rng);
    };
    by_stride!(g, K => hunt::<K, _>(g, full, maze, s, rng))
}

/// [`generate`] by [`Hunt`], whose visits clear `K` bits.
fn hunt<const K: usize, R: RandomSource>(
    g: &CellGraph,
    full: &[u8],
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    let mut h = Hunt::<K>::begin(g, full, s, rng);
    for _ in 1..g.cells() {
        // SAFETY: each call adds one cell; before each of these `cells - 1`, one is unvisited.
        unsafe { h.add(g, maze, rng) };
    }
}

/// Two mazes of `g` at once, each with its own buffers and random source: exactly the mazes
/// [`generate`] makes of each alone. Every call of `add` adds one cell, so both take
/// `cells − 1` of them, interleaved one by one. A graph with a cell of more than 8 neighbours
/// makes the two one after the other.
pub(super) fn generate_pair<RA: RandomSource, RB: RandomSource>(
    g: &CellGraph,
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut RA),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut RB),
) {
    if let Some(l) = HexLayout::of(g) {
        let mv = HexMoves::new(l);
        let mut a = HexHunt::begin(g, &mv, sa, ra);
        let mut b = HexHunt::begin(g, &mv, sb, rb);
        for _ in 1..g.cells() {
            a.add(&mv, ma, ra);
            b.add(&mv, mb, rb);
        }
        return;
    }
    let Some(full) = g.full_masks() else {
        scan(g, ma, sa, ra);
        return scan(g, mb, sb, rb);
    };
    by_stride!(g, K => hunt_pair::<K, _, _>(g, full, (ma, sa, ra), (mb, sb, rb)))
}

/// [`generate_pair`] by two [`Hunt`]s, whose visits clear `K` bits.
fn hunt_pair<const K: usize, RA: RandomSource, RB: RandomSource>(
    g: &CellGraph,
    full: &[u8],
    (ma, sa, ra): (&mut GraphMaze, &mut GraphScratch, &mut RA),
    (mb, sb, rb): (&mut GraphMaze, &mut GraphScratch, &mut RB),
) {
    let mut a = Hunt::<K>::begin(g, full, sa, ra);
    let mut b = Hunt::<K>::begin(g, full, sb, rb);
    for _ in 1..g.cells() {
        // SAFETY: as in `generate`, for each maze.
        unsafe {
            a.add(g, ma, ra);
            b.add(g, mb, rb);
        }
    }
}

/// [`generate`] reading the neighbours' marks (any degree).
pub(super) fn scan<R: RandomSource>(
    g: &CellGraph,
    maze: &mut GraphMaze,
    s: &mut GraphScratch,
    rng: &mut R,
) {
    s.marks(g.len());
    let mut opts = std::mem::take(&mut s.next);
    candidates(g, &mut opts);
    let mut u = random_cell(g, rng);
    s.mark[u as usize] = 1;
    let mut left = g.cells() - 1;
    // Every id before `lo` is visited or a hole.
    let mut lo = 0usize;
    let ids = g.ids();
    while left > 0 {
        let k = slots_with(g, &s.mark, u, 0, &mut opts);
        if k > 0 {
            let slot = opts[rng.choose(k) as usize];
            u = g.nbr(slot);
            s.mark[u as usize] = 1;
            maze.open(g.edge(slot));
            left -= 1;
            continue;
        }
        // Hunt.
        while s.mark[ids[lo] as usize] != 0 {
            lo += 1;
        }
        let mut i = lo;
        loop {
            let c = ids[i];
            if s.mark[c as usize] == 0 {
                let k = slots_with(g, &s.mark, c, 1, &mut opts);
                if k > 0 {
                    let slot = opts[rng.choose(k) as usize];
                    s.mark[c as usize] = 1;
                    maze.open(g.edge(slot));
                    left -= 1;
                    u = c;
                    break;
                }
            }
            i += 1;
        }
    }
    s.next = opts;
}
