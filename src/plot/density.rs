//! A 2D density of two columns: rows per cell of a grid over the two axes' ranges (a row
//! outside a range is counted in the edge cell it is nearest), coloured on a logarithmic
//! viridis scale shown by a colour bar. One chart of every generator pooled, or one panel per
//! generator on the same axes and the same colour scale.
//!
//! With an accept filter: the region it accepts, exactly (a light shade with a black
//! boundary), when it reads only the two columns ([`super::region`]); otherwise the cells
//! holding passing rows, marked by black dots as their own layer.

use plotters::prelude::*;

use super::axis::Axis;
use super::region::Region;
use super::{grid, header, picture_size, ramp, Area, Layout, BAR_STRIP};
use crate::thousands::thousands;

/// One generator's cells.
#[derive(Clone, Debug)]
pub struct Panel {
    /// Generator name.
    pub name: String,
    /// Rows per cell (row-major, `cells.0 * cells.1`).
    pub counts: Vec<u64>,
    /// Rows passing the filter per cell (empty without a filter).
    pub passing: Vec<u64>,
}

/// How an accept filter is shown.
#[derive(Clone, Debug)]
pub enum Accepted {
    /// The exact region it accepts.
    Region {
        /// The filter text.
        expr: String,
        /// The region.
        region: Region,
    },
    /// The passing rows, as a layer of marks on the cells holding any.
    Rows {
        /// The filter text.
        expr: String,
    },
}

/// A density to draw.
#[derive(Clone, Debug)]
pub struct Density {
    /// Title.
    pub title: String,
    /// Lines under the title.
    pub notes: Vec<String>,
    /// The x axis.
    pub x: Axis,
    /// The y axis.
    pub y: Axis,
    /// Cells along x and y.
    pub cells: (usize, usize),
    /// The extents the cells cover along x and y.
    pub extent: ((f64, f64), (f64, f64)),
    /// One panel per generator.
    pub panels: Vec<Panel>,
    /// The accept filter, if any.
    pub accepted: Option<Accepted>,
    /// One chart (the panels pooled) or one panel each.
    pub layout: Layout,
}

/// The cells along an axis, at most `cells`, and the extent they cover: on an integer column
/// each cell holds the same count of whole numbers, which sit mid-cell.
pub(crate) fn cells_along(a: &Axis, cells: usize) -> (usize, (f64, f64)) {
    if a.integer {
        let span = a.hi - a.lo + 1.0;
        let w = (span / cells as f64).ceil().max(1.0);
        let n = (span / w).ceil() as usize;
        (n, (a.lo - 0.5, a.lo - 0.5 + w * n as f64))
    } else if a.hi > a.lo {
        (cells, (a.lo, a.hi))
    } else {
        (1, (a.lo - 0.5, a.hi + 0.5))
    }
}

impl Density {
    /// An empty density of at most `cells` cells along each axis, one panel per name.
    pub fn new(x: Axis, y: Axis, cells: usize, names: &[String], filter: bool) -> Density {
        let (nx, ex) = cells_along(&x, cells);
        let (ny, ey) = cells_along(&y, cells);
        let cells = (nx, ny);
        let n = cells.0 * cells.1;
        Density {
            title: String::new(),
            notes: Vec::new(),
            x,
            y,
            cells,
            extent: (ex, ey),
            panels: names
                .iter()
                .map(|name| Panel {
                    name: name.clone(),
                    counts: vec![0; n],
                    passing: if filter { vec![0; n] } else { Vec::new() },
                })
                .collect(),
            accepted: None,
            layout: Layout::Single,
        }
    }

    /// The cell of a point (values outside the ranges go to the edge cells).
    #[inline]
    pub fn cell(&self, x: f64, y: f64) -> usize {
        let f = |v: f64, (lo, hi): (f64, f64), n: usize| {
            let t = (v - lo) / (hi - lo);
            ((t * n as f64).floor().max(0.0) as usize).min(n - 1)
        };
        f(y, self.extent.1, self.cells.1) * self.cells.0 + f(x, self.extent.0, self.cells.0)
    }

    fn edges(&self, i: usize) -> ((f64, f64), (f64, f64)) {
        let ((xl, xh), (yl, yh)) = self.extent;
        let (cx, cy) = (i % self.cells.0, i / self.cells.0);
        let w = (xh - xl) / self.cells.0 as f64;
        let h = (yh - yl) / self.cells.1 as f64;
        let x0 = xl + w * cx as f64;
        let y0 = yl + h * cy as f64;
        ((x0, y0), (x0 + w, y0 + h))
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self.layout {
            Layout::Single => picture_size(0, self.notes.len(), true),
            Layout::Facet => picture_size(self.panels.len(), self.notes.len(), true),
        }
    }

    /// The panels drawn: each generator, or all of them pooled.
    fn shown(&self) -> Vec<Panel> {
        match self.layout {
            Layout::Facet => self.panels.clone(),
            Layout::Single => {
                let n = self.cells.0 * self.cells.1;
                let mut p = Panel {
                    name: String::new(),
                    counts: vec![0; n],
                    passing: vec![0; self.panels.first().map_or(0, |p| p.passing.len())],
                };
                for q in &self.panels {
                    for (a, b) in p.counts.iter_mut().zip(&q.counts) {
                        *a += b;
                    }
                    for (a, b) in p.passing.iter_mut().zip(&q.passing) {
                        *a += b;
                    }
                }
                vec![p]
            }
        }
    }

    pub(crate) fn draw<B: DrawingBackend>(&self, root: &Area<'_, B>) -> Result<(), String> {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let area = header(root, &self.title, &self.notes)?;
        let (w, _) = area.dim_in_pixel();
        let (plots, bar) = area.split_horizontally(w - BAR_STRIP);
        let shown = self.shown();
        let max = shown
            .iter()
            .flat_map(|p| p.counts.iter().copied())
            .max()
            .unwrap_or(0)
            .max(1);
        let (r, c) = match self.layout {
            Layout::Single => (1, 1),
            Layout::Facet => grid(shown.len()),
        };
        let single = self.layout == Layout::Single;
        let (xr, yr) = self.extent;
        for (p, area) in shown.iter().zip(plots.split_evenly((r, c))) {
            let mut b = ChartBuilder::on(&area);
            if !single {
                b.caption(&p.name, ("sans-serif", 14));
            }
            let mut chart = b
                .margin(if single { 12 } else { 6 })
                .x_label_area_size(if single { 44 } else { 22 })
                .y_label_area_size(if single { 64 } else { 44 })
                .build_cartesian_2d(xr.0..xr.1, yr.0..yr.1)
                .map_err(|e| e.to_string())?;
            let x_tick = |v: &f64| self.x.tick(*v);
            let y_tick = |v: &f64| self.y.tick(*v);
            let mut mesh = chart.configure_mesh();
            mesh.x_label_formatter(&x_tick)
                .y_label_formatter(&y_tick)
                .light_line_style(WHITE.mix(0.0));
            if single {
                mesh.x_desc(&self.x.column)
                    .y_desc(&self.y.column)
                    .axis_desc_style(("sans-serif", 15));
            } else {
                mesh.x_labels(5).y_labels(4).label_style(("sans-serif", 11));
            }
            mesh.draw().map_err(|e| e.to_string())?;
            let scale = (1.0 + max as f64).ln();
            chart
                .draw_series(
                    p.counts
                        .iter()
                        .enumerate()
                        .filter(|(_, &n)| n > 0)
                        .map(|(i, &n)| {
                            let (p0, p1) = self.edges(i);
                            let t = (1.0 + n as f64).ln() / scale;
                            Rectangle::new([p0, p1], ramp(t).filled())
                        }),
                )
                .map_err(|e| e.to_string())?;
            match &self.accepted {
                Some(Accepted::Region { region, .. }) => {
                    chart
                        .draw_series(
                            region
                                .rects
                                .iter()
                                .map(|&(a, b)| Rectangle::new([a, b], BLACK.mix(0.12).filled())),
                        )
                        .map_err(|e| e.to_string())?;
                    chart
                        .draw_series(
                            region
                                .edges
                                .iter()
                                .map(|&(a, b)| PathElement::new(vec![a, b], BLACK.stroke_width(2))),
                        )
                        .map_err(|e| e.to_string())?;
                }
                Some(Accepted::Rows { .. }) => {
                    let r = if single { 3 } else { 2 };
                    chart
                        .draw_series(p.passing.iter().enumerate().filter(|(_, &n)| n > 0).map(
                            |(i, _)| {
                                let ((x0, y0), (x1, y1)) = self.edges(i);
                                Circle::new(
                                    (x0 + (x1 - x0) / 2.0, y0 + (y1 - y0) / 2.0),
                                    r,
                                    BLACK.filled(),
                                )
                            },
                        ))
                        .map_err(|e| e.to_string())?;
                }
                None => {}
            }
        }
        colour_bar(&bar, max)?;
        root.present().map_err(|e| e.to_string())
    }
}

/// The colour scale: the ramp from 1 to `max` mazes per cell (logarithmic), with counts at
/// the powers of ten and at the maximum.
fn colour_bar<B: DrawingBackend>(area: &Area<'_, B>, max: u64) -> Result<(), String> {
    let (_, h) = area.dim_in_pixel();
    let (x0, x1) = (16i32, 36i32);
    let (top, bottom) = (44i32, h as i32 - 50);
    if bottom - top < 20 {
        return Ok(());
    }
    let text = |size: u32| ("sans-serif", size).into_font().color(&BLACK);
    area.draw_text("mazes", &text(13), (8, 8))
        .map_err(|e| e.to_string())?;
    area.draw_text("per cell", &text(13), (8, 24))
        .map_err(|e| e.to_string())?;
    const STEPS: i32 = 64;
    let span = bottom - top;
    for k in 0..STEPS {
        let ya = bottom - span * k / STEPS;
        let yb = bottom - span * (k + 1) / STEPS;
        let t = (k as f64 + 0.5) / STEPS as f64;
        area.draw(&Rectangle::new([(x0, yb), (x1, ya)], ramp(t).filled()))
            .map_err(|e| e.to_string())?;
    }
    area.draw(&Rectangle::new(
        [(x0, top), (x1, bottom)],
        BLACK.stroke_width(1),
    ))
    .map_err(|e| e.to_string())?;
    let scale = (1.0 + max as f64).ln();
    let mut ticks = vec![1u64];
    let mut p = 10u64;
    while p < max {
        ticks.push(p);
        p = p.saturating_mul(10);
    }
    if max > 1 {
        ticks.push(max);
    }
    let label = text(12).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Left,
        plotters::style::text_anchor::VPos::Center,
    ));
    let mut last = i32::MAX;
    for (i, &c) in ticks.iter().enumerate() {
        let t = (1.0 + c as f64).ln() / scale;
        let y = bottom - (t * span as f64).round() as i32;
        // Leave out a power of ten crowding the maximum's label.
        if i + 1 < ticks.len() && (y - (bottom - span)).abs() < 14 {
            continue;
        }
        if (last - y).abs() < 12 && i + 1 < ticks.len() {
            continue;
        }
        area.draw(&PathElement::new(vec![(x1, y), (x1 + 4, y)], BLACK))
            .map_err(|e| e.to_string())?;
        area.draw_text(&thousands(c), &label, (x1 + 7, y))
            .map_err(|e| e.to_string())?;
        last = y;
    }
    Ok(())
}
