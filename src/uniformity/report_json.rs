//! The machine-readable report (`batchgen uniformity --format json`): one type per object of
//! the document, deriving `Serialize`, filled from a [`Report`] by [`Report::to_json`]. Exact
//! numbers (τ, rationals, order counts beyond 64 bits) are strings so no precision is lost;
//! plain counts are integers; floats are floats.

use super::enumerate::ExactDistribution;
use super::grid_lab::GridStudy;
use super::kruskal_orders::Method;
use super::report::{ratio_str, AlgoReport, Part, Report, Sampled, UniformWalls, ALPHA};
use super::{tree_code, wall_bias, TreeKey};
use num_bigint::BigInt;
use num_traits::ToPrimitive;
use serde::Serialize;

/// The whole document.
#[derive(Debug, Serialize)]
pub struct Document<'a> {
    grid: Grid,
    mask: Option<MaskDoc<'a>>,
    spanning_trees: SpanningTrees,
    tree_code: &'static str,
    walls: Vec<WallDoc>,
    kruskal_orders: Option<Status<'a, Orders>>,
    generators: Vec<Generator<'a>>,
    notes: &'a [String],
    seconds: f64,
}

#[derive(Debug, Serialize)]
struct Grid {
    width: u32,
    height: u32,
    depth: u32,
    cells: u32,
    interior_walls: usize,
}

#[derive(Debug, Serialize)]
struct MaskDoc<'a> {
    name: &'a str,
    cells: u32,
    mask_hash: u64,
    text: String,
}

#[derive(Debug, Serialize)]
struct SpanningTrees {
    exact: Option<String>,
    log10: f64,
}

#[derive(Debug, Serialize)]
struct WallDoc {
    wall: String,
    a: u32,
    b: u32,
    bit: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    uniform_open: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uniform_open_f64: Option<f64>,
}

/// A part that ran (`"status": "done"` and its fields) or was skipped (with the reason).
#[derive(Debug, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Status<'a, T> {
    Skipped { reason: &'a str },
    Done(T),
}

impl<'a, U> Status<'a, U> {
    fn of<T>(part: &'a Part<T>, done: impl FnOnce(&'a T, f64) -> U) -> Self {
        match part {
            Part::Done(x, secs) => Status::Done(done(x, *secs)),
            Part::Skipped(why) => Status::Skipped { reason: why },
        }
    }
}

#[derive(Debug, Serialize)]
struct Orders {
    method: &'static str,
    cross_check_linear_extensions: Option<bool>,
    walls: usize,
    orders: String,
    seconds: f64,
    trees: usize,
    histogram: Vec<OrdersHistogram>,
    wall_open_orders: Vec<u64>,
    tree_orders: Vec<TreeOrders>,
}

#[derive(Debug, Serialize)]
struct OrdersHistogram {
    orders: u64,
    trees: u64,
}

#[derive(Debug, Serialize)]
struct TreeOrders {
    tree: String,
    orders: u64,
}

#[derive(Debug, Serialize)]
struct Generator<'a> {
    algo: String,
    claims_uniform: bool,
    exact: Status<'a, Exact>,
    sample: Option<Sample>,
}

#[derive(Debug, Serialize)]
struct Exact {
    seconds: f64,
    runs: u64,
    max_draws: usize,
    trees_produced: usize,
    sum: String,
    #[serde(flatten)]
    against_tau: Option<AgainstTau>,
    distribution: Vec<TreeP>,
}

/// The exact distribution against uniform (when τ is known exactly).
#[derive(Debug, Serialize)]
struct AgainstTau {
    never_produced: String,
    tv_from_uniform: String,
    tv_from_uniform_f64: f64,
}

#[derive(Debug, Serialize)]
struct TreeP {
    tree: String,
    p: String,
}

#[derive(Debug, Serialize)]
struct Sample {
    samples: u64,
    seed: u64,
    seconds: f64,
    imperfect: u64,
    #[serde(flatten)]
    chi_square: Option<ChiSquareDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wall_test: Option<WallTestDoc>,
    wall_open: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tree_counts: Option<Vec<TreeCount>>,
}

#[derive(Debug, Serialize)]
struct ChiSquareDoc {
    trees_seen: usize,
    never_seen: u64,
    chi_square: f64,
    df: f64,
    p_value: f64,
    uniform_at_alpha_0_001: bool,
    tv: f64,
}

#[derive(Debug, Serialize)]
struct WallTestDoc {
    worst_wall: String,
    observed: f64,
    uniform: f64,
    z: f64,
    p_bonferroni: f64,
}

#[derive(Debug, Serialize)]
struct TreeCount {
    tree: String,
    count: u64,
}

impl Report {
    /// The machine-readable report (print it with [`crate::json::pretty`]).
    pub fn to_json(&self) -> Document<'_> {
        let size = self.options.size;
        let uniform_f64 = self.uniform_walls.as_f64();
        Document {
            grid: Grid {
                width: size.width,
                height: size.height,
                depth: size.depth,
                cells: size.cells(),
                interior_walls: self.walls.len(),
            },
            mask: self.options.mask.as_ref().map(|m| MaskDoc {
                name: &m.name,
                cells: m.mask.cells(),
                mask_hash: m.mask.hash(),
                text: m.mask.to_text(),
            }),
            spanning_trees: SpanningTrees {
                exact: self.tau_big().map(|t| t.to_string()),
                log10: self.log10_tau,
            },
            tree_code:
                "hex of the maze's wall words (bit 2*cell = east wall open, 2*cell+1 = south)",
            walls: self.walls_json(uniform_f64.as_deref()),
            kruskal_orders: self.orders.as_ref().map(|p| self.orders_json(p)),
            generators: self
                .algos
                .iter()
                .map(|a| self.generator_json(a, uniform_f64.as_deref()))
                .collect(),
            notes: &self.notes,
            seconds: self.seconds,
        }
    }

    fn walls_json(&self, uniform_f64: Option<&[f64]>) -> Vec<WallDoc> {
        let size = self.options.size;
        let exact = match &self.uniform_walls {
            UniformWalls::Exact(e) => Some(e),
            _ => None,
        };
        (self.walls.iter().enumerate())
            .map(|(i, wall)| WallDoc {
                wall: wall.label(size),
                a: wall.a,
                b: wall.b,
                bit: wall.id,
                uniform_open: exact.map(|e| ratio_str(&e[i])),
                uniform_open_f64: uniform_f64.map(|f| f[i]),
            })
            .collect()
    }

    fn orders_json<'a>(
        &'a self,
        part: &'a Part<super::kruskal_orders::OrderCounts>,
    ) -> Status<'a, Orders> {
        Status::of(part, |r, seconds| Orders {
            method: match r.method {
                Method::BruteForce => "brute_force",
                Method::LinearExtensions => "linear_extensions",
            },
            cross_check_linear_extensions: self.orders_cross_check,
            walls: r.walls,
            orders: r.orders.to_string(),
            seconds,
            trees: r.trees.len(),
            histogram: (r.histogram().into_iter())
                .map(|(orders, trees)| OrdersHistogram { orders, trees })
                .collect(),
            wall_open_orders: r.open_orders(&self.walls),
            tree_orders: (r.trees.iter())
                .map(|(k, c)| TreeOrders {
                    tree: tree_code(k),
                    orders: *c,
                })
                .collect(),
        })
    }

    fn generator_json<'a>(
        &'a self,
        a: &'a AlgoReport,
        uniform_f64: Option<&[f64]>,
    ) -> Generator<'a> {
        Generator {
            algo: a.algo.name(),
            claims_uniform: a.algo.is_uniform(),
            exact: exact_status(&a.exact, self.tau_big()),
            sample: a.sample.as_ref().map(|s| self.sample_json(s, uniform_f64)),
        }
    }

    fn sample_json(&self, sm: &Sampled, uniform_f64: Option<&[f64]>) -> Sample {
        let wall_test = wall_test_doc(sm, uniform_f64, |i| self.walls[i].label(self.options.size));
        sample_doc(sm, wall_test)
    }
}

/// The per-wall (per-edge) test of a sample against the `uniform` probabilities, when computed,
/// its worst wall named by `label`.
fn wall_test_doc(
    sm: &Sampled,
    uniform: Option<&[f64]>,
    label: impl Fn(usize) -> String,
) -> Option<WallTestDoc> {
    let c = &sm.counts;
    uniform
        .and_then(|u| wall_bias::wall_test(&c.wall_open, c.samples, u))
        .map(|t| WallTestDoc {
            worst_wall: label(t.worst),
            observed: t.observed,
            uniform: t.expected,
            z: t.z,
            p_bonferroni: t.p_bonferroni,
        })
}

/// A generator's exact distribution (or why it has none) against `tau` when known.
fn exact_status<'a>(part: &'a Part<ExactDistribution>, tau: Option<&BigInt>) -> Status<'a, Exact> {
    Status::of(part, |d, seconds| Exact {
        seconds,
        runs: d.leaves,
        max_draws: d.max_depth,
        trees_produced: d.trees.len(),
        sum: ratio_str(&d.total()),
        against_tau: tau.map(|t| {
            let tv = d.tv_from_uniform(t);
            AgainstTau {
                never_produced: d.never_produced(t).to_string(),
                tv_from_uniform: ratio_str(&tv),
                tv_from_uniform_f64: tv.to_f64().unwrap_or(f64::NAN),
            }
        }),
        distribution: (d.trees.iter())
            .map(|(k, p)| TreeP {
                tree: tree_code(k),
                p: ratio_str(p),
            })
            .collect(),
    })
}

/// A generator's sample: counts, the chi-square over trees when run, the per-wall test when
/// there is one.
fn sample_doc(sm: &Sampled, wall_test: Option<WallTestDoc>) -> Sample {
    let c = &sm.counts;
    Sample {
        samples: c.samples,
        seed: c.seed,
        seconds: c.seconds,
        imperfect: c.imperfect,
        chi_square: sm.chi.as_ref().map(|chi| ChiSquareDoc {
            trees_seen: c.trees.as_ref().map_or(0, |t| t.len()),
            never_seen: chi.unseen,
            chi_square: chi.statistic,
            df: chi.df,
            p_value: chi.p_value,
            uniform_at_alpha_0_001: chi.p_value >= ALPHA,
            tv: chi.tv,
        }),
        wall_test,
        wall_open: c.wall_open.clone(),
        tree_counts: c.trees.as_deref().map(tree_counts),
    }
}

fn tree_counts(trees: &[(TreeKey, u64)]) -> Vec<TreeCount> {
    (trees.iter())
        .map(|(k, n)| TreeCount {
            tree: tree_code(k),
            count: *n,
        })
        .collect()
}

/// The grid lab's document (`batchgen uniformity --grid G --format json`): the square
/// report's generator objects over the trees of the grid's cell graph.
#[derive(Debug, Serialize)]
pub struct GridDocument<'a> {
    grid: GridOf,
    mask: Option<&'a str>,
    spanning_trees: SpanningTrees,
    tree_code: &'static str,
    edges: Vec<EdgeDoc>,
    generators: Vec<Generator<'a>>,
    notes: &'a [String],
    seconds: f64,
}

#[derive(Debug, Serialize)]
struct GridOf {
    grid: &'static str,
    size: String,
    cells: u32,
    edges: usize,
}

#[derive(Debug, Serialize)]
struct EdgeDoc {
    edge: usize,
    a: u32,
    b: u32,
    /// The two cells' places (`(x,y)–(x,y)`, polar `(ring,i)–(ring,i)`).
    label: String,
    /// The exact probability that the edge is open in a uniform spanning tree (small graphs).
    uniform_open: Option<String>,
    /// The same in floating point (when computed).
    uniform_open_f64: Option<f64>,
}

impl GridStudy {
    /// The machine-readable study (print it with [`crate::json::pretty`]).
    pub fn to_json(&self) -> GridDocument<'_> {
        let uniform_f64 = self.uniform_edges.as_f64();
        let exact = match &self.uniform_edges {
            UniformWalls::Exact(e) => Some(e),
            _ => None,
        };
        GridDocument {
            grid: GridOf {
                grid: self.size.grid.name(),
                size: self.size.to_string(),
                cells: self.cells,
                edges: self.edges.len(),
            },
            mask: self.options.mask.as_deref(),
            spanning_trees: SpanningTrees {
                exact: Some(self.tau.to_string()),
                log10: super::report::log10_of(&self.tau),
            },
            tree_code: "hex of the maze's edge words (bit e = edge e open, edges as listed)",
            edges: (self.edges.iter().enumerate())
                .map(|(edge, &[a, b])| EdgeDoc {
                    edge,
                    a,
                    b,
                    label: self.edge_label(edge),
                    uniform_open: exact.map(|e| ratio_str(&e[edge])),
                    uniform_open_f64: uniform_f64.as_ref().map(|f| f[edge]),
                })
                .collect(),
            generators: (self.algos.iter())
                .map(|a| Generator {
                    algo: a.algo.name(),
                    claims_uniform: a.algo.is_uniform(),
                    exact: exact_status(&a.exact, Some(&self.tau)),
                    sample: a.sample.as_ref().map(|s| {
                        let test = wall_test_doc(s, uniform_f64.as_deref(), |e| self.edge_label(e));
                        sample_doc(s, test)
                    }),
                })
                .collect(),
            notes: &self.notes,
            seconds: self.seconds,
        }
    }
}
