//! The metrics of a maze with loops (a braided maze): the same columns as on a tree, each with
//! a definition that is exact on any connected graph and equal to the tree definition when the
//! maze has no loop. [`super::measure`] takes this path only when the maze has more passages
//! than a tree (`loops > 0`), so perfect mazes keep the tree fast path.
//!
//! - Shortest paths are breadth-first searches. The **canonical shortest path** from the
//!   entrance to the exit is the chain of BFS parents from the exit back to the entrance, where
//!   a cell's parent is the first neighbour to reach it in a search from the entrance that
//!   visits neighbours in the order east, south, west, north (then down, up). `solution_turns`,
//!   `solution_decisions`, `solution_branches` and the branch columns are taken along it.
//! - `solution_count` counts every distinct shortest path (summed backwards from the exit over
//!   the steps of shortest paths, saturating at `u64::MAX`).
//! - `diameter` is exact: the pendant trees are peeled off (their heights become offsets of
//!   the 2-core's cells), then bounds on each core cell's eccentricity (Takes and Kosters,
//!   2011) drop the cells that cannot end a longer pair, and the fringe argument of iFUB
//!   (Crescenzi, Grossi, Habib, Lanzi, Marino, 2013) around a central cell ends the search; the
//!   searches run over the core with its corridors contracted (`skeleton`); see
//!   `Buffers::diameter`. `diameter_start`/`diameter_end` are a pair at that distance.
//! - `max_branch_cells`: the largest part of the maze, with the solution's cells removed, that
//!   touches a solution cell other than the exit (what lies behind a wrong turn).
//!   `max_branch_depth`: the largest distance from a cell to the solution path (entrance to the
//!   cell before the exit), over the cells reached from it without passing the exit. On a tree
//!   both are the tree definitions (a branch's cells; its depth from the path).
//! - `mean_dead_end_length`: the forced walk from each dead end through corridor cells up to the
//!   first cell that is not a corridor (with loops that is always a junction).
//! - `walk_steps` (the expected hitting time of a random walk) is a rational number on a graph
//!   with loops, not an integer: the column is NULL for such mazes and the field 0.

use super::degrees::Degrees;
use super::skeleton::Skeleton;
use super::{Ends, Metrics};
use crate::grid::Maze;

/// Not reached yet, in the distance buffers.
const UNSEEN: u32 = u32::MAX;

/// `f::<6>(args)` for a maze of six directions (`dirs == 6`), else `f::<4>(args)`: the one
/// dispatch of the searches generic over the directions.
macro_rules! by_dirs {
    ($dirs:expr, $($f:ident).+ ($($arg:expr),* $(,)?)) => {
        if $dirs == 6 {
            $($f).+::<6>($($arg),*)
        } else {
            $($f).+::<4>($($arg),*)
        }
    };
}

/// Buffers of the graph path, reused across mazes (only a braided maze touches them).
#[derive(Debug, Default)]
pub(super) struct Buffers {
    /// BFS distances (or component labels, or [`UNSEEN`]).
    dist: Vec<u32>,
    /// BFS order of the last search.
    queue: Vec<u32>,
    /// The leaf stack of the peel; the shortest-path cells of the counts; the fill queue of
    /// the branch columns.
    order: Vec<u32>,
    /// Cells seen by the branch columns' fills.
    level: Vec<u32>,
    /// Each cell's place in the order of the last [`Buffers::ordered_bfs`].
    pos: Vec<u32>,
    /// Shortest-path counts towards the exit (all zeros between mazes).
    count: Vec<u64>,
    /// The cells that may still end a longest pair (diameter), in cell order, each with its
    /// bounds kept beside it so that a pass over them reads one array in order (until the
    /// third search's pass, also the few the first two dropped: see
    /// [`tighten`]).
    cand: Vec<Candidate>,
    /// The walls of the 2-core (diameter; 0 for a cell of a pendant tree).
    core: Vec<u8>,
    /// The height of the pendant trees hanging off each core cell (diameter).
    height: Vec<u32>,
    /// The deepest cell hanging off each core cell (diameter).
    deep: Vec<u32>,
    /// The solution path, exit first.
    path: Vec<u32>,
    /// Cells on the walk from a dead end, its first step included ([`Buffers::peel`]).
    chain: Vec<u8>,
    /// The dead ends plus the corridor cells their forced walks pass, counted by
    /// [`Buffers::peel`] (exact when a 2-core is left: no walk then reaches another dead end).
    walks: u64,
    /// Directions of the maze being measured: 4 (planar) or 6.
    dirs: usize,
    /// Breadth-first searches run for the diameter of the last maze.
    pub(super) diameter_searches: u32,
    /// The core with its corridors contracted (diameter).
    skeleton: Skeleton,
}

impl Buffers {
    /// The solution of the last measurement, entrance first.
    pub(super) fn solution_path(&self) -> Vec<u32> {
        self.path.iter().rev().copied().collect()
    }
}

/// Cell offsets of the six directions (E, S, W, N, Down, Up), as wrapping additions.
fn offsets(maze: &Maze) -> [u32; 6] {
    let (w, l) = (maze.width(), maze.size().layer_cells());
    [
        1,
        w,
        1u32.wrapping_neg(),
        w.wrapping_neg(),
        l,
        l.wrapping_neg(),
    ]
}

impl Buffers {
    fn grow(&mut self, n: usize) {
        if self.dist.len() < n + 6 {
            for v in [
                &mut self.dist,
                &mut self.queue,
                &mut self.order,
                &mut self.level,
                &mut self.pos,
                &mut self.height,
                &mut self.deep,
            ] {
                v.resize(n, 0);
            }
            self.core.resize(n, 0);
            self.chain.resize(n, 0);
            // Six slots past the cells: `flat_search`'s closed walls.
            self.dist.resize(n + 6, 0);
            self.count.resize(n, 0);
            // Past the cells: `branches_off`'s parts (closed walls) and its fill queue.
            self.level.resize(n + 6, 0);
            self.order.resize(n + 1, 0);
            // One slot past the last cell: `flat_search` writes a candidate there unconditionally.
            self.queue.resize(n + 1, 0);
        }
    }

    /// A BFS from `root` filling `dist` and `queue` only ([`flat_search`] over `masks`).
    /// Returns the number of cells reached.
    fn flat_bfs<const D: usize>(
        &mut self,
        masks: &[u8],
        off: &[u32; 6],
        n: usize,
        root: u32,
    ) -> usize {
        flat_search::<D>(
            masks,
            off,
            n,
            root,
            &mut self.dist,
            &mut self.queue,
            |_, _| {},
        )
    }

    /// [`Self::flat_bfs`] for the maze's directions (`dirs`, 4 or 6).
    fn distances(&mut self, masks: &[u8], off: &[u32; 6], n: usize, root: u32) -> usize {
        by_dirs!(self.dirs, self.flat_bfs(masks, off, n, root))
    }

    /// A BFS from `root` filling `dist`, `queue` and each cell's place in the search's order
    /// (`pos`). Returns the number of cells reached.
    fn ordered_bfs(&mut self, masks: &[u8], off: &[u32; 6], n: usize, root: u32) -> usize {
        by_dirs!(self.dirs, self.ordered_bfs_in(masks, off, n, root))
    }

    /// [`Self::ordered_bfs`] for `D` directions.
    fn ordered_bfs_in<const D: usize>(
        &mut self,
        masks: &[u8],
        off: &[u32; 6],
        n: usize,
        root: u32,
    ) -> usize {
        let pos = &mut self.pos[..n];
        let mut at = 0;
        flat_search::<D>(
            masks,
            off,
            n,
            root,
            &mut self.dist,
            &mut self.queue,
            |v, _| {
                pos[v as usize] = at;
                at += 1;
            },
        )
    }

    /// The canonical shortest path from `entrance` to `exit` into `path` (exit first) and the
    /// number of shortest paths (saturating at `u64::MAX`), after [`Self::ordered_bfs`] from
    /// `entrance`.
    ///
    /// A cell's canonical parent is the first neighbour the search took out of its queue: that
    /// neighbour reached it first. The paths are counted backwards over the shortest-path
    /// steps from the exit, level by level (each cell's count is the sum of its successors'),
    /// so only the cells on some shortest path are visited; a saturating sum of counts is the
    /// true count capped at `u64::MAX`, in either direction.
    fn solution(&mut self, masks: &[u8], off: &[u32; 6], entrance: u32, exit: u32) -> u64 {
        let (dist, pos) = (&self.dist, &self.pos);
        self.path.clear();
        let mut x = exit;
        self.path.push(x);
        while x != entrance {
            let (mut best, mut parent) = (u32::MAX, x);
            let mut m = masks[x as usize] as u32;
            while m != 0 {
                let u = x.wrapping_add(off[m.trailing_zeros() as usize]);
                m &= m - 1;
                if pos[u as usize] < best {
                    (best, parent) = (pos[u as usize], u);
                }
            }
            x = parent;
            self.path.push(x);
        }
        // `count` is all zeros between calls: 0 marks a cell not met yet.
        let (count, list) = (&mut self.count, &mut self.order);
        count[exit as usize] = 1;
        list[0] = exit;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let x = list[head];
            head += 1;
            let (dx, cx) = (dist[x as usize], count[x as usize]);
            let mut m = masks[x as usize] as u32;
            while m != 0 {
                let u = x.wrapping_add(off[m.trailing_zeros() as usize]) as usize;
                m &= m - 1;
                if dist[u].wrapping_add(1) == dx {
                    if count[u] == 0 {
                        list[tail] = u as u32;
                        tail += 1;
                    }
                    count[u] = count[u].saturating_add(cx);
                }
            }
        }
        let paths = count[entrance as usize];
        for &c in &list[..tail] {
            count[c as usize] = 0;
        }
        paths
    }

    /// Peel the pendant trees off the maze (`masks`, `n` grid cells): every cell of degree 1
    /// is removed, leaf by leaf, until the 2-core is left. Afterwards `core` holds the walls of
    /// the 2-core (0 for a peeled cell), `height[r]` the depth of the deepest cell hanging off
    /// core cell `r` (0 when none) and `deep[r]` that cell (`r` itself when none). Returns the
    /// longest distance between two cells of one hanging tree (its root included) and a pair
    /// at that distance: those pairs never pass through the rest of the core. On the way it
    /// counts the dead ends' forced walks into `walks` (a corridor cell peeled into from a
    /// walk's last cell is the walk's next cell).
    fn peel(&mut self, masks: &[u8], off: &[u32; 6], n: usize) -> (u32, u32, u32) {
        let core = &mut self.core[..n];
        core.copy_from_slice(&masks[..n]);
        let (height, deep) = (&mut self.height[..n], &mut self.deep[..n]);
        height.fill(0);
        for (c, d) in deep.iter_mut().enumerate() {
            *d = c as u32;
        }
        let stack = &mut self.order[..n];
        let chain = &mut self.chain[..n];
        let mut top = 0;
        for (c, &m) in core.iter().enumerate() {
            stack[top] = c as u32;
            let leaf = m.count_ones() == 1;
            top += leaf as usize;
            chain[c] = leaf as u8;
        }
        // The dead ends, then each corridor cell a walk from one passes.
        let mut walks = top as u64;
        let mut best = (0, 0, 0);
        while top > 0 {
            top -= 1;
            let v = stack[top] as usize;
            let m = core[v];
            if m == 0 {
                continue;
            }
            // The one wall left leads to the parent; clear it on both sides.
            let d = m.trailing_zeros() as usize;
            let p = (v as u32).wrapping_add(off[d]) as usize;
            core[v] = 0;
            core[p] &= !(1u8 << super::opposite(d));
            // A corridor cell peeled into from a dead end's walk continues that walk.
            let walk = chain[v] & (masks[p].count_ones() == 2) as u8;
            chain[p] |= walk;
            walks += walk as u64;
            let below = height[v] + 1;
            if height[p] + below > best.0 {
                best = (height[p] + below, deep[p], deep[v]);
            }
            if below > height[p] {
                height[p] = below;
                deep[p] = deep[v];
            }
            stack[top] = p as u32;
            top += (core[p].count_ones() == 1) as usize;
        }
        self.walks = walks;
        best
    }

    /// The exact diameter and a farthest pair. `dist` holds the distances from `a`, a cell of
    /// the maze (the entrance's search): the first search starts from the tip farthest from it.
    ///
    /// The pendant trees come off first ([`Self::peel`]): a pair of cells in different hanging
    /// trees (or on the core) is at most `height[r] + d(r, s) + height[s]` apart for their core
    /// cells `r` and `s`, with equality for the deepest cells `deep[r]` and `deep[s]`. So the
    /// diameter is the larger of the longest pair inside one hanging tree and the diameter of
    /// the *tips* of the core: one tip per core cell, `deep[r]`, at the distance
    /// `D(r, s) = height[r] + d(r, s) + height[s]` (`D(r, r) = 0`), a metric on the core cells.
    /// Searches run on the core only (`core`'s walls), which on a lightly braided maze is a
    /// small part of it, and over its corridors contracted ([`Skeleton`]): the distances are a
    /// breadth-first search's, and when several tips are farthest, a breadth-first search over
    /// the core picks the first of them in its order.
    ///
    /// Bounds on eccentricities (Takes and Kosters, 2011) hold in any metric: a search from
    /// `v`, of eccentricity `e`, bounds every tip `w` at distance `d` from it by
    /// `max(d, e − d) ≤ ecc(w) ≤ e + d`; a tip whose upper bound is at most the longest
    /// distance found so far cannot end a longer pair and leaves the candidates. A fringe stop
    /// (as in iFUB): with `u` a central tip, a pair farther apart than `best` has an end
    /// farther than `best / 2` from `u`, and both its ends are candidates; so once every
    /// candidate within that fringe has been searched from, `best` is the diameter.
    ///
    /// The searches start from the tip farthest from the cell of `dist`, then from the
    /// candidate with the largest upper bound (a far end of it), then from the one with the
    /// smallest lower bound (`u`, the middle of that sweep), then from the fringe candidates by
    /// decreasing upper bound (`diameter_searches_on_braided_mazes` counts them).
    fn diameter(&mut self, masks: &[u8], off: &[u32; 6], n: usize, a: u32) -> (u32, u32, u32) {
        by_dirs!(self.dirs, self.diameter_in(masks, off, n, a))
    }

    /// [`Self::diameter`] for `D` directions (4 or 6).
    fn diameter_in<const D: usize>(
        &mut self,
        masks: &[u8],
        off: &[u32; 6],
        n: usize,
        a: u32,
    ) -> (u32, u32, u32) {
        let mut best = self.peel(masks, off, n);
        self.cand.clear();
        let mut v = UNSEEN;
        let mut start = 0u32;
        self.skeleton.build::<D>(&self.core, off, &self.height, n);
        for c in 0..n {
            if self.core[c] != 0 {
                let height = self.height[c];
                self.cand.push(Candidate::new(
                    c as u32,
                    height,
                    self.skeleton.slot(c as u32),
                ));
                let far = self.dist[c].saturating_add(height);
                if v == UNSEEN || far > start {
                    (v, start) = (c as u32, far);
                }
            }
        }
        if v == UNSEEN {
            // A tree: nothing but hanging trees (what the tree pass measures; tests only).
            self.diameter_searches = 0;
            return if best.0 == 0 { (0, a, a) } else { best };
        }
        if best.0 == 0 {
            best = (0, v, v);
        }
        self.diameter_searches = 0;
        loop {
            self.diameter_searches += 1;
            let step = self.diameter_searches;
            // The eccentricity of `v`'s tip: the farthest other tip.
            let hv = self.height[v as usize];
            let e = self.skeleton.search::<D>(v) + hv;
            if e > best.0 {
                // The first cell in a breadth-first search's order to reach it.
                let (ties, mut far) = self.skeleton.farthest(e - hv);
                if ties > 1 {
                    let (bfs_e, bfs_far) = self.core_bfs::<D>(off, n, v);
                    debug_assert_eq!(bfs_e, e - hv);
                    far = bfs_far;
                }
                best = (e, self.deep[v as usize], self.deep[far as usize]);
            }
            let (kept, next) = tighten(step, &mut self.cand, self.skeleton.dist(), hv, e, best.0);
            self.cand.truncate(kept);
            if kept == 0 || next == NONE {
                return best;
            }
            v = next;
        }
    }

    /// A BFS over the 2-core (`core`'s walls, after [`Self::peel`]) from `root` that also
    /// finds the root tip's farthest other tip on the way: returns the largest
    /// `dist + height` over the other cells and the first cell in BFS order to reach it (the
    /// root itself when there is no other).
    fn core_bfs<const D: usize>(&mut self, off: &[u32; 6], n: usize, root: u32) -> (u32, u32) {
        let height = &self.height[..n];
        let (mut e, mut far) = (0u32, root);
        flat_search::<D>(
            &self.core,
            off,
            n,
            root,
            &mut self.dist,
            &mut self.queue,
            |v, dv| {
                // Only the root is at 0: its own tip is not another tip.
                let t = if dv == 0 { 0 } else { dv + height[v as usize] };
                let better = t > e;
                e = if better { t } else { e };
                far = if better { v } else { far };
            },
        );
        (e, far)
    }
}

/// No next root, in what [`tighten`] returns.
pub(crate) const NONE: u32 = u32::MAX;

/// A core cell that may still end a longest pair, with what the passes over the candidates
/// read of it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate {
    /// The cell.
    pub(crate) cell: u32,
    /// The height of the pendant trees hanging off it.
    pub(crate) height: u32,
    /// Lower bound of its tip's eccentricity.
    pub(crate) lo: u32,
    /// Upper bound of its tip's eccentricity.
    pub(crate) hi: u32,
    /// Its tip's distance from the central tip (0 for the central cell itself, and before the
    /// central cell is known).
    pub(crate) ring: u32,
    /// Where a search's distances hold it: its slot in the [`Skeleton`] here, its cell on the
    /// other grids.
    pub(crate) at: u32,
}

impl Candidate {
    /// A candidate before any search: no bounds yet.
    pub(crate) fn new(cell: u32, height: u32, at: u32) -> Self {
        Candidate {
            cell,
            height,
            lo: 0,
            hi: u32::MAX,
            ring: 0,
            at,
        }
    }
}

/// [`tighten_in`] after the first search (from the tip farthest from the cell the entrance's
/// search started at): `top` is wanted, every candidate is in the fringe.
const FIRST: u8 = 0;
/// [`tighten_in`] after the second search: `low` is wanted.
const SECOND: u8 = 1;
/// [`tighten_in`] after the search from the central tip: its distances become the rings.
const CENTRAL: u8 = 2;
/// [`tighten_in`] after a search from a fringe candidate.
const FRINGE: u8 = 3;

/// The pass over the candidates after search number `step` (from 1), from the tip of a root
/// of height `hv` and eccentricity `e` (`dist` the search's distances, read at each
/// candidate's `at`, 0 only at the root's own), with `best` the longest distance found so far:
/// tightens each candidate's bounds and returns how many candidates are left (the list is to be
/// truncated to that) and the next root, [`NONE`] for none: after the second search `low`, the
/// candidate with the smallest (lower, upper) bounds, else `top`, the fringe candidate with the
/// largest (upper, lower) bounds; each the first in list order among equals. The fringe is
/// every candidate until the third search, which is from the central tip; then the candidates
/// farther than `best / 2` from it. The other grids' diameter (`crate::topo::measure_graph`,
/// distances per cell) runs the same passes.
pub(crate) fn tighten(
    step: u32,
    cand: &mut [Candidate],
    dist: &[u32],
    hv: u32,
    e: u32,
    best: u32,
) -> (usize, u32) {
    let pass = match step {
        1 => tighten_in::<FIRST>,
        2 => tighten_in::<SECOND>,
        3 => tighten_in::<CENTRAL>,
        _ => tighten_in::<FRINGE>,
    };
    pass(cand, dist, hv, e, best)
}

/// [`tighten`] for one kind of step.
///
/// A candidate whose upper bound is at most `best` is dropped. After the first two searches,
/// which drop few, it stays in the list: its upper bound never rises and `best` never falls,
/// so it is never chosen, and the third pass drops it. That pass and the later ones keep the
/// candidates left in order at the front, without a branch: each is written to the next kept
/// place, which moves on only when it stays. The choices are selects on packed
/// (bound, bound) keys.
#[inline(always)]
fn tighten_in<const MODE: u8>(
    cand: &mut [Candidate],
    dist: &[u32],
    hv: u32,
    e: u32,
    best: u32,
) -> (usize, u32) {
    let (mut top_key, mut top) = (0u64, NONE);
    let (mut low_key, mut low) = ((NONE as u64) << 32, NONE);
    let mut kept = 0;
    for i in 0..cand.len() {
        let mut k = cand[i];
        let ds = dist[k.at as usize];
        let d = if ds == 0 { 0 } else { hv + ds + k.height };
        let h = k.hi.min(e + d);
        let l = k.lo.max(d.max(e - d));
        k.hi = h;
        k.lo = l;
        if MODE == CENTRAL {
            k.ring = d;
        }
        let alive = h > best;
        if MODE == FIRST || MODE == SECOND {
            cand[i] = k;
        } else {
            cand[kept] = k;
        }
        kept += alive as usize;
        if MODE == SECOND {
            let lk = (l as u64) << 32 | h as u64;
            let down = alive & (lk < low_key);
            low_key = if down { lk } else { low_key };
            low = if down { k.cell } else { low };
        } else {
            // The central cell's ring is 0: never in the fringe.
            let fringe = MODE == FIRST || 2 * k.ring > best;
            let tk = (h as u64) << 32 | l as u64;
            let up = alive & fringe & (tk > top_key);
            top_key = if up { tk } else { top_key };
            top = if up { k.cell } else { top };
        }
    }
    if MODE == FIRST || MODE == SECOND {
        // Nothing was moved: the list stays whole.
        kept = if kept == 0 { 0 } else { cand.len() };
    }
    (kept, if MODE == SECOND { low } else { top })
}

/// A BFS from `root` over the walls `walls` (`n` cells, `D` directions: 4 or 6) filling `dist`
/// and `queue`, calling `visit(cell, dist)` for each cell as it leaves the queue, without a
/// branch on the walls or on what was seen: a closed wall in direction `d` points at the slot
/// `n + d` past the cells, always seen, and every neighbour is written to the queue's next
/// slot, which moves on only for a new cell. (One slot per direction, not the cell itself:
/// the loads of a cell's neighbours then never wait on the store of the direction before.)
/// Returns the number of cells reached.
#[inline(always)]
fn flat_search<const D: usize>(
    walls: &[u8],
    off: &[u32; 6],
    n: usize,
    root: u32,
    dist: &mut [u32],
    queue: &mut [u32],
    visit: impl FnMut(u32, u32),
) -> usize {
    let dist = &mut dist[..n + 6];
    dist[..n].fill(UNSEEN);
    dist[n..].fill(0);
    dist[root as usize] = 0;
    queue[0] = root;
    spread::<D>(walls, off, n, dist, queue, 0, 1, visit)
}

/// The loop of [`flat_search`] from a queue already holding `queue[head..tail]` (their
/// distances set, every cell not to enter marked seen, the slots `n..n + 6` seen): runs the
/// search to its end and returns the new `tail`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn spread<const D: usize>(
    walls: &[u8],
    off: &[u32; 6],
    n: usize,
    dist: &mut [u32],
    queue: &mut [u32],
    mut head: usize,
    mut tail: usize,
    mut visit: impl FnMut(u32, u32),
) -> usize {
    let (walls, dist, queue) = (&walls[..n], &mut dist[..n + 6], &mut queue[..n + 1]);
    while head < tail {
        let v = queue[head];
        head += 1;
        let dv = dist[v as usize];
        visit(v, dv);
        let m = walls[v as usize] as u32;
        for (d, &o) in off.iter().enumerate().take(D) {
            // All ones for an open wall, else zero: a select, not a branch.
            let open = 0u32.wrapping_sub(m >> d & 1);
            let u = (v.wrapping_add(o) & open | (n + d) as u32 & !open) as usize;
            let fresh = dist[u] == UNSEEN;
            dist[u] = if fresh { dv + 1 } else { dist[u] };
            queue[tail] = u as u32;
            tail += fresh as usize;
        }
    }
    tail
}

/// Measure a connected maze with `loops > 0` extra passages, given its degree pass (`deg`,
/// `masks`). Panics if the maze is not connected.
pub(super) fn measure(
    maze: &Maze,
    ends: Ends,
    deg: Degrees,
    masks: &[u8],
    loops: u32,
    g: &mut Buffers,
) -> Metrics {
    // `n` grid cells index the buffers; `cells` of them are the maze's (the mask's, with one).
    let n = maze.cells() as usize;
    let cells = maze.tree_cells() as usize;
    g.grow(n);
    g.dirs = if maze.depth() > 1 { 6 } else { 4 };
    let off = offsets(maze);

    // The solution: BFS from the entrance, then the canonical path and the path counts (with
    // fixed ends, the same search shows the maze connected and picks the diameter's first
    // cell, so the solution is taken before the diameter's searches reuse its buffers).
    let (entrance, exit, diameter, length, solution_count) = match ends {
        Ends::Cells { entrance, exit } => {
            let reached = g.ordered_bfs(masks, &off, n, entrance);
            assert_eq!(reached, cells, "measure: the maze is not connected");
            let length = g.dist[exit as usize];
            let count = g.solution(masks, &off, entrance, exit);
            let d = g.diameter(masks, &off, n, entrance);
            (entrance, exit, d, length, count)
        }
        Ends::Diameter => {
            let reached = g.distances(masks, &off, n, maze.first_cell());
            assert_eq!(reached, cells, "measure: the maze is not connected");
            let d = g.diameter(masks, &off, n, maze.first_cell());
            g.ordered_bfs(masks, &off, n, d.1);
            let count = g.solution(masks, &off, d.1, d.2);
            (d.1, d.2, d, d.0, count)
        }
    };
    let (mut turns, mut last) = (0u32, 0u32);
    for pair in g.path.windows(2) {
        let step = pair[1].wrapping_sub(pair[0]);
        turns += (last != 0 && step != last) as u32;
        last = step;
    }
    // Off-path openings: a shortest path is induced, so a path cell's path neighbours are
    // exactly its predecessor and successor.
    let (mut decisions, mut branches) = (0u32, 0u32);
    for (j, &c) in g.path.iter().enumerate().skip(1) {
        let on = if j + 1 == g.path.len() { 1 } else { 2 };
        let off_path = (masks[c as usize] as u32).count_ones() - on;
        branches += off_path;
        decisions += (off_path > 0) as u32;
    }

    let (max_cells, max_depth) = branches_off(g, masks, &off, n);

    Metrics {
        diameter: diameter.0,
        diameter_start: diameter.1,
        diameter_end: diameter.2,
        solution_length: length,
        solution_turns: turns,
        solution_decisions: decisions,
        solution_branches: branches,
        max_branch_cells: max_cells,
        max_branch_depth: max_depth,
        mean_dead_end_length: if g.diameter_searches == 0 {
            // No 2-core (a tree; tests only): walks may meet, so take them one by one.
            mean_dead_end_length(masks, &off, n, deg.dead_ends)
        } else if deg.dead_ends == 0 {
            0.0
        } else {
            g.walks as f64 / deg.dead_ends as f64
        },
        tortuosity: tortuosity(maze, entrance, exit, length),
        loops,
        solution_count,
        ..Metrics::from_degrees(&deg, maze, cells)
    }
}

/// `max_branch_cells` and `max_branch_depth` for the solution in `g.path` (exit first). The
/// depth is a multi-source search from the path cells but the exit (the path cells are seen
/// from the start, so the exit blocks); the cells it reaches are exactly the parts that touch
/// a path cell but the exit, and each part holds a cell next to the path (at distance 1), from
/// which a second search over the part (the path, the exit and the parts not reached marked
/// seen) counts its cells.
fn branches_off(g: &mut Buffers, masks: &[u8], off: &[u32; 6], n: usize) -> (u32, u32) {
    if g.path.len() < 2 {
        return (0, 0);
    }
    by_dirs!(g.dirs, branches_in(g, masks, off, n))
}

/// [`branches_off`] for `D` directions.
fn branches_in<const D: usize>(
    g: &mut Buffers,
    masks: &[u8],
    off: &[u32; 6],
    n: usize,
) -> (u32, u32) {
    let dist = &mut g.dist[..n + 6];
    dist[..n].fill(UNSEEN);
    dist[n..].fill(0);
    let queue = &mut g.queue[..n + 1];
    dist[g.path[0] as usize] = 0;
    let mut tail = 0;
    for &c in &g.path[1..] {
        dist[c as usize] = 0;
        queue[tail] = c;
        tail += 1;
    }
    let sources = tail;
    let tail = spread::<D>(masks, off, n, dist, queue, 0, tail, |_, _| {});
    let depth = dist[queue[tail - 1] as usize];
    // The parts: the reached cells off the path are free, everything else seen.
    let part = &mut g.level[..n + 6];
    for (p, &d) in part.iter_mut().zip(dist.iter()) {
        *p = if d == 0 || d == UNSEEN { 0 } else { UNSEEN };
    }
    let fill = &mut g.order[..n + 1];
    let mut cells = 0;
    for &c in queue[sources..tail]
        .iter()
        .take_while(|&&c| dist[c as usize] == 1)
    {
        if part[c as usize] == UNSEEN {
            part[c as usize] = 0;
            fill[0] = c;
            cells = cells.max(spread::<D>(masks, off, n, part, fill, 0, 1, |_, _| {}));
        }
    }
    (cells as u32, depth)
}

/// The mean forced-walk length from a dead end to the first cell that is not a corridor.
fn mean_dead_end_length(masks: &[u8], off: &[u32; 6], n: usize, dead_ends: u32) -> f64 {
    if dead_ends == 0 {
        return 0.0;
    }
    let mut sum = 0u64;
    for (c, &m) in masks[..n].iter().enumerate() {
        if m.count_ones() != 1 {
            continue;
        }
        let (mut prev, mut cur) = (
            c as u32,
            (c as u32).wrapping_add(off[m.trailing_zeros() as usize]),
        );
        sum += 1;
        while masks[cur as usize].count_ones() == 2 {
            let mut k = masks[cur as usize] as u32;
            let mut next = cur;
            while k != 0 {
                let u = cur.wrapping_add(off[k.trailing_zeros() as usize]);
                k &= k - 1;
                if u != prev {
                    next = u;
                }
            }
            prev = cur;
            cur = next;
            sum += 1;
        }
    }
    sum as f64 / dead_ends as f64
}

/// `solution_length` over the Manhattan distance between the ends (1 when they coincide).
fn tortuosity(maze: &Maze, entrance: u32, exit: u32, length: u32) -> f64 {
    let manhattan = super::manhattan_3d(maze.size(), entrance, exit);
    if manhattan == 0 {
        1.0
    } else {
        length as f64 / manhattan as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate_seeded, Algorithm, Scratch as GenScratch};
    use crate::grid::Size;

    /// The diameter and a farthest pair of `m` from every entrance (each gives the search
    /// another first cell); the pair is checked to lie that far apart, and the diameter to be
    /// the largest distance of a BFS from every cell.
    fn diameters(m: &Maze) -> Vec<u32> {
        let mut s = super::super::Scratch::new();
        let n = m.cells();
        let off = offsets(m);
        let mut brute = None;
        (0..n)
            .map(|c| {
                let got = super::super::measure(m, Ends::cells(c, c), &mut s);
                assert!(got.loops > 0);
                let g = &mut s.graph;
                let want = *brute.get_or_insert_with(|| {
                    (0..n)
                        .map(|r| {
                            g.distances(&s.masks, &off, n as usize, r);
                            g.dist[..n as usize].iter().copied().max().unwrap()
                        })
                        .max()
                        .unwrap()
                });
                assert_eq!(got.diameter, want, "first cell {c}");
                g.distances(&s.masks, &off, n as usize, got.diameter_start);
                assert_eq!(g.dist[got.diameter_end as usize], got.diameter);
                got.diameter
            })
            .collect()
    }

    /// A `k`×2 maze whose passages are the outer ring: a cycle of `2k` cells.
    fn ring(k: u32, rows: u32) -> Maze {
        let mut m = Maze::new(k, rows);
        for x in 0..k - 1 {
            m.carve_east(x);
            m.carve_east(k + x);
        }
        m.carve_south(0);
        m.carve_south(k - 1);
        m
    }

    #[test]
    fn diameter_on_hand_made_graphs() {
        for k in 2..9 {
            // A cycle of 2k cells: k.
            assert!(diameters(&ring(k, 2)).iter().all(|&d| d == k), "ring {k}");
            // A ladder (every wall of k×2 open): k.
            let mut m = Maze::new(k, 2);
            m.open_all();
            assert!(diameters(&m).iter().all(|&d| d == k), "ladder {k}");
            // A cycle of 2k cells with a tail of k cells: 2k.
            let mut m = ring(k, 3);
            m.carve_south(k);
            for x in 0..k - 1 {
                m.carve_east(2 * k + x);
            }
            assert!(diameters(&m).iter().all(|&d| d == 2 * k), "tail {k}");
        }
        // Open grids: w + h − 2, also in 3D (w + h + d − 3).
        for (w, h) in [(2, 2), (3, 5), (9, 4), (16, 16)] {
            let mut m = Maze::new(w, h);
            m.open_all();
            assert!(diameters(&m).iter().all(|&d| d == w + h - 2), "{w}x{h}");
        }
        let mut m = Maze::with_size(Size::new(3, 4, 2));
        m.open_all();
        assert!(diameters(&m).iter().all(|&d| d == 3 + 4 + 2 - 3));
    }

    /// A ring of 16 cells with a chord from cell 3 to cell 11: the chord's ends are at most 5
    /// from every cell, so every farthest pair (8 apart) joins two corridor cells.
    #[test]
    fn the_farthest_pair_can_join_two_corridor_cells() {
        let mut m = ring(8, 2);
        m.carve_south(3);
        assert!(diameters(&m).iter().all(|&d| d == 8));
        let mut s = super::super::Scratch::new();
        for c in 0..m.cells() {
            let got = super::super::measure(&m, Ends::cells(c, c), &mut s);
            for end in [got.diameter_start, got.diameter_end] {
                assert!(end != 3 && end != 11, "first cell {c}: {got:?}");
            }
        }
    }

    /// The skeleton's searches give a breadth-first search's distances over the core, from
    /// every core cell (nodes and inner cells, self-loop chains and one-cycle cores included),
    /// and the same farthest `dist + height`.
    #[test]
    fn skeleton_distances_are_the_core_searches() {
        let (mut gen, mut braid) = (GenScratch::new(), crate::braid::Scratch::new());
        let mut s = super::super::Scratch::new();
        let mut roots = 0;
        for (k, size) in [
            Size::planar(2, 2),
            Size::planar(6, 5),
            Size::planar(17, 9),
            Size::planar(30, 2),
            Size::new(4, 3, 3),
        ]
        .into_iter()
        .enumerate()
        {
            for p in [0.1, 0.5, 1.0] {
                for seed in 0..4u64 {
                    let mut m = Maze::with_size(size);
                    let seed = 100 * k as u64 + 10 * seed + (p * 4.0) as u64;
                    generate_seeded(&Algorithm::Wilson, &mut m, &mut gen, seed);
                    crate::braid::braid_seeded(
                        &mut m,
                        crate::rng::Chance::new(p),
                        seed,
                        &mut braid,
                    );
                    if super::super::measure(&m, Ends::first_last(size), &mut s).loops == 0 {
                        continue;
                    }
                    let g = &mut s.graph;
                    let n = m.cells() as usize;
                    let off = offsets(&m);
                    for r in 0..n as u32 {
                        if g.core[r as usize] == 0 {
                            continue;
                        }
                        roots += 1;
                        let e = by_dirs!(g.dirs, g.skeleton.search(r));
                        let (want, _) = by_dirs!(g.dirs, g.core_bfs(&off, n, r));
                        assert_eq!(e, want, "{size} seed {seed} root {r}");
                        for c in 0..n {
                            if g.core[c] != 0 {
                                let slot = g.skeleton.slot(c as u32) as usize;
                                assert_eq!(
                                    g.skeleton.dist()[slot],
                                    g.dist[c],
                                    "{size} {seed} {r} {c}"
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(roots > 1000, "{roots} roots");
    }

    /// The searches the diameter needs on 64×64 braided Wilson mazes (50 fixed seeds per
    /// chance): on average at most 16 (13, 11 and 10 measured at P = 0.1, 0.5, 1).
    #[test]
    fn diameter_searches_on_braided_mazes() {
        let mut s = super::super::Scratch::new();
        let (mut gen, mut braid) = (GenScratch::new(), crate::braid::Scratch::new());
        for p in [0.1, 0.5, 1.0] {
            let mut total = 0;
            for seed in 0..50u64 {
                let mut m = Maze::new(64, 64);
                generate_seeded(&Algorithm::Wilson, &mut m, &mut gen, seed);
                crate::braid::braid_seeded(&mut m, crate::rng::Chance::new(p), seed, &mut braid);
                super::super::measure(&m, Ends::first_last(m.size()), &mut s);
                total += s.graph.diameter_searches;
            }

            assert!(
                total <= 16 * 50,
                "P = {p}: {} searches per maze",
                total / 50
            );
        }
    }

    /// Random braided mazes, planar and 3D, at several braid chances: from every first cell
    /// the diameter is the largest distance of a BFS from every cell, and its pair lies that
    /// far apart ([`diameters`]).
    #[test]
    fn diameter_is_the_all_pairs_maximum_on_random_braided_mazes() {
        let (mut gen, mut braid) = (GenScratch::new(), crate::braid::Scratch::new());
        let mut s = super::super::Scratch::new();
        let mut measured = 0;
        for (k, size) in [
            Size::planar(9, 7),
            Size::planar(12, 12),
            Size::planar(20, 3),
            Size::new(4, 3, 3),
            Size::new(3, 5, 2),
        ]
        .into_iter()
        .enumerate()
        {
            let algos = if size.is_3d() {
                Algorithm::all_3d()
            } else {
                Algorithm::all()
            };
            for (a, algo) in algos.iter().enumerate() {
                for p in [0.05, 0.3, 0.5, 1.0] {
                    let seed = 1000 * k as u64 + 10 * a as u64 + (p * 4.0) as u64;
                    let mut m = Maze::with_size(size);
                    generate_seeded(algo, &mut m, &mut gen, seed);
                    crate::braid::braid_seeded(
                        &mut m,
                        crate::rng::Chance::new(p),
                        seed,
                        &mut braid,
                    );
                    if super::super::measure(&m, Ends::first_last(size), &mut s).loops > 0 {
                        diameters(&m);
                        measured += 1;
                    }
                }
            }
        }
        assert!(measured > 100, "{measured} braided mazes");
    }

    /// On a perfect maze the graph pass gives the tree pass's values (its own choice of a
    /// farthest pair aside, and `walk_steps`, which it leaves to the tree pass).
    #[test]
    fn on_trees_the_graph_pass_is_the_tree_pass() {
        let mut s = super::super::Scratch::new();
        let mut g = Buffers::default();
        for (k, size) in [
            Size::planar(1, 1),
            Size::planar(1, 6),
            Size::planar(7, 1),
            Size::planar(5, 5),
            Size::planar(16, 9),
            Size::planar(33, 33),
            Size::new(4, 3, 3),
        ]
        .into_iter()
        .enumerate()
        {
            let algo = if size.is_3d() {
                Algorithm::Backtracker
            } else {
                Algorithm::Wilson
            };
            for seed in 0..6u64 {
                let mut m = Maze::with_size(size);
                generate_seeded(&algo, &mut m, &mut GenScratch::new(), seed + 100 * k as u64);
                for ends in [Ends::first_last(size), Ends::Diameter] {
                    let tree = super::super::measure(&m, ends, &mut s);
                    let deg = if size.is_3d() {
                        super::super::degrees::prepare_3d(&m, &mut s.masks)
                    } else {
                        super::super::degrees::prepare(&m, &mut s.masks)
                    };
                    let graph = measure(&m, ends, deg, &s.masks, 0, &mut g);
                    assert_eq!(graph.solution_count, 1);
                    assert_eq!(graph.diameter, tree.diameter, "{size} {seed}");
                    assert_eq!(graph.solution_length, tree.solution_length);
                    if ends == Ends::Diameter {
                        // Another farthest pair is another (equally long) solution.
                        continue;
                    }
                    // The graph pass may pick another farthest pair; `walk_steps` is the tree's.
                    let want = Metrics {
                        walk_steps: tree.walk_steps,
                        diameter_start: tree.diameter_start,
                        diameter_end: tree.diameter_end,
                        ..graph
                    };
                    assert_eq!(want, tree, "{size} seed {seed}");
                }
            }
        }
    }
}
