//! The uniformity lab on masks: τ of a masked grid graph by the matrix-tree theorem equals a
//! brute-force count of its spanning trees; the exact distributions of the enumerable
//! generators on small masks; and, by Pearson's chi-square at significance 0.001 with fixed
//! seeds, Wilson and Aldous–Broder uniform on masks while the backtracker is not. The same
//! through `batchgen uniformity --mask`, and its refusals.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use batchgen::dsu::Dsu;
use batchgen::grid::Mask;
use batchgen::uniformity::{enumerate, kirchhoff, sample};
use batchgen::Algorithm;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use serde_json::Value;

/// Spanning trees of the mask's graph counted by brute force: every subset of `cells − 1`
/// walls that joins all cells without a cycle (union-find), over all subsets of the walls.
fn brute_force_trees(mask: &Mask) -> u64 {
    let walls = kirchhoff::mask_walls(mask);
    let k = mask.cells() - 1;
    let n = mask.size().cells();
    assert!(walls.len() <= 22, "too many walls to enumerate");
    let mut count = 0;
    let mut dsu = Dsu::new(n);
    for set in 0u32..1 << walls.len() {
        if set.count_ones() != k {
            continue;
        }
        dsu.reset(n);
        let acyclic = walls
            .iter()
            .enumerate()
            .filter(|(i, _)| set >> i & 1 != 0)
            .all(|(_, w)| dsu.union(w.a, w.b));
        count += acyclic as u64;
    }
    count
}

fn mask(text: &str) -> Mask {
    Mask::from_text(text).unwrap()
}

#[test]
fn tau_of_known_masks() {
    // 3×3 without its centre: an 8-cycle.
    assert_eq!(
        kirchhoff::spanning_trees_masked(&mask("...\n.#.\n...\n")),
        BigInt::from(8)
    );
    // 2×3 without a corner: a 4-cycle with one pendant cell.
    assert_eq!(
        kirchhoff::spanning_trees_masked(&mask("..#\n...\n")),
        BigInt::from(4)
    );
    // A plus sign is a tree; a single cell has one spanning tree.
    assert_eq!(
        kirchhoff::spanning_trees_masked(&mask("#.#\n...\n#.#\n")),
        BigInt::from(1)
    );
    assert_eq!(
        kirchhoff::spanning_trees_masked(&mask("##\n.#\n")),
        BigInt::from(1)
    );
    // A full mask is the grid.
    let full = Mask::from_fn(4, 3, |_, _| true).unwrap();
    assert_eq!(
        kirchhoff::spanning_trees_masked(&full),
        kirchhoff::spanning_trees(full.size())
    );
}

#[test]
fn tau_equals_a_brute_force_count() {
    for text in [
        "...\n.#.\n...\n",
        "..#\n...\n",
        "...\n...\n..#\n",
        "....\n.#..\n....\n",
        "#..#\n....\n#..#\n",
        "...#\n.#..\n....\n",
        "..\n..\n..\n..\n",
    ] {
        let m = mask(text);
        assert_eq!(
            kirchhoff::spanning_trees_masked(&m),
            BigInt::from(brute_force_trees(&m)),
            "{text}"
        );
    }
}

#[test]
fn exact_distributions_on_small_masks() {
    let ring = Arc::new(mask("...\n.#.\n...\n"));
    let tau = kirchhoff::spanning_trees_masked(&ring);
    // Kruskal leaves out the last wall of the cycle in a uniform order: uniform on a cycle.
    let k =
        enumerate::exact_distribution_on(&Algorithm::Kruskal, ring.size(), Some(&ring)).unwrap();
    assert_eq!(k.trees.len(), 8);
    assert_eq!(k.tv_from_uniform(&tau), BigRational::zero());
    // The backtracker leaves the cycle from cell (0,0) one way or the other and walks around:
    // only the two trees missing a wall at the start, each with probability 1/2.
    let b = enumerate::exact_distribution_on(&Algorithm::Backtracker, ring.size(), Some(&ring))
        .unwrap();
    assert_eq!(b.trees.len(), 2);
    let half = BigRational::new(1.into(), 2.into());
    assert!(b.trees.iter().all(|(_, p)| *p == half));
    assert_eq!(
        b.tv_from_uniform(&tau),
        BigRational::new(3.into(), 4.into())
    );
    // Every enumerable mask-capable generator's trees are spanning trees of the mask, and its
    // probabilities sum to 1.
    let pendant = Arc::new(mask("..#\n...\n"));
    for a in [
        Algorithm::Backtracker,
        Algorithm::Kruskal,
        Algorithm::Prim,
        Algorithm::HuntAndKill,
        Algorithm::GrowingTree(batchgen::generate::Policy::Newest),
    ] {
        let d = enumerate::exact_distribution_on(&a, pendant.size(), Some(&pendant)).unwrap();
        assert!(d.trees.len() <= 4, "{}", a.name());
        assert_eq!(
            d.total(),
            BigRational::from_integer(1.into()),
            "{}",
            a.name()
        );
    }
}

/// Significance of the chi-square tests.
const ALPHA: f64 = 0.001;

#[test]
fn wilson_and_aldous_broder_are_uniform_on_masks_and_the_backtracker_is_not() {
    for text in ["...\n.#.\n...\n", "..#\n...\n", "....\n.#..\n....\n"] {
        let m = Arc::new(mask(text));
        let tau: u64 = kirchhoff::spanning_trees_masked(&m).try_into().unwrap();
        for (a, uniform) in [
            (Algorithm::Wilson, true),
            (Algorithm::AldousBroder, true),
            (Algorithm::Backtracker, false),
        ] {
            let s = sample::sample_on(&a, m.size(), Some(&m), 40_000, 20_261_201, true);
            assert_eq!(s.imperfect, 0);
            let trees = s.trees.unwrap();
            let counts: Vec<u64> = trees.iter().map(|t| t.1).collect();
            let chi = sample::chi_square(&counts, tau);
            if uniform {
                assert_eq!(chi.unseen, 0, "{} on\n{text}", a.name());
                assert!(
                    chi.p_value > ALPHA,
                    "{} on\n{text}: p = {}",
                    a.name(),
                    chi.p_value
                );
            } else {
                assert!(
                    chi.p_value < ALPHA,
                    "{} on\n{text}: p = {}",
                    a.name(),
                    chi.p_value
                );
            }
        }
    }
}

/// Write `text` as the mask file `name` in `dir`.
fn mask_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `batchgen uniformity ARGS --format json`, which must succeed, parsed.
fn lab_json(args: &[&str]) -> Value {
    let out = common::batchgen()
        .arg("uniformity")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    common::assert_ok(&out);
    serde_json::from_slice::<Value>(&out.stdout).unwrap()
}

/// The report entry of generator `name`.
fn generator<'a>(report: &'a Value, name: &str) -> &'a Value {
    report
        .get("generators")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .find(|g| g.get("algo").and_then(Value::as_str) == Some(name))
        .unwrap_or_else(|| panic!("no generator {name} in the report"))
}

fn p_value(report: &Value, name: &str) -> f64 {
    match generator(report, name)
        .get("sample")
        .and_then(|s| s.get("p_value"))
    {
        Some(Value::Number(p)) => p.as_f64().unwrap(),
        other => panic!("{name}: no p-value ({other:?})"),
    }
}

#[test]
fn the_lab_on_the_ring_counts_8_trees_and_tells_uniform_samplers_from_the_backtracker() {
    let dir = tempfile::tempdir().unwrap();
    let text = "...\n.#.\n...\n";
    let ring = mask_file(dir.path(), "ring.txt", text);
    let ring = ring.to_str().unwrap();
    let rep = lab_json(&[
        "--mask",
        ring,
        "--algo",
        "wilson,aldous-broder,backtracker",
        "--samples",
        "40000",
        "--seed",
        "20261201",
    ]);
    let tau = rep.get("spanning_trees").and_then(|t| t.get("exact"));
    assert_eq!(tau.and_then(Value::as_str), Some("8"));
    // The report says which mask: its file, cells, hash and the cells themselves.
    let m = rep.get("mask").unwrap();
    assert_eq!(m.get("name").and_then(Value::as_str), Some(ring));
    assert_eq!(m.get("cells").and_then(Value::as_u64), Some(8));
    assert_eq!(
        m.get("mask_hash").and_then(Value::as_u64),
        Some(mask(text).hash())
    );
    assert_eq!(m.get("text").and_then(Value::as_str), Some(text));
    // The walls are the cycle's 8 edges, each open with probability 7/8 in a uniform tree.
    let walls = rep.get("walls").and_then(Value::as_array).unwrap();
    assert_eq!(walls.len(), 8);
    for w in walls {
        assert_eq!(w.get("uniform_open").and_then(Value::as_str), Some("7/8"));
    }
    // Chi-square over the 8 trees at significance ALPHA, fixed seed.
    for name in ["wilson", "aldous-broder"] {
        let p = p_value(&rep, name);
        assert!(p > ALPHA, "{name}: p = {p}");
        let s = generator(&rep, name).get("sample").unwrap();
        assert_eq!(s.get("never_seen").and_then(Value::as_u64), Some(0));
        assert_eq!(s.get("imperfect").and_then(Value::as_u64), Some(0));
    }
    let p = p_value(&rep, "backtracker");
    assert!(p < ALPHA, "backtracker: p = {p}");
    // The backtracker's exact distribution: 2 of the 8 trees, total variation 3/4.
    let exact = generator(&rep, "backtracker").get("exact").unwrap();
    assert_eq!(exact.get("trees_produced").and_then(Value::as_u64), Some(2));
    assert_eq!(
        exact.get("tv_from_uniform").and_then(Value::as_str),
        Some("3/4")
    );
}

#[test]
fn the_lab_on_2x3_without_a_corner_counts_4_trees() {
    let dir = tempfile::tempdir().unwrap();
    let p = mask_file(dir.path(), "corner.txt", "..#\n...\n");
    let p = p.to_str().unwrap();
    let out = common::batchgen()
        .args([
            "uniformity",
            "--mask",
            p,
            "--algo",
            "kruskal",
            "--samples",
            "0",
        ])
        .output()
        .unwrap();
    common::assert_ok(&out);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("Spanning trees: τ = 4 (matrix-tree theorem, exact)"),
        "{table}"
    );
    assert!(
        table.contains(&format!("the mask {p} (3x2 grid, 5 of 6 cells")),
        "{table}"
    );
    // --size equal to the mask's is accepted; Kruskal is exactly uniform on a unicyclic graph
    // (it leaves out the last of the cycle's walls in a uniform order).
    let rep = lab_json(&[
        "--mask",
        p,
        "--size",
        "3x2",
        "--algo",
        "kruskal",
        "--samples",
        "0",
    ]);
    let tau = rep.get("spanning_trees").and_then(|t| t.get("exact"));
    assert_eq!(tau.and_then(Value::as_str), Some("4"));
    let exact = generator(&rep, "kruskal").get("exact").unwrap();
    assert_eq!(exact.get("trees_produced").and_then(Value::as_u64), Some(4));
    assert_eq!(
        exact.get("tv_from_uniform").and_then(Value::as_str),
        Some("0")
    );
    // The pendant wall is in every tree, the cycle's walls in 3 of 4.
    let walls = rep.get("walls").and_then(Value::as_array).unwrap();
    let open: Vec<&str> = walls
        .iter()
        .map(|w| w.get("uniform_open").and_then(Value::as_str).unwrap())
        .collect();
    assert_eq!(open.len(), 5);
    assert_eq!(open.iter().filter(|&&p| p == "1").count(), 1);
    assert_eq!(open.iter().filter(|&&p| p == "3/4").count(), 4);
}

#[test]
fn the_lab_refuses_bad_masks_naming_the_flag_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let ring = mask_file(dir.path(), "ring.txt", "...\n.#.\n...\n");
    let ring = ring.to_str().unwrap();
    // 21×20 = 420 cells: over the exact-τ limit.
    let big = mask_file(dir.path(), "big.txt", &(".".repeat(21) + "\n").repeat(20));
    let big = big.to_str().unwrap();
    for (args, needles) in [
        (
            vec!["--mask", ring, "--size", "3x4"],
            vec!["'--size'", "'3x4'", "is 3x3"],
        ),
        (
            vec!["--mask", ring, "--algo", "eller"],
            vec!["'--algo'", "'eller'", "accept --mask"],
        ),
        (
            vec!["--mask", ring, "--algo", "wilson,sidewinder"],
            vec!["'--algo'", "sidewinder"],
        ),
        (
            vec!["--mask", big],
            vec!["'--mask'", "big.txt", "420 cells", "400"],
        ),
        (
            vec!["--mask", ring, "--size", "3x3x2"],
            vec!["'--mask'", "3D"],
        ),
    ] {
        let out = common::batchgen()
            .arg("uniformity")
            .args(&args)
            .args(["--samples", "10"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        for n in needles {
            assert!(err.contains(n), "{args:?}: {n} not in {err}");
        }
    }
}
