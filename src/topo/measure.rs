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
//! No search: one pass over the open bits gives each cell its degree, the XOR of its open edges'
//! ids and the set of its passages' directions; then leaf peeling (as the square metrics do,
//! `src/metrics/peel.rs`) roots the tree at the entrance. A leaf's one remaining edge is the XOR,
//! so a peeled cell finds its parent without any adjacency list; children are peeled before
//! their parents, carrying subtree sizes and heights up, and the deepest cell where two descents
//! make a longest path is met first. The solution follows the parent edges from the exit. The
//! farthest pair is read off the grid's own slots from that cell down, with the tie-breaks of a
//! breadth-first search from the entrance in edge order (see `farthest_pair`). Buffers are
//! reused ([`MeasureScratch`]).

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
    /// Each cell's passages, read off the open bits (one record, one bounds check per end of
    /// an edge).
    cell: Vec<Open>,
    /// Passages of each cell.
    deg: Vec<u32>,
    /// XOR of the ids of all the open edges of each cell (a corridor's other edge is this XOR
    /// the one it was entered by).
    exo: Vec<u32>,
    /// The edge to each cell's parent (the entrance's is never read).
    pe: Vec<u32>,
    /// What the peel carries for each cell, set by the degree pass (no other reset).
    node: Vec<Node>,
    /// Leaves waiting to be peeled (sized for every cell: pushed without a capacity check).
    stack: Vec<u32>,
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

/// A cell's passages, as the pass over the open bits leaves them.
#[derive(Clone, Copy, Debug, Default)]
struct Open {
    /// XOR of the ids of the open edges not peeled yet (a leaf's: its one edge to its parent).
    ex: u32,
    /// The number of passages.
    deg: u8,
    /// The direction labels of the passages, one bit per label.
    dirs: u8,
}

/// A cell's state in the peel, in one place (one bounds check, one cache line per access).
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Deepest and second deepest descents below the cell.
    h1: u32,
    h2: u32,
    /// Subtree size.
    size: u32,
    /// Passages not peeled yet.
    rem: u32,
}

/// The cell across edge `e` from `x` (one of its ends).
#[inline(always)]
fn across(g: &CellGraph, e: u32, x: u32) -> u32 {
    let [a, b] = g.ends(e);
    a ^ b ^ x
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
    let root = ends.entrance;
    s.cell.clear();
    s.cell.resize(len, Open::default());
    s.deg.resize(len, 0);
    s.exo.resize(len, 0);
    s.node.resize(len, Node::default());
    s.pe.resize(len, 0);
    s.stack.resize(len, 0);
    // All false: every mark set on the solution is cleared after use.
    s.on_path.resize(len, false);

    // Degrees, edge XORs and direction sets from the open bits.
    for (k, &w) in maze.words().iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let e = (k as u32) << 6 | w.trailing_zeros();
            let ([a, b], [da, db]) = (g.ends(e), g.edge_dirs(e));
            for (x, d) in [(a, da), (b, db)] {
                let o = &mut s.cell[x as usize];
                o.ex ^= e;
                o.deg += 1;
                o.dirs |= 1 << d;
            }
            w &= w - 1;
        }
    }

    // Degrees, straights (a corridor whose two directions are opposite: two labels `dirs / 2`
    // apart), and the first leaves.
    let half = (g.dirs() / 2) as u32;
    let (mut dead_ends, mut corridors, mut junctions, mut straights) = (0u32, 0u32, 0u32, 0u32);
    let mut sp = 0usize;
    for &c in g.ids() {
        let o = s.cell[c as usize];
        let d = o.deg as u32;
        s.deg[c as usize] = d;
        s.exo[c as usize] = o.ex;
        s.node[c as usize] = Node {
            h1: 0,
            h2: 0,
            size: 1,
            rem: d,
        };
        match d {
            1 => {
                dead_ends += 1;
                s.stack[sp] = c;
                sp += (c != root) as usize;
            }
            2 => {
                corridors += 1;
                let m = o.dirs as u32;
                straights += (m.count_ones() == 2
                    && 31 - m.leading_zeros() - m.trailing_zeros() == half)
                    as u32;
            }
            0 => {}
            _ => junctions += 1,
        }
    }

    // The peel: children before parents; the first cell whose two deepest descents beat every
    // earlier one is the deepest top of a longest path.
    let (mut diameter, mut top) = (0u32, root);
    while sp > 0 {
        sp -= 1;
        let x = s.stack[sp];
        let xu = x as usize;
        let e = s.cell[xu].ex;
        let p = across(g, e, x) as usize;
        s.pe[xu] = e;
        let nx = s.node[xu];
        let through = nx.h1 + nx.h2;
        if through > diameter {
            (diameter, top) = (through, x);
        }
        let np = &mut s.node[p];
        np.size += nx.size;
        let (h, m1) = (nx.h1 + 1, np.h1);
        np.h1 = m1.max(h);
        np.h2 = np.h2.max(m1.min(h));
        np.rem -= 1;
        let leaf = np.rem == 1;
        s.cell[p].ex ^= e;
        s.stack[sp] = p as u32;
        sp += (leaf && p as u32 != root) as usize;
    }
    let through = s.node[root as usize].h1 + s.node[root as usize].h2;
    if through > diameter {
        (diameter, top) = (through, root);
    }
    debug_assert_eq!(
        s.node[root as usize].size, n,
        "a spanning tree reaches every cell"
    );
    let (d_start, d_end) = farthest_pair(g, maze, s, top, root);

    // The solution, exit first.
    s.path.clear();
    let mut u = ends.exit;
    s.path.push(u);
    while u != root {
        u = across(g, s.pe[u as usize], u);
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
        // The step's label, read from `c`'s end of the edge (ends are smaller first).
        let step = g.edge_dirs(s.pe[next as usize])[(c > next) as usize];
        if last_dir != u8::MAX && step != last_dir {
            turns += 1;
        }
        last_dir = step;
        walk += 2 * (n - s.node[next as usize].size) as u64 - 1;
        let on_path_nbrs = if c == root { 1 } else { 2 };
        let off = s.deg[c as usize] - on_path_nbrs;
        if off > 0 {
            decisions += 1;
            branches += off;
            // The open sides of a path cell off the path lead to its children.
            for t in g.slots(c) {
                let v = g.nbr(t) as usize;
                if !s.on_path[v] && maze.is_open(g.edge(t)) {
                    branch_cells = branch_cells.max(s.node[v].size);
                    branch_depth = branch_depth.max(s.node[v].h1 + 1);
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
            let (mut e, mut u) = (s.exo[c as usize], c);
            loop {
                u = across(g, e, u);
                dead_walk += 1;
                if s.deg[u as usize] != 2 {
                    break;
                }
                e ^= s.exo[u as usize];
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

/// The ends of the longest path whose top (its cell nearest the entrance) is `top`, as a
/// breadth-first search from the entrance would report them: it meets a cell's children in
/// edge order and goes through them in reverse, keeping a descent only when strictly deeper, so
/// of equally deep children the one by the largest edge id gives a cell's deepest descent, and
/// the next such child (or `top` itself, with fewer than two children) its second.
fn farthest_pair(
    g: &CellGraph,
    maze: &GraphMaze,
    s: &MeasureScratch,
    top: u32,
    root: u32,
) -> (u32, u32) {
    let up = |x: u32| {
        if x == root {
            u32::MAX
        } else {
            s.pe[x as usize]
        }
    };
    // The two best children of `top` by (descent, edge id).
    let (mut first, mut second) = ((0u32, 0u32, top), (0u32, 0u32, top));
    let parent_edge = up(top);
    for t in g.slots(top) {
        let e = g.edge(t);
        if e == parent_edge || !maze.is_open(e) {
            continue;
        }
        let key = (s.node[g.nbr(t) as usize].h1 + 1, e + 1, g.nbr(t));
        if key > first {
            (second, first) = (first, key);
        } else if key > second {
            second = key;
        }
    }
    let deepest = |mut x: u32| loop {
        let parent_edge = up(x);
        let mut best = (0u32, 0u32, x);
        for t in g.slots(x) {
            let e = g.edge(t);
            if e == parent_edge || !maze.is_open(e) {
                continue;
            }
            best = best.max((s.node[g.nbr(t) as usize].h1 + 1, e + 1, g.nbr(t)));
        }
        if best.2 == x {
            return x;
        }
        x = best.2;
    };
    let a = if first.2 == top {
        top
    } else {
        deepest(first.2)
    };
    let b = if second.2 == top {
        top
    } else {
        deepest(second.2)
    };
    (a, b)
}
