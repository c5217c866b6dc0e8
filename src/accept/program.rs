//! The accept language's instruction set: the operators, the conversions applied to operands,
//! and the postfix instructions [`super::compile`] writes and [`super::eval`] (and the
//! explorer's column-at-a-time evaluator) run. It imports nothing from the other files of
//! `accept/`, so the parser, the type rules, the compiler and the evaluator all depend on it
//! and on nothing that depends on them.

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// An arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    Mod,
}

/// A conversion applied to an operand before a binary step: `value * mul / div` (one of them
/// is 1): rescaling a DECIMAL exactly, or turning it into a double.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Conv {
    pub(crate) mul: f64,
    pub(crate) div: f64,
}

/// The conversion that changes nothing.
pub(crate) const SAME: Conv = Conv { mul: 1.0, div: 1.0 };

impl Conv {
    #[inline]
    pub(crate) fn apply(self, x: f64) -> f64 {
        x * self.mul / self.div
    }
}

/// One instruction of the postfix program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    Num(f64),
    Null,
    Col(u8),
    Str(u16),
    /// Negation; `int` results have an unsigned zero.
    Neg {
        int: bool,
    },
    /// `int`: exact integer arithmetic (integers, and DECIMALs as scaled integers).
    Arith {
        op: Arith,
        int: bool,
        l: Conv,
        r: Conv,
    },
    /// DOUBLE to BIGINT: round half to even (DuckDB's cast).
    RoundEven,
    /// DECIMAL (scaled by `p`) to BIGINT: round half away from zero (DuckDB's cast).
    RoundDec(f64),
    /// DECIMAL (scaled by `p`) to DOUBLE.
    ToDouble(f64),
    Cmp(Cmp, Conv, Conv),
    StrCmp(Cmp),
    And,
    Or,
    Not,
    IsNull {
        negated: bool,
    },
}
