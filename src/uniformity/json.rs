//! A minimal JSON value with a writer and a parser, enough for the uniformity report and for the
//! tests that compare it with the reference files in `data/uniformity/`. Exact numbers (big
//! integers, rationals) are written as strings so no precision is lost; plain counts as
//! integers; floats with Rust's shortest round-trip formatting.

use std::fmt::Write as _;

/// A JSON value. Objects keep their key order.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// An integer that fits in `i128`.
    Int(i128),
    /// A floating-point number (non-finite values are written as `null`).
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Value>),
    /// An object, in insertion order.
    Obj(Vec<(String, Value)>),
}

/// The input was not valid JSON (position in bytes).
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
#[error("invalid JSON at byte {0}")]
pub struct ParseError(pub usize);

impl Value {
    /// An object from `(key, value)` pairs.
    pub fn obj<K: Into<String>>(pairs: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Obj(pairs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// A string value.
    pub fn str(s: impl Into<String>) -> Value {
        Value::Str(s.into())
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Obj(v) => v.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string inside a `Str`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer inside an `Int`.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The elements of an `Arr`.
    pub fn as_arr(&self) -> Option<&[Value]> {
        match self {
            Value::Arr(a) => Some(a),
            _ => None,
        }
    }

    /// Pretty-printed JSON (two-space indent; arrays of scalars on one line).
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, 0);
        s.push('\n');
        s
    }

    fn is_scalar(&self) -> bool {
        !matches!(self, Value::Arr(_) | Value::Obj(_))
    }

    fn write(&self, out: &mut String, indent: usize) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Value::Float(f) if f.is_finite() => {
                let _ = write!(out, "{f:?}");
            }
            Value::Float(_) => out.push_str("null"),
            Value::Str(s) => write_str(out, s),
            Value::Arr(a) if a.is_empty() => out.push_str("[]"),
            Value::Arr(a) if a.iter().all(Value::is_scalar) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write(out, indent);
                }
                out.push(']');
            }
            Value::Arr(a) => {
                out.push_str("[\n");
                for (i, v) in a.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            Value::Obj(o) if o.is_empty() => out.push_str("{}"),
            Value::Obj(o) => {
                out.push_str("{\n");
                for (i, (k, v)) in o.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    write_str(out, k);
                    out.push_str(": ");
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < o.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }

    /// Parse a JSON document.
    pub fn parse(s: &str) -> Result<Value, ParseError> {
        let b = s.as_bytes();
        let mut p = 0;
        let v = parse_value(b, &mut p)?;
        skip_ws(b, &mut p);
        if p != b.len() {
            return Err(ParseError(p));
        }
        Ok(v)
    }
}

/// Append `s` as a JSON string literal.
pub(crate) fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn skip_ws(b: &[u8], p: &mut usize) {
    while *p < b.len() && b[*p].is_ascii_whitespace() {
        *p += 1;
    }
}

fn parse_value(b: &[u8], p: &mut usize) -> Result<Value, ParseError> {
    skip_ws(b, p);
    let err = ParseError(*p);
    match b.get(*p) {
        Some(b'{') => {
            *p += 1;
            let mut o = Vec::new();
            skip_ws(b, p);
            if b.get(*p) == Some(&b'}') {
                *p += 1;
                return Ok(Value::Obj(o));
            }
            loop {
                skip_ws(b, p);
                let k = match parse_value(b, p)? {
                    Value::Str(s) => s,
                    _ => return Err(ParseError(*p)),
                };
                skip_ws(b, p);
                if b.get(*p) != Some(&b':') {
                    return Err(ParseError(*p));
                }
                *p += 1;
                o.push((k, parse_value(b, p)?));
                skip_ws(b, p);
                match b.get(*p) {
                    Some(b',') => *p += 1,
                    Some(b'}') => {
                        *p += 1;
                        return Ok(Value::Obj(o));
                    }
                    _ => return Err(ParseError(*p)),
                }
            }
        }
        Some(b'[') => {
            *p += 1;
            let mut a = Vec::new();
            skip_ws(b, p);
            if b.get(*p) == Some(&b']') {
                *p += 1;
                return Ok(Value::Arr(a));
            }
            loop {
                a.push(parse_value(b, p)?);
                skip_ws(b, p);
                match b.get(*p) {
                    Some(b',') => *p += 1,
                    Some(b']') => {
                        *p += 1;
                        return Ok(Value::Arr(a));
                    }
                    _ => return Err(ParseError(*p)),
                }
            }
        }
        Some(b'"') => {
            *p += 1;
            let mut s = String::new();
            loop {
                let c = *b.get(*p).ok_or(ParseError(*p))?;
                *p += 1;
                match c {
                    b'"' => return Ok(Value::Str(s)),
                    b'\\' => {
                        let e = *b.get(*p).ok_or(ParseError(*p))?;
                        *p += 1;
                        match e {
                            b'n' => s.push('\n'),
                            b't' => s.push('\t'),
                            b'r' => s.push('\r'),
                            b'b' => s.push('\u{8}'),
                            b'f' => s.push('\u{c}'),
                            b'u' => {
                                let h = b.get(*p..*p + 4).ok_or(ParseError(*p))?;
                                let h = std::str::from_utf8(h).map_err(|_| ParseError(*p))?;
                                let c = u32::from_str_radix(h, 16).map_err(|_| ParseError(*p))?;
                                s.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                                *p += 4;
                            }
                            c => s.push(c as char),
                        }
                    }
                    _ => {
                        // Re-decode multi-byte UTF-8 sequences from the source.
                        let start = *p - 1;
                        let mut end = *p;
                        while end < b.len() && (b[end] & 0xc0) == 0x80 {
                            end += 1;
                        }
                        s.push_str(std::str::from_utf8(&b[start..end]).map_err(|_| err.clone())?);
                        *p = end;
                    }
                }
            }
        }
        Some(b't') if b[*p..].starts_with(b"true") => {
            *p += 4;
            Ok(Value::Bool(true))
        }
        Some(b'f') if b[*p..].starts_with(b"false") => {
            *p += 5;
            Ok(Value::Bool(false))
        }
        Some(b'n') if b[*p..].starts_with(b"null") => {
            *p += 4;
            Ok(Value::Null)
        }
        Some(c) if c.is_ascii_digit() || *c == b'-' => {
            let start = *p;
            while *p < b.len() && matches!(b[*p], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                *p += 1;
            }
            let t = std::str::from_utf8(&b[start..*p]).map_err(|_| err.clone())?;
            if let Ok(i) = t.parse::<i128>() {
                Ok(Value::Int(i))
            } else {
                t.parse::<f64>().map(Value::Float).map_err(|_| err)
            }
        }
        _ => Err(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let v = Value::obj([
            ("a", Value::Int(-3)),
            (
                "b",
                Value::Arr(vec![Value::Float(0.5), Value::Null, Value::Bool(true)]),
            ),
            ("c", Value::str("x\"y\n€")),
            (
                "d",
                Value::Arr(vec![Value::obj([("e", Value::Arr(vec![]))])]),
            ),
        ]);
        let s = v.pretty();
        assert_eq!(Value::parse(&s), Ok(v));
        assert!(Value::parse("[1,").is_err());
    }
}
