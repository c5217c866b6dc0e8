//! Accept filters: a boolean expression over a maze's metric columns, parsed once and evaluated
//! per candidate without allocation.
//!
//! Grammar (usual precedence: `!` binds tightest, then comparisons, then `&&`, then `||`):
//!
//! ```text
//! expr    := and ( "||" and )*
//! and     := unary ( "&&" unary )*
//! unary   := "!" unary | "(" expr ")" | compare
//! compare := operand ( "<" | "<=" | ">" | ">=" | "==" | "!=" ) operand
//! operand := COLUMN | NUMBER
//! ```
//!
//! Columns are the numeric Parquet columns that depend only on the maze (see [`COLUMNS`]);
//! `gen_ns` is excluded because a filter on timing would make the accepted set
//! non-reproducible, and the 64-bit hashes/seeds because they do not fit a float exactly.
//! Comparisons are done in `f64`, exactly as a user would write them in SQL.
//! The expression is compiled to postfix code and evaluated with a fixed-size stack, so a
//! candidate costs a few dozen nanoseconds and no allocation.

use std::fmt;

use crate::metrics::Metrics;

/// The columns an accept filter may use. `walk_steps` is a u64 but below `2·cells² ≤ 2^53`, so
/// it converts to `f64` exactly.
pub const COLUMNS: [&str; 20] = [
    "index",
    "width",
    "height",
    "dead_ends",
    "dead_end_share",
    "diameter",
    "diameter_start",
    "diameter_end",
    "solution_length",
    "junctions",
    "corridors",
    "straights",
    "solution_turns",
    "solution_decisions",
    "solution_branches",
    "walk_steps",
    "max_branch_cells",
    "max_branch_depth",
    "mean_dead_end_length",
    "tortuosity",
];

/// Deepest nesting allowed (bounds the evaluation stack).
const MAX_DEPTH: usize = 64;

/// What a filter sees of one candidate.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    /// Maze index.
    pub index: u64,
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
    /// The measurements.
    pub metrics: &'a Metrics,
}

impl Candidate<'_> {
    #[inline]
    fn column(&self, c: u8) -> f64 {
        let m = self.metrics;
        match c {
            0 => self.index as f64,
            1 => self.width as f64,
            2 => self.height as f64,
            3 => m.dead_ends as f64,
            4 => m.dead_end_share,
            5 => m.diameter as f64,
            6 => m.diameter_start as f64,
            7 => m.diameter_end as f64,
            8 => m.solution_length as f64,
            9 => m.junctions as f64,
            10 => m.corridors as f64,
            11 => m.straights as f64,
            12 => m.solution_turns as f64,
            13 => m.solution_decisions as f64,
            14 => m.solution_branches as f64,
            15 => m.walk_steps as f64,
            16 => m.max_branch_cells as f64,
            17 => m.max_branch_depth as f64,
            18 => m.mean_dead_end_length,
            _ => m.tortuosity,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Operand {
    Column(u8),
    Number(f64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Compare(Operand, Cmp, Operand),
    And,
    Or,
    Not,
}

/// A compiled accept filter.
#[derive(Clone, Debug, PartialEq)]
pub struct Accept {
    source: String,
    code: Vec<Op>,
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
        let col = self.expr[..self.pos.min(self.expr.len())].chars().count();
        write!(
            f,
            "{} at position {}\n  {}\n  {}^\nvalid columns: {}",
            self.message,
            col + 1,
            self.expr,
            " ".repeat(col),
            COLUMNS.join(", ")
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(f64),
    Cmp(Cmp),
    And,
    Or,
    Not,
    Open,
    Close,
    End,
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

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
        let b = self.src.as_bytes();
        while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        if start == b.len() {
            return Ok((Tok::End, start));
        }
        let two = |s: &Self, t: &str| s.src[s.pos..].starts_with(t);
        let (tok, len) = if two(self, "&&") {
            (Tok::And, 2)
        } else if two(self, "||") {
            (Tok::Or, 2)
        } else if two(self, "<=") {
            (Tok::Cmp(Cmp::Le), 2)
        } else if two(self, ">=") {
            (Tok::Cmp(Cmp::Ge), 2)
        } else if two(self, "==") {
            (Tok::Cmp(Cmp::Eq), 2)
        } else if two(self, "!=") {
            (Tok::Cmp(Cmp::Ne), 2)
        } else {
            match b[start] {
                b'<' => (Tok::Cmp(Cmp::Lt), 1),
                b'>' => (Tok::Cmp(Cmp::Gt), 1),
                b'!' => (Tok::Not, 1),
                b'(' => (Tok::Open, 1),
                b')' => (Tok::Close, 1),
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let end = self.src[start..]
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .map_or(b.len(), |e| start + e);
                    (Tok::Ident(self.src[start..end].to_string()), end - start)
                }
                c if c.is_ascii_digit() || c == b'.' || c == b'-' || c == b'+' => {
                    let mut end = start + 1;
                    while end < b.len()
                        && (b[end].is_ascii_digit()
                            || b[end] == b'.'
                            || b[end] == b'e'
                            || b[end] == b'E'
                            || ((b[end] == b'-' || b[end] == b'+')
                                && matches!(b[end - 1], b'e' | b'E')))
                    {
                        end += 1;
                    }
                    let text = &self.src[start..end];
                    let v: f64 = text
                        .parse()
                        .map_err(|_| self.err(start, format!("'{text}' is not a number")))?;
                    (Tok::Num(v), end - start)
                }
                _ => {
                    let c = self.src[start..].chars().next().unwrap_or(' ');
                    return Err(self.err(start, format!("unexpected character '{c}'")));
                }
            }
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
    depth: usize,
}

impl Parser<'_> {
    fn bump(&mut self) -> Result<(), AcceptError> {
        let (t, at) = self.lex.next()?;
        self.tok = t;
        self.at = at;
        Ok(())
    }

    fn expr(&mut self) -> Result<(), AcceptError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.lex.err(self.at, "expression nested too deeply"));
        }
        self.and()?;
        while self.tok == Tok::Or {
            self.bump()?;
            self.and()?;
            self.code.push(Op::Or);
        }
        self.depth -= 1;
        Ok(())
    }

    fn and(&mut self) -> Result<(), AcceptError> {
        self.unary()?;
        while self.tok == Tok::And {
            self.bump()?;
            self.unary()?;
            self.code.push(Op::And);
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<(), AcceptError> {
        match self.tok {
            Tok::Not => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(self.lex.err(self.at, "expression nested too deeply"));
                }
                self.bump()?;
                self.unary()?;
                self.code.push(Op::Not);
                self.depth -= 1;
                Ok(())
            }
            Tok::Open => {
                let open_at = self.at;
                self.bump()?;
                self.expr()?;
                if self.tok != Tok::Close {
                    return Err(self.lex.err(
                        self.at,
                        format!("expected ')' to close the '(' at position {}", open_at + 1),
                    ));
                }
                self.bump()
            }
            _ => self.compare(),
        }
    }

    fn operand(&mut self) -> Result<Operand, AcceptError> {
        let op = match &self.tok {
            Tok::Num(v) => Operand::Number(*v),
            Tok::Ident(name) => match COLUMNS.iter().position(|c| c == name) {
                Some(i) => Operand::Column(i as u8),
                None => {
                    let why = match name.as_str() {
                        "gen_ns" => "'gen_ns' is a timing and would make the accepted set \
                                     non-reproducible"
                            .to_string(),
                        _ => format!("unknown column '{name}'"),
                    };
                    return Err(self.lex.err(self.at, why));
                }
            },
            _ => return Err(self.lex.err(self.at, "expected a column name or a number")),
        };
        self.bump()?;
        Ok(op)
    }

    fn compare(&mut self) -> Result<(), AcceptError> {
        let left = self.operand()?;
        let Tok::Cmp(cmp) = self.tok else {
            return Err(self
                .lex
                .err(self.at, "expected a comparison (<, <=, >, >=, ==, !=)"));
        };
        self.bump()?;
        let right = self.operand()?;
        self.code.push(Op::Compare(left, cmp, right));
        Ok(())
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
            depth: 0,
        };
        p.bump()?;
        if p.tok == Tok::End {
            return Err(p.lex.err(0, "empty expression"));
        }
        p.expr()?;
        if p.tok != Tok::End {
            return Err(p
                .lex
                .err(p.at, "expected '&&', '||' or the end of the expression"));
        }
        Ok(Accept {
            source: src.to_string(),
            code: p.code,
        })
    }

    /// The expression as given.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Does this candidate pass?
    #[inline]
    pub fn eval(&self, c: &Candidate<'_>) -> bool {
        let mut stack = [false; MAX_DEPTH + 2];
        let mut sp = 0usize;
        let value = |o: Operand| match o {
            Operand::Column(i) => c.column(i),
            Operand::Number(v) => v,
        };
        for op in &self.code {
            match *op {
                Op::Compare(a, cmp, b) => {
                    let (a, b) = (value(a), value(b));
                    stack[sp] = match cmp {
                        Cmp::Lt => a < b,
                        Cmp::Le => a <= b,
                        Cmp::Gt => a > b,
                        Cmp::Ge => a >= b,
                        Cmp::Eq => a == b,
                        Cmp::Ne => a != b,
                    };
                    sp += 1;
                }
                Op::Not => stack[sp - 1] = !stack[sp - 1],
                Op::And => {
                    sp -= 1;
                    stack[sp - 1] &= stack[sp];
                }
                Op::Or => {
                    sp -= 1;
                    stack[sp - 1] |= stack[sp];
                }
            }
        }
        stack[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(m: &Metrics) -> Candidate<'_> {
        Candidate {
            index: 7,
            width: 10,
            height: 10,
            metrics: m,
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
        let t = |e: &str| Accept::parse(e).unwrap().eval(&cand(&m));
        assert!(t("dead_end_share <= 0.12 && solution_length >= 300"));
        assert!(!t("dead_end_share < 0.1"));
        assert!(t("dead_end_share < 0.1 || diameter == 320"));
        assert!(t("!(dead_end_share < 0.1) && index != 8"));
        assert!(!t("!dead_end_share <= 0.12"));
        assert!(t("1 < 2 || 3 > 4 && 5 > 6"), "&& binds tighter than ||");
        assert!(!t("(1 < 2 || 3 > 4) && 5 > 6"));
        assert!(t("solution_length > 2.5e2 && width == 10 && height >= -1"));
        assert!(t("diameter >= solution_length"));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = Accept::parse("dead_end_share <= 0.12 &&").unwrap_err();
        assert_eq!(e.pos, 25);
        assert!(e.to_string().contains("valid columns: index"));
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
    }
}
