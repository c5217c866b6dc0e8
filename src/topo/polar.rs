//! The polar grid's rings: how many cells each ring has, and where a cell sits.
//!
//! The subdivision rule is that of *Mazes for Programmers* (Jamis Buck, 2015, chapter 7): ring 0
//! is one centre cell; ring `r ≥ 1` has `count(r) = count(r − 1) · ratio(r)` cells with
//!
//! ```text
//! ratio(r) = max(1, round(2π·r / count(r − 1)))      (round half away from zero, in f64)
//! ```
//!
//! which keeps a cell's arc (`2π·r / count` for a ring of unit height at radius `r`) close to its
//! height of 1. Ring 1 gets `round(2π) = 6` cells; then 12, 24, 24, 24, 48, … With `--size RxC`
//! the first ring has `C` cells instead of 6 and the rule continues from there. The book's
//! `rows` is `R` here: the rings, the centre included, so `--size 1` is the one-cell maze.
//! `2π·r / count` is never within 10⁻⁶ of a half for the sizes a maze can have (a test checks it
//! up to the cell limit), so the f64 rounding is exact and the layout is the same on every
//! machine.
//!
//! Cell ids go ring by ring from the centre (id 0); ring `r`'s cell `i` (`0 ≤ i < count(r)`)
//! covers the angles `[i, i + 1) · 2π / count(r)`, measured clockwise on the screen from the
//! east (x right, y down). Neighbours: clockwise `i + 1` and counter-clockwise `i − 1`
//! (mod `count(r)`, when the ring has 2 or more cells: with 2 cells the two are one edge),
//! inward the cell `i / ratio(r)` of ring `r − 1` (the centre for ring 1), outward the
//! `ratio(r + 1)` cells `i·ratio(r + 1) ..` of ring `r + 1`.

/// The cells of ring 1 by the rule (`round(2π)`).
pub const FIRST_RING: u32 = 6;

/// `ratio(r)` for ring `r ≥ 2` after a ring of `prev` cells (see the module docs).
#[inline]
pub fn ratio(r: u32, prev: u32) -> u32 {
    let x = std::f64::consts::TAU * r as f64 / prev as f64;
    (x.round() as u32).max(1)
}

/// The cell counts of the rings of an `rings × first` polar grid (ring 0 first), into `out`.
pub fn ring_counts(rings: u32, first: u32, out: &mut Vec<u32>) {
    out.clear();
    let mut prev = 1u64;
    for r in 0..rings {
        let c = match r {
            0 => 1,
            1 => first as u64,
            _ => prev * ratio(r, prev.min(u32::MAX as u64) as u32) as u64,
        };
        // Counts past u32 only arise for sizes refused by the cell limit; saturate.
        out.push(c.min(u32::MAX as u64) as u32);
        prev = c;
    }
}

/// The cells of an `rings × first` polar grid, without building it (stops counting past the
/// cell limit, so it is cheap for any input).
pub fn total_cells(rings: u32, first: u32) -> u64 {
    let mut total = 0u64;
    let mut prev = 1u64;
    for r in 0..rings {
        let c = match r {
            0 => 1,
            1 => first as u64,
            _ => prev * ratio(r, prev as u32) as u64,
        };
        total += c;
        if total > crate::grid::MAX_CELLS {
            return total;
        }
        prev = c;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_counts() {
        let mut c = Vec::new();
        ring_counts(8, FIRST_RING, &mut c);
        assert_eq!(c, [1, 6, 12, 24, 24, 24, 48, 48]);
        assert_eq!(total_cells(8, 6), c.iter().map(|&v| v as u64).sum::<u64>());
        ring_counts(1, 6, &mut c);
        assert_eq!(c, [1]);
    }

    #[test]
    fn rounding_is_never_near_a_half() {
        let mut prev = 6u64;
        let mut total = 7u64;
        let mut r = 2u32;
        while total <= crate::grid::MAX_CELLS {
            let x = std::f64::consts::TAU * r as f64 / prev as f64;
            assert!((x - x.floor() - 0.5).abs() > 1e-6, "ring {r}: {x}");
            prev *= ratio(r, prev as u32) as u64;
            total += prev;
            r += 1;
        }
    }
}
