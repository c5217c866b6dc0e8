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
//! On a graph with [`CellGraph::tree_tables`] (cell ids in 16 bits, at most 8 neighbours a
//! cell: every full hex, triangle and polar grid up to 2¹⁶ cells, and their masks), the
//! square grid's method (`measure_bfs`): one add per end of an open edge gives each cell a
//! byte of its passages' direction labels (the degree columns through a table) and a byte of
//! its open edges; a breadth-first search from the entrance takes each cell's children in
//! edge-id order, and a pass over that order reversed gives each position its subtree's size and
//! longest descent and the longest path; the solution climbs the parents from the exit.
//!
//! On the other graphs, no search (`measure_peel`): one pass over the open bits gives each cell
//! its degree, the sum of its open edges' ids, the sum of the cells across them and a byte of its
//! passages' direction labels (three adds per end of an edge; the byte gives the degree columns
//! through a table); then leaf peeling roots the tree at the entrance, in one pass over the cells
//! in id order that peels a parent as soon as it becomes a leaf behind the pass (the linear-time
//! Prüfer construction), so no stack. A leaf's one remaining edge and the cell across it are its
//! sums, so a peeled cell finds its parent without any adjacency list or edge table; children are
//! peeled before their parents, carrying subtree sizes and heights up, with each cell's deepest
//! child (of equally deep ones, by the largest edge id), and the deepest cell where two descents
//! make a longest path is met first. The solution follows the parent edges from the exit. The
//! farthest pair is read off the grid's own slots at that cell and down the deepest children, with
//! the tie-breaks of a breadth-first search from the entrance in edge order (see `farthest_pair`).
//! Both give the same columns, the farthest pair's tie-breaks included. Buffers are reused
//! ([`MeasureScratch`]).

use super::{CellGraph, GraphMaze, Grid};
use crate::popcount::ONES;

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
    /// The direction labels of each cell's passages, added up ([`label_bits`]): on hex and
    /// triangle grids one bit per open side; on a polar grid a bit each for clockwise,
    /// counter-clockwise and inward, and the outward passages counted in bits 3..8 (the
    /// centre's rewritten from its degree).
    lab: Vec<u8>,
    /// What the peel carries for each cell (zeroed for each maze).
    node: Vec<Node>,
    /// Is the cell on the solution?
    on_path: Vec<bool>,
    /// Are `lab` and `node` all zero? A measurement leaves them so, clearing what it
    /// wrote in passes it makes anyway, rather than filling the buffers before the next maze.
    clean: bool,
    /// The solution, exit first.
    path: Vec<u32>,
    /// The degree and class of each `lab` value ([`Classes`]) and the grid they are for.
    classes: Option<(Grid, Box<Classes>)>,
    /// The buffers of the breadth-first pass ([`measure_bfs`]).
    bfs: Bfs,
}

/// The buffers of [`measure_bfs`]. `word` is all zero between measurements (`clean`); the
/// others are indexed by position in the breadth-first order and written before they are
/// read.
#[derive(Debug, Default)]
struct Bfs {
    /// Per cell: the direction labels of its passages added up in the low byte (as `lab` of
    /// [`MeasureScratch`]), the bits of its open edges' ranks in the high byte
    /// ([`CellGraph::tree_tables`]).
    word: Vec<u16>,
    /// Is `word` all zero?
    clean: bool,
    /// The queue, one entry per position: the cell's table entry from its parent
    /// ([`CellGraph::tree_tables`]: the cell in bits 0..16, the ranks of its edges but the one
    /// back in bits 16..24, the step's direction label in bits 24..27) and the parent's
    /// position in bits 32..64.
    queue: Vec<u64>,
    /// The position of each position's first child; `first[n] = n`, so the children of `pos`
    /// are `first[pos]..first[pos + 1]`.
    first: Vec<u32>,
    /// Each position's subtree.
    sub: Vec<Sub>,
}

/// A subtree in [`measure_bfs`]: its longest descent in cells (the height plus one) and its
/// cells.
#[derive(Clone, Copy, Debug, Default)]
struct Sub {
    reach: u32,
    size: u32,
}

/// A leaf's subtree.
const LEAF: Sub = Sub { reach: 1, size: 1 };

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

/// A cell's state, in one place (one bounds check, one cache line per access); all zero
/// before the open bits are read.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The cell's passages, one word (one add per end of an open edge): the number of passages
    /// in the low half, the sum of their edge ids (mod 2³²) in the high half. The peel takes a
    /// peeled child's edge off its parent's word, so a leaf's sum is its one edge left, and a
    /// peeled cell keeps it: the edge to its parent ([`Node::pe`]).
    acc: u64,
    /// The deepest descent below the cell in the high half, and in the low half the edge to
    /// the child it goes through (of equally deep children, the one by the largest edge id;
    /// read only once the cell has a child): one compare orders two children by both.
    best: u64,
    /// Cells below the cell (its subtree minus itself).
    below: u32,
    /// The sum of the ids of the cells across its passages (mod 2³², like the edge sum of
    /// `acc`, less the peeled children): a leaf's is its parent's id, so the peel steps up
    /// without reading the edge's ends (a load the next step would wait on), and a peeled
    /// cell keeps it.
    up: u32,
}

impl Node {
    /// Deepest descent below the cell.
    #[inline(always)]
    fn h1(&self) -> u32 {
        (self.best >> 32) as u32
    }

    /// The edge to the child a deepest descent goes through.
    #[inline(always)]
    fn down_edge(&self) -> u32 {
        self.best as u32
    }

    /// The edge to the cell's parent, once the peel is done (not for the entrance).
    #[inline(always)]
    fn pe(&self) -> u32 {
        edge_sum(self.acc)
    }
}

/// The cell across edge `e` from `x` (one of its ends).
#[inline(always)]
fn across(g: &CellGraph, e: u32, x: u32) -> u32 {
    let [a, b] = g.ends(e);
    a ^ b ^ x
}

/// The passages of a cell, from its word `Node::acc`.
#[inline(always)]
fn degree(acc: u64) -> u32 {
    acc as u32
}

/// The remaining edge sum of a cell, from its word `Node::acc`.
#[inline(always)]
fn edge_sum(acc: u64) -> u32 {
    (acc >> 32) as u32
}

/// What each direction label adds to a cell's `lab` byte: one bit per side on hex and
/// triangle grids (each side is one passage, so the sum is the set of open sides); on a polar
/// grid clockwise 1, counter-clockwise 2, inward 4 and outward 8, so the bits 3..8 count the
/// outward passages. A polar cell but the centre has at most 31 outward neighbours
/// (`ratio(r) = round(2πr / count(r − 1))` and `count(r − 1) ≥ r / 5` by induction on the
/// rings), so the count never carries out of the byte; the centre's byte is rewritten.
pub(super) fn label_bits(grid: Grid) -> [u8; 8] {
    match grid {
        Grid::Polar => [1, 8, 2, 4, 0, 0, 0, 0],
        _ => [1, 2, 4, 8, 16, 32, 0, 0],
    }
}

/// The centre of a polar grid with `degree` passages, as a `lab` byte of that many outward
/// passages (three for a junction): its class in [`Classes`].
fn polar_centre(degree: u32) -> u8 {
    8 * degree.min(3) as u8
}

/// Bits of each field of a [`Classes::class`] entry.
const FIELD: u32 = 21;

/// What a cell's `lab` byte ([`label_bits`]) tells on a grid.
#[derive(Debug)]
struct Classes {
    /// Its passages.
    degree: [u8; 256],
    /// Its class as fields of [`FIELD`] bits to add up: a dead end in the lowest, a corridor in
    /// the next, a straight corridor in the highest. A straight leaves by opposite sides: `d`
    /// and `d + 3` on a hex grid, a triangle's east and west (south and north never meet in one
    /// triangle), a polar cell's clockwise and counter-clockwise, or inward and one outward.
    class: [u64; 256],
}

impl Classes {
    /// The tables of `grid`.
    fn new(grid: Grid) -> Classes {
        let mut t = Classes {
            degree: [0; 256],
            class: [0; 256],
        };
        for l in 0..256usize {
            let (degree, straight) = match grid {
                Grid::Polar => {
                    let (cw, ccw, inward, out) = (l & 1, l >> 1 & 1, l >> 2 & 1, l >> 3);
                    let straight = cw & ccw == 1 || inward == 1 && out == 1;
                    (cw + ccw + inward + out, straight)
                }
                _ => {
                    let half = if grid == Grid::Hex { 3 } else { 2 };
                    let straight = (0..half).any(|d| l == (1 << d | 1 << (d + half)));
                    (l.count_ones() as usize, straight)
                }
            };
            let corridor = (degree == 2) as u64;
            t.degree[l] = degree as u8;
            t.class[l] = (degree == 1) as u64
                | corridor << FIELD
                | (corridor & straight as u64) << (2 * FIELD);
        }
        t
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
    match g.tree_tables() {
        Some((tree_edge, tree_slot)) => {
            measure_bfs(g, maze, ends, mask_hash, s, tree_edge, tree_slot)
        }
        None => measure_peel(g, maze, ends, mask_hash, s),
    }
}

/// The tables of `grid` in `s` ([`Classes`]), built when the grid changes.
fn classes_for(s: &mut MeasureScratch, grid: Grid) {
    if s.classes.as_ref().is_none_or(|c| c.0 != grid) {
        s.classes = Some((grid, Box::new(Classes::new(grid))));
    }
}

/// [`measure`] by the peel (see the module docs): on any graph, and the one [`measure`] takes
/// on a graph without [`CellGraph::tree_tables`] (more than 2¹⁶ cell ids, or a cell with more
/// than 8 neighbours).
pub(super) fn measure_peel(
    g: &CellGraph,
    maze: &GraphMaze,
    ends: GraphEnds,
    mask_hash: u64,
    s: &mut MeasureScratch,
) -> Metrics {
    let len = g.len() as usize;
    let n = g.cells();
    let root = ends.entrance;
    let grid = g.size().grid;
    classes_for(s, grid);
    let bits = label_bits(grid);
    let (lab, node) = (for_len(&mut s.lab, len), for_len(&mut s.node, len));
    if !std::mem::replace(&mut s.clean, false) {
        lab.fill(0);
        node.fill(Node::default());
    }
    // All false: every mark set on the solution is cleared after use.
    for_len(&mut s.on_path, len);
    let (lab, node) = (&mut s.lab[..len], &mut s.node[..len]);

    // Degrees, edge sums and label parities from the open bits: per end of an open edge, one
    // add and one XOR.
    let words = maze.words();
    let tail = g.edges() % 64;
    assert!(
        words.len() == g.words_per_maze()
            && (tail == 0 || words.last().is_none_or(|&w| w >> tail == 0)),
        "measure: the maze is not one of this graph"
    );
    let (ends_of, dirs_of) = (g.all_ends(), g.all_edge_dirs());
    for (k, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let e = (k as u32) << 6 | w.trailing_zeros();
            // SAFETY: `e` is an open bit of the maze, so an edge of `g` (checked above: no bit
            // past the last edge), below the length of both tables; `a` and `b` are cells of
            // `g`, below `g.len()`, the length of `node` and `lab`.
            let ([a, b], [da, db]) = unsafe {
                (
                    *ends_of.get_unchecked(e as usize),
                    *dirs_of.get_unchecked(e as usize),
                )
            };
            let add = (e as u64) << 32 | 1;
            unsafe {
                let na = node.get_unchecked_mut(a as usize);
                na.acc += add;
                na.up = na.up.wrapping_add(b);
                let nb = node.get_unchecked_mut(b as usize);
                nb.acc += add;
                nb.up = nb.up.wrapping_add(a);
                let la = lab.get_unchecked_mut(a as usize);
                *la = la.wrapping_add(bits[(da & 7) as usize]);
                let lb = lab.get_unchecked_mut(b as usize);
                *lb = lb.wrapping_add(bits[(db & 7) as usize]);
            }
            w &= w - 1;
        }
    }
    // A polar centre's outward passages may overflow its byte: its degree is kept apart.
    let centre = (grid == Grid::Polar).then(|| degree(node[0].acc));

    let Peel { diameter, top } = peel(g, root, node);
    assert_eq!(
        node[root as usize].below + 1,
        n,
        "measure: the maze is not connected"
    );
    let (d_start, d_end) = farthest_pair(g, maze, node, top, root);
    let classes: &Classes = &s.classes.as_ref().expect("set above").1;
    // A cell's children: its passages, but the one to its parent.
    let kids = |c: u32| -> u32 {
        let d = match centre {
            Some(d) if c == 0 => d,
            _ => classes.degree[lab[c as usize] as usize] as u32,
        };
        d - (c != root) as u32
    };

    // The solution, exit first, marked.
    s.path.clear();
    let mut u = ends.exit;
    loop {
        s.path.push(u);
        s.on_path[u as usize] = true;
        if u == root {
            break;
        }
        u = node[u as usize].up;
    }
    let solution_length = s.path.len() as u32 - 1;
    let (mut turns, mut decisions, mut branches, mut sizes) = (0u32, 0u32, 0u32, 0u64);
    let (mut branch_cells, mut branch_depth) = (0u32, 0u32);
    // No label is `u8::MAX`: the first step counts as a change, taken off after the loop.
    let mut last_dir = u8::MAX;
    let dirs_of = g.all_edge_dirs();
    // From the entrance: the path cell `c` and the next one towards the exit.
    for w in s.path.windows(2).rev() {
        let (next, c) = (w[0], w[1]);
        let nn = node[next as usize];
        // The step's label, read from `c`'s end of the edge (ends are smaller first).
        let step = dirs_of[nn.pe() as usize][(c > next) as usize];
        turns += (step != last_dir) as u32;
        last_dir = step;
        sizes += nn.below as u64;
        // Its passages but the two on the path (one at the entrance) are its children but one.
        let off = kids(c) - 1;
        if off > 0 {
            decisions += 1;
            branches += off;
            // The open sides of a path cell off the path lead to its children.
            for t in g.slots(c) {
                let v = g.nbr(t) as usize;
                if !s.on_path[v] && maze.is_open(g.edge(t)) {
                    branch_cells = branch_cells.max(node[v].below + 1);
                    branch_depth = branch_depth.max(node[v].h1() + 1);
                }
            }
        }
    }
    turns -= (solution_length > 0) as u32;
    // Each step into `next` adds `2·(n − below(next) − 1) − 1`.
    let walk = solution_length as u64 * (2 * n as u64).saturating_sub(3) - 2 * sizes;
    for &c in &s.path {
        s.on_path[c as usize] = false;
    }

    // Dead ends: the forced walk to the first cell that is not a corridor. Up from a dead end
    // other than the entrance, it climbs while the cells have one child: the passages so
    // climbed are one from each cell but the entrance whose subtree is a bare corridor (its
    // descent as long as its subtree is big) to its parent, counted with the degree columns
    // below. The entrance is the only cell a walk can go down from or through: as a dead end
    // it walks down its child's corridor, and as a corridor it passes a walk climbing one
    // child's bare corridor on down the other's.
    let mut dead_walk = 0;
    let corridor_down = |mut x: u32| {
        let mut steps = 0;
        while kids(x) == 1 {
            x = across(g, node[x as usize].down_edge(), x);
            steps += 1;
        }
        steps
    };
    let up = |c: u32| {
        let nc = node[c as usize];
        (nc.below == nc.h1()).then_some(nc.h1() as u64 + 1)
    };
    match kids(root) {
        1 => {
            let down = across(g, node[root as usize].down_edge(), root);
            dead_walk += 1 + corridor_down(down) as u64
        }
        2 => {
            let mut kids = g
                .slots(root)
                .filter(|&t| maze.is_open(g.edge(t)))
                .map(|t| g.nbr(t));
            let (c0, c1) = (kids.next().unwrap_or(root), kids.next().unwrap_or(root));
            dead_walk += match (up(c0), up(c1)) {
                (Some(x0), Some(x1)) => x0 + x1,
                (Some(_), None) => 1 + corridor_down(c1) as u64,
                (None, Some(_)) => 1 + corridor_down(c0) as u64,
                (None, None) => 0,
            };
        }
        _ => {}
    }
    // The pass below counts every id whose descent is as long as its subtree is big: the
    // holes of a mask (both 0) and the entrance, if so, are taken off.
    let root_bare = up(root).is_some() as u64;

    // The degree columns, from each id's `lab` byte (a hole of a mask has no passage: it
    // counts nowhere), in chunks whose counts fit a field; each id's byte and state are cleared
    // for the next maze on the way (a fill after the pass, a memset call, counted more
    // instructions than these stores).
    if let Some(d) = centre {
        lab[0] = polar_centre(d);
    }
    let classes = &classes.class;
    let (mut dead_ends, mut corridors, mut straights) = (0u32, 0u32, 0u32);
    let mut bare = 0u64;
    let field = (1u64 << FIELD) - 1;
    let chunk = 1 << (FIELD - 1);
    for (lc, nc) in lab.chunks_mut(chunk).zip(node.chunks_mut(chunk)) {
        let mut sum = 0u64;
        for (l, x) in lc.iter_mut().zip(nc.iter_mut()) {
            sum += classes[*l as usize];
            bare += (x.below == x.h1()) as u64;
            *l = 0;
            *x = Node::default();
        }
        dead_ends += (sum & field) as u32;
        corridors += (sum >> FIELD & field) as u32;
        straights += (sum >> (2 * FIELD)) as u32;
    }
    dead_walk += bare - (len - n as usize) as u64 - root_bare;
    s.clean = true;
    Columns {
        dead_ends,
        corridors,
        straights,
        dead_walk,
        diameter: (diameter, d_start, d_end),
        solution_length,
        turns,
        decisions,
        branches,
        walk,
        branch_cells,
        branch_depth,
    }
    .metrics(g, maze, ends.grid_distance, mask_hash)
}

/// The columns every pass counts (the tree passes [`measure_peel`] and [`measure_bfs`], and
/// the graph pass of [`super::measure_graph`]), made into [`Metrics`] by [`Columns::metrics`].
pub(super) struct Columns {
    /// Cells of degree 1.
    pub(super) dead_ends: u32,
    /// Cells of degree 2.
    pub(super) corridors: u32,
    /// Corridors open on opposite sides (the grid's meaning of opposite).
    pub(super) straights: u32,
    /// The passages of the dead-end corridors, summed over the dead ends.
    pub(super) dead_walk: u64,
    /// The diameter and the two ends of a farthest pair.
    pub(super) diameter: (u32, u32, u32),
    /// Passages from the entrance to the exit.
    pub(super) solution_length: u32,
    /// Direction changes along the solution.
    pub(super) turns: u32,
    /// Solution cells with an open side leading off the path.
    pub(super) decisions: u32,
    /// The off-path openings of those cells, summed.
    pub(super) branches: u32,
    /// The `walk_steps` column (see [`Metrics::walk_steps`]; 0 on a graph with loops).
    pub(super) walk: u64,
    /// The most cells behind one opening off the solution.
    pub(super) branch_cells: u32,
    /// The deepest wrong turn, in edges from the path.
    pub(super) branch_depth: u32,
}

impl Columns {
    /// The metrics of `maze`, a connected maze on `g` whose ends are `grid_distance` apart in
    /// the open grid, from these columns, as for a spanning tree (no loops, one shortest path);
    /// a graph pass sets its `loops` and `solution_count` on the result.
    pub(super) fn metrics(
        self,
        g: &CellGraph,
        maze: &GraphMaze,
        grid_distance: u32,
        mask_hash: u64,
    ) -> Metrics {
        let Columns {
            dead_ends,
            corridors,
            straights,
            dead_walk,
            diameter,
            solution_length,
            turns,
            decisions,
            branches,
            walk,
            branch_cells,
            branch_depth,
        } = self;
        let n = g.cells();
        // The other cells have degree 3 or more, but a lone cell (0).
        let junctions = n - dead_ends - corridors - (n == 1) as u32;
        Metrics {
            dead_ends,
            dead_end_share: dead_ends as f64 / n as f64,
            diameter: diameter.0,
            diameter_start: diameter.1,
            diameter_end: diameter.2,
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
            tortuosity: if grid_distance == 0 {
                1.0
            } else {
                solution_length as f64 / grid_distance as f64
            },
            mask_hash,
            cells: n,
            loops: 0,
            solution_count: 1,
            braid: 0.0,
        }
    }
}

/// [`measure`] on a graph with [`CellGraph::tree_tables`], as the square grid's tree pass
/// (`crate::metrics`): one add per end of an open edge gives each cell its labels and its open
/// edges; a breadth-first search from the entrance takes each cell's children in edge-id order;
/// a pass over that order reversed gives every position its subtree's size and longest descent,
/// and the longest path. Positions are in edge order among siblings, so "the last position
/// among equally deep children" is the tree pass's "the largest edge id among equally deep
/// children" and every column is the one [`peel`] and [`farthest_pair`] give: the first
/// attachment in the reversed order to make a longest path is at its deepest top (two longest
/// paths of a tree share a cell, so a higher top's longest path comes down through its child
/// towards the deepest top, attached after everything below it), and the farthest pair is read
/// at that top by (descent, position) as there by (descent, edge id).
fn measure_bfs(
    g: &CellGraph,
    maze: &GraphMaze,
    ends: GraphEnds,
    mask_hash: u64,
    s: &mut MeasureScratch,
    tree_edge: &[u64],
    tree_slot: &[u32],
) -> Metrics {
    let len = g.len() as usize;
    let n = g.cells() as usize;
    classes_for(s, g.size().grid);
    let b = &mut s.bfs;
    let word = for_len(&mut b.word, len);
    if !std::mem::replace(&mut b.clean, false) {
        word.fill(0);
    }
    let words = maze.words();
    let tail = g.edges() % 64;
    assert!(
        words.len() == g.words_per_maze()
            && tree_edge.len() == g.edges() as usize
            && (tail == 0 || words.last().is_none_or(|&w| w >> tail == 0)),
        "measure: the maze is not one of this graph"
    );
    // One add per end of an open edge: the label's bit and the edge's rank bit.
    for (k, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let e = (k as u32) << 6 | w.trailing_zeros();
            // SAFETY: `e` is an open bit of the maze, so an edge of `g` (checked above: no bit
            // past the last edge), below the length of `tree_edge`; its two ends are cells of
            // `g`, below `g.len()`, the length of `word`.
            unsafe {
                let t = *tree_edge.get_unchecked(e as usize);
                let wa = word.get_unchecked_mut((t & 0xffff) as usize);
                *wa = wa.wrapping_add((t >> 32) as u16);
                let wb = word.get_unchecked_mut((t >> 16 & 0xffff) as usize);
                *wb = wb.wrapping_add((t >> 48) as u16);
            }
            w &= w - 1;
        }
    }
    if b.queue.len() < n + 8 {
        b.queue.resize(n + 8, 0);
        b.first.resize(n + 1, 0);
        b.sub.resize(n, Sub::default());
    }
    let (queue, first, sub) = (
        &mut b.queue[..n + 8],
        &mut b.first[..n + 1],
        &mut b.sub[..n],
    );
    // SAFETY: `word` is all zero but for the adds of `tree_edge` above: a distinct rank bit of
    // an edge of the cell per end in the high byte, and labels in the low byte that never carry
    // (one bit per side on hex and triangle grids; on a polar grid 1, 2, 4 and 8 per outward
    // passage, at most 7 + 8·8 with at most 8 neighbours).
    let exit_pos = unsafe { search(g, tree_slot, word, ends, queue, first, sub) };
    let queue = &queue[..n];
    let cell = |pos: usize| (queue[pos] & 0xffff) as u32;
    let parent = |pos: usize| (queue[pos] >> 32) as usize;

    // SAFETY: the search wrote every position `1..n` (it checked that the queue reached `n`)
    // from a position before it, a push landing past the position pushing it, and the parent
    // field is that position.
    let (best, best_pos, forked) = unsafe { attach(queue, sub) };
    let sub = &sub[..];
    let first = &first[..];
    let kids = |pos: usize| first[pos + 1] - first[pos];
    // The end of the longest descent below `pos` by (descent, position) at every step: of its
    // descendants at depth `reach − 1` below it the last in order, as the descendants at each
    // depth are a run of positions and the run one level down the children of that run.
    let deepest = |pos: usize| {
        let mut end = pos + 1;
        for _ in 1..sub[pos].reach {
            end = first[end] as usize;
        }
        end - 1
    };
    // The farthest pair: at the top, its two best children by (descent, position).
    let top = if best_pos == 0 {
        0
    } else {
        parent(best_pos as usize)
    };
    let (mut one, mut two) = ((0u32, top), (0u32, top));
    let c0 = first[top] as usize;
    for (j, t) in sub[c0..first[top + 1] as usize].iter().enumerate() {
        let key = (t.reach, c0 + j);
        if key > one {
            (two, one) = (one, key);
        } else if key > two {
            two = key;
        }
    }
    let end_of = |(_, c): (u32, usize)| {
        if c == top {
            cell(top)
        } else {
            cell(deepest(c))
        }
    };
    let (d_start, d_end) = (end_of(one), end_of(two));

    // The solution, from the exit up.
    s.path.clear();
    let mut x = exit_pos;
    s.path.push(cell(x));
    let (mut length, mut changes, mut last, mut sizes) = (0u32, 0u32, u64::MAX, 0u64);
    let (mut decisions, mut branches, mut branch_cells, mut branch_depth) = (0u32, 0u32, 0, 0);
    while x != 0 {
        let e = queue[x];
        let px = (e >> 32) as usize;
        let dir = e >> 24 & 7;
        changes += (dir != last) as u32;
        last = dir;
        sizes += sub[x].size as u64 - 1;
        length += 1;
        // The parent's children but the one on the path.
        let off = kids(px) - 1;
        if off > 0 {
            decisions += 1;
            branches += off;
            let c0 = first[px] as usize;
            for (j, t) in sub[c0..first[px + 1] as usize].iter().enumerate() {
                if c0 + j != x {
                    branch_cells = branch_cells.max(t.size);
                    branch_depth = branch_depth.max(t.reach);
                }
            }
        }
        s.path.push(cell(px));
        x = px;
    }
    let turns = changes - (length > 0) as u32;
    // Each step into a cell adds `2·(n − size) − 1`.
    let walk = length as u64 * (2 * n as u64).saturating_sub(3) - 2 * sizes;

    // Dead ends: the forced walk to the first cell that is not a corridor (see `measure`):
    // positions but the entrance whose subtree is a bare corridor, and the entrance's own.
    let bare = (n as u64 - 1) - forked;
    let up = |c: usize| (sub[c].size == sub[c].reach).then_some(sub[c].reach as u64);
    let corridor_down = |mut x: usize| {
        let mut steps = 0;
        while kids(x) == 1 {
            x = first[x] as usize;
            steps += 1;
        }
        steps
    };
    let c0 = first[0] as usize;
    let mut dead_walk = bare;
    match kids(0) {
        1 => dead_walk += 1 + corridor_down(c0),
        2 => {
            dead_walk += match (up(c0), up(c0 + 1)) {
                (Some(x0), Some(x1)) => x0 + x1,
                (Some(_), None) => 1 + corridor_down(c0 + 1),
                (None, Some(_)) => 1 + corridor_down(c0),
                (None, None) => 0,
            };
        }
        _ => {}
    }

    // The degree columns from the label bytes (a polar centre's as in `measure`), each word
    // cleared for the next maze on the way.
    if g.size().grid == Grid::Polar {
        let d = ONES[(word[0] >> 8) as usize] as u32;
        word[0] = polar_centre(d) as u16;
    }
    let classes = &s.classes.as_ref().expect("set by measure").1.class;
    let (mut dead_ends, mut corridors, mut straights) = (0u32, 0u32, 0u32);
    let field = (1u64 << FIELD) - 1;
    for wc in word.chunks_mut(1 << (FIELD - 1)) {
        let mut sum = 0u64;
        for w in wc.iter_mut() {
            sum += classes[(*w & 0xff) as usize];
            *w = 0;
        }
        dead_ends += (sum & field) as u32;
        corridors += (sum >> FIELD & field) as u32;
        straights += (sum >> (2 * FIELD)) as u32;
    }
    b.clean = true;
    Columns {
        dead_ends,
        corridors,
        straights,
        dead_walk,
        diameter: (best - 1, d_start, d_end),
        solution_length: length,
        turns,
        decisions,
        branches,
        walk,
        branch_cells,
        branch_depth,
    }
    .metrics(g, maze, ends.grid_distance, mask_hash)
}

/// The reverse pass of [`measure_bfs`] over the positions of `queue` (entries as in
/// [`Bfs::queue`]), every child before its parent: each position's subtree in `sub` (set to
/// leaves by the search), the longest path plus one (a sum of two reaches) and the first
/// position in the pass to make it (a strict `>`), and the positions but the first that are not
/// bare corridors (`reach < size`). Out of line, so its loop keeps its values in registers.
///
/// # Safety
///
/// The parent position of every entry `1..n` of `queue` is below the entry's own (as
/// [`search`] leaves them).
#[inline(never)]
unsafe fn attach(queue: &[u64], sub: &mut [Sub]) -> (u32, u32, u64) {
    let n = sub.len();
    assert!(queue.len() == n);
    let (mut best, mut best_pos) = (1u32, 0u32);
    let mut forked = 0u64;
    for pos in (1..n).rev() {
        // SAFETY: `pos < n`, the length of `queue` and `sub`.
        let (e, me) = unsafe { (*queue.get_unchecked(pos), *sub.get_unchecked(pos)) };
        let p = (e >> 32) as usize;
        // SAFETY: `p < pos` (the caller's promise).
        let par = unsafe { *sub.get_unchecked(p) };
        let through = par.reach + me.reach;
        if through > best {
            (best, best_pos) = longer(through, pos as u32);
        }
        forked += (me.reach < me.size) as u64;
        // SAFETY: as for `par`.
        *unsafe { sub.get_unchecked_mut(p) } = Sub {
            reach: par.reach.max(me.reach + 1),
            size: par.size + me.size,
        };
    }
    (best, best_pos, forked)
}

/// The breadth-first search of [`measure_bfs`] from the entrance over the open edges in each
/// `word`'s high byte, a cell's children in the order of their edges' ids
/// ([`CellGraph::tree_tables`]): fills `queue` and `first` and sets every position's subtree
/// to a leaf. Returns the exit's position. Panics unless the open edges make a spanning tree
/// of the graph's cells. Out of line, so its loop keeps its values in registers.
///
/// # Safety
///
/// The high byte of each cell's `word` holds only bits of ranks of the cell's edges (as the
/// adds of `tree_edge` leave it: one distinct rank bit per end, and the low byte's labels
/// never carry into it).
#[inline(never)]
unsafe fn search(
    g: &CellGraph,
    tree_slot: &[u32],
    word: &[u16],
    ends: GraphEnds,
    queue: &mut [u64],
    first: &mut [u32],
    sub: &mut [Sub],
) -> usize {
    let n = sub.len();
    assert!(
        (ends.entrance as usize) < word.len()
            && word.len() == g.len() as usize
            && queue.len() == n + 8
            && first.len() == n + 1,
        "measure: the entrance is not a cell of the graph"
    );
    // The entrance keeps all of its edges.
    queue[0] = ends.entrance as u64 | 0xff << 16;
    let (mut head, mut tail, mut exit_pos) = (0usize, 1usize, usize::MAX);
    while head != tail {
        // A cell pushes at most 8 children: from `tail <= n` they stay below `n + 8`.
        assert!(
            tail <= n,
            "measure: the maze has a loop (not a perfect maze)"
        );
        // SAFETY: `head < tail <= n`, below the length of `queue`, `first` and `sub`.
        let e = unsafe { *queue.get_unchecked(head) };
        let c = (e & 0xffff) as u32;
        if c == ends.exit {
            exit_pos = met(head);
        }
        // SAFETY: as above.
        unsafe {
            *first.get_unchecked_mut(head) = tail as u32;
            *sub.get_unchecked_mut(head) = LEAF;
        }
        // SAFETY: `c` is the entrance (checked above) or a neighbour read from `tree_slot`, a
        // cell of `g`, below `g.len()`, the length of `word`; `at + k` for a rank `k` of one of
        // its edges (the caller's promise) is below `at` plus its slot count, within
        // `tree_slot`; `tail < n + 8`, the length of `queue` (see above).
        unsafe {
            // Its open edges but the one back to its parent (the entry's bits 16..24 keep the
            // others; the bits above them fall outside the byte).
            let mut fwd = (*word.get_unchecked(c as usize) >> 8) as u32 & (e >> 16) as u32;
            let (at, _) = g.slot_span_unchecked(c);
            while fwd != 0 {
                let t = *tree_slot.get_unchecked((at + fwd.trailing_zeros()) as usize);
                *queue.get_unchecked_mut(tail) = t as u64 | (head as u64) << 32;
                tail += 1;
                fwd &= fwd - 1;
            }
        }
        head += 1;
    }
    assert_eq!(tail, n, "measure: the maze is not connected");
    first[n] = n as u32;
    assert!(exit_pos < n, "measure: the exit is not a cell of the graph");
    exit_pos
}

/// `pos`, through a call the optimiser keeps on the taken side of a branch (the exit is met
/// once per maze).
#[cold]
#[inline(never)]
fn met(pos: usize) -> usize {
    pos
}

/// Added to the entrance's count in [`peel`]: it never reads 1.
const NOT_A_LEAF: u64 = 1 << 31;

/// What [`peel`] finds.
struct Peel {
    /// The longest path's length.
    diameter: u32,
    /// Its top: the deepest cell where two descents make it.
    top: u32,
}

/// The peel, in one pass in id order (as the linear-time Prüfer construction): a cell left
/// with one passage that is not the entrance is peeled into the cell across it, its parent;
/// a parent that becomes such a leaf is peeled at once if the pass is already beyond it,
/// else when the pass reaches it. Children are peeled before their parents. The longest
/// path is the best sum of two descents met at a cell as its children are attached: the
/// first attachment to make it is at the deepest cell where two descents make a longest
/// path (every such cell lies on one chain above the tree's centre, and a cell's attachments
/// come after all of its descendants'). `node` holds the words of a maze of `g` (see
/// `measure`). Out of line, with only what it needs, so its loop keeps its values in
/// registers.
#[inline(never)]
fn peel(g: &CellGraph, root: u32, node: &mut [Node]) -> Peel {
    assert_eq!(node.len(), g.len() as usize);
    // SAFETY (every `get_unchecked` of `node` below): the index is a cell id of `g` (an id of
    // the pass, or an end of an edge of `g`), so below `g.len()`, which is `node.len()`.
    let (mut diameter, mut top) = (0u32, root);
    // The entrance is never peeled: a count past any degree keeps it from looking like a leaf
    // (the cleanup of its word drops it). Holes of a mask have no passage: the pass goes
    // through every id and never peels them.
    node[root as usize].acc += NOT_A_LEAF;
    for c in 0..g.len() {
        if degree(unsafe { node.get_unchecked(c as usize) }.acc) != 1 {
            continue;
        }
        let mut x = c;
        loop {
            let nx = *unsafe { node.get_unchecked(x as usize) };
            let e = edge_sum(nx.acc);
            // SAFETY: a cell left with one passage has the cell across it as its sum `up` (the
            // sums of the ends of open edges, less the children peeled off), and that is a cell
            // of `g` (an end of an open edge, an edge of `g`: `measure`, the only caller,
            // checked that the maze has no bit past the last edge before filling the words).
            let p = nx.up;
            let np = unsafe { node.get_unchecked_mut(p as usize) };
            np.below += nx.below + 1;
            // The descent through `x` and its edge, against the parent's best so far.
            let key = ((nx.h1() + 1) as u64) << 32 | e as u64;
            let through = np.h1() + nx.h1() + 1;
            if through > diameter {
                (diameter, top) = longer(through, p);
            }
            np.best = np.best.max(key);
            np.acc -= (e as u64) << 32 | 1;
            np.up = np.up.wrapping_sub(x);
            if degree(np.acc) == 1 && p < c {
                x = p;
            } else {
                break;
            }
        }
    }
    Peel { diameter, top }
}

/// `(through, cell)`, out of line: the longest path met so far grows a few hundred times per
/// maze, and as a branch (not two selects) it stays in registers.
#[cold]
#[inline(never)]
fn longer(through: u32, cell: u32) -> (u32, u32) {
    (through, cell)
}

/// `v` with `len` elements (grown with defaults, never shrunk below `len`), as a slice.
fn for_len<T: Clone + Default>(v: &mut Vec<T>, len: usize) -> &mut [T] {
    if v.len() < len {
        v.resize(len, T::default());
    }
    &mut v[..len]
}

/// The ends of the longest path whose top (its cell nearest the entrance) is `top`, as a
/// breadth-first search from the entrance would report them: it meets a cell's children in
/// edge order and goes through them in reverse, keeping a descent only when strictly deeper, so
/// of equally deep children the one by the largest edge id gives a cell's deepest descent, and
/// the next such child (or `top` itself, with fewer than two children) its second.
fn farthest_pair(
    g: &CellGraph,
    maze: &GraphMaze,
    node: &[Node],
    top: u32,
    root: u32,
) -> (u32, u32) {
    // The two best children of `top` by (descent, edge id).
    let (mut first, mut second) = ((0u32, 0u32, top), (0u32, 0u32, top));
    let parent_edge = if top == root {
        u32::MAX
    } else {
        node[top as usize].pe()
    };
    for t in g.slots(top) {
        let e = g.edge(t);
        if e == parent_edge || !maze.is_open(e) {
            continue;
        }
        let key = (node[g.nbr(t) as usize].h1() + 1, e + 1, g.nbr(t));
        if key > first {
            (second, first) = (first, key);
        } else if key > second {
            second = key;
        }
    }
    // Down the children the peel kept for each cell's deepest descent (a cell has a child
    // exactly when its descent is not 0).
    let deepest = |mut x: u32| {
        while node[x as usize].h1() > 0 {
            x = across(g, node[x as usize].down_edge(), x);
        }
        x
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
