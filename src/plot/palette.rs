//! The colours of the pictures: one per generator, and the ramp that shows a density.
//!
//! Series colours are the seven colours of Okabe and Ito's colour-blind-safe palette (their
//! black is left out: it draws the accepted region) followed by seven of Paul Tol's "muted"
//! scheme (indigo, wine, green, olive, rose, teal, purple), so 14 generators get 14 distinct
//! colours; within each half the colours stay apart under the common colour-vision
//! deficiencies. Densities use the viridis ramp (perceptually uniform, readable in grey and by
//! colour-blind readers), dark for few mazes and yellow for many.

use plotters::style::RGBColor;

/// Series colours, one per generator in order.
pub const PALETTE: [(u8, u8, u8); 14] = [
    // Okabe–Ito (without black).
    (0xE6, 0x9F, 0x00), // orange
    (0x56, 0xB4, 0xE9), // sky blue
    (0x00, 0x9E, 0x73), // bluish green
    (0xF0, 0xE4, 0x42), // yellow
    (0x00, 0x72, 0xB2), // blue
    (0xD5, 0x5E, 0x00), // vermillion
    (0xCC, 0x79, 0xA7), // reddish purple
    // Tol's muted.
    (0x33, 0x22, 0x88), // indigo
    (0x88, 0x22, 0x55), // wine
    (0x11, 0x77, 0x33), // green
    (0x99, 0x99, 0x33), // olive
    (0xCC, 0x66, 0x77), // rose
    (0x44, 0xAA, 0x99), // teal
    (0xAA, 0x44, 0x99), // purple
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// Viridis at ten evenly spaced points (from matplotlib's table).
const VIRIDIS: [(u8, u8, u8); 10] = [
    (0x44, 0x01, 0x54),
    (0x48, 0x28, 0x78),
    (0x3E, 0x4A, 0x89),
    (0x31, 0x68, 0x8E),
    (0x26, 0x82, 0x8E),
    (0x1F, 0x9E, 0x89),
    (0x35, 0xB7, 0x79),
    (0x6D, 0xCD, 0x59),
    (0xB4, 0xDE, 0x2C),
    (0xFD, 0xE7, 0x25),
];

/// The ramp's colour at `t` in `[0, 1]` (clamped), interpolated linearly between its points.
pub fn ramp(t: f64) -> RGBColor {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let f = t * (VIRIDIS.len() - 1) as f64;
    let i = (f.floor() as usize).min(VIRIDIS.len() - 2);
    let u = f - i as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * u).round() as u8;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourteen_distinct_colours() {
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[i + 1..] {
                let d = (a.0 as i32 - b.0 as i32).abs()
                    + (a.1 as i32 - b.1 as i32).abs()
                    + (a.2 as i32 - b.2 as i32).abs();
                assert!(d >= 60, "{a:?} and {b:?} are too close");
            }
        }
    }

    #[test]
    fn ramp_ends() {
        assert_eq!(ramp(0.0), RGBColor(0x44, 0x01, 0x54));
        assert_eq!(ramp(1.0), RGBColor(0xFD, 0xE7, 0x25));
        assert_eq!(ramp(f64::NAN), ramp(0.0));
    }
}
