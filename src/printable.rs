//! Strings read from files (a generator name in a Parquet column or a partition folder, a file
//! name) shown on a terminal: control characters (newlines, tabs, ANSI escape sequences) are
//! printed escaped, as Rust writes them (`\n`, `\u{1b}`), so a file cannot move the cursor,
//! recolour the terminal or fake extra lines of a report.

use std::borrow::Cow;

/// `s` with every control character escaped; borrowed when there is none.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A path as messages show it: lossy UTF-8 (as `Path::display`), control characters escaped.
pub fn path(p: &std::path::Path) -> String {
    printable(&p.to_string_lossy()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert!(matches!(printable("wilson"), Cow::Borrowed("wilson")));
        assert_eq!(
            printable("a\u{1b}[31mb\nc\u{9b}"),
            "a\\u{1b}[31mb\\nc\\u{9b}"
        );
        assert_eq!(printable("größe"), "größe");
    }
}
