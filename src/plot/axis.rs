//! One plotted column's axis: the range it shows, robust to outliers, the rows that fall
//! outside it (counted in edge bins and said in the caption), its bins, and its tick labels.
//!
//! The range runs from the `p`-th to the `(100 − p)`-th percentile of every plotted row
//! (`p` = `--trim`, 0.5 by default), widened to whole numbers for an integer column and to
//! three significant digits of its span for a double, so the caption can state it exactly: a
//! row is *below* when its value is less than the range's low end, *above* when greater than its
//! high end. With `p = 0` the range is the observed minimum and maximum and nothing is outside.

use crate::summary::dist::Stat;
use crate::thousands::thousands;

/// Most bins a histogram gets inside the range.
pub const MAX_BINS: usize = 60;

/// The largest magnitude a range reaches when the values' own span exceeds the f64 range
/// (a quarter of the largest double, about 4.5e307).
pub(crate) const SPAN_LIMIT: f64 = f64::MAX / 4.0;

/// A plotted column and its shown range.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Column name.
    pub column: String,
    /// Whole-number values (ticks and bins are whole numbers).
    pub integer: bool,
    /// Low end of the range (inclusive).
    pub lo: f64,
    /// High end of the range (inclusive).
    pub hi: f64,
    /// The percentage of rows allowed outside at each end.
    pub trim: f64,
    /// Finite values below `lo` (in the low edge bin).
    pub below: u64,
    /// Finite values above `hi` (in the high edge bin).
    pub above: u64,
}

/// Where a value falls on an axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Below the range.
    Below,
    /// Inside it.
    Inside,
    /// Above it.
    Above,
    /// NaN or infinite: not plotted.
    Skipped,
}

/// `x` rounded to `decimals` places in the direction `up` (or down), as the double its printed
/// text reads back to, so the caption's number is the range itself.
fn rounded(x: f64, decimals: usize, up: bool) -> f64 {
    let scale = 10f64.powi(decimals as i32);
    let k = if up {
        (x * scale).ceil()
    } else {
        (x * scale).floor()
    };
    format!("{:.*}", decimals, k / scale).parse().unwrap_or(x)
}

impl Axis {
    /// The axis of `column` over the pooled statistics `stat`, or `None` when it holds no
    /// finite value.
    pub fn new(column: &str, integer: bool, stat: &Stat, trim: f64) -> Option<Axis> {
        let items = stat.items();
        let (min, max) = (items.first()?.0, items.last()?.0);
        let (mut lo, mut hi) = (min, max);
        if trim > 0.0 {
            let q = stat.quantiles(&[trim / 100.0, 1.0 - trim / 100.0]);
            if integer {
                lo = q[0].floor();
                hi = q[1].ceil();
            } else {
                let span = q[1] - q[0];
                let span = if span > 0.0 {
                    span
                } else {
                    q[0].abs().max(1e-300)
                };
                let decimals = (2 - span.log10().floor() as i64).clamp(0, 300) as usize;
                lo = rounded(q[0], decimals, false);
                hi = rounded(q[1], decimals, true);
            }
            lo = lo.max(min);
            hi = hi.min(max);
        }
        // Values of opposite sign near the ends of the f64 range (±1e308) span more than f64
        // holds: such a range has no bin width and no ticks. It is cut to ±SPAN_LIMIT, whose span
        // with an edge bin at each end is finite; the rows beyond land in the edge bins, and
        // the caption says how many.
        if !((hi - lo) * 1.1).is_finite() {
            lo = lo.max(-SPAN_LIMIT);
            hi = hi.min(SPAN_LIMIT);
        }
        Some(Axis {
            column: column.to_string(),
            integer,
            lo,
            hi,
            trim,
            below: 0,
            above: 0,
        })
    }

    /// Where `v` falls.
    #[inline]
    pub fn place(&self, v: f64) -> Place {
        if !v.is_finite() {
            Place::Skipped
        } else if v < self.lo {
            Place::Below
        } else if v > self.hi {
            Place::Above
        } else {
            Place::Inside
        }
    }

    /// Count `v` in the edge counts when it falls outside.
    #[inline]
    pub fn count(&mut self, v: f64) -> Place {
        let p = self.place(v);
        match p {
            Place::Below => self.below += 1,
            Place::Above => self.above += 1,
            _ => {}
        }
        p
    }

    /// A value as the caption and the ticks print it: whole numbers with thousands
    /// separators, doubles as short as they read back (in exponent form from 1e15 on).
    pub fn number(&self, v: f64) -> String {
        if self.integer && v.fract() == 0.0 && v.abs() < 9e15 {
            let s = thousands(v.abs() as u64);
            if v < 0.0 {
                format!("-{s}")
            } else {
                s
            }
        } else if v.abs() >= 1e15 {
            format!("{v:e}")
        } else {
            format!("{v}")
        }
    }

    /// A tick label: an integer column's ticks only at whole numbers (others are left blank),
    /// never `100000.0`.
    pub fn tick(&self, v: f64) -> String {
        if self.integer {
            if (v - v.round()).abs() < 1e-9 {
                self.number(v.round() + 0.0)
            } else {
                String::new()
            }
        } else if v.abs() >= 1e15 {
            format!("{v:.3e}")
        } else {
            let s = format!("{:.4}", v);
            let s = s.trim_end_matches('0').trim_end_matches('.');
            if s == "-0" {
                "0".into()
            } else {
                s.to_string()
            }
        }
    }

    /// The caption's sentence on the edge bins (`None` when nothing is outside):
    /// `dead_end_share: 12 rows below 0.215 and 9 above 0.348 in the edge bins`.
    pub fn note(&self) -> Option<String> {
        let mut parts = Vec::new();
        for (n, side, v) in [
            (self.below, "below", self.lo),
            (self.above, "above", self.hi),
        ] {
            if n > 0 {
                let rows = match (parts.is_empty(), n) {
                    (false, _) => "",
                    (true, 1) => " row",
                    (true, _) => " rows",
                };
                parts.push(format!("{}{rows} {side} {}", thousands(n), self.number(v)));
            }
        }
        if parts.is_empty() {
            return None;
        }
        Some(format!(
            "{}: {} in the edge bins",
            self.column,
            parts.join(" and ")
        ))
    }

    /// The range's description for a caption: `0.5–99.5 percentile range`.
    pub fn range_words(&self) -> String {
        format!("{}–{} percentile range", self.trim, 100.0 - self.trim)
    }
}

/// A histogram's bins over an axis: `n` bins of `width` from `start` inside the range, plus
/// one edge bin on each side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bins {
    /// Left edge of the first inside bin.
    pub start: f64,
    /// Bin width.
    pub width: f64,
    /// Inside bins.
    pub n: usize,
}

impl Bins {
    /// Whole-number bins for an integer axis, [`MAX_BINS`] equal bins for a double.
    pub fn new(a: &Axis) -> Bins {
        if a.integer {
            let span = a.hi - a.lo + 1.0;
            let w = (span / MAX_BINS as f64).ceil().max(1.0);
            Bins {
                start: a.lo - 0.5,
                width: w,
                n: (span / w).ceil() as usize,
            }
        } else if a.hi > a.lo {
            Bins {
                start: a.lo,
                width: (a.hi - a.lo) / MAX_BINS as f64,
                n: MAX_BINS,
            }
        } else {
            Bins {
                start: a.lo - 0.5,
                width: 1.0,
                n: 1,
            }
        }
    }

    /// Slots: 0 the low edge bin, `1..=n` inside, `n + 1` the high edge bin.
    pub fn slots(&self) -> usize {
        self.n + 2
    }

    /// The slot of a value placed `p` on the axis.
    #[inline]
    pub fn slot(&self, v: f64, p: Place) -> Option<usize> {
        match p {
            Place::Skipped => None,
            Place::Below => Some(0),
            Place::Above => Some(self.n + 1),
            Place::Inside => {
                let i = ((v - self.start) / self.width).floor().max(0.0) as usize;
                Some(1 + i.min(self.n - 1))
            }
        }
    }

    /// Left edge of slot `s` (the edge bins sit one width outside).
    pub fn left(&self, s: usize) -> f64 {
        self.start + self.width * (s as f64 - 1.0)
    }

    /// Right edge of the last inside bin.
    pub fn end(&self) -> f64 {
        self.start + self.width * self.n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(values: impl IntoIterator<Item = f64>) -> Stat {
        let mut s = Stat::default();
        for v in values {
            s.add(v);
        }
        s
    }

    #[test]
    fn robust_integer_range() {
        // 0..=999 and one outlier: the 0.5–99.5 percentiles cut both tails.
        let s = stat((0..1000).map(f64::from).chain([1_000_000.0]));
        let a = Axis::new("gen_ns", true, &s, 0.5).unwrap();
        assert_eq!((a.lo, a.hi), (5.0, 995.0));
        let mut a = a;
        for v in (0..1000).map(f64::from).chain([1_000_000.0]) {
            a.count(v);
        }
        assert_eq!((a.below, a.above), (5, 5));
        assert_eq!(
            a.note().unwrap(),
            "gen_ns: 5 rows below 5 and 5 above 995 in the edge bins"
        );
        assert_eq!(a.tick(100000.0), "100,000");
        assert_eq!(a.tick(2.5), "");
        let full = Axis::new("gen_ns", true, &s, 0.0).unwrap();
        assert_eq!((full.lo, full.hi), (0.0, 1_000_000.0));
    }

    #[test]
    fn robust_double_range_reads_back() {
        let s = stat((0..1000).map(|i| 0.2 + i as f64 * 1.234e-4));
        let a = Axis::new("dead_end_share", false, &s, 0.5).unwrap();
        assert_eq!(a.number(a.lo).parse::<f64>().unwrap(), a.lo);
        assert_eq!(a.number(a.hi).parse::<f64>().unwrap(), a.hi);
        assert!(a.lo <= s.quantiles(&[0.005])[0] && a.hi >= s.quantiles(&[0.995])[0]);
        // The span is about 0.12: the range is rounded out to thousandths.
        assert_eq!(
            (a.number(a.lo).as_str(), a.number(a.hi).as_str()),
            ("0.2", "0.323")
        );
    }

    #[test]
    fn bins_and_slots() {
        let a = Axis::new("x", true, &stat([0.0, 9.0]), 0.0).unwrap();
        let b = Bins::new(&a);
        assert_eq!((b.start, b.width, b.n), (-0.5, 1.0, 10));
        assert_eq!(b.slot(-3.0, a.place(-3.0)), Some(0));
        assert_eq!(b.slot(0.0, a.place(0.0)), Some(1));
        assert_eq!(b.slot(9.0, a.place(9.0)), Some(10));
        assert_eq!(b.slot(12.0, a.place(12.0)), Some(11));
        assert_eq!(b.slot(f64::NAN, a.place(f64::NAN)), None);
    }
}
