//! Per-maze measurements: the [`Metrics`] row and [`measure`], which computes all of it with one
//! word-parallel pass over the walls, one breadth-first search from the entrance, one pass over
//! the cells in reverse BFS order and one walk along the solution.
//!
//! Definitions (the column page `src/metrics/columns.md`, generated from [`COLUMNS`] and
//! [`definitions`]; lengths count edges): a dead end is a cell with exactly one passage, a
//! junction one with three or more, a corridor one with exactly two, and a straight a corridor
//! open on opposite sides. These four counts come from the `degrees` module, popcounts over
//! whole wall words.
//!
//! The rest is tree dynamic programming. The BFS roots the maze at the entrance; every cell's
//! children sit next to each other in the BFS queue, so `first[pos]..first[pos + 1]` are the
//! positions of the children of position `pos`. One pass in reverse BFS order (children before
//! parents) gives each position its subtree size and the cells on its longest descent (its
//! height plus one); a subtree is a bare corridor ending in a dead end when the two agree, which gives the dead-end lengths. The diameter is
//! the best sum of the two deepest descents met at a cell; its ends are found after the pass by
//! walking down from the two positions of that sum. The solution is the chain
//! of BFS parents from the exit up to the entrance; walking it gives the length, the turns, the
//! decisions and branches, the hitting time (from subtree sizes) and the worst wrong turn.
//!
//! With [`Ends::Diameter`] the entrance is first found by a plain BFS from cell 0 (its last cell
//! is an end of a longest path); the main search is then rooted there and the exit is the cell it
//! reaches last: the classic double sweep, exact on a tree.
//!
//! # Two mazes at once
//!
//! The search and the reverse pass wait on memory more than they compute: a search step reads
//! the entry the step before it wrote (on a long corridor), and a reverse-pass step often
//! updates the parent the step before it updated (siblings). [`measure_pair`] measures two
//! perfect 2D mazes of one width and cell count with one loop for both searches and one for
//! both reverse passes, one step of each maze per round, so the two chains overlap; the same
//! step functions serve [`measure`], and the rest (walk, diameter ends, the row) is per maze.
//! The batch measures its rows in pairs this way.
//!
//! # Masks
//!
//! A maze on a [mask](crate::grid::Mask) is measured over the mask's cells: the holes have no
//! passage, so the degree counts never see them, the searches never reach them, and every
//! count of cells (`dead_end_share`, `walk_steps`) uses the mask's cell count. The
//! [`Ends::Diameter`] sweep starts from the mask's first cell.
//!
//! # Three dimensions
//!
//! A maze of depth > 1 is measured on the 6-neighbour grid with the same definitions: degrees go
//! up to 6, a straight is a corridor open on two opposite faces (east+west, north+south or
//! down+up), a vertical step is a direction like any other for the turns, and the tortuosity
//! divides by the 3D Manhattan distance. [`measure`] dispatches once per maze on the depth: the
//! search, the reverse pass and the walk are one function generic over the number of directions
//! (4 or 6), so a 2D maze runs exactly the 4-direction code, and only the degree pass
//! (`degrees::prepare_3d`) and the push table differ.

pub mod definitions;
pub(crate) mod degrees;
mod graph;
// The braided diameter's candidate passes, shared with the other grids' diameter.
pub(crate) use graph::{tighten, Candidate, NONE};
#[cfg(test)]
mod pair_tests;
mod row;
mod skeleton;

pub use row::{column_index, Column, Filter, Get, Row, RowView, COLUMNS};

use crate::grid::{Maze, Size};

/// The measurements of one maze (the Parquet row minus the run's identifiers and timing).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Cells of degree 1.
    pub dead_ends: u32,
    /// `dead_ends / cells`.
    pub dead_end_share: f64,
    /// Longest shortest path, in edges.
    pub diameter: u32,
    /// Cell id of one end of a farthest pair.
    pub diameter_start: u32,
    /// Cell id of the other end of that pair.
    pub diameter_end: u32,
    /// Entrance → exit distance, in edges.
    pub solution_length: u32,
    /// Cells of degree ≥ 3.
    pub junctions: u32,
    /// Cells of degree 2.
    pub corridors: u32,
    /// Corridors open on opposite sides (east+west, north+south, or in 3D down+up).
    pub straights: u32,
    /// Direction changes along the entrance → exit path (in 3D a step down or up is a direction
    /// like the four planar ones).
    pub solution_turns: u32,
    /// [`Maze::hash`] of the walls.
    pub maze_hash: u64,
    /// Cells of the solution path, entrance included and exit excluded, with at least one open
    /// side leading off the path: the places where a wrong turn is possible. 0 when
    /// entrance = exit. Never more than `solution_length`.
    pub solution_decisions: u32,
    /// The off-path openings of those cells, summed (a cell with two side passages counts 2).
    pub solution_branches: u32,
    /// Exact expected number of steps of an unbiased random walk (each step to a uniformly
    /// chosen open neighbour) from the entrance until it first reaches the exit: what a player
    /// with no memory needs on average. On a tree it is `Σ (2·|T_u| − 1)` over the solution's
    /// edges `u → v`, where `T_u` is the part of the maze on `u`'s side of that edge; 0 when
    /// entrance = exit. `walk_steps(s→t) + walk_steps(t→s) = 2·(cells − 1)·solution_length`.
    /// On a maze with loops the expectation is not an integer: 0 here, NULL in the table.
    pub walk_steps: u64,
    /// Over every opening off the solution (at the cells counted by `solution_decisions`), the
    /// number of cells reachable through it without returning to the path; the largest. 0 when
    /// there is no such opening.
    pub max_branch_cells: u32,
    /// Over the same openings, the farthest distance (edges) from the path cell into the branch:
    /// the deepest wrong turn. 0 when there is no opening off the solution.
    pub max_branch_depth: u32,
    /// Mean over dead ends of the distance from the dead end to the nearest junction (cell of
    /// degree ≥ 3), Pullen's "river" measure: high means fewer, longer dead ends. From a dead end
    /// the walk through degree-2 cells is forced; it stops at the first cell whose degree is not
    /// 2. In a maze without junctions (a single corridor) that cell is the other dead end, so the
    /// value is `cells − 1`; with no dead end at all (1×1) it is 0.
    pub mean_dead_end_length: f64,
    /// `solution_length` divided by the Manhattan distance between entrance and exit (≥ 1; 1 is a
    /// straight or staircase path; in 3D the distance over x, y and z). Defined as 1 when
    /// entrance = exit (no NaN).
    pub tortuosity: f64,
    /// [`Mask::hash`](crate::grid::Mask::hash) of the maze's mask; 0 without a mask.
    pub mask_hash: u64,
    /// Cells of the maze: the mask's cells, or `W·H·D` without a mask.
    pub cells: u32,
    /// Passages − cells + 1, the cyclomatic number: the independent loops (0 for a perfect
    /// maze; the walls a braid pass opened).
    pub loops: u32,
    /// Distinct shortest entrance → exit paths, saturating at `u64::MAX` (1 on a tree).
    pub solution_count: u64,
    /// The braid chance the maze was made with ([`crate::braid`]): [`measure`] cannot know it
    /// and leaves 0; the batch and [`crate::Level`] set it. 0 for a perfect maze.
    pub braid: f64,
}

impl Metrics {
    /// The fields every measuring pass (the tree pass here, the graph pass of `graph` for a
    /// maze with loops) takes the same way from the degree pass `deg` and the maze's `n`
    /// cells: the degree counts, the share of dead ends, the wall and mask hashes. The path and
    /// loop fields are 0 for the pass to set.
    fn from_degrees(deg: &degrees::Degrees, maze: &Maze, n: usize) -> Metrics {
        Metrics {
            dead_ends: deg.dead_ends,
            dead_end_share: deg.dead_ends as f64 / n as f64,
            junctions: deg.junctions,
            corridors: deg.corridors,
            straights: deg.straights,
            maze_hash: deg.hash,
            mask_hash: maze.mask().map_or(0, |m| m.hash()),
            cells: n as u32,
            ..Metrics::default()
        }
    }
}

/// Where the solution starts and ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ends {
    /// Fixed cells (ids).
    Cells {
        /// Entrance cell id.
        entrance: u32,
        /// Exit cell id.
        exit: u32,
    },
    /// A farthest pair: the solution is a longest path, so `solution_length == diameter` and
    /// the entrance/exit are `diameter_start`/`diameter_end`.
    Diameter,
}

impl Ends {
    /// The default rule of a 2D maze: top-left cell to bottom-right cell.
    pub fn corners(width: u32, height: u32) -> Ends {
        Ends::Cells {
            entrance: 0,
            exit: width * height - 1,
        }
    }

    /// The default rule for a maze of any size: the first cell (0, the top-left cell of the top
    /// layer) to the last (`W·H·D − 1`, the bottom-right cell of the bottom layer). Equal to
    /// [`Ends::corners`] for a 2D size.
    pub fn first_last(size: Size) -> Ends {
        Ends::Cells {
            entrance: 0,
            exit: size.cells() - 1,
        }
    }

    /// Fixed entrance and exit cells.
    pub fn cells(entrance: u32, exit: u32) -> Ends {
        Ends::Cells { entrance, exit }
    }

    /// The entrance and exit cells of a maze measured with these ends into `m` (per maze for
    /// [`Ends::Diameter`]: `diameter_start` and `diameter_end`).
    pub fn cells_of(self, m: &Metrics) -> (u32, u32) {
        match self {
            Ends::Cells { entrance, exit } => (entrance, exit),
            Ends::Diameter => (m.diameter_start, m.diameter_end),
        }
    }

    /// The rule as the metadata of a metrics table and a maze store record it
    /// (`batchgen.ends`, `batchgen.ends_rule`), for a maze of `size`:
    /// `entrance=X,Y exit=X,Y (…)` (`X,Y,Z` in 3D) or `diameter: …`. [`Ends::parse_rule`]
    /// reads it back.
    pub fn rule(self, size: Size) -> String {
        let (entrance, exit) = match self {
            Ends::Diameter => {
                return "diameter: entrance=diameter_start exit=diameter_end (a farthest pair)"
                    .into()
            }
            Ends::Cells { entrance, exit } => (entrance, exit),
        };
        let (a, b) = (size.coords(entrance), size.coords(exit));
        if size.is_3d() {
            format!(
                "entrance={},{},{} exit={},{},{} (x,y,z; cell id = x+width*(y+height*z), layer z=0 on top)",
                a.0, a.1, a.2, b.0, b.1, b.2
            )
        } else {
            format!(
                "entrance={},{} exit={},{} (x,y; cell id = y*width+x)",
                a.0, a.1, b.0, b.1
            )
        }
    }

    /// Read a rule written by [`Ends::rule`] for a maze of `size`; `None` if `rule` is not one
    /// (or names a cell outside the grid).
    pub fn parse_rule(rule: &str, size: Size) -> Option<Ends> {
        let rule = rule.trim();
        if rule.starts_with("diameter") {
            return Some(Ends::Diameter);
        }
        let cell = |key: &str| -> Option<u32> {
            let text = rule.split_whitespace().find_map(|w| w.strip_prefix(key))?;
            let xyz: Vec<u32> = text
                .split(',')
                .map(|n| n.parse().ok())
                .collect::<Option<_>>()?;
            let (x, y, z) = match xyz[..] {
                [x, y] => (x, y, 0),
                [x, y, z] => (x, y, z),
                _ => return None,
            };
            (x < size.width && y < size.height && z < size.depth).then(|| size.cell(x, y, z))
        };
        Some(Ends::Cells {
            entrance: cell("entrance=")?,
            exit: cell("exit=")?,
        })
    }
}

/// Per-position values of the reverse pass: the cells on the longest descent from the
/// position, itself included (`reach`, its height in edges plus one), and the cells of its
/// subtree (`size`). Set to a leaf's ([`LEAF`]) by the search and then written only by the
/// position's children, each adding itself once. Counting the position itself saves the pass an
/// addition per step.
///
/// Which position ends the longest descent is not kept: it is recovered after the pass for the
/// two positions the diameter needs ([`deepest`]). Nor is a dead-end flag: a subtree is a bare
/// corridor ending in a dead end exactly when `size == reach`.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    reach: u32,
    size: u32,
}

/// The [`Node`] of a position without children.
const LEAF: Node = Node { reach: 1, size: 1 };

/// Buffers for [`measure`] and [`measure_pair`], reused across mazes. Everything but the mask table is indexed by
/// BFS position (the order cells leave the queue), and written before it is read, so no per-cell
/// array is reset between mazes.
#[derive(Debug, Default)]
pub struct Scratch {
    /// Open sides per cell, one byte each ([`degrees::prepare`]).
    masks: Vec<u8>,
    /// The 2D push table of [`bfs`] and the width it was built for.
    pushes: (Vec<Push>, u32),
    /// The 3D push table and the (width, cells per layer) it was built for.
    pushes_3d: (Vec<Push>, (u32, u32)),
    /// The per-position buffers (apart from the tables, so the search can borrow both).
    bufs: Bufs,
    /// The first maze's cell masks and buffers in [`measure_pair`] (the second uses `masks`
    /// and `bufs`).
    twin: Twin,
    /// The buffers of the graph path (mazes with loops).
    graph: graph::Buffers,
    /// Did the last [`measure`] take the graph path?
    graph_last: bool,
}

/// The buffers of the first maze of a pair ([`measure_pair`]).
#[derive(Debug, Default)]
struct Twin {
    /// Open sides per cell ([`Scratch::masks`]).
    masks: Vec<u8>,
    /// Per-position buffers ([`Scratch::bufs`]).
    bufs: Bufs,
}

/// The per-position part of [`Scratch`].
#[derive(Debug, Default)]
struct Bufs {
    /// The BFS queue, one packed word per position: the cell id (bits 0..26), the sides the
    /// cell may open ahead, all but the one back to the parent (bits 26..32, in the wall-mask
    /// bits E=1, S=2, W=4, N=8, Down=16, Up=32; all of them for the root), and the parent's
    /// BFS position (bits 32..64; the root is its own parent). One store per speculative push
    /// instead of three, and one `and` with the cell's open sides gives the sides to push.
    queue: Vec<u64>,
    /// Position of the first child of each position; `first[cells] = cells`, so the children
    /// of `pos` are `first[pos]..first[pos + 1]`.
    first: Vec<u32>,
    /// Reverse-pass values per position.
    node: Vec<Node>,
    /// BFS positions of the last solution's two ends (start, end).
    solution: (u32, u32),
}

impl Scratch {
    /// Empty scratch; buffers grow on first use.
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// The solution path of the last [`measure`] call, entrance first, exit last (cell ids,
    /// both ends included).
    pub fn solution_path(&self) -> Vec<u32> {
        if self.graph_last {
            return self.graph.solution_path();
        }
        let b = &self.bufs;
        let (mut a, mut b, queue) = (b.solution.0 as usize, b.solution.1 as usize, &b.queue);
        let mut head = Vec::new();
        let mut tail = Vec::new();
        while a != b {
            if a > b {
                head.push(cell(queue[a]));
                a = parent(queue[a]);
            } else {
                tail.push(cell(queue[b]));
                b = parent(queue[b]);
            }
        }
        head.push(cell(queue[a]));
        head.extend(tail.iter().rev());
        head
    }
}

// Cell ids must fit the 26 bits `pack` gives them.
const _: () = assert!(crate::grid::MAX_CELLS <= 1 << 26);

#[inline(always)]
fn pack(cell: u32, back: u32, parent: usize) -> u64 {
    cell as u64 | (back as u64) << 26 | (parent as u64) << 32
}

#[inline(always)]
fn cell(e: u64) -> u32 {
    (e & ((1 << 26) - 1)) as u32
}

#[inline(always)]
fn parent(e: u64) -> usize {
    (e >> 32) as usize
}

/// A row of a push table ([`push_table`]): up to six values to add, then (at [`COUNT`]) how
/// many of them are children. One 64-byte row, so a row's index is a shift and the count is
/// read through the table's own base: with the count in a table of its own (a popcount of the
/// row's index), [`bfs_pair`] needed one more base register than the two searches' pointers
/// left, and reloaded the push table's from the stack twice a round.
type Push = [u64; 8];

/// Where a [`Push`] row keeps its child count.
const COUNT: usize = 7;

/// The push table for `D` directions (4 or 6) with the cell offsets `offsets` (in the order
/// E, S, W, N, Down, Up; each as a wrapping addition): for each set of forward sides `f`, the
/// values to add to `pack(v, 0, head)` to get the queue entries of the children, in direction
/// order (the cell offset, and the sides the child keeps open ahead: all but the one back to
/// `v`); unused slots add 0; the row's last word counts the children. 256 rows, one per byte
/// value, so a byte indexes it with no bound check; the bits of a byte past the `D` sides are
/// ignored (row `f` is row `f mod 2^D`), as the exit's mask byte carries [`EXIT`] into the
/// index.
fn push_table<const D: usize>(offsets: [u64; D]) -> Vec<Push> {
    (0..256usize)
        .map(|f| {
            let mut row = [0u64; 8];
            let mut j = 0;
            for (d, &off) in offsets.iter().enumerate() {
                if f >> d & 1 == 1 {
                    // The side back to `v`.
                    let back = opposite(d);
                    let keep = ((1u64 << D) - 1) & !(1 << back);
                    row[j] = off.wrapping_add(keep << 26);
                    j += 1;
                }
            }
            row[COUNT] = j as u64;
            row
        })
        .collect()
}

/// The 2D push table for width `w` ([`push_table`]).
fn push_table_2d(w: u32) -> Vec<Push> {
    let w = w as u64;
    push_table([1, w, 1u64.wrapping_neg(), w.wrapping_neg()])
}

/// The 3D push table for width `w` and `layer` cells per layer ([`push_table`]).
fn push_table_3d(w: u32, layer: u32) -> Vec<Push> {
    let (w, l) = (w as u64, layer as u64);
    push_table([
        1,
        w,
        1u64.wrapping_neg(),
        w.wrapping_neg(),
        l,
        l.wrapping_neg(),
    ])
}

/// The bit of a cell's mask byte, past the six sides, that marks the exit during a full search
/// ([`bfs`], [`bfs_pair`]): the step tests the byte it has just loaded, where a compare with
/// the exit's cell took a register in each search ([`mark_exit`]).
const EXIT: u8 = 0x40;

/// Set (`on`) or clear [`EXIT`] in the mask byte of cell `exit`, if it has one (no bit for an
/// exit off the maze, e.g. the `u32::MAX` of a search without an exit, which never meets it).
fn mark_exit(masks: &mut [u8], exit: u32, on: bool) {
    if let Some(m) = masks.get_mut(exit as usize) {
        *m = if on { *m | EXIT } else { *m & !EXIT };
    }
}

/// One breadth-first search in progress over one maze's buffers (see [`bfs`]): the queue's
/// tail, the exit's position once met, and the slices it writes. A struct so that [`bfs`] and
/// [`bfs_pair`] run the same step, one search or two interleaved.
struct Search<'a, const D: usize> {
    queue: &'a mut [u64],
    first: &'a mut [u32],
    node: &'a mut [Node],
    masks: &'a [u8],
    n: usize,
    tail: usize,
    exit_pos: usize,
}

impl<'a, const D: usize> Search<'a, D> {
    /// A search of the `n` cells of the maze whose open sides are `masks`, from `root`, looking
    /// for the cell marked [`EXIT`], in `s`'s buffers (at least `n + D` long).
    #[inline(always)]
    fn new(s: &'a mut Bufs, masks: &'a [u8], n: usize, root: u32) -> Self {
        const { assert!(D == 4 || D == 6) };
        // The reads of `masks` below skip the bound check: the root is checked here, and every
        // other cell is pushed through an open side, which never leads off the grid (border
        // walls are never open), so it is below the grid's cell count, which `masks` covers.
        assert!(
            (root as usize) < masks.len() && n <= masks.len(),
            "measure: the entrance is not a cell of the maze"
        );
        let queue = &mut s.queue[..n + D];
        // The root keeps every side open ahead.
        queue[0] = root as u64 | ((1u64 << D) - 1) << 26;
        Search {
            queue,
            first: &mut s.first[..n + 1],
            node: &mut s.node[..n],
            masks,
            n,
            tail: 1,
            exit_pos: 0,
        }
    }

    /// Take position `head` (below the tail) out of the queue and push its children; if
    /// `FULL`, record its first child, reset its [`Node`] and note the exit.
    #[inline(always)]
    fn step<const FULL: bool>(&mut self, table: &[Push; 256], head: usize) {
        assert!(
            self.tail <= self.n,
            "measure: the maze has a loop (not a perfect maze)"
        );
        let e = self.queue[head];
        let v = cell(e);
        // SAFETY: `v` is the root or a cell reached through an open side (see [`Search::new`]),
        // so it is a cell of the grid and `masks` has a byte for it.
        let open = unsafe { *self.masks.get_unchecked(v as usize) };
        // The open sides but the one back to the parent: bits 26.. of the entry hold the sides
        // kept open ahead (bits 32.. are the parent's position, above the sides' bits; they
        // meet only the exit's [`EXIT`], which the push table ignores). A word, not a byte: the
        // mask byte bounds it, and a byte's `and` was then widened again for the index.
        let fwd = open as u32 & (e >> 26) as u32;
        if FULL {
            // A branch taken once per maze, not a select: a select kept `exit_pos` in a
            // stack slot, read and written every step (a store-to-load chain through the loop).
            if open & EXIT != 0 {
                self.exit_pos = met(head);
            }
            self.first[head] = self.tail as u32;
            // One store per position; a fill (memset) before the pass costs more.
            self.node[head] = LEAF;
        }
        // Branch-free push: always write `D` slots, advance by the number of children. A
        // child's cell is `v` plus an offset that cannot borrow (the wall is open, so the
        // neighbour exists); unused slots hold garbage that is overwritten later.
        let base = pack(v, 0, head);
        let row = &table[fwd as usize];
        let tail = self.tail;
        let slots: &mut [u64; D] = (&mut self.queue[tail..tail + D])
            .try_into()
            .expect("D slots");
        *slots = std::array::from_fn(|j| base.wrapping_add(row[j]));
        self.tail += row[COUNT] as usize;
    }

    /// Check that every cell was reached exactly once; finish the first-child table; the
    /// exit's position.
    #[inline(always)]
    fn end<const FULL: bool>(self) -> usize {
        assert_eq!(self.tail, self.n, "measure: the maze is not connected");
        if FULL {
            self.first[self.n] = self.n as u32;
        }
        self.exit_pos
    }
}

/// Breadth-first search from `root` over the mask table with `D` directions (4 or 6) and the
/// push table `table` ([`push_table`]): fills the queue and, if `FULL`, the first-child table
/// and resets the positions' [`Node`]s.
/// Returns the position of the cell marked [`EXIT`] (0 if it is never met).
/// Panics unless every cell is reached exactly once (a tree).
///
/// Out of line: inside [`traverse`] the loop's counters spilled to the stack.
#[inline(never)]
fn bfs<const D: usize, const FULL: bool>(
    s: &mut Bufs,
    masks: &[u8],
    table: &[Push; 256],
    n: usize,
    root: u32,
) -> usize {
    let mut a = Search::<D>::new(s, masks, n, root);
    for head in 0..n {
        if head == a.tail {
            break;
        }
        a.step::<FULL>(table, head);
    }
    a.end::<FULL>()
}

/// Two full searches ([`bfs`] with `FULL`) of two mazes of `n` cells each with the same push
/// table, one step of each per round. Each step of one search waits on the one before it (the
/// entry it reads was often written by the step just before: a long corridor), so two
/// independent searches in one loop keep two such chains in flight where one search leaves the
/// core waiting. Returns the two exits' positions.
#[inline(never)]
fn bfs_pair(
    (sa, sb): (&mut Bufs, &mut Bufs),
    masks: [&[u8]; 2],
    table: &[Push; 256],
    n: usize,
    roots: [u32; 2],
) -> [usize; 2] {
    let mut a = Search::<4>::new(sa, masks[0], n, roots[0]);
    let mut b = Search::<4>::new(sb, masks[1], n, roots[1]);
    for head in 0..n {
        // A stalled search is a maze that is not connected: `end` reports it.
        if head == a.tail || head == b.tail {
            break;
        }
        a.step::<true>(table, head);
        b.step::<true>(table, head);
    }
    [a.end::<true>(), b.end::<true>()]
}

/// `pos`, through a call the optimiser keeps on the taken side of a branch (see [`bfs`]).
#[cold]
#[inline(never)]
fn met(pos: usize) -> usize {
    pos
}

/// The position ending the longest descent below `x`: of its descendants at depth
/// `reach(x) − 1` below it, the last in BFS order (`x` itself for a leaf). The descendants of `x`
/// at each depth are a run of positions, and the run one level down is the children of that
/// run: `first[lo]..first[hi]`, as a level's children follow the order of the level. So the end
/// of the deepest run is `first` applied `reach(x) − 1` times to `x + 1`: one load per level,
/// with no look at the children's heights.
fn deepest(first: &[u32], node: &[Node], x: usize) -> usize {
    assert!(x + 1 < first.len());
    let mut end = x + 1;
    for _ in 1..node[x].reach {
        // SAFETY: `end < first.len()`: it starts at `x + 1`, and every entry of `first` is at
        // most the cell count `first.len() − 1` (a queue tail, which the search checks, or the
        // last entry, the count itself).
        end = unsafe { *first.get_unchecked(end) } as usize;
    }
    end - 1
}

/// The diameter's two ends (positions) from the reverse pass's longest path met at `pos`'s
/// parent through `pos`: one end is the deepest descent below `pos`; the other is the deepest
/// descent its parent had when `pos` was met, i.e. through the siblings after `pos` (met before
/// it; on equal heights the last of them), or the parent itself. Both are read from final
/// values: positions after `pos` are complete by then.
fn diameter_ends(pos: usize, queue: &[u64], first: &[u32], node: &[Node]) -> (u32, u32) {
    let p = parent(queue[pos]);
    let mut top = (0, p);
    for (j, sibling) in node[pos + 1..first[p + 1] as usize].iter().enumerate() {
        if sibling.reach >= top.0 {
            top = (sibling.reach, pos + 1 + j);
        }
    }
    let start = if top.1 == p {
        p
    } else {
        deepest(first, node, top.1)
    };
    (start as u32, deepest(first, node, pos) as u32)
}

/// Steps down from position `x` while it has exactly one child; returns the steps taken.
fn corridor_down(first: &[u32], mut x: usize) -> u32 {
    let mut k = 0;
    while first[x + 1] - first[x] == 1 {
        x = first[x] as usize;
        k += 1;
    }
    k
}

/// What [`walk`] takes along the solution.
struct Walk {
    length: u32,
    turns: u32,
    decisions: u32,
    branches: u32,
    walk: u64,
    max_cells: u32,
    max_depth: u32,
}

/// The sides an entry of the queue keeps open ahead (bits 26..32, see [`Bufs::queue`]): all
/// but the one back to the parent, so two entries agree on them exactly when their cells step
/// to their parents in the same direction.
const AHEAD: u64 = 0x3f << 26;

/// The solution's columns: BFS parents from the exit (position `exit_pos`) up to the entrance
/// (position 0). At each path cell above the exit, the children other than the path's next
/// cell are the wrong turns; the walker's hitting time adds `2·|T_u| − 1` per edge u → x, with
/// `T_u` everything outside x's subtree. Out of line: inside [`traverse`] its counters spilled
/// to the stack, which a long solution (a backtracker's) paid at every step.
///
/// A step reads only the parent's entry and subtree size, as both are the next step's own: a
/// path cell has other children exactly when its subtree is more than its path child's plus
/// itself, and the path turns at a cell exactly when the sides it keeps open ahead differ from
/// its path child's (the root keeps all of them, so the last step always counts one).
#[inline(never)]
fn walk(queue: &[u64], first: &[u32], node: &[Node], exit_pos: usize) -> Walk {
    let n = first.len() - 1;
    assert!(exit_pos < n && queue.len() >= n && node.len() >= n);
    let mut w = Walk {
        length: 0,
        turns: 0,
        decisions: 0,
        branches: 0,
        walk: 0,
        max_cells: 0,
        max_depth: 0,
    };
    if exit_pos == 0 {
        return w;
    }
    let (mut length, mut changes, mut sizes, mut forks) = (0u32, 0u32, 0u64, 0u64);
    // One step up from position `x` (entry `e`, subtree `size`): the parent's position, entry
    // and subtree. A macro, as the optimiser kept a closure out of line.
    macro_rules! step {
        ($x:expr, $e:expr, $size:expr) => {{
            let (x, e, size): (usize, u64, u64) = ($x, $e, $size);
            let px = parent(e);
            // SAFETY: `x < n` (the exit's position, then a parent's), and the search wrote each
            // position `1..n` with its parent's position, which is smaller (a push lands past
            // the position pushing it); so `px < x < n`.
            let (pe, psize) = unsafe { (*queue.get_unchecked(px), node.get_unchecked(px).size) };
            let psize = psize as u64;
            sizes += size;
            length += 1;
            changes += ((e ^ pe) & AHEAD != 0) as u32;
            // Most path cells have no other child (all of them on a long corridor): a branch
            // skips them, where a branch-free pass over all `D` slots cost ~40 instructions a
            // step.
            if psize != size + 1 {
                // SAFETY: `px + 1 <= n` and `first` has `n + 1` entries; they never decrease
                // (queue tails) and are at most `n`, so `c0 <= c1 <= n <= node.len()`.
                let (c0, c1, children) = unsafe {
                    let (c0, c1) = (
                        *first.get_unchecked(px) as usize,
                        *first.get_unchecked(px + 1) as usize,
                    );
                    (c0, c1, node.get_unchecked(c0..c1))
                };
                // Decisions in the high half, branches in the low.
                forks += (1 << 32) + (c1 - c0 - 1) as u64;
                for (c, b) in children.iter().enumerate().map(|(j, b)| (c0 + j, b)) {
                    if c != x {
                        w.max_cells = w.max_cells.max(b.size);
                        w.max_depth = w.max_depth.max(b.reach);
                    }
                }
            }
            (px, pe, psize)
        }};
    }
    let (mut x, mut e, mut size) = (exit_pos, queue[exit_pos], node[exit_pos].size as u64);
    // Two steps a round: the values a step hands on stay where they are.
    loop {
        let (px, pe, psize) = step!(x, e, size);
        if px == 0 {
            break;
        }
        (x, e, size) = step!(px, pe, psize);
        if x == 0 {
            break;
        }
    }
    w.length = length;
    (w.decisions, w.branches) = ((forks >> 32) as u32, forks as u32);
    w.turns = changes - 1;
    // Each edge adds `2·(n − size) − 1`.
    w.walk = length as u64 * (2 * n as u64 - 1) - 2 * sizes;
    w
}

/// Measure a connected maze: a perfect maze by the tree pass, a maze with loops (more than
/// `cells − 1` passages, e.g. braided) by the graph pass of the `graph` module. Fixed `ends`
/// must be cells of the maze.
///
/// # Panics
/// If the maze is not connected (a missing passage leaves cells unreached); every generator
/// and the braid pass produce connected mazes, so this indicates a bug.
pub fn measure(maze: &Maze, ends: Ends, s: &mut Scratch) -> Metrics {
    // One popcount pass tells a tree from a maze with loops (fewer passages than a tree means
    // not connected: the tree pass reports that).
    let extra = maze.passages() + 1;
    let cells = maze.tree_cells() as u64;
    s.graph_last = extra > cells;
    if s.graph_last {
        let loops = (extra - cells) as u32;
        let deg = if maze.depth() > 1 {
            degrees::prepare_3d(maze, &mut s.masks)
        } else {
            degrees::prepare(maze, &mut s.masks)
        };
        return graph::measure(maze, ends, deg, &s.masks, loops, &mut s.graph);
    }
    // One dispatch per maze: a 2D maze runs the 4-direction instantiation only.
    if maze.depth() > 1 {
        measure_3d(maze, ends, s)
    } else {
        measure_2d(maze, ends, s)
    }
}

/// Measure two mazes: `[measure(mazes[0]), measure(mazes[1])]`, the same values. When both are
/// perfect 2D mazes with the same width and cell count (a batch's rows of one size and mask),
/// their searches and reverse passes run interleaved (`bfs_pair`, `Longest::pass_pair`):
/// each is a chain of dependent loads that leaves the core waiting on a long corridor, and two
/// chains in one loop overlap. Otherwise they are measured one after the other. Either way the
/// scratch is left as [`measure`] of the second maze leaves it ([`Scratch::solution_path`]).
///
/// # Panics
/// As [`measure`].
pub fn measure_pair(mazes: [&Maze; 2], ends: Ends, s: &mut Scratch) -> [Metrics; 2] {
    let [a, b] = mazes;
    let tree = |m: &Maze| m.depth() == 1 && m.passages() + 1 == m.tree_cells() as u64;
    if a.width() == b.width() && a.tree_cells() == b.tree_cells() && tree(a) && tree(b) {
        s.graph_last = false;
        return measure_2d_pair(mazes, ends, s);
    }
    mazes.map(|m| measure(m, ends, s))
}

/// The 2D push table for width `w` in `pushes`, built if it was built for another width.
fn table_2d(pushes: &mut (Vec<Push>, u32), w: u32) -> &[Push; 256] {
    if pushes.1 != w || pushes.0.is_empty() {
        *pushes = (push_table_2d(w), w);
    }
    pushes.0[..].try_into().expect("256 rows")
}

/// [`measure`] on a maze of depth 1: four directions.
#[inline(never)]
fn measure_2d(maze: &Maze, ends: Ends, s: &mut Scratch) -> Metrics {
    let deg = degrees::prepare(maze, &mut s.masks);
    let table = table_2d(&mut s.pushes, maze.width());
    traverse::<4>(maze, ends, deg, &mut s.masks, table, &mut s.bufs)
}

/// [`measure_pair`] on two perfect mazes of depth 1 with the same width and cell count: the
/// first maze in the twin buffers, the second in the main ones.
#[inline(never)]
fn measure_2d_pair(mazes: [&Maze; 2], ends: Ends, s: &mut Scratch) -> [Metrics; 2] {
    let deg = [
        degrees::prepare(mazes[0], &mut s.twin.masks),
        degrees::prepare(mazes[1], &mut s.masks),
    ];
    let table = table_2d(&mut s.pushes, mazes[0].width());
    let n = mazes[0].tree_cells() as usize;
    let (ba, bb) = (&mut s.twin.bufs, &mut s.bufs);
    let (ma, mb) = (&mut s.twin.masks, &mut s.masks);
    ba.grow::<4>(n);
    bb.grow::<4>(n);
    let (ra, ea) = ba.ends::<4>(mazes[0], ends, ma, table, n);
    let (rb, eb) = bb.ends::<4>(mazes[1], ends, mb, table, n);
    mark_exit(ma, ea, true);
    mark_exit(mb, eb, true);
    let exit_pos = bfs_pair((ba, bb), [ma, mb], table, n, [ra, rb]);
    mark_exit(ma, ea, false);
    mark_exit(mb, eb, false);
    // SAFETY: `bfs_pair` returned, so both queues' first `n` entries are whole searches (it
    // panics on a maze that is not a tree).
    let longest = unsafe {
        Longest::pass_pair(
            (&ba.queue[..n], &mut ba.node[..n]),
            (&bb.queue[..n], &mut bb.node[..n]),
        )
    };
    [
        finish::<4>(mazes[0], ends, deg[0], ba, exit_pos[0], longest[0]),
        finish::<4>(mazes[1], ends, deg[1], bb, exit_pos[1], longest[1]),
    ]
}

/// [`measure`] on a maze of depth > 1: six directions.
#[inline(never)]
fn measure_3d(maze: &Maze, ends: Ends, s: &mut Scratch) -> Metrics {
    let deg = degrees::prepare_3d(maze, &mut s.masks);
    let size = maze.size();
    let key = (size.width, size.layer_cells());
    if s.pushes_3d.1 != key || s.pushes_3d.0.is_empty() {
        s.pushes_3d = (push_table_3d(key.0, key.1), key);
    }
    let table: &[Push; 256] = s.pushes_3d.0[..].try_into().expect("256 rows");
    traverse::<6>(maze, ends, deg, &mut s.masks, table, &mut s.bufs)
}

impl Bufs {
    /// Make every buffer hold at least `n + D` positions (`resize` only grows; every slot is
    /// written before it is read).
    #[inline(always)]
    fn grow<const D: usize>(&mut self, n: usize) {
        if self.queue.len() < n + D {
            self.queue.resize(n + D, 0);
            self.first.resize(n + D, 0);
            self.node.resize(n + D, Node::default());
        }
    }

    /// The main search's root and the exit cell it looks for: the fixed cells, or for
    /// [`Ends::Diameter`] the cell a first search from the maze's first cell reaches last (and
    /// no exit: it is the main search's last cell).
    #[inline(always)]
    fn ends<const D: usize>(
        &mut self,
        maze: &Maze,
        ends: Ends,
        masks: &[u8],
        table: &[Push; 256],
        n: usize,
    ) -> (u32, u32) {
        match ends {
            Ends::Cells { entrance, exit } => (entrance, exit),
            Ends::Diameter => {
                bfs::<D, false>(self, masks, table, n, maze.first_cell());
                (cell(self.queue[n - 1]), u32::MAX)
            }
        }
    }
}

/// Everything of [`measure`] after the degree pass, for `D` directions (4 or 6) with the push
/// table `table` and the cell masks `masks` (the exit's marked with [`EXIT`] for its search).
#[inline(always)]
fn traverse<const D: usize>(
    maze: &Maze,
    ends: Ends,
    deg: degrees::Degrees,
    masks: &mut [u8],
    table: &[Push; 256],
    s: &mut Bufs,
) -> Metrics {
    // The cells of the tree: the mask's, when the maze has one (holes have no passage and
    // are never reached).
    let n = maze.tree_cells() as usize;
    s.grow::<D>(n);
    let (root, exit) = s.ends::<D>(maze, ends, masks, table, n);
    mark_exit(masks, exit, true);
    let exit_pos = bfs::<D, true>(s, masks, table, n, root);
    mark_exit(masks, exit, false);
    // SAFETY: `bfs` returned, so the queue's first `n` entries are a whole search (it panics
    // on a maze that is not a tree).
    let longest = unsafe { Longest::pass(&s.queue[..n], &mut s.node[..n]) };
    finish::<D>(maze, ends, deg, s, exit_pos, longest)
}

/// The reverse pass's running values: the longest path met so far plus one (`best`, the sum of
/// two reaches), the position it was met through (`best_pos`), and the positions that are not
/// bare corridors (`forked`).
///
/// The pass goes in reverse BFS order: every child before its parent. The longest path is the
/// best sum of the two deepest descents met at one position: the longest met so far at `pos`'s
/// parent through `pos`. A strict `>` keeps, among equal lengths, the highest position (met
/// first); its two ends are recovered after the pass.
///
/// Dead-end corridors: a position whose subtree is a bare corridor (`size == reach`) puts the
/// passage to its parent on the corridor of the dead end below it, and every passage of such a
/// corridor is counted once so, at whichever position the corridor ends. Corridors ending at
/// the root are corrected in [`finish`].
#[derive(Clone, Copy, Debug)]
struct Longest {
    best: u32,
    best_pos: usize,
    forked: u64,
}

impl Longest {
    /// Before the first position.
    const START: Longest = Longest {
        best: 1,
        best_pos: 0,
        forked: 0,
    };

    /// Position `pos` (> 0) hands its values to its parent.
    ///
    /// # Safety
    ///
    /// `0 < pos < queue.len() <= node.len()`, and `queue` is a whole search's ([`bfs`]), whose
    /// entry at `pos` names a parent position below `pos`: both are indexed without bounds
    /// checks.
    #[inline(always)]
    unsafe fn step(&mut self, queue: &[u64], node: &mut [Node], pos: usize) {
        debug_assert!(0 < pos && pos < queue.len() && queue.len() <= node.len());
        // SAFETY: `pos < queue.len() <= node.len()` (the caller's).
        let (p, me) = unsafe { (parent(*queue.get_unchecked(pos)), *node.get_unchecked(pos)) };
        debug_assert!(p < pos);
        // SAFETY: the search wrote every position `1..n` from a position before it (a push
        // lands at `tail`, past `head`), and the parent field is that position: `p < pos`.
        let par = unsafe { *node.get_unchecked(p) };
        let through = par.reach + me.reach;
        // Two selects, not a branch: on long corridors (a backtracker's) the longest path grows
        // hundreds of times per maze at unpredictable steps.
        let longer = through > self.best;
        self.best_pos = if longer { pos } else { self.best_pos };
        self.best = self.best.max(through);
        // Positions that are not bare corridors (`reach < size`: a compare and an add with
        // carry, where counting `reach == size` took four instructions).
        self.forked += (me.reach < me.size) as u64;
        // Branch-free max (which child is deepest is data-dependent and unpredictable).
        // SAFETY: as for `par`.
        *unsafe { node.get_unchecked_mut(p) } = Node {
            reach: par.reach.max(me.reach + 1),
            size: par.size + me.size,
        };
    }

    /// The reverse pass over the `queue.len()` positions of one search.
    ///
    /// # Safety
    ///
    /// `queue` is a whole search's ([`bfs`]): every entry after the first names a parent
    /// position before its own, which [`Longest::step`] reads unchecked.
    #[inline(always)]
    unsafe fn pass(queue: &[u64], node: &mut [Node]) -> Longest {
        let n = queue.len();
        assert!(n >= 1 && node.len() >= n);
        let mut l = Longest::START;
        let mut pos = n - 1;
        while pos != 0 {
            // SAFETY: `0 < pos < n <= node.len()` (asserted), and the search is the caller's.
            unsafe { l.step(queue, node, pos) };
            pos -= 1;
        }
        l
    }

    /// [`Longest::pass`] over two searches of the same length, one step of each per round:
    /// consecutive positions are often siblings, so a step reads the parent's values the step
    /// before it wrote (a store-to-load chain); two passes in one loop overlap two chains.
    ///
    /// # Safety
    ///
    /// As [`Longest::pass`]'s, for both queues.
    #[inline(never)]
    unsafe fn pass_pair(
        (qa, na): (&[u64], &mut [Node]),
        (qb, nb): (&[u64], &mut [Node]),
    ) -> [Longest; 2] {
        let n = qa.len();
        assert!(n >= 1 && qb.len() == n && na.len() >= n && nb.len() >= n);
        let (mut a, mut b) = (Longest::START, Longest::START);
        let mut pos = n - 1;
        while pos != 0 {
            // SAFETY: `0 < pos < n`, both queues hold `n` entries and both node slices at least
            // `n` (asserted), and the searches are the caller's.
            unsafe {
                a.step(qa, na, pos);
                b.step(qb, nb, pos);
            }
            pos -= 1;
        }
        [a, b]
    }
}

/// Everything of [`measure`] after the reverse pass (`longest`), for `D` directions, on the
/// buffers `s` of a full search that met the exit at position `exit_pos` (with
/// [`Ends::Diameter`] the search has no exit cell: its last position is the exit): the root's
/// dead-end corridors, the solution's walk, the diameter's ends, the row.
fn finish<const D: usize>(
    maze: &Maze,
    ends: Ends,
    deg: degrees::Degrees,
    s: &mut Bufs,
    exit_pos: usize,
    longest: Longest,
) -> Metrics {
    let n = maze.tree_cells() as usize;
    let exit_pos = if ends == Ends::Diameter {
        n - 1
    } else {
        exit_pos
    };
    let Longest {
        best,
        best_pos,
        forked,
    } = longest;
    let queue = &s.queue[..n + D];
    let first = &s.first[..n + 1];
    let bare = (n as u64 - 1) - forked;
    let node = &s.node[..n + D];
    // The root's own corridors: a dead end (one child) walks down its corridor; with two
    // children a corridor from one side runs through the root into the other. `up(c)` is the
    // length of the dead-end corridor through child `c` up to the root, `None` if `c`'s subtree
    // is not a bare corridor; `low` sums them (what `bare` counted of corridors ending there).
    let up = |c: usize| (node[c].size == node[c].reach).then_some(node[c].reach);
    let (c0, c1) = (first[0] as usize, first[1] as usize);
    let low: u64 = (c0..c1).filter_map(up).map(u64::from).sum();
    let mut dead_sum = bare - low;
    match c1 - c0 {
        0 => {}
        1 => dead_sum += low + corridor_down(first, 0) as u64,
        2 => {
            dead_sum += match (up(c0), up(c0 + 1)) {
                (Some(x1), Some(x2)) => 2 * (x1 + x2) as u64,
                (Some(x1), None) => (x1 + 1 + corridor_down(first, c0 + 1)) as u64,
                (None, Some(x2)) => (x2 + 1 + corridor_down(first, c0)) as u64,
                (None, None) => 0,
            };
        }
        _ => dead_sum += low,
    }

    // The solution ([`walk`]).
    s.solution = (0, exit_pos as u32);
    let path = walk(queue, first, node, exit_pos);
    let length = path.length;

    let entrance = cell(queue[0]);
    let exit_cell = cell(queue[exit_pos]);
    let (diameter, diameter_start, diameter_end) = match ends {
        Ends::Cells { .. } => {
            let (d_start, d_end) = diameter_ends(best_pos, queue, first, node);
            (
                best - 1,
                cell(queue[d_start as usize]),
                cell(queue[d_end as usize]),
            )
        }
        Ends::Diameter => (length, entrance, exit_cell),
    };
    let manhattan = if D == 4 {
        let w = maze.width();
        (entrance % w).abs_diff(exit_cell % w) + (entrance / w).abs_diff(exit_cell / w)
    } else {
        manhattan_3d(maze.size(), entrance, exit_cell)
    };
    Metrics {
        diameter,
        diameter_start,
        diameter_end,
        solution_length: length,
        solution_turns: path.turns,
        solution_decisions: path.decisions,
        solution_branches: path.branches,
        walk_steps: path.walk,
        max_branch_cells: path.max_cells,
        max_branch_depth: path.max_depth,
        mean_dead_end_length: if deg.dead_ends == 0 {
            0.0
        } else {
            dead_sum as f64 / deg.dead_ends as f64
        },
        tortuosity: if manhattan == 0 {
            1.0
        } else {
            length as f64 / manhattan as f64
        },
        solution_count: 1,
        ..Metrics::from_degrees(&deg, maze, n)
    }
}

/// The side opposite side `d` in the side order of the metrics (E, S, W, N, Down, Up): E ↔ W,
/// S ↔ N, Down ↔ Up.
fn opposite(d: usize) -> usize {
    if d < 4 {
        d ^ 2
    } else {
        d ^ 1
    }
}

/// The Manhattan distance between cells `a` and `b` over x, y and z.
fn manhattan_3d(size: Size, a: u32, b: u32) -> u32 {
    let ((ax, ay, az), (bx, by, bz)) = (size.coords(a), size.coords(b));
    ax.abs_diff(bx) + ay.abs_diff(by) + az.abs_diff(bz)
}
