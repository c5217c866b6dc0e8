//! Statistics for the sampling test: Pearson's chi-square p-value via the regularized upper
//! incomplete gamma function, implemented here (series for `x < a + 1`, Lentz's continued
//! fraction otherwise, as in Numerical Recipes §6.2) with a Lanczos `ln Γ`.
//!
//! Not the `statrs` crate's `gamma_ur`: it is as precise against the exact values of the tests
//! below, but it rounds differently in the last digits, so the p-values the uniformity report
//! prints (and its byte-for-byte reference files in `tests/json/`) would change.

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, n = 9; relative error below 1e-15).
pub(crate) fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1−x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized upper incomplete gamma function `Q(a, x) = Γ(a, x) / Γ(a)`, `a > 0`, `x ≥ 0`.
pub(crate) fn gamma_q(a: f64, x: f64) -> f64 {
    assert!(a > 0.0 && x >= 0.0, "gamma_q({a}, {x}) out of domain");
    if x == 0.0 {
        return 1.0;
    }
    if x < a + 1.0 {
        1.0 - gamma_p_series(a, x)
    } else {
        gamma_q_continued_fraction(a, x)
    }
}

/// The regularized lower incomplete gamma function `P(a, x) = 1 − Q(a, x)`.
pub fn gamma_p(a: f64, x: f64) -> f64 {
    if x < a + 1.0 {
        gamma_p_series(a, x)
    } else {
        1.0 - gamma_q_continued_fraction(a, x)
    }
}

fn gamma_p_series(a: f64, x: f64) -> f64 {
    let mut ap = a;
    let mut sum = 1.0 / a;
    let mut del = sum;
    for _ in 0..10_000 {
        ap += 1.0;
        del *= x / ap;
        sum += del;
        if del.abs() < sum.abs() * 1e-16 {
            break;
        }
    }
    sum * (-x + a * x.ln() - ln_gamma(a)).exp()
}

fn gamma_q_continued_fraction(a: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..10_000 {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x + a * x.ln() - ln_gamma(a)).exp() * h
}

/// Upper-tail p-value of a chi-square statistic with `df` degrees of freedom. With `df = 0`
/// (a single category, e.g. the one spanning tree of a one-cell-wide grid) the distribution is
/// a point mass at 0: the p-value is 1 for a zero statistic, 0 otherwise.
pub fn chi_square_p_value(statistic: f64, df: f64) -> f64 {
    if df <= 0.0 {
        return if statistic > 0.0 { 0.0 } else { 1.0 };
    }
    gamma_q(df / 2.0, statistic.max(0.0) / 2.0)
}

/// Pearson's chi-square statistic of observed counts against equal expected counts
/// `total / categories` (categories never observed contribute their expected count).
pub(crate) fn chi_square_uniform(observed: &[u64], categories: u64) -> f64 {
    let total: u64 = observed.iter().sum();
    let e = total as f64 / categories as f64;
    let seen: f64 = observed
        .iter()
        .map(|&o| (o as f64 - e) * (o as f64 - e) / e)
        .sum();
    let unseen = categories.saturating_sub(observed.len() as u64) as f64 * e;
    seen + unseen
}

/// How surprising `unseen` never-drawn categories are after `samples` uniform draws over
/// `categories`: the expected number of empty categories, `μ = τ(1 − 1/τ)^n`, and the
/// upper-tail p-value of `unseen` under the normal approximation of the occupancy problem
/// (variance `τ(τ−1)(1 − 2/τ)^n + μ − μ²`), which holds when μ is not tiny.
pub(crate) fn unseen_p_value(unseen: u64, categories: u64, samples: u64) -> (f64, f64) {
    let (t, n) = (categories as f64, samples as f64);
    if categories < 2 {
        return (0.0, if unseen == 0 { 1.0 } else { 0.0 });
    }
    let mu = t * (n * (-1.0 / t).ln_1p()).exp();
    let pair = t * (t - 1.0) * (n * (-2.0 / t).ln_1p()).exp();
    let var = (pair + mu - mu * mu).max(0.0);
    let z = (unseen as f64 - mu) / var.sqrt().max(1e-12);
    // Upper normal tail Q(z) = erfc(z/√2)/2, erfc(x) = Q(½, x²) for x ≥ 0.
    let tail = 0.5 * gamma_q(0.5, z * z / 2.0);
    (mu, if z >= 0.0 { tail } else { 1.0 - tail })
}

/// The upper-`alpha` quantile of the chi-square distribution with `df` degrees of freedom
/// (bisection on [`chi_square_p_value`]).
pub(crate) fn chi_square_critical(df: f64, alpha: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, df + 100.0 * (2.0 * df).sqrt() + 100.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if chi_square_p_value(mid, df) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Noncentrality per sample of Pearson's statistic against uniform when the true distribution
/// over `tau` categories is `p` (categories absent from `p` have probability 0):
/// `λ / N = τ · Σ (p_i − 1/τ)²`. With N samples the statistic is approximately noncentral
/// chi-square with `τ − 1` degrees of freedom and noncentrality `λ = N · this`.
pub fn noncentrality_per_sample(p: &[f64], tau: u64) -> f64 {
    let u = 1.0 / tau as f64;
    let t = tau as f64;
    let seen: f64 = p.iter().map(|&x| (x - u) * (x - u)).sum();
    let unseen = tau.saturating_sub(p.len() as u64) as f64 * u * u;
    t * (seen + unseen)
}

/// Power of the chi-square test at level `alpha` against noncentrality `lambda` (normal
/// approximation of the noncentral chi-square: mean `df + λ`, variance `2(df + 2λ)`).
/// With `df = 0` there is nothing to detect (one category cannot be non-uniform): power 0.
pub fn chi_square_power(df: f64, lambda: f64, alpha: f64) -> f64 {
    if df <= 0.0 {
        return 0.0;
    }
    let c = chi_square_critical(df, alpha);
    let z = (df + lambda - c) / (2.0 * (df + 2.0 * lambda)).sqrt();
    // Φ(z) = 1 − Q(1/2, z²/2)/2 for z ≥ 0.
    if z >= 0.0 {
        1.0 - 0.5 * gamma_q(0.5, z * z / 2.0)
    } else {
        0.5 * gamma_q(0.5, z * z / 2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unseen_mazes_are_judged_against_their_expectation() {
        // 4x4: τ = 100,352 spanning trees, 504,000 uniform samples leave about 661 unseen.
        let (mu, p) = unseen_p_value(671, 100_352, 504_000);
        assert!((mu - 661.2).abs() < 0.5, "{mu}");
        assert!(p > 0.2 && p < 0.5, "{p}");
        let (_, p) = unseen_p_value(1508, 100_352, 504_000);
        assert!(p < 1e-100, "{p}");
        let (_, p) = unseen_p_value(600, 100_352, 504_000);
        assert!(p > 0.99, "{p}");
        // The mean is exact: 3 categories, 4 draws, each empty with probability (2/3)^4.
        let (mu, _) = unseen_p_value(0, 3, 4);
        assert!((mu - 3.0 * (2.0f64 / 3.0).powi(4)).abs() < 1e-12);
    }

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    #[test]
    fn ln_gamma_known_values() {
        assert!(close(ln_gamma(1.0), 0.0, 1e-15) || ln_gamma(1.0).abs() < 1e-15);
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-14
        ));
        assert!(close(ln_gamma(10.0), 362_880f64.ln(), 1e-14));
        assert!(close(ln_gamma(100.5), 361.435_540_467_777_6, 1e-13));
    }

    #[test]
    fn chi_square_quantiles() {
        // (df, upper-alpha quantile, alpha): standard chi-square table values.
        let table = [
            (1.0, 3.841_458_820_694_124, 0.05),
            (1.0, 10.827_566_170_662_733, 0.001),
            (2.0, 13.815_510_557_964_274, 0.001),
            (10.0, 18.307_038_053_275_146, 0.05),
            (14.0, 36.123_273_680_398_13, 0.001),
            (14.0, 23.684_791_304_840_576, 0.05),
            (100.0, 124.342_113_404_1, 0.05),
            // Not quantiles: p-values from the closed forms (erfc plus a finite sum for odd
            // df, a finite Poisson sum for even df), evaluated independently.
            (191.0, 260.0, 6.629_764_451_537_117e-4),
            (191.0, 150.0, 0.987_298_665_538_483_6),
            (1000.0, 1100.0, 0.014_614_408_126_291_067),
            (7.0, 2.0, 0.959_840_368_730_101_5),
            (15.0, 20.0, 0.171_932_689_376_601_22),
            (3.0, 0.5, 0.918_891_411_654_676),
        ];
        for (df, x, alpha) in table {
            let p = chi_square_p_value(x, df);
            assert!(close(p, alpha, 1e-8), "df {df}: p({x}) = {p}, want {alpha}");
        }
        // df = 2: Q(1, x/2) = exp(−x/2) exactly.
        for x in [0.1, 1.0, 5.0, 40.0] {
            assert!(close(
                chi_square_p_value(x, 2.0),
                (-x / 2.0f64).exp(),
                1e-13
            ));
        }
        assert_eq!(chi_square_p_value(0.0, 5.0), 1.0);
        assert!(close(gamma_p(3.0, 2.0) + gamma_q(3.0, 2.0), 1.0, 1e-15));
    }

    #[test]
    fn critical_values_and_power() {
        assert!((chi_square_critical(1.0, 0.05) - 3.841_458_820_694_124).abs() < 1e-9);
        assert!((chi_square_critical(14.0, 0.001) - 36.123_273_680_398_13).abs() < 1e-8);
        // No effect: power = alpha (up to the normal approximation); huge effect: power 1.
        assert!(chi_square_power(191.0, 2000.0, 0.001) > 0.999_999);
        assert!(chi_square_power(191.0, 0.0, 0.001) < 0.01);
        // A distribution with half the categories empty: λ/N = τ · τ/2 · (1/τ)² · 2 = 1.
        let p = vec![0.25; 4];
        assert!((noncentrality_per_sample(&p, 8) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn zero_degrees_of_freedom_do_not_panic() {
        // One category (one spanning tree): the statistic is 0 and p is 1.
        assert_eq!(chi_square_p_value(chi_square_uniform(&[10], 1), 0.0), 1.0);
        assert_eq!(chi_square_p_value(0.5, 0.0), 0.0);
        assert!(chi_square_critical(0.0, 0.05) < 1e-9);
        assert_eq!(chi_square_power(0.0, 0.0, 0.05), 0.0);
    }

    #[test]
    fn chi_square_counts_unseen_categories() {
        assert_eq!(chi_square_uniform(&[10, 10], 2), 0.0);
        // Two categories expected 10 each, only one seen with 20: (10²/10) + 10 = 20.
        assert_eq!(chi_square_uniform(&[20], 2), 20.0);
    }
}
