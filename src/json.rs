//! The layout of every JSON text the program writes. Documents printed for people and scripts
//! ([`pretty`]: the uniformity report, the summary, `--summary-json`, `list-algos`) use serde_json
//! with a formatter of its own, so they read as they always have: two-space indentation, one
//! member per line, arrays of scalars on one line (`[3, 1, 4]`), floats in Rust's shortest
//! round-trip form (`{:?}`: `1e-5`, `1e16`), non-finite floats as `null`, and control
//! characters other than `\n` and `\t` as `\u00XX`. The explorer's API answers ([`compact`])
//! have no whitespace, the same string escapes plus `<`, `>` and `&` as `\u003c`, `\u003e`,
//! `\u0026` (so a string is safe inside HTML), and floats in their shortest round-trip decimal
//! form without exponent (`{}`: `0.5`, `3`), as the page has always read them. The documents
//! themselves are types that derive `Serialize`, beside the code that fills them.

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter, Serializer};
use std::io::{self, Write};

/// `value` as a pretty-printed JSON document, with a final newline.
pub fn pretty<T: Serialize + ?Sized>(value: &T) -> String {
    let mut s = to_string(value);
    s.push('\n');
    s
}

/// `value` as one line of JSON without whitespace, safe inside HTML (the explorer's answers).
pub fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    write_with(value, Compact)
}

fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    write_with(value, Layout::default())
}

fn write_with<T: Serialize + ?Sized, F: Formatter>(value: &T, formatter: F) -> String {
    let mut buf = Vec::new();
    let mut ser = Serializer::with_formatter(&mut buf, formatter);
    // Writing into a Vec cannot fail, and the documents' maps have string keys.
    value
        .serialize(&mut ser)
        .expect("a JSON document serializes into memory");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// How an open array is laid out, known from its first element.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Array {
    /// No element seen yet.
    Empty,
    /// Scalars: on the array's line, `, `-separated.
    Inline,
    /// Arrays or objects: one per line.
    Block,
}

/// An open array or object.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Open {
    /// An array, laid out so.
    Array(Array),
    /// An object; whether it has a member yet.
    Object(bool),
}

/// A [`Formatter`] for [`pretty`]'s layout. An array's layout follows from its first element
/// (the documents' arrays hold one type each, so all elements are alike).
#[derive(Debug, Default)]
struct Layout {
    /// The open arrays and objects, innermost last.
    open: Vec<Open>,
    /// The next value is the first element of the innermost array.
    first_element: bool,
}

impl Layout {
    fn indent<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        for _ in 0..self.open.len() {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Called before every value: the first element of an array decides its layout.
    fn value<W: ?Sized + Write>(&mut self, w: &mut W, container: bool) -> io::Result<()> {
        if !std::mem::take(&mut self.first_element) {
            return Ok(());
        }
        let layout = if container {
            w.write_all(b"\n")?;
            self.indent(w)?;
            Array::Block
        } else {
            Array::Inline
        };
        if let Some(top) = self.open.last_mut() {
            *top = Open::Array(layout);
        }
        Ok(())
    }
}

macro_rules! scalar {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        fn $name<W: ?Sized + Write>(&mut self, w: &mut W, v: $t) -> io::Result<()> {
            self.value(w, false)?;
            write!(w, "{v}")
        }
    )*};
}

impl Formatter for Layout {
    fn write_null<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        w.write_all(b"null")
    }

    scalar!(write_bool: bool, write_i8: i8, write_i16: i16, write_i32: i32, write_i64: i64,
        write_i128: i128, write_u8: u8, write_u16: u16, write_u32: u32, write_u64: u64,
        write_u128: u128);

    fn write_f32<W: ?Sized + Write>(&mut self, w: &mut W, v: f32) -> io::Result<()> {
        self.value(w, false)?;
        write!(w, "{v:?}")
    }

    fn write_f64<W: ?Sized + Write>(&mut self, w: &mut W, v: f64) -> io::Result<()> {
        self.value(w, false)?;
        write!(w, "{v:?}")
    }

    fn write_number_str<W: ?Sized + Write>(&mut self, w: &mut W, v: &str) -> io::Result<()> {
        self.value(w, false)?;
        w.write_all(v.as_bytes())
    }

    fn begin_string<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        w.write_all(b"\"")
    }

    fn write_char_escape<W: ?Sized + Write>(&mut self, w: &mut W, e: CharEscape) -> io::Result<()> {
        char_escape(w, e)
    }

    fn write_raw_fragment<W: ?Sized + Write>(&mut self, w: &mut W, f: &str) -> io::Result<()> {
        self.value(w, false)?;
        w.write_all(f.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, true)?;
        self.open.push(Open::Array(Array::Empty));
        w.write_all(b"[")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match self.open.last() {
            _ if first => {
                self.first_element = true;
                Ok(())
            }
            Some(Open::Array(Array::Block)) => {
                w.write_all(b",\n")?;
                self.indent(w)
            }
            _ => w.write_all(b", "),
        }
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.open.pop() == Some(Open::Array(Array::Block)) {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(b"]")
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, true)?;
        self.open.push(Open::Object(false));
        w.write_all(b"{")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if let Some(top) = self.open.last_mut() {
            *top = Open::Object(true);
        }
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.open.pop() == Some(Open::Object(true)) {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(b"}")
    }
}

/// A character serde_json escapes, written as every layout here writes it: `\"`, `\\`, `\n`,
/// `\t`, and the other control characters as `\u00XX`.
fn char_escape<W: ?Sized + Write>(w: &mut W, e: CharEscape) -> io::Result<()> {
    let control = |w: &mut W, c: u8| write!(w, "\\u{c:04x}");
    match e {
        CharEscape::Quote => w.write_all(b"\\\""),
        CharEscape::ReverseSolidus => w.write_all(b"\\\\"),
        CharEscape::Solidus => w.write_all(b"/"),
        CharEscape::LineFeed => w.write_all(b"\\n"),
        CharEscape::Tab => w.write_all(b"\\t"),
        CharEscape::Backspace => control(w, 0x08),
        CharEscape::FormFeed => control(w, 0x0c),
        CharEscape::CarriageReturn => control(w, 0x0d),
        CharEscape::AsciiControl(c) => control(w, c),
    }
}

/// A [`Formatter`] for [`compact`]: serde_json's compact layout, with [`char_escape`]'s escapes,
/// `<`, `>` and `&` escaped, and floats in `{}` form.
struct Compact;

impl Formatter for Compact {
    fn write_f32<W: ?Sized + Write>(&mut self, w: &mut W, v: f32) -> io::Result<()> {
        write!(w, "{v}")
    }

    fn write_f64<W: ?Sized + Write>(&mut self, w: &mut W, v: f64) -> io::Result<()> {
        write!(w, "{v}")
    }

    fn write_string_fragment<W: ?Sized + Write>(&mut self, w: &mut W, f: &str) -> io::Result<()> {
        // serde_json hands over runs it needs not escape; these three end HTML's safety.
        let b = f.as_bytes();
        let mut from = 0;
        for (i, &c) in b.iter().enumerate() {
            if matches!(c, b'<' | b'>' | b'&') {
                w.write_all(&b[from..i])?;
                write!(w, "\\u{c:04x}")?;
                from = i + 1;
            }
        }
        w.write_all(&b[from..])
    }

    fn write_char_escape<W: ?Sized + Write>(&mut self, w: &mut W, e: CharEscape) -> io::Result<()> {
        char_escape(w, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_layout_of_every_kind_of_value() {
        let v = json!({
            "a": -3,
            "b": [0.5, null, true],
            "c": "x\"y\n€\r\u{1}",
            "d": [{"e": [], "f": {}}],
            "g": [1e-5, 1e16, 0.1, 2.0],
            "h": {"i": [[1, 2], [3]]},
            "big": 14309862100617159369u64
        });
        let want = r#"{
  "a": -3,
  "b": [0.5, null, true],
  "big": 14309862100617159369,
  "c": "x\"y\n€\u000d\u0001",
  "d": [
    {
      "e": [],
      "f": {}
    }
  ],
  "g": [1e-5, 1e16, 0.1, 2.0],
  "h": {
    "i": [
      [1, 2],
      [3]
    ]
  }
}
"#;
        assert_eq!(pretty(&v), want);
        assert_eq!(pretty(&f64::NAN), "null\n");
    }

    #[test]
    fn the_compact_layout_is_one_line_safe_in_html() {
        let v = json!({
            "a": [1, 2.0, 0.5, 1e-7, null],
            "b": "<b>&\"\n\r",
            "c": {"d": [], "e": [{"f": f64::INFINITY}]}
        });
        assert_eq!(
            compact(&v),
            r#"{"a":[1,2,0.5,0.0000001,null],"b":"\u003cb\u003e\u0026\"\n\u000d","c":{"d":[],"e":[{"f":null}]}}"#
        );
        assert_eq!(compact(&f64::NAN), "null");
    }
}
