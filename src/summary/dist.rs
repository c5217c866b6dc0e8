//! One metric's running statistics within one group: count, mean and standard error by
//! Welford's update on scaled values (no sum that can overflow: a column of 1e308 has mean
//! 1e308, one alternating ±1e308 mean 0 and a finite standard error), the non-finite values
//! counted apart (never folded into the mean), and a value distribution for the quantiles whose
//! memory does not grow with the row count.
//!
//! The running mean and sum of squared deviations are kept divided by a power of two, `scale`,
//! the largest power of two at most the largest magnitude seen (at least 1). Every scaled value
//! is below 2 in magnitude, so a deviation is below 4 and its square below 16: nothing
//! overflows, whatever the values. Dividing by a power of two is exact, so for ordinary values
//! (scale 1, or any scale without underflow) the results are those of the plain update. The
//! mean is at most the largest magnitude, and the standard error at most that too (for two or
//! more values), so both are finite whenever the values are.
//!
//! The distribution is exact while it can be: a dense count per integer value (metric
//! columns are small integers: at most the cell count), else a sorted map of distinct values.
//! Past [`MAX_DISTINCT`] distinct values (timings such as `gen_ns`, or huge mazes) it becomes a
//! logarithmic histogram (DDSketch): every reported quantile is then within a relative
//! [`SKETCH_ALPHA`] (0.5%) of the exact one, and is marked approximate.

use std::collections::BTreeMap;

/// Distinct values kept exactly before switching to the sketch.
pub const MAX_DISTINCT: usize = 1 << 16;
/// Relative accuracy of the sketch's quantiles.
pub const SKETCH_ALPHA: f64 = 0.005;

/// Running statistics of one metric.
#[derive(Clone, Debug, Default)]
pub struct Stat {
    /// Finite values seen.
    n: u64,
    /// Their running mean, divided by `scale`.
    mean: f64,
    /// Their running sum of squared deviations from the mean, divided by `scale²`.
    m2: f64,
    /// A power of two at most the largest magnitude seen, and at least 1 (0 before any value:
    /// read through [`Stat::scale`]).
    scale: f64,
    /// Values left out of the statistics: `+inf`, `-inf`, NaN.
    nonfinite: NonFinite,
    dist: Dist,
}

/// Non-finite values of a column, counted by kind (they take no part in the mean, the standard
/// error or the quantiles).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct NonFinite {
    /// `+inf` values.
    pub pos_inf: u64,
    /// `-inf` values.
    pub neg_inf: u64,
    /// NaN values.
    pub nan: u64,
}

impl NonFinite {
    /// All of them.
    pub fn total(&self) -> u64 {
        self.pos_inf + self.neg_inf + self.nan
    }
}

impl std::fmt::Display for NonFinite {
    /// `2 non-finite (+inf 1, NaN 1)`: only the kinds present.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = [
            ("+inf", self.pos_inf),
            ("-inf", self.neg_inf),
            ("NaN", self.nan),
        ]
        .iter()
        .filter(|p| p.1 > 0)
        .map(|(k, c)| format!("{k} {c}"))
        .collect();
        write!(f, "{} non-finite ({})", self.total(), parts.join(", "))
    }
}

/// The largest power of two at most `|x|` (finite, non-zero `x`): its exponent bits alone.
#[inline]
fn pow2_floor(x: f64) -> f64 {
    f64::from_bits(x.to_bits() & 0x7ff0_0000_0000_0000)
}

#[derive(Clone, Debug)]
enum Dist {
    /// `counts[v]` = rows with value `v` (non-negative integers below [`MAX_DISTINCT`]).
    Dense(Vec<u64>),
    /// Distinct values (as order-preserving bit patterns) and their counts.
    Sparse(BTreeMap<u64, u64>),
    Sketch(Sketch),
}

impl Default for Dist {
    fn default() -> Self {
        Dist::Dense(Vec::new())
    }
}

/// `f64` → `u64` with the same order (total order; NaN last).
fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

fn unkey(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// Logarithmic buckets of ratio γ = (1+α)/(1−α), mirrored for negatives, plus a zero count.
#[derive(Clone, Debug, Default)]
struct Sketch {
    pos: BTreeMap<i32, u64>,
    neg: BTreeMap<i32, u64>,
    zero: u64,
}

impl Sketch {
    fn gamma_ln() -> f64 {
        ((1.0 + SKETCH_ALPHA) / (1.0 - SKETCH_ALPHA)).ln()
    }
    fn add(&mut self, x: f64, c: u64) {
        if x == 0.0 || !x.is_finite() {
            self.zero += c;
            return;
        }
        let i = (x.abs().ln() / Self::gamma_ln()).ceil() as i32;
        let side = if x > 0.0 {
            &mut self.pos
        } else {
            &mut self.neg
        };
        *side.entry(i).or_default() += c;
    }
    /// The representative value of bucket `i`: within α of every value in it.
    fn value(i: i32) -> f64 {
        let g = Self::gamma_ln().exp();
        2.0 * g.powi(i) / (g + 1.0)
    }
    /// `(value, count)` in ascending order.
    fn items(&self) -> Vec<(f64, u64)> {
        let mut v: Vec<(f64, u64)> = self
            .neg
            .iter()
            .rev()
            .map(|(&i, &c)| (-Self::value(i), c))
            .collect();
        if self.zero > 0 {
            v.push((0.0, self.zero));
        }
        v.extend(self.pos.iter().map(|(&i, &c)| (Self::value(i), c)));
        v
    }
}

impl Stat {
    /// Add one value.
    #[inline]
    pub fn add(&mut self, x: f64) {
        if !x.is_finite() {
            self.add_nonfinite(x);
            return;
        }
        self.n += 1;
        if x.abs() >= 2.0 * self.scale() {
            self.rescale(pow2_floor(x));
        }
        let xs = x / self.scale();
        let d = xs - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (xs - self.mean);
        match &mut self.dist {
            Dist::Dense(c) if x >= 0.0 && x < MAX_DISTINCT as f64 && x.fract() == 0.0 => {
                let i = x as usize;
                if i >= c.len() {
                    c.resize(i + 1, 0);
                }
                c[i] += 1;
            }
            _ => self.add_slow(x, 1),
        }
    }

    /// The current scale (1 before any value).
    #[inline]
    fn scale(&self) -> f64 {
        self.scale.max(1.0)
    }

    /// Move to the larger power of two `to`: exact factors, so only contributions far below the
    /// new scale's precision are lost.
    #[cold]
    fn rescale(&mut self, to: f64) {
        let r = self.scale() / to;
        self.mean *= r;
        self.m2 *= r * r;
        self.scale = to;
    }

    #[cold]
    fn add_nonfinite(&mut self, x: f64) {
        if x.is_nan() {
            self.nonfinite.nan += 1;
        } else if x > 0.0 {
            self.nonfinite.pos_inf += 1;
        } else {
            self.nonfinite.neg_inf += 1;
        }
    }

    #[cold]
    fn add_slow(&mut self, x: f64, c: u64) {
        if let Dist::Dense(d) = &self.dist {
            self.dist = Dist::Sparse(
                d.iter()
                    .enumerate()
                    .filter(|(_, &c)| c > 0)
                    .map(|(v, &c)| (key(v as f64), c))
                    .collect(),
            );
        }
        match &mut self.dist {
            Dist::Sparse(m) => {
                *m.entry(key(x)).or_default() += c;
                if m.len() > MAX_DISTINCT {
                    let mut s = Sketch::default();
                    for (&k, &c) in m.iter() {
                        s.add(unkey(k), c);
                    }
                    self.dist = Dist::Sketch(s);
                }
            }
            Dist::Sketch(s) => s.add(x, c),
            Dist::Dense(_) => unreachable!("converted above"),
        }
    }

    /// Fold `other` (of the same metric) into `self`.
    pub fn merge(&mut self, other: &Stat) {
        self.nonfinite.pos_inf += other.nonfinite.pos_inf;
        self.nonfinite.neg_inf += other.nonfinite.neg_inf;
        self.nonfinite.nan += other.nonfinite.nan;
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            let nonfinite = self.nonfinite;
            *self = other.clone();
            self.nonfinite = nonfinite;
            return;
        }
        // Chan et al.'s pairwise combination of (n, mean, M2), at the larger of the two scales
        // (every scaled mean below 2, so nothing overflows).
        if other.scale() > self.scale() {
            self.rescale(other.scale());
        }
        let r = other.scale() / self.scale();
        let (other_mean, other_m2) = (other.mean * r, other.m2 * r * r);
        let (na, nb) = (self.n as f64, other.n as f64);
        let n = na + nb;
        let delta = other_mean - self.mean;
        self.m2 += other_m2 + delta * delta * (na * nb / n);
        self.mean += delta * (nb / n);
        self.n += other.n;
        match (&mut self.dist, &other.dist) {
            (Dist::Dense(a), Dist::Dense(b)) => {
                if b.len() > a.len() {
                    a.resize(b.len(), 0);
                }
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
            }
            _ => {
                for (v, c) in other.items() {
                    self.add_slow(v, c);
                }
            }
        }
    }

    /// `(value, count)` in ascending order (bucket representatives for a sketch).
    pub fn items(&self) -> Vec<(f64, u64)> {
        match &self.dist {
            Dist::Dense(c) => c
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(v, &c)| (v as f64, c))
                .collect(),
            Dist::Sparse(m) => m.iter().map(|(&k, &c)| (unkey(k), c)).collect(),
            Dist::Sketch(s) => s.items(),
        }
    }

    /// Finite values seen (the ones the statistics describe).
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The non-finite values seen, by kind.
    pub(crate) fn nonfinite(&self) -> NonFinite {
        self.nonfinite
    }

    /// Arithmetic mean of the finite values (NaN when there are none).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.mean * self.scale()
        }
    }

    /// Standard error of the mean: sample standard deviation / √n (0 for one row).
    pub fn std_err(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let var = (self.m2 / (n - 1.0)).max(0.0);
        (var / n).sqrt() * self.scale()
    }

    /// Are the quantiles exact (no sketch)?
    pub fn exact(&self) -> bool {
        !matches!(self.dist, Dist::Sketch(_))
    }

    /// Quantiles by linear interpolation between order statistics (DuckDB's `quantile_cont`,
    /// pandas' default): position `q·(n−1)`.
    pub fn quantiles(&self, qs: &[f64]) -> Vec<f64> {
        let items = self.items();
        let at = |rank: u64| -> f64 {
            let mut seen = 0;
            for &(v, c) in &items {
                seen += c;
                if rank < seen {
                    return v;
                }
            }
            items.last().map_or(f64::NAN, |l| l.0)
        };
        qs.iter()
            .map(|&q| {
                if self.n == 0 {
                    return f64::NAN;
                }
                let pos = q * (self.n - 1) as f64;
                let lo = pos.floor();
                let (a, b) = (at(lo as u64), at(pos.ceil() as u64));
                let t = pos - lo;
                if (b - a).is_finite() {
                    a + (b - a) * t
                } else {
                    // Ends of opposite sign near the f64 limit: weights, not their difference.
                    a * (1.0 - t) + b * t
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact_quantile(sorted: &[f64], q: f64) -> f64 {
        let pos = q * (sorted.len() - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
    }

    #[test]
    fn exact_paths_match_sorting_and_merging_is_order_free() {
        // Integers (dense), then fractions (sparse): both exact.
        for frac in [false, true] {
            let vals: Vec<f64> = (0..5000u64)
                .map(|i| {
                    let v = ((i * 7919) % 1013) as f64;
                    if frac {
                        v / 7.0
                    } else {
                        v
                    }
                })
                .collect();
            let (mut a, mut b, mut all) = (Stat::default(), Stat::default(), Stat::default());
            for (i, &v) in vals.iter().enumerate() {
                all.add(v);
                if i % 3 == 0 { &mut a } else { &mut b }.add(v);
            }
            a.merge(&b);
            let mut s = vals.clone();
            s.sort_by(f64::total_cmp);
            let qs = [0.05, 0.25, 0.5, 0.75, 0.95];
            for st in [&a, &all] {
                assert!(st.exact());
                let got = st.quantiles(&qs);
                for (q, g) in qs.iter().zip(got) {
                    assert_eq!(g, exact_quantile(&s, *q), "q={q}");
                }
                let mean = s.iter().sum::<f64>() / s.len() as f64;
                assert!((st.mean() - mean).abs() < 1e-9 * mean);
                let var = s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (s.len() - 1) as f64;
                let se = (var / s.len() as f64).sqrt();
                assert!(
                    (st.std_err() - se).abs() < 1e-9 * se,
                    "{} {se}",
                    st.std_err()
                );
            }
        }
    }

    #[test]
    fn huge_and_non_finite_values() {
        // A shifted or plain sum of 1e308s overflows; the running mean does not.
        let mut st = Stat::default();
        for _ in 0..1000 {
            st.add(1e308);
        }
        assert_eq!(st.mean(), 1e308);
        assert_eq!(st.std_err(), 0.0);
        let mut wide = Stat::default();
        for x in [-1.7e308, 1.7e308, -1.7e308, 1.7e308] {
            wide.add(x);
        }
        assert_eq!(wide.mean(), 0.0);
        let se = 1.7e308 / 3f64.sqrt();
        assert!(
            (wide.std_err() - se).abs() <= 1e-9 * se,
            "{}",
            wide.std_err()
        );
        assert_eq!(wide.quantiles(&[0.5]), vec![0.0]);
        // Alternating ±1e308, merged from parts: mean 0, a finite standard error.
        let (mut a, mut b) = (Stat::default(), Stat::default());
        for i in 0..1001 {
            let x = if i % 2 == 0 { 1e308 } else { -1e308 };
            if i < 300 { &mut a } else { &mut b }.add(x);
        }
        a.merge(&b);
        assert!((a.mean() - 1e308 / 1001.0).abs() <= 1e295, "{}", a.mean());
        // M2 = Σx² − n·mean² = (1001 − 1/1001)·1e616.
        let se = ((1001.0 - 1.0 / 1001.0) / 1000.0 / 1001.0f64).sqrt() * 1e308;
        assert!((a.std_err() - se).abs() <= 1e-9 * se, "{}", a.std_err());
        assert_eq!(a.quantiles(&[0.5]), vec![1e308]);
        // Infinities and NaN are counted apart, and the rest is described as if they were absent.
        let mut st = Stat::default();
        for x in [
            1.0,
            f64::INFINITY,
            2.0,
            f64::NAN,
            f64::NEG_INFINITY,
            3.0,
            f64::INFINITY,
        ] {
            st.add(x);
        }
        assert_eq!(st.count(), 3);
        assert_eq!(st.mean(), 2.0);
        assert_eq!(
            st.nonfinite(),
            NonFinite {
                pos_inf: 2,
                neg_inf: 1,
                nan: 1
            }
        );
        assert_eq!(
            st.nonfinite().to_string(),
            "4 non-finite (+inf 2, -inf 1, NaN 1)"
        );
        assert_eq!(st.quantiles(&[0.0, 1.0]), vec![1.0, 3.0]);
        let mut other = Stat::default();
        other.add(f64::NAN);
        other.add(1e308);
        st.merge(&other);
        assert_eq!(st.nonfinite().nan, 2);
        assert_eq!(st.count(), 4);
        assert!((st.mean() - 2.5e307).abs() <= 1e293);
    }

    #[test]
    fn the_sketch_stays_within_its_bound() {
        let mut st = Stat::default();
        let vals: Vec<f64> = (0..300_000u64)
            .map(|i| 1000.0 + ((i * 2_654_435_761) % 1_000_003) as f64 * 1.37)
            .collect();
        for &v in &vals {
            st.add(v);
        }
        assert!(!st.exact());
        let mut s = vals.clone();
        s.sort_by(f64::total_cmp);
        for q in [0.05, 0.25, 0.5, 0.75, 0.95] {
            let got = st.quantiles(&[q])[0];
            let want = exact_quantile(&s, q);
            assert!(
                (got - want).abs() <= SKETCH_ALPHA * want,
                "q={q}: {got} vs {want}"
            );
        }
    }
}
