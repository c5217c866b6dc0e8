//! A level for a game in one call: regenerate a maze from the identifiers of its Parquet row
//! (algo, size, seed, index), or read it from a maze store, and get its walls, its solution
//! path and its metrics. This is the last step of the level pipeline (generate, pick with
//! SQL, take the chosen mazes into a game) as a small API, so a game does not have to wire
//! the generator, the RNG, the seeding and the metrics itself.
//!
//! A [`Level`] owns its maze, the ends it is measured with (entrance and exit cells), the
//! [`Metrics`] for those ends and the solution path between them. Regenerated levels use the
//! corners (top-left to bottom-right; in 3D the first and the last cell) unless
//! [`LevelSpec::ends`] or [`Level::with_ends`] says otherwise; levels read from a store use the ends recorded there
//! (per maze with `--ends diameter`). 3D levels (a [`LevelSpec`] of a 3D [`Size`]) number their cells
//! `x + width·(y + height·z)`, layer `z = 0` on top; [`Level::xyz`] and [`Level::cell_at`]
//! convert.
//!
//! Levels on the other grids ([`LevelSpec::grid`]: hex, triangle, polar; layouts in
//! `src/topo/README.md`) are the mazes of those grids' rows: the same seed rule as their run
//! ([`crate::topo::seed_base`]), walls as one open bit per edge of the grid's
//! [`CellGraph`] ([`Level::graph`], [`Level::graph_maze`]), braided as their run braids
//! ([`crate::topo::braid`]), ends the first and the last cell unless given as cells or as a
//! farthest pair, and [`crate::topo::measure_maze`]'s metrics. Their cells are numbered
//! as on those grids (`y·W + x` for hex and triangle, ring by ring for polar); the square-only
//! parts of this API ([`Level::maze`], [`Level::can_move`], the text pictures) say so.
//!
//! Every constructor is one builder, [`LevelSpec`]: the generator, the size, the mask (if
//! any), the braid chance, the seed, the index and the ends. A masked or braided row of the
//! main job (`--mask`, `--braid`) is a `LevelSpec` with its mask and its `braid` column, and
//! the level it builds has that row's walls and metrics.

use crate::generate::{Algorithm, UnknownAlgorithm};
use std::sync::Arc;

use crate::grid::{Dir, Mask, Maze, Size, MAX_CELLS};
use crate::maze_id::MazeId;
use crate::metrics::{self, Ends, Metrics};
use crate::render::{self, RenderError};
use crate::rng::Chance;
#[cfg(feature = "store")]
use crate::store::{StoreError, StoreReader};
use crate::topo::generate::{self as tgen, GraphScratch};
use crate::topo::{self, CellGraph, GraphEnds, GraphError, GraphMaze, Grid, GridEnds, GridSize};

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
    #[cfg(feature = "store")]
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Drawing failed.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A mask of another size than the level's, or on a 3D size.
    #[error("the mask is {mask} and the level {size}: {why}")]
    MaskSize {
        /// The mask's size.
        mask: Size,
        /// The size asked for.
        size: Size,
        /// What is wrong.
        why: &'static str,
    },
    /// A generator, size, mask or option that does not work on the level's grid.
    #[error("--grid {grid}: {why}")]
    Grid {
        /// The grid.
        grid: Grid,
        /// What is wrong.
        why: String,
    },
    /// A braid chance outside 0 to 1 (or not a number).
    #[error("braid {braid}: expected a chance from 0 to 1")]
    BadBraid {
        /// The chance given.
        braid: f64,
    },
    /// The id names a masked maze (its `mask_hash`) and no mask was given.
    #[error(
        "the maze is on the mask with hash {hash} (its mask_hash); give that mask (the file's \
         batchgen.mask metadata) to regenerate it"
    )]
    MaskNeeded {
        /// The id's mask hash.
        hash: u64,
    },
    /// The mask given is not the one the id names.
    #[error("the maze is on the mask with hash {expected}, the mask given hashes to {given}")]
    WrongMask {
        /// The id's mask hash (0: the id names an unmasked maze).
        expected: u64,
        /// The given mask's hash.
        given: u64,
    },
}

/// One maze ready for a game: identifiers, walls, ends, solution and metrics.
#[derive(Clone, Debug)]
pub struct Level {
    algo: Algorithm,
    braid: f64,
    seed: u64,
    index: u64,
    maze_seed: u64,
    maze: Body,
    entrance: u32,
    exit: u32,
    metrics: Metrics,
    solution: Vec<u32>,
}

/// A level's maze: square (2D or 3D), or a spanning tree of another grid's cell graph.
#[derive(Clone, Debug)]
enum Body {
    Square(Maze),
    Graph {
        graph: Arc<CellGraph>,
        maze: GraphMaze,
        mask: Option<Arc<Mask>>,
    },
}

/// Everything that makes a level: the maze's identifiers as a metrics row holds them (`algo`,
/// size, the mask behind `mask_hash`, `braid`, `seed`, `index`) and the ends its solution runs
/// between. [`LevelSpec::build`] checks it and makes the level; every constructor of [`Level`]
/// is this builder.
///
/// ```
/// use std::sync::Arc;
/// use batchgen::grid::{Mask, Size};
/// use batchgen::{Algorithm, LevelSpec};
///
/// // A braided row: `batchgen --algo wilson --size 16x16 --braid 0.5 --seed 3`, index 7.
/// let braided = LevelSpec::new(Algorithm::Wilson, Size::planar(16, 16), 3, 7)
///     .braid(0.5)
///     .build()?;
/// assert!(braided.metrics().loops > 0 && braided.metrics().braid == 0.5);
/// // A masked row: the mask sets the size, the ends are its first and last cells.
/// let mask = Arc::new(Mask::from_text("..#\n...\n#..\n")?);
/// let masked = LevelSpec::masked(Algorithm::Kruskal, mask.clone(), 3, 7).build()?;
/// assert_eq!((masked.entrance(), masked.exit()), (mask.first(), mask.last()));
/// assert_eq!(masked.metrics().mask_hash, mask.hash());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct LevelSpec {
    /// The generator.
    pub algo: Algorithm,
    /// The grid size (the mask's size when there is a mask).
    pub size: Size,
    /// The mask the maze fills (`--mask`), if any.
    pub mask: Option<Arc<Mask>>,
    /// The braid chance per dead end (`--braid`, the `braid` column; 0 for a perfect maze).
    pub braid: f64,
    /// The run's master seed.
    pub seed: u64,
    /// The maze's index within (algo, size, mask, seed).
    pub index: u64,
    /// The ends of the solution; `None` is the main job's default: the corners (in 3D the
    /// first and the last cell), on a mask its first and last cells.
    pub ends: Option<Ends>,
    /// The shape of the cells ([`Grid::Square`] unless set with [`LevelSpec::on_grid`]). On
    /// the other grids `size` is `W×H` (depth 1), for polar `R×C` (rings, cells of the first
    /// ring); the ends are cells (the first and the last cell by default) or a farthest pair.
    pub grid: Grid,
}

impl LevelSpec {
    /// Maze `index` of (`algo`, `size`, master `seed`): unmasked, perfect, default ends.
    pub fn new(algo: Algorithm, size: Size, seed: u64, index: u64) -> LevelSpec {
        LevelSpec {
            algo,
            size,
            mask: None,
            braid: 0.0,
            seed,
            index,
            ends: None,
            grid: Grid::Square,
        }
    }

    /// The same spec on `grid` (see [`LevelSpec::grid`]).
    pub fn on_grid(mut self, grid: Grid) -> LevelSpec {
        self.grid = grid;
        self
    }

    /// Maze `index` of (`algo`, `mask`, master `seed`): the mask sets the size.
    pub fn masked(algo: Algorithm, mask: Arc<Mask>, seed: u64, index: u64) -> LevelSpec {
        LevelSpec {
            size: mask.size(),
            mask: Some(mask),
            ..LevelSpec::new(algo, Size::planar(1, 1), seed, index)
        }
    }

    /// The level a [`MazeId`] names, on the mask the id's maze fills (a metrics file's
    /// `batchgen.mask` metadata, a store's [`StoreReader::mask`]; `None` for an unmasked id).
    /// Refused, naming the hash: a masked id without its mask, a mask that does not hash to the
    /// id's `mask_hash`, a mask for an unmasked id.
    pub fn from_id(id: &MazeId, mask: Option<Arc<Mask>>) -> Result<LevelSpec, LevelError> {
        match (&mask, id.mask_hash) {
            (None, 0) => {}
            (None, hash) => return Err(LevelError::MaskNeeded { hash }),
            (Some(m), expected) if m.hash() != expected => {
                return Err(LevelError::WrongMask {
                    expected,
                    given: m.hash(),
                })
            }
            (Some(_), _) => {}
        }
        Ok(LevelSpec {
            algo: id.algo,
            size: id.size,
            mask,
            braid: id.braid,
            seed: id.seed,
            index: id.index,
            ends: Some(id.ends),
            grid: id.grid,
        })
    }

    /// The same spec braided with chance `p` per dead end (checked by [`LevelSpec::build`]).
    pub fn braid(mut self, p: f64) -> LevelSpec {
        self.braid = p;
        self
    }

    /// The same spec solved between `ends`.
    pub fn ends(mut self, ends: Ends) -> LevelSpec {
        self.ends = Some(ends);
        self
    }

    /// The same spec solved between the ends the command line's flags give (`--ends RULE`,
    /// `--entrance X,Y`, `--exit X,Y`, checked as the main job checks them): on a mask, the
    /// entrance and exit not given are its first and last cells ([`ends_on_mask`]). On the
    /// other grids ([`LevelSpec::on_grid`], set first) the cells are named in the grid's own
    /// coordinates, `X,Y` on hex and triangle grids and `RING,I` on polar ones, as the main
    /// job's ([`crate::run::value::grid_ends`]).
    pub fn ends_of_flags(
        self,
        rule: Option<&str>,
        entrance: Option<&str>,
        exit: Option<&str>,
    ) -> Result<LevelSpec, crate::run::value::ArgError> {
        if self.grid != Grid::Square {
            let rule = crate::run::value::ends_rule(rule)?;
            let size = GridSize::new(self.grid, self.size.width, self.size.height);
            let e = crate::run::value::grid_ends(rule, entrance, exit, size, self.mask.as_deref())
                .map_err(|e| e.to_arg(crate::run::Names::Flags))?;
            return Ok(self.ends(e));
        }
        let (e, _) = crate::run::value::resolve_ends_sized(rule, entrance, exit, self.size)?;
        let mask = self.mask.as_deref();
        let e = ends_on_mask(e, entrance.is_some(), exit.is_some(), mask);
        Ok(self.ends(e))
    }

    /// Check the spec and make its level: the maze of the row with these identifiers (walls
    /// bit for bit, braided as the main job braids), measured between the ends. Refused: a size
    /// batchgen cannot make, a 3D size for a 2D generator, a mask of another size or with a
    /// generator that does not accept one, a braid chance outside 0 to 1 (or above 0 on a
    /// mask), ends outside the grid or on a hole of the mask.
    pub fn build(&self) -> Result<Level, LevelError> {
        if self.grid != Grid::Square {
            return self.build_on_graph();
        }
        let (algo, size) = (self.algo, self.size);
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
                accepted: crate::run::value::names_3d(),
            });
        }
        if !(0.0..=1.0).contains(&self.braid) {
            return Err(LevelError::BadBraid { braid: self.braid });
        }
        let ends = match &self.mask {
            None => self.ends.unwrap_or_else(|| Ends::first_last(size)),
            Some(m) => {
                let why = if size.is_3d() {
                    Some("masks are 2D only")
                } else if m.size() != size {
                    Some("the mask sets the size")
                } else {
                    None
                };
                if let Some(why) = why {
                    return Err(LevelError::MaskSize {
                        mask: m.size(),
                        size,
                        why,
                    });
                }
                if !algo.supports_mask() {
                    return Err(LevelError::NoMask(algo.mask_refusal()));
                }
                self.ends
                    .unwrap_or_else(|| Ends::cells(m.first(), m.last()))
            }
        };
        check_ends(ends, size.cells())?;
        if let (Ends::Cells { entrance, exit }, Some(m)) = (ends, &self.mask) {
            if let Some(cell) = [entrance, exit].into_iter().find(|&c| !m.contains(c)) {
                return Err(LevelError::Hole { cell });
            }
        }
        let mut maze = Maze::with_size(size);
        maze.set_mask(self.mask.clone());
        let maze_seed = crate::generate::regenerate(
            &algo,
            &mut maze,
            &mut crate::generate::Scratch::new(),
            self.seed,
            self.index,
        );
        let chance = Chance::new(self.braid);
        crate::braid::braid_seeded(&mut maze, chance, maze_seed, &mut Default::default());
        let ids = Ids {
            algo,
            braid: chance.p(),
            seed: self.seed,
            index: self.index,
            maze_seed,
        };
        Ok(Level::measured(ids, maze, ends))
    }

    /// [`LevelSpec::build`] on a grid other than the square one: the run's seed rule, its
    /// generator, its ends and its measure.
    fn build_on_graph(&self) -> Result<Level, LevelError> {
        let grid = self.grid;
        let err = |why: String| LevelError::Grid { grid, why };
        let size = self.size;
        if size.is_3d() {
            return Err(err(format!("size {size}: the {grid} grid is 2D")));
        }
        let gs = GridSize::new(grid, size.width, size.height);
        let text = gs.to_string();
        GridSize::parse(grid, &text).map_err(|why| LevelError::BadSize {
            width: size.width,
            height: size.height,
            why,
        })?;
        tgen::check(&self.algo, grid).map_err(err)?;
        if !(0.0..=1.0).contains(&self.braid) {
            return Err(LevelError::BadBraid { braid: self.braid });
        }
        let graph = match &self.mask {
            None => CellGraph::new(gs),
            Some(m) => {
                let (mw, mh) = (m.size().width, m.size().height);
                let cells: Vec<bool> = (0..mw * mh).map(|c| m.contains(c)).collect();
                CellGraph::masked(gs, mw, mh, &cells).map_err(|e: GraphError| err(e.to_string()))?
            }
        };
        let (first, last) = graph.corners();
        let (entrance, exit) = match self.ends {
            None | Some(Ends::Diameter) => (first, last),
            Some(Ends::Cells { entrance, exit }) => (entrance, exit),
        };
        for cell in [entrance, exit] {
            if cell >= graph.len() {
                return Err(LevelError::BadCell {
                    cell,
                    cells: graph.len(),
                });
            }
            if !graph.has_cell(cell) {
                return Err(LevelError::Hole { cell });
            }
        }
        let maze_seed = topo::maze_seed(self.seed, &self.algo.name(), gs, self.index);
        let mut maze = GraphMaze::new(&graph);
        tgen::generate(
            &self.algo,
            &graph,
            &mut maze,
            &mut GraphScratch::new(),
            &mut crate::Rng::from_maze_seed(maze_seed),
        );
        let chance = Chance::new(self.braid);
        topo::braid::braid_seeded(
            &graph,
            &mut maze,
            chance,
            maze_seed,
            &mut Default::default(),
        );
        let ids = Ids {
            algo: self.algo,
            braid: chance.p(),
            seed: self.seed,
            index: self.index,
            maze_seed,
        };
        let ends = match self.ends {
            Some(Ends::Diameter) => GridEnds::Diameter,
            _ => GridEnds::Cells(GraphEnds::new(&graph, entrance, exit)),
        };
        Ok(Level::measured_graph(
            ids,
            Arc::new(graph),
            maze,
            self.mask.clone(),
            ends,
        ))
    }
}

/// A [`MazeId`] regenerated: its conversion to a level lives here, beside [`LevelSpec`], so
/// `maze_id.rs` (the identity) does not import this file.
impl MazeId {
    /// Regenerate the maze and measure it between its ends: the row's or record's level. A
    /// masked id needs its mask: [`MazeId::level_on`].
    pub fn level(&self) -> Result<Level, LevelError> {
        self.level_on(None)
    }

    /// [`MazeId::level`] on `mask` (the one whose hash is [`MazeId::mask_hash`]; `None` for an
    /// unmasked id): see [`LevelSpec::from_id`].
    pub fn level_on(&self, mask: Option<Arc<Mask>>) -> Result<Level, LevelError> {
        LevelSpec::from_id(self, mask)?.build()
    }
}

/// The ends of a maze on `mask` as the main job takes them from its flags: the entrance and
/// exit not given (`entrance_given`, `exit_given`) move to the mask's first and last cells (a
/// given one stays, to be checked by [`LevelSpec::build`]); other ends, and any ends without a
/// mask, are returned as they are.
pub fn ends_on_mask(
    ends: Ends,
    entrance_given: bool,
    exit_given: bool,
    mask: Option<&Mask>,
) -> Ends {
    match (mask, ends) {
        (Some(m), Ends::Cells { entrance, exit }) => Ends::cells(
            if entrance_given { entrance } else { m.first() },
            if exit_given { exit } else { m.last() },
        ),
        (_, e) => e,
    }
}

/// A level's identifiers besides its maze and ends.
struct Ids {
    algo: Algorithm,
    braid: f64,
    seed: u64,
    index: u64,
    maze_seed: u64,
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
    /// The mask the maze fills, if any.
    pub fn mask(&self) -> Option<&Arc<Mask>> {
        match &self.maze {
            Body::Square(m) => m.mask(),
            Body::Graph { mask, .. } => mask.as_ref(),
        }
    }

    /// The shape of the cells.
    pub fn grid(&self) -> Grid {
        match &self.maze {
            Body::Square(_) => Grid::Square,
            Body::Graph { graph, .. } => graph.size().grid,
        }
    }

    /// The grid and its size (for the square grid, width and height; see [`Level::size`] for
    /// the depth).
    pub fn grid_size(&self) -> GridSize {
        match &self.maze {
            Body::Square(m) => GridSize::new(Grid::Square, m.width(), m.height()),
            Body::Graph { graph, .. } => graph.size(),
        }
    }

    /// The cell graph of a level on a grid other than the square one (`None` on the square
    /// grid, whose maze is [`Level::maze`]).
    pub fn graph(&self) -> Option<&CellGraph> {
        match &self.maze {
            Body::Square(_) => None,
            Body::Graph { graph, .. } => Some(graph),
        }
    }

    /// The maze of a level on a grid other than the square one: one open bit per edge of
    /// [`Level::graph`] (`None` on the square grid).
    pub fn graph_maze(&self) -> Option<&GraphMaze> {
        match &self.maze {
            Body::Square(_) => None,
            Body::Graph { maze, .. } => Some(maze),
        }
    }

    /// The hash of the walls: the `maze_hash` column of the level's row, on every grid.
    pub fn maze_hash(&self) -> u64 {
        match &self.maze {
            Body::Square(m) => m.hash(),
            Body::Graph { graph, maze, .. } => maze.hash(graph.size()),
        }
    }

    /// The cells of the maze (a mask's holes not counted).
    pub fn cell_count(&self) -> u32 {
        match &self.maze {
            Body::Square(m) => m.cells() - m.mask().map_or(0, |k| m.cells() - k.cells()),
            Body::Graph { graph, .. } => graph.cells(),
        }
    }

    /// Is `cell` a cell of the maze (inside the grid and not a hole of its mask)?
    pub fn has_cell(&self, cell: u32) -> bool {
        match &self.maze {
            Body::Square(m) => cell < m.cells() && m.has_cell(cell),
            Body::Graph { graph, .. } => cell < graph.len() && graph.has_cell(cell),
        }
    }

    /// The neighbours of `cell` on any grid, in the grid's direction order: (neighbour, the
    /// direction label of the step, whether the wall between them is open). Square labels are
    /// E 0, S 1, W 2, N 3, down 4, up 5; the other grids' are in `src/topo/README.md`.
    pub fn neighbours(&self, cell: u32) -> Vec<(u32, u8, bool)> {
        match &self.maze {
            Body::Square(m) => Dir::ALL
                .into_iter()
                .filter(|&d| m.has_neighbour(cell, d))
                .map(|d| (m.neighbour(cell, d), d as u8, m.is_open(cell, d)))
                .collect(),
            Body::Graph { graph, maze, .. } => graph
                .slots(cell)
                .map(|s| (graph.nbr(s), graph.dir(s), maze.is_open(graph.edge(s))))
                .collect(),
        }
    }

    /// The braid chance the maze was made with (the `braid` column; 0 for a perfect maze, and
    /// for a level read from a store that does not record the chance).
    pub fn braid(&self) -> f64 {
        self.braid
    }

    /// This level's identity, its ends as the cells it is measured between, with its mask's
    /// hash and its braid chance: [`MazeId::level_on`] of it and [`Level::mask`] gives this
    /// level again.
    pub fn id(&self) -> MazeId {
        MazeId::new(
            self.algo,
            self.size(),
            self.seed,
            self.index,
            Ends::cells(self.entrance, self.exit),
        )
        .on_mask(self.mask().map_or(0, |m| m.hash()))
        .braided(self.braid)
        .on_grid(self.grid())
    }

    #[cfg(feature = "store")]
    /// Record `k` of a maze store: its walls as stored (checked to be a perfect maze, or a
    /// connected one with the record's loops), on the store's mask, with the store's braid
    /// chance ([`StoreReader::braid`], 0 when it records none), and the ends it was measured
    /// with.
    ///
    /// A store of another grid ([`StoreReader::grid`]) gives the record's maze on that grid
    /// ([`StoreReader::graph_maze`]: connected, with the record's loops, hashing to the
    /// record's `maze_hash`), measured between the record's entrance and exit cells.
    pub fn from_store(store: &StoreReader, k: u64) -> Result<Level, LevelError> {
        if let Some(graph) = store.grid_shared() {
            let maze = store.graph_maze(k)?;
            let (ids, entrance, exit) = Level::store_ids(store, k)?;
            let mask = store.mask().cloned();
            let ends = GridEnds::Cells(GraphEnds::new(&graph, entrance, exit));
            return Ok(Level::measured_graph(ids, graph, maze, mask, ends));
        }
        let maze = store.maze(k)?;
        let (ids, entrance, exit) = Level::store_ids(store, k)?;
        Ok(Level::measured(ids, maze, Ends::cells(entrance, exit)))
    }

    #[cfg(feature = "store")]
    /// Record `k`'s identifiers (with the store's braid chance) and its entrance and exit.
    fn store_ids(store: &StoreReader, k: u64) -> Result<(Ids, u32, u32), LevelError> {
        let r = store.record(k)?;
        let ids = Ids {
            algo: Algorithm::parse(r.algo)?,
            braid: store.braid().unwrap_or(0.0),
            seed: r.seed,
            index: r.index,
            maze_seed: r.maze_seed,
        };
        Ok((ids, r.entrance, r.exit))
    }

    fn measured(ids: Ids, maze: Maze, ends: Ends) -> Level {
        let mut scratch = metrics::Scratch::new();
        let mut m = metrics::measure(&maze, ends, &mut scratch);
        m.braid = ids.braid;
        let solution = scratch.solution_path();
        Level {
            algo: ids.algo,
            braid: ids.braid,
            seed: ids.seed,
            index: ids.index,
            maze_seed: ids.maze_seed,
            entrance: solution[0],
            exit: solution[solution.len() - 1],
            maze: Body::Square(maze),
            metrics: m,
            solution,
        }
    }

    fn measured_graph(
        ids: Ids,
        graph: Arc<CellGraph>,
        maze: GraphMaze,
        mask: Option<Arc<Mask>>,
        ends: GridEnds,
    ) -> Level {
        let mut scratch = topo::measure_graph::Scratch::new();
        let mut m = topo::measure_maze(
            &graph,
            &maze,
            ends,
            mask.as_ref().map_or(0, |k| k.hash()),
            &mut scratch,
        );
        m.braid = ids.braid;
        let (entrance, exit) = match ends {
            GridEnds::Cells(e) => (e.entrance, e.exit),
            GridEnds::Diameter => (m.diameter_start, m.diameter_end),
        };
        let solution = scratch.solution_path();
        Level {
            algo: ids.algo,
            braid: ids.braid,
            seed: ids.seed,
            index: ids.index,
            maze_seed: ids.maze_seed,
            entrance,
            exit,
            maze: Body::Graph { graph, maze, mask },
            metrics: m,
            solution,
        }
    }

    /// The same maze measured between other ends: [`Ends::cells`] (cell ids, checked),
    /// [`Ends::corners`], or [`Ends::Diameter`] (a longest path, so the solution is as long as
    /// the maze allows).
    pub fn with_ends(self, ends: Ends) -> Result<Level, LevelError> {
        let len = match &self.maze {
            Body::Square(m) => m.cells(),
            Body::Graph { graph, .. } => graph.len(),
        };
        check_ends(ends, len)?;
        if let Ends::Cells { entrance, exit } = ends {
            for cell in [entrance, exit] {
                if !self.has_cell(cell) {
                    return Err(LevelError::Hole { cell });
                }
            }
        }
        let ids = Ids {
            algo: self.algo,
            braid: self.braid,
            seed: self.seed,
            index: self.index,
            maze_seed: self.maze_seed,
        };
        match (self.maze, ends) {
            (Body::Square(maze), _) => Ok(Level::measured(ids, maze, ends)),
            (Body::Graph { graph, maze, mask }, Ends::Diameter) => Ok(Level::measured_graph(
                ids,
                graph,
                maze,
                mask,
                GridEnds::Diameter,
            )),
            (Body::Graph { graph, maze, mask }, Ends::Cells { entrance, exit }) => {
                let ends = GridEnds::Cells(GraphEnds::new(&graph, entrance, exit));
                Ok(Level::measured_graph(ids, graph, maze, mask, ends))
            }
        }
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

    /// The maze of a square level.
    ///
    /// # Panics
    ///
    /// On a level of another grid ([`Level::grid`]): its maze is [`Level::graph_maze`].
    pub fn maze(&self) -> &Maze {
        match &self.maze {
            Body::Square(m) => m,
            Body::Graph { graph, .. } => panic!(
                "a level on the {} grid has no square maze: use Level::graph_maze",
                graph.size().grid
            ),
        }
    }

    /// The square maze, or `None` on another grid.
    pub fn square_maze(&self) -> Option<&Maze> {
        match &self.maze {
            Body::Square(m) => Some(m),
            Body::Graph { .. } => None,
        }
    }

    /// Grid width in cells (polar: the rings).
    pub fn width(&self) -> u32 {
        self.size().width
    }

    /// Grid height in cells (polar: the cells of the first ring).
    pub fn height(&self) -> u32 {
        self.size().height
    }

    /// Grid depth in layers (1 for 2D and the other grids).
    pub fn depth(&self) -> u32 {
        self.size().depth
    }

    /// The grid size (depth 1 for 2D): the `width`, `height` and `depth` columns of its row.
    pub fn size(&self) -> Size {
        match &self.maze {
            Body::Square(m) => m.size(),
            Body::Graph { graph, .. } => Size::planar(graph.size().a, graph.size().b),
        }
    }

    /// The wall words, as a maze store holds them: square [`Maze::words`] (bit `2·id` east,
    /// `2·id + 1` south, set = open); on the other grids [`GraphMaze::words`] (one bit per
    /// edge, numbered as in `src/topo/README.md`).
    pub fn walls(&self) -> &[u64] {
        match &self.maze {
            Body::Square(m) => m.words(),
            Body::Graph { maze, .. } => maze.words(),
        }
    }

    /// Cell id of `(x, y)`: `y · width + x` (in 3D, the cell of layer 0).
    pub fn cell(&self, x: u32, y: u32) -> u32 {
        y * self.width() + x
    }

    /// `(x, y)` of a cell id (in 3D, within its layer; see [`Level::xyz`]). Polar: `(i, r)`,
    /// the cell's index in its ring and the ring.
    pub fn xy(&self, cell: u32) -> (u32, u32) {
        let (x, y, _) = self.xyz(cell);
        (x, y)
    }

    /// Cell id of `(x, y, z)`: `x + width·(y + height·z)`, layer `z = 0` on top.
    pub fn cell_at(&self, x: u32, y: u32, z: u32) -> u32 {
        self.size().cell(x, y, z)
    }

    /// `(x, y, z)` of a cell id (`z = 0` for 2D and the other grids; polar: `(i, r, 0)`, the
    /// index in the ring and the ring).
    pub fn xyz(&self, cell: u32) -> (u32, u32, u32) {
        match &self.maze {
            Body::Graph { graph, .. } if graph.size().grid == Grid::Polar => {
                let (r, i) = graph.ring_of(cell);
                (i, r, 0)
            }
            _ => self.size().coords(cell),
        }
    }

    /// Whether a player at `(x, y, z)` can step in direction `dir` (any of the six, `Dir::Down`
    /// to layer `z + 1`): the wall there is open; the border never is. The cell must be inside
    /// the grid, and the level square ([`Level::neighbours`] works on every grid).
    pub fn can_move_at(&self, x: u32, y: u32, z: u32, dir: Dir) -> bool {
        let s = self.size();
        assert!(
            x < s.width && y < s.height && z < s.depth,
            "({x}, {y}, {z}) outside the grid"
        );
        let c = s.cell(x, y, z);
        let m = self.maze();
        m.has_neighbour(c, dir) && m.is_open(c, dir)
    }

    /// Whether a player at `(x, y)` can step in direction `dir` (the wall there is open; the
    /// border never is). `(x, y)` must be inside the grid, and the level square.
    pub fn can_move(&self, x: u32, y: u32, dir: Dir) -> bool {
        assert!(
            x < self.width() && y < self.height(),
            "({x}, {y}) outside the grid"
        );
        let m = self.maze();
        m.has_neighbour(self.cell(x, y), dir) && m.is_open(self.cell(x, y), dir)
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
            self.text_maze()?,
            with_solution.then_some(&self.solution[..]),
        )?)
    }

    /// The level as ASCII art (`#` wall, space open, `.` the solution when `with_solution`):
    /// `2·height + 1` lines of `2·width + 1` characters.
    pub fn ascii(&self, with_solution: bool) -> Result<String, LevelError> {
        Ok(render::ascii(
            self.text_maze()?,
            with_solution.then_some(&self.solution[..]),
        )?)
    }
}

impl Level {
    /// The square maze for a text picture; other grids are refused, naming the grid.
    fn text_maze(&self) -> Result<&Maze, LevelError> {
        self.square_maze().ok_or_else(|| LevelError::Grid {
            grid: self.grid(),
            why: "text pictures draw square cells; draw it as SVG or PNG".into(),
        })
    }
}

impl std::fmt::Display for Level {
    /// The maze in box-drawing characters with its solution ([`Level::unicode`]); a level on
    /// another grid, which text does not draw, as its id.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.square_maze() {
            Some(_) => f.write_str(&self.unicode(true).map_err(|_| std::fmt::Error)?),
            None => write!(f, "{}", self.id()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_inputs_are_errors_naming_them() {
        let e = LevelError::from("wilsn".parse::<Algorithm>().unwrap_err());
        assert!(matches!(e, LevelError::UnknownAlgorithm(_)), "{e}");
        assert!(e.to_string().contains("wilsn"), "{e}");
        for (w, h) in [(0, 4), (4, 0), (1 << 14, 1 << 14)] {
            let e = LevelSpec::new(Algorithm::Wilson, Size::planar(w, h), 1, 0)
                .build()
                .unwrap_err();
            assert!(e.to_string().starts_with(&format!("size {w}x{h}")), "{e}");
        }
        let l = LevelSpec::new(Algorithm::Wilson, Size::planar(4, 3), 1, 0)
            .build()
            .unwrap();
        let e = l.with_ends(Ends::cells(0, 12)).unwrap_err();
        assert_eq!(e.to_string(), "cell 12 is outside the 12 cells of the maze");
        // 3D: a 2D-only generator is refused naming the ones that accept it; bad sizes too.
        let e = LevelSpec::new(Algorithm::Eller, Size::new(3, 3, 2), 1, 0)
            .build()
            .unwrap_err();
        assert!(matches!(e, LevelError::Not3d { .. }), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("eller only makes 2D") && text.contains("wilson"),
            "{text}"
        );
        for size in [Size::new(3, 3, 0), Size::new(1 << 10, 1 << 10, 1 << 10)] {
            let e = LevelSpec::new(Algorithm::Wilson, size, 1, 0)
                .build()
                .unwrap_err();
            assert!(matches!(e, LevelError::BadSize { .. }), "{e}");
        }
    }

    #[test]
    fn sized_2d_is_the_2d_level_and_coordinates_round_trip() {
        let a = LevelSpec::new(Algorithm::Kruskal, Size::new(6, 5, 1), 9, 4)
            .build()
            .unwrap();
        assert_eq!(a.depth(), 1);
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
            let l = LevelSpec::new(algo, Size::planar(9, 7), 3, 11)
                .build()
                .unwrap();
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

    #[test]
    fn the_builder_makes_the_generators_maze_and_braid_0_changes_nothing() {
        let size = Size::planar(9, 7);
        for algo in Algorithm::all() {
            let mut maze = Maze::with_size(size);
            let scratch = &mut crate::generate::Scratch::new();
            let maze_seed = crate::generate::regenerate(&algo, &mut maze, scratch, 3, 11);
            let spec = LevelSpec::new(algo, size, 3, 11);
            let old = spec.build().unwrap();
            assert_eq!((old.maze(), old.maze_seed()), (&maze, maze_seed));
            let new = LevelSpec::from_id(&old.id(), None)
                .unwrap()
                .build()
                .unwrap();
            let unbraided = spec.clone().braid(0.0).build().unwrap();
            assert_eq!((new.maze(), new.metrics()), (old.maze(), old.metrics()));
            assert_eq!(
                (unbraided.maze(), unbraided.solution()),
                (old.maze(), old.solution())
            );
            assert_eq!(new.id(), old.id());
            // Braiding keeps the maze's seed, adds loops and no other passage.
            let braided = spec.braid(1.0).build().unwrap();
            assert_eq!(braided.maze_seed(), old.maze_seed());
            let m = braided.metrics();
            assert_eq!((m.braid, braided.braid()), (1.0, 1.0));
            assert_eq!(braided.maze().passages(), 62 + u64::from(m.loops));
            assert_eq!(m.dead_ends, 0, "{}", algo.name());
            // The braided level's id gives it back.
            let again = braided.id().level().unwrap();
            assert_eq!((again.maze(), again.metrics()), (braided.maze(), m));
        }
    }

    #[test]
    fn bad_masks_and_braid_chances_are_refused() {
        let ring = Arc::new(Mask::from_text("...\n.#.\n...\n").unwrap());
        let wilson = LevelSpec::masked(Algorithm::Wilson, ring.clone(), 1, 0);
        // A braided level on a mask opens walls between mask cells only.
        let braided = wilson.clone().braid(1.0).build().unwrap();
        assert!(braided.maze().is_connected());
        assert_eq!(braided.metrics().dead_ends, 0);
        assert_eq!(
            braided.maze().passages(),
            7 + u64::from(braided.metrics().loops)
        );
        for p in [-0.1, 1.5, f64::NAN] {
            let e = LevelSpec::new(Algorithm::Wilson, Size::planar(4, 4), 1, 0)
                .braid(p)
                .build()
                .unwrap_err();
            assert!(matches!(e, LevelError::BadBraid { .. }), "{e}");
        }
        let e = LevelSpec {
            size: Size::planar(4, 3),
            ..wilson.clone()
        }
        .build()
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the mask is 3x3 and the level 4x3: the mask sets the size"
        );
        let e = wilson.clone().ends(Ends::cells(4, 8)).build().unwrap_err();
        assert_eq!(
            e.to_string(),
            "cell 4 is a hole of the mask, not a cell of the maze"
        );
        let e = LevelSpec::masked(Algorithm::Eller, ring.clone(), 1, 0)
            .build()
            .unwrap_err();
        assert!(matches!(e, LevelError::NoMask(_)), "{e}");
        let l = wilson.build().unwrap();
        assert_eq!((l.entrance(), l.exit(), l.metrics().cells), (0, 8, 8));
        assert_eq!(l.maze().passages(), 7);
    }

    #[test]
    fn grid_levels_are_the_runs_mazes_and_their_ids_give_them_back() {
        for (grid, a, b) in [
            (Grid::Hex, 5, 4),
            (Grid::Triangle, 6, 3),
            (Grid::Polar, 4, 6),
        ] {
            let gs = GridSize::new(grid, a, b);
            let g = CellGraph::new(gs);
            for algo in tgen::on_grid(grid) {
                // The run's rule: the grid's seed, its generator, its measure between the
                // first and last cell.
                let seed = topo::maze_seed(31, &algo.name(), gs, 5);
                let mut maze = GraphMaze::new(&g);
                let mut rng = crate::Rng::from_maze_seed(seed);
                tgen::generate(&algo, &g, &mut maze, &mut GraphScratch::new(), &mut rng);
                let mut ms = topo::MeasureScratch::new();
                let want = topo::measure(&g, &maze, GraphEnds::corners(&g), 0, &mut ms);
                let l = LevelSpec::new(algo, Size::planar(a, b), 31, 5)
                    .on_grid(grid)
                    .build()
                    .unwrap();
                assert_eq!((l.grid(), l.grid_size()), (grid, gs));
                assert_eq!(l.graph_maze(), Some(&maze), "{grid} {}", algo.name());
                assert_eq!((l.maze_seed(), l.maze_hash()), (seed, want.maze_hash));
                assert_eq!(l.metrics(), &want);
                assert_eq!(l.solution(), &ms.solution_path()[..]);
                assert_eq!(l.walls(), maze.words());
                assert!(l.square_maze().is_none() && l.ascii(false).is_err());
                // The id prints, parses and regenerates the same level.
                let id = l.id();
                assert_eq!(id.grid, grid);
                assert_eq!(id.maze_seed(), seed);
                let text = id.to_string();
                assert!(
                    text.starts_with(&format!("{} {grid} {gs} ", algo.name())),
                    "{text}"
                );
                let back: MazeId = text.parse().unwrap();
                assert_eq!(back, id, "{text}");
                let again = back.level().unwrap();
                assert_eq!(again.graph_maze(), l.graph_maze());
                assert_eq!(again.metrics(), l.metrics());
                // Other ends: the solution runs between them.
                let last = g.len() - 1;
                let other = l.clone().with_ends(Ends::cells(last, 1)).unwrap();
                assert_eq!(other.solution().first(), Some(&last));
                assert_eq!(other.solution().last(), Some(&1));
                assert_eq!(other.graph_maze(), l.graph_maze());
            }
        }
        // Refusals name the grid.
        let e = LevelSpec::new(Algorithm::Eller, Size::planar(4, 4), 1, 0)
            .on_grid(Grid::Hex)
            .build()
            .unwrap_err();
        assert!(e.to_string().starts_with("--grid hex: eller"), "{e}");
        let e = LevelSpec::new(Algorithm::Wilson, Size::planar(4, 4), 1, 0)
            .on_grid(Grid::Triangle)
            .braid(1.5)
            .build()
            .unwrap_err();
        assert!(matches!(e, LevelError::BadBraid { .. }), "{e}");
        let e = LevelSpec::new(Algorithm::Wilson, Size::planar(1, 4), 1, 0)
            .on_grid(Grid::Triangle)
            .build()
            .unwrap_err();
        assert!(matches!(e, LevelError::BadSize { .. }), "{e}");
        let l = LevelSpec::new(Algorithm::Wilson, Size::planar(3, 3), 1, 0)
            .on_grid(Grid::Hex)
            .build()
            .unwrap();
        // A farthest pair: the solution is as long as the diameter.
        let far = l.with_ends(Ends::Diameter).unwrap();
        let m = far.metrics();
        assert_eq!(m.solution_length, m.diameter);
        assert_eq!(
            (far.solution()[0], *far.solution().last().unwrap()),
            (m.diameter_start, m.diameter_end)
        );
    }
}
