//! The uniformity lab on the hex, triangle and polar grids ([`crate::topo`]), whole or masked,
//! with the same parts and rules as on the square grid ([`super::report`]):
//!
//! * τ, the number of spanning trees of the grid's cell graph, exactly (Kirchhoff,
//!   [`super::kirchhoff::spanning_trees_graph`]);
//! * each generator's exact distribution over the trees, by walking every branch of its random
//!   choices through the grid's generator code ([`super::enumerate::exact_distribution_graph`]),
//!   planned and refused exactly as on squares (Knuth's estimate against the 10-minute
//!   budget unless forced, memory checked up front);
//! * `N` mazes per generator seeded exactly as the grid's main job seeds them
//!   ([`super::sample::sample_graph`]), counted per tree, with Pearson's chi-square against
//!   uniform when every tree is expected at least 5 times; a request whose sampling is
//!   estimated over the square lab's budget ([`super::report::SAMPLING_BUDGET_SECONDS`]) is
//!   refused up front unless forced;
//! * each edge's exact probability of being open in a uniform spanning tree (its effective
//!   resistance, [`super::wall_bias::uniform_open_exact_graph`], up to 144 cells, as on
//!   squares; in floating point beyond,
//!   [`super::wall_bias::uniform_open_graph_f64`]) and the per-edge test of each sample against
//!   them ([`super::wall_bias::wall_test`]), which needs no sample per tree;
//! * a verdict per generator from the exact distribution, else the chi-square at
//!   [`super::report::ALPHA`], else the per-edge test (fixed seed: reproducible).
//!
//! The square grid's Kruskal over all wall orders is not computed here. [`GridStudy::table`]
//! prints the study; its JSON is in [`super::report_json`].

use std::time::Instant;

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::enumerate;
use super::kirchhoff::spanning_trees_graph;
use super::render::{
    exact_cells, exact_head, exact_intro, exact_table, noise_note, sample_cells, sample_head,
    sampling_intro, skip, wall_test_table,
};
use super::report::{
    exact_part_with, fits_in_memory, probes_for, refuse_long_sampling, sampled, AlgoReport, Part,
    Refused, UniformWalls, MIN_EXPECTED_PER_TREE,
};
use super::sample;
use super::verdict::{self, exact_or_chi, legend, verdict_lines, wall_verdict, wrap, Verdict};
use super::wall_bias;
use crate::thousands::thousands;
use crate::topo::{CellGraph, GridSize};
use crate::Algorithm;

/// What to study on a grid's cell graph.
#[derive(Clone, Debug)]
pub struct GridOptions {
    /// Generators that run on the grid ([`crate::topo::generate::check`]), in canonical order.
    pub algos: Vec<Algorithm>,
    /// Mazes sampled per generator (0: no sampling).
    pub samples: u64,
    /// Master seed of the samples (the grid main job's `--seed`).
    pub seed: u64,
    /// Walk choice trees, and sample, even when estimated over the time budgets.
    pub force: bool,
    /// The `--mask` file the graph is cut to, as given, when there is one.
    pub mask: Option<String>,
}

/// The study of one grid.
#[derive(Clone, Debug)]
pub struct GridStudy {
    /// What it ran with.
    pub options: GridOptions,
    /// The grid and its size.
    pub size: GridSize,
    /// Cells of the graph (a mask's cells when masked).
    pub cells: u32,
    /// The two cells of each edge, in edge order (bit `e` of a tree code is edge `e`).
    pub edges: Vec<[u32; 2]>,
    /// τ exactly.
    pub tau: BigInt,
    /// One entry per generator.
    pub algos: Vec<AlgoReport>,
    /// Each edge's probability of being open in a uniform spanning tree, in edge order.
    pub(crate) uniform_edges: UniformWalls,
    /// Each cell id's place ([`CellGraph::place`]).
    pub(crate) places: Vec<(u32, u32)>,
    /// Remarks on what was skipped and why.
    pub notes: Vec<String>,
    /// Total wall-clock seconds.
    pub seconds: f64,
}

/// Run the study of `opts.algos` on `g`, printing one-line progress messages through
/// `progress`. Refuses up front when the exact distributions would not fit in memory.
pub fn run(
    g: &CellGraph,
    opts: &GridOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<GridStudy, Refused> {
    let t0 = Instant::now();
    let size = g.size();
    let tau = spanning_trees_graph(g);
    let tau_u64 = tau.to_u64();
    let mut notes = Vec::new();
    let track_trees =
        matches!(tau_u64, Some(t) if t.saturating_mul(MIN_EXPECTED_PER_TREE) <= opts.samples);
    if opts.samples > 0 && !track_trees {
        notes.push(format!(
            "τ = {} trees but only {} samples: a chi-square over trees needs about {} samples \
             per tree, so it is meaningless here; per-edge bias is tested instead",
            thousands(&tau),
            thousands(opts.samples),
            MIN_EXPECTED_PER_TREE
        ));
    }
    let uniform_edges = uniform_edges_of(g);
    let name = format!("the {} grid {size}", size.grid);
    if opts.samples > 0 {
        // Planned before any long work, as on squares: the sampling's size is the user's.
        let est: f64 = (opts.algos.iter())
            .map(|a| {
                sample::seconds_per_maze_graph(a, g, track_trees) * opts.samples as f64
                    / super::report::threads() as f64
            })
            .sum();
        refuse_long_sampling(est, opts.samples, &name, opts.algos.len(), opts.force)?;
    }
    let probes = probes_for(u64::from(g.cells()));
    let planned: Vec<_> = (opts.algos.iter())
        .map(|a| Some(enumerate::estimate_graph(a, g, probes)))
        .collect();
    fits_in_memory(&opts.algos, &planned, opts.force, tau_u64, &name)?;
    let mut algos = Vec::new();
    for (algo, planned) in opts.algos.iter().zip(&planned) {
        let planned = planned.as_ref().expect("every generator is planned");
        let walk = || enumerate::exact_distribution_graph(algo, g);
        let exact = exact_part_with(algo, planned, opts.force, tau_u64, progress, walk);
        let sample = (opts.samples > 0).then(|| {
            sampled(algo, opts.samples, tau_u64, progress, || {
                sample::sample_graph(algo, g, opts.samples, opts.seed, track_trees)
            })
        });
        algos.push(AlgoReport {
            algo: *algo,
            exact,
            exact_note: None,
            sample,
        });
    }
    Ok(GridStudy {
        options: opts.clone(),
        size,
        cells: g.cells(),
        edges: (0..g.edges()).map(|e| g.ends(e)).collect(),
        tau,
        algos,
        uniform_edges,
        places: (0..size.cells_u64() as u32).map(|c| g.place(c)).collect(),
        notes,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// Each edge's uniform probability of being open: exact up to
/// [`wall_bias::EXACT_WALL_MAX_CELLS`] cells, in floating point up to
/// [`wall_bias::FLOAT_WALL_MAX_WORK`], as on the square grid.
fn uniform_edges_of(g: &CellGraph) -> UniformWalls {
    let cells = u64::from(g.cells());
    if cells <= wall_bias::EXACT_WALL_MAX_CELLS {
        return UniformWalls::Exact(wall_bias::uniform_open_exact_graph(g));
    }
    let work = wall_bias::float_work_graph(g);
    if work <= wall_bias::FLOAT_WALL_MAX_WORK {
        UniformWalls::Float(wall_bias::uniform_open_graph_f64(g))
    } else {
        UniformWalls::Unavailable(format!(
            "per-edge uniform probabilities are computed only up to about {:.1e} floating-point \
             steps ({cells} cells need {work:.1e})",
            wall_bias::FLOAT_WALL_MAX_WORK,
        ))
    }
}

impl GridStudy {
    /// The verdict on one generator, by the square grid's rules: from its exact distribution
    /// when known, else from the chi-square over trees, else from the per-edge test.
    pub fn verdict(&self, a: &AlgoReport) -> Verdict {
        let sample = a.sample.as_ref();
        if let Some(v) = exact_or_chi(&a.exact, Some(&self.tau), sample, self.options.samples) {
            return v;
        }
        let sm = sample.expect("sampled: exact_or_chi decides otherwise");
        let u = self.uniform_edges.as_f64();
        wall_verdict(sm, self.options.samples, u.as_deref(), "edge", |e| {
            self.edge_label(e)
        })
    }

    /// Edge `e` by its cells' places: `(x,y)–(x,y)` on hex and triangle grids, `(ring,i)–(ring,i)`
    /// on polar ones (the forms `--entrance` takes).
    pub fn edge_label(&self, e: usize) -> String {
        let [a, b] = self.edges[e].map(|c| self.places[c as usize]);
        format!("({},{})–({},{})", a.0, a.1, b.0, b.1)
    }

    /// The human-readable study, without colour.
    pub fn table(&self) -> String {
        self.table_with(false)
    }

    /// The human-readable study (the square report's sections and tables); with `color`,
    /// verdicts are green (passes) or red (biased).
    pub fn table_with(&self, color: bool) -> String {
        let grid = self.size.grid;
        let title = match &self.options.mask {
            Some(m) => format!(
                "Uniformity of maze generators on the mask {m} ({grid} grid {}, {} cells, {} \
                 edges between them)",
                self.size,
                self.cells,
                self.edges.len()
            ),
            None => format!(
                "Uniformity of maze generators on a {grid} grid {} ({} cells, {} edges)",
                self.size,
                self.cells,
                self.edges.len()
            ),
        };
        let mut s = wrap(&title, "", "");
        s += &format!(
            "Spanning trees: τ = {} (matrix-tree theorem, exact)\n\n",
            thousands(&self.tau)
        );
        let verdicts: Vec<(String, Verdict)> = (self.algos.iter())
            .map(|a| (a.algo.name(), self.verdict(a)))
            .collect();
        s += &verdict_lines(&verdicts, color);
        s.push('\n');
        s += &legend(false);
        s += &self.exact_section(color);
        if self.options.samples > 0 {
            s += &self.sampling_section(color);
            match self.uniform_edges.as_f64() {
                Some(u) => {
                    s += &wall_test_table(
                        &self.algos,
                        self.options.samples,
                        &u,
                        "edge",
                        color,
                        |e| self.edge_label(e),
                    )
                }
                None => {
                    if let UniformWalls::Unavailable(why) = &self.uniform_edges {
                        s.push('\n');
                        s += &wrap(&format!("Per-edge bias: {why}"), "", "  ");
                    }
                }
            }
        }
        for n in &self.notes {
            s.push('\n');
            s += &wrap(&format!("Note: {n}"), "", "  ");
        }
        s += &format!(
            "\nTotal time {:.1} s on {} threads.\n",
            self.seconds,
            super::report::threads()
        );
        s
    }

    fn exact_section(&self, color: bool) -> String {
        let mut s = String::from("\n");
        s += &exact_intro();
        let mut rows = vec![exact_head()];
        let mut remarks = Vec::new();
        let mut skipped: Vec<(String, Vec<String>)> = Vec::new();
        for a in &self.algos {
            let name = a.algo.name();
            match &a.exact {
                Part::Done(d, _) => {
                    let (row, extra) = exact_cells(name.clone(), d, &self.tau, color);
                    if !extra.is_empty() {
                        remarks.push(format!("{name}: {}", extra.join(" ")));
                    }
                    rows.push(row);
                }
                Part::Skipped(why) => skip(&mut skipped, why, name),
            }
        }
        s += &exact_table(&rows, &remarks, &skipped);
        s
    }

    fn sampling_section(&self, color: bool) -> String {
        let mut s = String::from("\n");
        s += &sampling_intro(self.options.samples, self.options.seed);
        let mut rows = vec![sample_head()];
        let mut warnings = Vec::new();
        for a in &self.algos {
            if let Some(sm) = &a.sample {
                rows.push(sample_cells(a.algo.name(), sm, color, &mut warnings));
            }
        }
        s += &verdict::blocks(&rows, &[0, 8], 1);
        for w in &warnings {
            s += &wrap(w, "  ", "    ");
        }
        let tested =
            (self.algos.iter()).any(|a| a.sample.as_ref().is_some_and(|x| x.chi.is_some()));
        s += &noise_note(Some(&self.tau), self.options.samples, tested);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topo::Grid;
    use crate::uniformity::verdict::Outcome;
    use num_rational::BigRational;
    use num_traits::One;

    fn study(g: &CellGraph, algos: &[Algorithm], samples: u64) -> GridStudy {
        let opts = GridOptions {
            algos: algos.to_vec(),
            samples,
            seed: 7,
            force: false,
            mask: None,
        };
        run(g, &opts, &mut |_| {}).unwrap()
    }

    #[test]
    fn exact_where_enumerable_and_chi_square_otherwise() {
        // τ of a 3x2 triangle grid: its six cells form one cycle of six edges, so 6 trees
        // (counted by hand, not by Kirchhoff).
        let g = CellGraph::new(GridSize::new(Grid::Triangle, 3, 2));
        let algos = [
            Algorithm::Wilson,
            Algorithm::AldousBroder,
            Algorithm::Backtracker,
            Algorithm::Kruskal,
        ];
        let s = study(&g, &algos, 600);
        assert_eq!(s.tau, 6.into());
        // Random walks have no finite choice tree: decided by chi-square, and they pass.
        for a in &s.algos[..2] {
            assert!(matches!(a.exact, Part::Skipped(ref w) if w.contains("not enumerable")));
            let chi = a.sample.as_ref().unwrap().chi.unwrap();
            assert_eq!(chi.unseen, 0);
            assert_eq!(s.verdict(a).outcome, Outcome::Uniform, "{}", s.table());
        }
        // Kruskal on a cycle removes one of the six edges, each with probability 1/6: exact
        // uniform. The backtracker is exact too, and its distribution sums to 1.
        for a in &s.algos[2..] {
            let Part::Done(d, _) = &a.exact else {
                panic!("{}", s.table())
            };
            assert_eq!(d.total(), BigRational::one());
        }
        assert_eq!(s.verdict(&s.algos[3]).outcome, Outcome::Uniform);
        let t = s.table();
        assert!(t.contains("τ = 6"), "{t}");
        assert!(t.contains("uniform (exact)"), "{t}");
        // A 2-ring polar grid is the wheel of six spokes: L(12) − 2 = 320 trees. Binary tree
        // makes 2^5 of them, each with probability 1/32: biased, exactly.
        let g = CellGraph::new(GridSize::new(Grid::Polar, 2, 6));
        let s = study(&g, &[Algorithm::Wilson, Algorithm::BinaryTree], 3200);
        assert_eq!(s.tau, 320.into());
        assert_eq!(s.verdict(&s.algos[0]).outcome, Outcome::Uniform);
        let Part::Done(d, _) = &s.algos[1].exact else {
            panic!("{}", s.table())
        };
        assert_eq!(d.trees.len(), 32);
        assert_eq!(s.verdict(&s.algos[1]).outcome, Outcome::Biased);
        assert!(s.table().contains("τ = 320"));
    }
}
