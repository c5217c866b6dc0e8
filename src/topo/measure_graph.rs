//! The metric columns of any maze on a [`CellGraph`]: a perfect one (the tree pass,
//! [`super::measure()`]) or a braided one with loops, and with the ends fixed or a farthest pair
//! (`--ends diameter`). Every column keeps the definition it has on a braided square maze
//! (`src/metrics/graph.rs`, `src/metrics/columns.md`), read on the grid's own neighbours:
//!
//! - Shortest paths are breadth-first searches. The **canonical shortest path** from the
//!   entrance to the exit is the chain of BFS parents from the exit back to the entrance, where
//!   a cell's parent is the first neighbour to reach it in a search from the entrance that
//!   visits each cell's neighbours in the grid's direction order (slot order,
//!   `src/topo/README.md`; on the square grid east, south, west, north). `solution_turns`,
//!   `solution_decisions`, `solution_branches` and the branch columns are taken along it; a
//!   turn is a change of the step's direction label, as on a tree.
//! - `solution_count` counts every distinct shortest path (saturating at `u64::MAX`).
//! - `diameter` is exact: the pendant trees are peeled off, then eccentricity bounds (Takes and
//!   Kosters) and the fringe stop of iFUB around a central cell finish it on the 2-core, the
//!   square grid's method on the graph's adjacency (`Scratch::diameter`).
//! - `max_branch_cells`, `max_branch_depth`, `mean_dead_end_length` and `walk_steps` (NULL, the
//!   field 0, when `loops > 0`) are the square definitions.
//! - `tortuosity` divides by the entrance–exit distance in the grid with every wall open.
//!
//! **`--ends diameter`**: a BFS from the graph's first cell (neighbours in slot order) ends at a
//! cell; on a perfect maze that cell is the entrance and the last cell of a BFS from it the
//! exit (the double sweep, exact on a tree); on a maze with loops the entrance and exit are the
//! exact diameter's pair. `diameter_start`/`diameter_end` are then the entrance and the exit,
//! and `solution_length` equals `diameter`.

use super::measure::{grid_distance_with, measure as measure_tree, Columns};
use super::{CellGraph, GraphEnds, GraphMaze, MeasureScratch};
use crate::metrics::Metrics;
use crate::metrics::{tighten, Candidate, NONE};

/// Not reached yet, in the distance buffers.
const UNSEEN: u32 = u32::MAX;

/// Where the solution of a grid maze runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridEnds {
    /// Between two fixed cells.
    Cells(GraphEnds),
    /// Between a farthest pair (`--ends diameter`; see the module docs).
    Diameter,
}

/// A worker's buffers for [`measure_maze`], reused for every maze.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The tree pass's buffers (perfect mazes).
    pub tree: MeasureScratch,
    /// Whether the last maze measured was perfect (its solution is in `tree`).
    tree_last: bool,
    /// Passages of each cell; the open adjacency in slot order (`toff`, `tnbr`, `tdir`).
    deg: Vec<u32>,
    toff: Vec<u32>,
    tnbr: Vec<u32>,
    tdir: Vec<u8>,
    /// BFS distances, order, canonical parents, the direction of the step from the parent,
    /// path counts.
    dist: Vec<u32>,
    queue: Vec<u32>,
    parent: Vec<u32>,
    vdir: Vec<u8>,
    count: Vec<u64>,
    /// Peel: passages left in the 2-core, pendant heights and deepest cells.
    core: Vec<u32>,
    height: Vec<u32>,
    deep: Vec<u32>,
    stack: Vec<u32>,
    cand: Vec<Candidate>,
    /// Branch columns: part labels, union-find roots, cells per label.
    label: Vec<u32>,
    root: Vec<u32>,
    part: Vec<u32>,
    /// The solution, exit first.
    path: Vec<u32>,
    /// The full grid's BFS buffers (tortuosity under `--ends diameter`).
    grid_dist: Vec<u32>,
    grid_queue: Vec<u32>,
    /// Breadth-first searches the last diameter took.
    searches: u32,
}

impl Scratch {
    /// Empty buffers.
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// The solution of the last maze measured, entrance first (from the tree pass's buffers
    /// when it was perfect).
    pub fn solution_path(&self) -> Vec<u32> {
        if self.tree_last {
            return self.tree.solution_path();
        }
        self.path.iter().rev().copied().collect()
    }

    /// The open adjacency of `maze` in slot order.
    fn adjacency(&mut self, g: &CellGraph, maze: &GraphMaze) {
        let len = g.len() as usize;
        self.deg.clear();
        self.toff.clear();
        self.tnbr.clear();
        self.tdir.clear();
        for c in 0..len as u32 {
            self.toff.push(self.tnbr.len() as u32);
            for s in g.slots(c) {
                if maze.is_open(g.edge(s)) {
                    self.tnbr.push(g.nbr(s));
                    self.tdir.push(g.dir(s));
                }
            }
            self.deg
                .push(self.tnbr.len() as u32 - self.toff[c as usize]);
        }
        self.toff.push(self.tnbr.len() as u32);
        for v in [
            &mut self.dist,
            &mut self.queue,
            &mut self.parent,
            &mut self.core,
            &mut self.height,
            &mut self.deep,
            &mut self.label,
            &mut self.root,
            &mut self.part,
        ] {
            v.clear();
            v.resize(len, 0);
        }
        self.vdir.clear();
        self.vdir.resize(len, 0);
        self.count.clear();
        self.count.resize(len, 0);
    }

    /// The passages of cell `c`: (the cell across, its direction label).
    #[inline]
    fn passages(&self, c: u32) -> impl Iterator<Item = (u32, u8)> + '_ {
        let r = self.toff[c as usize] as usize..self.toff[c as usize + 1] as usize;
        self.tnbr[r.clone()]
            .iter()
            .copied()
            .zip(self.tdir[r].iter().copied())
    }

    /// A BFS from `root` over the passages filling `dist`, `queue`, the canonical parents, the
    /// step directions and the path counts. Returns the number of cells reached.
    fn counted_bfs(&mut self, root: u32) -> usize {
        self.dist.fill(UNSEEN);
        self.dist[root as usize] = 0;
        self.parent[root as usize] = root;
        self.count[root as usize] = 1;
        self.queue[0] = root;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let v = self.queue[head];
            head += 1;
            let dv = self.dist[v as usize];
            for t in self.toff[v as usize]..self.toff[v as usize + 1] {
                let u = self.tnbr[t as usize] as usize;
                if self.dist[u] == UNSEEN {
                    self.dist[u] = dv + 1;
                    self.queue[tail] = u as u32;
                    tail += 1;
                    self.parent[u] = v;
                    self.vdir[u] = self.tdir[t as usize];
                    self.count[u] = self.count[v as usize];
                } else if self.dist[u] == dv + 1 {
                    self.count[u] = self.count[u].saturating_add(self.count[v as usize]);
                }
            }
        }
        tail
    }

    /// A BFS from `root` over the passages (of the 2-core only when `core_only`), filling
    /// `dist` and `queue`; returns the number of cells reached and, over the cells other than
    /// the root, the largest `dist + height` and the first cell reaching it (the root when none).
    fn bfs(&mut self, root: u32, core_only: bool) -> (usize, u32, u32) {
        self.dist.fill(UNSEEN);
        self.dist[root as usize] = 0;
        self.queue[0] = root;
        let (mut head, mut tail) = (0, 1);
        let (mut e, mut far) = (0u32, root);
        while head < tail {
            let v = self.queue[head];
            head += 1;
            let dv = self.dist[v as usize];
            if dv > 0 {
                let t = dv
                    + if core_only {
                        self.height[v as usize]
                    } else {
                        0
                    };
                if t > e {
                    (e, far) = (t, v);
                }
            }
            for t in self.toff[v as usize]..self.toff[v as usize + 1] {
                let u = self.tnbr[t as usize] as usize;
                if self.dist[u] == UNSEEN && (!core_only || self.core[u] > 0) {
                    self.dist[u] = dv + 1;
                    self.queue[tail] = u as u32;
                    tail += 1;
                }
            }
        }
        (tail, e, far)
    }

    /// Peel the pendant trees off the maze: every cell of degree 1 is removed, leaf by leaf,
    /// until the 2-core is left. Afterwards `core` holds each cell's passages within the 2-core
    /// (0 for a peeled cell), `height[r]` the depth of the deepest cell hanging off core cell
    /// `r` and `deep[r]` that cell (`r` itself when none). Returns the longest distance between
    /// two cells of one hanging tree (its root included) and a pair at that distance.
    fn peel(&mut self, g: &CellGraph) -> (u32, u32, u32) {
        self.core.copy_from_slice(&self.deg);
        self.height.fill(0);
        for (c, d) in self.deep.iter_mut().enumerate() {
            *d = c as u32;
        }
        self.stack.clear();
        self.stack.extend(
            g.ids()
                .iter()
                .copied()
                .filter(|&c| self.deg[c as usize] == 1),
        );
        let mut best = (0, 0, 0);
        while let Some(v) = self.stack.pop() {
            if self.core[v as usize] != 1 {
                continue;
            }
            let p = self
                .passages(v)
                .map(|(u, _)| u)
                .find(|&u| self.core[u as usize] > 0)
                .expect("a leaf has one passage left");
            self.core[v as usize] = 0;
            self.core[p as usize] -= 1;
            let (v, p) = (v as usize, p as usize);
            let below = self.height[v] + 1;
            if self.height[p] + below > best.0 {
                best = (self.height[p] + below, self.deep[p], self.deep[v]);
            }
            if below > self.height[p] {
                self.height[p] = below;
                self.deep[p] = self.deep[v];
            }
            if self.core[p] == 1 {
                self.stack.push(p as u32);
            }
        }
        best
    }

    /// The exact diameter and a farthest pair of a maze with loops; `dist` holds the distances
    /// from a cell `a` of it. The method of the square grid's graph pass
    /// (`src/metrics/graph.rs`): the longest pair inside one hanging tree, or else between the
    /// tips `deep[r]` of two core cells at `height[r] + d(r, s) + height[s]`, found by searches
    /// on the 2-core with eccentricity bounds `max(d, e − d) ≤ ecc(w) ≤ e + d` that drop every
    /// candidate whose upper bound is at most the best pair found, first from the tip farthest
    /// from `a`, then from the candidate of largest upper bound, then from the one of smallest
    /// lower bound (a central tip `u`), then from the candidates farther than `best / 2` from
    /// `u` by decreasing upper bound; when no such candidate is left, `best` is the diameter.
    fn diameter(&mut self, g: &CellGraph, a: u32) -> (u32, u32, u32) {
        let mut best = self.peel(g);
        self.cand.clear();
        let (mut v, mut start) = (UNSEEN, 0u32);
        for &c in g.ids() {
            if self.core[c as usize] != 0 {
                let height = self.height[c as usize];
                self.cand.push(Candidate::new(c, height, c));
                let far = self.dist[c as usize].saturating_add(height);
                if v == UNSEEN || far > start {
                    (v, start) = (c, far);
                }
            }
        }
        self.searches = 0;
        if v == UNSEEN {
            // No loop: nothing but one hanging tree.
            return if best.0 == 0 { (0, a, a) } else { best };
        }
        if best.0 == 0 {
            best = (0, v, v);
        }
        loop {
            self.searches += 1;
            let step = self.searches;
            let (_, mut e, far) = self.bfs(v, true);
            let hv = self.height[v as usize];
            e += hv;
            if e > best.0 {
                best = (e, self.deep[v as usize], self.deep[far as usize]);
            }
            let (kept, next) = tighten(step, &mut self.cand, &self.dist, hv, e, best.0);
            self.cand.truncate(kept);
            if kept == 0 || next == NONE {
                return best;
            }
            v = next;
        }
    }

    /// `max_branch_cells` and `max_branch_depth` for the solution in `path` (exit first): a
    /// multi-source BFS from the path cells but the exit (the exit blocks), each cell a path
    /// cell reaches first starting a part label, labels that meet joined (union-find).
    fn branches_off(&mut self) -> (u32, u32) {
        if self.path.len() < 2 {
            return (0, 0);
        }
        self.dist.fill(UNSEEN);
        let exit = self.path[0] as usize;
        self.dist[exit] = 0;
        self.label[exit] = UNSEEN;
        let mut tail = 0;
        for k in 1..self.path.len() {
            let c = self.path[k];
            self.dist[c as usize] = 0;
            self.label[c as usize] = UNSEEN;
            self.queue[tail] = c;
            tail += 1;
        }
        let sources = tail;
        for head in 0..sources {
            let v = self.queue[head];
            for t in self.toff[v as usize]..self.toff[v as usize + 1] {
                let u = self.tnbr[t as usize] as usize;
                if self.dist[u] == UNSEEN {
                    self.dist[u] = 1;
                    self.label[u] = u as u32;
                    self.root[u] = u as u32;
                    self.part[u] = 0;
                    self.queue[tail] = u as u32;
                    tail += 1;
                }
            }
        }
        let seeds = tail;
        let mut head = sources;
        while head < tail {
            let v = self.queue[head];
            head += 1;
            let (dv, lv) = (self.dist[v as usize] + 1, self.label[v as usize]);
            self.part[lv as usize] += 1;
            for t in self.toff[v as usize]..self.toff[v as usize + 1] {
                let u = self.tnbr[t as usize] as usize;
                if self.dist[u] == UNSEEN {
                    self.dist[u] = dv;
                    self.label[u] = lv;
                    self.queue[tail] = u as u32;
                    tail += 1;
                } else if self.label[u] != lv && self.label[u] != UNSEEN {
                    let (a, b) = (
                        find(&mut self.root, self.label[u]),
                        find(&mut self.root, lv),
                    );
                    self.root[a as usize] = b;
                }
            }
        }
        for i in sources..seeds {
            let r = self.queue[i];
            let top = find(&mut self.root, r);
            if top != r {
                self.part[top as usize] += self.part[r as usize];
                self.part[r as usize] = 0;
            }
        }
        let cells = (sources..seeds)
            .map(|i| self.part[self.queue[i] as usize])
            .max()
            .unwrap_or(0);
        (cells, self.dist[self.queue[tail - 1] as usize])
    }
}

/// The root of label `x` in the union-find `root` (halving the path on the way).
fn find(root: &mut [u32], mut x: u32) -> u32 {
    while root[x as usize] != x {
        let up = root[root[x as usize] as usize];
        root[x as usize] = up;
        x = up;
    }
    x
}

/// Measure `maze`, a connected maze on `g` (perfect or braided), with the solution between
/// `ends`; `mask_hash` is copied into the row. `braid` is left 0 for the caller to set.
/// Panics if the maze is not connected.
pub fn measure_maze(
    g: &CellGraph,
    maze: &GraphMaze,
    ends: GridEnds,
    mask_hash: u64,
    s: &mut Scratch,
) -> Metrics {
    let passages = maze.passages();
    let cells = g.cells() as u64;
    assert!(
        passages + 1 >= cells,
        "measure: the maze is not connected ({passages} passages, {cells} cells)"
    );
    let loops = (passages + 1 - cells) as u32;
    s.tree_last = loops == 0;
    if loops == 0 {
        let ends = match ends {
            GridEnds::Cells(e) => return measure_tree(g, maze, e, mask_hash, &mut s.tree),
            GridEnds::Diameter => {
                // The double sweep on the tree, neighbours in slot order.
                s.adjacency(g, maze);
                let (n, ..) = s.bfs(g.ids()[0], false);
                let entrance = s.queue[n - 1];
                let (n, ..) = s.bfs(entrance, false);
                let exit = s.queue[n - 1];
                let d = grid_distance_with(g, entrance, exit, &mut s.grid_dist, &mut s.grid_queue);
                GraphEnds {
                    entrance,
                    exit,
                    grid_distance: d,
                }
            }
        };
        let mut m = measure_tree(g, maze, ends, mask_hash, &mut s.tree);
        debug_assert_eq!(m.diameter, m.solution_length);
        (m.diameter_start, m.diameter_end) = (ends.entrance, ends.exit);
        return m;
    }
    s.adjacency(g, maze);
    let n = g.cells() as usize;
    let (entrance, exit, diameter, length, grid_distance) = match ends {
        GridEnds::Cells(e) => {
            let reached = s.counted_bfs(e.entrance);
            assert_eq!(reached, n, "measure: the maze is not connected");
            let length = s.dist[e.exit as usize];
            let d = s.diameter(g, e.entrance);
            (e.entrance, e.exit, d, length, e.grid_distance)
        }
        GridEnds::Diameter => {
            let first = g.ids()[0];
            let (reached, ..) = s.bfs(first, false);
            assert_eq!(reached, n, "measure: the maze is not connected");
            let d = s.diameter(g, first);
            s.counted_bfs(d.1);
            let gd = grid_distance_with(g, d.1, d.2, &mut s.grid_dist, &mut s.grid_queue);
            (d.1, d.2, d, d.0, gd)
        }
    };
    let solution_count = s.count[exit as usize];

    // Dead ends, corridors and straights, as on a tree (the junctions are the other cells).
    let (mut dead_ends, mut corridors, mut straights) = (0u32, 0u32, 0u32);
    for &c in g.ids() {
        match s.deg[c as usize] {
            1 => dead_ends += 1,
            2 => {
                corridors += 1;
                let t = s.toff[c as usize] as usize;
                straights += (s.tdir[t + 1] == g.opposite(s.tdir[t])) as u32;
            }
            _ => {}
        }
    }

    // The canonical shortest path, exit first; turns, decisions and branches along it.
    s.path.clear();
    let mut x = exit;
    s.path.push(x);
    while x != entrance {
        x = s.parent[x as usize];
        s.path.push(x);
    }
    let mut turns = 0u32;
    for pair in s.path.windows(3) {
        // Steps into pair[1] and into pair[0] (from the entrance's side).
        turns += (s.vdir[pair[0] as usize] != s.vdir[pair[1] as usize]) as u32;
    }
    let (mut decisions, mut branches) = (0u32, 0u32);
    for (j, &c) in s.path.iter().enumerate().skip(1) {
        // A shortest path is induced: a path cell's path neighbours are its predecessor and
        // successor only.
        let on = if j + 1 == s.path.len() { 1 } else { 2 };
        let off_path = s.deg[c as usize] - on;
        branches += off_path;
        decisions += (off_path > 0) as u32;
    }
    let (max_branch_cells, max_branch_depth) = s.branches_off();

    // Dead ends: the forced walk through corridor cells to the first cell that is not one.
    let mut walk = 0u64;
    for &c in g.ids() {
        if s.deg[c as usize] != 1 {
            continue;
        }
        let (mut prev, mut u) = (c, s.tnbr[s.toff[c as usize] as usize]);
        walk += 1;
        while s.deg[u as usize] == 2 {
            let t = s.toff[u as usize] as usize;
            let next = if s.tnbr[t] != prev {
                s.tnbr[t]
            } else {
                s.tnbr[t + 1]
            };
            (prev, u) = (u, next);
            walk += 1;
        }
    }

    Metrics {
        loops,
        solution_count,
        ..Columns {
            dead_ends,
            corridors,
            straights,
            dead_walk: walk,
            diameter,
            solution_length: length,
            turns,
            decisions,
            branches,
            // A rational number with loops: the column is NULL (see the module docs).
            walk: 0,
            branch_cells: max_branch_cells,
            branch_depth: max_branch_depth,
        }
        .metrics(g, maze, grid_distance, mask_hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate_seeded, Algorithm, Scratch as GenScratch};
    use crate::grid::{Maze, Size};
    use crate::metrics::Ends;
    use crate::rng::{Chance, Rng};
    use crate::topo::braid::{braid_seeded, BraidScratch};
    use crate::topo::generate::{check, generate, GraphScratch};
    use crate::topo::{Grid, GridSize};

    /// Distances from `a` over the open edges, by a plain search on the graph (no buffers of
    /// the code under test).
    fn distances(g: &CellGraph, m: &GraphMaze, a: u32) -> Vec<u32> {
        let mut d = vec![u32::MAX; g.len() as usize];
        let mut q = std::collections::VecDeque::from([a]);
        d[a as usize] = 0;
        while let Some(u) = q.pop_front() {
            for s in g.slots(u) {
                let v = g.nbr(s);
                if m.is_open(g.edge(s)) && d[v as usize] == u32::MAX {
                    d[v as usize] = d[u as usize] + 1;
                    q.push_back(v);
                }
            }
        }
        d
    }

    /// The number of shortest paths from `a` to `b`, by counting over distance layers.
    fn shortest_paths(g: &CellGraph, m: &GraphMaze, a: u32, b: u32) -> u64 {
        let d = distances(g, m, a);
        let mut cells: Vec<u32> = g.ids().to_vec();
        cells.sort_by_key(|&c| d[c as usize]);
        let mut ways = vec![0u64; g.len() as usize];
        ways[a as usize] = 1;
        for &u in &cells {
            for s in g.slots(u) {
                let v = g.nbr(s);
                if m.is_open(g.edge(s)) && d[v as usize] == d[u as usize] + 1 {
                    ways[v as usize] += ways[u as usize];
                }
            }
        }
        ways[b as usize]
    }

    /// Small braided mazes of every grid (a hex mask too), every generator defined on it, braid
    /// 0.05 to 1: the diameter is the all-pairs maximum and its pair lies that far apart, from
    /// every entrance; the solution's length and count are the plain search's; under the
    /// diameter rule the solution is a farthest pair.
    #[test]
    fn diameter_is_the_all_pairs_maximum_on_braided_grids() {
        let cells: Vec<bool> = (0..30).map(|c| c != 7 && c != 22).collect();
        let graphs = [
            CellGraph::new(GridSize::new(Grid::Hex, 5, 4)),
            CellGraph::new(GridSize::new(Grid::Hex, 6, 6)),
            CellGraph::new(GridSize::new(Grid::Triangle, 7, 4)),
            CellGraph::new(GridSize::new(Grid::Triangle, 2, 2)),
            CellGraph::new(GridSize::new(Grid::Polar, 3, 6)),
            CellGraph::new(GridSize::new(Grid::Polar, 4, 3)),
            CellGraph::masked(GridSize::new(Grid::Hex, 6, 5), 6, 5, &cells).unwrap(),
        ];
        let (mut gen, mut br, mut s) = (GraphScratch::new(), BraidScratch::new(), Scratch::new());
        let mut measured = 0;
        for (k, g) in graphs.iter().enumerate() {
            let grid = g.size().grid;
            let algos: Vec<Algorithm> = Algorithm::all()
                .into_iter()
                .filter(|a| check(a, grid).is_ok())
                .collect();
            for (a, algo) in algos.iter().enumerate() {
                for p in [0.05, 0.3, 0.5, 1.0] {
                    let seed = 1000 * k as u64 + 10 * a as u64 + (p * 4.0) as u64;
                    let mut m = GraphMaze::new(g);
                    generate(algo, g, &mut m, &mut gen, &mut Rng::from_maze_seed(seed));
                    let loops = braid_seeded(g, &mut m, Chance::new(p), seed, &mut br);
                    let all: Vec<Vec<u32>> = (0..g.len())
                        .map(|c| {
                            if g.has_cell(c) {
                                distances(g, &m, c)
                            } else {
                                Vec::new()
                            }
                        })
                        .collect();
                    let want = g
                        .ids()
                        .iter()
                        .flat_map(|&c| {
                            g.ids()
                                .iter()
                                .map(|&d| all[c as usize][d as usize])
                                .collect::<Vec<_>>()
                        })
                        .max()
                        .unwrap();
                    let exit = *g.ids().last().unwrap();
                    for &entrance in g.ids() {
                        let ends = GridEnds::Cells(GraphEnds::new(g, entrance, exit));
                        let got = measure_maze(g, &m, ends, 0, &mut s);
                        let what = format!("{grid} {} P {p} from {entrance}", algo.name());
                        assert_eq!(got.loops, loops, "{what}");
                        assert_eq!(got.diameter, want, "{what}");
                        let (a, b) = (got.diameter_start, got.diameter_end);
                        assert_eq!(all[a as usize][b as usize], want, "{what}");
                        assert_eq!(
                            got.solution_length, all[entrance as usize][exit as usize],
                            "{what}"
                        );
                        assert_eq!(got.solution_count, shortest_paths(g, &m, entrance, exit));
                    }
                    let got = measure_maze(g, &m, GridEnds::Diameter, 0, &mut s);
                    assert_eq!((got.diameter, got.solution_length), (want, want));
                    let (a, b) = (got.diameter_start, got.diameter_end);
                    assert_eq!(all[a as usize][b as usize], want);
                    assert_eq!(got.solution_count, shortest_paths(g, &m, a, b));
                    measured += (loops > 0) as u32;
                }
            }
        }
        assert!(measured > 100, "{measured} braided mazes");
    }

    /// On the square grid's graph, a braided square maze measures as the square grid's graph
    /// pass measures it (the farthest pair aside: any pair at the diameter will do), and a
    /// perfect one under the diameter rule as the square tree pass does.
    #[test]
    fn on_the_square_graph_it_is_the_square_graph_pass() {
        let mut sq = crate::metrics::Scratch::new();
        let (mut br, mut s) = (crate::braid::Scratch::new(), Scratch::new());
        let mut braided = 0;
        for (w, h) in [(2, 2), (7, 5), (12, 12), (1, 5)] {
            let g = CellGraph::new(GridSize::new(Grid::Square, w, h));
            let size = Size::planar(w, h);
            for seed in 0..6u64 {
                for p in [0.0, 0.05, 0.5, 1.0] {
                    let mut m = Maze::with_size(size);
                    generate_seeded(&Algorithm::Kruskal, &mut m, &mut GenScratch::new(), seed);
                    crate::braid::braid_seeded(&mut m, Chance::new(p), seed, &mut br);
                    let gm = crate::topo::braid::tests::square_as_graph(&g, &m);
                    let want = crate::metrics::measure(&m, Ends::first_last(size), &mut sq);
                    let ends = GridEnds::Cells(GraphEnds::new(&g, 0, w * h - 1));
                    let got = measure_maze(&g, &gm, ends, 0, &mut s);
                    let d = distances(&g, &gm, got.diameter_start);
                    assert_eq!(d[got.diameter_end as usize], got.diameter);
                    let same = Metrics {
                        maze_hash: want.maze_hash,
                        diameter_start: want.diameter_start,
                        diameter_end: want.diameter_end,
                        ..got
                    };
                    assert_eq!(same, want, "{w}x{h} seed {seed} P {p}");
                    let want = crate::metrics::measure(&m, Ends::Diameter, &mut sq);
                    let got = measure_maze(&g, &gm, GridEnds::Diameter, 0, &mut s);
                    assert_eq!(
                        (got.diameter, got.solution_length),
                        (want.diameter, want.solution_length)
                    );
                    if want.loops == 0 {
                        // The same double sweep: the same ends, so the same row.
                        let same = Metrics {
                            maze_hash: want.maze_hash,
                            ..got
                        };
                        assert_eq!(same, want, "{w}x{h} seed {seed} diameter");
                    }
                    braided += (want.loops > 0) as u32;
                }
            }
        }
        assert!(braided > 30);
    }
}
