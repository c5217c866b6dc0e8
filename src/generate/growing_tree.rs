//! Growing tree: keep a list of active cells; pick one by the [`Policy`], carve to a random
//! unvisited neighbour and add it to the list, or retire the picked cell when it has none.
//! `newest` behaves like the backtracker, `random` like Prim, `oldest` grows long straight
//! spokes from the start, `mix:P` takes the newest with probability `P`, otherwise a random one.
//!
//! Written once for 2D and 3D grids ([`Topology`]). Choices: the start cell is uniform
//! (`below(cells)`, one division per maze for its padded index); neighbour choice is an
//! unbiased `below(k)` over the unvisited neighbours listed in direction order (east, south,
//! west, north, then down, up in 3D; no draw when there is one). Retiring a cell from the
//! middle of the list must keep the order (`newest` in a mix means the most recently added
//! live cell), and removing from the middle of a `Vec` is linear, so retirement is lazy: the
//! cell is marked [`RETIRED`] in `mark`, retired entries are skipped at the ends
//! (newest/oldest) or rejected and redrawn (random, which keeps the pick uniform over live
//! cells), and the list is compacted in order once retired entries outnumber live ones.
//! Everything stays amortised O(1) per cell. `newest`, `oldest` and `random` draw only with
//! `below`; `mix:P` also draws `unit_f64` (sampled, not enumerable). `mix:P` runs its own
//! branch-free loop with the same draws ([`mix`]).
//!
//! Speed: cells live on padded byte arrays of the topology (the padding, and a mask's holes,
//! outside), list entries carry the padded index next to the cell id, a cell's free neighbours
//! are one byte that joining cells clear bits of ([`Topology::free_masks`],
//! [`Topology::visit`]), and walls are opened through per-direction wall-id steps
//! ([`Topology::wall`]), so the loop has no coordinate arithmetic and no border tests.

use super::padded::{random_cell, IN_TREE as VISITED};
use super::shared::{free_option, free_options};
use super::topology::{marks_and_free_masks, Topology};
use super::{Policy, Scratch};
use crate::grid::Maze;
use crate::rng::RandomSource;

/// In the list (a maze cell that may still have unvisited neighbours).
const ACTIVE: u8 = VISITED;
/// Taken out of the list (lazily: its entry stays until skipped or compacted away).
const RETIRED: u8 = 3;

mod mix;

/// The padded index of a list entry (`padded << 32 | cell`).
#[inline]
fn padded(e: u64) -> usize {
    (e >> 32) as usize
}

/// Make `buf` hold at least `len` zeroed entries: a fresh zeroed allocation, not `resize`, as
/// large ones come as untouched zero pages, so memory is only taken as the list grows into it
/// (as a `Vec` would).
#[inline]
fn at_least<T: Copy + Default>(buf: &mut Vec<T>, len: usize) {
    if buf.len() < len {
        *buf = vec![T::default(); len];
    }
}

/// The active list's bookkeeping with lazy retirement: entries
/// (`padded << 32 | cell`) live in a buffer of `Scratch::stack` with their own length (every
/// cell enters the list once, so [`Active::start`] sizes it to the cell count once and it never
/// grows), retired ones are marked [`RETIRED`] in `Scratch::mark` and skipped, rejected or
/// compacted away. A plain slice and a length in a register, not a `Vec` reached through
/// `&mut Scratch`, whose pointer and length the compiler reloaded after every store.
struct Active {
    /// Entries before `head` are retired.
    head: usize,
    /// Entries in the list (live and retired).
    len: usize,
    /// Live entries.
    live: usize,
    /// Retired entries at or after `head`.
    dead: usize,
}

impl Active {
    /// The list holding just the start cell (padded `p`, cell `c`), marked active, in `stack`,
    /// grown to hold `cells` entries.
    #[inline(always)]
    fn start(stack: &mut Vec<u64>, cells: usize, mark: &mut [u8], p: u32, c: u32) -> Active {
        at_least(stack, cells);
        let mut active = Active {
            head: 0,
            len: 0,
            live: 0,
            dead: 0,
        };
        active.push(stack, mark, p, c);
        active
    }

    /// Is any cell still active?
    #[inline(always)]
    fn any(&self) -> bool {
        self.live > 0
    }

    /// The index of the entry the policy picks next (skipping or redrawing retired ones).
    #[inline(always)]
    fn pick<R: RandomSource>(
        &mut self,
        stack: &[u64],
        mark: &[u8],
        policy: Policy,
        rng: &mut R,
    ) -> usize {
        if policy == Policy::Newest {
            while mark[padded(stack[self.len - 1])] == RETIRED {
                self.len -= 1;
                self.dead -= 1;
            }
            self.len - 1
        } else if policy == Policy::Oldest {
            while mark[padded(stack[self.head])] == RETIRED {
                self.head += 1;
                self.dead -= 1;
            }
            self.head
        } else {
            let span = (self.len - self.head) as u32;
            loop {
                let i = self.head + rng.choose(span) as usize;
                if mark[padded(stack[i])] != RETIRED {
                    break i;
                }
            }
        }
    }

    /// Retire the cell at padded index `p` (it has no free neighbour left); compact the list in
    /// order once retired entries outnumber live ones.
    #[inline(always)]
    fn retire(&mut self, stack: &mut [u64], mark: &mut [u8], p: u32) {
        mark[p as usize] = RETIRED;
        self.live -= 1;
        self.dead += 1;
        if self.dead > self.live && self.dead >= 64 {
            // Keep the live entries after `head`, in order, at the front.
            let mut kept = 0;
            for r in self.head..self.len {
                let e = stack[r];
                stack[kept] = e;
                kept += (mark[padded(e)] != RETIRED) as usize;
            }
            self.len = kept;
            self.head = 0;
            self.dead = 0;
        }
    }

    /// Add the entry of a newly joined cell (padded `p`, cell `c`), marked active.
    #[inline(always)]
    fn push(&mut self, stack: &mut [u64], mark: &mut [u8], p: u32, c: u32) {
        mark[p as usize] = ACTIVE;
        stack[self.len] = (p as u64) << 32 | c as u64;
        self.len += 1;
        self.live += 1;
    }
}

/// Carve a perfect maze by the growing-tree method with the given selection policy, on
/// topology `T`.
pub(crate) fn generate<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
    policy: Policy,
) {
    // One copy of the loop per policy, so the pick has no match on the policy per step.
    match policy {
        Policy::Newest => grow::<T, R>(maze, s, rng, Policy::Newest),
        Policy::Oldest => grow::<T, R>(maze, s, rng, Policy::Oldest),
        Policy::Random => grow::<T, R>(maze, s, rng, Policy::Random),
        // Its own loop without branches on the coin or on carving.
        Policy::Mix(p) => mix::generate::<T, R>(maze, s, rng, p),
    }
}

/// The loop of [`generate`], inlined into each policy's arm.
#[inline(always)]
fn grow<T: Topology, R: RandomSource>(
    maze: &mut Maze,
    s: &mut Scratch,
    rng: &mut R,
    policy: Policy,
) {
    let start = random_cell(maze, rng);
    let n = maze.cells();
    let (t, ps) = marks_and_free_masks::<T>(maze, s, start);
    let mut walls = maze.wall_writer();
    let mut active = Active::start(&mut s.stack, n as usize, &mut s.mark, ps, start);
    let (stack, mark, free) = (&mut s.stack[..], &mut s.mark[..], &mut s.sides[..]);
    while active.any() {
        let i = active.pick(stack, mark, policy, rng);
        let e = stack[i];
        let p = (e >> 32) as u32;
        let c = e as u32;
        // SAFETY: an entry's cell is a grid cell (the first cell or a free neighbour it
        // joined from), and `free` the padded array's masks.
        let (opts, k) = unsafe { free_options(free, p) };
        if k == 0 {
            active.retire(stack, mark, p);
            continue;
        }
        let d = free_option(opts, rng.choose(k));
        walls.open(t.wall(c, d));
        let (np, nc) = (p.wrapping_add(t.step(d)), c.wrapping_add(t.cell_step(d)));
        // SAFETY: a free neighbour (its bit was set in the mask) is a cell of the grid.
        unsafe { t.visit(free, np) };
        active.push(stack, mark, np, nc);
    }
}
