//! Maze generators: the [`Algorithm`] enum, the one table describing every generator family
//! ([`FAMILIES`]: name, parameter, uniform or not, 2D only or 3D too, texture), the dispatch from
//! an algorithm to its generator (one file per generator, shared helpers in `padded` and
//! `shared`), and [`regenerate()`]: maze *i* of (algorithm, size, seed) in one call.
//!
//! # 3D
//!
//! The searching generators (backtracker, growing tree, hunt-and-kill), Prim and the uniform
//! random walks (Aldous–Broder, Wilson; their per-shape draws in `topology::Walk`) are written
//! once, generic over a topology (`topology::Topology`), and compiled for each shape: a maze of
//! depth > 1 goes, once per maze, to the 3D instantiation (on the padded 3D state of `space`),
//! a 2D maze to the planar one. Biased Wilson keeps a 3D path of its own (`wilson_biased_3d.rs`).
//! Kruskal needs no separate path (its wall list and union loop work on any grid). The
//! generators defined only on 2D grids (see [`Family::supports_3d`]) panic on a 3D maze with a
//! message naming those that accept one: callers check [`Algorithm::supports_3d`] first (the
//! CLI refuses with exit 2).
//!
//! Every generator has the signature
//! `fn generate<R: RandomSource>(&mut Maze, &mut Scratch, &mut R)` (those written once for
//! both shapes take the topology as a first type parameter): the maze
//! arrives sized and with every wall closed, the scratch buffers are the worker's and are reused
//! for every maze, and all randomness comes from the per-maze random source (a [`crate::Rng`] in the batch, an
//! enumerating source in the uniformity lab). Generators never recurse
//! and never allocate once the scratch has grown to the grid size.
//!
//! # Names and parameters
//!
//! A name is a family, optionally followed by `:` and a parameter. The canonical name (what
//! [`Algorithm::name`] returns, what goes in the `algo` column and into the per-maze seed)
//! always spells the parameter out; [`Algorithm::parse`] accepts it back, and also accepts the
//! bare family name for the default parameter.
//!
//! | name | parameter | default |
//! |---|---|---|
//! | `backtracker`, `kruskal`, `wilson`, `aldous-broder`, `prim`, `hunt-and-kill`, `eller`, `sidewinder`, `binary-tree`, `recursive-division`, `fractal` | none | |
//! | `wilson-straight:P` | probability `0 ≤ P ≤ 0.999` that the walk keeps its direction (near 1 a walk practically never ends; see [`MAX_STRAIGHT`]) | `0.5` |
//! | `wilson-turn:P` | probability `0 ≤ P ≤ 1` that the walk turns left or right | `0.5` |
//! | `growing-tree:POLICY` | `newest`, `oldest`, `random`, or `mix:P` (newest with probability `P`, else random) | `mix:0.5` |
//!
//! Probabilities are printed in Rust's shortest round-trip form (`0.7`, `1`, `0.25`), so
//! `wilson-straight:0.70` is read as `wilson-straight:0.7` and written back that way.
//! Parameters never contain a comma, so a comma list (`--algo wilson,growing-tree:newest`)
//! splits cleanly.

mod aldous_broder;
mod backtracker;
mod binary_tree;
mod eller;
mod fractal;
mod growing_tree;
mod hunt_and_kill;
mod kruskal;
pub(crate) mod padded;
#[cfg(test)]
mod pair_tests;
mod prim;
mod recursive_division;
mod regenerate;
mod shared;
mod sidewinder;
mod space;
mod topology;
mod walk;
mod wilson;
mod wilson_biased;
mod wilson_biased_3d;

use space::Space;
use topology::Planar;
use wilson_biased::Bias;

use std::fmt;

pub use regenerate::{
    generate_pair_seeded, generate_seeded, regenerate, regenerate_from_base, regenerated,
    seed_base, seed_base_mask_hash, seed_base_masked,
};

use crate::dsu::Dsu;
use crate::grid::{Maze, Size};
use crate::rng::RandomSource;

/// Buffers a generator may use, owned by one worker and reused across mazes. Each generator
/// resizes what it needs with `clear` + `resize`, which keeps the capacity.
#[derive(Debug, Default)]
pub struct Scratch {
    /// A stack or list of packed entries, each user choosing its layout (backtracker: padded
    /// cell ids; growing tree, Prim's frontier: see their files).
    pub(crate) stack: Vec<u64>,
    /// A stack or list of cell ids (backtracker: the ancestors of the current cell; growing
    /// tree `mix:P`: the links of its live list; Wilson: the cell each walk step led to).
    pub(crate) cells: Vec<u32>,
    /// One byte of per-cell state (visited / in-tree flags).
    pub(crate) mark: Vec<u8>,
    /// One byte per cell: the direction a random walk last left it by (Wilson).
    pub(crate) next: Vec<u8>,
    /// One byte per cell: its open walls as `east | south << 1`, before they are packed into
    /// the maze (the generators that finish from parent links).
    pub(crate) codes: Vec<u8>,
    /// Wall ids ([`crate::grid::Wall`]; Kruskal's shuffled wall list, fractal repair).
    pub(crate) walls: Vec<u32>,
    /// Eller's rows: its union-find over one row and what each set did in it.
    pub(crate) eller: eller::Rows,
    /// Rectangles `[x, y, width, height]` still to divide (recursive division).
    pub(crate) rects: Vec<[u32; 4]>,
    /// Union-find over cells (Kruskal, Eller, fractal repair).
    pub(crate) dsu: Dsu,
    /// One byte per padded cell: the directions that stay on the grid (biased Wilson,
    /// [`padded::padded_sides`]).
    pub(crate) sides: Vec<u8>,
}

impl Scratch {
    /// Empty scratch; buffers grow on first use.
    pub fn new() -> Scratch {
        Scratch::default()
    }
}

/// Which active cell the growing-tree generator extends next.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Policy {
    /// The most recently added cell (gives backtracker-like mazes).
    Newest,
    /// The least recently added cell (long straight spokes from the start).
    Oldest,
    /// A uniformly random active cell (gives Prim-like mazes).
    Random,
    /// The newest cell with probability `p`, otherwise a random one.
    Mix(f64),
}

impl Policy {
    /// The default policy, `mix:0.5`.
    pub const DEFAULT: Policy = Policy::Mix(0.5);

    fn parse(s: &str) -> Result<Policy, String> {
        match s {
            "newest" => Ok(Policy::Newest),
            "oldest" => Ok(Policy::Oldest),
            "random" => Ok(Policy::Random),
            _ => match s.strip_prefix("mix:") {
                Some(p) => parse_probability(p).map(Policy::Mix),
                None => Err(format!(
                    "unknown growing-tree policy '{s}' (expected newest, oldest, random or mix:P \
                     with 0 <= P <= 1, e.g. growing-tree:mix:0.5)"
                )),
            },
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::Newest => write!(f, "newest"),
            Policy::Oldest => write!(f, "oldest"),
            Policy::Random => write!(f, "random"),
            Policy::Mix(p) => write!(f, "mix:{p}"),
        }
    }
}

/// A probability parameter: a finite number in `[0, 1]`, `-0` normalised to `0` so the name
/// it prints is unique.
fn parse_probability(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p + 0.0),
        _ => Err(format!(
            "'{s}' is not a probability (expected a number with 0 <= P <= 1, e.g. 0.7)"
        )),
    }
}

/// The largest `wilson-straight` parameter. A walk keeps its direction for `1 / (1 − P)` steps
/// on average, and at `P = 1` it only changes direction at the border, so it can circle the
/// border forever and never reach the tree; just below 1 it practically never does either
/// (`0.999999999999` ran for hours). Measured at 64x64, 50 mazes on one thread: P = 0 takes
/// 0.08 s, 0.999 takes 0.15 s, 0.9999 takes 1.09 s, and the cost keeps growing like
/// `1 / (1 − P)` from there. So the parser stops at 0.999.
pub const MAX_STRAIGHT: f64 = 0.999;

/// The `wilson-straight` parameter: a probability of at most [`MAX_STRAIGHT`].
fn parse_straight(s: &str) -> Result<f64, String> {
    match parse_probability(s) {
        Ok(p) if p <= MAX_STRAIGHT => Ok(p),
        Ok(_) => Err(format!(
            "'{s}' is too large: wilson-straight needs 0 <= P <= {MAX_STRAIGHT} (a walk keeps \
             its direction for 1/(1-P) steps on average; near P = 1 it only turns at the \
             border and practically never reaches the tree)"
        )),
        Err(e) => Err(e.replace("<= P <= 1", &format!("<= P <= {MAX_STRAIGHT}"))),
    }
}

/// A maze generation algorithm, with its parameters where it has any. `Display` writes its
/// canonical name ([`Algorithm::name`]), `FromStr` reads one ([`Algorithm::parse`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Algorithm {
    /// Iterative randomised depth-first search from (0,0): long winding corridors, few dead ends.
    Backtracker,
    /// Randomised Kruskal: every interior wall in an unbiased random order, union-find.
    Kruskal,
    /// Wilson's loop-erased random walks: uniform over all spanning trees.
    Wilson,
    /// Aldous–Broder random walk (first-entrance edges): uniform over all spanning trees.
    AldousBroder,
    /// Wilson with a walk that keeps its direction with the given probability (`0 <= P <=` [`MAX_STRAIGHT`]):
    /// not uniform. Construct it through [`Algorithm::parse`], which checks the range.
    WilsonStraight(f64),
    /// Wilson with a walk that turns left or right with the given probability (`0 <= P <= 1`):
    /// not uniform.
    WilsonTurn(f64),
    /// Simplified randomised Prim: a uniformly random wall of the frontier wall list.
    Prim,
    /// Growing tree with the given selection policy.
    GrowingTree(Policy),
    /// Hunt-and-kill: random walk to unvisited cells, then hunt row by row.
    HuntAndKill,
    /// Eller's row-by-row algorithm with set merging.
    Eller,
    /// Sidewinder: runs along each row, each closed by one passage north.
    Sidewinder,
    /// Binary tree: every cell opens north or east.
    BinaryTree,
    /// Recursive division (with an explicit stack): walls with one opening split rooms.
    RecursiveDivision,
    /// Tessellation by doubling: four copies joined by three passages, cropped to any size.
    Fractal,
}

/// `--algo` named no known generator, or gave a generator a bad parameter.
#[derive(Debug, PartialEq)]
pub struct UnknownAlgorithm {
    /// What was asked for.
    pub name: String,
    /// The valid names, comma separated (parameterised families shown with their syntax).
    pub valid: String,
    /// Set when the family is known but its parameter is not valid: what is wrong with it.
    pub problem: Option<String>,
    /// For an unknown family: the known one it is closest to (`wilsn` → `wilson`).
    pub suggestion: Option<&'static str>,
}

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            Some(p) => write!(f, "bad algorithm '{}': {}", self.name, p),
            None => {
                write!(f, "unknown algorithm '{}'", self.name)?;
                if let Some(s) = self.suggestion {
                    write!(f, "; did you mean '{s}'?")?;
                }
                write!(f, " (valid: {})", self.valid)
            }
        }
    }
}

impl std::error::Error for UnknownAlgorithm {}

/// Everything the library says about one generator family, in one place: its canonical name,
/// parameter syntax, default, whether it is uniform, which dimensions it supports and its
/// texture. [`FAMILIES`] lists them in canonical order; [`Algorithm::generate`] is the one
/// dispatch to the generator functions (one file per generator).
#[derive(Debug)]
pub struct Family {
    /// Canonical family name (the part of [`Algorithm::name`] before any `:`).
    pub name: &'static str,
    /// The name with its parameter syntax, for help and error messages (`wilson-turn[:P]`).
    pub syntax: &'static str,
    /// The variant with its default parameters (what the bare family name parses to).
    pub default: Algorithm,
    /// Does it sample every spanning tree with equal probability?
    pub uniform: bool,
    /// Is it defined on 3D grids too (generators defined on any graph), or only on 2D ones?
    pub supports_3d: bool,
    /// One line on the texture it gives.
    pub texture: &'static str,
    /// Parses the parameter after `name:` (`None`: the family takes no parameter).
    param: Option<ParamParser>,
}

/// Reads a family's parameter (the text after `name:`) into the algorithm, or says what is
/// wrong with it.
type ParamParser = fn(&str) -> Result<Algorithm, String>;

/// Every generator family, in canonical order (`--algo all`): the first three, the other uniform
/// one, biased Wilson, the tree-growing family, the row-by-row family, then the two that work on
/// the whole grid at once.
pub static FAMILIES: [Family; 14] = [
    Family {
        name: "backtracker",
        syntax: "backtracker",
        default: Algorithm::Backtracker,
        uniform: false,
        supports_3d: true,
        texture: "long winding corridors, ~10% dead ends, very long solutions (DFS bias)",
        param: None,
    },
    Family {
        name: "kruskal",
        syntax: "kruskal",
        default: Algorithm::Kruskal,
        uniform: false,
        supports_3d: true,
        texture: "many short dead ends (~30%), short solutions; biased",
        param: None,
    },
    Family {
        name: "wilson",
        syntax: "wilson",
        default: Algorithm::Wilson,
        uniform: true,
        supports_3d: true,
        texture: "uniform spanning tree: every maze equally likely (~29% dead ends)",
        param: None,
    },
    Family {
        name: "aldous-broder",
        syntax: "aldous-broder",
        default: Algorithm::AldousBroder,
        uniform: true,
        supports_3d: true,
        texture:
            "uniform spanning tree by a covering random walk (~29% dead ends); slower than wilson",
        param: None,
    },
    Family {
        name: "wilson-straight",
        syntax: "wilson-straight[:P]",
        default: Algorithm::WilsonStraight(0.5),
        uniform: false,
        supports_3d: true,
        texture: "biased Wilson: walks keep their direction with probability P; longer straights; not uniform",
        param: Some(|p| parse_straight(p).map(Algorithm::WilsonStraight)),
    },
    Family {
        name: "wilson-turn",
        syntax: "wilson-turn[:P]",
        default: Algorithm::WilsonTurn(0.5),
        uniform: false,
        supports_3d: true,
        texture: "biased Wilson: walks turn with probability P; twistier, fewer straights; not uniform",
        param: Some(|p| parse_probability(p).map(Algorithm::WilsonTurn)),
    },
    Family {
        name: "prim",
        syntax: "prim",
        default: Algorithm::Prim,
        uniform: false,
        supports_3d: true,
        texture:
            "simplified Prim: very many short dead ends (~32%), radial texture, short solutions",
        param: None,
    },
    Family {
        name: "growing-tree",
        syntax: "growing-tree[:newest|oldest|random|mix:P]",
        default: Algorithm::GrowingTree(Policy::DEFAULT),
        uniform: false,
        supports_3d: true,
        texture:
            "growing tree: newest ~ backtracker, random ~ Prim, oldest = long spokes; mix blends",
        param: Some(|p| Policy::parse(p).map(Algorithm::GrowingTree)),
    },
    Family {
        name: "hunt-and-kill",
        syntax: "hunt-and-kill",
        default: Algorithm::HuntAndKill,
        uniform: false,
        supports_3d: true,
        texture:
            "long winding corridors like backtracker (~10% dead ends), hunted branches in rows",
        param: None,
    },
    Family {
        name: "eller",
        syntax: "eller",
        default: Algorithm::Eller,
        uniform: false,
        supports_3d: false,
        texture: "row by row with set merging (~29% dead ends); horizontal runs, vertical links",
        param: None,
    },
    Family {
        name: "sidewinder",
        syntax: "sidewinder",
        default: Algorithm::Sidewinder,
        uniform: false,
        supports_3d: false,
        texture:
            "row runs closed by one passage north: open top corridor, upward bias (~27% dead ends)",
        param: None,
    },
    Family {
        name: "binary-tree",
        syntax: "binary-tree",
        default: Algorithm::BinaryTree,
        uniform: false,
        supports_3d: false,
        texture:
            "each cell opens north or east: open north and east borders, diagonal bias (~25%)",
        param: None,
    },
    Family {
        name: "recursive-division",
        syntax: "recursive-division",
        default: Algorithm::RecursiveDivision,
        uniform: false,
        supports_3d: false,
        texture:
            "long straight walls with one gap split the grid into rooms: boxy, many straights",
        param: None,
    },
    Family {
        name: "fractal",
        syntax: "fractal",
        default: Algorithm::Fractal,
        uniform: false,
        supports_3d: false,
        texture: "four copies of a smaller maze joined by three passages, repeated: self-similar blocks",
        param: None,
    },
];

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Algorithm, UnknownAlgorithm> {
        Algorithm::parse(s)
    }
}

impl Algorithm {
    /// Every generator with its default parameters, in canonical order (`--algo all`; see
    /// [`FAMILIES`]).
    pub fn all() -> Vec<Algorithm> {
        FAMILIES.iter().map(|f| f.default).collect()
    }

    /// This generator's family: its entry in [`FAMILIES`].
    pub fn family(&self) -> &'static Family {
        &FAMILIES[self.family_index()]
    }

    /// The index of this generator's family in [`FAMILIES`] (canonical order): the entry whose
    /// default is the same variant, so the table's order is the only numbering.
    fn family_index(&self) -> usize {
        let variant = std::mem::discriminant(self);
        FAMILIES
            .iter()
            .position(|f| std::mem::discriminant(&f.default) == variant)
            .expect("every Algorithm variant is the default of one family")
    }

    /// The canonical name, as written in the `algo` column; [`Algorithm::parse`] accepts it back.
    /// Parameterised variants always include their parameter (`wilson-straight:0.7`).
    pub fn name(&self) -> String {
        let family = self.family().name;
        match self {
            Algorithm::WilsonStraight(p) | Algorithm::WilsonTurn(p) => format!("{family}:{p}"),
            Algorithm::GrowingTree(policy) => format!("{family}:{policy}"),
            _ => family.to_string(),
        }
    }

    /// Parse a name, with or without its parameter (see the module docs for the syntax).
    pub fn parse(s: &str) -> Result<Algorithm, UnknownAlgorithm> {
        let s = s.trim();
        let (family, param) = match s.split_once(':') {
            Some((f, p)) => (f, Some(p)),
            None => (s, None),
        };
        let err = |problem: Option<String>| UnknownAlgorithm {
            name: s.to_string(),
            valid: FAMILIES
                .iter()
                .map(|f| f.syntax)
                .collect::<Vec<_>>()
                .join(", "),
            problem,
            suggestion: None,
        };
        let Some(f) = FAMILIES.iter().find(|f| f.name == family) else {
            let mut e = err(None);
            e.suggestion =
                crate::suggest::closest(family, FAMILIES.iter().map(|f| f.name).chain(["all"]));
            return Err(e);
        };
        match (param, f.param) {
            (None, _) => Ok(f.default),
            (Some(_), None) => Err(err(Some(format!("'{family}' takes no parameter")))),
            (Some(p), Some(parse)) => parse(p).map_err(|e| {
                // Probability parameters say their syntax; policies list theirs already.
                if f.syntax.ends_with("[:P]") {
                    err(Some(format!("{e}; syntax: {family}:P")))
                } else {
                    err(Some(e))
                }
            }),
        }
    }

    /// Parse a comma list of names or `all`; the result is in canonical order without
    /// duplicates, so `--algo kruskal,wilson` and `--algo wilson,kruskal` run the same job.
    pub fn parse_list(s: &str) -> Result<Vec<Algorithm>, UnknownAlgorithm> {
        let mut out: Vec<Algorithm> = Vec::new();
        for part in s.split(',') {
            if part.trim() == "all" {
                for a in Algorithm::all() {
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
                continue;
            }
            let a = Algorithm::parse(part)?;
            if !out.contains(&a) {
                out.push(a);
            }
        }
        out.sort_by_key(|a| a.canonical_rank());
        Ok(out)
    }

    /// Position in canonical order (parameterised variants sort after their family by name).
    fn canonical_rank(&self) -> (usize, String) {
        (self.family_index(), self.name())
    }

    /// One line on the texture this generator gives.
    pub fn description(&self) -> &'static str {
        self.family().texture
    }

    /// Does this generator sample every spanning tree with equal probability?
    pub fn is_uniform(&self) -> bool {
        self.family().uniform
    }

    /// Is this generator defined on 3D grids (depth > 1)? The 2D-only ones (row-by-row and
    /// whole-grid generators) are not.
    pub fn supports_3d(&self) -> bool {
        self.family().supports_3d
    }

    /// For the random-walk generators (Aldous–Broder, Wilson and its biased forms), the order
    /// of magnitude of the walk steps one maze of `size` takes; `None` for the others, whose
    /// work is linear in the cells. The estimate is the larger of a 2D grid's cover time,
    /// about `n ln² n` for `n` cells, and a long thin grid's, about `L²` for its longest side
    /// `L` (a walk along a path of `L` cells needs about `L²` steps to reach its far end): a
    /// 1-wide grid of 10^6 cells walks about 10^12 steps where a square one walks 10^8.
    pub fn expected_walk_steps(&self, size: crate::grid::Size) -> Option<f64> {
        match self {
            Algorithm::AldousBroder
            | Algorithm::Wilson
            | Algorithm::WilsonStraight(_)
            | Algorithm::WilsonTurn(_) => {
                let n = size.cells_u64() as f64;
                let long = size.width.max(size.height).max(size.depth) as f64;
                Some((n * n.ln().powi(2)).max(long * long))
            }
            _ => None,
        }
    }

    /// [`Algorithm::expected_walk_steps`] on a mask's own graph: the same two terms for its
    /// `n` cells and its [span](crate::grid::Mask::span) (the cells a walk crosses end to end)
    /// in place of the grid's longest side. A 1-wide corridor winding through a square walks
    /// about `n²` steps where the square's size suggests `n ln² n`.
    pub fn expected_walk_steps_on(&self, mask: &crate::grid::Mask) -> Option<f64> {
        self.expected_walk_steps(mask.size())?;
        let n = mask.cells() as f64;
        let span = mask.span() as f64;
        Some((n * n.ln().powi(2)).max(span * span))
    }

    /// Does this generator run on a [mask](crate::grid::Mask)? The generators defined on any
    /// connected cell set do: exactly those defined on 3D grids ([`Family::supports_3d`]); the
    /// row- and recursion-based ones do not. Nor does `wilson-turn:1`: a walk that always
    /// turns can circle a room of a mask forever (leaving it may need a straight step).
    pub fn supports_mask(&self) -> bool {
        self.family().supports_3d && !matches!(self, Algorithm::WilsonTurn(p) if *p >= 1.0)
    }

    /// The generators of `algos` (parsed from the `--algo` text `spec`) that run on a mask, and
    /// a note naming those that `all` brought in and that do not; a generator named on its own
    /// that does not run on a mask is `Err` with its [refusal](Algorithm::mask_refusal).
    pub fn on_mask(
        spec: &str,
        algos: Vec<Algorithm>,
    ) -> Result<(Vec<Algorithm>, Option<String>), String> {
        let has_all = spec.split(',').any(|p| p.trim() == "all");
        let (keep, skip): (Vec<Algorithm>, Vec<Algorithm>) =
            algos.into_iter().partition(|a| a.supports_mask());
        if let (false, Some(a)) = (has_all, skip.first()) {
            return Err(a.mask_refusal());
        }
        let note = (!skip.is_empty()).then(|| {
            let names: Vec<String> = skip.iter().map(|a| a.name()).collect();
            format!(
                "running the {} generators that accept a mask; skipping {}",
                keep.len(),
                names.join(", ")
            )
        });
        Ok((keep, note))
    }

    /// Why this generator refuses a mask, naming those that accept one.
    pub fn mask_refusal(&self) -> String {
        if let Algorithm::WilsonTurn(_) = self {
            return format!(
                "{} always turns, so on a mask a walk can circle a room forever and never reach \
                 the tree; use wilson-turn:P with P < 1",
                self.name()
            );
        }
        format!(
            "{} is a row- or recursion-based generator and cannot generate on a mask; \
             generators that accept --mask: {}",
            self.name(),
            Algorithm::all_3d()
                .iter()
                .map(|a| a.family().name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    /// Every 3D-capable generator with its default parameters, in canonical order (what
    /// `--algo all` means for a 3D size).
    pub fn all_3d() -> Vec<Algorithm> {
        FAMILIES
            .iter()
            .filter(|f| f.supports_3d)
            .map(|f| f.default)
            .collect()
    }

    /// Generate one maze into `maze` (its size is kept, its walls are reset first).
    ///
    /// # Panics
    ///
    /// If `maze` is 3D (depth > 1) and this generator is 2D only ([`Algorithm::supports_3d`]);
    /// the message names the generators that accept a 3D maze.
    ///
    /// A maze with a [mask](crate::grid::Mask) becomes a spanning tree of the mask's cells.
    ///
    /// # Panics
    ///
    /// Also if the maze has a mask and this generator does not accept one
    /// ([`Algorithm::supports_mask`]); the message names those that do.
    #[inline]
    pub fn generate<R: RandomSource>(&self, maze: &mut Maze, scratch: &mut Scratch, rng: &mut R) {
        maze.clear();
        if maze.depth() > 1 {
            return self.generate_3d(maze, scratch, rng);
        }
        if maze.mask().is_some() && !self.supports_mask() {
            panic!("{}", self.mask_refusal());
        }
        match *self {
            Algorithm::Backtracker => backtracker::generate::<Planar, R>(maze, scratch, rng),
            Algorithm::Kruskal => kruskal::generate(maze, scratch, rng),
            Algorithm::Wilson => wilson::generate::<Planar, R>(maze, scratch, rng),
            Algorithm::AldousBroder => aldous_broder::generate::<Planar, R>(maze, scratch, rng),
            Algorithm::WilsonStraight(p) => {
                wilson_biased::generate(maze, scratch, rng, Bias::Straight(p))
            }
            Algorithm::WilsonTurn(p) => wilson_biased::generate(maze, scratch, rng, Bias::Turn(p)),
            Algorithm::Prim => prim::generate::<Planar, R>(maze, scratch, rng),
            Algorithm::GrowingTree(policy) => {
                growing_tree::generate::<Planar, R>(maze, scratch, rng, policy)
            }
            Algorithm::HuntAndKill => hunt_and_kill::generate::<Planar, R>(maze, scratch, rng),
            Algorithm::Eller => eller::generate(maze, scratch, rng),
            Algorithm::Sidewinder => sidewinder::generate(maze, scratch, rng),
            Algorithm::BinaryTree => binary_tree::generate(maze, scratch, rng),
            Algorithm::RecursiveDivision => recursive_division::generate(maze, scratch, rng),
            Algorithm::Fractal => fractal::generate(maze, scratch, rng),
        }
    }

    /// Whether [`Algorithm::generate_pair`] makes two mazes of `size` together, faster than
    /// one after the other: the 2D Aldous–Broder walk, the 2D Prim loop, the 2D backtracker's
    /// search and the 2D hunt-and-kill (masked or not), whose time goes in waiting for
    /// dependent loads step after step.
    #[inline]
    pub fn pairs_faster(&self, size: Size) -> bool {
        matches!(
            self,
            Algorithm::AldousBroder
                | Algorithm::Prim
                | Algorithm::Backtracker
                | Algorithm::HuntAndKill
        ) && !size.is_3d()
    }

    /// Generate into `a` from `ra` and into `b` from `rb`: the two mazes
    /// [`Algorithm::generate`] makes of each, made together when
    /// [`Algorithm::pairs_faster`], else one after the other.
    ///
    /// # Panics
    ///
    /// As [`Algorithm::generate`], and when the two are made together but differ in size.
    #[inline]
    pub fn generate_pair<R: RandomSource>(
        &self,
        (a, sa, ra): (&mut Maze, &mut Scratch, &mut R),
        (b, sb, rb): (&mut Maze, &mut Scratch, &mut R),
    ) {
        if !self.pairs_faster(a.size()) {
            self.generate(a, sa, ra);
            return self.generate(b, sb, rb);
        }
        a.clear();
        b.clear();
        match *self {
            Algorithm::Prim => prim::generate_pair(a, sa, ra, b, sb, rb),
            Algorithm::Backtracker => backtracker::generate_pair(a, sa, ra, b, sb, rb),
            Algorithm::HuntAndKill => hunt_and_kill::generate_pair(a, sa, ra, b, sb, rb),
            _ => aldous_broder::generate_pair::<Planar, R>(a, sa, ra, b, sb, rb),
        }
    }

    /// The 3D paths (the maze is cleared and has depth > 1).
    fn generate_3d<R: RandomSource>(&self, maze: &mut Maze, scratch: &mut Scratch, rng: &mut R) {
        match *self {
            Algorithm::Backtracker => backtracker::generate::<Space, R>(maze, scratch, rng),
            Algorithm::Kruskal => kruskal::generate(maze, scratch, rng),
            Algorithm::Wilson => wilson::generate::<Space, R>(maze, scratch, rng),
            Algorithm::AldousBroder => aldous_broder::generate::<Space, R>(maze, scratch, rng),
            Algorithm::WilsonStraight(p) => {
                wilson_biased_3d::generate(maze, scratch, rng, Bias::Straight(p))
            }
            Algorithm::WilsonTurn(p) => {
                wilson_biased_3d::generate(maze, scratch, rng, Bias::Turn(p))
            }
            Algorithm::Prim => prim::generate::<Space, R>(maze, scratch, rng),
            Algorithm::GrowingTree(policy) => {
                growing_tree::generate::<Space, R>(maze, scratch, rng, policy)
            }
            Algorithm::HuntAndKill => hunt_and_kill::generate::<Space, R>(maze, scratch, rng),
            Algorithm::Eller
            | Algorithm::Sidewinder
            | Algorithm::BinaryTree
            | Algorithm::RecursiveDivision
            | Algorithm::Fractal => panic!(
                "{} is a 2D-only generator and cannot generate a {} maze; generators that \
                 accept a 3D size: {}",
                self.name(),
                maze.size(),
                Algorithm::all_3d()
                    .iter()
                    .map(|a| a.family().name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// A random walk stopped by a caught signal ([`shared::Poll`]) leaves no tree; its maze is
/// replaced by a quick perfect one (a binary tree, the 3D backtracker's in 3D) so that nothing
/// downstream ever sees a maze that is not a tree. The stopped run discards it unwritten.
#[cold]
#[inline(never)]
fn abandon<R: RandomSource>(maze: &mut Maze, s: &mut Scratch, rng: &mut R) {
    maze.clear();
    if maze.depth() > 1 {
        backtracker::generate::<Space, R>(maze, s, rng);
    } else if maze.mask().is_some() {
        backtracker::generate::<Planar, R>(maze, s, rng);
    } else {
        binary_tree::generate(maze, s, rng);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for a in Algorithm::all() {
            assert_eq!(Algorithm::parse(&a.name()), Ok(a));
        }
        let e = Algorithm::parse("nope").unwrap_err();
        assert!(e.to_string().contains("backtracker"));
    }

    #[test]
    fn the_family_table_describes_every_generator() {
        let two_d_only: Vec<String> = Algorithm::all()
            .into_iter()
            .filter(|a| !a.supports_3d())
            .map(|a| a.name())
            .collect();
        assert_eq!(
            two_d_only,
            [
                "eller",
                "sidewinder",
                "binary-tree",
                "recursive-division",
                "fractal"
            ]
        );
        let uniform: Vec<String> = Algorithm::all()
            .into_iter()
            .filter(|a| a.is_uniform())
            .map(|a| a.name())
            .collect();
        assert_eq!(uniform, ["wilson", "aldous-broder"]);
        // A variant's family does not depend on its parameter.
        assert_eq!(
            Algorithm::WilsonStraight(0.9).family().name,
            "wilson-straight"
        );
        assert_eq!(Algorithm::WilsonTurn(1.0).family().name, "wilson-turn");
        assert_eq!(
            Algorithm::GrowingTree(Policy::Oldest).family().name,
            "growing-tree"
        );
        for (i, f) in FAMILIES.iter().enumerate() {
            assert_eq!(f.default.family_index(), i);
            assert_eq!(Algorithm::parse(f.name), Ok(f.default));
            assert!(f.syntax.starts_with(f.name));
            assert_eq!(
                f.param.is_some(),
                f.default.name().contains(':'),
                "{}",
                f.name
            );
        }
        let e = Algorithm::parse("kruskal:3").unwrap_err();
        assert_eq!(e.problem.as_deref(), Some("'kruskal' takes no parameter"));
        let e = Algorithm::parse("wilson-turn:2").unwrap_err();
        assert!(e.problem.unwrap().ends_with("syntax: wilson-turn:P"));
    }

    #[test]
    fn list_order_is_canonical() {
        let a = Algorithm::parse_list("wilson,kruskal").unwrap();
        let b = Algorithm::parse_list("kruskal,wilson,kruskal").unwrap();
        assert_eq!(a, b);
        assert_eq!(Algorithm::parse_list("all").unwrap(), Algorithm::all());
    }

    #[test]
    fn parameterised_lists_sort_by_family_then_name() {
        let l = Algorithm::parse_list("growing-tree:newest,wilson-straight:0.7,kruskal").unwrap();
        assert_eq!(
            l,
            vec![
                Algorithm::Kruskal,
                Algorithm::WilsonStraight(0.7),
                Algorithm::GrowingTree(Policy::Newest)
            ]
        );
    }
}
