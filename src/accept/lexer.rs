//! The accept language's tokens: identifiers and keywords, numbers (exact integers and
//! DECIMALs, or doubles), quoted strings and symbols, each with its byte offset so that an
//! error points at it.

use super::types::MAX_SCALE;
use super::AcceptError;

/// Integers above this are not exact in a double.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    /// Identifier or keyword; `true` when double-quoted (never a keyword).
    Ident(String, bool),
    /// Number: with `Some(scale)` an exact integer or DECIMAL (scaled by 10^scale), with
    /// `None` a double (written with an exponent).
    Num(f64, Option<u8>),
    /// A single-quoted string literal, unquoted.
    Str(String),
    /// An operator or punctuation.
    Sym(&'static str),
    /// The end of the expression.
    End,
}

/// Splits an expression into tokens, one at a time.
pub(super) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

/// The symbols, longest first where one is a prefix of another (`%` is matched on its own).
const SYMBOLS: [&str; 20] = [
    "&&", "||", "<=", ">=", "==", "!=", "<>", "//", "::", "<", ">", "=", "!", "(", ")", ",", "+",
    "-", "*", "/",
];

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub(super) fn new(src: &'a str) -> Lexer<'a> {
        Lexer { src, pos: 0 }
    }

    /// An error at byte `pos` of the expression.
    pub(super) fn err(&self, pos: usize, message: impl Into<String>) -> AcceptError {
        AcceptError::at(self.src, pos, message)
    }

    /// The next token and its start offset.
    pub(super) fn next(&mut self) -> Result<(Tok, usize), AcceptError> {
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
            let Some((text, end)) = quoted(rest, c) else {
                return Err(self.err(start, format!("unterminated {c}quote{c}")));
            };
            if c == '"' {
                (Tok::Ident(text, true), end)
            } else {
                (Tok::Str(text), end)
            }
        } else if c.is_ascii_digit() || c == '.' {
            return self.number(rest, start);
        } else {
            return Err(self.err(start, format!("unexpected character '{c}'")));
        };
        self.pos = start + len;
        Ok((tok, start))
    }

    /// The number at the start of `rest` (at byte `start` of the expression).
    fn number(&mut self, rest: &str, start: usize) -> Result<(Tok, usize), AcceptError> {
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
        self.pos = start + end;
        let exp = text.contains(['e', 'E']);
        if int || exp {
            if int && v > MAX_EXACT {
                return Err(self.err(
                    start,
                    format!("the integer '{text}' is above 2^53 and not exact in a double"),
                ));
            }
            return Ok((Tok::Num(v, if int { Some(0) } else { None }), start));
        }
        // `0.12` is DECIMAL: kept exactly as 12 with scale 2.
        let (i, f) = text.split_once('.').unwrap_or((text, ""));
        let digits = format!("{i}{f}");
        let scaled: f64 = digits.parse().unwrap_or(0.0);
        if f.len() > MAX_SCALE as usize || scaled > MAX_EXACT {
            // Too long to hold exactly (e.g. a double's 17 digits pasted back): a double,
            // which is what DuckDB compares it as against a DOUBLE column.
            return Ok((Tok::Num(v, None), start));
        }
        Ok((Tok::Num(scaled, Some(f.len() as u8)), start))
    }
}

/// The text of the literal quoted by `q` at the start of `rest` (SQL quoting: a doubled quote
/// stands for one) and the length it spans, or `None` when the quote is not closed.
fn quoted(rest: &str, q: char) -> Option<(String, usize)> {
    let mut text = String::new();
    let mut it = rest.char_indices().skip(1).peekable();
    while let Some((i, ch)) = it.next() {
        if ch == q {
            if it.peek().map(|p| p.1) == Some(q) {
                it.next();
            } else {
                return Some((text, i + 1));
            }
        }
        text.push(ch);
    }
    None
}
