//! Rendering a [`Report`] as human-readable tables ([`Report::table`]); its JSON is
//! [`super::report_json`].

use super::enumerate::ExactDistribution;
use super::kruskal_orders::{Method, OrderCounts};
use super::report::{ratio_str, threads, AlgoReport, Part, Report, Sampled, UniformWalls, ALPHA};
use super::verdict::{self, paint_cell, wrap};
use super::wall_bias;
use crate::generate::Algorithm;
use crate::thousands::thousands;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::fmt::Write as _;

fn p_str(p: f64) -> String {
    if p == 0.0 {
        "< 1e-300".into()
    } else if p >= 0.001 {
        format!("{p:.4}")
    } else {
        format!("{p:.2e}")
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

impl Report {
    /// The human-readable report, every line within [`verdict::WIDTH`] columns, without colour.
    pub fn table(&self) -> String {
        self.table_with(false)
    }

    /// The human-readable report; with `color`, verdicts are green (passes) or red (biased).
    pub fn table_with(&self, color: bool) -> String {
        let mut s = self.heading();
        let _ = writeln!(s);
        s += &self.verdict_section(color);
        let _ = writeln!(s);
        s += &verdict::legend(true);
        if let Some(part) = &self.orders {
            s += &verdict::wrap_lines(&self.orders_section(part));
        }
        s += &self.exact_section(color);
        if self.options.samples > 0 {
            s += &self.sampling_section(color);
        }
        s += &self.wall_frequency_section();
        s += &self.notes_and_time();
        s
    }

    /// The title and the number of spanning trees.
    fn heading(&self) -> String {
        let o = &self.options;
        let size = o.size;
        let mut s = String::new();
        let title = match &o.mask {
            Some(m) => format!(
                "Uniformity of maze generators on the mask {} ({size} grid, {} of {} cells, \
                 {} walls between them, mask_hash {})",
                m.name,
                m.mask.cells(),
                size.cells(),
                self.walls.len(),
                m.mask.hash()
            ),
            None => format!(
                "Uniformity of maze generators on a {size} grid ({} cells, {} interior walls)",
                size.cells(),
                self.walls.len()
            ),
        };
        s += &wrap(&title, "", "");
        match self.tau_big() {
            Some(t) => {
                let _ = writeln!(
                    s,
                    "Spanning trees: τ = {} (matrix-tree theorem, exact)",
                    thousands(t)
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "Spanning trees: τ ≈ 10^{:.2} (eigenvalue product)",
                    self.log10_tau
                );
            }
        }
        s
    }

    /// Kruskal over all wall orders.
    fn orders_section(&self, part: &Part<OrderCounts>) -> String {
        let mut k = String::new();
        let _ = writeln!(k);
        match part {
            Part::Done(r, secs) => {
                k += &self.orders_done(r, *secs);
            }
            Part::Skipped(why) => {
                let _ = writeln!(k, "Kruskal over all wall orders: skipped ({why})");
            }
        }
        k
    }

    /// Kruskal over all wall orders, when they ran.
    fn orders_done(&self, r: &OrderCounts, secs: f64) -> String {
        let mut k = String::new();
        let how = match r.method {
            Method::BruteForce => "each one run",
            Method::LinearExtensions => {
                "counted per tree as linear extensions of the cycle property"
            }
        };
        let _ = writeln!(
            k,
            "Kruskal over all {}! = {} wall orders ({how}, {:.2} s):",
            r.walls,
            thousands(&r.orders),
            secs
        );
        match self.orders_cross_check {
            Some(true) => {
                let _ = writeln!(k, "  brute force = linear-extension count ✓");
            }
            Some(false) => {
                let _ = writeln!(k, "  brute force DIFFERS from the linear-extension count ✗");
            }
            None => {}
        }
        let hist = r.histogram();
        let parts: Vec<String> = hist
            .iter()
            .rev()
            .map(|(c, n)| format!("{n} produced by {} orders each", thousands(c)))
            .collect();
        if parts.len() <= 10 {
            let _ = writeln!(k, "  {} trees: {}", r.trees.len(), parts.join(", "));
        } else {
            let _ = writeln!(
                k,
                "  {} trees, {} different order counts: most {}, …, least {} (--format json lists every tree)",
                r.trees.len(),
                parts.len(),
                parts[0],
                parts[parts.len() - 1]
            );
        }
        if let Some(t) = self.tau_big() {
            let uni = BigRational::new(BigInt::from(r.orders.clone()), t.clone());
            let _ = writeln!(
                k,
                "  uniform would be {} orders per tree{}",
                if uni.denom().is_one() {
                    thousands(uni.numer())
                } else {
                    format!("≈ {}", thousands(uni.numer() / uni.denom()))
                },
                if hist.len() > 1 {
                    ": Kruskal is NOT uniform"
                } else {
                    ""
                }
            );
        }
        k += &self.orders_biased_wall(r);
        k
    }

    /// The wall whose open frequency over all orders is furthest from uniform.
    fn orders_biased_wall(&self, r: &OrderCounts) -> String {
        let size = self.options.size;
        let mut k = String::new();
        if let (Some((i, open)), UniformWalls::Exact(u), Some(t)) = (
            self.most_biased_wall_in_orders(),
            &self.uniform_walls,
            self.tau_big(),
        ) {
            let total = r.orders.to_f64().unwrap_or(1.0);
            let trees_with = &u[i] * BigRational::from_integer(t.clone());
            let _ = writeln!(
                k,
                "  most biased wall {}: open in {} of {} orders ({}) vs {} of {} trees ({}) under uniform",
                self.walls[i].label(size),
                thousands(open),
                thousands(&r.orders),
                pct(open as f64 / total),
                ratio_str(&trees_with),
                thousands(t),
                pct(u[i].to_f64().unwrap_or(0.0)),
            );
            let _ = writeln!(
                k,
                "{}",
                if size.is_3d() {
                    "  (E(x,y,z), S(x,y,z) and D(x,y,z) are the walls east, south and down of cell (x,y,z); layer 0 is the top)"
                } else {
                    "  (E(x,y) is the vertical wall east of cell (x,y), S(x,y) the horizontal wall south of it; (0,0) is top-left)"
                }
            );
        }
        k
    }

    /// The exact distribution of every generator whose choices could be enumerated.
    fn exact_section(&self, color: bool) -> String {
        let mut s = String::new();
        let _ = writeln!(s);
        s += &exact_intro();
        let mut rows = vec![exact_head()];
        // Remarks under the table, and generators skipped for the same reason on one line.
        let mut remarks: Vec<String> = Vec::new();
        let mut skipped: Vec<(String, Vec<String>)> = Vec::new();
        let orders_dist = self.orders_distribution();
        for a in &self.algos {
            let name = a.algo.name();
            match (&a.exact, self.tau_big()) {
                (Part::Done(d, _), Some(t)) => {
                    rows.push(self.exact_row(a, d, t, orders_dist.as_ref(), color, &mut remarks));
                }
                (Part::Done(..), None) => {
                    rows.push(vec![name, "(τ not known exactly)".into()]);
                }
                (Part::Skipped(why), _) => skip(&mut skipped, why, name),
            }
        }
        s += &exact_table(&rows, &remarks, &skipped);
        s
    }

    /// One generator's row of the exact table; its remarks go to `remarks`.
    fn exact_row(
        &self,
        a: &AlgoReport,
        d: &ExactDistribution,
        t: &BigInt,
        orders_dist: Option<&ExactDistribution>,
        color: bool,
        remarks: &mut Vec<String>,
    ) -> Vec<String> {
        let name = a.algo.name();
        let (row, mut extra) = exact_cells(name.clone(), d, t, color);
        if let Some(n) = &a.exact_note {
            extra.push(format!("({n})"));
        }
        if a.algo == Algorithm::Kruskal && a.exact_note.is_none() {
            if let Some(od) = &orders_dist {
                extra.push(
                    if od.trees == d.trees {
                        "= all orders ✓"
                    } else {
                        "DIFFERS from all orders ✗"
                    }
                    .to_string(),
                );
            }
        }
        if !extra.is_empty() {
            remarks.push(format!("{name}: {}", extra.join(" ")));
        }
        row
    }

    /// Sampling: the chi-square table, the noise floor and the per-wall test.
    fn sampling_section(&self, color: bool) -> String {
        let o = &self.options;
        let mut s = String::new();
        let _ = writeln!(s);
        s += &sampling_intro(o.samples, o.seed);
        let mut rows = vec![sample_head()];
        let mut warnings = Vec::new();
        for a in &self.algos {
            let Some(sm) = &a.sample else { continue };
            rows.push(sample_cells(a.algo.name(), sm, color, &mut warnings));
        }
        s += &verdict::blocks(&rows, &[0, 8], 1);
        for wline in &warnings {
            s += &wrap(wline, "  ", "    ");
        }
        s += &self.sampling_noise_note();
        s += &self.wall_test_section(color);
        s
    }

    /// The TV distance a uniform sampler shows from sampling noise alone.
    fn sampling_noise_note(&self) -> String {
        let tested =
            (self.algos.iter()).any(|a| a.sample.as_ref().is_some_and(|x| x.chi.is_some()));
        noise_note(self.tau.as_ref(), self.options.samples, tested)
    }

    /// Each sampled generator's worst wall against its uniform probability.
    fn wall_test_section(&self, color: bool) -> String {
        let o = &self.options;
        match self.uniform_walls.as_f64() {
            Some(u) => wall_test_table(&self.algos, o.samples, &u, "wall", color, |i| {
                self.walls[i].label(o.size)
            }),
            None => String::new(),
        }
    }

    /// Per-wall open frequency: uniform, over all Kruskal orders, and per sampled generator.
    fn wall_frequency_section(&self) -> String {
        let o = &self.options;
        let size = o.size;
        let mut s = String::new();
        if let Some(u) = self.uniform_walls.as_f64() {
            let _ = writeln!(s);
            let exact = matches!(self.uniform_walls, UniformWalls::Exact(_));
            s += &wrap(
                &format!(
                    "Per-wall open frequency (uniform = {} effective resistance; sums to \
                     cells − 1 = {}):",
                    if exact { "exact" } else { "floating-point" },
                    self.cells - 1
                ),
                "",
                "  ",
            );
            let sampled: Vec<&AlgoReport> =
                self.algos.iter().filter(|a| a.sample.is_some()).collect();
            let order_open = match &self.orders {
                Some(Part::Done(r, _)) => {
                    Some((r.open_orders(&self.walls), r.orders.to_f64().unwrap_or(1.0)))
                }
                _ => None,
            };
            let rows = self.walls_shown(&sampled, &u, &mut s);
            let mut head = vec!["wall".to_string(), "uniform".to_string()];
            if order_open.is_some() {
                head.push("kruskal orders".into());
            }
            for a in &sampled {
                head.push(a.algo.name());
            }
            let mut table = vec![head];
            for i in rows {
                let uni = match &self.uniform_walls {
                    UniformWalls::Exact(v) => {
                        let r = ratio_str(&v[i]);
                        if r.len() <= 12 {
                            format!("{r} = {:.4}", u[i])
                        } else {
                            format!("{:.6}", u[i])
                        }
                    }
                    _ => format!("{:.6}", u[i]),
                };
                let mut line = vec![self.walls[i].label(size), uni];
                if let Some((oo, total)) = &order_open {
                    line.push(format!("{:.4}", oo[i] as f64 / total));
                }
                for a in &sampled {
                    let f = a
                        .sample
                        .as_ref()
                        .map_or(0.0, |sm| sm.counts.wall_open[i] as f64 / o.samples as f64);
                    line.push(format!("{f:.4}"));
                }
                table.push(line);
            }
            s += &verdict::blocks(&table, &[0], 2);
        } else if let UniformWalls::Unavailable(why) = &self.uniform_walls {
            let _ = writeln!(s);
            s += &wrap(&format!("Per-wall bias: {why}"), "", "  ");
        }
        s
    }

    /// The walls the frequency table shows: all, or the 24 where some generator deviates most
    /// (with a line saying so in `s`).
    fn walls_shown(&self, sampled: &[&AlgoReport], u: &[f64], s: &mut String) -> Vec<usize> {
        let o = &self.options;
        let mut rows: Vec<usize> = (0..self.walls.len()).collect();
        let limit = 24;
        if rows.len() > limit {
            // Keep the walls where some generator deviates most (in standard errors).
            let n = o.samples.max(1) as f64;
            let score = |i: usize| -> f64 {
                sampled
                    .iter()
                    .map(|a| {
                        let f = a
                            .sample
                            .as_ref()
                            .map_or(0.0, |sm| sm.counts.wall_open[i] as f64 / n);
                        let se = (u[i] * (1.0 - u[i]) / n).sqrt().max(1e-12);
                        ((f - u[i]) / se).abs()
                    })
                    .fold(0.0, f64::max)
            };
            rows.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
            rows.truncate(limit);
            *s += &wrap(
                &format!(
                    "({limit} of {} walls shown: those with the largest deviations; \
                     --format json lists all)",
                    self.walls.len()
                ),
                "  ",
                "   ",
            );
        }
        rows
    }

    /// The notes and the total time.
    fn notes_and_time(&self) -> String {
        let mut s = String::new();
        for n in &self.notes {
            let _ = writeln!(s);
            s += &wrap(&format!("Note: {n}"), "", "  ");
        }
        let _ = writeln!(
            s,
            "\nTotal time {:.1} s on {} threads.",
            self.seconds,
            threads()
        );
        s
    }
}

/// The intro line of the exact-distribution table.
pub(crate) fn exact_intro() -> String {
    wrap(
        "Exact distributions (every branch of each generator's random choices, run through \
         the generator code):",
        "",
        "  ",
    )
}

/// The header of the exact-distribution table.
pub(crate) fn exact_head() -> Vec<String> {
    [
        "generator",
        "runs",
        "trees",
        "never",
        "min p·τ",
        "max p·τ",
        "TV from uniform",
        "verdict",
    ]
    .map(String::from)
    .to_vec()
}

/// One generator's row of the exact-distribution table (under [`exact_head`]) from its exact
/// distribution `d` over the `t` spanning trees, and the remarks on it (a sum that is not 1).
pub(crate) fn exact_cells(
    name: String,
    d: &ExactDistribution,
    t: &BigInt,
    color: bool,
) -> (Vec<String>, Vec<String>) {
    let tf = t.to_f64().unwrap_or(f64::NAN);
    let ps: Vec<f64> = d
        .trees
        .iter()
        .map(|x| x.1.to_f64().unwrap_or(0.0) * tf)
        .collect();
    let never = d.never_produced(t);
    let minp = if never.is_zero() {
        ps.iter().cloned().fold(f64::INFINITY, f64::min)
    } else {
        0.0
    };
    let maxp = ps.iter().cloned().fold(0.0, f64::max);
    let tv = d.tv_from_uniform(t);
    let tvs = if tv.is_zero() {
        "0".to_string()
    } else {
        let r = ratio_str(&tv);
        if r.len() <= 12 {
            format!("{r} ≈ {:.4}", tv.to_f64().unwrap_or(0.0))
        } else {
            format!("{:.6}", tv.to_f64().unwrap_or(0.0))
        }
    };
    let verdict = if tv.is_zero() {
        "uniform (exact)"
    } else {
        "biased"
    };
    let mut extra = Vec::new();
    if d.total() != BigRational::one() {
        extra.push("[probabilities do not sum to 1!]".to_string());
    }
    let row = vec![
        name,
        if d.leaves == 0 {
            "—".to_string()
        } else {
            thousands(d.leaves)
        },
        thousands(d.trees.len()),
        thousands(&never),
        format!("{minp:.3}"),
        format!("{maxp:.3}"),
        tvs,
        paint_cell(verdict, color),
    ];
    (row, extra)
}

/// Add `name` to the generators skipped for `why` (one line per reason under the table).
pub(crate) fn skip(skipped: &mut Vec<(String, Vec<String>)>, why: &str, name: String) {
    match skipped.iter_mut().find(|x| x.0 == why) {
        Some(x) => x.1.push(name),
        None => skipped.push((why.to_string(), vec![name])),
    }
}

/// The exact-distribution table (`rows`, the header first), then its `remarks` and the
/// generators `skipped` per reason.
pub(crate) fn exact_table(
    rows: &[Vec<String>],
    remarks: &[String],
    skipped: &[(String, Vec<String>)],
) -> String {
    let mut s = String::new();
    if rows.len() > 1 {
        s += &verdict::blocks(rows, &[0, 7], 1);
    }
    for r in remarks {
        s += &wrap(r, "  ", "    ");
    }
    for (why, names) in skipped {
        s += &wrap(&format!("{}: {why}", names.join(", ")), "  ", "    ");
    }
    s
}

/// The intro line of the sampling table.
pub(crate) fn sampling_intro(samples: u64, seed: u64) -> String {
    wrap(
        &format!(
            "Sampling: {} mazes per generator, seed {} (maze i is the batch's maze i), \
             chi-square vs uniform at α = {ALPHA}:",
            thousands(samples),
            seed
        ),
        "",
        "  ",
    )
}

/// The header of the sampling table.
pub(crate) fn sample_head() -> Vec<String> {
    [
        "generator",
        "seen",
        "never",
        "chi-square",
        "df",
        "p-value",
        "TV",
        "time",
        "verdict",
    ]
    .map(String::from)
    .to_vec()
}

/// One generator's row of the sampling table (under [`sample_head`]); a warning about
/// imperfect mazes goes to `warnings`.
pub(crate) fn sample_cells(
    name: String,
    sm: &Sampled,
    color: bool,
    warnings: &mut Vec<String>,
) -> Vec<String> {
    let c = &sm.counts;
    if c.imperfect > 0 {
        warnings.push(format!(
            "{name}  WARNING: {} mazes were not perfect",
            c.imperfect
        ));
    }
    match &sm.chi {
        Some(chi) => {
            let verdict = if chi.p_value < ALPHA {
                "NOT uniform"
            } else {
                "consistent"
            };
            vec![
                name,
                thousands(c.trees.as_ref().map_or(0, |t| t.len())),
                thousands(chi.unseen),
                format!("{:.1}", chi.statistic),
                format!("{}", chi.df),
                p_str(chi.p_value),
                format!("{:.4}", chi.tv),
                format!("{:.2}s", c.seconds),
                paint_cell(verdict, color),
            ]
        }
        None => vec![
            name,
            "—".into(),
            "—".into(),
            "—".into(),
            "—".into(),
            "—".into(),
            "—".into(),
            format!("{:.2}s", c.seconds),
            "no test over trees (see note)".into(),
        ],
    }
}

/// The per-wall test's section ([`wall_bias::wall_test`]): each sampled generator's worst wall
/// (`what`: "wall", or "edge" on the other grids, named by `label`) against its uniform
/// probability `uniform`, out of `samples` mazes.
pub(crate) fn wall_test_table(
    algos: &[AlgoReport],
    samples: u64,
    uniform: &[f64],
    what: &str,
    color: bool,
    label: impl Fn(usize) -> String,
) -> String {
    let mut s = String::from("\n");
    s += &wrap(
        &format!(
            "Per-{what} test (each {what}'s open count vs its uniform probability; worst \
             {what}, Bonferroni over {what}s, α = {ALPHA}):"
        ),
        "",
        "  ",
    );
    let mut rows = vec![[
        "generator",
        what,
        "observed",
        "uniform",
        "z",
        "p-value",
        "verdict",
    ]
    .map(String::from)
    .to_vec()];
    for a in algos {
        let Some(sm) = &a.sample else { continue };
        let Some(t) = wall_bias::wall_test(&sm.counts.wall_open, samples, uniform) else {
            continue;
        };
        let verdict = if t.p_bonferroni < ALPHA {
            "NOT uniform"
        } else {
            "consistent"
        };
        rows.push(vec![
            a.algo.name(),
            label(t.worst),
            format!("{:.4}", t.observed),
            format!("{:.4}", t.expected),
            format!("{:.1}", t.z),
            p_str(t.p_bonferroni),
            paint_cell(verdict, color),
        ]);
    }
    if rows.len() > 1 {
        s += &verdict::blocks(&rows, &[0, 6], 1);
    }
    s
}

/// The TV distance a uniform sampler shows from sampling noise alone at `samples` mazes over
/// `tau` trees, when some generator was `tested` over trees (else nothing).
pub(crate) fn noise_note(tau: Option<&BigInt>, samples: u64, tested: bool) -> String {
    let mut s = String::new();
    if let Some(t) = tau.and_then(|t| t.to_f64()) {
        if tested {
            s += &wrap(
                &format!(
                    "(sampling noise alone gives a uniform sampler a TV of about {:.4} \
                     at this N)",
                    0.5 * (2.0 * t / (std::f64::consts::PI * samples as f64)).sqrt()
                ),
                "  ",
                "   ",
            );
        }
    }
    s
}
