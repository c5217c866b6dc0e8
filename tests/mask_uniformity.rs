//! The uniformity lab on masks: τ of a masked grid graph by the matrix-tree theorem equals a
//! brute-force count of its spanning trees; the exact distributions of the enumerable
//! generators on small masks; and, by Pearson's chi-square at significance 0.001 with fixed
//! seeds, Wilson and Aldous–Broder uniform on masks while the backtracker is not.

use std::sync::Arc;

use batchgen::dsu::Dsu;
use batchgen::grid::Mask;
use batchgen::uniformity::{enumerate, kirchhoff, sample};
use batchgen::Algorithm;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

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
