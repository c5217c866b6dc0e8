//! The uniformity lab against known facts: τ of grid graphs (OEIS A007341 / A116469), the seed
//! study's exhaustive 2×3 Kruskal result, exact distributions summing to exactly 1, chi-square
//! verdicts with fixed seeds, per-wall probabilities (Foster: they sum to W·H − 1), the
//! reference files in `data/uniformity/` (recomputed and compared), and 3D boxes (τ against a
//! brute-force count, chi-square of Wilson and Aldous–Broder on 2×2×2, Kruskal's exact
//! distribution there).
//!
//! Heavy checks are `#[ignore]`d; run them with
//! `cargo test --release --test tests -- --ignored uniformity::` (about 2–3 minutes on 2 cores).

use crate::common;

use batchgen::generate::Algorithm;
use batchgen::grid::Maze;
use batchgen::grid::Size;
use batchgen::uniformity::enumerate::{self, NotEnumerable};
use batchgen::uniformity::kruskal_orders::{count_all_orders, factorial};
use batchgen::uniformity::sample::{chi_square, sample};
use batchgen::uniformity::stats::{chi_square_power, noncentrality_per_sample};
use batchgen::uniformity::{interior_walls, kirchhoff, tree_code, wall_bias};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn big(s: &str) -> BigInt {
    s.parse().unwrap()
}

#[test]
fn spanning_tree_counts() {
    let known = [
        (2, 2, "4"),
        (2, 3, "15"),
        (3, 2, "15"),
        (3, 3, "192"),
        (2, 4, "56"),
        (3, 4, "2415"),
        (4, 4, "100352"),
        (5, 5, "557568000"),
        (8, 8, "126231322912498539682594816"),
        (1, 7, "1"),
    ];
    for (w, h, t) in known {
        assert_eq!(
            kirchhoff::spanning_trees(Size::planar(w, h)),
            big(t),
            "{w}x{h}"
        );
    }
}

#[test]
fn kruskal_2x3_matches_the_study_by_both_routes() {
    // Brute force: all 7! orders.
    let r = count_all_orders(Size::planar(2, 3));
    assert_eq!(r.orders, factorial(7));
    assert_eq!(r.trees.len(), 15);
    let hist: Vec<(u64, u64)> = r.histogram().into_iter().collect();
    assert_eq!(hist, vec![(300, 6), (360, 9)]);
    let walls = interior_walls(Size::planar(2, 3));
    let centre = walls
        .iter()
        .position(|w| w.label(batchgen::grid::Size::planar(2, 3)) == "E(0,1)")
        .unwrap();
    assert_eq!(r.open_orders(&walls)[centre], 3240);
    // Trees with the central wall open are exactly the ones produced 360 times.
    for (k, c) in &r.trees {
        assert_eq!(walls[centre].open_in(k), *c == 360);
    }
    // Choice-tree route through the real generator: a leaf at depth i stands for (E−i)! orders.
    let d = enumerate::exact_distribution(&Algorithm::Kruskal, Size::planar(2, 3)).unwrap();
    assert_eq!(d.total(), BigRational::one());
    let from_orders: Vec<_> = r
        .trees
        .iter()
        .map(|(k, c)| (k.clone(), BigRational::new((*c).into(), 5040.into())))
        .collect();
    assert_eq!(d.trees, from_orders);
    assert_eq!(
        d.tv_from_uniform(&15.into()),
        BigRational::new(3.into(), 70.into())
    );
}

/// Every generator: either enumerable on 2×3 and 3×3 (then its probabilities sum to exactly 1,
/// every tree it produces is a perfect maze, and a generator claiming uniformity is exactly
/// uniform), or not enumerable for a stated reason (unbounded walk or float draws).
#[test]
fn exact_distributions_of_every_generator_sum_to_one() {
    for (w, h) in [(2, 2), (2, 3), (3, 3)] {
        let tau = kirchhoff::spanning_trees(Size::planar(w, h));
        for algo in Algorithm::all() {
            match enumerate::estimate(&algo, Size::planar(w, h), 500) {
                Err(e) => assert!(
                    matches!(
                        e,
                        NotEnumerable::Unbounded { .. } | NotEnumerable::UsesFloat
                    ),
                    "{}: {e}",
                    algo.name()
                ),
                Ok(est) if est.seconds(2) > 5.0 => continue, // Kruskal 3×3: see the ignored test
                Ok(_) => {
                    let d = enumerate::exact_distribution(&algo, Size::planar(w, h)).unwrap();
                    assert_eq!(d.total(), BigRational::one(), "{} {w}x{h}", algo.name());
                    for (k, p) in &d.trees {
                        assert!(*p > BigRational::zero());
                        assert!(Maze::from_words(w, h, k).unwrap().is_perfect());
                    }
                    assert!(BigInt::from(d.trees.len()) <= tau);
                    if algo.is_uniform() {
                        assert!(d.tv_from_uniform(&tau).is_zero(), "{}", algo.name());
                    }
                }
            }
        }
    }
    assert!(matches!(
        enumerate::exact_distribution(&Algorithm::Wilson, Size::planar(2, 3)),
        Err(NotEnumerable::Unbounded { .. })
    ));
}

#[test]
fn backtracker_exact_on_3x3() {
    let d = enumerate::exact_distribution(&Algorithm::Backtracker, Size::planar(3, 3)).unwrap();
    assert_eq!(d.total(), BigRational::one());
    assert_eq!(d.trees.len(), 14);
    assert_eq!(
        d.tv_from_uniform(&192.into()),
        BigRational::new(89.into(), 96.into())
    );
}

#[test]
fn per_wall_probabilities_sum_to_cells_minus_one() {
    for (w, h) in [
        (1, 2),
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (2, 4),
        (3, 4),
        (4, 4),
        (5, 5),
        (8, 8),
    ] {
        let p = wall_bias::uniform_open_exact(Size::planar(w, h));
        assert_eq!(p.len(), interior_walls(Size::planar(w, h)).len());
        let s = p.iter().fold(BigRational::zero(), |a, x| a + x);
        assert_eq!(s, BigRational::from_integer((w * h - 1).into()), "{w}x{h}");
        assert!(p
            .iter()
            .all(|x| *x > BigRational::zero() && *x <= BigRational::one()));
        let f: f64 = wall_bias::uniform_open_f64(Size::planar(w, h)).iter().sum();
        assert!((f - (w * h - 1) as f64).abs() < 1e-9);
    }
    let p = wall_bias::uniform_open_exact(Size::planar(2, 3));
    let i = interior_walls(Size::planar(2, 3))
        .iter()
        .position(|w| w.label(batchgen::grid::Size::planar(2, 3)) == "E(0,1)")
        .unwrap();
    assert_eq!(p[i], BigRational::new(3.into(), 5.into()));
    // A bridge (1×n path) is in every tree.
    assert!(wall_bias::uniform_open_exact(Size::planar(1, 4))
        .iter()
        .all(|x| x.is_one()));
}

#[test]
fn wilson_passes_chi_square_on_2x3_and_3x3() {
    for (w, h, tau) in [(2, 3, 15u64), (3, 3, 192)] {
        let s = sample(&Algorithm::Wilson, Size::planar(w, h), 504_000, 42, true);
        let counts: Vec<u64> = s.trees.unwrap().iter().map(|t| t.1).collect();
        let chi = chi_square(&counts, tau);
        assert!(chi.p_value >= 0.001, "wilson {w}x{h}: {chi:?}");
        assert_eq!(chi.unseen, 0);
    }
}

fn load(name: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/uniformity")
        .join(name);
    let s = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str::<Value>(&s).unwrap()
}

/// Kruskal's exact 3×3 distribution (tree code → orders out of 12!) from the reference file.
fn kruskal_3x3_reference() -> BTreeMap<String, u64> {
    tree_orders(&load("3x3.json")).into_iter().collect()
}

/// A reference file's Kruskal order counts, in its order: (tree code, orders).
fn tree_orders(v: &Value) -> Vec<(String, u64)> {
    v.get("kruskal_orders")
        .and_then(|o| o.get("tree_orders"))
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .map(|t| {
            (
                t.get("tree").and_then(Value::as_str).unwrap().to_string(),
                t.get("orders").and_then(Value::as_u64).unwrap(),
            )
        })
        .collect()
}

/// Kruskal and backtracker fail the chi-square test on 3×3 at a sample size chosen from their
/// exact distributions. Pearson's statistic against uniform is approximately noncentral
/// chi-square with τ − 1 = 191 df and noncentrality λ = N·τ·Σ(p − 1/τ)². Kruskal's exact
/// distribution (all 12! orders, `data/uniformity/3x3.json`) gives λ/N ≈ 0.027, so N = 20,000
/// gives λ ≈ 530: mean 721 against the α = 0.001 critical value 255.9, sd ≈ 36, power ≈ 1 − 1e-30.
/// Backtracker (14 of 192 trees, 89/96 TV) gives λ/N ≈ 12.7: it fails at any N in the hundreds.
#[test]
fn kruskal_and_backtracker_fail_chi_square_on_3x3() {
    let tau = 192u64;
    let reference = kruskal_3x3_reference();
    assert_eq!(reference.len(), 192);
    assert_eq!(reference.values().sum::<u64>(), 479_001_600);
    let pk: Vec<f64> = reference
        .values()
        .map(|&c| c as f64 / 479_001_600.0)
        .collect();
    let lam_k = noncentrality_per_sample(&pk, tau);
    let db = enumerate::exact_distribution(&Algorithm::Backtracker, Size::planar(3, 3)).unwrap();
    let pb: Vec<f64> = db.trees.iter().map(|t| t.1.to_f64().unwrap()).collect();
    let lam_b = noncentrality_per_sample(&pb, tau);
    assert!(lam_k > 0.02 && lam_k < 0.04, "kruskal λ/N = {lam_k}");
    assert!(lam_b > 10.0, "backtracker λ/N = {lam_b}");
    for (algo, lam, n) in [
        (Algorithm::Kruskal, lam_k, 20_000u64),
        (Algorithm::Backtracker, lam_b, 2_000),
    ] {
        let power = chi_square_power(191.0, lam * n as f64, 0.001);
        assert!(power > 1.0 - 1e-9, "{}: power {power}", algo.name());
        let s = sample(&algo, Size::planar(3, 3), n, 42, true);
        let counts: Vec<u64> = s.trees.unwrap().iter().map(|t| t.1).collect();
        let chi = chi_square(&counts, tau);
        assert!(chi.p_value < 0.001, "{}: {chi:?}", algo.name());
    }
    // Wilson at the same Kruskal sample size still passes (same seed).
    let s = sample(&Algorithm::Wilson, Size::planar(3, 3), 20_000, 42, true);
    let counts: Vec<u64> = s.trees.unwrap().iter().map(|t| t.1).collect();
    assert!(chi_square(&counts, tau).p_value >= 0.001);
}

/// Compare the exact parts of a reference file with a fresh computation: τ, per-wall uniform
/// probabilities, Kruskal's orders (when `orders` is set), and every enumerated generator that
/// still exists and whose walk is estimated under `max_seconds`.
fn check_reference(
    name: &str,
    w: u32,
    h: u32,
    orders: bool,
    max_seconds: f64,
) -> Option<batchgen::uniformity::kruskal_orders::OrderCounts> {
    let v = load(name);
    let grid = v.get("grid").unwrap();
    assert_eq!(grid.get("width").and_then(Value::as_u64), Some(w as u64));
    assert_eq!(grid.get("height").and_then(Value::as_u64), Some(h as u64));
    let tau = kirchhoff::spanning_trees(Size::planar(w, h));
    assert_eq!(
        v.get("spanning_trees")
            .and_then(|t| t.get("exact"))
            .and_then(Value::as_str),
        Some(tau.to_string().as_str())
    );
    let p = wall_bias::uniform_open_exact(Size::planar(w, h));
    let ref_walls = v.get("walls").and_then(Value::as_array).unwrap();
    assert_eq!(ref_walls.len(), p.len());
    for (r, x) in ref_walls.iter().zip(&p) {
        let s = r.get("uniform_open").and_then(Value::as_str).unwrap();
        let want = if x.denom().is_one() {
            x.numer().to_string()
        } else {
            format!("{}/{}", x.numer(), x.denom())
        };
        assert_eq!(s, want);
    }
    let mut counted = None;
    if orders {
        let r = count_all_orders(Size::planar(w, h));
        let want: Vec<(String, u64)> = r.trees.iter().map(|(k, c)| (tree_code(k), *c)).collect();
        let got = tree_orders(&v);
        assert_eq!(got, want);
        counted = Some(r);
    }
    let mut compared = 0;
    for g in v.get("generators").and_then(Value::as_array).unwrap() {
        let name = g.get("algo").and_then(Value::as_str).unwrap();
        let Ok(algo) = Algorithm::parse(name) else {
            continue; // a generator that no longer exists
        };
        let exact = g.get("exact").unwrap();
        if exact.get("status").and_then(Value::as_str) != Some("done") {
            continue;
        }
        if enumerate::estimate(&algo, Size::planar(w, h), 500)
            .unwrap()
            .seconds(2)
            > max_seconds
        {
            continue;
        }
        let d = enumerate::exact_distribution(&algo, Size::planar(w, h)).unwrap();
        let want: Vec<(String, String)> = d
            .trees
            .iter()
            .map(|(k, p)| {
                let s = if p.denom().is_one() {
                    p.numer().to_string()
                } else {
                    format!("{}/{}", p.numer(), p.denom())
                };
                (tree_code(k), s)
            })
            .collect();
        let got: Vec<(String, String)> = exact
            .get("distribution")
            .and_then(Value::as_array)
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t.get("tree").and_then(Value::as_str).unwrap().to_string(),
                    t.get("p").and_then(Value::as_str).unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(got, want, "{name} {w}x{h}");
        compared += 1;
    }
    assert!(compared > 0, "{name}: no generator compared");
    counted
}

#[test]
fn reference_2x3_matches() {
    check_reference("2x3.json", 2, 3, true, 60.0).unwrap();
}

#[test]
fn reference_3x3_matches_fast_parts() {
    check_reference("3x3.json", 3, 3, false, 5.0);
}

/// All 12! = 479,001,600 Kruskal orders on 3×3 plus the 1.1·10⁸-leaf choice-tree walk of the
/// real generator (about 1.5 min on 2 cores). Run with
/// `cargo test --release --test tests -- --ignored uniformity::reference_3x3`.
#[test]
#[ignore]
fn reference_3x3_matches_exhaustively() {
    // Compares every enumerated generator, Kruskal's 1.1·10⁸-leaf walk included.
    let r = check_reference("3x3.json", 3, 3, true, f64::INFINITY).unwrap();
    let d = enumerate::exact_distribution(&Algorithm::Kruskal, Size::planar(3, 3)).unwrap();
    let from_orders: Vec<_> = r
        .trees
        .iter()
        .map(|(k, c)| {
            (
                k.clone(),
                BigRational::new((*c).into(), 479_001_600u64.into()),
            )
        })
        .collect();
    assert_eq!(d.trees, from_orders);
}

mod cli {
    //! `batchgen uniformity` end to end.
    use assert_cmd::Command;

    fn batchgen() -> Command {
        Command::cargo_bin("batchgen").unwrap()
    }

    #[test]
    fn two_by_three_prints_the_study_result() {
        let out = batchgen()
            .args([
                "uniformity",
                "--size",
                "2x3",
                "--algo",
                "kruskal,wilson",
                "--samples",
                "30000",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let s = String::from_utf8(out.stdout).unwrap();
        assert!(s.contains("τ = 15"), "{s}");
        assert!(
            s.contains("15 trees: 9 produced by 360 orders each, 6 produced by 300 orders each")
        );
        assert!(s.contains("open in 3,240 of 5,040 orders (64.3%) vs 9 of 15 trees (60.0%)"));
        assert!(s
            .lines()
            .any(|l| l.trim_start().starts_with("wilson") && l.contains("not enumerable")));
    }

    /// `batchgen uniformity ARGS --format json` in `dir`, compared byte for byte with the
    /// reference output `tests/json/FIXTURE` apart from the timings.
    fn same_json_as_fixture(dir: &std::path::Path, args: &[&str], fixture: &str) {
        let out = batchgen()
            .current_dir(dir)
            .arg("uniformity")
            .args(args)
            .args(["--format", "json"])
            .output()
            .unwrap();
        super::common::assert_ok(&out);
        let got = String::from_utf8(out.stdout).unwrap();
        let mask = |s: &str| super::common::mask_json_members(s, &["seconds"]);
        assert_eq!(
            mask(&got),
            mask(&super::common::json_fixture(fixture)),
            "{fixture}"
        );
    }

    #[test]
    fn json_is_the_reference_output_byte_for_byte() {
        let d = tempfile::tempdir().unwrap();
        let all = ["--algo", "all", "--seed", "42"];
        same_json_as_fixture(
            d.path(),
            &[&all[..], &["--size", "2x3", "--samples", "3000"]].concat(),
            "uniformity-2x3.json",
        );
        same_json_as_fixture(
            d.path(),
            &[&all[..], &["--size", "2x1x2", "--samples", "2000"]].concat(),
            "uniformity-2x1x2.json",
        );
        std::fs::write(d.path().join("m.txt"), "...\n..#\n").unwrap();
        same_json_as_fixture(
            d.path(),
            &[&all[..], &["--mask", "m.txt", "--samples", "2000"]].concat(),
            "uniformity-mask.json",
        );
    }

    #[test]
    fn json_is_parseable() {
        let out = batchgen()
            .args([
                "uniformity",
                "--size",
                "2x2",
                "--samples",
                "1000",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let v = serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap();
        assert_eq!(
            v.get("spanning_trees")
                .and_then(|t| t.get("exact"))
                .and_then(|x| x.as_str()),
            Some("4")
        );
    }

    #[test]
    fn bad_input_exits_2() {
        for args in [
            &["uniformity", "--size", "0x3"][..],
            &["uniformity", "--size", "3"],
            &["uniformity", "--size", "2x3", "--algo", "nope"],
            &["uniformity", "--size", "2x3", "--format", "xml"],
        ] {
            let out = batchgen().args(args).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}");
        }
    }

    #[test]
    fn hours_of_work_are_refused_with_an_estimate() {
        let out = batchgen()
            .args([
                "uniformity",
                "--size",
                "256x256",
                "--algo",
                "wilson",
                "--samples",
                "100000000",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let e = String::from_utf8(out.stderr).unwrap();
        assert!(e.contains("refused") && e.contains("estimated"), "{e}");
    }

    #[test]
    fn big_grids_report_only_what_makes_sense() {
        let out = batchgen()
            .args([
                "uniformity",
                "--size",
                "8x8",
                "--algo",
                "kruskal,wilson",
                "--samples",
                "2000",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let s = String::from_utf8(out.stdout).unwrap();
        assert!(s.contains("τ = 126,231,322,912,498,539,682,594,816"), "{s}");
        assert!(s.contains("Kruskal over all wall orders: skipped"));
        assert!(s.contains("meaningless"));
        assert!(s.contains("Per-wall open frequency"));
    }
}

/// On grids where a chi-square over trees is meaningless (8×8: τ ≈ 1.3·10²⁶), the per-wall test
/// still separates them: Kruskal opens the corner walls about 2.5 points less often than the
/// uniform 0.698 (z ≈ −20 at N = 100,000); Wilson stays within noise.
#[test]
fn per_wall_test_on_8x8() {
    let u = wall_bias::uniform_open_exact(Size::planar(8, 8));
    let u: Vec<f64> = u.iter().map(|x| x.to_f64().unwrap()).collect();
    let n = 100_000;
    let k = sample(&Algorithm::Kruskal, Size::planar(8, 8), n, 42, false);
    let t = wall_bias::wall_test(&k.wall_open, n, &u).unwrap();
    assert!(t.p_bonferroni < 0.001, "kruskal {t:?}");
    let s = sample(&Algorithm::Wilson, Size::planar(8, 8), n, 42, false);
    let t = wall_bias::wall_test(&s.wall_open, n, &u).unwrap();
    assert!(t.p_bonferroni >= 0.001, "wilson {t:?}");
    assert_eq!(s.imperfect + k.imperfect, 0);
}

/// The third route to Kruskal's exact distribution — linear extensions of the cycle property —
/// recomputes the 3×3 reference (all 12! orders, from the brute force) in milliseconds, and
/// reaches 3×4 (17! ≈ 3.6·10¹⁴ orders), where the counts still sum to exactly 17!.
#[test]
fn kruskal_linear_extensions_match_the_3x3_reference_and_reach_3x4() {
    use batchgen::uniformity::kruskal_orders::count_by_linear_extensions;
    let r = count_by_linear_extensions(Size::planar(3, 3));
    let got: BTreeMap<String, u64> = r.trees.iter().map(|(k, c)| (tree_code(k), *c)).collect();
    assert_eq!(got, kruskal_3x3_reference());
    let r = count_by_linear_extensions(Size::planar(3, 4));
    assert_eq!(r.trees.len(), 2415);
    let total: u64 = r.trees.iter().map(|t| t.1).sum();
    assert_eq!(num_bigint::BigUint::from(total), factorial(17));
    // Every tree is produced: Kruskal never misses a spanning tree, it only weights them.
    assert!(r.trees.iter().all(|t| t.1 > 0));
}

mod three_d {
    //! The lab on 3D boxes (six neighbours per cell).
    use super::*;
    use batchgen::uniformity::kruskal_orders::count_by_linear_extensions;

    /// Spanning trees of the W×H×D box by brute force, independent of the grid module: the
    /// edges from coordinates, then every (n−1)-subset of edges checked for a cycle.
    fn brute_force_tau(w: u32, h: u32, d: u32) -> u64 {
        let id = |x: u32, y: u32, z: u32| (x + w * (y + h * z)) as usize;
        let mut edges = Vec::new();
        for z in 0..d {
            for y in 0..h {
                for x in 0..w {
                    if x + 1 < w {
                        edges.push((id(x, y, z), id(x + 1, y, z)));
                    }
                    if y + 1 < h {
                        edges.push((id(x, y, z), id(x, y + 1, z)));
                    }
                    if z + 1 < d {
                        edges.push((id(x, y, z), id(x, y, z + 1)));
                    }
                }
            }
        }
        let n = (w * h * d) as usize;
        let (e, k) = (edges.len(), n - 1);
        if k == 0 {
            return 1;
        }
        if e < k {
            return 0;
        }
        let mut comb: Vec<usize> = (0..k).collect();
        let mut count = 0;
        loop {
            let mut label: Vec<usize> = (0..n).collect();
            let acyclic = comb.iter().all(|&i| {
                let (a, b) = (label[edges[i].0], label[edges[i].1]);
                if a == b {
                    return false;
                }
                label.iter_mut().filter(|l| **l == b).for_each(|l| *l = a);
                true
            });
            count += acyclic as u64;
            let Some(i) = (0..k).rev().find(|&i| comb[i] < e - k + i) else {
                return count;
            };
            comb[i] += 1;
            for j in i + 1..k {
                comb[j] = comb[j - 1] + 1;
            }
        }
    }

    #[test]
    fn spanning_trees_of_small_boxes() {
        // The cube graph Q3 has 384 spanning trees; a path has 1; a 4-cycle has 4.
        let known = [
            (2, 2, 2, 384u64),
            (1, 1, 5, 1),
            (1, 1, 2, 1),
            (2, 1, 2, 4),
            (1, 2, 2, 4),
            (2, 2, 1, 4),
        ];
        for (w, h, d, t) in known {
            let size = Size::new(w, h, d);
            assert_eq!(kirchhoff::spanning_trees(size), BigInt::from(t), "{size}");
            assert_eq!(brute_force_tau(w, h, d), t, "{w}x{h}x{d}");
        }
        // Larger boxes against the independent brute force (C(20, 11) subsets for 3×2×2).
        for (w, h, d) in [(3, 2, 2), (2, 3, 2), (1, 3, 3), (3, 1, 2)] {
            let size = Size::new(w, h, d);
            let t = brute_force_tau(w, h, d);
            assert!(t > 1);
            assert_eq!(kirchhoff::spanning_trees(size), BigInt::from(t), "{size}");
            // The eigenvalue product agrees with the determinant.
            let l = kirchhoff::log10_spanning_trees(size);
            assert!((l - (t as f64).log10()).abs() < 1e-9, "{size}: {l}");
        }
        assert_eq!(interior_walls(Size::new(2, 2, 2)).len(), 12);
    }

    #[test]
    fn every_wall_of_the_cube_is_open_with_probability_seven_twelfths() {
        // By symmetry every edge of Q3 has the same effective resistance, (n−1)/E = 7/12.
        let p = wall_bias::uniform_open_exact(Size::new(2, 2, 2));
        assert_eq!(p.len(), 12);
        assert!(p
            .iter()
            .all(|x| *x == BigRational::new(7.into(), 12.into())));
        // Foster on a non-symmetric box: the probabilities sum to cells − 1.
        let p = wall_bias::uniform_open_exact(Size::new(3, 2, 2));
        let s = p.iter().fold(BigRational::zero(), |a, x| a + x);
        assert_eq!(s, BigRational::from_integer(11.into()));
    }

    /// Wilson and Aldous–Broder pass Pearson's chi-square against uniform over the 384 trees of
    /// 2×2×2 at α = 0.001 (seed 42, 192,000 mazes: 500 expected per tree); the backtracker,
    /// which can make only 24 of them, fails it.
    #[test]
    fn wilson_and_aldous_broder_are_uniform_on_the_cube() {
        let size = Size::new(2, 2, 2);
        let n = 192_000;
        for algo in [Algorithm::Wilson, Algorithm::AldousBroder] {
            let s = sample(&algo, size, n, 42, true);
            assert_eq!(s.imperfect, 0);
            let trees = s.trees.unwrap();
            assert_eq!(trees.len(), 384, "{}", algo.name());
            let c: Vec<u64> = trees.iter().map(|t| t.1).collect();
            let chi = chi_square(&c, 384);
            assert!(
                chi.p_value > 0.001,
                "{}: chi-square {} p {}",
                algo.name(),
                chi.statistic,
                chi.p_value
            );
            assert_eq!(chi.df, 383.0);
        }
        let s = sample(&Algorithm::Backtracker, size, 20_000, 42, true);
        let c: Vec<u64> = s.trees.unwrap().iter().map(|t| t.1).collect();
        assert!(chi_square(&c, 384).p_value < 1e-100);
    }

    /// Kruskal's exact distribution on 2×2×2: the orders of each tree counted as linear
    /// extensions (12! orders are 479M; the brute force over all of them takes over a minute and
    /// is run by `batchgen uniformity --size 2x2x2`, which cross-checks the two), compared with
    /// the exact distribution of the generator code itself over every branch of its draws.
    #[test]
    fn kruskal_exact_distribution_on_the_cube() {
        let size = Size::new(2, 2, 2);
        let r = count_by_linear_extensions(size);
        assert_eq!(r.trees.len(), 384);
        let total: u64 = r.trees.iter().map(|t| t.1).sum();
        assert_eq!(num_bigint::BigUint::from(total), factorial(12));
        // The values the brute force over all 12! orders gave (and matched).
        let h = r.histogram();
        assert_eq!(h.len(), 11);
        assert_eq!(h.iter().next(), Some((&1_074_240, &24)));
        assert_eq!(h.iter().next_back(), Some((&1_434_960, &24)));
        // Not uniform: uniform would be 12!/384 = 1,247,400 orders for every tree.
        let d = enumerate::exact_distribution(&Algorithm::Kruskal, size).unwrap();
        assert_eq!(d.total(), BigRational::one());
        assert_eq!(d.trees, r.distribution().trees);
    }

    #[test]
    fn exact_distributions_on_the_cube_sum_to_one() {
        let size = Size::new(2, 2, 2);
        let tau = BigInt::from(384);
        for algo in [Algorithm::Backtracker, Algorithm::HuntAndKill] {
            let d = enumerate::exact_distribution(&algo, size).unwrap();
            assert_eq!(d.total(), BigRational::one(), "{}", algo.name());
            for (k, _) in &d.trees {
                let m = Maze::from_words_sized(size, k).unwrap();
                assert!(m.is_perfect(), "{}", algo.name());
            }
            assert!(d.never_produced(&tau) > BigInt::zero(), "{}", algo.name());
        }
        // Backtracker from (0,0,0): 3 first steps, then paths; 24 Hamiltonian-path trees.
        let d = enumerate::exact_distribution(&Algorithm::Backtracker, size).unwrap();
        assert_eq!(d.trees.len(), 24);
        // Wilson's walks are unbounded in 3D too.
        let e = enumerate::exact_distribution(&Algorithm::Wilson, size).unwrap_err();
        assert!(matches!(e, NotEnumerable::Unbounded { .. }));
    }

    #[test]
    fn the_cli_accepts_a_3d_size() {
        let out = assert_cmd::Command::cargo_bin("batchgen")
            .unwrap()
            .args(["uniformity", "--size", "2x2x2", "--algo", "backtracker"])
            .args(["--samples", "0", "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let v = serde_json::from_slice::<Value>(&out.stdout).unwrap();
        let grid = v.get("grid").unwrap();
        assert_eq!(grid.get("depth").and_then(Value::as_u64), Some(2));
        assert_eq!(grid.get("cells").and_then(Value::as_u64), Some(8));
        // A 2D-only generator on a 3D size: exit 2, naming the 3D-capable ones.
        let out = assert_cmd::Command::cargo_bin("batchgen")
            .unwrap()
            .args(["uniformity", "--size", "2x2x2", "--algo", "eller"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("eller") && err.contains("hunt-and-kill"),
            "{err}"
        );
        let out = assert_cmd::Command::cargo_bin("batchgen")
            .unwrap()
            .args(["uniformity", "--size", "2x2x0"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
    }
}

/// The lab plans memory as well as time: sidewinder's exact distribution on 5x5 keeps its
/// 9,150,625 trees (about 19 GB by `enumerate::BYTES_PER_TREE`), so under a 3 GB address-space
/// limit it is refused up front with exit 2, naming the generator and both amounts, instead of
/// aborting when an allocation fails. The same request on 4x4 fits and runs.
#[test]
fn exact_walks_that_would_not_fit_are_refused_up_front() {
    let bin = env!("CARGO_BIN_EXE_batchgen");
    let lab = |size: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 3000000 && exec \"$0\" uniformity --size {size} --samples 10 --algo sidewinder"
            ))
            .arg(bin)
            .output()
            .unwrap()
    };
    let out = lab("5x5");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("sidewinder") && err.contains("of memory"),
        "{err}"
    );
    assert!(err.contains("GB is available"), "{err}");
    assert!(out.stdout.is_empty());
    let out = lab("4x4");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("sidewinder"));
}

/// `batchgen uniformity --grid G ARGS --format json`, parsed.
fn grid_lab_json(grid: &str, size: &str, args: &[&str]) -> serde_json::Value {
    let out = common::batchgen()
        .args([
            "uniformity",
            "--grid",
            grid,
            "--size",
            size,
            "--format",
            "json",
        ])
        .args(args)
        .output()
        .unwrap();
    common::assert_ok(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The generator `algo`'s object of a grid lab document.
fn generator<'a>(v: &'a serde_json::Value, algo: &str) -> &'a serde_json::Value {
    (v["generators"].as_array().unwrap().iter())
        .find(|g| g["algo"] == algo)
        .unwrap_or_else(|| panic!("no {algo} in {v}"))
}

/// `--grid` on the smallest grids gives what the square lab gives: τ (8 on a 2×2 hex grid, as
/// the layout's README counts), each enumerable generator's exact distribution over every tree
/// (summing to exactly 1; Kruskal's checked here against all 5! edge orders run by this test),
/// and chi-square of the samples (fixed seed, α = 0.001): Wilson and Aldous–Broder pass, and
/// the biased generators are called biased, exactly where enumerated.
#[test]
fn grid_lab_gives_exact_distributions_on_the_smallest_grids() {
    let v = grid_lab_json("hex", "2x2", &["--samples", "3200", "--seed", "42"]);
    assert_eq!(v["spanning_trees"]["exact"], "8");
    let edges: Vec<[u32; 2]> = (v["edges"].as_array().unwrap().iter())
        .map(|e| {
            [
                e["a"].as_u64().unwrap() as u32,
                e["b"].as_u64().unwrap() as u32,
            ]
        })
        .collect();
    assert_eq!(edges.len(), 5);
    for name in ["wilson", "aldous-broder"] {
        let g = generator(&v, name);
        assert_eq!(g["sample"]["trees_seen"], 8, "{name}");
        assert_eq!(g["sample"]["uniform_at_alpha_0_001"], true, "{name}: {g}");
    }
    for name in ["backtracker", "kruskal", "prim", "hunt-and-kill"] {
        let e = &generator(&v, name)["exact"];
        assert_eq!(e["status"], "done", "{name}: {e}");
        assert_eq!(e["sum"], "1", "{name}");
        assert_eq!(e["distribution"].as_array().unwrap().len(), 8, "{name}");
        assert_ne!(e["tv_from_uniform"], "0", "{name} is biased on hex 2x2");
    }
    // Kruskal over every order of the 5 edges: tree code → orders making it, out of 120.
    let mut orders: BTreeMap<String, u64> = BTreeMap::new();
    let mut perm: Vec<usize> = (0..5).collect();
    loop {
        let mut root: Vec<u32> = (0..4).collect();
        let mut bits = 0u64;
        for &e in &perm {
            let find = |r: &[u32], mut x: u32| {
                while r[x as usize] != x {
                    x = r[x as usize];
                }
                x
            };
            let (a, b) = (find(&root, edges[e][0]), find(&root, edges[e][1]));
            if a != b {
                root[a as usize] = b;
                bits |= 1 << e;
            }
        }
        *orders.entry(format!("{bits:#x}")).or_default() += 1;
        // Next permutation in lexicographic order.
        let Some(i) = (0..4).rev().find(|&i| perm[i] < perm[i + 1]) else {
            break;
        };
        let j = (i + 1..5).rev().find(|&j| perm[j] > perm[i]).unwrap();
        perm.swap(i, j);
        perm[i + 1..].reverse();
    }
    let kruskal: BTreeMap<String, BigRational> = (generator(&v, "kruskal")["exact"]
        ["distribution"]
        .as_array()
        .unwrap()
        .iter())
    .map(|t| {
        let p: BigRational = t["p"].as_str().unwrap().parse().unwrap();
        (t["tree"].as_str().unwrap().to_string(), p)
    })
    .collect();
    let want: BTreeMap<String, BigRational> = (orders.into_iter())
        .map(|(k, n)| (k, BigRational::new(n.into(), 120.into())))
        .collect();
    assert_eq!(kruskal, want);

    // The 3x2 triangle grid is a 6-cycle: Kruskal drops each edge with probability 1/6 (exact
    // uniform); the table says so, with Wilson uniform by chi-square.
    let out = common::batchgen()
        .args(["uniformity", "--grid", "triangle", "--size", "3x2"])
        .args(["--algo", "kruskal,wilson", "--samples", "600"])
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("τ = 6 (matrix-tree theorem, exact)"),
        "{text}"
    );
    let line = |name: &str| {
        (text.lines())
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("{name}: {text}"))
            .to_string()
    };
    assert!(line("kruskal").contains("uniform: every maze equally likely — passes (exact)"));
    assert!(line("wilson").contains("passes (no bias found in 600 samples"));

    // Polar: one ring is one cell (one tree, every generator exact); two rings of three cells
    // are K4 (16 trees), where the binary tree makes 4 trees, each with probability 1/4.
    let v = grid_lab_json("polar", "1", &["--samples", "10"]);
    assert_eq!(v["spanning_trees"]["exact"], "1");
    for g in v["generators"].as_array().unwrap() {
        if g["algo"] != "growing-tree:mix:0.5" {
            assert_eq!(g["exact"]["tv_from_uniform"], "0", "{g}");
        }
    }
    let v = grid_lab_json("polar", "2x3", &["--algo", "binary-tree", "--samples", "0"]);
    assert_eq!(v["spanning_trees"]["exact"], "16");
    let e = &generator(&v, "binary-tree")["exact"];
    let dist = e["distribution"].as_array().unwrap();
    assert_eq!(dist.len(), 4);
    assert!(dist.iter().all(|t| t["p"] == "1/4"), "{e}");
    assert_eq!(e["never_produced"], "12");
}

/// Where a walk would run too long the grid lab skips it with the estimate, as the square lab
/// does (`--force` runs it), and still samples; a generator that does not run on the grid is
/// refused naming it, exit 2.
#[test]
fn grid_lab_skips_what_is_too_long_and_refuses_what_does_not_run() {
    let out = common::batchgen()
        .args(["uniformity", "--grid", "hex", "--size", "3x3"])
        .args(["--algo", "kruskal", "--samples", "2000"])
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("kruskal: about") && text.contains("--force runs it"),
        "{text}"
    );
    assert!(text.contains("Sampling: 2,000 mazes"), "{text}");
    let out = common::batchgen()
        .args([
            "uniformity",
            "--grid",
            "triangle",
            "--size",
            "3x2",
            "--algo",
            "eller",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--algo") && err.contains("triangle"), "{err}");
}

/// Sampling estimated over the square lab's 30-minute budget is refused up front on every grid
/// as on squares: exit 2 with the estimate, naming `--samples`, `--algo` and `--force`, before
/// any maze is sampled.
#[test]
fn grid_lab_refuses_hours_of_sampling_with_an_estimate() {
    for (grid, size) in [("hex", "4x4"), ("triangle", "4x4"), ("polar", "2")] {
        let out = common::batchgen()
            .args(["uniformity", "--grid", grid, "--size", size])
            .args(["--algo", "wilson", "--samples", "10000000000000"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{grid}: {err}");
        for want in [
            format!(
                "refused: sampling 10,000,000,000,000 mazes of the {grid} grid {size} for each"
            ),
            "on this machine; lower --samples".into(),
            "--algo, or pass --force".into(),
        ] {
            assert!(err.contains(&want), "{grid}: {want}: {err}");
        }
        assert!(
            !err.contains("wilson: sampling"),
            "{grid}: sampled first: {err}"
        );
    }
}

/// Where a grid's random walk makes the choice tree too deep to walk, the grid lab says so as
/// the square lab does (a random walk, unbounded or too deep), not only that a number
/// overflowed: Wilson on the 2×2 hex grid, whose walk has three choices per step.
#[test]
fn grid_lab_says_why_a_random_walk_is_not_enumerable() {
    let text = grid_lab_json("hex", "2x2", &["--algo", "wilson", "--samples", "0"]).to_string();
    for want in [
        "\"not enumerable: a run of ",
        "draws has a probability below 2^-128",
        "too deep (random walk / rejection loop), so it cannot be walked exhaustively",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

/// Where τ is far beyond the samples (a 4-ring polar grid: 43 cells), the grid lab tests each
/// edge's open count against its exact uniform probability, as the square lab does per wall:
/// hunt-and-kill is found biased, Wilson is consistent (α = 0.001, Bonferroni over the edges,
/// fixed seed); the probabilities sum to cells − 1 (Foster) and name each edge by its cells.
#[test]
fn grid_lab_tests_each_edge_where_trees_are_too_many() {
    let args = ["--algo", "wilson,hunt-and-kill", "--samples", "4000"];
    let v = grid_lab_json("polar", "4", &args);
    let edges = v["edges"].as_array().unwrap();
    let sum: f64 = edges
        .iter()
        .map(|e| e["uniform_open_f64"].as_f64().unwrap())
        .sum();
    assert!((sum - 42.0).abs() < 1e-9, "{sum}");
    assert!(edges.iter().all(|e| e["uniform_open"].is_string()));
    assert_eq!(edges[0]["label"], "(0,0)–(1,0)");
    let p = |algo: &str| {
        generator(&v, algo)["sample"]["wall_test"]["p_bonferroni"]
            .as_f64()
            .unwrap()
    };
    assert!(p("wilson") >= 0.001, "{v}");
    assert!(p("hunt-and-kill") < 0.001, "{v}");
    let out = common::batchgen()
        .args(["uniformity", "--grid", "polar", "--size", "4"])
        .args(args)
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "Per-edge test",
        "per-edge bias is tested instead",
        "wilson         uniform as far as measured — passes (no edge opens",
        "hunt-and-kill  biased: edge (",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
}
