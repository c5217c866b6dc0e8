//! Pictures of metrics files with the `plotters` crate: a histogram per metric (one colour per
//! generator) and a density of two columns, each drawn twice, to SVG and to an RGB buffer
//! encoded as PNG by the `png` crate.
//!
//! Pictures scale to the 14 generators of a main job: a [`palette`] of 14 colours; with
//! [`Layout::Facet`] one small panel per generator, every panel on the same axes; ranges from
//! percentiles ([`axis`]) with what falls outside counted in edge bins and said under the
//! title; whole-number ticks on integer columns; a colour bar beside every density. An accept
//! filter on the two density columns alone is drawn as the exact region it accepts
//! ([`region`]); any other filter as its own layer of the passing rows.
//!
//! Text needs a font and the machine may have none: the DejaVu Sans bytes shipped inside the
//! `dejavu` crate are registered with plotters' `ab_glyph` renderer, so no system font is used.

pub mod axis;
pub mod density;
pub mod histogram;
pub mod palette;
pub mod region;

use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

pub use axis::{Axis, Bins, Place};
pub use density::{Accepted, Density, Panel};
pub use histogram::{HistSeries, Histogram};
pub use palette::{colour, ramp, PALETTE};

/// Size in pixels of a picture drawn as one chart.
pub const SIZE: (u32, u32) = (900, 560);
/// Size in pixels of one panel of a faceted picture.
pub const PANEL: (u32, u32) = (280, 210);
/// Width in pixels of the colour bar beside a density.
pub const BAR_STRIP: u32 = 110;

/// One chart, or one panel per generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Every generator in one chart (histograms: one outline each; a density: pooled).
    Single,
    /// One small panel per generator, all on the same axes.
    Facet,
}

/// Drawing failed (plotters reports its backends' errors as text).
#[derive(Debug, thiserror::Error)]
#[error("drawing {what}: {why}")]
pub struct PlotError {
    /// Which picture.
    pub what: String,
    /// The backend's complaint.
    pub why: String,
}

pub(crate) fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a valid TrueType font shipped by the `dejavu` crate.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}

pub(crate) type Area<'b, B> = DrawingArea<B, plotters::coord::Shift>;

/// Rows and columns of a grid of `n` panels: about 4:3 overall.
pub fn grid(n: usize) -> (usize, usize) {
    let n = n.max(1);
    let cols = ((n as f64 * 1.5).sqrt().ceil() as usize).clamp(1, n);
    (n.div_ceil(cols), cols)
}

/// Height in pixels of the header (a title and `notes` lines).
fn header_height(notes: usize) -> u32 {
    34 + 18 * notes as u32
}

/// The size of a picture with `panels` panels (0: a single chart), a header of `notes` lines
/// and optionally a colour bar.
pub(crate) fn picture_size(panels: usize, notes: usize, bar: bool) -> (u32, u32) {
    let strip = if bar { BAR_STRIP } else { 0 };
    if panels == 0 {
        (SIZE.0 + strip, SIZE.1 + 18 * notes as u32)
    } else {
        let (r, c) = grid(panels);
        (
            PANEL.0 * c as u32 + strip,
            PANEL.1 * r as u32 + header_height(notes),
        )
    }
}

/// Draw the title and the notes under it; the area left below.
pub(crate) fn header<'b, B: DrawingBackend>(
    root: &Area<'b, B>,
    title: &str,
    notes: &[String],
) -> Result<Area<'b, B>, String> {
    let (w, _) = root.dim_in_pixel();
    let (top, rest) = root.split_vertically(header_height(notes.len()));
    let centre = |size: u32| {
        ("sans-serif", size)
            .into_font()
            .color(&BLACK)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Top,
            ))
    };
    top.draw_text(title, &centre(20), (w as i32 / 2, 8))
        .map_err(|e| e.to_string())?;
    for (i, n) in notes.iter().enumerate() {
        top.draw_text(n, &centre(14), (w as i32 / 2, 34 + 18 * i as i32))
            .map_err(|e| e.to_string())?;
    }
    Ok(rest)
}

/// A picture to draw.
pub enum Picture<'a> {
    /// One metric's histogram.
    Histogram(&'a Histogram),
    /// A 2D density.
    Density(&'a Density),
}

impl Picture<'_> {
    fn draw<B: DrawingBackend>(&self, root: &Area<'_, B>) -> Result<(), String> {
        match self {
            Picture::Histogram(h) => h.draw(root),
            Picture::Density(d) => d.draw(root),
        }
    }

    fn name(&self) -> String {
        match self {
            Picture::Histogram(h) => h.title.clone(),
            Picture::Density(d) => d.title.clone(),
        }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Picture::Histogram(h) => h.size(),
            Picture::Density(d) => d.size(),
        }
    }

    /// The picture as an SVG document.
    pub fn svg(&self) -> Result<String, PlotError> {
        register_font();
        let mut s = String::new();
        {
            let root = SVGBackend::with_string(&mut s, self.size()).into_drawing_area();
            self.draw(&root).map_err(|why| PlotError {
                what: self.name(),
                why,
            })?;
        }
        Ok(s)
    }

    /// The picture as PNG bytes.
    pub fn png(&self) -> Result<Vec<u8>, PlotError> {
        register_font();
        let err = |why: String| PlotError {
            what: self.name(),
            why,
        };
        let size = self.size();
        let mut rgb = vec![0u8; (size.0 * size.1 * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
            self.draw(&root).map_err(err)?;
        }
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, size.0, size.1);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| err(e.to_string()))?;
        w.write_image_data(&rgb).map_err(|e| err(e.to_string()))?;
        w.finish().map_err(|e| err(e.to_string()))?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids() {
        assert_eq!(grid(1), (1, 1));
        assert_eq!(grid(3), (1, 3));
        assert_eq!(grid(14), (3, 5));
        let (r, c) = grid(14);
        assert!(r * c >= 14 && (r - 1) * c < 14);
    }
}
