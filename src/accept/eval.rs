//! Running a compiled filter on one row: a fixed-size stack of values, no allocation, the
//! semantics of DuckDB's operators (NaN ordering, three-valued logic, NULL from integer
//! division by zero). `explore`'s column-at-a-time evaluator shares [`arith`] and [`order`].

use super::program::{Arith, Cmp, Op};
use super::{ALGO, COLUMNS, GRID, MAX_DEPTH};

/// One evaluation stack slot: a number (booleans are 1 / 0), a string id, or NULL.
#[derive(Clone, Copy)]
pub(crate) struct V {
    pub(crate) x: f64,
    s: u16,
    pub(crate) null: bool,
}

const NULL: V = V {
    x: 0.0,
    s: 0,
    null: true,
};

impl V {
    #[inline]
    fn num(x: f64) -> V {
        V {
            x,
            s: 0,
            null: false,
        }
    }
    #[inline]
    fn truth(b: bool) -> V {
        V::num(if b { 1.0 } else { 0.0 })
    }
}

impl Cmp {
    #[inline]
    pub(crate) fn test(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Cmp::Lt => o == Less,
            Cmp::Le => o != Greater,
            Cmp::Gt => o == Greater,
            Cmp::Ge => o != Less,
            Cmp::Eq => o == Equal,
            Cmp::Ne => o != Equal,
        }
    }
}

/// DuckDB's order on doubles: NaN above everything and equal to itself; -0 = 0.
#[inline]
pub(crate) fn order(a: f64, b: f64) -> std::cmp::Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => std::cmp::Ordering::Equal,
        (true, false) => std::cmp::Ordering::Greater,
        (false, true) => std::cmp::Ordering::Less,
        _ => a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal),
    }
}

/// Run compiled code on one row (its `[algo, grid]` names and numeric columns); the value left
/// on the stack.
#[inline(always)]
pub(super) fn exec(
    code: &[Op],
    strings: &[String],
    [algo, grid]: [&str; 2],
    column: impl Fn(u8) -> f64,
) -> V {
    {
        let mut stack = [NULL; MAX_DEPTH + 1];
        let mut sp = 0usize;
        for op in code {
            match *op {
                Op::Num(x) => {
                    stack[sp] = V::num(x);
                    sp += 1;
                }
                Op::Null => {
                    stack[sp] = NULL;
                    sp += 1;
                }
                Op::Col(i) => {
                    // A nullable column is an integer one: NaN there is its NULL (see
                    // `RowView::column`).
                    let x = column(i);
                    stack[sp] = if x.is_nan() && COLUMNS[i as usize].is_nullable() {
                        NULL
                    } else {
                        V::num(x)
                    };
                    sp += 1;
                }
                Op::Str(s) => {
                    stack[sp] = V {
                        x: 0.0,
                        s,
                        null: false,
                    };
                    sp += 1;
                }
                Op::Neg { int } => {
                    let v = &mut stack[sp - 1];
                    v.x = if int { 0.0 - v.x } else { -v.x };
                }
                Op::RoundEven => {
                    let v = &mut stack[sp - 1];
                    v.x = v.x.round_ties_even() + 0.0;
                }
                Op::RoundDec(p) => {
                    let v = &mut stack[sp - 1];
                    // Exact on scaled integers: quotient and remainder, then half away from 0.
                    let r = v.x % p;
                    let q = (v.x - r) / p;
                    v.x = if 2.0 * r.abs() >= p {
                        q + r.signum()
                    } else {
                        q
                    } + 0.0;
                }
                Op::ToDouble(p) => {
                    let v = &mut stack[sp - 1];
                    v.x /= p;
                }
                Op::Arith { op, int, l, r } => {
                    sp -= 1;
                    let (a, b) = (stack[sp - 1], stack[sp]);
                    stack[sp - 1] = if a.null || b.null {
                        NULL
                    } else {
                        arith(op, int, l.apply(a.x), r.apply(b.x))
                    };
                }
                Op::Cmp(cmp, l, r) => {
                    sp -= 1;
                    let (a, b) = (stack[sp - 1], stack[sp]);
                    stack[sp - 1] = if a.null || b.null {
                        NULL
                    } else {
                        V::truth(cmp.test(order(l.apply(a.x), r.apply(b.x))))
                    };
                }
                Op::StrCmp(cmp) => {
                    sp -= 1;
                    let s = |id: u16| match id {
                        ALGO => algo,
                        GRID => grid,
                        _ => strings[id as usize].as_str(),
                    };
                    let (a, b) = (stack[sp - 1].s, stack[sp].s);
                    stack[sp - 1] = V::truth(cmp.test(s(a).cmp(s(b))));
                }
                Op::And | Op::Or => {
                    sp -= 1;
                    let (a, b) = (stack[sp - 1], stack[sp]);
                    // Kleene logic: the dominant value wins over NULL.
                    let dominant = if *op == Op::And { 0.0 } else { 1.0 };
                    stack[sp - 1] = if (!a.null && a.x == dominant) || (!b.null && b.x == dominant)
                    {
                        V::num(dominant)
                    } else if a.null || b.null {
                        NULL
                    } else {
                        V::num(1.0 - dominant)
                    };
                }
                Op::Not => {
                    let v = &mut stack[sp - 1];
                    v.x = 1.0 - v.x;
                }
                Op::IsNull { negated } => {
                    let v = &mut stack[sp - 1];
                    *v = V::truth(v.null != negated);
                }
            }
        }
        stack[0]
    }
}

/// One arithmetic step in DuckDB's semantics (see the module docs).
#[inline]
pub(crate) fn arith(op: Arith, int: bool, a: f64, b: f64) -> V {
    let x = match op {
        Arith::Add => a + b,
        Arith::Sub => a - b,
        Arith::Mul => a * b,
        Arith::Div => return V::num(a / b),
        // DuckDB stops on `//` by zero; batchgen gives NULL, as DuckDB's TRY(…) does.
        Arith::IntDiv if b == 0.0 => return NULL,
        // Truncating integer division, exact below 2^53.
        Arith::IntDiv if int => (a - a % b) / b,
        Arith::IntDiv => a / b,
        Arith::Mod => {
            if int && b == 0.0 {
                return NULL;
            }
            a % b
        }
    };
    // Integers have no negative zero.
    V::num(if int { x + 0.0 } else { x })
}
