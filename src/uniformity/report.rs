//! The whole study for one grid size: plan (with time estimates, refusing what would run for
//! hours unless forced) and run; [`super::render`] prints the result as a table or JSON.

use super::enumerate::{self, Estimate, ExactDistribution, NotEnumerable};
pub(crate) use super::human_duration;
use super::kirchhoff;
use super::kruskal_orders::{self, OrderCounts};
use super::sample::{self, ChiSquare, SampleCounts};
use super::wall_bias;
use super::{interior_walls, Wall};
use crate::generate::Algorithm;
use crate::grid::Mask;
use crate::thousands::thousands;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive};
use std::sync::Arc;
use std::time::Instant;

/// Estimated seconds above which an exhaustive part (all Kruskal orders, a choice-tree walk)
/// is skipped with a note unless forced.
pub(crate) const EXHAUSTIVE_BUDGET_SECONDS: f64 = 600.0;
/// Largest `τ · 2^E · E` for which Kruskal's order counts are computed as linear extensions
/// (about a minute on 2 cores).
pub(crate) const LINEAR_EXTENSION_MAX_WORK: f64 = 3e10;
/// Estimated seconds of sampling above which the whole request is refused unless forced.
pub const SAMPLING_BUDGET_SECONDS: f64 = 1800.0;
/// A chi-square over trees is reported only when every tree is expected at least this often.
pub(crate) const MIN_EXPECTED_PER_TREE: u64 = 5;
/// Significance level of the verdicts.
pub const ALPHA: f64 = 0.001;
/// Largest mask (cells) the lab studies: its τ is always computed exactly
/// ([`kirchhoff::EXACT_TAU_MAX_CELLS`]), since no closed form counts the trees of a shape.
pub const MASK_MAX_CELLS: u64 = kirchhoff::EXACT_TAU_MAX_CELLS;

/// The mask a study runs on, with the name the report shows for it (its file).
#[derive(Clone, Debug)]
pub struct StudyMask {
    /// What the report calls it (the `--mask` file as given).
    pub name: String,
    /// The cells.
    pub mask: Arc<Mask>,
}

/// What to study.
#[derive(Clone, Debug)]
pub struct Options {
    /// Grid size in cells (2D or 3D).
    pub size: crate::grid::Size,
    /// Generators, in canonical order.
    pub algos: Vec<Algorithm>,
    /// Mazes sampled per generator (0: no sampling).
    pub samples: u64,
    /// Master seed of the sampling (as the batch's `--seed`).
    pub seed: u64,
    /// Run exhaustive parts and long sampling even when estimated to take too long.
    pub force: bool,
    /// Study the spanning trees of this mask's cells instead of the whole grid (its size is
    /// `size`).
    pub mask: Option<StudyMask>,
}

/// The request would run too long, or need more memory than the process may use; nothing was
/// done.
#[derive(Debug, thiserror::Error)]
#[error("{what}: estimated {estimate}; {hint}")]
pub struct Refused {
    /// What would take too long or too much memory.
    pub what: String,
    /// The estimate, in words (`3 h on this machine`, `19.4 GB of memory, …`).
    pub estimate: String,
    /// How to proceed.
    pub hint: String,
}

/// A part of the study that ran, or why it did not.
#[derive(Clone, Debug)]
pub enum Part<T> {
    /// It ran; wall-clock seconds.
    Done(T, f64),
    /// It did not run, for this reason.
    Skipped(String),
}

/// Exact per-wall probabilities under the uniform distribution.
#[derive(Clone, Debug)]
pub(crate) enum UniformWalls {
    /// Exact rationals.
    Exact(Vec<BigRational>),
    /// Floating point (grid too large for exact arithmetic).
    Float(Vec<f64>),
    /// Not computed (grid too large), with the reason.
    Unavailable(String),
}

impl UniformWalls {
    /// The probabilities as floats, when available.
    pub fn as_f64(&self) -> Option<Vec<f64>> {
        match self {
            UniformWalls::Exact(v) => {
                Some(v.iter().map(|p| p.to_f64().unwrap_or(f64::NAN)).collect())
            }
            UniformWalls::Float(v) => Some(v.clone()),
            UniformWalls::Unavailable(_) => None,
        }
    }
}

/// Sampling results of one generator.
#[derive(Clone, Debug)]
pub struct Sampled {
    /// The counts.
    pub counts: SampleCounts,
    /// The chi-square test over trees, when meaningful.
    pub chi: Option<ChiSquare>,
}

/// Everything about one generator.
#[derive(Clone, Debug)]
pub struct AlgoReport {
    /// The generator.
    pub algo: Algorithm,
    /// Its exact distribution over trees, or why it is not available.
    pub exact: Part<ExactDistribution>,
    /// Where the exact distribution came from when not from the choice-tree walk.
    pub(crate) exact_note: Option<String>,
    /// Its sampled distribution (absent when `--samples 0`).
    pub sample: Option<Sampled>,
}

/// The full study of one grid size.
#[derive(Clone, Debug)]
pub struct Report {
    /// The options it ran with.
    pub options: Options,
    /// Interior walls (on a mask: those between two mask cells), in Kruskal's order.
    pub walls: Vec<Wall>,
    /// Cells of the graph studied (the grid's, or the mask's).
    pub cells: u64,
    /// τ exactly, when the grid is small enough.
    pub tau: Option<BigInt>,
    /// log10 τ (always).
    pub(crate) log10_tau: f64,
    /// Per-wall open probability under the uniform distribution.
    pub(crate) uniform_walls: UniformWalls,
    /// Kruskal over every wall order (absent when Kruskal was not asked for).
    pub orders: Option<Part<OrderCounts>>,
    /// Whether the brute force and the linear-extension count agreed (when both ran).
    pub(crate) orders_cross_check: Option<bool>,
    /// One entry per generator.
    pub algos: Vec<AlgoReport>,
    /// Remarks on what was skipped and why.
    pub notes: Vec<String>,
    /// Total wall-clock seconds.
    pub seconds: f64,
}

pub(super) fn ratio_str(r: &BigRational) -> String {
    if r.denom().is_one() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

pub(super) fn threads() -> usize {
    rayon::current_num_threads().max(1)
}

/// τ of the graph studied, exactly when affordable (always on a mask: no closed form counts
/// the trees of a shape), and its log10.
fn tau_of(size: crate::grid::Size, mask: Option<&Arc<Mask>>, cells: u64) -> (Option<BigInt>, f64) {
    match mask {
        Some(m) => {
            let t = kirchhoff::spanning_trees_masked(m);
            let l = log10_of(&t);
            (Some(t), l)
        }
        None => (
            (cells <= kirchhoff::EXACT_TAU_MAX_CELLS).then(|| kirchhoff::spanning_trees(size)),
            kirchhoff::log10_spanning_trees(size),
        ),
    }
}

/// Refuse sampling estimated above [`SAMPLING_BUDGET_SECONDS`] unless forced: planned before
/// any long work, since it is the part whose size the user chose.
fn plan_sampling(
    opts: &Options,
    mask: Option<&Arc<Mask>>,
    track_trees: bool,
) -> Result<(), Refused> {
    let size = opts.size;
    if opts.samples > 0 {
        let est: f64 = opts
            .algos
            .iter()
            .filter(|a| !size.is_3d() || a.supports_3d())
            .filter(|a| mask.is_none() || a.supports_mask())
            .map(|a| {
                sample::seconds_per_maze(a, size, mask, track_trees) * opts.samples as f64
                    / threads() as f64
            })
            .sum();
        refuse_long_sampling(
            est,
            opts.samples,
            &size.to_string(),
            opts.algos.len(),
            opts.force,
        )?;
    }
    Ok(())
}

/// The refusal of sampling `samples` mazes of `of` for each of `algos` generators estimated at
/// `est` seconds in all, when that is over [`SAMPLING_BUDGET_SECONDS`] and not `force`d (the
/// square lab's and the grid lab's).
pub(crate) fn refuse_long_sampling(
    est: f64,
    samples: u64,
    of: &str,
    algos: usize,
    force: bool,
) -> Result<(), Refused> {
    if est > SAMPLING_BUDGET_SECONDS && !force {
        return Err(Refused {
            what: format!(
                "sampling {} mazes of {of} for each of {algos} generator(s)",
                thousands(samples),
            ),
            estimate: format!("{} on this machine", human_duration(est)),
            hint: "lower --samples, choose fewer generators with --algo, or pass --force".into(),
        });
    }
    Ok(())
}

/// Per-wall open probabilities under the uniform distribution: exact, in floating point, or
/// why not.
fn uniform_walls_of(size: crate::grid::Size, mask: Option<&Arc<Mask>>, cells: u64) -> UniformWalls {
    if let Some(m) = mask {
        if cells <= wall_bias::EXACT_WALL_MAX_CELLS {
            UniformWalls::Exact(wall_bias::uniform_open_exact_masked(m))
        } else {
            UniformWalls::Unavailable(format!(
                "per-wall uniform probabilities on a mask are computed exactly only up to {} \
                 cells (this mask has {cells})",
                wall_bias::EXACT_WALL_MAX_CELLS
            ))
        }
    } else if cells <= wall_bias::EXACT_WALL_MAX_CELLS {
        UniformWalls::Exact(wall_bias::uniform_open_exact(size))
    } else if wall_bias::float_work(size) <= wall_bias::FLOAT_WALL_MAX_WORK {
        UniformWalls::Float(wall_bias::uniform_open_f64(size))
    } else {
        UniformWalls::Unavailable(format!(
            "per-wall uniform probabilities are computed only up to about 100x100 cells \
             ({size} needs {:.1e} floating-point steps)",
            wall_bias::float_work(size)
        ))
    }
}

/// Kruskal over every order of a whole grid's `e` walls: brute force when affordable,
/// otherwise (and as a cross-check) the linear-extension count, which needs only τ · 2^E · E
/// steps. Returns the counts and whether the two agreed (when both ran).
fn kruskal_all_orders(
    opts: &Options,
    e: usize,
    cells: u64,
    tau_u64: Option<u64>,
    progress: &mut dyn FnMut(&str),
) -> (Part<OrderCounts>, Option<bool>) {
    let size = opts.size;
    let mut orders_cross_check = None;
    let feasible = e <= kruskal_orders::MAX_WALLS && cells <= 32;
    let est = if e <= 32 && cells <= 32 {
        kruskal_orders::estimate_seconds(size, threads())
    } else {
        f64::INFINITY
    };
    let le_work = tau_u64.and_then(|t| kruskal_orders::linear_extension_work(size, t));
    let le_ok = le_work.is_some_and(|x| x <= LINEAR_EXTENSION_MAX_WORK || opts.force);
    let linear = |progress: &mut dyn FnMut(&str)| {
        progress(&format!(
            "kruskal: counting the orders of each of the {} trees as linear extensions",
            thousands(tau_u64.unwrap_or(0))
        ));
        let t = Instant::now();
        let r = kruskal_orders::count_by_linear_extensions(size);
        (r, t.elapsed().as_secs_f64())
    };
    let part = if feasible && (est <= EXHAUSTIVE_BUDGET_SECONDS || opts.force) {
        progress(&format!(
            "kruskal: running all {} wall orders (estimated {})",
            thousands(kruskal_orders::factorial(e)),
            human_duration(est)
        ));
        let t = Instant::now();
        let r = kruskal_orders::count_all_orders(size);
        let secs = t.elapsed().as_secs_f64();
        if le_ok {
            let (l, _) = linear(progress);
            orders_cross_check = Some(l.trees == r.trees);
        }
        Part::Done(r, secs)
    } else if le_ok {
        let (r, secs) = linear(progress);
        Part::Done(r, secs)
    } else if !feasible {
        Part::Skipped(format!(
            "{e}! ≈ 10^{:.1} wall orders: estimated {}; exact counts only up to {} walls",
            (1..=e).map(|k| (k as f64).log10()).sum::<f64>(),
            human_duration(est),
            kruskal_orders::MAX_WALLS
        ))
    } else {
        Part::Skipped(format!(
            "{e}! wall orders: estimated {} (over the {} budget; --force runs it)",
            human_duration(est),
            human_duration(EXHAUSTIVE_BUDGET_SECONDS)
        ))
    };
    (part, orders_cross_check)
}

/// A generator's exact distribution from the walk of its choice tree, skipped with the
/// reason when not enumerable or estimated over the budget (unless forced).
fn exact_part(
    algo: &Algorithm,
    opts: &Options,
    mask: Option<&Arc<Mask>>,
    planned: &Result<Estimate, NotEnumerable>,
    tau_u64: Option<u64>,
    progress: &mut dyn FnMut(&str),
) -> Part<ExactDistribution> {
    let walk = || enumerate::exact_distribution_on(algo, opts.size, mask);
    exact_part_with(algo, planned, opts.force, tau_u64, progress, walk)
}

/// A generator's exact distribution from `walk` (its choice-tree walk on whatever grid), as
/// [`exact_part`] plans it: skipped with the reason when `planned` says it is not enumerable
/// or estimated over [`EXHAUSTIVE_BUDGET_SECONDS`] (unless `force`).
pub(crate) fn exact_part_with(
    algo: &Algorithm,
    planned: &Result<Estimate, NotEnumerable>,
    force: bool,
    tau_u64: Option<u64>,
    progress: &mut dyn FnMut(&str),
    walk: impl FnOnce() -> Result<ExactDistribution, NotEnumerable>,
) -> Part<ExactDistribution> {
    let name = algo.name();
    match planned {
        Err(e) => Part::Skipped(format!("not enumerable: {e}")),
        Ok(est) => {
            let secs = est.seconds(threads());
            if !runs_exhaustively(est, force) {
                Part::Skipped(
                    NotEnumerable::TooLarge {
                        leaves: est.leaves,
                        seconds: secs,
                        budget: EXHAUSTIVE_BUDGET_SECONDS,
                    }
                    .to_string(),
                )
            } else {
                if secs > 1.0 {
                    progress(&format!(
                        "{name}: walking about {:.3e} branches of its random choices (estimated {}, \
                         at most {} of memory)",
                        est.leaves,
                        human_duration(secs),
                        crate::memory::human(est.bytes(tau_u64))
                    ));
                }
                let t = Instant::now();
                match walk() {
                    Ok(d) => Part::Done(d, t.elapsed().as_secs_f64()),
                    Err(e) => Part::Skipped(format!("not enumerable: {e}")),
                }
            }
        }
    }
}

/// A generator's planned choice-tree walk: its estimate (or why it cannot be walked), `None`
/// for a generator the study skips (2D-only on a 3D size, or no mask support).
pub(crate) type Planned = Option<Result<Estimate, NotEnumerable>>;

/// Does the choice-tree walk estimated as `est` run (within the time budget, or forced)?
fn runs_exhaustively(est: &Estimate, force: bool) -> bool {
    est.seconds(threads()) <= EXHAUSTIVE_BUDGET_SECONDS || force
}

/// Does `algo` run in this study (not skipped for a 3D size or a mask)?
fn studied(algo: &Algorithm, opts: &Options) -> bool {
    (!opts.size.is_3d() || algo.supports_3d()) && (opts.mask.is_none() || algo.supports_mask())
}

/// Estimate every generator's choice-tree walk before any work, and refuse (whatever
/// `--force` says) when the walks that will run would together hold more trees than the memory
/// this process may use ([`crate::memory::available`]): each walk keeps its distinct trees
/// ([`enumerate::BYTES_PER_TREE`] apiece), and the report keeps every distribution.
fn plan_exact(
    opts: &Options,
    mask: Option<&Arc<Mask>>,
    cells: u64,
    tau_u64: Option<u64>,
) -> Result<Vec<Planned>, Refused> {
    let probes = probes_for(cells);
    let planned: Vec<_> = opts
        .algos
        .iter()
        .map(|a| studied(a, opts).then(|| enumerate::estimate_on(a, opts.size, mask, probes)))
        .collect();
    fits_in_memory(
        &opts.algos,
        &planned,
        opts.force,
        tau_u64,
        &opts.size.to_string(),
    )?;
    Ok(planned)
}

/// Probes of Knuth's estimate for a graph of `cells` cells.
pub(crate) fn probes_for(cells: u64) -> u32 {
    (2_000_000 / cells.max(1)).clamp(20, 2000) as u32
}

/// Refuse (whatever `force` says) when the choice-tree walks `planned` for `algos` that will
/// run would together hold more trees than the memory this process may use; `size` names the
/// grid in the message.
pub(crate) fn fits_in_memory(
    algos: &[Algorithm],
    planned: &[Planned],
    force: bool,
    tau_u64: Option<u64>,
    size: &str,
) -> Result<(), Refused> {
    let mut need = 0u64;
    let mut heavy = Vec::new();
    for (a, p) in algos.iter().zip(planned) {
        if let Some(Ok(est)) = p {
            if runs_exhaustively(est, force) {
                let bytes = est.bytes(tau_u64);
                need = need.saturating_add(bytes);
                heavy.push((bytes, a.name()));
            }
        }
    }
    match crate::memory::available() {
        Some(have) if need > have => {
            heavy.sort_by_key(|h| std::cmp::Reverse(h.0));
            let names: Vec<String> = heavy
                .iter()
                .take_while(|(b, _)| *b > 0)
                .map(|(b, n)| match heavy.len() {
                    1 => n.to_string(),
                    _ => format!("{n} {}", crate::memory::human(*b)),
                })
                .collect();
            Err(Refused {
                what: format!("the exact distributions of {} on {size}", names.join(", ")),
                estimate: format!(
                    "{} of memory (every distinct tree of each generator's choice tree is \
                     kept), but only {} is available (MemAvailable, and the address-space limit \
                     `ulimit -v`)",
                    crate::memory::human(need),
                    crate::memory::human(have)
                ),
                hint: "leave the largest out of --algo, or use a smaller --size".into(),
            })
        }
        _ => Ok(()),
    }
}

/// A generator's sampled distribution, with the chi-square over trees when they are tracked.
fn sample_part(
    algo: &Algorithm,
    opts: &Options,
    mask: Option<&Arc<Mask>>,
    track_trees: bool,
    tau_u64: Option<u64>,
    progress: &mut dyn FnMut(&str),
) -> Sampled {
    sampled(algo, opts.samples, tau_u64, progress, || {
        sample::sample_on(algo, opts.size, mask, opts.samples, opts.seed, track_trees)
    })
}

/// A generator's `samples` mazes counted by `draw` (on whatever grid), with the chi-square
/// over trees against uniform over `tau_u64` trees when the trees were tracked.
pub(crate) fn sampled(
    algo: &Algorithm,
    samples: u64,
    tau_u64: Option<u64>,
    progress: &mut dyn FnMut(&str),
    draw: impl FnOnce() -> SampleCounts,
) -> Sampled {
    progress(&format!(
        "{}: sampling {} mazes",
        algo.name(),
        thousands(samples)
    ));
    let counts = draw();
    let chi = match (&counts.trees, tau_u64) {
        (Some(t), Some(tau)) => {
            let c: Vec<u64> = t.iter().map(|x| x.1).collect();
            Some(sample::chi_square(&c, tau))
        }
        _ => None,
    };
    Sampled { counts, chi }
}

/// What every generator's part of a study shares.
struct Study<'a> {
    opts: &'a Options,
    mask: Option<&'a Arc<Mask>>,
    /// Each generator's planned choice-tree walk (in `opts.algos` order).
    planned: &'a [Planned],
    track_trees: bool,
    tau_u64: Option<u64>,
    orders: Option<&'a Part<OrderCounts>>,
}

/// Each generator's exact and sampled distributions; a generator that cannot run on the
/// size or the mask is skipped with a note.
fn study_algos(
    study: &Study,
    notes: &mut Vec<String>,
    progress: &mut dyn FnMut(&str),
) -> Vec<AlgoReport> {
    let Study {
        opts,
        mask,
        planned,
        track_trees,
        tau_u64,
        orders,
    } = *study;
    let size = opts.size;
    let mut algos = Vec::new();
    for (algo, planned) in opts.algos.iter().zip(planned) {
        if size.is_3d() && !algo.supports_3d() {
            notes.push(format!(
                "{} is a 2D-only generator: skipped on the 3D size {size}",
                algo.name()
            ));
            continue;
        }
        if mask.is_some() && !algo.supports_mask() {
            notes.push(format!("{} does not accept a mask: skipped", algo.name()));
            continue;
        }
        let planned = planned
            .as_ref()
            .expect("every studied generator is planned");
        let exact = exact_part(algo, opts, mask, planned, tau_u64, progress);
        let sample = (opts.samples > 0)
            .then(|| sample_part(algo, opts, mask, track_trees, tau_u64, progress));
        // Kruskal's distribution is also known exactly from its order counts.
        let mut exact_note = None;
        let exact = match (exact, orders) {
            (Part::Skipped(why), Some(Part::Done(o, secs))) if *algo == Algorithm::Kruskal => {
                exact_note = Some(format!("from the order counts; choice tree: {why}"));
                Part::Done(o.distribution(), *secs)
            }
            (e, _) => e,
        };
        algos.push(AlgoReport {
            algo: *algo,
            exact,
            exact_note,
            sample,
        });
    }
    algos
}

/// Plan and run the study, printing one-line progress messages through `progress`. Refuses
/// up front (before any long work) when sampling would exceed [`SAMPLING_BUDGET_SECONDS`], or
/// the exact distributions would not fit in memory.
pub fn run(opts: &Options, progress: &mut dyn FnMut(&str)) -> Result<Report, Refused> {
    let t0 = Instant::now();
    let size = opts.size;
    let mask = opts.mask.as_ref().map(|m| &m.mask);
    let cells = mask.map_or(size.cells_u64(), |m| m.cells() as u64);
    let walls = mask.map_or_else(|| interior_walls(size), |m| kirchhoff::mask_walls(m));
    let mut notes = Vec::new();

    let (tau, log10_tau) = tau_of(size, mask, cells);
    if tau.is_none() {
        notes.push(format!(
            "τ ≈ 10^{log10_tau:.2} from the eigenvalue product (exact determinant only up to {} cells)",
            kirchhoff::EXACT_TAU_MAX_CELLS
        ));
    }
    let tau_u64 = tau.as_ref().and_then(|t| t.to_u64());

    let track_trees =
        matches!(tau_u64, Some(t) if t.saturating_mul(MIN_EXPECTED_PER_TREE) <= opts.samples);
    if opts.samples > 0 && !track_trees {
        notes.push(format!(
            "τ ≈ 10^{log10_tau:.1} trees but only {} samples: a chi-square over trees needs about {} samples per tree, so it is meaningless here; per-wall bias is reported instead",
            thousands(opts.samples),
            MIN_EXPECTED_PER_TREE
        ));
    }
    plan_sampling(opts, mask, track_trees)?;
    let planned = plan_exact(opts, mask, cells, tau_u64)?;
    let uniform_walls = uniform_walls_of(size, mask, cells);

    let kruskal = opts.algos.contains(&Algorithm::Kruskal);
    if mask.is_some() && kruskal {
        notes.push(
            "Kruskal over all wall orders runs on whole grids only; on a mask its exact \
             distribution comes from its choice tree"
                .into(),
        );
    }
    let (orders, orders_cross_check) = if mask.is_none() && kruskal {
        let (o, check) = kruskal_all_orders(opts, walls.len(), cells, tau_u64, progress);
        (Some(o), check)
    } else {
        (None, None)
    };

    let study = Study {
        opts,
        mask,
        planned: &planned,
        track_trees,
        tau_u64,
        orders: orders.as_ref(),
    };
    let algos = study_algos(&study, &mut notes, progress);
    Ok(Report {
        options: opts.clone(),
        walls,
        cells,
        tau,
        log10_tau,
        uniform_walls,
        orders,
        orders_cross_check,
        algos,
        notes,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// `log10 t` of a positive integer of any size (from its leading digits).
pub(crate) fn log10_of(t: &BigInt) -> f64 {
    let digits = t.to_string();
    let lead: f64 = digits[..digits.len().min(17)].parse().unwrap_or(f64::NAN);
    lead.log10() + digits.len().saturating_sub(17) as f64
}

impl Report {
    pub(super) fn tau_big(&self) -> Option<&BigInt> {
        self.tau.as_ref()
    }

    /// Kruskal's exact distribution from the orders, as probabilities `count / E!`.
    pub(crate) fn orders_distribution(&self) -> Option<ExactDistribution> {
        match &self.orders {
            Some(Part::Done(o, _)) => Some(o.distribution()),
            _ => None,
        }
    }

    /// The wall whose Kruskal open-probability (over all orders) deviates most from uniform:
    /// `(index, open orders)`.
    pub(super) fn most_biased_wall_in_orders(&self) -> Option<(usize, u64)> {
        let (Some(Part::Done(o, _)), UniformWalls::Exact(u)) = (&self.orders, &self.uniform_walls)
        else {
            return None;
        };
        let open = o.open_orders(&self.walls);
        let total = o.orders.to_f64()?;
        let dev = |i: usize| (open[i] as f64 / total - u[i].to_f64().unwrap_or(0.0)).abs();
        // The first wall with the largest deviation (walls tie by symmetry).
        (0..open.len())
            .reduce(|best, i| if dev(i) > dev(best) + 1e-12 { i } else { best })
            .map(|i| (i, open[i]))
    }
}
