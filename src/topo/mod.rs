//! Grids other than the square one: hexagonal (odd-r, pointy-top), triangular and polar
//! (circular). A grid here is a *cell graph* ([`CellGraph`]): cells numbered `0..n`, each with
//! its neighbours in a fixed order and a direction label per neighbour; a maze on it is a
//! spanning tree of that graph, held as one open bit per edge ([`GraphMaze`]). The generators
//! that are defined on any connected graph are written once against it ([`generate`]), and so are
//! the metrics ([`measure()`]). The square grid keeps its own word-parallel code in
//! [`crate::generate`] and [`crate::metrics`]; [`Grid::Square`] is here only so a grid can be
//! named and its graph built (tests compare the square graph with [`crate::grid::Size`]).
//!
//! The layouts (cell ids, neighbour rules, direction labels, polar ring subdivision) are part of
//! the file formats and never change; they are written down in `src/topo/README.md` and pinned
//! by the tests of [`graph`].
//!
//! # Seeds
//!
//! A maze on a grid other than the square one is a function of (grid, algo, size, seed, index):
//! its per-maze seed is `splitmix64(base ^ index)` with
//! `base = splitmix64(maze_seed_base(seed, algo, W, H) ^ fnv1a64("grid:NAME"))` ([`seed_base`];
//! `W×H` is the size as written, `R×C` for polar), so it never shares seeds with the square grid
//! of the same size, and every square seed is what it was.

pub mod braid;
pub mod generate;
pub mod graph;
pub mod measure;
pub mod measure_graph;
pub mod polar;

#[cfg(test)]
mod measure_tests;
#[cfg(all(test, feature = "cli"))]
mod tau_tests;

use std::fmt;

pub use graph::{CellGraph, GraphError};
pub use measure::{measure, GraphEnds, MeasureScratch};
pub use measure_graph::{measure_maze, GridEnds};

use crate::rng::{fnv1a64, maze_seed_base, maze_seed_from_base, splitmix64};

/// The shape of the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Grid {
    /// Squares, four neighbours (the default; its mazes are made by [`crate::generate`]).
    #[default]
    Square,
    /// Pointy-top hexagons in rows, odd rows shifted right by half a cell (odd-r).
    Hex,
    /// Triangles in rows, cell `(x, y)` pointing up when `x + y` is even.
    Triangle,
    /// A centre cell and rings around it, subdivided to keep cells roughly square.
    Polar,
}

impl Grid {
    /// Every grid, in the order of `--grid`'s help.
    pub const ALL: [Grid; 4] = [Grid::Square, Grid::Hex, Grid::Triangle, Grid::Polar];

    /// The name `--grid` takes and the `grid` column holds.
    pub fn name(self) -> &'static str {
        match self {
            Grid::Square => "square",
            Grid::Hex => "hex",
            Grid::Triangle => "triangle",
            Grid::Polar => "polar",
        }
    }

    /// The grid named `s` (one of [`Grid::name`]).
    pub fn parse(s: &str) -> Result<Grid, String> {
        let s = s.trim();
        Grid::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| format!("unknown grid '{s}' (expected square, hex, triangle or polar)"))
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A grid and its size: `W×H` cells for square, hex and triangle grids; for a polar grid
/// `a` = the rings R (the centre cell counts as ring 0) and `b` = the cells of ring 1 (6 by the
/// subdivision rule, see [`polar`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridSize {
    /// The grid.
    pub grid: Grid,
    /// Width, or the rings of a polar grid.
    pub a: u32,
    /// Height, or the cells of a polar grid's first ring.
    pub b: u32,
}

impl GridSize {
    /// A size, unchecked (see [`GridSize::parse`] for the checked one).
    pub fn new(grid: Grid, a: u32, b: u32) -> GridSize {
        GridSize { grid, a, b }
    }

    /// Parse `--size` for `grid`: `WxH`, or for polar `R` or `RxC` (C = cells of the first
    /// ring, at least 3). The cell count must stay within [`crate::grid::MAX_CELLS`]. A triangle
    /// grid one cell wide and more than two rows high is refused: it is not connected.
    pub fn parse(grid: Grid, s: &str) -> Result<GridSize, String> {
        let s = s.trim();
        let num = |t: &str| -> Result<u32, String> {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|&v| v > 0)
                .ok_or_else(|| format!("'{t}' is not a positive whole number"))
        };
        let parts: Vec<&str> = s.split(['x', 'X', '×']).collect();
        let size = match (grid, parts.as_slice()) {
            (Grid::Polar, [r]) => GridSize::new(grid, num(r)?, polar::FIRST_RING),
            (Grid::Polar, [r, c]) => {
                let c = num(c)?;
                if c < 3 {
                    return Err(format!(
                        "a polar grid's first ring needs at least 3 cells (got {c}): RxC with C >= 3"
                    ));
                }
                GridSize::new(grid, num(r)?, c)
            }
            (Grid::Polar, _) => {
                return Err("expected R (rings, the centre included) or RxC, e.g. 12".into())
            }
            (_, [w, h]) => GridSize::new(grid, num(w)?, num(h)?),
            _ => return Err("expected WIDTHxHEIGHT, e.g. 16x16".into()),
        };
        if grid == Grid::Triangle && size.a == 1 && size.b > 2 {
            return Err(
                "a triangle grid 1 cell wide and more than 2 rows high is not connected \
                 (its second and third rows touch only at a corner); use a width of at least 2"
                    .into(),
            );
        }
        let cells = size.cells_u64();
        if cells > crate::grid::MAX_CELLS {
            // A polar grid's count stops at the first ring past the limit: not its size.
            return Err(if grid == Grid::Polar {
                format!(
                    "{} rings hold more than the {} cells a maze may have",
                    size.a,
                    crate::grid::MAX_CELLS
                )
            } else {
                format!(
                    "{cells} cells is more than the {} a maze may have",
                    crate::grid::MAX_CELLS
                )
            });
        }
        Ok(size)
    }

    /// The number of cells (u64: checked against the limit before anything is built).
    pub fn cells_u64(&self) -> u64 {
        match self.grid {
            Grid::Polar => polar::total_cells(self.a, self.b),
            _ => self.a as u64 * self.b as u64,
        }
    }
}

impl fmt::Display for GridSize {
    /// `WxH`, or for polar `R` when the first ring has its default 6 cells, else `RxC`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.grid == Grid::Polar && self.b == polar::FIRST_RING {
            write!(f, "{}", self.a)
        } else {
            write!(f, "{}x{}", self.a, self.b)
        }
    }
}

/// The part of a maze's seed that does not depend on its index (see the module docs); for the
/// square grid exactly [`maze_seed_base`].
pub fn seed_base(seed: u64, algo: &str, size: GridSize) -> u64 {
    let base = maze_seed_base(seed, algo, size.a, size.b);
    match size.grid {
        Grid::Square => base,
        g => splitmix64(base ^ fnv1a64(format!("grid:{}", g.name()).as_bytes())),
    }
}

/// The seed of maze `index` of `algo` on `size` in a run with master `seed`.
pub fn maze_seed(seed: u64, algo: &str, size: GridSize, index: u64) -> u64 {
    maze_seed_from_base(seed_base(seed, algo, size), index)
}

/// A maze on a [`CellGraph`]: one bit per edge, set when the edge is a passage. The buffer is
/// kept across mazes ([`GraphMaze::clear`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphMaze {
    open: Vec<u64>,
}

impl GraphMaze {
    /// A maze with every wall of `g` closed.
    pub fn new(g: &CellGraph) -> GraphMaze {
        let mut m = GraphMaze::default();
        m.clear(g);
        m
    }

    /// Close every wall, sized for `g` (no allocation once sized).
    pub fn clear(&mut self, g: &CellGraph) {
        self.open.clear();
        self.open.resize(g.words_per_maze(), 0);
    }

    /// Open edge `e`.
    #[inline(always)]
    pub fn open(&mut self, e: u32) {
        self.open[(e >> 6) as usize] |= 1 << (e & 63);
    }

    /// Open edge `e` when `open` (branch-free).
    #[inline(always)]
    pub fn open_if(&mut self, e: u32, open: bool) {
        self.open[(e >> 6) as usize] |= (open as u64) << (e & 63);
    }

    /// Is edge `e` a passage?
    #[inline(always)]
    pub fn is_open(&self, e: u32) -> bool {
        self.open[(e >> 6) as usize] >> (e & 63) & 1 != 0
    }

    /// The number of passages.
    pub fn passages(&self) -> u64 {
        self.open.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// The open bits, 64 edges to a word, edge 0 in bit 0 of word 0.
    pub fn words(&self) -> &[u64] {
        &self.open
    }

    /// A hash of the grid, its size and the open bits: equal mazes on equal grids hash alike.
    pub fn hash(&self, size: GridSize) -> u64 {
        let start = crate::grid::fmix64(
            0x6772_6964_6861_7368 ^ ((size.a as u64) << 32 | size.b as u64) ^ size.grid as u64,
        );
        self.open
            .iter()
            .fold(start, |h, &w| crate::Maze::hash_word(h, w))
    }

    /// The maze of `g` whose open bits are `words` (as [`GraphMaze::words`] gives them), or
    /// `None` when they are not `g`'s number of words or open an edge `g` does not have.
    pub fn from_words(g: &CellGraph, words: &[u64]) -> Option<GraphMaze> {
        let mut m = GraphMaze::new(g);
        if words.len() != m.open.len() {
            return None;
        }
        let tail = g.edges() % 64;
        if tail != 0 && words.last().is_some_and(|&w| w >> tail != 0) {
            return None;
        }
        m.open.copy_from_slice(words);
        Some(m)
    }

    /// Is this a spanning tree of `g`'s cells: exactly `cells − 1` passages and every cell
    /// reachable from the first? (Allocates; for tests and checks.)
    pub fn is_spanning_tree(&self, g: &CellGraph) -> bool {
        self.passages() == g.cells() as u64 - 1 && self.is_connected(g)
    }

    /// Does every cell of `g` reach the first through passages? (Allocates; for tests and
    /// checks.)
    pub fn is_connected(&self, g: &CellGraph) -> bool {
        let n = g.cells();
        let mut seen = vec![false; g.len() as usize];
        let first = g.ids()[0];
        seen[first as usize] = true;
        let mut stack = vec![first];
        let mut reached = 1;
        while let Some(u) = stack.pop() {
            for s in g.slots(u) {
                let (v, e) = (g.nbr(s), g.edge(s));
                if self.is_open(e) && !seen[v as usize] {
                    seen[v as usize] = true;
                    reached += 1;
                    stack.push(v);
                }
            }
        }
        reached == n
    }
}
