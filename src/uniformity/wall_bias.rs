//! Per-wall bias: how often each interior wall is open, against its exact probability under the
//! uniform distribution over spanning trees.
//!
//! In a uniform spanning tree, edge `{a, b}` of a unit-weight graph is present with probability
//! equal to the effective resistance between `a` and `b` (Kirchhoff). With the last cell as
//! ground, `R(a,b) = G_aa + G_bb − 2 G_ab` where `G = L_r⁻¹ = adj(L_r) / τ`; the adjugate is an
//! exact integer matrix ([`super::kirchhoff::det_and_adjugate`]), so each probability is an exact
//! rational with denominator dividing τ. They sum to `W·H − 1` (Foster's theorem: a spanning
//! tree has that many edges). For grids too large for exact arithmetic, [`uniform_open_f64`]
//! solves the same system in floating point with a banded Cholesky factor.

use super::kirchhoff::{
    det_and_adjugate, graph_edge_rows, mask_walls, reduced_laplacian, reduced_laplacian_masked,
    reduced_laplacian_of,
};
use super::{interior_walls, Wall};
use crate::grid::{Dir, Mask, Size};
use crate::topo::CellGraph;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// Largest grid (cells) whose per-wall probabilities are computed exactly by default.
pub(crate) const EXACT_WALL_MAX_CELLS: u64 = 144;
/// Largest [`float_work`] for which per-wall probabilities are computed in floating point
/// (about 10 s on 2 cores; 100×100 is 1.0·10¹⁰).
pub const FLOAT_WALL_MAX_WORK: f64 = 1.2e10;

/// The exact probability that each interior wall (in [`interior_walls`] order) is open in a
/// uniformly random spanning tree.
pub fn uniform_open_exact(size: Size) -> Vec<BigRational> {
    if size.cells() == 1 {
        return Vec::new();
    }
    let ends = interior_walls(size)
        .into_iter()
        .map(|w| (w.a as usize, w.b as usize));
    resistances(&reduced_laplacian(size), ends)
}

/// [`uniform_open_exact`] on the graph of `mask`'s cells: the exact probability that each wall
/// between two mask cells (in [`mask_walls`] order) is open in a uniformly random spanning tree
/// of the mask (ground: the mask's last cell).
pub(crate) fn uniform_open_exact_masked(mask: &Mask) -> Vec<BigRational> {
    if mask.cells() == 1 {
        return Vec::new();
    }
    let row = |c: u32| mask.ids().binary_search(&c).expect("a mask cell");
    let ends = mask_walls(mask).into_iter().map(|w| (row(w.a), row(w.b)));
    resistances(&reduced_laplacian_masked(mask), ends)
}

/// The effective resistance between the ends of each edge, as exact rationals, from the reduced
/// Laplacian `l` whose removed (ground) vertex is row `l.len()`; `edges` are pairs of rows.
fn resistances(l: &[Vec<i64>], edges: impl Iterator<Item = (usize, usize)>) -> Vec<BigRational> {
    let g = l.len();
    let (tau, adj) = det_and_adjugate(l);
    let at = |i: usize, j: usize| -> BigInt {
        if i == g || j == g {
            BigInt::zero()
        } else {
            adj[i][j].clone()
        }
    };
    edges
        .map(|(a, b)| {
            let num = at(a, a) + at(b, b) - at(a, b) * 2;
            BigRational::new(num, tau.clone())
        })
        .collect()
}

/// The bandwidth of the reduced Laplacian of `size` (cell ids): `W` in 2D, `W·H` in 3D.
fn bandwidth(size: Size) -> u32 {
    if size.is_3d() {
        size.layer_cells()
    } else {
        size.width
    }
}

/// Floating-point work of [`uniform_open_f64`] on a grid of `size` (multiply-adds).
pub fn float_work(size: Size) -> f64 {
    let n = size.cells_u64() as f64;
    let walls = size.interior_wall_count() as f64;
    let bw = bandwidth(size) as f64;
    n * bw * bw + walls * n * bw / 2.0
}

/// The same probabilities as [`uniform_open_exact`] in floating point, for grids up to
/// [`FLOAT_WALL_MAX_WORK`] of [`float_work`]: the reduced Laplacian (cells by id) is banded
/// with bandwidth W (W·H in 3D), so its Cholesky factor costs `n·W²`, and each wall's
/// resistance is one banded forward solve (the solver every cell graph's probabilities use).
pub fn uniform_open_f64(size: Size) -> Vec<f64> {
    let walls = interior_walls(size);
    let n = size.cells() as usize;
    if n == 1 {
        return Vec::new();
    }
    let m = n - 1; // unknowns: every cell but the last (ground)
    let bw = (bandwidth(size) as usize).min(m - 1).max(1);
    // a(i, j) for j in i−bw..=i: the degree on the diagonal, −1 where j is a neighbour of i.
    let a = |i: usize, j: usize| -> f64 {
        let c = i as u32;
        if i == j {
            Dir::ALL
                .iter()
                .filter(|&&d| size.has_neighbour(c, d))
                .count() as f64
        } else if [Dir::West, Dir::North, Dir::Up]
            .iter()
            .any(|&d| size.has_neighbour(c, d) && size.neighbour(c, d) == j as u32)
        {
            -1.0
        } else {
            0.0
        }
    };
    let pairs: Vec<(usize, usize)> = walls.iter().map(|w| (w.a as usize, w.b as usize)).collect();
    banded_resistances(m, bw, a, &pairs)
}

/// The effective resistance between the two rows of each pair `(a, b)`, `a < b`, of a graph
/// whose reduced Laplacian (ground: row `m`, removed) has `m` rows, bandwidth `bw` and entries
/// `a(i, j)` for `j` in `i − bw..=i`: its Cholesky factor `L` (`A = L Lᵀ`) costs `m·bw²`, and
/// each pair's resistance is `‖L⁻¹(e_a − e_b)‖²` (`e_m` = 0), one banded forward solve
/// starting at row `a` (rayon over pairs).
fn banded_resistances(
    m: usize,
    bw: usize,
    a: impl Fn(usize, usize) -> f64,
    pairs: &[(usize, usize)],
) -> Vec<f64> {
    use rayon::prelude::*;
    let stride = bw + 1;
    let mut l = vec![0.0f64; m * stride];
    let at = |i: usize, j: usize| i * stride + (j + bw - i);
    for i in 0..m {
        for j in i.saturating_sub(bw)..=i {
            let k0 = i.saturating_sub(bw).max(j.saturating_sub(bw));
            let mut s = a(i, j);
            for k in k0..j {
                s -= l[at(i, k)] * l[at(j, k)];
            }
            l[at(i, j)] = if i == j { s.sqrt() } else { s / l[at(j, j)] };
        }
    }
    pairs
        .par_iter()
        .map_init(
            || vec![0.0f64; m],
            |y, &(a, b)| {
                debug_assert!(a < b);
                let mut r = 0.0;
                for i in a..m {
                    let rhs = if i == a {
                        1.0
                    } else if i == b {
                        -1.0
                    } else {
                        0.0
                    };
                    let mut s = rhs;
                    for k in i.saturating_sub(bw).max(a)..i {
                        s -= l[at(i, k)] * y[k];
                    }
                    y[i] = s / l[at(i, i)];
                    r += y[i] * y[i];
                }
                r
            },
        )
        .collect()
}

/// The bandwidth of `g`'s Laplacian with cells in id order: the largest row distance of an
/// edge's ends.
fn graph_bandwidth(pairs: &[(usize, usize)]) -> usize {
    pairs.iter().map(|&(a, b)| b - a).max().unwrap_or(1)
}

/// Floating-point work of [`uniform_open_graph_f64`] on `g` (multiply-adds), as [`float_work`].
pub fn float_work_graph(g: &CellGraph) -> f64 {
    let pairs = graph_edge_rows(g);
    let (n, bw) = (g.cells() as f64, graph_bandwidth(&pairs) as f64);
    n * bw * bw + pairs.len() as f64 * n * bw / 2.0
}

/// The exact probability that each edge of `g` (in edge order) is open in a uniformly random
/// spanning tree of `g` (ground: its last cell): [`uniform_open_exact`] on any cell graph.
pub fn uniform_open_exact_graph(g: &CellGraph) -> Vec<BigRational> {
    if g.cells() == 1 {
        return Vec::new();
    }
    let pairs = graph_edge_rows(g);
    let l = reduced_laplacian_of(g.cells() as usize, pairs.iter().copied());
    resistances(&l, pairs.into_iter())
}

/// [`uniform_open_exact_graph`] in floating point (a banded Cholesky solve, as
/// [`uniform_open_f64`]), for graphs up to
/// [`FLOAT_WALL_MAX_WORK`] of [`float_work_graph`].
pub fn uniform_open_graph_f64(g: &CellGraph) -> Vec<f64> {
    let n = g.cells() as usize;
    if n == 1 {
        return Vec::new();
    }
    let m = n - 1;
    let pairs = graph_edge_rows(g);
    let bw = graph_bandwidth(&pairs).min(m - 1).max(1);
    // Each row's degree and its neighbours of lower rows (the entries left of the diagonal).
    let mut degree = vec![0f64; n];
    let mut lower: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &pairs {
        degree[a] += 1.0;
        degree[b] += 1.0;
        lower[b].push(a);
    }
    let a = |i: usize, j: usize| -> f64 {
        if i == j {
            degree[i]
        } else {
            -(lower[i].iter().filter(|&&k| k == j).count() as f64)
        }
    };
    banded_resistances(m, bw, a, &pairs)
}

/// How many times each wall (in `walls` order) is open, weighted: `counts[i] += weight` for every
/// open wall `i` of the tree `words`.
pub(crate) fn add_open_counts(walls: &[Wall], words: &[u64], weight: u64, counts: &mut [u64]) {
    for (c, w) in counts.iter_mut().zip(walls) {
        if w.open_in(words) {
            *c += weight;
        }
    }
}

/// The per-wall test of a sample against the uniform marginals: each wall's open count is
/// binomial(N, p) under uniformity; the wall with the largest |z| is reported with its two-sided
/// normal p-value times the number of walls tested (Bonferroni). Unlike a chi-square over trees,
/// this is meaningful on any grid size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallTest {
    /// Index (in [`interior_walls`] order) of the wall deviating most.
    pub worst: usize,
    /// Its observed open frequency.
    pub observed: f64,
    /// Its uniform probability.
    pub expected: f64,
    /// `(observed − expected) / sqrt(expected (1 − expected) / N)`.
    pub z: f64,
    /// `min(1, walls tested × P(|Z| ≥ |z|))`.
    pub p_bonferroni: f64,
}

/// Run the per-wall test on `open` counts out of `n` mazes against `uniform` probabilities.
/// `None` when there is no sample or no wall with `0 < p < 1`.
pub fn wall_test(open: &[u64], n: u64, uniform: &[f64]) -> Option<WallTest> {
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mut best: Option<WallTest> = None;
    let mut tested = 0usize;
    for (i, (&o, &p)) in open.iter().zip(uniform).enumerate() {
        let f = o as f64 / nf;
        let var = p * (1.0 - p) / nf;
        let z = if var > 1e-15 {
            tested += 1;
            (f - p) / var.sqrt()
        } else if (f - p).abs() > 1e-12 {
            tested += 1;
            f64::INFINITY.copysign(f - p)
        } else {
            continue;
        };
        if best.is_none_or(|b| z.abs() > b.z.abs()) {
            best = Some(WallTest {
                worst: i,
                observed: f,
                expected: p,
                z,
                p_bonferroni: 0.0,
            });
        }
    }
    best.map(|mut b| {
        let two_sided = if b.z.is_finite() {
            super::stats::gamma_q(0.5, b.z * b.z / 2.0)
        } else {
            0.0
        };
        b.p_bonferroni = (two_sided * tested as f64).min(1.0);
        b
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::ToPrimitive;

    #[test]
    fn central_wall_of_2x3_is_three_fifths() {
        // 2 wide, 3 high: the wall shared by both 4-cycles is the vertical wall east of (0,1).
        let p = uniform_open_exact(Size::planar(2, 3));
        let walls = interior_walls(Size::planar(2, 3));
        let i = walls
            .iter()
            .position(|w| w.label(crate::grid::Size::planar(2, 3)) == "E(0,1)")
            .unwrap();
        assert_eq!(p[i], BigRational::new(3.into(), 5.into()));
        // Transposed grid: the same edge is the south wall of (1,0).
        let p = uniform_open_exact(Size::planar(3, 2));
        let i = interior_walls(Size::planar(3, 2))
            .iter()
            .position(|w| w.label(crate::grid::Size::planar(3, 2)) == "S(1,0)")
            .unwrap();
        assert_eq!(p[i], BigRational::new(3.into(), 5.into()));
    }

    #[test]
    fn wall_test_finds_the_biased_wall() {
        let u = [0.5, 0.5, 1.0];
        let t = wall_test(&[5000, 5600, 10_000], 10_000, &u).unwrap();
        assert_eq!(t.worst, 1);
        assert!((t.z - 12.0).abs() < 1e-9);
        assert!(t.p_bonferroni < 1e-20);
        let t = wall_test(&[5000, 5010, 10_000], 10_000, &u).unwrap();
        assert!(t.p_bonferroni > 0.5);
    }

    /// Each edge's share of the spanning trees of `g`, counted by brute force: every set of
    /// `cells − 1` edges that joins all cells (a union-find written here, not the lab's
    /// Kirchhoff code).
    fn edge_shares_by_enumeration(g: &CellGraph) -> Vec<BigRational> {
        let row = |c: u32| g.ids().binary_search(&c).unwrap();
        let ends: Vec<(usize, usize)> = (0..g.edges())
            .map(|e| {
                let [a, b] = g.ends(e);
                (row(a), row(b))
            })
            .collect();
        let (n, m) = (g.cells() as usize, ends.len());
        assert!(m <= 20, "small graphs only");
        let mut trees = 0u64;
        let mut with = vec![0u64; m];
        for set in 0u32..1 << m {
            if set.count_ones() as usize != n - 1 {
                continue;
            }
            let mut up: Vec<usize> = (0..n).collect();
            fn top(up: &mut [usize], mut x: usize) -> usize {
                while up[x] != x {
                    x = up[x];
                }
                x
            }
            let mut joins = 0;
            for (e, &(a, b)) in ends.iter().enumerate() {
                if set >> e & 1 == 1 {
                    let (ra, rb) = (top(&mut up, a), top(&mut up, b));
                    if ra != rb {
                        up[ra] = rb;
                        joins += 1;
                    }
                }
            }
            if joins == n - 1 {
                trees += 1;
                for (e, w) in with.iter_mut().enumerate() {
                    *w += u64::from(set >> e & 1);
                }
            }
        }
        with.iter()
            .map(|&k| BigRational::new(k.into(), trees.into()))
            .collect()
    }

    #[test]
    fn grid_edges_open_with_their_share_of_the_trees() {
        use crate::topo::{Grid, GridSize};
        for size in [
            GridSize::new(Grid::Hex, 2, 2),
            GridSize::new(Grid::Hex, 3, 2),
            GridSize::new(Grid::Triangle, 4, 2),
            GridSize::new(Grid::Triangle, 3, 3),
            GridSize::new(Grid::Polar, 2, 6),
            GridSize::new(Grid::Polar, 2, 3),
        ] {
            let g = CellGraph::new(size);
            assert_eq!(
                uniform_open_exact_graph(&g),
                edge_shares_by_enumeration(&g),
                "{} {size}",
                size.grid
            );
        }
        // On the 2x2 hex grid (5 edges, 8 trees: two triangles sharing an edge) the shared edge
        // is in 4 of the 8 trees (contracted, it leaves two pairs of parallel edges: 2 × 2), and
        // the other four edges share the remaining 8 × 3 − 4 = 20 places: 5 of 8 each.
        let g = CellGraph::new(GridSize::new(Grid::Hex, 2, 2));
        let mut p = uniform_open_exact_graph(&g);
        p.sort();
        let half = BigRational::new(1.into(), 2.into());
        let five_eighths = BigRational::new(5.into(), 8.into());
        assert_eq!(p[0], half);
        assert!(p[1..].iter().all(|x| *x == five_eighths), "{p:?}");
    }

    #[test]
    fn grid_float_matches_exact() {
        use crate::topo::{Grid, GridSize};
        for size in [
            GridSize::new(Grid::Hex, 5, 4),
            GridSize::new(Grid::Hex, 1, 3),
            GridSize::new(Grid::Triangle, 6, 3),
            GridSize::new(Grid::Triangle, 2, 5),
            GridSize::new(Grid::Polar, 3, 6),
            GridSize::new(Grid::Polar, 4, 3),
        ] {
            let g = CellGraph::new(size);
            let e = uniform_open_exact_graph(&g);
            let f = uniform_open_graph_f64(&g);
            assert_eq!(e.len(), f.len());
            for (a, b) in e.iter().zip(&f) {
                assert!(
                    (a.to_f64().unwrap() - b).abs() < 1e-12,
                    "{size}: {a} vs {b}"
                );
            }
        }
        // Foster's theorem on graphs too large for exact arithmetic: the shares sum to cells − 1.
        for size in [
            GridSize::new(Grid::Hex, 30, 20),
            GridSize::new(Grid::Polar, 12, 6),
        ] {
            let g = CellGraph::new(size);
            let s: f64 = uniform_open_graph_f64(&g).iter().sum();
            assert!((s - f64::from(g.cells() - 1)).abs() < 1e-8, "{size}: {s}");
        }
    }

    #[test]
    fn float_matches_exact() {
        let sizes = [
            Size::planar(1, 2),
            Size::planar(2, 1),
            Size::planar(4, 3),
            Size::planar(3, 4),
            Size::planar(1, 5),
            Size::planar(6, 6),
            Size::new(2, 2, 2),
            Size::new(3, 2, 2),
            Size::new(1, 1, 4),
            Size::new(2, 3, 3),
        ];
        for size in sizes {
            let e = uniform_open_exact(size);
            let f = uniform_open_f64(size);
            assert_eq!(e.len(), f.len());
            for (a, b) in e.iter().zip(&f) {
                assert!(
                    (a.to_f64().unwrap() - b).abs() < 1e-12,
                    "{size}: {a} vs {b}"
                );
            }
            // Foster: the probabilities sum to the tree's edge count, cells − 1.
            let s: f64 = f.iter().sum();
            assert!((s - (size.cells() - 1) as f64).abs() < 1e-9, "{size}");
        }
        let s: f64 = uniform_open_f64(Size::planar(64, 64)).iter().sum();
        assert!((s - 4095.0).abs() < 1e-6, "{s}");
    }
}
