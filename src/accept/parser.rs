//! The accept language's grammar (in the [module docs](super)): a recursive-descent parser
//! from tokens to a small syntax tree. Only the syntax is checked here (and the nesting
//! depth); names, types and constant casts are checked when the tree is compiled
//! ([`super::compile`]). Chains of one operator (`a + b - c`, `x OR y OR z`, `x::A::B`) are one
//! node with a list, so the tree's depth is bounded by the nesting the parser allows.

use super::lexer::{Lexer, Tok};
use super::program::{Arith, Cmp};
use super::{AcceptError, MAX_DEPTH};

/// A sub-expression and the byte offset of its first token (a parenthesised one starts at its
/// `(`): where an error about it as an operand points.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Expr {
    pub(super) start: usize,
    pub(super) node: Node,
}

/// The syntax tree. Offsets kept in a node are where an error about that node points.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Node {
    /// A number: with `Some(scale)` an exact integer or DECIMAL scaled by 10^scale.
    Num(f64, Option<u8>),
    /// A string literal at `at`.
    Str { text: String, at: usize },
    /// `NULL`.
    Null,
    /// `TRUE` or `FALSE`.
    Bool(bool),
    /// A column name as written (double-quoted or not), at `at`.
    Column { name: String, at: usize },
    /// `operand::T1::T2…` or `CAST(operand AS T)`: each type name with its offset.
    Cast {
        operand: Box<Expr>,
        types: Vec<(String, usize)>,
    },
    /// A sign (`minus` false for `+`) at `at`.
    Sign {
        minus: bool,
        at: usize,
        operand: Box<Expr>,
    },
    /// `first op₁ e₁ op₂ e₂ …`, left to right, each operator with its offset.
    Arith {
        first: Box<Expr>,
        rest: Vec<(Arith, usize, Expr)>,
    },
    /// `left cmp right`, the operator at `at`.
    Compare {
        cmp: Cmp,
        at: usize,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `x [NOT] BETWEEN low AND high`, `BETWEEN` at `at`.
    Between {
        negated: bool,
        at: usize,
        x: Box<Expr>,
        low: Box<Expr>,
        high: Box<Expr>,
    },
    /// `x [NOT] IN (list)`, `IN` at `at`.
    In {
        negated: bool,
        at: usize,
        x: Box<Expr>,
        list: Vec<Expr>,
    },
    /// `x IS [NOT] NULL`.
    IsNull { negated: bool, x: Box<Expr> },
    /// `NOT operand`.
    Not(Box<Expr>),
    /// `e₁ AND e₂ AND …` (`and`) or `e₁ OR e₂ OR …`: two operands or more.
    Logic { and: bool, operands: Vec<Expr> },
}

/// The parser: one token of lookahead.
pub(super) struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Tok,
    at: usize,
    depth: usize,
}

/// Parse a whole expression.
pub(super) fn parse(src: &str) -> Result<Expr, AcceptError> {
    let mut p = Parser {
        lex: Lexer::new(src),
        tok: Tok::End,
        at: 0,
        depth: 0,
    };
    p.bump()?;
    if p.tok == Tok::End {
        return Err(p.err(0, "empty expression"));
    }
    let e = p.or()?;
    if p.tok != Tok::End {
        return Err(p.err(
            p.at,
            "expected AND, OR, a comparison or the end of the expression",
        ));
    }
    Ok(e)
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

    fn or(&mut self) -> Result<Expr, AcceptError> {
        self.enter()?;
        let start = self.at;
        let mut operands = vec![self.and()?];
        while self.is_kw("or") || self.is_sym("||") {
            self.bump()?;
            operands.push(self.and()?);
        }
        self.depth -= 1;
        Ok(logic(start, false, operands))
    }

    fn and(&mut self) -> Result<Expr, AcceptError> {
        let start = self.at;
        let mut operands = vec![self.not()?];
        while self.is_kw("and") || self.is_sym("&&") {
            self.bump()?;
            operands.push(self.not()?);
        }
        Ok(logic(start, true, operands))
    }

    fn not(&mut self) -> Result<Expr, AcceptError> {
        if self.is_kw("not") || self.is_sym("!") {
            let start = self.at;
            self.enter()?;
            self.bump()?;
            let operand = self.not()?;
            self.depth -= 1;
            return Ok(Expr {
                start,
                node: Node::Not(Box::new(operand)),
            });
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

    fn predicate(&mut self) -> Result<Expr, AcceptError> {
        let start = self.at;
        let left = self.sum()?;
        if let Some(cmp) = self.cmp_op() {
            let at = self.at;
            self.bump()?;
            let right = self.sum()?;
            if self.cmp_op().is_some() {
                return Err(self.err(self.at, "comparisons do not chain; write 'a < b AND b < c'"));
            }
            return Ok(Expr {
                start,
                node: Node::Compare {
                    cmp,
                    at,
                    left: Box::new(left),
                    right: Box::new(right),
                },
            });
        }
        let negated = self.is_kw("not");
        if negated {
            self.bump()?;
            if !self.is_kw("between") && !self.is_kw("in") {
                return Err(self.err(self.at, "expected BETWEEN or IN after NOT"));
            }
        }
        let x = Box::new(left);
        let node = if self.is_kw("between") {
            let at = self.at;
            self.bump()?;
            let low = Box::new(self.sum()?);
            if !self.is_kw("and") {
                return Err(self.err(self.at, "expected AND in 'x BETWEEN low AND high'"));
            }
            self.bump()?;
            let high = Box::new(self.sum()?);
            Node::Between {
                negated,
                at,
                x,
                low,
                high,
            }
        } else if self.is_kw("in") {
            let at = self.at;
            self.bump()?;
            Node::In {
                negated,
                at,
                x,
                list: self.in_list()?,
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
            Node::IsNull { negated, x }
        } else {
            return Ok(*x);
        };
        Ok(Expr { start, node })
    }

    /// `( sum , sum … )` after `IN`.
    fn in_list(&mut self) -> Result<Vec<Expr>, AcceptError> {
        if !self.is_sym("(") {
            return Err(self.err(self.at, "expected '(' after IN"));
        }
        self.bump()?;
        let mut list = Vec::new();
        loop {
            list.push(self.sum()?);
            if self.is_sym(",") {
                self.bump()?;
            } else if self.is_sym(")") {
                self.bump()?;
                return Ok(list);
            } else {
                return Err(self.err(self.at, "expected ',' or ')' in the IN list"));
            }
        }
    }

    fn sum(&mut self) -> Result<Expr, AcceptError> {
        self.chain(Self::product, |t| match t {
            Tok::Sym("+") => Some(Arith::Add),
            Tok::Sym("-") => Some(Arith::Sub),
            _ => None,
        })
    }

    fn product(&mut self) -> Result<Expr, AcceptError> {
        self.chain(Self::unary, |t| match t {
            Tok::Sym("*") => Some(Arith::Mul),
            Tok::Sym("/") => Some(Arith::Div),
            Tok::Sym("//") => Some(Arith::IntDiv),
            Tok::Sym("%") => Some(Arith::Mod),
            _ => None,
        })
    }

    /// `operand ( op operand )*` for the operators `op_of` recognises.
    fn chain(
        &mut self,
        operand: fn(&mut Self) -> Result<Expr, AcceptError>,
        op_of: fn(&Tok) -> Option<Arith>,
    ) -> Result<Expr, AcceptError> {
        let start = self.at;
        let first = operand(self)?;
        let mut rest = Vec::new();
        while let Some(op) = op_of(&self.tok) {
            let at = self.at;
            self.bump()?;
            rest.push((op, at, operand(self)?));
        }
        if rest.is_empty() {
            return Ok(first);
        }
        Ok(Expr {
            start,
            node: Node::Arith {
                first: Box::new(first),
                rest,
            },
        })
    }

    fn unary(&mut self) -> Result<Expr, AcceptError> {
        if self.is_sym("-") || self.is_sym("+") {
            let minus = self.is_sym("-");
            let at = self.at;
            self.enter()?;
            self.bump()?;
            let operand = self.unary()?;
            self.depth -= 1;
            return Ok(Expr {
                start: at,
                node: Node::Sign {
                    minus,
                    at,
                    operand: Box::new(operand),
                },
            });
        }
        let start = self.at;
        let e = self.primary()?;
        let mut types = Vec::new();
        while self.is_sym("::") {
            self.bump()?;
            types.push(self.type_name()?);
        }
        Ok(cast(start, e, types))
    }

    /// The type name after `::` or `AS`, and its offset.
    fn type_name(&mut self) -> Result<(String, usize), AcceptError> {
        let Tok::Ident(name, false) = &self.tok else {
            return Err(self.err(self.at, "expected a type name (BIGINT, DOUBLE, …)"));
        };
        let t = (name.clone(), self.at);
        self.bump()?;
        Ok(t)
    }

    fn primary(&mut self) -> Result<Expr, AcceptError> {
        let at = self.at;
        let node = match self.tok.clone() {
            Tok::Num(v, scale) => Node::Num(v, scale),
            Tok::Str(text) => Node::Str { text, at },
            Tok::Sym("(") => {
                self.bump()?;
                let inner = self.or()?;
                if !self.is_sym(")") {
                    return Err(self.err(
                        self.at,
                        format!("expected ')' to close the '(' at position {}", at + 1),
                    ));
                }
                inner.node
            }
            Tok::Ident(name, quoted) => {
                let lower = name.to_lowercase();
                if !quoted && lower == "cast" {
                    return self.cast_call(at);
                }
                match (quoted, lower.as_str()) {
                    (false, "null") => Node::Null,
                    (false, "true") => Node::Bool(true),
                    (false, "false") => Node::Bool(false),
                    _ => Node::Column { name, at },
                }
            }
            _ => return Err(self.err(at, "expected a column name, a number or '('")),
        };
        self.bump()?;
        Ok(Expr { start: at, node })
    }

    /// `CAST ( or AS TYPE )`, `CAST` at `at`.
    fn cast_call(&mut self, at: usize) -> Result<Expr, AcceptError> {
        self.bump()?;
        if !self.is_sym("(") {
            return Err(self.err(self.at, "expected '(' after CAST"));
        }
        self.bump()?;
        let inner = self.or()?;
        if !self.is_kw("as") {
            return Err(self.err(self.at, "expected AS in CAST(x AS TYPE)"));
        }
        self.bump()?;
        let ty = self.type_name()?;
        if !self.is_sym(")") {
            return Err(self.err(self.at, "expected ')' to close CAST("));
        }
        self.bump()?;
        Ok(cast(at, inner, vec![ty]))
    }
}

/// `operands` joined by AND (`and`) or OR; one operand stands for itself.
fn logic(start: usize, and: bool, mut operands: Vec<Expr>) -> Expr {
    if operands.len() == 1 {
        return operands.pop().expect("one operand");
    }
    Expr {
        start,
        node: Node::Logic { and, operands },
    }
}

/// `operand` cast to each of `types` in turn (none: the operand itself).
fn cast(start: usize, operand: Expr, types: Vec<(String, usize)>) -> Expr {
    if types.is_empty() {
        return operand;
    }
    Expr {
        start,
        node: Node::Cast {
            operand: Box::new(operand),
            types,
        },
    }
}
