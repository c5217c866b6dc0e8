//! The metric columns of a maze on a [`CellGraph`] (a spanning tree), into the same
//! [`Metrics`] row as a square maze, with the same definitions read on the grid's own
//! neighbours (`src/metrics/columns.md`, section "Other grids"):
//!
//! - Degrees count passages: a dead end has 1, a corridor 2, a junction 3 or more.
//! - A **straight** is a corridor whose two passages leave by opposite sides, the walk through
//!   it keeping its direction: opposite hex sides (`d` and `d ± 3`); a triangle's left and
//!   right sides (its third side has no opposite); on a polar grid clockwise + counter-clockwise,
//!   or inward + outward.
//! - A **turn** of the solution is a change of the step's direction label between two
//!   consecutive steps: six directions on a hex grid; E, W, N, S on a triangle grid (a step
//!   through a base is N or S); clockwise, counter-clockwise, inward and outward on a polar grid.
//! - `tortuosity` divides by the distance between entrance and exit in the grid with every wall
//!   open (the Manhattan distance on a square grid; on a mask, through its cells), computed once
//!   per run ([`grid_distance`]).
//!
//! One breadth-first search from the entrance roots the tree; one pass in reverse BFS order
//! gives subtree sizes, heights (and the diameter as the best two descents met at a cell), and
//! one walk along the solution the rest. Buffers are reused ([`MeasureScratch`]).

use super::{CellGraph, GraphMaze};

/// The section of the column page (`src/metrics/columns.md`) on the grids other than the square
/// one: how each column reads there.
pub const COLUMNS_SECTION: &str = "\n## Other grids (`--grid hex|triangle|polar`)\n\n\
A file made with `--grid hex`, `triangle` or `polar` has every column above plus a last column \
`grid` (string: `hex`, `triangle` or `polar`) and the metadata key `batchgen.grid`; square files \
have neither, so they stay as they were. Cell ids are those of the grid's layout \
(`src/topo/README.md`): `y·width + x` on hex and triangle grids, ring by ring from the centre \
(id 0) on polar grids, where `width` holds the rings R and `height` the cells C of the first \
ring. `depth` is 1. Every column keeps its definition, read on the grid's own neighbours:\n\n\
- **Degrees** (`dead_ends`, `corridors`, `junctions`) count passages; a hex cell has up to 6, \
a triangle 3, a polar cell 3 + its outward neighbours (the centre: its first ring).\n\
- **`straights`**: corridors whose two passages leave by opposite sides, so a walk through \
keeps its direction: opposite hex sides; a triangle's left and right sides (its base has no \
opposite); on a polar grid clockwise + counter-clockwise, or inward + outward.\n\
- **`solution_turns`** (and `solution_twist`): changes of the step's direction between \
consecutive steps of the solution; the directions are the six hex sides, on a triangle grid \
east, west, north and south (a step through a base is north or south), on a polar grid \
clockwise, counter-clockwise, inward and outward.\n\
- **`tortuosity`**: `solution_length` over the entrance–exit distance in the grid with every \
wall open (the grid's own Manhattan distance; on a mask, through the mask's cells).\n\
- The entrance and exit are the first and last cell (polar: the centre and the last cell of \
the outer ring; on a mask, its first and last cells), or the cells of `--entrance` and `--exit` \
(`X,Y`; polar `RING,I`), or with `--ends diameter` a farthest pair of each maze (a double sweep \
from the first cell on a perfect maze, the exact diameter's pair on a braided one).\n\
- **Braided mazes** (`--braid P`): the square grid's braid rule on the grid's neighbours \
(`src/topo/README.md`, \"Braid\"), and every column as on a braided square maze, the canonical \
shortest path's BFS visiting each cell's neighbours in the grid's direction order (hex: E, SE, \
SW, W, NW, NE; triangle: E, S, W, N; polar: clockwise, outward in index order, \
counter-clockwise, inward); `diameter` is exact, `walk_steps` NULL.\n\
- `maze_hash` hashes the grid, its size and the open bit of every edge (edges numbered as in \
`src/topo/README.md`).\n";

use crate::metrics::Metrics;

/// Entrance and exit cells of the solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphEnds {
    /// Entrance cell id.
    pub entrance: u32,
    /// Exit cell id.
    pub exit: u32,
    /// Their distance in the grid with every wall open ([`grid_distance`]).
    pub grid_distance: u32,
}

impl GraphEnds {
    /// The default ends of `g` ([`CellGraph::corners`]).
    pub fn corners(g: &CellGraph) -> GraphEnds {
        let (a, b) = g.corners();
        GraphEnds::new(g, a, b)
    }

    /// Fixed ends (cells of `g`).
    pub fn new(g: &CellGraph, entrance: u32, exit: u32) -> GraphEnds {
        GraphEnds {
            entrance,
            exit,
            grid_distance: grid_distance(g, entrance, exit),
        }
    }
}

/// The distance from `a` to `b` in `g` with every wall open (allocates: once per run).
pub fn grid_distance(g: &CellGraph, a: u32, b: u32) -> u32 {
    grid_distance_with(g, a, b, &mut Vec::new(), &mut Vec::new())
}

/// [`grid_distance`] in the buffers `dist` and `queue` (reused from maze to maze when the ends
/// change with the maze, as under `--ends diameter`).
pub fn grid_distance_with(
    g: &CellGraph,
    a: u32,
    b: u32,
    dist: &mut Vec<u32>,
    queue: &mut Vec<u32>,
) -> u32 {
    dist.clear();
    dist.resize(g.len() as usize, u32::MAX);
    queue.clear();
    queue.push(a);
    dist[a as usize] = 0;
    let mut i = 0;
    while i < queue.len() {
        let u = queue[i];
        i += 1;
        if u == b {
            break;
        }
        for s in g.slots(u) {
            let v = g.nbr(s);
            if dist[v as usize] == u32::MAX {
                dist[v as usize] = dist[u as usize] + 1;
                queue.push(v);
            }
        }
    }
    dist[b as usize]
}

/// A worker's buffers for [`measure`], reused for every maze.
#[derive(Debug, Default)]
pub struct MeasureScratch {
    /// Passages of each cell.
    deg: Vec<u32>,
    /// BFS order from the entrance.
    queue: Vec<u32>,
    /// BFS distance (u32::MAX: not reached).
    dist: Vec<u32>,
    /// The tree's adjacency (CSR over the open edges): cell `c`'s passages are
    /// `toff[c]..toff[c + 1]` of `tnbr` (the cell across) and `tdir` (its direction label).
    toff: Vec<u32>,
    tnbr: Vec<u32>,
    tdir: Vec<u8>,
    /// The direction label of the step from a cell's BFS parent to it.
    vdir: Vec<u8>,
    /// The BFS parent of each cell (the root's is itself).
    parent: Vec<u32>,
    /// Subtree sizes.
    size: Vec<u32>,
    /// Deepest and second deepest descents below each cell, and the cells they end at.
    h1: Vec<u32>,
    h2: Vec<u32>,
    e1: Vec<u32>,
    e2: Vec<u32>,
    /// Is the cell on the solution?
    on_path: Vec<bool>,
    /// The solution, exit first.
    path: Vec<u32>,
}

impl MeasureScratch {
    /// Empty buffers.
    pub fn new() -> MeasureScratch {
        MeasureScratch::default()
    }

    /// The solution of the last measurement, entrance first.
    pub fn solution_path(&self) -> Vec<u32> {
        self.path.iter().rev().copied().collect()
    }
}

/// Measure the spanning tree `maze` of `g` between `ends` (see the module docs). `mask_hash` is
/// copied into the row (0 without a mask).
pub fn measure(
    g: &CellGraph,
    maze: &GraphMaze,
    ends: GraphEnds,
    mask_hash: u64,
    s: &mut MeasureScratch,
) -> Metrics {
    let len = g.len() as usize;
    let n = g.cells();
    for v in [
        &mut s.dist,
        &mut s.parent,
        &mut s.size,
        &mut s.h1,
        &mut s.h2,
        &mut s.e1,
        &mut s.e2,
        &mut s.deg,
    ] {
        v.clear();
        v.resize(len, 0);
    }
    s.dist.fill(u32::MAX);
    s.on_path.clear();
    s.on_path.resize(len, false);
    s.vdir.clear();
    s.vdir.resize(len, 0);

    // The tree's adjacency from the open bits: degrees, offsets, then the passages.
    let words = maze.words();
    for (k, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let [a, b] = g.ends((k as u32) << 6 | w.trailing_zeros());
            s.deg[a as usize] += 1;
            s.deg[b as usize] += 1;
            w &= w - 1;
        }
    }
    s.toff.clear();
    let mut at = 0u32;
    for &d in &s.deg {
        s.toff.push(at);
        at += d;
    }
    s.toff.push(at);
    s.tnbr.clear();
    s.tnbr.resize(at as usize, 0);
    s.tdir.clear();
    s.tdir.resize(at as usize, 0);
    // `e1` is the fill cursor here (the search below sets it again).
    s.e1.copy_from_slice(&s.toff[..len]);
    for (k, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let e = (k as u32) << 6 | w.trailing_zeros();
            let ([a, b], [da, db]) = (g.ends(e), g.edge_dirs(e));
            let (pa, pb) = (s.e1[a as usize] as usize, s.e1[b as usize] as usize);
            (s.tnbr[pa], s.tdir[pa]) = (b, da);
            (s.tnbr[pb], s.tdir[pb]) = (a, db);
            s.e1[a as usize] += 1;
            s.e1[b as usize] += 1;
            w &= w - 1;
        }
    }

    // Degrees, straights.
    let (mut dead_ends, mut corridors, mut junctions, mut straights) = (0u32, 0u32, 0u32, 0u32);
    for &c in g.ids() {
        let d = s.deg[c as usize];
        match d {
            1 => dead_ends += 1,
            2 => {
                corridors += 1;
                let t = s.toff[c as usize] as usize;
                straights += (s.tdir[t + 1] == g.opposite(s.tdir[t])) as u32;
            }
            0 => {}
            _ => junctions += 1,
        }
    }

    // BFS from the entrance.
    s.queue.clear();
    s.queue.push(ends.entrance);
    s.dist[ends.entrance as usize] = 0;
    s.parent[ends.entrance as usize] = ends.entrance;
    let mut i = 0;
    while i < s.queue.len() {
        let u = s.queue[i];
        i += 1;
        (s.e1[u as usize], s.e2[u as usize]) = (u, u);
        let (from, to) = (s.toff[u as usize] as usize, s.toff[u as usize + 1] as usize);
        for t in from..to {
            let v = s.tnbr[t];
            if s.dist[v as usize] == u32::MAX {
                s.dist[v as usize] = s.dist[u as usize] + 1;
                s.vdir[v as usize] = s.tdir[t];
                s.parent[v as usize] = u;
                s.queue.push(v);
            }
        }
    }
    debug_assert_eq!(
        s.queue.len() as u32,
        n,
        "a spanning tree reaches every cell"
    );

    // Reverse BFS order: subtree sizes, the two deepest descents, the diameter.
    let (mut diameter, mut d_start, mut d_end) = (0u32, ends.entrance, ends.entrance);
    for &u in s.queue.iter().rev() {
        let u = u as usize;
        s.size[u] += 1;
        let through = s.h1[u] + s.h2[u];
        if through > diameter {
            diameter = through;
            (d_start, d_end) = (s.e1[u], s.e2[u]);
        }
        if u as u32 != ends.entrance {
            let p = s.parent[u] as usize;
            s.size[p] += s.size[u];
            let (h, e) = (s.h1[u] + 1, s.e1[u]);
            if h > s.h1[p] {
                (s.h2[p], s.e2[p]) = (s.h1[p], s.e1[p]);
                (s.h1[p], s.e1[p]) = (h, e);
            } else if h > s.h2[p] {
                (s.h2[p], s.e2[p]) = (h, e);
            }
        }
    }

    // The solution, exit first.
    s.path.clear();
    let mut u = ends.exit;
    s.path.push(u);
    while u != ends.entrance {
        u = s.parent[u as usize];
        s.path.push(u);
    }
    for &c in &s.path {
        s.on_path[c as usize] = true;
    }
    let solution_length = s.path.len() as u32 - 1;
    let (mut turns, mut decisions, mut branches, mut walk) = (0u32, 0u32, 0u32, 0u64);
    let (mut branch_cells, mut branch_depth) = (0u32, 0u32);
    let mut last_dir = u8::MAX;
    // From the entrance: the path cell `c` and the next one towards the exit.
    for k in (1..s.path.len()).rev() {
        let (c, next) = (s.path[k], s.path[k - 1]);
        let step = s.vdir[next as usize];
        if last_dir != u8::MAX && step != last_dir {
            turns += 1;
        }
        last_dir = step;
        walk += 2 * (n - s.size[next as usize]) as u64 - 1;
        let on_path_nbrs = if c == ends.entrance { 1 } else { 2 };
        let off = s.deg[c as usize] - on_path_nbrs;
        if off > 0 {
            decisions += 1;
            branches += off;
            // Off-path openings of a path cell lead to its BFS children off the path.
            for t in s.toff[c as usize]..s.toff[c as usize + 1] {
                let v = s.tnbr[t as usize];
                if !s.on_path[v as usize] && s.parent[v as usize] == c {
                    branch_cells = branch_cells.max(s.size[v as usize]);
                    branch_depth = branch_depth.max(s.h1[v as usize] + 1);
                }
            }
        }
    }
    for &c in &s.path {
        s.on_path[c as usize] = false;
    }

    // Dead ends: the forced walk to the first cell that is not a corridor.
    let mut dead_walk = 0u64;
    if dead_ends > 0 {
        for &c in g.ids() {
            if s.deg[c as usize] != 1 {
                continue;
            }
            let (mut prev, mut u) = (u32::MAX, c);
            loop {
                let t = s.toff[u as usize] as usize;
                let next = if s.tnbr[t] != prev {
                    s.tnbr[t]
                } else {
                    s.tnbr[t + 1]
                };
                (prev, u) = (u, next);
                dead_walk += 1;
                if s.deg[u as usize] != 2 {
                    break;
                }
            }
        }
    }

    Metrics {
        dead_ends,
        dead_end_share: dead_ends as f64 / n as f64,
        diameter,
        diameter_start: d_start,
        diameter_end: d_end,
        solution_length,
        junctions,
        corridors,
        straights,
        solution_turns: turns,
        maze_hash: maze.hash(g.size()),
        solution_decisions: decisions,
        solution_branches: branches,
        walk_steps: walk,
        max_branch_cells: branch_cells,
        max_branch_depth: branch_depth,
        mean_dead_end_length: if dead_ends == 0 {
            0.0
        } else {
            dead_walk as f64 / dead_ends as f64
        },
        tortuosity: if ends.grid_distance == 0 {
            1.0
        } else {
            solution_length as f64 / ends.grid_distance as f64
        },
        mask_hash,
        cells: n,
        loops: 0,
        solution_count: 1,
        braid: 0.0,
    }
}
