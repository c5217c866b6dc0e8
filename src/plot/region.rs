//! The exact region of the plane an accept filter accepts, when the filter reads only the two
//! plotted columns and compares each with constants (`x BETWEEN a AND b AND y >= c`, `x < a OR
//! NOT y = b`, …): it is then a union of rectangles, found from the compiled filter itself.
//!
//! The filter's postfix code is walked once with a stack of symbolic values (a constant, a
//! plotted column, or a condition): every comparison of a column with a constant gives a
//! threshold on that column's axis. Between consecutive thresholds every comparison keeps its
//! truth value, so the filter is constant on each cell of the grid the thresholds draw, and its
//! value there is the evaluator's own answer at the cell's centre. Anything else (arithmetic on
//! a column, two columns compared, `algo`, `NULL`) makes the region not a union of such
//! rectangles: the caller then draws the passing rows instead.

use crate::accept::{arith, Accept, Op};

/// A point of the plane (x, y).
pub(crate) type Point = (f64, f64);

/// The accepted region within the plotted ranges.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Region {
    /// Rectangles `(low corner, high corner)`, disjoint, merged so that a rectangle filter
    /// gives one rectangle.
    pub rects: Vec<(Point, Point)>,
    /// The boundary: every segment between an accepted and a rejected part of the plane (or
    /// the edge of the plotted ranges).
    pub edges: Vec<(Point, Point)>,
}

/// One plotted column: its index into [`crate::accept::COLUMNS`], whether it holds only whole
/// numbers, and the extent drawn.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// Index into [`crate::accept::COLUMNS`].
    pub index: u8,
    /// Whole numbers only: the region's sides then fall half-way between two of them.
    pub integer: bool,
    /// The extent drawn (the region is clipped to it).
    pub range: (f64, f64),
}

/// Where a condition on a whole-number column can turn: between the integers around `t`.
fn integer_cuts(t: f64) -> [f64; 3] {
    let m = t.floor();
    [m - 0.5, m + 0.5, m + 1.5]
}

/// The region a filter accepts inside the columns' extents; `None` when the filter is not a
/// union of rectangles of the two columns.
pub fn region(accept: &Accept, x: Column, y: Column) -> Option<Region> {
    let (xs, ys) = thresholds(accept, x.index, y.index)?;
    let cuts = |t: Vec<f64>, col: Column| -> Vec<f64> {
        let (lo, hi) = col.range;
        let t: Vec<f64> = if col.integer {
            t.into_iter().flat_map(integer_cuts).collect()
        } else {
            t
        };
        let mut c = vec![lo];
        c.extend(t.into_iter().filter(|&v| v > lo && v < hi));
        c.push(hi);
        c.sort_by(f64::total_cmp);
        c.dedup();
        c
    };
    let (cx, cy) = (cuts(xs, x), cuts(ys, y));
    if cx.len() < 2 || cy.len() < 2 {
        return Some(Region::default());
    }
    let (nx, ny) = (cx.len() - 1, cy.len() - 1);
    // A point of each cell: its centre, or on a whole-number column a whole number in it
    // (every one in the cell gives the same answer).
    let point = |c: &[f64], i: usize, integer: bool| {
        let m = c[i] + (c[i + 1] - c[i]) / 2.0;
        if integer {
            let k = m.round();
            if k > c[i] && k < c[i + 1] {
                k
            } else {
                c[i].ceil()
            }
        } else {
            m
        }
    };
    let inside: Vec<bool> = (0..ny)
        .flat_map(|j| (0..nx).map(move |i| (i, j)))
        .map(|(i, j)| {
            let (vx, vy) = (point(&cx, i, x.integer), point(&cy, j, y.integer));
            // No string: the region is found for filters on the two columns alone.
            accept.eval_with("", crate::topo::Grid::Square, |c| {
                if c == x.index {
                    vx
                } else {
                    vy
                }
            })
        })
        .collect();
    // Runs of accepted cells along each row, then runs equal in consecutive rows stacked.
    let mut open: Vec<(usize, usize, usize)> = Vec::new(); // (i0, i1, first row)
    let mut out = Vec::new();
    for j in 0..=ny {
        let mut runs = Vec::new();
        if j < ny {
            let mut i = 0;
            while i < nx {
                if inside[j * nx + i] {
                    let i0 = i;
                    while i < nx && inside[j * nx + i] {
                        i += 1;
                    }
                    runs.push((i0, i));
                } else {
                    i += 1;
                }
            }
        }
        let mut next = Vec::new();
        for &(i0, i1, j0) in &open {
            if runs.contains(&(i0, i1)) {
                next.push((i0, i1, j0));
            } else {
                out.push(((cx[i0], cy[j0]), (cx[i1], cy[j])));
            }
        }
        for &(i0, i1) in &runs {
            if !next.iter().any(|r| (r.0, r.1) == (i0, i1)) {
                next.push((i0, i1, j));
            }
        }
        open = next;
    }
    let at = |i: isize, j: isize| {
        i >= 0
            && j >= 0
            && (i as usize) < nx
            && (j as usize) < ny
            && inside[j as usize * nx + i as usize]
    };
    let mut edges = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            if !inside[j * nx + i] {
                continue;
            }
            let (x0, x1, y0, y1) = (cx[i], cx[i + 1], cy[j], cy[j + 1]);
            let (i, j) = (i as isize, j as isize);
            for (di, dj, a, b) in [
                (-1, 0, (x0, y0), (x0, y1)),
                (1, 0, (x1, y0), (x1, y1)),
                (0, -1, (x0, y0), (x1, y0)),
                (0, 1, (x0, y1), (x1, y1)),
            ] {
                if !at(i + di, j + dj) {
                    edges.push((a, b));
                }
            }
        }
    }
    Some(Region { rects: out, edges })
}

/// A symbolic stack slot.
#[derive(Clone, Copy)]
enum Sym {
    Const(f64),
    Column(u8),
    Condition,
}

/// The thresholds on `x` and on `y` of a filter made of comparisons of those columns with
/// constants, joined by AND, OR and NOT; `None` for any other filter.
fn thresholds(accept: &Accept, x: u8, y: u8) -> Option<(Vec<f64>, Vec<f64>)> {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    let mut stack: Vec<Sym> = Vec::new();
    // The column value `v` whose conversion `v · mul / div` equals the converted constant
    // `k`: where the comparison turns.
    let turn = |mul: f64, div: f64, k: f64| k * div / mul;
    for op in accept.code() {
        match *op {
            Op::Num(v) => stack.push(Sym::Const(v)),
            Op::Col(c) if c == x || c == y => stack.push(Sym::Column(c)),
            Op::Neg { int } => match stack.pop()? {
                Sym::Const(v) => stack.push(Sym::Const(if int { 0.0 - v } else { -v })),
                _ => return None,
            },
            Op::ToDouble(p) => match stack.pop()? {
                Sym::Const(v) => stack.push(Sym::Const(v / p)),
                _ => return None,
            },
            Op::Arith { op, int, l, r } => {
                let (b, a) = (stack.pop()?, stack.pop()?);
                match (a, b) {
                    (Sym::Const(a), Sym::Const(b)) => {
                        let v = arith(op, int, l.apply(a), r.apply(b));
                        if v.null {
                            return None;
                        }
                        stack.push(Sym::Const(v.x));
                    }
                    _ => return None,
                }
            }
            Op::Cmp(_, l, r) => {
                let (b, a) = (stack.pop()?, stack.pop()?);
                let (c, t) = match (a, b) {
                    (Sym::Column(c), Sym::Const(k)) => (c, turn(l.mul, l.div, r.apply(k))),
                    (Sym::Const(k), Sym::Column(c)) => (c, turn(r.mul, r.div, l.apply(k))),
                    _ => return None,
                };
                if !t.is_finite() {
                    return None;
                }
                if c == x {
                    xs.push(t);
                } else {
                    ys.push(t);
                }
                stack.push(Sym::Condition);
            }
            Op::And | Op::Or => {
                let (b, a) = (stack.pop()?, stack.pop()?);
                if !matches!((a, b), (Sym::Condition, Sym::Condition)) {
                    return None;
                }
                stack.push(Sym::Condition);
            }
            Op::Not => {
                if !matches!(stack.pop()?, Sym::Condition) {
                    return None;
                }
                stack.push(Sym::Condition);
            }
            _ => return None,
        }
    }
    match stack.as_slice() {
        [Sym::Condition] => Some((xs, ys)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accept::COLUMNS;

    fn col(name: &str) -> u8 {
        COLUMNS.iter().position(|c| c.name == name).unwrap() as u8
    }

    fn axes() -> (Column, Column) {
        let x = Column {
            index: col("dead_end_share"),
            integer: false,
            range: (0.0, 1.0),
        };
        let y = Column {
            index: col("solution_length"),
            integer: true,
            range: (-0.5, 500.5),
        };
        (x, y)
    }

    fn rects(f: &str) -> Option<Vec<(Point, Point)>> {
        let a = Accept::parse(f).unwrap();
        let (x, y) = axes();
        region(&a, x, y).map(|r| r.rects)
    }

    #[test]
    fn a_rectangle_filter_is_one_rectangle() {
        assert_eq!(
            rects("dead_end_share BETWEEN 0.25 AND 0.3 AND solution_length >= 100"),
            Some(vec![((0.25, 99.5), (0.3, 500.5))])
        );
        assert_eq!(
            rects("solution_length < 2 * 50 AND NOT dead_end_share > 0.5"),
            Some(vec![((0.0, -0.5), (0.5, 99.5))])
        );
    }

    #[test]
    fn unions_and_refusals() {
        // An L shape: two rectangles.
        let r = rects("dead_end_share < 0.5 OR solution_length < 100").unwrap();
        let area: f64 = r.iter().map(|((a, b), (c, d))| (c - a) * (d - b)).sum();
        assert!((area - (0.5 * 501.0 + 0.5 * 100.0)).abs() < 1e-9, "{r:?}");
        // Strict and non-strict comparisons on whole numbers: `> 99` is `>= 100`.
        assert_eq!(
            rects("solution_length > 99 AND dead_end_share < 0.5"),
            Some(vec![((0.0, 99.5), (0.5, 500.5))])
        );
        // Its boundary: the six sides of the L, as long as the box's perimeter.
        let a = Accept::parse("dead_end_share < 0.5 OR solution_length < 100").unwrap();
        let (x, y) = axes();
        let b = region(&a, x, y).unwrap();
        let length: f64 = b
            .edges
            .iter()
            .map(|((x0, y0), (x1, y1))| (x1 - x0).abs() + (y1 - y0).abs())
            .sum();
        assert!((length - 2.0 * (1.0 + 501.0)).abs() < 1e-9, "{:?}", b.edges);
        assert_eq!(rects("dead_end_share > 2"), Some(vec![]));
        assert_eq!(rects("dead_end_share * 2 < solution_length"), None);
        assert_eq!(rects("algo = 'wilson' AND solution_length > 3"), None);
        assert_eq!(rects("dead_end_share < 0.3 AND dead_ends > 3"), None);
    }
}
