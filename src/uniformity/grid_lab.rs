//! The uniformity lab on the hex, triangle and polar grids ([`crate::topo`]): τ, the number of
//! spanning trees of the grid's cell graph, exactly (Kirchhoff, [`super::kirchhoff::
//! spanning_trees_graph`]), and per generator that runs there `N` mazes seeded exactly as the
//! grid's main job seeds them ([`crate::topo::maze_seed`]), counted per tree, with Pearson's
//! chi-square against uniform over all τ trees when τ is small enough to expect every tree
//! ([`CHI_MAX_TAU`], at least [`MIN_EXPECTED`] draws per tree). A generator is called uniform
//! when the p-value is at least [`ALPHA`] (fixed seed: the verdict is reproducible).

use std::collections::HashMap;

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::kirchhoff::spanning_trees_graph;
use super::stats::{chi_square_p_value, chi_square_uniform};
use crate::topo::generate::{self as tgen, GraphScratch};
use crate::topo::{CellGraph, GraphMaze, GridSize};
use crate::{Algorithm, Rng};

/// Largest τ for which the chi-square test is run.
pub const CHI_MAX_TAU: u64 = 100_000;
/// Fewest expected draws per tree for the chi-square test.
pub const MIN_EXPECTED: u64 = 5;
/// Significance of the uniformity verdict.
pub const ALPHA: f64 = 0.001;

/// One generator's sample.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GridRow {
    /// The generator.
    pub algo: String,
    /// Mazes drawn.
    pub samples: u64,
    /// Distinct trees among them.
    pub distinct: u64,
    /// Pearson's statistic over all τ trees, when run.
    pub chi_square: Option<f64>,
    /// Its p-value (`τ − 1` degrees of freedom).
    pub p_value: Option<f64>,
    /// `p_value >= ALPHA`, when run.
    pub uniform: Option<bool>,
}

/// The study of one grid.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GridStudy {
    /// The grid (`hex`, `triangle`, `polar`).
    pub grid: String,
    /// Its size as `--size` takes it.
    pub size: String,
    /// Cells.
    pub cells: u32,
    /// Edges.
    pub edges: u32,
    /// τ as a decimal string (exact).
    pub spanning_trees: String,
    /// The master seed of the samples.
    pub seed: u64,
    /// Per generator.
    pub rows: Vec<GridRow>,
}

/// Run the study of `algos` (those that run on the grid) on `g` with `samples` mazes each.
pub fn run(g: &CellGraph, algos: &[Algorithm], samples: u64, seed: u64) -> GridStudy {
    let size: GridSize = g.size();
    let tau: BigInt = spanning_trees_graph(g);
    let small = tau.to_u64().filter(|&t| t <= CHI_MAX_TAU);
    let mut rows = Vec::new();
    let mut maze = GraphMaze::new(g);
    let mut scratch = GraphScratch::new();
    for algo in algos {
        let name = algo.name();
        let mut counts: HashMap<Box<[u64]>, u64> = HashMap::new();
        for index in 0..samples {
            let mut rng = Rng::from_maze_seed(crate::topo::maze_seed(seed, &name, size, index));
            tgen::generate(algo, g, &mut maze, &mut scratch, &mut rng);
            *counts.entry(maze.words().into()).or_insert(0) += 1;
        }
        let observed: Vec<u64> = counts.values().copied().collect();
        let (chi_square, p_value) = match small {
            Some(t) if samples >= MIN_EXPECTED * t => {
                let x = chi_square_uniform(&observed, t);
                (Some(x), Some(chi_square_p_value(x, (t - 1) as f64)))
            }
            _ => (None, None),
        };
        rows.push(GridRow {
            algo: name,
            samples,
            distinct: observed.len() as u64,
            chi_square,
            p_value,
            uniform: p_value.map(|p| p >= ALPHA),
        });
    }
    GridStudy {
        grid: size.grid.name().into(),
        size: size.to_string(),
        cells: g.cells(),
        edges: g.edges(),
        spanning_trees: tau.to_string(),
        seed,
        rows,
    }
}

impl GridStudy {
    /// The study as a table.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{} grid {}: {} cells, {} edges, {} spanning trees (Kirchhoff, exact)\n",
            self.grid, self.size, self.cells, self.edges, self.spanning_trees
        );
        s.push_str(&format!(
            "samples per generator seeded as `batchgen --grid {} --seed {}`; chi-square over \
             every tree when tau <= {CHI_MAX_TAU} and at least {MIN_EXPECTED} draws per tree; \
             uniform when p >= {ALPHA}\n",
            self.grid, self.seed
        ));
        s.push_str(&format!(
            "{:<24} {:>10} {:>10} {:>14} {:>12}  verdict\n",
            "algo", "samples", "distinct", "chi-square", "p"
        ));
        for r in &self.rows {
            let (x, p, v) = match (r.chi_square, r.p_value, r.uniform) {
                (Some(x), Some(p), Some(u)) => (
                    format!("{x:.2}"),
                    format!("{p:.3e}"),
                    if u { "uniform" } else { "NOT uniform" },
                ),
                _ => (
                    "-".into(),
                    "-".into(),
                    "not tested (tau too large or too few samples)",
                ),
            };
            s.push_str(&format!(
                "{:<24} {:>10} {:>10} {:>14} {:>12}  {v}\n",
                r.algo, r.samples, r.distinct, x, p
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::Grid;

    #[test]
    fn tau_and_the_uniform_samplers_pass_and_a_biased_one_fails() {
        // τ of a 3x2 triangle grid: its six cells form one cycle of six edges, so 6 trees
        // (counted by hand, not by Kirchhoff).
        let g = CellGraph::new(GridSize::new(Grid::Triangle, 3, 2));
        let algos = [
            Algorithm::Wilson,
            Algorithm::AldousBroder,
            Algorithm::Backtracker,
        ];
        let s = run(&g, &algos, 600, 7);
        assert_eq!(s.spanning_trees, "6");
        for r in &s.rows {
            assert_eq!(r.distinct, 6, "{}", r.algo);
        }
        assert_eq!(s.rows[0].uniform, Some(true));
        assert_eq!(s.rows[1].uniform, Some(true));
        // A 2-ring polar grid is the wheel of six spokes: L(12) − 2 = 320 trees. Binary tree
        // is not uniform there.
        let g = CellGraph::new(GridSize::new(Grid::Polar, 2, 6));
        let s = run(&g, &[Algorithm::Wilson, Algorithm::BinaryTree], 3200, 7);
        assert_eq!(s.spanning_trees, "320");
        assert_eq!(s.rows[0].uniform, Some(true), "{}", s.table());
        assert_eq!(s.rows[1].uniform, Some(false), "{}", s.table());
        assert!(s.table().contains("320 spanning trees"));
    }
}
