//! The uniformity lab: how far is each generator from "every spanning tree equally likely"?
//!
//! A perfect maze on a W×H grid (or a W×H×D box: every part takes a [`Size`], 3D included) is a
//! spanning tree of the grid graph. This module measures, for
//! every generator in [`crate::Algorithm::all`], how its mazes are distributed over those trees:
//!
//! * [`kirchhoff`]: τ(G), the number of spanning trees (matrix-tree theorem, exact big
//!   integers), and the integer adjugate of the reduced Laplacian;
//! * [`wall_bias`]: each interior wall's exact probability of being open in a uniform spanning
//!   tree (its effective resistance, exact rationals);
//! * [`enumerate`]: an enumerating [`crate::RandomSource`] that drives the real generator code
//!   over every branch of its random choices, giving the exact distribution over trees;
//! * [`kruskal_orders`]: Kruskal over every one of the E! wall orders (brute force, parallel);
//! * [`sample`]: N mazes per generator, seeded exactly as the batch seeds them, with Pearson's
//!   chi-square against uniform ([`stats`] has the p-value);
//! * [`grid_lab`]: the same study on the hex, triangle and polar grids (τ, exact
//!   distributions, chi-square);
//! * [`report`]: the whole study for one grid size (plan, estimates, run); [`render`] prints it
//!   as a table, [`report_json`] as JSON (laid out by [`crate::json`], which every JSON output of
//!   the program shares).

pub mod enumerate;
pub mod grid_lab;
pub mod kirchhoff;
pub mod kruskal_orders;
pub mod render;
pub mod report;
pub mod report_json;
pub mod sample;
pub mod stats;
pub mod verdict;
pub mod wall_bias;

pub use crate::grid::{Size, Wall};

/// Every interior wall of a grid of `size` (2D or 3D), in the order Kruskal lists them
/// (row-major cells, east wall before south wall, then the down walls):
/// [`crate::grid::Size::interior_walls`].
pub fn interior_walls(size: Size) -> Vec<Wall> {
    size.interior_walls().collect()
}

/// A tree (maze) as its wall words, for use as a map key.
pub(crate) type TreeKey = Box<[u64]>;

/// Write the tree with the given wall words as a compact code: the open walls' bits as one
/// hexadecimal number per word, most significant word first (`0x…`).
pub fn tree_code(words: &[u64]) -> String {
    let mut s = String::from("0x");
    for (i, w) in words.iter().rev().enumerate() {
        if i == 0 {
            s.push_str(&format!("{w:x}"));
        } else {
            s.push_str(&format!("{w:016x}"));
        }
    }
    s
}

/// `"1.2 s"`, `"3.4 min"`, `"5.6 h"`, `"7.8 days"`, `"9.0e3 years"`.
pub(crate) fn human_duration(s: f64) -> String {
    if !s.is_finite() {
        "forever".into()
    } else if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 86400.0 * 2.0 {
        format!("{:.1} h", s / 3600.0)
    } else if s < 86400.0 * 365.0 {
        format!("{:.1} days", s / 86400.0)
    } else {
        format!("{:.1e} years", s / 86400.0 / 365.25)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_counts() {
        assert_eq!(interior_walls(Size::planar(3, 2)).len(), 7);
        assert_eq!(interior_walls(Size::planar(3, 3)).len(), 12);
        assert_eq!(interior_walls(Size::planar(8, 8)).len(), 112);
        assert_eq!(interior_walls(Size::new(2, 2, 2)).len(), 12);
        let w = interior_walls(Size::planar(3, 2));
        assert_eq!(w[0].label(crate::grid::Size::planar(3, 2)), "E(0,0)");
        assert_eq!(w[1].label(crate::grid::Size::planar(3, 2)), "S(0,0)");
    }
}
