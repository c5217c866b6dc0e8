//! Maze generators: the [`Algorithm`] enum (canonical names, parsing, descriptions) and the
//! dispatch from an algorithm to its generator, one file per generator.
//!
//! Every generator has the signature
//! `fn generate<R: RandomSource>(&mut Maze, &mut Scratch, &mut R)`: the maze
//! arrives sized and with every wall closed, the scratch buffers are the worker's and are reused
//! for every maze, and all randomness comes from the per-maze random source (a [`crate::Rng`] in the batch, an
//! enumerating source in the uniformity lab). Generators never recurse
//! and never allocate once the scratch has grown to the grid size.

mod backtracker;
mod kruskal;
mod wilson;

use crate::dsu::Dsu;
use crate::grid::Maze;
use crate::rng::RandomSource;

/// Buffers a generator may use, owned by one worker and reused across mazes. Each generator
/// resizes what it needs with `clear` + `resize`, which keeps the capacity.
#[derive(Debug, Default)]
pub struct Scratch {
    /// A stack of packed `(cell << 32 | x)` entries (backtracker).
    pub(crate) stack: Vec<u64>,
    /// One byte of per-cell state (visited / in-tree flags).
    pub(crate) mark: Vec<u8>,
    /// One byte per cell: the direction a random walk last left it by (Wilson).
    pub(crate) next: Vec<u8>,
    /// Wall ids `2 * cell + (0 east | 1 south)` (Kruskal's shuffled wall list).
    pub(crate) walls: Vec<u32>,
    /// Union-find over cells (Kruskal).
    pub(crate) dsu: Dsu,
}

impl Scratch {
    /// Empty scratch; buffers grow on first use.
    pub fn new() -> Scratch {
        Scratch::default()
    }
}

/// A maze generation algorithm, with its parameters where it has any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    /// Iterative randomised depth-first search from (0,0): long winding corridors, few dead ends.
    Backtracker,
    /// Randomised Kruskal: every interior wall in an unbiased random order, union-find.
    Kruskal,
    /// Wilson's loop-erased random walks: uniform over all spanning trees.
    Wilson,
}

/// `--algo` named no known generator.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("unknown algorithm '{name}' (valid: {valid})")]
pub struct UnknownAlgorithm {
    /// What was asked for.
    pub name: String,
    /// The valid names, comma separated.
    pub valid: String,
}

impl Algorithm {
    /// Every generator with its default parameters, in canonical order (`--algo all`).
    pub fn all() -> Vec<Algorithm> {
        vec![
            Algorithm::Backtracker,
            Algorithm::Kruskal,
            Algorithm::Wilson,
        ]
    }

    /// The canonical name, as written in the `algo` column; [`Algorithm::parse`] accepts it back.
    pub fn name(&self) -> String {
        match self {
            Algorithm::Backtracker => "backtracker",
            Algorithm::Kruskal => "kruskal",
            Algorithm::Wilson => "wilson",
        }
        .to_string()
    }

    /// Parse a canonical name.
    pub fn parse(s: &str) -> Result<Algorithm, UnknownAlgorithm> {
        let s = s.trim();
        Algorithm::all()
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownAlgorithm {
                name: s.to_string(),
                valid: Algorithm::all()
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
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
        let family = std::mem::discriminant(self);
        let pos = Algorithm::all()
            .iter()
            .position(|a| std::mem::discriminant(a) == family)
            .unwrap_or(usize::MAX);
        (pos, self.name())
    }

    /// One line on the texture this generator gives.
    pub fn description(&self) -> &'static str {
        match self {
            Algorithm::Backtracker => {
                "long winding corridors, ~10% dead ends, very long solutions (DFS bias)"
            }
            Algorithm::Kruskal => "many short dead ends (~30%), short solutions; biased",
            Algorithm::Wilson => {
                "uniform spanning tree: every maze equally likely (~29% dead ends)"
            }
        }
    }

    /// Does this generator sample every spanning tree with equal probability?
    pub fn is_uniform(&self) -> bool {
        matches!(self, Algorithm::Wilson)
    }

    /// Generate one maze into `maze` (its size is kept, its walls are reset first).
    #[inline]
    pub fn generate<R: RandomSource>(&self, maze: &mut Maze, scratch: &mut Scratch, rng: &mut R) {
        maze.clear();
        match self {
            Algorithm::Backtracker => backtracker::generate(maze, scratch, rng),
            Algorithm::Kruskal => kruskal::generate(maze, scratch, rng),
            Algorithm::Wilson => wilson::generate(maze, scratch, rng),
        }
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
    fn list_order_is_canonical() {
        let a = Algorithm::parse_list("wilson,kruskal").unwrap();
        let b = Algorithm::parse_list("kruskal,wilson,kruskal").unwrap();
        assert_eq!(a, b);
        assert_eq!(Algorithm::parse_list("all").unwrap(), Algorithm::all());
    }
}
