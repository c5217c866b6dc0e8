//! The accept program run over whole columns: the same postfix code as [`Accept::eval_with`],
//! executed one block of rows at a time with every stack slot a block of values (and, only
//! when NULL can occur, a block of NULL flags). Each operator is one tight loop over the block,
//! which the compiler vectorises; the arithmetic and comparisons call the very helpers of
//! [`crate::accept`], so SQL NULL semantics and DuckDB's division rules are the same as in the
//! main job and in `batchgen summary`.

use crate::accept::{arith, order, Accept, Arith, Cmp, Conv, Op, Text, MAX_DEPTH};
use crate::topo::Grid;

/// Rows evaluated at once (a multiple of 64, so a block is whole words of the selection).
pub const BLOCK: usize = 1024;

/// Where the evaluator reads a block of rows.
pub trait Source {
    /// Values of `COLUMNS[column]` for rows `start .. start + out.len()`, as doubles.
    fn fill(&self, column: u8, start: usize, out: &mut [f64]);
    /// Generator code of rows `start .. start + out.len()` (indices into [`Source::algos`]).
    fn algo_codes(&self, start: usize, out: &mut [u16]);
    /// Generator names by code.
    fn algos(&self) -> &[String];
    /// Grid of rows `start .. start + out.len()`, as its position in [`Grid::ALL`].
    fn grid_codes(&self, start: usize, out: &mut [u16]);
}

/// What a stack slot holds.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Num,
    /// A string: the row's generator or grid, or a literal ([`Accept::text`]).
    Str(u16),
}

/// Reusable buffers of one evaluating thread.
pub struct Scratch {
    x: Vec<[f64; BLOCK]>,
    null: Vec<[bool; BLOCK]>,
    nullable: Vec<bool>,
    kind: Vec<Kind>,
    /// Generator codes of the block, then grid codes (read once per block, when needed).
    codes: [[u16; BLOCK]; 2],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            x: vec![[0.0; BLOCK]; MAX_DEPTH + 1],
            null: vec![[false; BLOCK]; MAX_DEPTH + 1],
            nullable: vec![false; MAX_DEPTH + 1],
            kind: vec![Kind::Num; MAX_DEPTH + 1],
            codes: [[0; BLOCK]; 2],
        }
    }
}

/// Two distinct slots: `a` (below) mutable, `b` (above) shared.
fn pair<T>(v: &mut [T], a: usize) -> (&mut T, &T) {
    let (lo, hi) = v.split_at_mut(a + 1);
    (&mut lo[a], &hi[0])
}

/// Merge the NULL flags of slot `b` into slot `a` (result NULL when either is).
fn merge_nulls(s: &mut Scratch, a: usize, n: usize) {
    let b = a + 1;
    match (s.nullable[a], s.nullable[b]) {
        (_, false) => {}
        (false, true) => {
            let (na, nb) = pair(&mut s.null, a);
            na[..n].copy_from_slice(&nb[..n]);
            s.nullable[a] = true;
        }
        (true, true) => {
            let (na, nb) = pair(&mut s.null, a);
            for (x, y) in na[..n].iter_mut().zip(&nb[..n]) {
                *x |= *y;
            }
        }
    }
}

/// The comparison `cmp` on two blocks, with DuckDB's order (NaN above all, equal to itself).
fn compare(cmp: Cmp, a: &mut [f64], b: &[f64]) {
    let nan = a.iter().chain(b).fold(false, |acc, v| acc | v.is_nan());
    macro_rules! each {
        ($op:tt) => {
            for (x, y) in a.iter_mut().zip(b) {
                *x = ((*x $op *y) as u8) as f64;
            }
        };
    }
    if nan {
        for (x, y) in a.iter_mut().zip(b) {
            *x = (cmp.test(order(*x, *y)) as u8) as f64;
        }
        return;
    }
    // No NaN: the plain comparisons are DuckDB's order (-0 equals 0 in both).
    match cmp {
        Cmp::Lt => each!(<),
        Cmp::Le => each!(<=),
        Cmp::Gt => each!(>),
        Cmp::Ge => each!(>=),
        Cmp::Eq => each!(==),
        Cmp::Ne => each!(!=),
    }
}

impl Accept {
    /// Evaluate the filter on rows `start .. start + n` (`n <= BLOCK`) of `src`, setting
    /// `pass[i]` for row `start + i` exactly as [`Accept::eval_with`] would.
    pub fn eval_block(
        &self,
        src: &impl Source,
        start: usize,
        n: usize,
        s: &mut Scratch,
        pass: &mut [bool],
    ) {
        debug_assert!(n <= BLOCK);
        let mut sp = 0usize;
        let mut have_codes = [false; 2];
        for op in self.code() {
            // Pushes fill slot `sp`; unary steps work on the top slot; binary ones pop the
            // top into the slot below it (`a`).
            match *op {
                Op::Num(v) => push_num(s, sp, n, v),
                Op::Null => push_null(s, sp, n),
                Op::Col(c) => push_column(s, sp, src, c, start, n),
                Op::Str(id) => push_str(s, sp, id),
                Op::Neg { int } => negate(&mut s.x[sp - 1][..n], int),
                Op::RoundEven => round_even(&mut s.x[sp - 1][..n]),
                Op::RoundDec(p) => round_decimal(&mut s.x[sp - 1][..n], p),
                Op::ToDouble(p) => to_double(&mut s.x[sp - 1][..n], p),
                Op::Arith { op, int, l, r } => arithmetic(s, sp - 2, n, op, int, l, r),
                Op::Cmp(cmp, l, r) => comparison(s, sp - 2, n, cmp, l, r),
                Op::StrCmp(cmp) => {
                    self.string_comparison(src, start, s, sp - 2, n, cmp, &mut have_codes)
                }
                Op::And => and_or(s, sp - 2, n, 0.0),
                Op::Or => and_or(s, sp - 2, n, 1.0),
                Op::Not => not(&mut s.x[sp - 1][..n]),
                Op::IsNull { negated } => is_null(s, sp - 1, n, negated),
            }
            match *op {
                Op::Num(_) | Op::Null | Op::Col(_) | Op::Str(_) => sp += 1,
                Op::Arith { .. } | Op::Cmp(..) | Op::StrCmp(_) | Op::And | Op::Or => sp -= 1,
                _ => {}
            }
        }
        pass_of(s, n, pass);
    }

    /// `a = a cmp a+1` for strings: the row's generator or grid against a literal or each
    /// other, or two literals.
    #[allow(clippy::too_many_arguments)]
    fn string_comparison(
        &self,
        src: &impl Source,
        start: usize,
        s: &mut Scratch,
        a: usize,
        n: usize,
        cmp: Cmp,
        have_codes: &mut [bool; 2],
    ) {
        let (Kind::Str(ia), Kind::Str(ib)) = (s.kind[a], s.kind[a + 1]) else {
            unreachable!("the parser types string comparisons")
        };
        // Each operand's names (by code) and the row codes it reads (0: generator, 1: grid);
        // a literal is one name and reads none.
        let algos = src.algos();
        let grids = Grid::ALL.map(Grid::name);
        let side = |id: u16| -> (usize, Option<usize>) {
            match self.text(id) {
                Text::Algo => (algos.len(), Some(0)),
                Text::Grid => (grids.len(), Some(1)),
                Text::Literal(_) => (1, None),
            }
        };
        let name = |id: u16, code: usize| -> &str {
            match self.text(id) {
                Text::Algo => algos.get(code).map_or("", String::as_str),
                Text::Grid => grids.get(code).copied().unwrap_or(""),
                Text::Literal(t) => t,
            }
        };
        let ((len_a, ca), (len_b, cb)) = (side(ia), side(ib));
        // One truth value per pair of codes.
        let width = len_b.max(1);
        let table: Vec<f64> = (0..len_a.max(1) * width)
            .map(|k| cmp.test(name(ia, k / width).cmp(name(ib, k % width))) as u8 as f64)
            .collect();
        for which in [ca, cb].into_iter().flatten() {
            if !have_codes[which] {
                let out = &mut s.codes[which][..n];
                match which {
                    0 => src.algo_codes(start, out),
                    _ => src.grid_codes(start, out),
                }
                have_codes[which] = true;
            }
        }
        let x = &mut s.x[a][..n];
        match (ca, cb) {
            (None, None) => x.fill(table[0]),
            // One side is a literal (one name): the other's code is the index.
            (Some(w), None) | (None, Some(w)) => {
                for (x, &c) in x.iter_mut().zip(&s.codes[w][..n]) {
                    *x = table[c as usize];
                }
            }
            (Some(wa), Some(wb)) => {
                let (codes_a, codes_b) = (&s.codes[wa][..n], &s.codes[wb][..n]);
                for ((x, &p), &q) in x.iter_mut().zip(codes_a).zip(codes_b) {
                    *x = table[p as usize * width + q as usize];
                }
            }
        }
        s.kind[a] = Kind::Num;
        s.nullable[a] = false;
    }
}

/// Slot `sp` := the number `v`.
fn push_num(s: &mut Scratch, sp: usize, n: usize, v: f64) {
    s.x[sp][..n].fill(v);
    s.nullable[sp] = false;
    s.kind[sp] = Kind::Num;
}

/// Slot `sp` := NULL.
fn push_null(s: &mut Scratch, sp: usize, n: usize) {
    s.null[sp][..n].fill(true);
    s.nullable[sp] = true;
    s.kind[sp] = Kind::Num;
}

/// Slot `sp` := column `c` of rows `start .. start + n`.
fn push_column(s: &mut Scratch, sp: usize, src: &impl Source, c: u8, start: usize, n: usize) {
    src.fill(c, start, &mut s.x[sp][..n]);
    s.nullable[sp] = false;
    s.kind[sp] = Kind::Num;
}

/// Slot `sp` := the string `id` (a literal, or the row's generator).
fn push_str(s: &mut Scratch, sp: usize, id: u16) {
    s.kind[sp] = Kind::Str(id);
    s.nullable[sp] = false;
}

/// `-x`; `int` results have an unsigned zero.
fn negate(x: &mut [f64], int: bool) {
    for v in x {
        *v = if int { 0.0 - *v } else { -*v };
    }
}

/// DOUBLE to BIGINT: round half to even (DuckDB's cast), unsigned zero.
fn round_even(x: &mut [f64]) {
    for v in x {
        *v = v.round_ties_even() + 0.0;
    }
}

/// DECIMAL (scaled by `p`) to BIGINT: round half away from zero (DuckDB's cast).
fn round_decimal(x: &mut [f64], p: f64) {
    for v in x {
        let r = *v % p;
        let q = (*v - r) / p;
        *v = if 2.0 * r.abs() >= p {
            q + r.signum()
        } else {
            q
        } + 0.0;
    }
}

/// DECIMAL (scaled by `p`) to DOUBLE.
fn to_double(x: &mut [f64], p: f64) {
    for v in x {
        *v /= p;
    }
}

/// `a = l(a) op r(a+1)`, NULL when either is, or for integer division by zero.
fn arithmetic(s: &mut Scratch, a: usize, n: usize, op: Arith, int: bool, l: Conv, r: Conv) {
    merge_nulls(s, a, n);
    let (xa, xb) = pair(&mut s.x, a);
    let (xa, xb) = (&mut xa[..n], &xb[..n]);
    let fix = |x: f64| if int { x + 0.0 } else { x };
    match op {
        Arith::Add => {
            for (x, y) in xa.iter_mut().zip(xb) {
                *x = fix(l.apply(*x) + r.apply(*y));
            }
        }
        Arith::Sub => {
            for (x, y) in xa.iter_mut().zip(xb) {
                *x = fix(l.apply(*x) - r.apply(*y));
            }
        }
        Arith::Mul => {
            for (x, y) in xa.iter_mut().zip(xb) {
                *x = fix(l.apply(*x) * r.apply(*y));
            }
        }
        Arith::Div => {
            for (x, y) in xa.iter_mut().zip(xb) {
                *x = l.apply(*x) / r.apply(*y);
            }
        }
        Arith::IntDiv | Arith::Mod => {
            // These can make NULL (integer division by zero).
            if !s.nullable[a] {
                s.null[a][..n].fill(false);
                s.nullable[a] = true;
            }
            let na = &mut s.null[a][..n];
            for ((x, y), nl) in xa.iter_mut().zip(xb).zip(na) {
                let v = arith(op, int, l.apply(*x), r.apply(*y));
                *x = v.x;
                *nl |= v.null;
            }
        }
    }
}

/// `a = l(a) cmp r(a+1)` as 0 or 1, NULL when either is.
fn comparison(s: &mut Scratch, a: usize, n: usize, cmp: Cmp, l: Conv, r: Conv) {
    merge_nulls(s, a, n);
    let (xa, xb) = pair(&mut s.x, a);
    let (xa, xb) = (&mut xa[..n], &xb[..n]);
    if l != crate::accept::SAME {
        xa.iter_mut().for_each(|x| *x = l.apply(*x));
    }
    if r != crate::accept::SAME {
        // The right operand is only read here: convert into a copy.
        let mut tmp = [0.0; BLOCK];
        for (t, y) in tmp[..n].iter_mut().zip(xb) {
            *t = r.apply(*y);
        }
        compare(cmp, xa, &tmp[..n]);
    } else {
        compare(cmp, xa, xb);
    }
}

/// `a = a AND a+1` (`dom` 0) or `a = a OR a+1` (`dom` 1), in Kleene's three-valued logic.
fn and_or(s: &mut Scratch, a: usize, n: usize, dom: f64) {
    if !s.nullable[a] && !s.nullable[a + 1] {
        let (xa, xb) = pair(&mut s.x, a);
        for (x, y) in xa[..n].iter_mut().zip(&xb[..n]) {
            *x = if *x == dom || *y == dom {
                dom
            } else {
                1.0 - dom
            };
        }
        return;
    }
    for k in [a, a + 1] {
        if !s.nullable[k] {
            s.null[k][..n].fill(false);
            s.nullable[k] = true;
        }
    }
    let (xa, xb) = pair(&mut s.x, a);
    let (na, nb) = pair(&mut s.null, a);
    for i in 0..n {
        // Kleene logic: the dominant value wins over NULL.
        let (da, db) = (!na[i] && xa[i] == dom, !nb[i] && xb[i] == dom);
        if da || db {
            xa[i] = dom;
            na[i] = false;
        } else if na[i] || nb[i] {
            na[i] = true;
        } else {
            xa[i] = 1.0 - dom;
        }
    }
}

/// `NOT x` (NULL stays NULL: its flag is untouched).
fn not(x: &mut [f64]) {
    for v in x {
        *v = 1.0 - *v;
    }
}

/// `a = a IS NULL` (or `IS NOT NULL`), never NULL.
fn is_null(s: &mut Scratch, a: usize, n: usize, negated: bool) {
    if s.nullable[a] {
        let (x, nl) = (&mut s.x[a][..n], &s.null[a][..n]);
        for (v, &z) in x.iter_mut().zip(nl) {
            *v = (z != negated) as u8 as f64;
        }
    } else {
        s.x[a][..n].fill(negated as u8 as f64);
    }
    s.nullable[a] = false;
}

/// `pass[i]`: the result slot is TRUE (not NULL, not FALSE) for row `i`.
fn pass_of(s: &Scratch, n: usize, pass: &mut [bool]) {
    let x = &s.x[0][..n];
    if s.nullable[0] {
        for ((p, &v), &z) in pass[..n].iter_mut().zip(x).zip(&s.null[0][..n]) {
            *p = !z && v == 1.0;
        }
    } else {
        for (p, &v) in pass[..n].iter_mut().zip(x) {
            *p = v == 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accept::COLUMNS;

    /// Rows of three generators on the four grids with small integer and double columns,
    /// zeros included.
    struct Rows {
        algos: Vec<String>,
        codes: Vec<u16>,
        grids: Vec<u16>,
        cols: Vec<Vec<f64>>,
    }

    impl Source for Rows {
        fn fill(&self, column: u8, start: usize, out: &mut [f64]) {
            out.copy_from_slice(&self.cols[column as usize][start..start + out.len()]);
        }
        fn algo_codes(&self, start: usize, out: &mut [u16]) {
            out.copy_from_slice(&self.codes[start..start + out.len()]);
        }
        fn algos(&self) -> &[String] {
            &self.algos
        }
        fn grid_codes(&self, start: usize, out: &mut [u16]) {
            out.copy_from_slice(&self.grids[start..start + out.len()]);
        }
    }

    #[test]
    fn blocks_agree_with_the_row_evaluator() {
        let n = 3000;
        let mut cols = vec![vec![0.0; n]; COLUMNS.len()];
        for (c, col) in cols.iter_mut().enumerate() {
            for (r, v) in col.iter_mut().enumerate() {
                let k = (r * 7 + c * 13) % 11;
                *v = if COLUMNS[c].is_float() {
                    k as f64 / 10.0
                } else {
                    k as f64
                };
            }
        }
        let rows = Rows {
            algos: vec!["kruskal".into(), "prim".into(), "wilson".into()],
            codes: (0..n).map(|r| (r % 3) as u16).collect(),
            grids: (0..n).map(|r| (r / 5 % 4) as u16).collect(),
            cols,
        };
        let mut s = Scratch::default();
        for expr in [
            "dead_ends >= 3 AND diameter < 8",
            "dead_end_share <= 0.5 OR algo = 'prim'",
            "algo IN ('kruskal', 'wilson') AND NOT (solution_length BETWEEN 2 AND 5)",
            "0 / dead_ends > 1 OR dead_ends / dead_ends = 0 / 0",
            "1 // dead_ends IS NULL OR dead_ends % (diameter - 3) = 1",
            "NOT (1 // dead_ends = 0) OR junctions > 9",
            "NULL > 1 OR solution_turns < 4",
            "(1 // (diameter - 5) > 0) AND corridors > 2",
            "dead_end_share * 10 = dead_ends::DOUBLE OR tortuosity >= 0.3",
            "CAST(dead_end_share * 3 AS BIGINT) = 1 AND -straights < -2",
            "'a' < 'b' AND algo <> 'prim'",
            "dead_ends * 0.1 = 0.3 OR 2.5::BIGINT = dead_ends",
            "grid = 'hex'",
            "grid <> 'square' AND dead_ends > 3",
            "grid IN ('triangle', 'polar') OR algo = 'prim'",
            "grid NOT IN ('hex') AND grid >= 'polar'",
            "'hex' = grid OR grid = algo OR algo < grid",
            "grid = 'hexagon' OR grid = 'Hex'",
        ] {
            let a = Accept::parse(expr).unwrap();
            let mut pass = vec![false; n];
            let mut start = 0;
            while start < n {
                let len = BLOCK.min(n - start);
                a.eval_block(&rows, start, len, &mut s, &mut pass[start..start + len]);
                start += len;
            }
            for (r, &p) in pass.iter().enumerate() {
                let algo = &rows.algos[rows.codes[r] as usize];
                let grid = Grid::ALL[rows.grids[r] as usize];
                let want = a.eval_with(algo, grid, |c| rows.cols[c as usize][r]);
                assert_eq!(p, want, "{expr}: row {r}");
            }
        }
    }
}
