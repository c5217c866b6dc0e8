//! Pictures of metrics files with the `plotters` crate: a histogram per metric with one colour
//! per algorithm, and a density of solution length against dead-end share (with an accept
//! filter, the cells holding accepted mazes outlined). Each picture is drawn twice, to SVG and
//! to an RGB buffer encoded as PNG by the `png` crate.
//!
//! Text needs a font and the machine may have none: the DejaVu Sans bytes shipped inside the
//! `dejavu` crate are registered with plotters' `ab_glyph` renderer, so no system font is used.

use std::sync::Once;

use plotters::prelude::*;
use plotters::style::{FontStyle, RGBColor};

use crate::summary::dist::Stat;

/// Series colours, one per algorithm in order (colour-blind-friendly Tableau 10, then more).
pub const PALETTE: [(u8, u8, u8); 14] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
    (0, 0, 128),
    (128, 64, 0),
    (0, 100, 60),
    (90, 0, 90),
];

/// Picture size in pixels.
pub const SIZE: (u32, u32) = (900, 560);

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
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

fn register_font() {
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

/// One algorithm's values of one metric.
pub struct Series<'a> {
    /// Algorithm name (legend).
    pub name: &'a str,
    /// Its statistics (the value distribution gives the bars).
    pub stat: &'a Stat,
}

/// A histogram of one metric: the x range is shared, bars are the share of each algorithm's
/// rows in each bin (so algorithms with different counts compare).
pub struct Histogram<'a> {
    /// Metric column name (x axis label).
    pub metric: &'a str,
    /// Title.
    pub title: String,
    /// One series per algorithm.
    pub series: Vec<Series<'a>>,
}

/// Bins for a range of values: (lower edge, width, count); integer data gets whole-number
/// bins.
fn bins(lo: f64, hi: f64, integer: bool) -> (f64, f64, usize) {
    const MAX_BINS: f64 = 60.0;
    if integer {
        let span = hi - lo + 1.0;
        let w = (span / MAX_BINS).ceil().max(1.0);
        (lo - 0.5, w, (span / w).ceil() as usize)
    } else if hi > lo {
        let w = (hi - lo) / MAX_BINS;
        (lo, w, MAX_BINS as usize)
    } else {
        (lo - 0.5, 1.0, 1)
    }
}

type Area<'b, B> = DrawingArea<B, plotters::coord::Shift>;

fn draw_histogram<B: DrawingBackend>(root: &Area<'_, B>, h: &Histogram<'_>) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let all: Vec<Vec<(f64, u64)>> = h.series.iter().map(|s| s.stat.items()).collect();
    let lo = all
        .iter()
        .filter_map(|v| v.first().map(|x| x.0))
        .fold(f64::INFINITY, f64::min);
    let hi = all
        .iter()
        .filter_map(|v| v.last().map(|x| x.0))
        .fold(f64::NEG_INFINITY, f64::max);
    let integer = all.iter().flatten().all(|(v, _)| v.fract() == 0.0);
    let (start, width, n) = bins(lo, hi, integer);
    let shares: Vec<Vec<f64>> = all
        .iter()
        .zip(&h.series)
        .map(|(items, s)| {
            let mut b = vec![0.0; n];
            let total = s.stat.count().max(1) as f64;
            for &(v, c) in items {
                let i = (((v - start) / width).floor().max(0.0) as usize).min(n - 1);
                b[i] += c as f64 / total;
            }
            b
        })
        .collect();
    let top = shares.iter().flatten().fold(0.0f64, |a, &b| a.max(b)) * 1.08;
    let end = start + width * n as f64;
    let mut chart = ChartBuilder::on(root)
        .caption(&h.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(start..end, 0.0..top.max(1e-9))
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc(h.metric)
        .y_desc("share of the algorithm's mazes")
        .axis_desc_style(("sans-serif", 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| e.to_string())?;
    for (k, (s, b)) in h.series.iter().zip(&shares).enumerate() {
        let c = colour(k);
        chart
            .draw_series(
                b.iter()
                    .enumerate()
                    .filter(|(_, &y)| y > 0.0)
                    .map(|(i, &y)| {
                        let x0 = start + width * i as f64;
                        Rectangle::new([(x0, 0.0), (x0 + width, y)], c.mix(0.25).filled())
                    }),
            )
            .map_err(|e| e.to_string())?;
        // The outline as a step line in the solid colour: this is the series.
        let mut pts = vec![(start, 0.0)];
        for (i, &y) in b.iter().enumerate() {
            let x0 = start + width * i as f64;
            pts.push((x0, y));
            pts.push((x0 + width, y));
        }
        pts.push((end, 0.0));
        chart
            .draw_series(LineSeries::new(pts, c.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(s.name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// A 2D density: per algorithm, counts in a grid of cells over (x, y).
pub struct Density {
    /// Title.
    pub title: String,
    /// Axis labels.
    pub x_label: String,
    /// Axis labels.
    pub y_label: String,
    /// Ranges of the grid.
    pub x_range: (f64, f64),
    /// Ranges of the grid.
    pub y_range: (f64, f64),
    /// Cells per axis.
    pub cells: (usize, usize),
    /// Per algorithm: name and cell counts (row-major, `cells.0 * cells.1`).
    pub series: Vec<(String, Vec<u64>)>,
    /// Cells holding accepted rows (with a filter), and the filter text.
    pub accepted: Option<(String, Vec<u64>)>,
}

impl Density {
    /// An empty grid.
    pub fn new(x_range: (f64, f64), y_range: (f64, f64), cells: (usize, usize)) -> Density {
        Density {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            x_range,
            y_range,
            cells,
            series: Vec::new(),
            accepted: None,
        }
    }

    /// The cell index of a point.
    pub fn cell(&self, x: f64, y: f64) -> usize {
        let f = |v: f64, (lo, hi): (f64, f64), n: usize| {
            let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.0 };
            ((t * n as f64).floor().max(0.0) as usize).min(n - 1)
        };
        f(y, self.y_range, self.cells.1) * self.cells.0 + f(x, self.x_range, self.cells.0)
    }

    fn edges(&self, i: usize) -> ((f64, f64), (f64, f64)) {
        let (cx, cy) = (i % self.cells.0, i / self.cells.0);
        let w = (self.x_range.1 - self.x_range.0) / self.cells.0 as f64;
        let h = (self.y_range.1 - self.y_range.0) / self.cells.1 as f64;
        let x0 = self.x_range.0 + w * cx as f64;
        let y0 = self.y_range.0 + h * cy as f64;
        ((x0, y0), (x0 + w, y0 + h))
    }
}

fn draw_density<B: DrawingBackend>(root: &Area<'_, B>, d: &Density) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let pad = |(lo, hi): (f64, f64)| {
        let p = if hi > lo { (hi - lo) * 0.02 } else { 0.5 };
        (lo - p)..(hi + p)
    };
    let mut chart = ChartBuilder::on(root)
        .caption(&d.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(pad(d.x_range), pad(d.y_range))
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc(&d.x_label)
        .y_desc(&d.y_label)
        .axis_desc_style(("sans-serif", 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| e.to_string())?;
    for (k, (name, counts)) in d.series.iter().enumerate() {
        let c = colour(k);
        let max = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        chart
            .draw_series(
                counts
                    .iter()
                    .enumerate()
                    .filter(|(_, &n)| n > 0)
                    .map(|(i, &n)| {
                        // Opacity grows with the log of the count: sparse tails stay visible.
                        let a = 0.15 + 0.6 * (1.0 + n as f64).ln() / (1.0 + max).ln();
                        let (p0, p1) = d.edges(i);
                        Rectangle::new([p0, p1], c.mix(a).filled())
                    }),
            )
            .map_err(|e| e.to_string())?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
    }
    if let Some((expr, acc)) = &d.accepted {
        // The accepted region's boundary: every edge between a cell holding accepted mazes
        // and one holding none (or the border).
        let (nx, ny) = d.cells;
        let inside = |cx: isize, cy: isize| {
            cx >= 0
                && cy >= 0
                && (cx as usize) < nx
                && (cy as usize) < ny
                && acc[cy as usize * nx + cx as usize] > 0
        };
        let mut edges = Vec::new();
        for (i, _) in acc.iter().enumerate().filter(|(_, &n)| n > 0) {
            let (cx, cy) = ((i % nx) as isize, (i / nx) as isize);
            let ((x0, y0), (x1, y1)) = d.edges(i);
            for (dx, dy, a, b) in [
                (-1, 0, (x0, y0), (x0, y1)),
                (1, 0, (x1, y0), (x1, y1)),
                (0, -1, (x0, y0), (x1, y0)),
                (0, 1, (x0, y1), (x1, y1)),
            ] {
                if !inside(cx + dx, cy + dy) {
                    edges.push(vec![a, b]);
                }
            }
        }
        chart
            .draw_series(
                edges
                    .into_iter()
                    .map(|e| PathElement::new(e, BLACK.stroke_width(2))),
            )
            .map_err(|e| e.to_string())?
            .label(format!("accepted: {expr}"))
            .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], BLACK.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// A picture to draw.
pub enum Picture<'a> {
    /// One metric's histogram.
    Histogram(&'a Histogram<'a>),
    /// The 2D density.
    Density(&'a Density),
}

impl Picture<'_> {
    fn draw<B: DrawingBackend>(&self, root: &Area<'_, B>) -> Result<(), String> {
        match self {
            Picture::Histogram(h) => draw_histogram(root, h),
            Picture::Density(d) => draw_density(root, d),
        }
    }

    fn name(&self) -> String {
        match self {
            Picture::Histogram(h) => h.title.clone(),
            Picture::Density(d) => d.title.clone(),
        }
    }

    /// The picture as an SVG document.
    pub fn svg(&self) -> Result<String, PlotError> {
        register_font();
        let mut s = String::new();
        {
            let root = SVGBackend::with_string(&mut s, SIZE).into_drawing_area();
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
        let mut rgb = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
            self.draw(&root).map_err(err)?;
        }
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, SIZE.0, SIZE.1);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| err(e.to_string()))?;
        w.write_image_data(&rgb).map_err(|e| err(e.to_string()))?;
        w.finish().map_err(|e| err(e.to_string()))?;
        Ok(out)
    }
}
