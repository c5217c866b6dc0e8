//! Per-wall bias: how often each interior wall is open, against its exact probability under the
//! uniform distribution over spanning trees.
//!
//! In a uniform spanning tree, edge `{a, b}` of a unit-weight graph is present with probability
//! equal to the effective resistance between `a` and `b` (Kirchhoff). With the last cell as
//! ground, `R(a,b) = G_aa + G_bb − 2 G_ab` where `G = L_r⁻¹ = adj(L_r) / τ`; the adjugate is an
//! exact integer matrix ([`super::kirchhoff::det_and_adjugate`]), so each probability is an exact
//! rational with denominator dividing τ. They sum to `W·H − 1` (Foster's theorem: a spanning
//! tree has that many edges). For grids too large for exact arithmetic, [`uniform_open_f64`]
//! solves the same system in floating point.

use super::kirchhoff::{det_and_adjugate, reduced_laplacian};
use super::{interior_walls, Wall};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// Largest grid (cells) whose per-wall probabilities are computed exactly by default.
pub const EXACT_WALL_MAX_CELLS: u64 = 144;
/// Largest grid (cells) whose per-wall probabilities are computed in floating point.
pub const FLOAT_WALL_MAX_CELLS: u64 = 1600;

/// The exact probability that each interior wall (in [`interior_walls`] order) is open in a
/// uniformly random spanning tree.
pub fn uniform_open_exact(width: u32, height: u32) -> Vec<BigRational> {
    let walls = interior_walls(width, height);
    if width * height == 1 {
        return Vec::new();
    }
    let l = reduced_laplacian(width, height);
    let g = l.len() as u32; // the ground cell's id: the last cell
    let (tau, adj) = det_and_adjugate(&l);
    let at = |i: u32, j: u32| -> BigInt {
        if i == g || j == g {
            BigInt::zero()
        } else {
            adj[i as usize][j as usize].clone()
        }
    };
    walls
        .iter()
        .map(|w| {
            let num = at(w.a, w.a) + at(w.b, w.b) - at(w.a, w.b) * 2;
            BigRational::new(num, tau.clone())
        })
        .collect()
}

/// The same probabilities as [`uniform_open_exact`], by floating-point Gauss–Jordan inversion of
/// the reduced Laplacian (for grids up to [`FLOAT_WALL_MAX_CELLS`] cells).
pub fn uniform_open_f64(width: u32, height: u32) -> Vec<f64> {
    let walls = interior_walls(width, height);
    if width * height == 1 {
        return Vec::new();
    }
    let l = reduced_laplacian(width, height);
    let n = l.len();
    let mut m: Vec<Vec<f64>> = l
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row: Vec<f64> = r.iter().map(|&x| x as f64).collect();
            row.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for k in 0..n {
        let p = m[k][k];
        for v in m[k].iter_mut() {
            *v /= p;
        }
        let pr = m[k].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i != k && row[k] != 0.0 {
                let f = row[k];
                for (x, y) in row.iter_mut().zip(&pr) {
                    *x -= f * y;
                }
            }
        }
    }
    let g = n as u32;
    let at = |i: u32, j: u32| {
        if i == g || j == g {
            0.0
        } else {
            m[i as usize][n + j as usize]
        }
    };
    walls
        .iter()
        .map(|w| at(w.a, w.a) + at(w.b, w.b) - 2.0 * at(w.a, w.b))
        .collect()
}

/// How many times each wall (in `walls` order) is open, weighted: `counts[i] += weight` for every
/// open wall `i` of the tree `words`.
pub fn add_open_counts(walls: &[Wall], words: &[u64], weight: u64, counts: &mut [u64]) {
    for (c, w) in counts.iter_mut().zip(walls) {
        if w.open_in(words) {
            *c += weight;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::ToPrimitive;

    #[test]
    fn central_wall_of_2x3_is_three_fifths() {
        // 2 wide, 3 high: the wall shared by both 4-cycles is the vertical wall east of (0,1).
        let p = uniform_open_exact(2, 3);
        let walls = interior_walls(2, 3);
        let i = walls.iter().position(|w| w.label(2) == "E(0,1)").unwrap();
        assert_eq!(p[i], BigRational::new(3.into(), 5.into()));
        // Transposed grid: the same edge is the south wall of (1,0).
        let p = uniform_open_exact(3, 2);
        let i = interior_walls(3, 2)
            .iter()
            .position(|w| w.label(3) == "S(1,0)")
            .unwrap();
        assert_eq!(p[i], BigRational::new(3.into(), 5.into()));
    }

    #[test]
    fn float_matches_exact() {
        let e = uniform_open_exact(4, 3);
        let f = uniform_open_f64(4, 3);
        for (a, b) in e.iter().zip(&f) {
            assert!((a.to_f64().unwrap() - b).abs() < 1e-12);
        }
    }
}
