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

/// Where the solution starts and ends, as cell ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    /// Entrance cell id.
    pub entrance: u32,
    /// Exit cell id.
    pub exit: u32,
}

impl Ends {
    /// The default rule: top-left cell to bottom-right cell.
    pub fn corners(width: u32, height: u32) -> Ends {
        Ends {
            entrance: 0,
            exit: width * height - 1,
        }
    }
}

/// Buffers for [`measure`], reused across mazes. Everything is indexed by BFS position
/// (the order cells leave the queue), not by cell id, so no per-cell array has to be reset.
#[derive(Debug, Default)]
pub struct Scratch {
    /// Cells in BFS order.
    queue: Vec<u32>,
    /// BFS position of each position's parent (the root is its own parent).
    parent: Vec<u32>,
    /// The wall-mask bit pointing back to the parent (E=1, S=2, W=4, N=8; 0 for the root).
    back: Vec<u8>,
    /// Longest descent below each position, in edges.
    height: Vec<u32>,
    /// The cell at the end of that descent (meaningful once `height` > 0; a leaf is its own).
    deepest: Vec<u32>,
}

impl Scratch {
    /// Empty scratch; buffers grow on first use.
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// The solution path of the last [`measure`] call, from the exit back to the entrance
    /// (cell ids, both ends included).
    pub fn solution_path(&self, exit: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let Some(mut pos) = self.queue.iter().position(|&c| c == exit) else {
            return out;
        };
        loop {
            out.push(self.queue[pos]);
            if pos == 0 {
                return out;
            }
            pos = self.parent[pos] as usize;
        }
    }
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

/// Measure a perfect maze. `ends` must be cells of the maze.
///
/// # Panics
/// If the maze is not a tree (a loop makes the search revisit cells); every generator produces
/// trees, so this indicates a bug.
pub fn measure(maze: &Maze, ends: Ends, s: &mut Scratch) -> Metrics {
    let w = maze.width();
    let n = maze.cells() as usize;
    let words = maze.words();
    // Room for up to four speculative writes past the last real entry.
    // Only `height` must start at zero; the other arrays are written before they are read.
    for v in [&mut s.queue, &mut s.parent, &mut s.deepest] {
        v.resize(n + 4, 0);
    }
    s.back.resize(n + 4, 0);
    s.back[0] = 0;
    s.height.clear();
    s.height.resize(n + 4, 0);

    let (mut dead_ends, mut junctions, mut corridors, mut straights) = (0u32, 0u32, 0u32, 0u32);
    let root = ends.entrance;
    s.queue[0] = root;
    let mut tail = 1usize;
    let mut head = 0usize;
    // The four directions: mask bit, cell offset, the back bit seen from the neighbour.
    let steps = [
        (1u32, 1u32, 4u8),
        (2, w, 8),
        (4, 1u32.wrapping_neg(), 1),
        (8, w.wrapping_neg(), 2),
    ];
    let mut exit_pos = usize::MAX;
    while head < tail {
        let v = s.queue[head];
        if v == ends.exit {
            exit_pos = head;
        }
        let m = open_mask(words, v, w);
        let deg = m.count_ones();
        dead_ends += (deg == 1) as u32;
        junctions += (deg >= 3) as u32;
        corridors += (deg == 2) as u32;
        straights += (m == 5 || m == 10) as u32;
        let fwd = m & !(s.back[head] as u32);
        for &(bit, off, back) in &steps {
            // Branch-free push: always write the slot, advance only if the wall is open.
            s.queue[tail] = v.wrapping_add(off);
            s.parent[tail] = head as u32;
            s.back[tail] = back;
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
    let (mut diameter, mut d_start, mut d_end) = (0u32, root, root);
    for pos in (1..tail).rev() {
        let p = s.parent[pos] as usize;
        let h = s.height[pos];
        let leaf = if h == 0 { s.queue[pos] } else { s.deepest[pos] };
        let cand = h + 1;
        let hp = s.height[p];
        let through = hp + cand;
        if through > diameter {
            diameter = through;
            d_start = if hp == 0 { s.queue[p] } else { s.deepest[p] };
            d_end = leaf;
        }
        // Branch-free max: which child is deepest is data-dependent and unpredictable.
        let better = cand > hp;
        s.height[p] = if better { cand } else { hp };
        s.deepest[p] = if better { leaf } else { s.deepest[p] };
    }

    // Solution: walk parents from the exit, counting edges and direction changes.
    let (mut length, mut turns) = (0u32, 0u32);
    if exit_pos != usize::MAX {
        let mut pos = exit_pos;
        let mut last_step = 0u32;
        while pos != 0 {
            let p = s.parent[pos] as usize;
            let step = s.queue[pos].wrapping_sub(s.queue[p]);
            turns += (last_step != 0 && step != last_step) as u32;
            last_step = step;
            length += 1;
            pos = p;
        }
    }

    Metrics {
        dead_ends,
        dead_end_share: dead_ends as f64 / n as f64,
        diameter,
        diameter_start: d_start,
        diameter_end: d_end,
        solution_length: length,
        junctions,
        corridors,
        straights,
        solution_turns: turns,
        maze_hash: maze.hash(),
    }
}
