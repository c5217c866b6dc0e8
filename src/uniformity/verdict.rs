//! The plain-language side of the uniformity report, for a reader who is not a statistician:
//! one verdict per generator ("uniform: every maze equally likely — passes", "biased: the most
//! likely maze is 1.9× as likely as the least"), a short legend of the symbols the tables use
//! (τ, p·τ, TV, chi-square, Bonferroni), and the text helpers that keep every line of the
//! report within [`WIDTH`] columns (word wrapping, tables split into column blocks).

use super::enumerate::ExactDistribution;
use super::report::{AlgoReport, Part, Report, Sampled, ALPHA};
use super::{stats, wall_bias};
use crate::thousands::thousands;
use num_traits::{ToPrimitive, Zero};

/// Columns the text report fits in.
pub const WIDTH: usize = 100;

/// Whether a generator passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every maze equally likely (exactly, or no bias detected by the tests).
    Uniform,
    /// Some mazes more likely than others.
    Biased,
    /// Nothing was measured that could decide.
    Unknown,
}

/// A generator's verdict: the outcome and one sentence saying it.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Passed, failed or undecided.
    pub outcome: Outcome,
    /// E.g. `biased: the most likely maze is 1.9× as likely as the least (exact)`.
    pub text: String,
}

/// "2.0×" style ratio.
/// A p-value for people, with its relation: `= 0.349`, `= 1.2e-30`, `< 1e-300`.
fn p_text(p: f64) -> String {
    if p < 1e-300 {
        "< 1e-300".into()
    } else if p < 0.001 {
        format!("= {p:.1e}")
    } else {
        format!("= {p:.3}")
    }
}

fn times(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}×")
    } else {
        format!("{x:.1}×")
    }
}

fn from_exact(d: &ExactDistribution, tau: &num_bigint::BigInt) -> Verdict {
    let tv = d.tv_from_uniform(tau);
    if tv.is_zero() {
        return Verdict {
            outcome: Outcome::Uniform,
            text: "uniform: every maze equally likely — passes (exact)".into(),
        };
    }
    let never = d.never_produced(tau);
    let ps: Vec<f64> = d
        .trees
        .iter()
        .map(|x| x.1.to_f64().unwrap_or(0.0))
        .collect();
    let max = ps.iter().cloned().fold(0.0, f64::max);
    let min = ps.iter().cloned().fold(f64::INFINITY, f64::min);
    let text = if !never.is_zero() {
        format!(
            "biased: {} of the {} possible mazes never come out; the most likely is {} as \
             likely as under uniform (exact)",
            thousands(&never),
            thousands(tau),
            times(max * tau.to_f64().unwrap_or(f64::NAN))
        )
    } else {
        format!(
            "biased: the most likely maze is {} as likely as the least (exact)",
            times(max / min)
        )
    };
    Verdict {
        outcome: Outcome::Biased,
        text,
    }
}

/// The verdict on one generator from what decides it on any grid: its exact distribution
/// when known (with τ), else the chi-square test over trees of its `samples` sampled mazes;
/// also "no verdict" when it was neither enumerated nor sampled. `None` when it was sampled
/// without a test over trees (τ too large for the samples), for a per-wall test to decide.
pub(crate) fn exact_or_chi(
    exact: &Part<ExactDistribution>,
    tau: Option<&num_bigint::BigInt>,
    sample: Option<&Sampled>,
    samples: u64,
) -> Option<Verdict> {
    if let (Part::Done(d, _), Some(tau)) = (exact, tau) {
        return Some(from_exact(d, tau));
    }
    let Some(sm) = sample else {
        return Some(Verdict {
            outcome: Outcome::Unknown,
            text: "no verdict: not enumerable here and not sampled (--samples 0)".into(),
        });
    };
    let n = thousands(samples);
    let chi = sm.chi.as_ref()?;
    if chi.p_value >= ALPHA {
        return Some(Verdict {
            outcome: Outcome::Uniform,
            text: format!(
                "uniform: every maze equally likely — passes (no bias found in {n} \
                 samples; chi-square p = {:.3})",
                chi.p_value
            ),
        });
    }
    let counts: Vec<u64> = sm
        .counts
        .trees
        .as_ref()
        .map(|t| t.iter().map(|x| x.1).collect())
        .unwrap_or_default();
    let max = counts.iter().copied().max().unwrap_or(0) as f64;
    let min = counts.iter().copied().min().unwrap_or(0) as f64;
    // Lead with the test; add only the evidence that is itself significant.
    let mut text = format!(
        "biased: chi-square p {} in {n} samples",
        p_text(chi.p_value)
    );
    let tau = tau.and_then(|t| t.to_u64());
    if chi.unseen > 0 {
        if let Some(tau) = tau {
            let (mu, p) = stats::unseen_p_value(chi.unseen, tau, samples);
            if p < ALPHA {
                text += &format!(
                    "; {} of the {} possible mazes never came out, {} expected under \
                     uniform (p {})",
                    thousands(chi.unseen),
                    thousands(tau),
                    thousands(mu.round() as u64),
                    p_text(p)
                );
            }
        }
    } else {
        text += &format!(
            "; the most likely maze came out {} as often as the least",
            times(max / min.max(1.0))
        );
    }
    Some(Verdict {
        outcome: Outcome::Biased,
        text,
    })
}

impl Report {
    /// The verdict on one generator: from its exact distribution when known, else from the
    /// chi-square test over trees, else from the per-wall test.
    pub fn verdict(&self, a: &AlgoReport) -> Verdict {
        let sample = a.sample.as_ref();
        if let Some(v) = exact_or_chi(&a.exact, self.tau.as_ref(), sample, self.options.samples) {
            return v;
        }
        let sm = sample.expect("sampled: exact_or_chi decides otherwise");
        let u = self.uniform_walls.as_f64();
        wall_verdict(sm, self.options.samples, u.as_deref(), "wall", |i| {
            self.walls[i].label(self.options.size)
        })
    }

    /// The "Verdicts" section: one wrapped line per generator.
    pub(super) fn verdict_section(&self, color: bool) -> String {
        let verdicts: Vec<(String, Verdict)> = (self.algos.iter())
            .map(|a| (a.algo.name(), self.verdict(a)))
            .collect();
        verdict_lines(&verdicts, color)
    }
}

/// The verdict of the per-wall test ([`wall_bias::wall_test`]) on a sample `sm` of `samples`
/// mazes against the uniform probabilities `uniform` (when computed), naming the worst wall
/// (`what`: "wall", or "edge" on the other grids) by `label`; no verdict without the test.
pub(crate) fn wall_verdict(
    sm: &Sampled,
    samples: u64,
    uniform: Option<&[f64]>,
    what: &str,
    label: impl Fn(usize) -> String,
) -> Verdict {
    let n = thousands(samples);
    let test = uniform.and_then(|u| wall_bias::wall_test(&sm.counts.wall_open, samples, u));
    match test {
        Some(t) if t.p_bonferroni < ALPHA => Verdict {
            outcome: Outcome::Biased,
            text: format!(
                "biased: {what} {} is open in {:.1}% of the sampled mazes, {:.1}% under uniform \
                 ({n} samples)",
                label(t.worst),
                100.0 * t.observed,
                100.0 * t.expected
            ),
        },
        Some(_) => Verdict {
            outcome: Outcome::Uniform,
            text: format!(
                "uniform as far as measured — passes (no {what} opens more or less often than \
                 under uniform in {n} samples)"
            ),
        },
        None => Verdict {
            outcome: Outcome::Unknown,
            text: "no verdict: too few samples for a test on this grid".into(),
        },
    }
}

/// The "Verdicts" section of any grid's report: one wrapped line per `(generator, verdict)`.
pub(crate) fn verdict_lines(verdicts: &[(String, Verdict)], color: bool) -> String {
    let nw = (verdicts.iter())
        .map(|(name, _)| name.chars().count())
        .max()
        .unwrap_or(0);
    let mut s = String::from("Verdict per generator:\n");
    for (name, v) in verdicts {
        let head = format!("  {name:nw$}  ");
        let wrapped = wrap(&v.text, &head, &" ".repeat(head.chars().count()));
        s += &paint_outcome(&wrapped, v.outcome, color);
    }
    s
}

/// The legend printed under the verdicts (the last item only for a report with the per-wall
/// test).
pub(super) fn legend(per_wall: bool) -> String {
    let items = [
        "τ (tau): how many different perfect mazes this grid has (its spanning trees). A \
         uniform generator makes each of them with probability 1/τ.",
        "p·τ: a maze's probability times τ, so 1 means \"as likely as under uniform\". Min and \
         max p·τ are the least and most likely mazes; 0 means some maze never comes out.",
        "TV (total variation distance): the share of probability that would have to move to \
         make the generator uniform; 0 is uniform, 1 is as far as possible.",
        "chi-square, p-value: how surprising the sampled counts would be from a uniform \
         generator; below α it is called NOT uniform, otherwise consistent (no bias found; \
         sampling cannot prove uniformity).",
        "Bonferroni: the per-wall test looks at every wall, so its p-value is multiplied by \
         the number of walls to keep false alarms at α.",
    ];
    let mut s = String::from("How to read the tables:\n");
    let shown = if per_wall {
        items.len()
    } else {
        items.len() - 1
    };
    for it in &items[..shown] {
        s += &wrap(it, "  - ", "    ");
    }
    s
}

/// `text` word-wrapped to [`WIDTH`] columns, the first line after `first`, the rest after
/// `rest`; every line ends with a newline. A single word longer than a line stays whole.
pub(crate) fn wrap(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let len = line.chars().count();
        if !empty && len + 1 + word.chars().count() > WIDTH {
            out += line.trim_end();
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line += word;
        empty = false;
    }
    out += line.trim_end();
    out.push('\n');
    out
}

/// Wrap every line of `block` that is longer than [`WIDTH`], continuing it indented by its own
/// leading spaces plus two.
pub(crate) fn wrap_lines(block: &str) -> String {
    let mut out = String::new();
    for line in block.lines() {
        if line.chars().count() <= WIDTH {
            out += line;
            out.push('\n');
        } else {
            let indent = line.len() - line.trim_start().len();
            let lead = &line[..indent];
            out += &wrap(line.trim_start(), lead, &format!("{lead}  "));
        }
    }
    out
}

/// Lay out a table of `rows` (the first is the header) with columns right-aligned except those
/// in `left`, two spaces apart, indented by two. Columns after the first `keep` are split into
/// blocks so that no line is wider than [`WIDTH`]; each block repeats the first `keep` columns.
pub fn blocks(rows: &[Vec<String>], left: &[usize], keep: usize) -> String {
    let ncol = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = |c: usize| {
        rows.iter()
            .filter_map(|r| r.get(c))
            .map(|x| x.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..ncol).map(width).collect();
    let base: usize = 2 + widths[..keep.min(ncol)]
        .iter()
        .map(|w| w + 2)
        .sum::<usize>();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut cur: Vec<usize> = Vec::new();
    let mut used = base;
    for (c, &cw) in widths.iter().enumerate().skip(keep.min(ncol)) {
        if !cur.is_empty() && used + cw > WIDTH {
            groups.push(std::mem::take(&mut cur));
            used = base;
        }
        used += cw + 2;
        cur.push(c);
    }
    if !cur.is_empty() || groups.is_empty() {
        groups.push(cur);
    }
    let mut out = String::new();
    for (g, cols) in groups.iter().enumerate() {
        if g > 0 {
            out.push('\n');
        }
        for r in rows {
            let mut line = String::from(" ");
            for &c in (0..keep.min(ncol)).collect::<Vec<_>>().iter().chain(cols) {
                let cell = r.get(c).map_or("", String::as_str);
                let w = widths[c];
                line.push(' ');
                if left.contains(&c) {
                    line += &format!("{cell:w$}");
                } else {
                    line += &format!("{cell:>w$}");
                }
                line.push(' ');
            }
            out += line.trim_end();
            out.push('\n');
        }
    }
    out
}

/// Colour the verdict words of `text` (green for passes, red for biased) when `color`.
pub(crate) fn paint_outcome(text: &str, outcome: Outcome, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    let (word, sgr) = match outcome {
        Outcome::Uniform => (
            if text.contains("uniform as far") {
                "uniform as far as measured"
            } else {
                "uniform"
            },
            "1;32",
        ),
        Outcome::Biased => ("biased", "1;31"),
        Outcome::Unknown => return text.to_string(),
    };
    text.replacen(word, &format!("\x1b[{sgr}m{word}\x1b[0m"), 1)
}

/// Colour a table verdict cell (`NOT uniform` red, `consistent` / `uniform (exact)` green).
pub(crate) fn paint_cell(text: &str, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    for (word, sgr) in [
        ("NOT uniform", "1;31"),
        ("biased", "1;31"),
        ("consistent", "1;32"),
        ("uniform", "1;32"),
    ] {
        if text.contains(word) {
            return text.replacen(word, &format!("\x1b[{sgr}m{word}\x1b[0m"), 1);
        }
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_lines_within_the_width() {
        let text = "word ".repeat(80);
        let w = wrap(&text, "  - ", "    ");
        assert!(w.lines().count() > 3);
        assert!(w.lines().all(|l| l.chars().count() <= WIDTH));
        assert!(w.starts_with("  - word"));
        assert!(w.lines().skip(1).all(|l| l.starts_with("    word")));
        assert_eq!(w.split_whitespace().filter(|x| *x == "word").count(), 80);
    }

    #[test]
    fn wide_tables_are_split_into_blocks() {
        let head: Vec<String> = std::iter::once("wall".to_string())
            .chain((0..20).map(|i| format!("generator-{i:02}")))
            .collect();
        let row: Vec<String> = std::iter::once("E(0,0)".to_string())
            .chain((0..20).map(|_| "0.5000".to_string()))
            .collect();
        let t = blocks(&[head, row], &[0], 1);
        assert!(t.lines().all(|l| l.chars().count() <= WIDTH), "{t}");
        // Every generator's column is somewhere, and each block repeats the wall column.
        for i in 0..20 {
            assert!(t.contains(&format!("generator-{i:02}")));
        }
        let blocks = t.split("\n\n").count();
        assert!(blocks >= 3, "{t}");
        assert_eq!(t.matches("E(0,0)").count(), blocks);
    }
}
