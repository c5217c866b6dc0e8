//! From the syntax tree to the postfix program [`super::eval`] runs: each node is type-checked
//! by the rules of [`super::types`] as it is compiled, left to right, so an error is the first
//! one in reading order, at the node's position. Also refused here: a cast of a constant out of
//! its integer type's range (the constant is evaluated), more string literals than ids, and a
//! program deeper than the evaluation stack.

use super::eval::exec;
use super::parser::{Expr, Node};
use super::program::{Cmp, Op};
use super::types::{self, CastError, CastTo, ColumnRef, Comparison, Ty};
use super::{AcceptError, GRID, MAX_DEPTH};

/// A compiled expression: the program, its string literals and the numeric columns it reads.
pub(super) struct Program {
    pub(super) code: Vec<Op>,
    pub(super) strings: Vec<String>,
    pub(super) uses: Vec<u8>,
}

/// Compile the tree of `src`; the filter must be a condition and fit the evaluation stack.
pub(super) fn compile(src: &str, e: &Expr) -> Result<Program, AcceptError> {
    let mut c = Compiler {
        src,
        code: Vec::new(),
        strings: Vec::new(),
        uses: Vec::new(),
    };
    let ty = c.expr(e)?;
    if !matches!(ty, Ty::Bool | Ty::Null) {
        return Err(c.err(
            0,
            format!(
                "the filter must be a condition (e.g. x > 3), found {}",
                ty.name()
            ),
        ));
    }
    check_stack(&c.code).map_err(|m| c.err(0, m))?;
    Ok(Program {
        code: c.code,
        strings: c.strings,
        uses: c.uses,
    })
}

/// The stack depth the code needs must fit the fixed evaluation stack.
fn check_stack(code: &[Op]) -> Result<(), &'static str> {
    let mut sp = 0usize;
    for op in code {
        match op {
            Op::Num(_) | Op::Null | Op::Col(_) | Op::Str(_) => sp += 1,
            Op::Arith { .. } | Op::Cmp(..) | Op::StrCmp(_) | Op::And | Op::Or => sp -= 1,
            _ => {}
        }
        if sp > MAX_DEPTH {
            return Err("expression too large");
        }
    }
    Ok(())
}

/// The program being emitted.
struct Compiler<'a> {
    src: &'a str,
    code: Vec<Op>,
    strings: Vec<String>,
    uses: Vec<u8>,
}

impl Compiler<'_> {
    fn err(&self, pos: usize, message: impl Into<String>) -> AcceptError {
        AcceptError::at(self.src, pos, message)
    }

    /// Emit `e`'s code; returns its type.
    fn expr(&mut self, e: &Expr) -> Result<Ty, AcceptError> {
        match &e.node {
            Node::Num(v, scale) => {
                self.code.push(Op::Num(*v));
                Ok(Ty::of_number(*scale))
            }
            Node::Str { text, at } => self.string(text, *at),
            Node::Null => {
                self.code.push(Op::Null);
                Ok(Ty::Null)
            }
            Node::Bool(b) => {
                self.code.push(Op::Num(if *b { 1.0 } else { 0.0 }));
                Ok(Ty::Bool)
            }
            Node::Column { name, at } => self.column(name, *at),
            Node::Cast { operand, types } => self.cast(operand, types),
            Node::Sign { minus, at, operand } => {
                let ty = self.expr(operand)?;
                types::negation(ty).map_err(|m| self.err(*at, m))?;
                if *minus {
                    self.code.push(Op::Neg {
                        int: ty != Ty::Float,
                    });
                }
                Ok(ty)
            }
            Node::Arith { first, rest } => {
                let mut ty = self.expr(first)?;
                for (op, at, operand) in rest {
                    let r = self.expr(operand)?;
                    let (l, rc, result) =
                        types::arithmetic(ty, r, *op).map_err(|m| self.err(*at, m))?;
                    self.code.push(Op::Arith {
                        op: *op,
                        int: result != Ty::Float,
                        l,
                        r: rc,
                    });
                    ty = result;
                }
                Ok(ty)
            }
            Node::Compare {
                cmp,
                at,
                left,
                right,
            } => {
                let a = self.expr(left)?;
                let b = self.expr(right)?;
                self.compare(*at, a, b, *cmp)?;
                Ok(Ty::Bool)
            }
            Node::Between {
                negated,
                at,
                x,
                low,
                high,
            } => {
                // x BETWEEN a AND b  ≡  x >= a AND x <= b (x's code is emitted twice).
                let start = self.code.len();
                let t = self.expr(x)?;
                let x_code = start..self.code.len();
                let lo = self.expr(low)?;
                self.compare(*at, t, lo, Cmp::Ge)?;
                self.code.extend_from_within(x_code);
                let hi = self.expr(high)?;
                self.compare(*at, t, hi, Cmp::Le)?;
                self.code.push(Op::And);
                self.negate_if(*negated);
                Ok(Ty::Bool)
            }
            Node::In {
                negated,
                at,
                x,
                list,
            } => {
                // x IN (a, b, …)  ≡  x = a OR x = b OR …
                let start = self.code.len();
                let t = self.expr(x)?;
                let x_code = start..self.code.len();
                for (k, item) in list.iter().enumerate() {
                    if k > 0 {
                        self.code.extend_from_within(x_code.clone());
                    }
                    let v = self.expr(item)?;
                    self.compare(*at, t, v, Cmp::Eq)?;
                    if k > 0 {
                        self.code.push(Op::Or);
                    }
                }
                self.negate_if(*negated);
                Ok(Ty::Bool)
            }
            Node::IsNull { negated, x } => {
                self.expr(x)?;
                self.code.push(Op::IsNull { negated: *negated });
                Ok(Ty::Bool)
            }
            Node::Not(operand) => {
                let ty = self.expr(operand)?;
                types::expect(ty, Ty::Bool, "NOT").map_err(|m| self.err(operand.start, m))?;
                self.code.push(Op::Not);
                Ok(Ty::Bool)
            }
            Node::Logic { and, operands } => {
                let (what, op) = if *and {
                    ("AND", Op::And)
                } else {
                    ("OR", Op::Or)
                };
                for (k, operand) in operands.iter().enumerate() {
                    let ty = self.expr(operand)?;
                    types::expect(ty, Ty::Bool, what).map_err(|m| self.err(operand.start, m))?;
                    if k > 0 {
                        self.code.push(op);
                    }
                }
                Ok(Ty::Bool)
            }
        }
    }

    fn negate_if(&mut self, negated: bool) {
        if negated {
            self.code.push(Op::Not);
        }
    }

    /// A string literal: its id, shared by equal literals.
    fn string(&mut self, text: &str, at: usize) -> Result<Ty, AcceptError> {
        let id = match self.strings.iter().position(|t| t == text) {
            Some(i) => i,
            None => {
                self.strings.push(text.to_string());
                self.strings.len() - 1
            }
        };
        if id >= GRID as usize {
            return Err(self.err(at, "too many string literals"));
        }
        self.code.push(Op::Str(id as u16));
        Ok(Ty::Str)
    }

    fn column(&mut self, name: &str, at: usize) -> Result<Ty, AcceptError> {
        let lower = name.to_lowercase();
        match types::column(&lower, name).map_err(|m| self.err(at, m))? {
            ColumnRef::Text(id) => {
                self.code.push(Op::Str(id));
                Ok(Ty::Str)
            }
            ColumnRef::Number(i, ty) => {
                self.code.push(Op::Col(i));
                if !self.uses.contains(&i) {
                    self.uses.push(i);
                }
                Ok(ty)
            }
        }
    }

    /// Emit a comparison of two operands of types `a` and `b` (already on the stack).
    fn compare(&mut self, at: usize, a: Ty, b: Ty, cmp: Cmp) -> Result<(), AcceptError> {
        match types::comparison(a, b).map_err(|m| self.err(at, m))? {
            Comparison::Strings => self.code.push(Op::StrCmp(cmp)),
            Comparison::Numbers(l, r) => self.code.push(Op::Cmp(cmp, l, r)),
        }
        Ok(())
    }

    /// `operand` cast to each of `types` in turn; errors about the operand point at its start.
    fn cast(&mut self, operand: &Expr, casts: &[(String, usize)]) -> Result<Ty, AcceptError> {
        let start = self.code.len();
        let mut ty = self.expr(operand)?;
        for (name, name_at) in casts {
            let to = types::cast(ty, name).map_err(|e| match e {
                CastError::Operand(m) => self.err(operand.start, m),
                CastError::Type(m) => self.err(*name_at, m),
            })?;
            ty = match to {
                CastTo::Integer(ty_name, max) => {
                    self.check_constant_cast(operand.start, start, ty, ty_name, max)?;
                    match ty {
                        Ty::Float => self.code.push(Op::RoundEven),
                        Ty::Dec(s) => self.code.push(Op::RoundDec(types::pow10(s))),
                        _ => {}
                    }
                    Ty::Int
                }
                CastTo::Double => {
                    if let Ty::Dec(s) = ty {
                        self.code.push(Op::ToDouble(types::pow10(s)));
                    }
                    Ty::Float
                }
            };
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
        let v = exec(operand, &self.strings, ["", ""], |_| 0.0);
        if v.null {
            return Ok(());
        }
        let x = match from {
            Ty::Dec(s) => v.x / types::pow10(s),
            _ => v.x,
        };
        types::constant_in_range(x, ty_name, max).map_err(|m| self.err(at, m))
    }
}
