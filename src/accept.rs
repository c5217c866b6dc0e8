//! Accept filters: the SQL boolean expression a user pastes from a DuckDB `WHERE` clause,
//! parsed once, compiled to postfix code and evaluated per candidate without allocation.
//! The main job's `--accept` and `batchgen summary --accept` share this evaluator.
//!
//! Grammar (lowest precedence first; keywords in any case):
//!
//! ```text
//! or        := and ( ("OR" | "||") and )*
//! and       := not ( ("AND" | "&&") not )*
//! not       := ("NOT" | "!") not | predicate
//! predicate := sum [ cmp sum | ["NOT"] "BETWEEN" sum "AND" sum
//!                  | ["NOT"] "IN" "(" sum ("," sum)* ")" | "IS" ["NOT"] "NULL" ]
//! cmp       := "=" | "==" | "<>" | "!=" | "<" | "<=" | ">" | ">="
//! sum       := product ( ("+" | "-") product )*
//! product   := unary ( ("*" | "/" | "//" | "%") unary )*
//! unary     := ("-" | "+") unary | postfix
//! postfix   := primary ( "::" TYPE )*
//! primary   := NUMBER | 'string' | NULL | TRUE | FALSE | COLUMN | "(" or ")"
//!            | "CAST" "(" or "AS" TYPE ")"
//! TYPE      := BIGINT | INTEGER | INT | HUGEINT | DOUBLE | FLOAT8 | REAL | FLOAT | FLOAT4
//! ```
//!
//! Columns are `algo` (compared with string literals) and the numeric Parquet columns that
//! depend only on the maze: the one column table [`COLUMNS`] gives their order, SQL types and
//! values, and says which are refused: `gen_ns` because a filter on timing would make the
//! accepted set non-reproducible, the 64-bit hashes/seeds because they do not fit a double.
//!
//! Semantics follow DuckDB 2.0 (checked row by row against DuckDB in `tests/accept_sql.rs`):
//! numbers are doubles; `/` is float division even on integers, `x/0` is ±infinity and `0/0`
//! is NaN; NaN sorts above every number and equals itself; `//` truncates on integers and is
//! plain division on doubles; `%` is the truncated remainder; a NULL (the `NULL` literal, or
//! `//`/`%` by zero on integers, where DuckDB stops with an error and `TRY(…)` gives NULL)
//! makes comparisons NULL, a bare `NULL` is an unknown truth value (`NOT NULL` is NULL,
//! `NULL OR TRUE` is TRUE), `AND`/`OR` are three-valued, and a row whose filter is NULL is
//! rejected. A cast of a constant to an integer type (`CAST(1e300 AS BIGINT)`,
//! `(0/0)::BIGINT`, `CAST(3e9 AS INTEGER)`) outside that type's range, or of NaN or infinity,
//! is refused when the filter is parsed, as DuckDB refuses it; a cast of a value computed from
//! columns is not range-checked: `(dead_ends / 0)::BIGINT` stays infinite where DuckDB stops
//! the query with a Conversion Error. Where DuckDB stops with "Out of Range" on unsigned arithmetic
//! (`dead_ends - 1000` going negative), batchgen computes the true value, which is what DuckDB
//! gives after `dead_ends::BIGINT - 1000`. As in DuckDB, a literal with a decimal point (`0.1`)
//! is an exact DECIMAL (held as a scaled integer, exact below 2^53 and up to 18 places; a
//! longer literal, such as a double's 17 digits pasted back, is read as a double):
//! `+ - * %` on integers and DECIMALs stay exact (`solution_length * 0.1 = 3` holds for 30),
//! `/` and anything with a DOUBLE (a column like `dead_end_share`, or `1e-1`) is a double;
//! `::BIGINT` rounds a DECIMAL half away from zero and a DOUBLE half to even.

use std::fmt;

use crate::metrics::{Filter, RowView};

/// The output's column table: an accept filter reads `COLUMNS[i]` for the columns whose
/// [`crate::metrics::Filter`] admits them (their order, types and values come from there).
pub use crate::metrics::COLUMNS;

/// Deepest parse nesting and evaluation stack allowed.
pub(crate) const MAX_DEPTH: usize = 64;
/// String id standing for the candidate's `algo`.
pub(crate) const ALGO: u16 = u16::MAX;
/// Integers above this are not exact in a double.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// What a filter sees of one candidate: its generator, size, master seed and row
/// ([`RowView::column`] gives the value of `COLUMNS[i]`).
pub type Candidate<'a> = RowView<'a>;

/// The columns a filter may use, in table order, `algo` first: the list shown in errors.
pub fn filter_columns() -> impl Iterator<Item = &'static str> {
    COLUMNS
        .iter()
        .filter(|c| !matches!(c.filter, Filter::Refused(_)))
        .map(|c| c.name)
}

/// Static SQL type of a sub-expression.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    /// Integer (DuckDB integer columns and literals): results are integral, zero is unsigned.
    Int,
    /// DOUBLE.
    Float,
    /// DECIMAL with this many digits after the point, held exactly as a scaled integer.
    Dec(u8),
    Str,
    Bool,
    /// The NULL literal: fits where a number is expected.
    Null,
}

impl Ty {
    fn numeric(self) -> bool {
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
    fn name(self) -> &'static str {
        match self {
            Ty::Int | Ty::Float | Ty::Dec(_) | Ty::Null => "a number",
            Ty::Str => "a string",
            Ty::Bool => "a true/false condition",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
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

pub(crate) const SAME: Conv = Conv { mul: 1.0, div: 1.0 };

impl Conv {
    #[inline]
    pub(crate) fn apply(self, x: f64) -> f64 {
        x * self.mul / self.div
    }
}

/// `10^s`, exact in a double for the scales allowed.
fn pow10(s: u8) -> f64 {
    10f64.powi(s as i32)
}

/// Largest DECIMAL scale accepted (DuckDB's DECIMAL(18, s) still fits 2^63).
const MAX_SCALE: u8 = 18;

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

/// A compiled accept filter.
#[derive(Clone, Debug, PartialEq)]
pub struct Accept {
    source: String,
    code: Vec<Op>,
    strings: Vec<String>,
    uses: Vec<u8>,
}

/// A filter that does not parse: where, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct AcceptError {
    /// The expression as given.
    pub expr: String,
    /// Byte offset of the problem.
    pub pos: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for AcceptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = (0..=self.pos.min(self.expr.len()))
            .rev()
            .find(|&p| self.expr.is_char_boundary(p))
            .unwrap_or(0);
        let col = self.expr[..pos].chars().count();
        write!(
            f,
            "{} at position {}\n  {}\n  {}^\nvalid columns: {}",
            self.message,
            col + 1,
            self.expr,
            " ".repeat(col),
            filter_columns().collect::<Vec<_>>().join(", ")
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// Identifier or keyword; `true` when double-quoted (never a keyword).
    Ident(String, bool),
    /// Number: with `Some(scale)` an exact integer or DECIMAL (scaled by 10^scale), with
    /// `None` a double (written with an exponent).
    Num(f64, Option<u8>),
    Str(String),
    Sym(&'static str),
    End,
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

const SYMBOLS: [&str; 20] = [
    "&&", "||", "<=", ">=", "==", "!=", "<>", "//", "::", "<", ">", "=", "!", "(", ")", ",", "+",
    "-", "*", "/",
];

impl Lexer<'_> {
    fn err(&self, pos: usize, message: impl Into<String>) -> AcceptError {
        AcceptError {
            expr: self.src.to_string(),
            pos,
            message: message.into(),
        }
    }

    /// The next token and its start offset.
    fn next(&mut self) -> Result<(Tok, usize), AcceptError> {
        let rest = self.src[self.pos..].trim_start();
        let start = self.src.len() - rest.len();
        self.pos = start;
        let Some(c) = rest.chars().next() else {
            return Ok((Tok::End, start));
        };
        let (tok, len) = if c == '%' {
            (Tok::Sym("%"), 1)
        } else if let Some(s) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            (Tok::Sym(s), s.len())
        } else if c.is_alphabetic() || c == '_' {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (Tok::Ident(rest[..end].to_string(), false), end)
        } else if c == '"' || c == '\'' {
            // SQL quoting: a doubled quote stands for one.
            let mut text = String::new();
            let mut it = rest.char_indices().skip(1).peekable();
            let mut end = None;
            while let Some((i, ch)) = it.next() {
                if ch == c {
                    if it.peek().map(|p| p.1) == Some(c) {
                        it.next();
                    } else {
                        end = Some(i + 1);
                        break;
                    }
                }
                text.push(ch);
            }
            let Some(end) = end else {
                return Err(self.err(start, format!("unterminated {c}quote{c}")));
            };
            if c == '"' {
                (Tok::Ident(text, true), end)
            } else {
                (Tok::Str(text), end)
            }
        } else if c.is_ascii_digit() || c == '.' {
            let b = rest.as_bytes();
            let mut end = 0;
            let mut int = true;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            if end < b.len() && b[end] == b'.' {
                int = false;
                end += 1;
                while end < b.len() && b[end].is_ascii_digit() {
                    end += 1;
                }
            }
            if end < b.len() && matches!(b[end], b'e' | b'E') {
                int = false;
                end += 1;
                if end < b.len() && matches!(b[end], b'+' | b'-') {
                    end += 1;
                }
                while end < b.len() && b[end].is_ascii_digit() {
                    end += 1;
                }
            }
            // A literal runs to the next separator: `5abc` or `1.2.3` is one bad literal.
            let whole = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(rest.len())
                .max(end);
            let text = &rest[..whole];
            let v: f64 = match text.parse() {
                Ok(v) if whole == end => v,
                _ => return Err(self.err(start, format!("'{text}' is not a number"))),
            };
            if !v.is_finite() {
                return Err(self.err(
                    start,
                    format!("the number '{text}' is out of range (not a finite double)"),
                ));
            }
            let exp = text.contains(['e', 'E']);
            if int || exp {
                if int && v > MAX_EXACT {
                    return Err(self.err(
                        start,
                        format!("the integer '{text}' is above 2^53 and not exact in a double"),
                    ));
                }
                (Tok::Num(v, if int { Some(0) } else { None }), end)
            } else {
                // `0.12` is DECIMAL: kept exactly as 12 with scale 2.
                let (i, f) = text.split_once('.').unwrap_or((text, ""));
                let digits = format!("{i}{f}");
                let scaled: f64 = digits.parse().unwrap_or(0.0);
                if f.len() > MAX_SCALE as usize || scaled > MAX_EXACT {
                    // Too long to hold exactly (e.g. a double's 17 digits pasted back): a
                    // double, which is what DuckDB compares it as against a DOUBLE column.
                    self.pos = start + end;
                    return Ok((Tok::Num(v, None), start));
                }
                (Tok::Num(scaled, Some(f.len() as u8)), end)
            }
        } else {
            return Err(self.err(start, format!("unexpected character '{c}'")));
        };
        self.pos = start + len;
        Ok((tok, start))
    }
}

struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Tok,
    at: usize,
    code: Vec<Op>,
    strings: Vec<String>,
    uses: Vec<u8>,
    depth: usize,
}

impl Parser<'_> {
    fn bump(&mut self) -> Result<(), AcceptError> {
        let (t, at) = self.lex.next()?;
        self.tok = t;
        self.at = at;
        Ok(())
    }

    fn err(&self, pos: usize, m: impl Into<String>) -> AcceptError {
        self.lex.err(pos, m)
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.tok, Tok::Sym(t) if t == s)
    }

    /// Is the current token the (unquoted, any case) keyword `kw`?
    fn is_kw(&self, kw: &str) -> bool {
        matches!(&self.tok, Tok::Ident(s, false) if s.eq_ignore_ascii_case(kw))
    }

    fn enter(&mut self) -> Result<(), AcceptError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(self.at, "expression nested too deeply"));
        }
        Ok(())
    }

    fn expect_ty(&self, at: usize, got: Ty, want: Ty, what: &str) -> Result<(), AcceptError> {
        let ok = match want {
            // A bare NULL is an unknown truth value (`NOT NULL`, `NULL OR TRUE`).
            Ty::Bool => matches!(got, Ty::Bool | Ty::Null),
            _ => got.numeric(),
        };
        if ok {
            Ok(())
        } else {
            Err(self.err(
                at,
                format!("{what} needs {}, found {}", want.name(), got.name()),
            ))
        }
    }

    fn or(&mut self) -> Result<Ty, AcceptError> {
        self.enter()?;
        let at = self.at;
        let mut ty = self.and()?;
        while self.is_kw("or") || self.is_sym("||") {
            self.expect_ty(at, ty, Ty::Bool, "OR")?;
            self.bump()?;
            let r_at = self.at;
            let r = self.and()?;
            self.expect_ty(r_at, r, Ty::Bool, "OR")?;
            self.code.push(Op::Or);
            ty = Ty::Bool;
        }
        self.depth -= 1;
        Ok(ty)
    }

    fn and(&mut self) -> Result<Ty, AcceptError> {
        let at = self.at;
        let mut ty = self.not()?;
        while self.is_kw("and") || self.is_sym("&&") {
            self.expect_ty(at, ty, Ty::Bool, "AND")?;
            self.bump()?;
            let r_at = self.at;
            let r = self.not()?;
            self.expect_ty(r_at, r, Ty::Bool, "AND")?;
            self.code.push(Op::And);
            ty = Ty::Bool;
        }
        Ok(ty)
    }

    fn not(&mut self) -> Result<Ty, AcceptError> {
        if self.is_kw("not") || self.is_sym("!") {
            self.enter()?;
            self.bump()?;
            let at = self.at;
            let ty = self.not()?;
            self.expect_ty(at, ty, Ty::Bool, "NOT")?;
            self.code.push(Op::Not);
            self.depth -= 1;
            return Ok(Ty::Bool);
        }
        self.predicate()
    }

    fn cmp_op(&self) -> Option<Cmp> {
        match self.tok {
            Tok::Sym("<") => Some(Cmp::Lt),
            Tok::Sym("<=") => Some(Cmp::Le),
            Tok::Sym(">") => Some(Cmp::Gt),
            Tok::Sym(">=") => Some(Cmp::Ge),
            Tok::Sym("=") | Tok::Sym("==") => Some(Cmp::Eq),
            Tok::Sym("!=") | Tok::Sym("<>") => Some(Cmp::Ne),
            _ => None,
        }
    }

    /// Emit a comparison of two operands of types `a` and `b` (already on the stack).
    fn compare(&mut self, at: usize, a: Ty, b: Ty, cmp: Cmp) -> Result<(), AcceptError> {
        match (a, b) {
            (Ty::Str, Ty::Str) => self.code.push(Op::StrCmp(cmp)),
            (x, y) if x.numeric() && y.numeric() => {
                let (l, r, _) = common(a, b);
                self.code.push(Op::Cmp(cmp, l, r));
            }
            _ => return Err(self.err(at, format!("cannot compare {} with {}", a.name(), b.name()))),
        }
        Ok(())
    }

    fn predicate(&mut self) -> Result<Ty, AcceptError> {
        let start = self.code.len();
        let left = self.sum()?;
        let left_code = start..self.code.len();
        if let Some(cmp) = self.cmp_op() {
            let op_at = self.at;
            self.bump()?;
            let right = self.sum()?;
            self.compare(op_at, left, right, cmp)?;
            if self.cmp_op().is_some() {
                return Err(self.err(self.at, "comparisons do not chain; write 'a < b AND b < c'"));
            }
            return Ok(Ty::Bool);
        }
        let negated = self.is_kw("not");
        if negated {
            self.bump()?;
            if !self.is_kw("between") && !self.is_kw("in") {
                return Err(self.err(self.at, "expected BETWEEN or IN after NOT"));
            }
        }
        if self.is_kw("between") {
            // x BETWEEN a AND b  ≡  x >= a AND x <= b (x's code is emitted twice).
            let op_at = self.at;
            self.bump()?;
            let lo = self.sum()?;
            self.compare(op_at, left, lo, Cmp::Ge)?;
            if !self.is_kw("and") {
                return Err(self.err(self.at, "expected AND in 'x BETWEEN low AND high'"));
            }
            self.bump()?;
            self.code.extend_from_within(left_code);
            let hi = self.sum()?;
            self.compare(op_at, left, hi, Cmp::Le)?;
            self.code.push(Op::And);
        } else if self.is_kw("in") {
            // x IN (a, b, …)  ≡  x = a OR x = b OR …
            let op_at = self.at;
            self.bump()?;
            if !self.is_sym("(") {
                return Err(self.err(self.at, "expected '(' after IN"));
            }
            self.bump()?;
            let mut first = true;
            loop {
                if !first {
                    self.code.extend_from_within(left_code.clone());
                }
                let v = self.sum()?;
                self.compare(op_at, left, v, Cmp::Eq)?;
                if !first {
                    self.code.push(Op::Or);
                }
                first = false;
                if self.is_sym(",") {
                    self.bump()?;
                } else if self.is_sym(")") {
                    self.bump()?;
                    break;
                } else {
                    return Err(self.err(self.at, "expected ',' or ')' in the IN list"));
                }
            }
        } else if self.is_kw("is") {
            self.bump()?;
            let negated = self.is_kw("not");
            if negated {
                self.bump()?;
            }
            if !self.is_kw("null") {
                return Err(self.err(self.at, "expected NULL after IS"));
            }
            self.bump()?;
            self.code.push(Op::IsNull { negated });
            return Ok(Ty::Bool);
        } else {
            return Ok(left);
        }
        if negated {
            self.code.push(Op::Not);
        }
        Ok(Ty::Bool)
    }

    /// Result type of arithmetic on `a` and `b`.
    fn arith(&mut self, at: usize, a: Ty, b: Ty, op: Arith) -> Result<Ty, AcceptError> {
        for t in [a, b] {
            if !t.numeric() {
                return Err(self.err(at, format!("arithmetic needs numbers, found {}", t.name())));
            }
        }
        let (sa, sb) = (a.scale(), b.scale());
        let exact = match op {
            Arith::Div => None,
            Arith::IntDiv if sa != Some(0) || sb != Some(0) => None,
            Arith::Mul => sa.zip(sb).map(|(x, y)| (SAME, SAME, x + y)),
            _ => sa.zip(sb).map(|_| common(a, b)),
        };
        let (l, r, ty) = match exact {
            Some((_, _, s)) if s > MAX_SCALE => {
                return Err(self.err(at, format!("more than {MAX_SCALE} decimal places")))
            }
            Some((l, r, 0)) => (l, r, Ty::Int),
            Some((l, r, s)) => (l, r, Ty::Dec(s)),
            None => (to_double(a), to_double(b), Ty::Float),
        };
        self.code.push(Op::Arith {
            op,
            int: ty != Ty::Float,
            l,
            r,
        });
        Ok(ty)
    }

    fn sum(&mut self) -> Result<Ty, AcceptError> {
        let mut ty = self.product()?;
        loop {
            let op = match self.tok {
                Tok::Sym("+") => Arith::Add,
                Tok::Sym("-") => Arith::Sub,
                _ => return Ok(ty),
            };
            let at = self.at;
            self.bump()?;
            let r = self.product()?;
            ty = self.arith(at, ty, r, op)?;
        }
    }

    fn product(&mut self) -> Result<Ty, AcceptError> {
        let mut ty = self.unary()?;
        loop {
            let op = match self.tok {
                Tok::Sym("*") => Arith::Mul,
                Tok::Sym("/") => Arith::Div,
                Tok::Sym("//") => Arith::IntDiv,
                Tok::Sym("%") => Arith::Mod,
                _ => return Ok(ty),
            };
            let at = self.at;
            self.bump()?;
            let r = self.unary()?;
            ty = self.arith(at, ty, r, op)?;
        }
    }

    fn unary(&mut self) -> Result<Ty, AcceptError> {
        if self.is_sym("-") || self.is_sym("+") {
            let minus = self.is_sym("-");
            let at = self.at;
            self.enter()?;
            self.bump()?;
            let ty = self.unary()?;
            if !ty.numeric() {
                return Err(self.err(at, format!("'-' needs a number, found {}", ty.name())));
            }
            if minus {
                self.code.push(Op::Neg {
                    int: ty != Ty::Float,
                });
            }
            self.depth -= 1;
            return Ok(ty);
        }
        let (at, start) = (self.at, self.code.len());
        let mut ty = self.primary()?;
        while self.is_sym("::") {
            self.bump()?;
            ty = self.cast(at, start, ty)?;
        }
        Ok(ty)
    }

    /// A cast of a constant (no column in it) to an integer type out of that type's range,
    /// or of NaN or infinity, is refused as DuckDB refuses it ("Conversion Error"). The
    /// operand's code is `self.code[start..]`.
    fn check_constant_cast(
        &self,
        at: usize,
        start: usize,
        from: Ty,
        ty_name: &str,
        max: f64,
    ) -> Result<(), AcceptError> {
        let operand = &self.code[start..];
        if operand
            .iter()
            .any(|op| matches!(op, Op::Col(_) | Op::Str(_) | Op::StrCmp(_)))
        {
            return Ok(());
        }
        let v = exec(operand, &self.strings, "", |_| 0.0);
        if v.null {
            return Ok(());
        }
        let x = match from {
            Ty::Dec(s) => v.x / pow10(s),
            _ => v.x,
        };
        // Rounded as the cast rounds; the bound is exclusive above as for a two's complement.
        let r = x.round();
        if !x.is_finite() || r >= max + 1.0 || r < -max - 1.0 {
            return Err(self.err(
                at,
                format!(
                    "CAST of {x} AS {ty_name}: out of range for {ty_name} (DuckDB refuses it \
                     with a Conversion Error)"
                ),
            ));
        }
        Ok(())
    }

    /// The type name after `::` or `AS`; emits the conversion of the operand whose code
    /// starts at `self.code[start]`.
    fn cast(&mut self, at: usize, start: usize, from: Ty) -> Result<Ty, AcceptError> {
        let Tok::Ident(name, false) = &self.tok else {
            return Err(self.err(self.at, "expected a type name (BIGINT, DOUBLE, …)"));
        };
        let name = name.to_ascii_lowercase();
        if !from.numeric() {
            return Err(self.err(
                at,
                format!("only numbers can be cast, found {}", from.name()),
            ));
        }
        // DuckDB's integer types and their ranges.
        let range = match name.as_str() {
            "bigint" | "int8" | "long" => Some(("BIGINT", i64::MAX as f64)),
            "integer" | "int" | "int4" => Some(("INTEGER", i32::MAX as f64)),
            "hugeint" => Some(("HUGEINT", i128::MAX as f64)),
            _ => None,
        };
        if let Some((ty_name, max)) = range {
            self.check_constant_cast(at, start, from, ty_name, max)?;
        }
        let ty = match name.as_str() {
            "bigint" | "int8" | "long" | "integer" | "int" | "int4" | "hugeint" => {
                match from {
                    Ty::Float => self.code.push(Op::RoundEven),
                    Ty::Dec(s) => self.code.push(Op::RoundDec(pow10(s))),
                    _ => {}
                }
                Ty::Int
            }
            "double" | "float8" => {
                if let Ty::Dec(s) = from {
                    self.code.push(Op::ToDouble(pow10(s)));
                }
                Ty::Float
            }
            _ => {
                return Err(self.err(
                    self.at,
                    format!("unsupported type '{name}' (use BIGINT, INTEGER or DOUBLE)"),
                ))
            }
        };
        self.bump()?;
        Ok(ty)
    }

    fn primary(&mut self) -> Result<Ty, AcceptError> {
        let at = self.at;
        let ty = match self.tok.clone() {
            Tok::Num(v, scale) => {
                self.code.push(Op::Num(v));
                match scale {
                    Some(0) => Ty::Int,
                    Some(s) => Ty::Dec(s),
                    None => Ty::Float,
                }
            }
            Tok::Str(s) => {
                let id = match self.strings.iter().position(|t| *t == s) {
                    Some(i) => i,
                    None => {
                        self.strings.push(s);
                        self.strings.len() - 1
                    }
                };
                if id >= ALGO as usize {
                    return Err(self.err(at, "too many string literals"));
                }
                self.code.push(Op::Str(id as u16));
                Ty::Str
            }
            Tok::Sym("(") => {
                self.bump()?;
                let ty = self.or()?;
                if !self.is_sym(")") {
                    return Err(self.err(
                        self.at,
                        format!("expected ')' to close the '(' at position {}", at + 1),
                    ));
                }
                ty
            }
            Tok::Ident(name, quoted) => {
                let lower = name.to_lowercase();
                if !quoted && lower == "cast" {
                    self.bump()?;
                    if !self.is_sym("(") {
                        return Err(self.err(self.at, "expected '(' after CAST"));
                    }
                    self.bump()?;
                    let (inner_at, start) = (self.at, self.code.len());
                    let inner = self.or()?;
                    if !self.is_kw("as") {
                        return Err(self.err(self.at, "expected AS in CAST(x AS TYPE)"));
                    }
                    self.bump()?;
                    let ty = self.cast(inner_at, start, inner)?;
                    if !self.is_sym(")") {
                        return Err(self.err(self.at, "expected ')' to close CAST("));
                    }
                    self.bump()?;
                    return Ok(ty);
                }
                match (quoted, lower.as_str()) {
                    (false, "null") => {
                        self.code.push(Op::Null);
                        Ty::Null
                    }
                    (false, "true") | (false, "false") => {
                        self.code
                            .push(Op::Num(if lower == "true" { 1.0 } else { 0.0 }));
                        Ty::Bool
                    }
                    _ => match crate::metrics::column_index(&lower) {
                        Some(i) => match COLUMNS[i].filter {
                            Filter::Text => {
                                self.code.push(Op::Str(ALGO));
                                Ty::Str
                            }
                            Filter::Number => {
                                self.code.push(Op::Col(i as u8));
                                if !self.uses.contains(&(i as u8)) {
                                    self.uses.push(i as u8);
                                }
                                if COLUMNS[i].is_float() {
                                    Ty::Float
                                } else {
                                    Ty::Int
                                }
                            }
                            Filter::Refused(why) => {
                                return Err(self.err(at, format!("'{lower}' is {why}")))
                            }
                        },
                        None => return Err(self.err(at, format!("unknown column '{name}'"))),
                    },
                }
            }
            _ => return Err(self.err(at, "expected a column name, a number or '('")),
        };
        self.bump()?;
        Ok(ty)
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

impl Accept {
    /// Parse and compile an expression.
    pub fn parse(src: &str) -> Result<Accept, AcceptError> {
        let mut p = Parser {
            lex: Lexer { src, pos: 0 },
            tok: Tok::End,
            at: 0,
            code: Vec::new(),
            strings: Vec::new(),
            uses: Vec::new(),
            depth: 0,
        };
        p.bump()?;
        if p.tok == Tok::End {
            return Err(p.err(0, "empty expression"));
        }
        let ty = p.or()?;
        if p.tok != Tok::End {
            return Err(p.err(
                p.at,
                "expected AND, OR, a comparison or the end of the expression",
            ));
        }
        if !matches!(ty, Ty::Bool | Ty::Null) {
            return Err(p.err(
                0,
                format!(
                    "the filter must be a condition (e.g. x > 3), found {}",
                    ty.name()
                ),
            ));
        }
        // The stack depth the code needs must fit the fixed evaluation stack.
        let mut sp = 0usize;
        for op in &p.code {
            match op {
                Op::Num(_) | Op::Null | Op::Col(_) | Op::Str(_) => sp += 1,
                Op::Arith { .. } | Op::Cmp(..) | Op::StrCmp(_) | Op::And | Op::Or => sp -= 1,
                _ => {}
            }
            if sp > MAX_DEPTH {
                return Err(p.err(0, "expression too large"));
            }
        }
        Ok(Accept {
            source: src.to_string(),
            code: p.code,
            strings: p.strings,
            uses: p.uses,
        })
    }

    /// The expression as given.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The postfix program (for evaluators that run it over whole columns, as `explore` does).
    #[cfg(feature = "cli")]
    pub(crate) fn code(&self) -> &[Op] {
        &self.code
    }

    /// The text of string literal `id` (`None` for [`ALGO`], the row's generator).
    #[cfg(feature = "cli")]
    pub(crate) fn string(&self, id: u16) -> Option<&str> {
        (id != ALGO).then(|| self.strings[id as usize].as_str())
    }

    /// Indices into [`COLUMNS`] of the numeric columns the expression reads.
    pub fn columns_used(&self) -> &[u8] {
        &self.uses
    }

    /// Does this candidate pass?
    #[inline]
    pub fn eval(&self, c: &Candidate<'_>) -> bool {
        self.eval_with(c.algo, |i| c.column(i))
    }

    /// Does a row pass, given its `algo` and a function returning column `COLUMNS[i]`?
    /// (A NULL result does not pass, as in a SQL `WHERE`.)
    #[inline]
    pub fn eval_with(&self, algo: &str, column: impl Fn(u8) -> f64) -> bool {
        let v = exec(&self.code, &self.strings, algo, column);
        !v.null && v.x == 1.0
    }
}

/// Run compiled code on one row; the value left on the stack.
#[inline(always)]
fn exec(code: &[Op], strings: &[String], algo: &str, column: impl Fn(u8) -> f64) -> V {
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
                    let s = |id: u16| {
                        if id == ALGO {
                            algo
                        } else {
                            strings[id as usize].as_str()
                        }
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grid::Size;
    use crate::metrics::{Metrics, Row};

    fn row(m: &Metrics) -> Row {
        Row {
            index: 7,
            metrics: *m,
            ..Default::default()
        }
    }

    fn cand(r: &Row) -> Candidate<'_> {
        Candidate {
            algo: "wilson",
            size: Size::planar(10, 10),
            seed: 1,
            row: r,
        }
    }

    #[test]
    fn precedence_and_operators() {
        let m = Metrics {
            dead_end_share: 0.1,
            solution_length: 300,
            diameter: 320,
            ..Default::default()
        };
        let t = |e: &str| Accept::parse(e).unwrap().eval(&cand(&row(&m)));
        assert!(t("dead_end_share <= 0.12 && solution_length >= 300"));
        assert!(!t("dead_end_share < 0.1"));
        assert!(t("dead_end_share < 0.1 || diameter == 320"));
        assert!(t("!(dead_end_share < 0.1) && index != 8"));
        assert!(!t("!dead_end_share <= 0.12"));
        assert!(t("1 < 2 || 3 > 4 && 5 > 6"), "&& binds tighter than ||");
        assert!(!t("(1 < 2 || 3 > 4) && 5 > 6"));
        assert!(t("solution_length > 2.5e2 && width == 10 && height >= -1"));
        assert!(t("diameter >= solution_length"));
        // SQL spellings.
        assert!(t("dead_end_share <= 0.12 AND solution_length = 300"));
        assert!(t("not dead_end_share < 0.1 and Index <> 8"));
        assert!(t("solution_length BETWEEN 300 AND 301"));
        assert!(!t("solution_length NOT BETWEEN 300 AND 301"));
        assert!(t("diameter IN (1, 320, 5)"));
        assert!(t("diameter NOT IN (1, 2)"));
        assert!(t("solution_length / diameter > 0.9"));
        assert!(t("-(diameter - 2 * solution_length) = 280"));
        assert!(t(
            "7 // 2 = 3 AND -7 // 2 = -3 AND 7.0 // 2 = 3.5 AND 7 % 3 = 1"
        ));
        assert!(t(
            "algo = 'wilson' AND algo IN ('kruskal', 'wilson') AND algo <> 'prim'"
        ));
        assert!(t(
            "\"DEAD_ENDS\" = 0 AND CAST(2.5 AS BIGINT) = 3 AND 2.5::BIGINT = 3"
        ));
    }

    #[test]
    fn sql_null_and_duckdb_division() {
        let m = Metrics::default();
        let t = |e: &str| Accept::parse(e).unwrap().eval(&cand(&row(&m)));
        // x/0 is infinity, 0/0 is NaN, NaN is above every number and equal to itself.
        assert!(t("1 / dead_ends > 1e308"));
        assert!(t("-1 / dead_ends < -1e308"));
        assert!(t("dead_ends / dead_ends > 1 / dead_ends"));
        assert!(t("dead_ends / dead_ends = 0 / 0"));
        // Integer // and % by zero give NULL; NOT NULL is NULL; NULL does not pass.
        assert!(!t("1 // dead_ends = 0"));
        assert!(!t("NOT (1 // dead_ends = 0)"));
        assert!(t("1 // dead_ends IS NULL"));
        assert!(t("1 % dead_ends IS NULL AND 1 IS NOT NULL"));
        assert!(!t("NULL > 1 OR 1 > 2"));
        // A bare NULL is an unknown truth value.
        assert!(!t("NOT NULL") && !t("NULL") && !t("NULL AND TRUE"));
        assert!(t("NULL OR TRUE") && t("(NOT NULL) IS NULL"));
        assert!(t("NULL > 1 OR 1 < 2"));
        assert!(!t("NULL > 1 AND 1 < 2"));
        assert!(t("NOT (NULL > 1 AND 1 > 2)"));
        assert!(!t("dead_ends IN (1, NULL)"));
        assert!(!t("dead_ends NOT IN (1, NULL)"));
        // Integer results have an unsigned zero; doubles keep the sign.
        assert!(t("1 / (dead_ends * -1) > 0"));
        assert!(t("1 / (dead_end_share * -1) < 0"));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = Accept::parse("dead_end_share <= 0.12 &&").unwrap_err();
        assert_eq!(e.pos, 25);
        assert!(e
            .to_string()
            .contains("valid columns: algo, width, height, depth, index, dead_ends"));
        let e = Accept::parse("dead_ends < 3 && solutoin_length > 4").unwrap_err();
        assert_eq!(e.pos, 17);
        assert!(e.message.contains("solutoin_length"));
        assert!(Accept::parse("(diameter > 3")
            .unwrap_err()
            .message
            .contains("')'"));
        assert!(Accept::parse("diameter 3").is_err());
        assert!(Accept::parse("gen_ns < 5")
            .unwrap_err()
            .message
            .contains("timing"));
        assert!(Accept::parse("diameter > 3 $").is_err());
        assert!(Accept::parse("").is_err());
        assert!(Accept::parse(&"!".repeat(100)).is_err());
        assert!(Accept::parse(&format!("{}1 > 0", "-".repeat(100))).is_err());
        let e = Accept::parse("dead_ends < 1e999").unwrap_err();
        assert!(e.message.contains("'1e999'"), "{}", e.message);
        assert_eq!(e.pos, 12);
        let e = Accept::parse("déad_ends > 3").unwrap_err();
        assert!(e.message.contains("'déad_ends'"), "{}", e.message);
        assert!(e.to_string().contains("position 1"));
        let e = Accept::parse("index > 1 AND déad_ends > 3").unwrap_err();
        assert!(e.to_string().contains("position 15"), "{e}");
        for bad in [
            "algo = 3",
            "dead_ends + algo > 1",
            "dead_ends",
            "dead_ends > 1 + (2 > 1)",
            "1 < 2 < 3",
            "dead_ends BETWEEN 1 3",
            "dead_ends IN 3",
            "'x",
            "5abc > 1",
            "1.2.3 > 1",
            "dead_ends::TEXT > 1",
            "maze_hash > 1",
            "99999999999999999999 > index",
        ] {
            assert!(Accept::parse(bad).is_err(), "{bad}");
        }
    }
}
