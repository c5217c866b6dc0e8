//! Braiding a maze on a [`CellGraph`] (`--braid P` on hex, triangle and polar grids): the rule
//! of the square grid's pass ([`crate::braid`]) read on the grid's own neighbours, so a braided
//! grid maze is defined in the same words.
//!
//! List the maze's dead ends (cells with exactly one passage) in increasing cell id; draw each
//! one's chance `P` in that order (no draw at `P = 1`: every dead end is chosen); shuffle the
//! chosen ones uniformly; visit them in that order, and for each cell that is *still* a dead end
//! open one more of its walls: among its closed walls leading to a neighbour that is itself a
//! dead end when there is one (so one new passage removes two dead ends), otherwise among all
//! its closed walls; the choice is uniform over those walls taken in the cell's slot order (the
//! grid's direction order, `src/topo/README.md`), one [`Rng::below`] draw. On the square grid's
//! graph this is the square pass draw for draw (a test compares them).
//!
//! The draws come from the braid stream of the maze seed ([`crate::rng::braid_seed`]), taken
//! after the generator has finished: the perfect maze under the loops is the maze the same
//! identifiers give without braiding, and `P = 0` skips the pass. Every wall opened adds one
//! loop: a braided maze has `cells − 1 + loops` passages and stays connected. On a mask only the
//! mask's cells have neighbours, so no passage leads into a hole.

use super::{CellGraph, GraphMaze};
use crate::rng::{Chance, RandomSource, Rng};

/// Buffers of the braid pass, reused from maze to maze.
#[derive(Debug, Default, Clone)]
pub struct BraidScratch {
    /// Passages of each cell, kept up to date as walls open.
    deg: Vec<u32>,
    /// The dead ends of the perfect maze, then the chosen ones, shuffled.
    dead: Vec<u32>,
    /// The walls a dead end may open (slots), then the preferred ones.
    closed: Vec<u32>,
    preferred: Vec<u32>,
}

impl BraidScratch {
    /// Empty scratch; the buffers grow on first use.
    pub fn new() -> BraidScratch {
        BraidScratch::default()
    }
}

/// Braid `maze` on `g` with chance `p` per dead end, drawing from `rng` (seed it with
/// [`crate::rng::braid_seed`] of the maze seed). Returns the number of walls opened, the
/// number of loops added. `p = 0` returns at once without drawing.
pub fn braid(
    g: &CellGraph,
    maze: &mut GraphMaze,
    p: Chance,
    rng: &mut Rng,
    s: &mut BraidScratch,
) -> u32 {
    if p.p() <= 0.0 {
        return 0;
    }
    let deg = &mut s.deg;
    deg.clear();
    deg.resize(g.len() as usize, 0);
    for (k, &w) in maze.words().iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let [a, b] = g.ends((k as u32) << 6 | w.trailing_zeros());
            deg[a as usize] += 1;
            deg[b as usize] += 1;
            w &= w - 1;
        }
    }
    let dead = &mut s.dead;
    dead.clear();
    dead.extend(g.ids().iter().copied().filter(|&c| deg[c as usize] == 1));
    if p.p() < 1.0 {
        dead.retain(|_| rng.unit_below(p));
    }
    rng.shuffle(dead);
    let mut opened = 0;
    for &c in dead.iter() {
        if deg[c as usize] != 1 {
            continue;
        }
        s.closed.clear();
        s.preferred.clear();
        for slot in g.slots(c) {
            if !maze.is_open(g.edge(slot)) {
                s.closed.push(slot);
                if deg[g.nbr(slot) as usize] == 1 {
                    s.preferred.push(slot);
                }
            }
        }
        let from = if s.preferred.is_empty() {
            &s.closed
        } else {
            &s.preferred
        };
        if from.is_empty() {
            continue;
        }
        let slot = from[rng.below(from.len() as u32) as usize];
        maze.open(g.edge(slot));
        deg[c as usize] += 1;
        deg[g.nbr(slot) as usize] += 1;
        opened += 1;
    }
    opened
}

/// [`braid`] with the braid stream of the maze whose per-maze seed is `maze_seed`
/// ([`crate::rng::braid_seed`]): what a grid run does after generating that maze.
pub fn braid_seeded(
    g: &CellGraph,
    maze: &mut GraphMaze,
    p: Chance,
    maze_seed: u64,
    s: &mut BraidScratch,
) -> u32 {
    if p.p() <= 0.0 {
        return 0;
    }
    let mut rng = Rng::from_maze_seed(crate::rng::braid_seed(maze_seed));
    braid(g, maze, p, &mut rng, s)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::generate::{generate_seeded, Algorithm, Scratch as GenScratch};
    use crate::grid::{Maze, Size};
    use crate::topo::generate::{generate, GraphScratch};
    use crate::topo::{Grid, GridSize};

    /// The maze `m` of the square grid as a maze of its cell graph.
    pub(crate) fn square_as_graph(g: &CellGraph, m: &Maze) -> GraphMaze {
        let mut gm = GraphMaze::new(g);
        for e in 0..g.edges() {
            let ([u, _], [du, _]) = (g.ends(e), g.edge_dirs(e));
            if m.open_mask(u) >> du & 1 == 1 {
                gm.open(e);
            }
        }
        gm
    }

    fn degree(g: &CellGraph, m: &GraphMaze, c: u32) -> usize {
        g.slots(c).filter(|&s| m.is_open(g.edge(s))).count()
    }

    fn connected(g: &CellGraph, m: &GraphMaze) -> bool {
        let mut seen = vec![false; g.len() as usize];
        let mut stack = vec![g.ids()[0]];
        seen[g.ids()[0] as usize] = true;
        let mut reached = 1;
        while let Some(u) = stack.pop() {
            for s in g.slots(u) {
                let v = g.nbr(s);
                if m.is_open(g.edge(s)) && !seen[v as usize] {
                    seen[v as usize] = true;
                    reached += 1;
                    stack.push(v);
                }
            }
        }
        reached == g.cells()
    }

    /// On the square grid's graph the grid pass opens the walls the square pass opens, from
    /// the same stream, at every chance.
    #[test]
    fn on_the_square_graph_it_is_the_square_braid() {
        let mut sq = crate::braid::Scratch::new();
        let mut s = BraidScratch::new();
        for (w, h) in [(2, 2), (9, 7), (16, 16), (1, 6)] {
            let g = CellGraph::new(GridSize::new(Grid::Square, w, h));
            for seed in 0..8u64 {
                for p in [0.05, 0.3, 0.5, 0.9, 1.0] {
                    let mut m = Maze::with_size(Size::planar(w, h));
                    generate_seeded(&Algorithm::Wilson, &mut m, &mut GenScratch::new(), seed);
                    let mut gm = square_as_graph(&g, &m);
                    let a = crate::braid::braid_seeded(&mut m, Chance::new(p), seed, &mut sq);
                    let b = braid_seeded(&g, &mut gm, Chance::new(p), seed, &mut s);
                    assert_eq!(a, b, "{w}x{h} seed {seed} P {p}");
                    assert_eq!(gm, square_as_graph(&g, &m), "{w}x{h} seed {seed} P {p}");
                }
            }
        }
    }

    /// On every grid: `cells − 1 + opened` passages, connected, no new passage into a hole,
    /// no dead end left at `P = 1` unless it has no closed wall, fewer dead ends at `P > 0`.
    #[test]
    fn braided_grid_mazes_keep_their_cells_and_lose_dead_ends() {
        let mut s = BraidScratch::new();
        let mut gen = GraphScratch::new();
        let cells: Vec<bool> = (0..48).map(|c| c % 7 != 3 && c != 20).collect();
        let masked = CellGraph::masked(GridSize::new(Grid::Hex, 8, 6), 8, 6, &cells).unwrap();
        for g in [
            CellGraph::new(GridSize::new(Grid::Hex, 9, 7)),
            CellGraph::new(GridSize::new(Grid::Triangle, 10, 5)),
            CellGraph::new(GridSize::new(Grid::Polar, 5, 6)),
            CellGraph::new(GridSize::new(Grid::Polar, 1, 6)),
            CellGraph::new(GridSize::new(Grid::Hex, 1, 1)),
            masked,
        ] {
            for seed in 0..10u64 {
                for p in [0.0, 0.05, 0.5, 1.0] {
                    let mut m = GraphMaze::new(&g);
                    generate(
                        &Algorithm::Wilson,
                        &g,
                        &mut m,
                        &mut gen,
                        &mut Rng::from_maze_seed(seed),
                    );
                    let dead =
                        |m: &GraphMaze| g.ids().iter().filter(|&&c| degree(&g, m, c) == 1).count();
                    let before = dead(&m);
                    let orig = m.clone();
                    let k = braid_seeded(&g, &mut m, Chance::new(p), seed, &mut s);
                    let grid = g.size().grid;
                    assert_eq!(m.passages(), g.cells() as u64 - 1 + k as u64, "{grid}");
                    assert!(connected(&g, &m), "{grid}");
                    // Nothing closes: the perfect maze is under the loops.
                    for (a, b) in orig.words().iter().zip(m.words()) {
                        assert_eq!(a & !b, 0);
                    }
                    let after = dead(&m);
                    assert!(before - after <= 2 * k as usize && after <= before);
                    if p == 0.0 {
                        assert_eq!(m, orig);
                    }
                    if p == 1.0 {
                        // Only a dead end whose every wall is open (a cell with one neighbour)
                        // survives.
                        for &c in g.ids() {
                            if degree(&g, &m, c) == 1 {
                                assert_eq!(g.slots(c).len(), 1, "{grid} cell {c}");
                            }
                        }
                    }
                    if p > 0.0 && g.cells() > 4 && before > 2 {
                        assert!(k > 0 || p < 1.0, "{grid} seed {seed} P {p}");
                    }
                }
            }
        }
    }
}
