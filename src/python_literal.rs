//! Python literals: how the Python module records a call (`batchgen.command_line`,
//! `batchgen.generate('wilson', '32x32', 1000, 42, braid=0.5)`) so that `eval` of the text
//! reruns it. Rust's `{:?}` is not Python: it writes `"\u{e9}"` for `é`, has no `True`, and
//! `inf`/`NaN` are not Python expressions. [`Literal`] writes each value as Python's `repr`
//! does.

use std::fmt::{self, Display, Write};

/// A Python value as written in source.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// `None`.
    None,
    /// `True` or `False`.
    Bool(bool),
    /// A whole number.
    Int(i128),
    /// A float: its shortest round-trip digits as `repr` lays them out; `float('inf')`,
    /// `-float('inf')` and `float('nan')` where `repr` writes a name that is not a literal.
    Float(f64),
    /// A string, quoted and escaped as by [`str_repr`].
    Str(String),
    /// A tuple (`(1,)` for one item).
    Tuple(Vec<Literal>),
    /// A list.
    List(Vec<Literal>),
}

impl Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::None => f.write_str("None"),
            Literal::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Float(x) => f.write_str(&float_repr(*x)),
            Literal::Str(s) => f.write_str(&str_repr(s)),
            Literal::Tuple(items) => {
                f.write_char('(')?;
                items_joined(f, items)?;
                f.write_str(if items.len() == 1 { ",)" } else { ")" })
            }
            Literal::List(items) => {
                f.write_char('[')?;
                items_joined(f, items)?;
                f.write_char(']')
            }
        }
    }
}

/// `items` separated by `, `.
fn items_joined(f: &mut fmt::Formatter<'_>, items: &[Literal]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// `s` as Python's `repr(s)`: in single quotes, or in double quotes when it holds a `'` and
/// no `"`; `\\`, the quote, `\t`, `\n` and `\r` escaped with a backslash; other control
/// characters and the code points Python does not print (separators other than the space,
/// format characters, private use, non-characters) as `\xNN`, `\uNNNN` or `\UNNNNNNNN`; every
/// other character as itself. (Python also escapes code points its Unicode database does not
/// assign; those are written as themselves here, and the literal evaluates to the same
/// string.)
pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if printable(c) => out.push(c),
            c => {
                let n = u32::from(c);
                // Writing to a String cannot fail.
                let _ = match n {
                    0..=0xff => write!(out, "\\x{n:02x}"),
                    0x100..=0xffff => write!(out, "\\u{n:04x}"),
                    _ => write!(out, "\\U{n:08x}"),
                };
            }
        }
    }
    out.push(quote);
    out
}

/// The code points from U+0080 up that Python's `str.isprintable` refuses and that are
/// assigned (Unicode 14, Python 3.11): the C1 controls and the no-break space, the soft
/// hyphen, the other separators (Zs, Zl, Zp), the format characters (Cf) and private use
/// (Co), as inclusive ranges in order. Listed by
/// `python3 -c 'import unicodedata as u; print([c for c in range(128, 0x110000) if not
/// chr(c).isprintable() and u.category(chr(c)) not in ("Cn", "Cs")])'`.
const UNPRINTABLE: [(u32, u32); 27] = [
    (0x80, 0xa0),
    (0xad, 0xad),
    (0x600, 0x605),
    (0x61c, 0x61c),
    (0x6dd, 0x6dd),
    (0x70f, 0x70f),
    (0x890, 0x891),
    (0x8e2, 0x8e2),
    (0x1680, 0x1680),
    (0x180e, 0x180e),
    (0x2000, 0x200f),
    (0x2028, 0x202f),
    (0x205f, 0x2064),
    (0x2066, 0x206f),
    (0x3000, 0x3000),
    (0xe000, 0xf8ff),
    (0xfeff, 0xfeff),
    (0xfff9, 0xfffb),
    (0x110bd, 0x110bd),
    (0x110cd, 0x110cd),
    (0x13430, 0x13438),
    (0x1bca0, 0x1bca3),
    (0x1d173, 0x1d17a),
    (0xe0001, 0xe0001),
    (0xe0020, 0xe007f),
    (0xf0000, 0xffffd),
    (0x100000, 0x10fffd),
];

/// Whether Python's `repr` writes `c` as itself (but for the quote and backslash).
fn printable(c: char) -> bool {
    let n = u32::from(c);
    if n < 0x80 {
        return (0x20..0x7f).contains(&n);
    }
    // The non-characters: U+FDD0..U+FDEF and the last two code points of every plane.
    if (0xfdd0..=0xfdef).contains(&n) || n & 0xfffe == 0xfffe {
        return false;
    }
    let i = UNPRINTABLE.partition_point(|&(_, last)| last < n);
    UNPRINTABLE.get(i).is_none_or(|&(first, _)| n < first)
}

/// `x` as Python's `repr(x)`: the shortest digits that read back as `x`, in positional
/// notation when the decimal exponent is from -4 to 15 (`0.0001`, `1e+16` past it) with a
/// `.0` on whole numbers, else in scientific notation with a signed exponent of at least two
/// digits (`1e-07`, `1.5e+300`). `float('inf')`, `-float('inf')` and `float('nan')` for the
/// values `repr` names.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "float('nan')".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "float('inf')"
        } else {
            "-float('inf')"
        }
        .into();
    }
    // `{:e}` gives the shortest round-trip digits: `-1.2345e-7`, `5e-1`, `0e0`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` writes an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` writes a whole exponent");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let n = digits.len() as i32;
    if (-4..16).contains(&exp) {
        if exp < 0 {
            let zeros = "0".repeat((-exp - 1) as usize);
            format!("{sign}0.{zeros}{digits}")
        } else if exp + 1 >= n {
            let zeros = "0".repeat((exp + 1 - n) as usize);
            format!("{sign}{digits}{zeros}.0")
        } else {
            let (int, frac) = digits.split_at(exp as usize + 1);
            format!("{sign}{int}.{frac}")
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}{point}{rest}e{esign}{:02}", exp.abs())
    }
}

/// `name(arg, …, key=value, …)`: a call with its positional arguments and the named ones.
pub fn call<'a>(
    name: &str,
    positional: impl IntoIterator<Item = &'a Literal>,
    named: impl IntoIterator<Item = (&'a str, &'a Literal)>,
) -> String {
    let mut parts: Vec<String> = positional.into_iter().map(|v| v.to_string()).collect();
    parts.extend(named.into_iter().map(|(k, v)| format!("{k}={v}")));
    format!("{name}({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each string beside the text `python3 -c 'print(repr(S))'` prints for it (Python 3.11).
    #[test]
    fn strings_are_written_as_python_repr_writes_them() {
        let cases = [
            ("wilson", "'wilson'"),
            ("", "''"),
            ("it's", "\"it's\""),
            ("say \"hi\"", "'say \"hi\"'"),
            ("both ' and \"", r#"'both \' and "'"#),
            ("tab\there", r"'tab\there'"),
            ("new\nline\r", r"'new\nline\r'"),
            ("back\\slash", r"'back\\slash'"),
            ("café über/mäze.txt", "'café über/mäze.txt'"),
            ("\x00\x01\x1f\x7f", r"'\x00\x01\x1f\x7f'"),
            ("\u{80}\u{9f}\u{a0}\u{ad}", r"'\x80\x9f\xa0\xad'"),
            (
                "\u{2028}\u{200b}\u{feff}\u{3000}",
                r"'\u2028\u200b\ufeff\u3000'",
            ),
            (
                "\u{e000}\u{f0000}\u{10fffd}",
                r"'\ue000\U000f0000\U0010fffd'",
            ),
            ("\u{fdd0}\u{ffff}\u{1fffe}", r"'\ufdd0\uffff\U0001fffe'"),
            ("\u{1f600} \u{65e5}\u{672c}", "'\u{1f600} 日本'"),
            ("\u{e0001}", r"'\U000e0001'"),
        ];
        for (s, python) in cases {
            assert_eq!(str_repr(s), python, "{s:?}");
        }
    }

    /// Each float beside the text `python3 -c 'print(repr(X))'` prints for it (Python 3.11).
    #[test]
    fn floats_are_written_as_python_repr_writes_them() {
        let cases = [
            (0.5, "0.5"),
            (1e-7, "1e-07"),
            (0.25, "0.25"),
            (1.0, "1.0"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345678.0, "1.2345678901234568e+17"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-5, "1.5e-05"),
            (2.5e300, "2.5e+300"),
            (5e-324, "5e-324"),
            (1.0 / 3.0, "0.3333333333333333"),
            (-0.0, "-0.0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e22, "1e+22"),
            (12345.678, "12345.678"),
            (0.0, "0.0"),
            (f64::INFINITY, "float('inf')"),
            (f64::NEG_INFINITY, "-float('inf')"),
            (f64::NAN, "float('nan')"),
        ];
        for (x, python) in cases {
            assert_eq!(float_repr(x), python, "{x:e}");
        }
    }

    /// Every finite float written reads back as itself (Rust's parser takes Python's
    /// notation), over a fixed-seed sample of bit patterns.
    #[test]
    fn floats_read_back_exactly() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state);
            if x.is_finite() {
                let text = float_repr(x);
                assert_eq!(
                    text.parse::<f64>().unwrap().to_bits(),
                    x.to_bits(),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn other_values_and_calls_are_python() {
        let one = Literal::Tuple(vec![Literal::Int(3)]);
        let cell = Literal::Tuple(vec![Literal::Int(2), Literal::Int(-1)]);
        let list = Literal::List(vec![Literal::Bool(true), Literal::None]);
        assert_eq!(one.to_string(), "(3,)");
        assert_eq!(cell.to_string(), "(2, -1)");
        assert_eq!(list.to_string(), "[True, None]");
        assert_eq!(Literal::Bool(false).to_string(), "False");
        assert_eq!(Literal::Tuple(vec![]).to_string(), "()");
        let args = [Literal::Str("wilson".into()), Literal::None];
        let braid = Literal::Float(0.5);
        assert_eq!(
            call("batchgen.generate", &args, [("braid", &braid)]),
            "batchgen.generate('wilson', None, braid=0.5)"
        );
    }
}
