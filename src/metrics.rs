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

/// Buffers for [`measure`], reused across mazes.
#[derive(Debug, Default)]
pub struct Scratch {
    queue: Vec<u32>,
    parent: Vec<u32>,
    dist: Vec<u32>,
    height: Vec<u32>,
    deepest: Vec<u32>,
}

impl Scratch {
    /// Empty scratch; buffers grow on first use.
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// The BFS parent of each cell from the last [`measure`] call (the entrance is its own
    /// parent). Following it from the exit gives the solution path.
    pub fn parents(&self) -> &[u32] {
        &self.parent
    }
}

const UNSEEN: u32 = u32::MAX;

/// Measure a perfect maze. `ends` must be cells of the maze. The maze is assumed to be a tree
/// (every generator guarantees it); on a disconnected maze unreachable cells are not counted.
pub fn measure(maze: &Maze, ends: Ends, s: &mut Scratch) -> Metrics {
    let w = maze.width();
    let n = maze.cells() as usize;
    s.queue.clear();
    s.parent.clear();
    s.parent.resize(n, UNSEEN);
    s.dist.clear();
    s.dist.resize(n, 0);
    s.height.clear();
    s.height.resize(n, 0);
    s.deepest.clear();
    s.deepest.extend(0..n as u32);

    let (mut dead_ends, mut junctions, mut corridors, mut straights) = (0u32, 0u32, 0u32, 0u32);
    let root = ends.entrance;
    s.parent[root as usize] = root;
    s.queue.push(root);
    let mut head = 0;
    while head < s.queue.len() {
        let v = s.queue[head];
        head += 1;
        let dv = s.dist[v as usize] + 1;
        let e = maze.east_open(v);
        let so = maze.south_open(v);
        let we = v > 0 && maze.east_open(v - 1);
        let no = v >= w && maze.south_open(v - w);
        let deg = e as u32 + so as u32 + we as u32 + no as u32;
        match deg {
            1 => dead_ends += 1,
            2 => {
                corridors += 1;
                if (e && we) || (so && no) {
                    straights += 1;
                }
            }
            0 => {}
            _ => junctions += 1,
        }
        for (open, nb) in [
            (e, v + 1),
            (so, v + w),
            (we, v.wrapping_sub(1)),
            (no, v.wrapping_sub(w)),
        ] {
            if open && s.parent[nb as usize] == UNSEEN {
                s.parent[nb as usize] = v;
                s.dist[nb as usize] = dv;
                s.queue.push(nb);
            }
        }
    }

    // Tree DP in reverse BFS order: height = deepest descent below a cell, deepest = that leaf.
    let (mut diameter, mut d_start, mut d_end) = (0u32, root, root);
    for &v in s.queue[1..].iter().rev() {
        let p = s.parent[v as usize];
        let cand = s.height[v as usize] + 1;
        let through = s.height[p as usize] + cand;
        if through > diameter {
            diameter = through;
            d_start = s.deepest[p as usize];
            d_end = s.deepest[v as usize];
        }
        if cand > s.height[p as usize] {
            s.height[p as usize] = cand;
            s.deepest[p as usize] = s.deepest[v as usize];
        }
    }

    // Solution: walk parents from the exit, counting direction changes.
    let mut turns = 0u32;
    let mut v = ends.exit;
    let mut last_step = 0u32;
    while v != root && s.parent[v as usize] != UNSEEN {
        let p = s.parent[v as usize];
        let step = v.wrapping_sub(p);
        if last_step != 0 && step != last_step {
            turns += 1;
        }
        last_step = step;
        v = p;
    }

    Metrics {
        dead_ends,
        dead_end_share: dead_ends as f64 / n as f64,
        diameter,
        diameter_start: d_start,
        diameter_end: d_end,
        solution_length: s.dist[ends.exit as usize],
        junctions,
        corridors,
        straights,
        solution_turns: turns,
        maze_hash: maze.hash(),
    }
}
