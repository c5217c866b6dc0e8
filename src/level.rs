//! A level for a game in one call: regenerate a maze from the identifiers of its Parquet row
//! (algo, size, seed, index), or read it from a maze store, and get its walls, its solution
//! path and its metrics. This is the last step of the level pipeline (generate, pick with
//! SQL, take the chosen mazes into a game) as a small API, so a game does not have to wire
//! the generator, the RNG, the seeding and the metrics itself.
//!
//! A [`Level`] owns its maze, the ends it is measured with (entrance and exit cells), the
//! [`Metrics`] for those ends and the solution path between them. Regenerated levels use the
//! corners (top-left to bottom-right; in 3D the first and the last cell) unless
//! [`Level::with_ends`] says otherwise; levels read from a store use the ends recorded there
//! (per maze with `--ends diameter`). 3D levels ([`Level::regenerate_sized`]) number their cells
//! `x + width·(y + height·z)`, layer `z = 0` on top; [`Level::xyz`] and [`Level::cell_at`]
//! convert.

use crate::generate::{Algorithm, UnknownAlgorithm};
use std::sync::Arc;

use crate::grid::{Dir, Mask, Maze, Size, MAX_CELLS};
use crate::maze_id::MazeId;
use crate::metrics::{self, Ends, Metrics};
use crate::render::{self, RenderError};
use crate::store::{StoreError, StoreReader};

/// Why a level could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LevelError {
    /// The generator name is not one batchgen knows.
    #[error(transparent)]
    UnknownAlgorithm(#[from] UnknownAlgorithm),
    /// A size batchgen cannot make.
    #[error("size {width}x{height}: {why}")]
    BadSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// What is wrong.
        why: String,
    },
    /// A 3D size for a generator that only makes 2D mazes.
    #[error(
        "{algo} only makes 2D mazes and {size} is 3D; generators that accept a 3D size: {accepted}"
    )]
    Not3d {
        /// The generator's canonical name.
        algo: String,
        /// The size asked for.
        size: Size,
        /// The generators that accept a 3D size, comma-separated.
        accepted: String,
    },
    /// An entrance or exit outside the grid.
    #[error("cell {cell} is outside the {cells} cells of the maze")]
    BadCell {
        /// The cell id given.
        cell: u32,
        /// Cells of the maze.
        cells: u32,
    },
    /// The generator does not run on a mask.
    #[error("{0}")]
    NoMask(String),
    /// A given entrance or exit is a hole of the maze's mask.
    #[error("cell {cell} is a hole of the mask, not a cell of the maze")]
    Hole {
        /// The cell id.
        cell: u32,
    },
    /// Reading the store failed, or its record is corrupt.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Drawing failed.
    #[error(transparent)]
    Render(#[from] RenderError),
}

/// One maze ready for a game: identifiers, walls, ends, solution and metrics.
#[derive(Clone, Debug)]
pub struct Level {
    algo: Algorithm,
    seed: u64,
    index: u64,
    maze_seed: u64,
    maze: Maze,
    entrance: u32,
    exit: u32,
    metrics: Metrics,
    solution: Vec<u32>,
}

/// The maze `index` of (`algo`, `width`×`height`, `mask` if any, `seed`), and its per-maze
/// seed. The one place this module makes a maze, so that it can follow the library's single
/// "regenerate maze i" function.
fn make_maze(
    algo: &Algorithm,
    size: Size,
    mask: Option<Arc<Mask>>,
    seed: u64,
    index: u64,
) -> (Maze, u64) {
    let mut maze = Maze::with_size(size);
    maze.set_mask(mask);
    let maze_seed = crate::generate::regenerate(
        algo,
        &mut maze,
        &mut crate::generate::Scratch::new(),
        seed,
        index,
    );
    (maze, maze_seed)
}

/// Refuse fixed ends outside a maze of `cells` cells.
fn check_ends(ends: Ends, cells: u32) -> Result<(), LevelError> {
    if let Ends::Cells { entrance, exit } = ends {
        for cell in [entrance, exit] {
            if cell >= cells {
                return Err(LevelError::BadCell { cell, cells });
            }
        }
    }
    Ok(())
}

impl Level {
    /// Regenerate maze `index` of the generator named `algo` (a canonical name as in the
    /// Parquet `algo` column, e.g. `"wilson"` or `"wilson-straight:0.5"`) at `width × height`
    /// with master seed `seed`: the same maze as the row with those identifiers, measured from
    /// the top-left to the bottom-right cell.
    pub fn regenerate(
        algo: &str,
        width: u32,
        height: u32,
        seed: u64,
        index: u64,
    ) -> Result<Level, LevelError> {
        Level::regenerate_algorithm(&Algorithm::parse(algo)?, width, height, seed, index)
    }

    /// [`Level::regenerate`] with a parsed [`Algorithm`].
    pub fn regenerate_algorithm(
        algo: &Algorithm,
        width: u32,
        height: u32,
        seed: u64,
        index: u64,
    ) -> Result<Level, LevelError> {
        let cells = width as u64 * height as u64;
        if width == 0 || height == 0 || cells > MAX_CELLS {
            return Err(LevelError::BadSize {
                width,
                height,
                why: format!(
                    "width and height must be at least 1 and the cells at most {MAX_CELLS}"
                ),
            });
        }
        Level::regenerate_algorithm_sized(algo, Size::planar(width, height), seed, index)
    }

    /// [`Level::regenerate`] at any [`Size`]: `Size::new(w, h, d)` with `d > 1` regenerates a
    /// 3D maze (the row with `width`, `height`, `depth` = `w`, `h`, `d`), measured from the first
    /// cell to the last (top-left of layer 0 to bottom-right of the last layer).
    pub fn regenerate_sized(
        algo: &str,
        size: Size,
        seed: u64,
        index: u64,
    ) -> Result<Level, LevelError> {
        Level::regenerate_algorithm_sized(&Algorithm::parse(algo)?, size, seed, index)
    }

    /// [`Level::regenerate_sized`] with a parsed [`Algorithm`].
    pub fn regenerate_algorithm_sized(
        algo: &Algorithm,
        size: Size,
        seed: u64,
        index: u64,
    ) -> Result<Level, LevelError> {
        Level::from_id(&MazeId::new(
            *algo,
            size,
            seed,
            index,
            Ends::first_last(size),
        ))
    }

    /// The maze a [`MazeId`] names, measured between its ends: for an id from a metrics row
    /// ([`MazeId::from_batch`], [`MazeId::from_columns`]) or a store record
    /// ([`MazeId::from_store`]), that row's maze *and* its solution.
    pub fn from_id(id: &MazeId) -> Result<Level, LevelError> {
        let (algo, size) = (id.algo, id.size);
        if !size.is_valid() {
            return Err(LevelError::BadSize {
                width: size.width,
                height: size.height,
                why: format!(
                    "depth {}: width, height and depth must be at least 1 and the cells at most \
                     {MAX_CELLS}",
                    size.depth
                ),
            });
        }
        if size.is_3d() && !algo.supports_3d() {
            return Err(LevelError::Not3d {
                algo: algo.name(),
                size,
                accepted: crate::args::names_3d(),
            });
        }
        check_ends(id.ends, size.cells())?;
        let (maze, maze_seed) = make_maze(&algo, size, None, id.seed, id.index);
        Ok(Level::measured(
            algo, id.seed, id.index, maze_seed, maze, id.ends,
        ))
    }

    /// Maze `index` of (`algo`, `mask`, master `seed`): the maze the main job makes as row
    /// `index` with `--mask` (entrance and exit the mask's first and last cells). Refused for a
    /// generator that does not accept a mask.
    pub fn regenerate_masked(
        algo: &Algorithm,
        mask: Arc<Mask>,
        seed: u64,
        index: u64,
    ) -> Result<Level, LevelError> {
        if !algo.supports_mask() {
            return Err(LevelError::NoMask(algo.mask_refusal()));
        }
        let ends = Ends::cells(mask.first(), mask.last());
        let (maze, maze_seed) = make_maze(algo, mask.size(), Some(mask), seed, index);
        Ok(Level::measured(*algo, seed, index, maze_seed, maze, ends))
    }

    /// The mask the maze fills, if any.
    pub fn mask(&self) -> Option<&Arc<Mask>> {
        self.maze.mask()
    }

    /// This level's identity, its ends as the cells it is measured between: [`Level::from_id`]
    /// of it gives this level again (an unmasked level; a masked one's mask is
    /// [`Level::mask`]).
    pub fn id(&self) -> MazeId {
        MazeId::new(
            self.algo,
            self.maze.size(),
            self.seed,
            self.index,
            Ends::cells(self.entrance, self.exit),
        )
    }

    /// Record `k` of a maze store: its walls as stored (checked to be a perfect maze) and the
    /// ends it was measured with.
    pub fn from_store(store: &StoreReader, k: u64) -> Result<Level, LevelError> {
        let maze = store.maze(k)?;
        let r = store.record(k)?;
        let algo = Algorithm::parse(r.algo)?;
        Ok(Level::measured(
            algo,
            r.seed,
            r.index,
            r.maze_seed,
            maze,
            Ends::cells(r.entrance, r.exit),
        ))
    }

    fn measured(
        algo: Algorithm,
        seed: u64,
        index: u64,
        maze_seed: u64,
        maze: Maze,
        ends: Ends,
    ) -> Level {
        let mut scratch = metrics::Scratch::new();
        let m = metrics::measure(&maze, ends, &mut scratch);
        let solution = scratch.solution_path();
        Level {
            algo,
            seed,
            index,
            maze_seed,
            entrance: solution[0],
            exit: solution[solution.len() - 1],
            maze,
            metrics: m,
            solution,
        }
    }

    /// The same maze measured between other ends: [`Ends::cells`] (cell ids, checked),
    /// [`Ends::corners`], or [`Ends::Diameter`] (a longest path, so the solution is as long as
    /// the maze allows).
    pub fn with_ends(self, ends: Ends) -> Result<Level, LevelError> {
        check_ends(ends, self.maze.cells())?;
        if let Ends::Cells { entrance, exit } = ends {
            for cell in [entrance, exit] {
                if !self.maze.has_cell(cell) {
                    return Err(LevelError::Hole { cell });
                }
            }
        }
        Ok(Level::measured(
            self.algo,
            self.seed,
            self.index,
            self.maze_seed,
            self.maze,
            ends,
        ))
    }

    /// The generator.
    pub fn algo(&self) -> &Algorithm {
        &self.algo
    }

    /// The run's master seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The maze's index within (algo, size, seed).
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The derived per-maze seed (the Parquet `maze_seed` column).
    pub fn maze_seed(&self) -> u64 {
        self.maze_seed
    }

    /// The maze.
    pub fn maze(&self) -> &Maze {
        &self.maze
    }

    /// Grid width in cells.
    pub fn width(&self) -> u32 {
        self.maze.width()
    }

    /// Grid height in cells.
    pub fn height(&self) -> u32 {
        self.maze.height()
    }

    /// Grid depth in layers (1 for 2D).
    pub fn depth(&self) -> u32 {
        self.maze.size().depth
    }

    /// The grid size (depth 1 for 2D).
    pub fn size(&self) -> Size {
        self.maze.size()
    }

    /// The wall words ([`Maze::words`]: bit `2·id` east, `2·id + 1` south, set = open), as a
    /// maze store holds them.
    pub fn walls(&self) -> &[u64] {
        self.maze.words()
    }

    /// Cell id of `(x, y)`: `y · width + x` (in 3D, the cell of layer 0).
    pub fn cell(&self, x: u32, y: u32) -> u32 {
        y * self.width() + x
    }

    /// `(x, y)` of a cell id (in 3D, within its layer; see [`Level::xyz`]).
    pub fn xy(&self, cell: u32) -> (u32, u32) {
        let (x, y, _) = self.xyz(cell);
        (x, y)
    }

    /// Cell id of `(x, y, z)`: `x + width·(y + height·z)`, layer `z = 0` on top.
    pub fn cell_at(&self, x: u32, y: u32, z: u32) -> u32 {
        self.size().cell(x, y, z)
    }

    /// `(x, y, z)` of a cell id (`z = 0` for 2D).
    pub fn xyz(&self, cell: u32) -> (u32, u32, u32) {
        self.size().coords(cell)
    }

    /// Whether a player at `(x, y, z)` can step in direction `dir` (any of the six, `Dir::Down`
    /// to layer `z + 1`): the wall there is open; the border never is. The cell must be inside
    /// the grid.
    pub fn can_move_at(&self, x: u32, y: u32, z: u32, dir: Dir) -> bool {
        let s = self.size();
        assert!(
            x < s.width && y < s.height && z < s.depth,
            "({x}, {y}, {z}) outside the grid"
        );
        let c = s.cell(x, y, z);
        self.maze.has_neighbour(c, dir) && self.maze.is_open(c, dir)
    }

    /// Whether a player at `(x, y)` can step in direction `dir` (the wall there is open; the
    /// border never is). `(x, y)` must be inside the grid.
    pub fn can_move(&self, x: u32, y: u32, dir: Dir) -> bool {
        assert!(
            x < self.width() && y < self.height(),
            "({x}, {y}) outside the grid"
        );
        self.maze.has_neighbour(self.cell(x, y), dir) && self.maze.is_open(self.cell(x, y), dir)
    }

    /// Entrance cell id.
    pub fn entrance(&self) -> u32 {
        self.entrance
    }

    /// Exit cell id.
    pub fn exit(&self) -> u32 {
        self.exit
    }

    /// The solution: cell ids from the entrance to the exit, both included
    /// (`metrics().solution_length + 1` cells).
    pub fn solution(&self) -> &[u32] {
        &self.solution
    }

    /// The metrics (the Parquet row's measurements) for this level's ends.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The level in box-drawing characters (its solution marked when `with_solution`), as
    /// [`render::unicode`] draws it; `Display` shows it with the solution.
    pub fn unicode(&self, with_solution: bool) -> Result<String, LevelError> {
        Ok(render::unicode(
            &self.maze,
            with_solution.then_some(&self.solution[..]),
        )?)
    }

    /// The level as ASCII art (`#` wall, space open, `.` the solution when `with_solution`):
    /// `2·height + 1` lines of `2·width + 1` characters.
    pub fn ascii(&self, with_solution: bool) -> Result<String, LevelError> {
        Ok(render::ascii(
            &self.maze,
            with_solution.then_some(&self.solution[..]),
        )?)
    }
}

impl std::fmt::Display for Level {
    /// The maze in box-drawing characters with its solution ([`Level::unicode`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.unicode(true).map_err(|_| std::fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_inputs_are_errors_naming_them() {
        let e = Level::regenerate("wilsn", 4, 4, 1, 0).unwrap_err();
        assert!(matches!(e, LevelError::UnknownAlgorithm(_)), "{e}");
        assert!(e.to_string().contains("wilsn"), "{e}");
        for (w, h) in [(0, 4), (4, 0), (1 << 14, 1 << 14)] {
            let e = Level::regenerate("wilson", w, h, 1, 0).unwrap_err();
            assert!(e.to_string().starts_with(&format!("size {w}x{h}")), "{e}");
        }
        let l = Level::regenerate("wilson", 4, 3, 1, 0).unwrap();
        let e = l.with_ends(Ends::cells(0, 12)).unwrap_err();
        assert_eq!(e.to_string(), "cell 12 is outside the 12 cells of the maze");
        // 3D: a 2D-only generator is refused naming the ones that accept it; bad sizes too.
        let e = Level::regenerate_sized("eller", Size::new(3, 3, 2), 1, 0).unwrap_err();
        assert!(matches!(e, LevelError::Not3d { .. }), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("eller only makes 2D") && text.contains("wilson"),
            "{text}"
        );
        for size in [Size::new(3, 3, 0), Size::new(1 << 10, 1 << 10, 1 << 10)] {
            let e = Level::regenerate_sized("wilson", size, 1, 0).unwrap_err();
            assert!(matches!(e, LevelError::BadSize { .. }), "{e}");
        }
    }

    #[test]
    fn sized_2d_is_the_2d_level_and_coordinates_round_trip() {
        let a = Level::regenerate("kruskal", 6, 5, 9, 4).unwrap();
        let b = Level::regenerate_sized("kruskal", Size::planar(6, 5), 9, 4).unwrap();
        assert_eq!(
            (a.maze(), a.metrics(), a.depth()),
            (b.maze(), b.metrics(), 1)
        );
        assert_eq!(a.cell_at(5, 4, 0), a.cell(5, 4));
        assert_eq!(a.xyz(a.cell(2, 3)), (2, 3, 0));
        for c in 0..a.maze().cells() {
            let (x, y, z) = a.xyz(c);
            assert_eq!(a.cell_at(x, y, z), c);
            assert_eq!(a.xy(c), (x, y));
            for d in Dir::PLANAR {
                assert_eq!(a.can_move_at(x, y, 0, d), a.can_move(x, y, d));
            }
            assert!(!a.can_move_at(x, y, 0, Dir::Down) && !a.can_move_at(x, y, 0, Dir::Up));
        }
    }

    #[test]
    fn walls_solution_and_moves_agree() {
        for algo in Algorithm::all() {
            let l = Level::regenerate_algorithm(&algo, 9, 7, 3, 11).unwrap();
            assert!(l.maze().is_perfect());
            assert_eq!(l.walls(), l.maze().words());
            assert_eq!((l.entrance(), l.exit()), (0, 62));
            // Consecutive solution cells are neighbours with an open wall between them.
            for p in l.solution().windows(2) {
                let (x, y) = l.xy(p[0]);
                let step = Dir::ALL
                    .into_iter()
                    .find(|&d| {
                        l.maze().has_neighbour(p[0], d) && l.maze().neighbour(p[0], d) == p[1]
                    })
                    .expect("adjacent");
                assert!(l.can_move(x, y, step), "{}", algo.name());
            }
            // No move leaves the grid.
            for y in 0..7 {
                assert!(!l.can_move(0, y, Dir::West) && !l.can_move(8, y, Dir::East));
            }
            let d = l.clone().with_ends(Ends::Diameter).unwrap();
            assert_eq!(d.metrics().solution_length, d.metrics().diameter);
            assert_eq!(d.solution().len() as u32, d.metrics().diameter + 1);
            assert_eq!(
                (d.entrance(), d.exit()),
                (d.metrics().diameter_start, d.metrics().diameter_end)
            );
            assert_eq!(d.maze(), l.maze());
            let art = l.ascii(false).unwrap();
            assert_eq!(crate::render::parse_ascii(&art).unwrap().0, *l.maze());
        }
    }
}
