//! τ(G), the number of spanning trees of the W×H grid (or the W×H×D box, six neighbours per
//! cell), by Kirchhoff's matrix-tree theorem.
//!
//! τ is the determinant of the reduced Laplacian (the Laplacian with the last cell's row and
//! column removed), computed exactly with big integers by Bareiss' fraction-free elimination:
//! every intermediate value is itself a minor of the matrix, so every division is exact and no
//! fraction ever appears. The same elimination run Gauss–Jordan style on `[L | I]` yields the
//! integer adjugate `adj(L) = τ · L⁻¹`, which [`super::wall_bias`] turns into exact effective
//! resistances.
//!
//! For grids too large for exact arithmetic, [`log10_spanning_trees`] uses the closed form
//! τ = (1/WHD) ∏ (λ_j + μ_k + ν_l) over the non-zero Laplacian eigenvalues of the product of
//! three paths, λ_j = 2 − 2cos(jπ/W), μ_k = 2 − 2cos(kπ/H), ν_l = 2 − 2cos(lπ/D) (D = 1: ν = 0).

use crate::grid::{Mask, Size};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// Largest grid (in cells) whose τ is computed exactly by default (20×20 takes ~2 s; the
/// `(n−1)³` big-integer steps grow with the digits too).
pub const EXACT_TAU_MAX_CELLS: u64 = 400;

/// The reduced Laplacian of the grid of `size` (last cell removed), as small integers.
pub(crate) fn reduced_laplacian(size: Size) -> Vec<Vec<i64>> {
    let n = size.cells() as usize;
    let edges = super::interior_walls(size)
        .into_iter()
        .map(|w| (w.a as usize, w.b as usize));
    reduced_laplacian_of(n, edges)
}

/// The Laplacian of the graph on vertices `0..n` with the given edges, without the row and
/// column of vertex `n − 1`.
pub(crate) fn reduced_laplacian_of(
    n: usize,
    edges: impl Iterator<Item = (usize, usize)>,
) -> Vec<Vec<i64>> {
    let m = n - 1;
    let mut l = vec![vec![0i64; m]; m];
    for (a, b) in edges {
        if a < m {
            l[a][a] += 1;
        }
        if b < m {
            l[b][b] += 1;
        }
        if a < m && b < m {
            l[a][b] -= 1;
            l[b][a] -= 1;
        }
    }
    l
}

fn to_big(m: &[Vec<i64>]) -> Vec<Vec<BigInt>> {
    m.iter()
        .map(|r| r.iter().map(|&x| BigInt::from(x)).collect())
        .collect()
}

/// Determinant of a square integer matrix by Bareiss' fraction-free elimination (with row
/// swaps on zero pivots).
pub(crate) fn bareiss_det(mut a: Vec<Vec<BigInt>>) -> BigInt {
    let n = a.len();
    if n == 0 {
        return BigInt::one();
    }
    let mut sign = 1i32;
    let mut prev = BigInt::one();
    for k in 0..n - 1 {
        if a[k][k].is_zero() {
            match (k + 1..n).find(|&i| !a[i][k].is_zero()) {
                Some(i) => {
                    a.swap(i, k);
                    sign = -sign;
                }
                None => return BigInt::zero(),
            }
        }
        for i in k + 1..n {
            for j in k + 1..n {
                let v = (&a[k][k] * &a[i][j] - &a[i][k] * &a[k][j]) / &prev;
                a[i][j] = v;
            }
            a[i][k] = BigInt::zero();
        }
        prev = a[k][k].clone();
    }
    let d = a[n - 1][n - 1].clone();
    if sign < 0 {
        -d
    } else {
        d
    }
}

/// The exact number of spanning trees of the grid graph of `size` (2D or 3D).
pub fn spanning_trees(size: Size) -> BigInt {
    if size.cells() == 1 {
        return BigInt::one();
    }
    bareiss_det(to_big(&reduced_laplacian(size)))
}

/// The walls between two cells of `mask` (interior walls of its grid, in [`super::interior_walls`]
/// order): the edges of the masked grid graph.
pub fn mask_walls(mask: &Mask) -> Vec<crate::grid::Wall> {
    super::interior_walls(mask.size())
        .into_iter()
        .filter(|w| mask.contains(w.a) && mask.contains(w.b))
        .collect()
}

/// The reduced Laplacian of the graph of `mask`'s cells (4-neighbours within the mask), its
/// rows and columns the mask's cells in row order, the last one removed.
pub fn reduced_laplacian_masked(mask: &Mask) -> Vec<Vec<i64>> {
    let row = |c: u32| mask.ids().binary_search(&c).expect("a mask cell");
    let edges = mask_walls(mask).into_iter().map(|w| (row(w.a), row(w.b)));
    reduced_laplacian_of(mask.cells() as usize, edges)
}

/// The exact number of spanning trees of the graph of `mask`'s cells: the mazes a generator
/// can make on that mask (the matrix-tree theorem on [`reduced_laplacian_masked`]).
pub fn spanning_trees_masked(mask: &Mask) -> BigInt {
    if mask.cells() == 1 {
        return BigInt::one();
    }
    bareiss_det(to_big(&reduced_laplacian_masked(mask)))
}

/// The exact number of spanning trees of a grid's cell graph (hex, triangle, polar, with or
/// without a mask): the mazes a generator can make there. Rows and columns are the graph's cells
/// in id order, the last one removed.
pub fn spanning_trees_graph(g: &crate::topo::CellGraph) -> BigInt {
    if g.cells() == 1 {
        return BigInt::one();
    }
    let edges = graph_edge_rows(g).into_iter();
    bareiss_det(to_big(&reduced_laplacian_of(g.cells() as usize, edges)))
}

/// The edges of `g`, in edge order, as pairs of rows of its Laplacian (its cells in id order),
/// the lower row first.
pub(crate) fn graph_edge_rows(g: &crate::topo::CellGraph) -> Vec<(usize, usize)> {
    let row = |c: u32| g.ids().binary_search(&c).expect("a cell of the graph");
    (0..g.edges())
        .map(|e| {
            let [a, b] = g.ends(e);
            let (a, b) = (row(a), row(b));
            (a.min(b), a.max(b))
        })
        .collect()
}

/// `log10 τ` of the grid of `size` from the eigenvalue product (floating point; any size).
pub fn log10_spanning_trees(size: Size) -> f64 {
    use std::f64::consts::PI;
    let lam = |j: u32, m: u32| 2.0 - 2.0 * (j as f64 * PI / m as f64).cos();
    let (width, height, depth) = (size.width, size.height, size.depth);
    let mut s = -(size.cells_u64() as f64).log10();
    for l in 0..depth {
        for j in 0..width {
            for k in 0..height {
                if j == 0 && k == 0 && l == 0 {
                    continue;
                }
                s += (lam(j, width) + lam(k, height) + lam(l, depth)).log10();
            }
        }
    }
    s
}

/// The determinant and the adjugate of a symmetric positive-definite integer matrix (such as a
/// reduced Laplacian of a connected graph), by fraction-free Gauss–Jordan elimination on
/// `[A | I]`: at the end the left block is `det · I` and the right block is `adj(A)`, so that
/// `A · adj(A) = det · I`. Positive definiteness guarantees non-zero pivots.
pub fn det_and_adjugate(a: &[Vec<i64>]) -> (BigInt, Vec<Vec<BigInt>>) {
    let n = a.len();
    let mut m: Vec<Vec<BigInt>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r: Vec<BigInt> = row.iter().map(|&x| BigInt::from(x)).collect();
            r.extend((0..n).map(|j| {
                if i == j {
                    BigInt::one()
                } else {
                    BigInt::zero()
                }
            }));
            r
        })
        .collect();
    let mut prev = BigInt::one();
    for k in 0..n {
        assert!(
            !m[k][k].is_zero(),
            "zero pivot: matrix not positive definite"
        );
        let pivot_row = m[k].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i == k {
                continue;
            }
            let f = row[k].clone();
            for j in 0..2 * n {
                if j == k {
                    continue;
                }
                row[j] = (&pivot_row[k] * &row[j] - &f * &pivot_row[j]) / &prev;
            }
            row[k] = BigInt::zero();
        }
        prev = pivot_row[k].clone();
    }
    let adj = m.into_iter().map(|r| r[n..].to_vec()).collect();
    (prev, adj)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_determinants() {
        let m = to_big(&[vec![2, -1], vec![-1, 2]]);
        assert_eq!(bareiss_det(m), BigInt::from(3));
        let m = to_big(&[vec![0, 1], vec![1, 0]]);
        assert_eq!(bareiss_det(m), BigInt::from(-1));
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn adjugate_inverts() {
        let l = reduced_laplacian(Size::planar(3, 3));
        let (d, adj) = det_and_adjugate(&l);
        assert_eq!(d, BigInt::from(192));
        let n = l.len();
        for i in 0..n {
            for j in 0..n {
                let s: BigInt = (0..n).map(|k| BigInt::from(l[i][k]) * &adj[k][j]).sum();
                assert_eq!(s, if i == j { d.clone() } else { BigInt::zero() });
            }
        }
    }

    #[test]
    fn spectral_formula_matches_exact() {
        for (w, h) in [(2, 3), (3, 3), (4, 4), (5, 5), (8, 8)] {
            let exact: f64 = spanning_trees(Size::planar(w, h))
                .to_string()
                .parse::<f64>()
                .unwrap()
                .log10();
            assert!(
                (exact - log10_spanning_trees(Size::planar(w, h))).abs() < 1e-9,
                "{w}x{h}"
            );
        }
        for size in [Size::new(2, 2, 2), Size::new(3, 2, 2), Size::new(3, 3, 3)] {
            let exact: f64 = spanning_trees(size)
                .to_string()
                .parse::<f64>()
                .unwrap()
                .log10();
            assert!((exact - log10_spanning_trees(size)).abs() < 1e-9, "{size}");
        }
    }
}
