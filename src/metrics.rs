//! Per-maze measurements: the [`Metrics`] row and [`measure`], which computes all of it with one
//! breadth-first search from the entrance plus linear passes.
//!
//! Definitions (DESIGN.md; lengths count edges): a dead end is a cell with exactly one passage,
//! a junction one with three or more, a corridor one with exactly two, and a straight a corridor
//! open on opposite sides. The diameter is the longest shortest path between two cells; in a
//! tree it is found without a second search: rooting the BFS tree at the entrance, a pass over
//! the cells in reverse BFS order keeps each cell's deepest descendant, and the longest path is
//! the best sum of the two deepest branches met at any cell. The solution runs from the
//! entrance to the exit along BFS parents, and `solution_turns` counts the direction changes on
//! it.

use crate::grid::Maze;

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
    /// Corridors open on opposite sides (east+west or north+south).
    pub straights: u32,
    /// Direction changes along the entrance → exit path.
    pub solution_turns: u32,
    /// [`Maze::hash`] of the walls.
    pub maze_hash: u64,
}

/// Where the solution starts and ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    /// Fixed cells (ids).
    Cells {
        /// Entrance cell id.
        entrance: u32,
        /// Exit cell id.
        exit: u32,
    },
    /// The farthest pair found for the diameter: the solution is a longest path, so
    /// `solution_length == diameter` and the entrance/exit are `diameter_start`/`diameter_end`.
    Diameter,
}

impl Ends {
    /// The default rule: top-left cell to bottom-right cell.
    pub fn corners(width: u32, height: u32) -> Ends {
        Ends::Cells {
            entrance: 0,
            exit: width * height - 1,
        }
    }

    /// Fixed entrance and exit cells.
    pub fn cells(entrance: u32, exit: u32) -> Ends {
        Ends::Cells { entrance, exit }
    }
}

/// Buffers for [`measure`], reused across mazes. Everything is indexed by BFS position
/// (the order cells leave the queue), not by cell id, so no per-cell array has to be reset.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The BFS queue, one packed word per position: the cell id (bits 0..26), the wall-mask
    /// bit pointing back to the parent (bits 26..30; E=1, S=2, W=4, N=8; 0 for the root) and
    /// the parent's BFS position (bits 32..64; the root is its own parent). One store per
    /// speculative push instead of three.
    queue: Vec<u64>,
    /// Longest descent below each position, in edges.
    height: Vec<u32>,
    /// BFS position at the end of that descent (meaningful once `height` > 0).
    deepest: Vec<u32>,
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
        let (mut a, mut b) = (self.solution.0 as usize, self.solution.1 as usize);
        let mut head = Vec::new();
        let mut tail = Vec::new();
        while a != b {
            if a > b {
                head.push(cell(self.queue[a]));
                a = parent(self.queue[a]);
            } else {
                tail.push(cell(self.queue[b]));
                b = parent(self.queue[b]);
            }
        }
        head.push(cell(self.queue[a]));
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
fn back(e: u64) -> u32 {
    (e >> 26) as u32 & 15
}

#[inline(always)]
fn parent(e: u64) -> usize {
    (e >> 32) as usize
}

/// The open walls of `v` as a mask: E=1, S=2, W=4, N=8.
#[inline(always)]
fn open_mask(words: &[u64], v: u32, w: u32) -> u32 {
    let bit = |b: u32| (words[(b >> 6) as usize] >> (b & 63)) as u32 & 1;
    let own = (words[(v >> 5) as usize] >> ((v & 31) * 2)) as u32 & 3;
    let west = if v > 0 { bit(2 * v - 2) } else { 0 };
    let north = if v >= w { bit(2 * (v - w) + 1) } else { 0 };
    own | west << 2 | north << 3
}

/// Measure a perfect maze. Fixed `ends` must be cells of the maze.
///
/// # Panics
/// If the maze is not a tree (a loop makes the search revisit cells); every generator produces
/// trees, so this indicates a bug.
pub fn measure(maze: &Maze, ends: Ends, s: &mut Scratch) -> Metrics {
    let w = maze.width();
    let n = maze.cells() as usize;
    let words = maze.words();
    // Only `height` must start at zero; the other arrays are written before they are read.
    s.queue.resize(n + 4, 0);
    s.deepest.resize(n + 4, 0);
    s.height.clear();
    s.height.resize(n + 4, 0);

    let (root, exit) = match ends {
        Ends::Cells { entrance, exit } => (entrance, exit),
        Ends::Diameter => (0, u32::MAX),
    };
    let (mut dead_ends, mut junctions, mut corridors, mut straights) = (0u32, 0u32, 0u32, 0u32);
    s.queue[0] = root as u64;
    let mut tail = 1usize;
    let mut head = 0usize;
    // The four directions: mask bit, cell offset, the back bit seen from the neighbour.
    let steps = [
        (1u32, 1u32, 4u32),
        (2, w, 8),
        (4, 1u32.wrapping_neg(), 1),
        (8, w.wrapping_neg(), 2),
    ];
    let mut exit_pos = 0usize;
    while head < tail {
        let e = s.queue[head];
        let v = cell(e);
        if v == exit {
            exit_pos = head;
        }
        let m = open_mask(words, v, w);
        let deg = m.count_ones();
        dead_ends += (deg == 1) as u32;
        junctions += (deg >= 3) as u32;
        corridors += (deg == 2) as u32;
        straights += (m == 5 || m == 10) as u32;
        let fwd = m & !back(e);
        for &(bit, off, back) in &steps {
            // Branch-free push: always write the slot, advance only if the wall is open.
            s.queue[tail] = pack(v.wrapping_add(off), back, head);
            tail += (fwd & bit != 0) as usize;
        }
        assert!(
            tail <= n,
            "measure: the maze has a loop (not a perfect maze)"
        );
        head += 1;
    }

    // Tree DP in reverse BFS order: the longest path is the best sum of the two deepest
    // descents met at one position.
    let (mut diameter, mut d_start, mut d_end) = (0u32, 0usize, 0usize);
    for pos in (1..tail).rev() {
        let p = parent(s.queue[pos]);
        let h = s.height[pos];
        let leaf = if h == 0 { pos as u32 } else { s.deepest[pos] };
        let cand = h + 1;
        let hp = s.height[p];
        let through = hp + cand;
        if through > diameter {
            diameter = through;
            d_start = if hp == 0 { p } else { s.deepest[p] as usize };
            d_end = leaf as usize;
        }
        // Branch-free max: which child is deepest is data-dependent and unpredictable.
        let better = cand > hp;
        s.height[p] = if better { cand } else { hp };
        s.deepest[p] = if better { leaf } else { s.deepest[p] };
    }

    // The solution joins two BFS positions; walk both up to their meeting point (a parent's
    // position is always smaller than its child's), counting edges and direction changes.
    // Moves from the start side are taken upwards, those of the end side downwards, so both
    // are oriented from start to end; a turn is a change between consecutive moves.
    let (a, b) = match ends {
        Ends::Cells { .. } => (exit_pos, 0),
        Ends::Diameter => (d_start, d_end),
    };
    s.solution = match ends {
        Ends::Cells { .. } => (0, exit_pos as u32),
        Ends::Diameter => (d_start as u32, d_end as u32),
    };
    let (mut length, mut turns) = (0u32, 0u32);
    let (mut x, mut y) = (a, b);
    let (mut last_up, mut last_down) = (0u32, 0u32);
    while x != y {
        if x > y {
            let px = parent(s.queue[x]);
            let step = cell(s.queue[px]).wrapping_sub(cell(s.queue[x]));
            turns += (last_up != 0 && step != last_up) as u32;
            last_up = step;
            x = px;
        } else {
            let py = parent(s.queue[y]);
            // Seen from the start, this move goes from the parent down to the child; walking
            // upwards we meet them in reverse order, so compare with the previous one seen.
            let step = cell(s.queue[y]).wrapping_sub(cell(s.queue[py]));
            turns += (last_down != 0 && step != last_down) as u32;
            last_down = step;
            y = py;
        }
        length += 1;
    }
    // The two halves meet at the top: one more turn if the last upward move and the first
    // downward move (the last one met) differ.
    turns += (last_up != 0 && last_down != 0 && last_up != last_down) as u32;

    let (diameter_start, diameter_end) = (cell(s.queue[d_start]), cell(s.queue[d_end]));
    Metrics {
        dead_ends,
        dead_end_share: dead_ends as f64 / n as f64,
        diameter,
        diameter_start,
        diameter_end,
        solution_length: length,
        junctions,
        corridors,
        straights,
        solution_turns: turns,
        maze_hash: maze.hash(),
    }
}
