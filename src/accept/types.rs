//! The accept language's type system: the static SQL type of each sub-expression and the
//! rules DuckDB applies when operands meet (which comparisons and arithmetic are allowed, the
//! exact DECIMAL scale of a result or its turning into a DOUBLE, what a cast accepts), and the
//! resolution of column names against [`COLUMNS`]. [`super::compile`] asks these rules at
//! every node; the messages they return become the error at the node's position.

use super::program::{Arith, Conv, SAME};
use super::{ALGO, COLUMNS, GRID, GRID_NAME};
use crate::metrics::Filter;

/// Largest DECIMAL scale accepted (DuckDB's DECIMAL(18, s) still fits 2^63).
pub(super) const MAX_SCALE: u8 = 18;

/// Static SQL type of a sub-expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Ty {
    /// Integer (DuckDB integer columns and literals): results are integral, zero is unsigned.
    Int,
    /// DOUBLE.
    Float,
    /// DECIMAL with this many digits after the point, held exactly as a scaled integer.
    Dec(u8),
    /// A string (`algo`, `grid` or a literal).
    Str,
    /// A condition.
    Bool,
    /// The NULL literal: fits where a number is expected.
    Null,
}

impl Ty {
    /// Numbers, and NULL, which fits where a number is expected.
    pub(super) fn numeric(self) -> bool {
        matches!(self, Ty::Int | Ty::Float | Ty::Dec(_) | Ty::Null)
    }

    /// Digits after the point (integers: 0); `None` for DOUBLE.
    fn scale(self) -> Option<u8> {
        match self {
            Ty::Dec(s) => Some(s),
            Ty::Float => None,
            _ => Some(0),
        }
    }

    /// The type in the words of an error message.
    pub(super) fn name(self) -> &'static str {
        match self {
            Ty::Int | Ty::Float | Ty::Dec(_) | Ty::Null => "a number",
            Ty::Str => "a string",
            Ty::Bool => "a true/false condition",
        }
    }

    /// The type of a number literal of this scale (`None`: written as a double).
    pub(super) fn of_number(scale: Option<u8>) -> Ty {
        match scale {
            Some(0) => Ty::Int,
            Some(s) => Ty::Dec(s),
            None => Ty::Float,
        }
    }
}

/// `10^s`, exact in a double for the scales allowed.
pub(super) fn pow10(s: u8) -> f64 {
    10f64.powi(s as i32)
}

/// Check that an operand of type `got` fits where `want` is needed by `what` (`AND`, `OR`,
/// `NOT`): a bare NULL is an unknown truth value (`NOT NULL`, `NULL OR TRUE`).
pub(super) fn expect(got: Ty, want: Ty, what: &str) -> Result<(), String> {
    let ok = match want {
        Ty::Bool => matches!(got, Ty::Bool | Ty::Null),
        _ => got.numeric(),
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{what} needs {}, found {}",
            want.name(),
            got.name()
        ))
    }
}

/// How a comparison of `a` with `b` is made.
pub(super) enum Comparison {
    /// Two strings, in byte order.
    Strings,
    /// Two numbers, each converted first.
    Numbers(Conv, Conv),
}

/// The comparison of an operand of type `a` with one of type `b`.
pub(super) fn comparison(a: Ty, b: Ty) -> Result<Comparison, String> {
    match (a, b) {
        (Ty::Str, Ty::Str) => Ok(Comparison::Strings),
        (x, y) if x.numeric() && y.numeric() => {
            let (l, r, _) = common(a, b);
            Ok(Comparison::Numbers(l, r))
        }
        _ => Err(format!("cannot compare {} with {}", a.name(), b.name())),
    }
}

/// Arithmetic `op` on `a` and `b`: the conversions of both operands and the result type
/// (exact on integers and DECIMALs, except `/`; DOUBLE as soon as one side is).
pub(super) fn arithmetic(a: Ty, b: Ty, op: Arith) -> Result<(Conv, Conv, Ty), String> {
    for t in [a, b] {
        if !t.numeric() {
            return Err(format!("arithmetic needs numbers, found {}", t.name()));
        }
    }
    let (sa, sb) = (a.scale(), b.scale());
    let exact = match op {
        Arith::Div => None,
        Arith::IntDiv if sa != Some(0) || sb != Some(0) => None,
        Arith::Mul => sa.zip(sb).map(|(x, y)| (SAME, SAME, x + y)),
        _ => sa.zip(sb).map(|_| common(a, b)),
    };
    match exact {
        Some((_, _, s)) if s > MAX_SCALE => Err(format!("more than {MAX_SCALE} decimal places")),
        Some((l, r, 0)) => Ok((l, r, Ty::Int)),
        Some((l, r, s)) => Ok((l, r, Ty::Dec(s))),
        None => Ok((to_double(a), to_double(b), Ty::Float)),
    }
}

/// Check the operand of a sign.
pub(super) fn negation(t: Ty) -> Result<(), String> {
    if t.numeric() {
        Ok(())
    } else {
        Err(format!("'-' needs a number, found {}", t.name()))
    }
}

/// The type a cast converts to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum CastTo {
    /// A DuckDB integer type: its name and largest value.
    Integer(&'static str, f64),
    /// DOUBLE.
    Double,
}

/// Check the operand of a cast and resolve the type name after `::` or `AS`.
pub(super) fn cast(from: Ty, name: &str) -> Result<CastTo, CastError> {
    if !from.numeric() {
        return Err(CastError::Operand(format!(
            "only numbers can be cast, found {}",
            from.name()
        )));
    }
    // DuckDB's integer types and their ranges.
    match name.to_ascii_lowercase().as_str() {
        "bigint" | "int8" | "long" => Ok(CastTo::Integer("BIGINT", i64::MAX as f64)),
        "integer" | "int" | "int4" => Ok(CastTo::Integer("INTEGER", i32::MAX as f64)),
        "hugeint" => Ok(CastTo::Integer("HUGEINT", i128::MAX as f64)),
        "double" | "float8" => Ok(CastTo::Double),
        lower => Err(CastError::Type(format!(
            "unsupported type '{lower}' (use BIGINT, INTEGER or DOUBLE)"
        ))),
    }
}

/// Why a cast is refused: its operand (reported at the operand) or its type name (at the name).
pub(super) enum CastError {
    /// The operand is not a number.
    Operand(String),
    /// The type is not one the language has.
    Type(String),
}

/// Check a constant's value (`x`, already unscaled) against the range of the integer type it
/// is cast to: out of range, NaN and infinity are refused as DuckDB refuses them ("Conversion
/// Error").
pub(super) fn constant_in_range(x: f64, ty_name: &str, max: f64) -> Result<(), String> {
    // Rounded as the cast rounds; the bound is exclusive above as for a two's complement.
    let r = x.round();
    if !x.is_finite() || r >= max + 1.0 || r < -max - 1.0 {
        return Err(format!(
            "CAST of {x} AS {ty_name}: out of range for {ty_name} (DuckDB refuses it with a \
             Conversion Error)"
        ));
    }
    Ok(())
}

/// A column as an expression reads it.
pub(super) enum ColumnRef {
    /// `algo` or `grid`: the row's string that id [`super::ALGO`] or [`super::GRID`] stands
    /// for.
    Text(u16),
    /// Numeric column `COLUMNS[i]` of this type.
    Number(u8, Ty),
}

/// Resolve a column name (`lower`: the name lower-cased; `name`: as written, for the error).
pub(super) fn column(lower: &str, name: &str) -> Result<ColumnRef, String> {
    if lower == GRID_NAME {
        return Ok(ColumnRef::Text(GRID));
    }
    let Some(i) = crate::metrics::column_index(lower) else {
        return Err(format!("unknown column '{name}'"));
    };
    match COLUMNS[i].filter {
        Filter::Text => Ok(ColumnRef::Text(ALGO)),
        Filter::Number => Ok(ColumnRef::Number(
            i as u8,
            if COLUMNS[i].is_float() {
                Ty::Float
            } else {
                Ty::Int
            },
        )),
        Filter::Refused(why) => Err(format!("'{lower}' is {why}")),
    }
}

/// How two numeric operands meet: both rescaled to a common DECIMAL scale (exact), or both
/// doubles when either is one. Returns the conversions and the common scale.
fn common(a: Ty, b: Ty) -> (Conv, Conv, u8) {
    match (a.scale(), b.scale()) {
        (Some(x), Some(y)) => {
            let s = x.max(y);
            let up = |from: u8| Conv {
                mul: pow10(s - from),
                div: 1.0,
            };
            (up(x), up(y), s)
        }
        _ => (to_double(a), to_double(b), 0),
    }
}

/// The conversion of an operand of type `t` to a double.
fn to_double(t: Ty) -> Conv {
    match t {
        Ty::Dec(s) => Conv {
            mul: 1.0,
            div: pow10(s),
        },
        _ => SAME,
    }
}
