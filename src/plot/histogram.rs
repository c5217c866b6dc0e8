//! A histogram of one metric: per generator, the share of its rows in each bin (so generators
//! with different counts compare), over one range and one set of bins shared by every
//! generator, with an edge bin at each end holding the rows outside the range.
//!
//! Drawn as one chart (a light bar and a solid outline per generator, a legend) or as one
//! panel per generator on the same axes.

use plotters::prelude::*;

use super::axis::{Axis, Bins};
use super::{colour, grid, header, picture_size, Area, Layout};

/// One generator's counts in the bins.
#[derive(Clone, Debug)]
pub struct HistSeries {
    /// Generator name.
    pub name: String,
    /// Its colour: an index into [`super::PALETTE`].
    pub colour: usize,
    /// Rows per slot of [`Bins`] (edge bins first and last).
    pub counts: Vec<u64>,
}

/// A histogram to draw.
#[derive(Clone, Debug)]
pub struct Histogram {
    /// Title.
    pub title: String,
    /// Lines under the title (the range, the edge bins).
    pub notes: Vec<String>,
    /// The metric's axis (its edge counts filled in).
    pub axis: Axis,
    /// The bins.
    pub bins: Bins,
    /// One series per generator.
    pub series: Vec<HistSeries>,
    /// One chart or one panel each.
    pub layout: Layout,
}

impl Histogram {
    /// An empty histogram over `axis`, one series per name.
    pub fn new(axis: Axis, names: &[String], layout: Layout) -> Histogram {
        let bins = Bins::new(&axis);
        Histogram {
            title: String::new(),
            notes: Vec::new(),
            series: names
                .iter()
                .enumerate()
                .map(|(i, n)| HistSeries {
                    name: n.clone(),
                    colour: i,
                    counts: vec![0; bins.slots()],
                })
                .collect(),
            axis,
            bins,
            layout,
        }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self.layout {
            Layout::Single => picture_size(0, self.notes.len(), false),
            Layout::Facet => picture_size(self.series.len(), self.notes.len(), false),
        }
    }

    /// Shares per slot of each series.
    fn shares(&self) -> Vec<Vec<f64>> {
        self.series
            .iter()
            .map(|s| {
                let total = s.counts.iter().sum::<u64>().max(1) as f64;
                s.counts.iter().map(|&c| c as f64 / total).collect()
            })
            .collect()
    }

    /// The x range: the inside bins, and each edge bin that holds rows.
    fn x_range(&self) -> (f64, f64) {
        let b = &self.bins;
        let lo = if self.axis.below > 0 {
            b.left(0)
        } else {
            b.start
        };
        let hi = if self.axis.above > 0 {
            b.end() + b.width
        } else {
            b.end()
        };
        (lo, hi)
    }

    pub(crate) fn draw<B: DrawingBackend>(&self, root: &Area<'_, B>) -> Result<(), String> {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let area = header(root, &self.title, &self.notes)?;
        let shares = self.shares();
        let top = shares.iter().flatten().fold(0.0f64, |a, &b| a.max(b)) * 1.08;
        let top = top.max(1e-9);
        match self.layout {
            Layout::Single => {
                let mut chart = ChartBuilder::on(&area)
                    .margin(12)
                    .x_label_area_size(44)
                    .y_label_area_size(64)
                    .build_cartesian_2d(self.x_range().0..self.x_range().1, 0.0..top)
                    .map_err(|e| e.to_string())?;
                chart
                    .configure_mesh()
                    .x_desc(&self.axis.column)
                    .y_desc("share of the generator's mazes")
                    .axis_desc_style(("sans-serif", 15))
                    .x_label_formatter(&|v| self.axis.tick(*v))
                    .light_line_style(WHITE.mix(0.0))
                    .draw()
                    .map_err(|e| e.to_string())?;
                for (s, sh) in self.series.iter().zip(&shares) {
                    let c = colour(s.colour);
                    self.bars(&mut chart, sh, c)?;
                    chart
                        .draw_series(LineSeries::new(self.outline(sh), c.stroke_width(2)))
                        .map_err(|e| e.to_string())?
                        .label(s.name.as_str())
                        .legend(move |(x, y)| {
                            Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled())
                        });
                }
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::UpperRight)
                    .label_font(("sans-serif", 14))
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .draw()
                    .map_err(|e| e.to_string())?;
            }
            Layout::Facet => {
                let (r, c) = grid(self.series.len());
                for ((s, sh), panel) in self
                    .series
                    .iter()
                    .zip(&shares)
                    .zip(area.split_evenly((r, c)))
                {
                    let col = colour(s.colour);
                    let mut chart = ChartBuilder::on(&panel)
                        .caption(&s.name, ("sans-serif", 14))
                        .margin(6)
                        .x_label_area_size(22)
                        .y_label_area_size(44)
                        .build_cartesian_2d(self.x_range().0..self.x_range().1, 0.0..top)
                        .map_err(|e| e.to_string())?;
                    chart
                        .configure_mesh()
                        .x_labels(5)
                        .y_labels(4)
                        .label_style(("sans-serif", 11))
                        .x_label_formatter(&|v| self.axis.tick(*v))
                        .light_line_style(WHITE.mix(0.0))
                        .draw()
                        .map_err(|e| e.to_string())?;
                    self.bars(&mut chart, sh, col)?;
                    chart
                        .draw_series(LineSeries::new(self.outline(sh), col.stroke_width(2)))
                        .map_err(|e| e.to_string())?;
                }
            }
        }
        root.present().map_err(|e| e.to_string())
    }

    /// Light bars (inside bins in the series colour, edge bins grey).
    fn bars<DB: DrawingBackend>(
        &self,
        chart: &mut ChartContext<
            '_,
            DB,
            Cartesian2d<
                plotters::coord::types::RangedCoordf64,
                plotters::coord::types::RangedCoordf64,
            >,
        >,
        shares: &[f64],
        c: RGBColor,
    ) -> Result<(), String> {
        let b = self.bins;
        let edge = RGBColor(150, 150, 150);
        chart
            .draw_series(
                shares
                    .iter()
                    .enumerate()
                    .filter(|(_, &y)| y > 0.0)
                    .map(|(i, &y)| {
                        let x0 = b.left(i);
                        let fill = if i == 0 || i == b.n + 1 {
                            edge.mix(0.5).filled()
                        } else {
                            c.mix(0.25).filled()
                        };
                        Rectangle::new([(x0, 0.0), (x0 + b.width, y)], fill)
                    }),
            )
            .map_err(|e| e.to_string())?;
        Ok(())
    }

    /// The series as a step line over the shown slots.
    fn outline(&self, shares: &[f64]) -> Vec<(f64, f64)> {
        let b = self.bins;
        let (lo, hi) = self.x_range();
        let mut pts = vec![(lo, 0.0)];
        for (i, &y) in shares.iter().enumerate() {
            let x0 = b.left(i);
            if x0 < lo - b.width / 2.0 || x0 + b.width > hi + b.width / 2.0 {
                continue;
            }
            pts.push((x0, y));
            pts.push((x0 + b.width, y));
        }
        pts.push((hi, 0.0));
        pts
    }
}
