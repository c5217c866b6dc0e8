//! Command lines for a POSIX shell: the one quoting rule of every command batchgen prints or
//! records (the run's recorded command line, the rerun commands of `check`, the explorer's
//! commands to reproduce a selection), and the splitter that reads a recorded one back.
//!
//! The splitting is the `shlex` crate's. The quoting is this file's own: `shlex` quotes `=`,
//! `,` and `%` too and writes a word holding `'` in double quotes, so every recorded command
//! line with `--algo a,b` or an `--accept` expression would change.

/// Bytes a word may hold and still be pasted unquoted.
fn is_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b)
}

/// `w` as one shell word: unchanged when non-empty and every byte is an ASCII letter, digit
/// or one of `-_./=:,+@%`; otherwise in single quotes, a `'` inside written `'\''`.
pub fn quote(w: &str) -> String {
    if !w.is_empty() && w.bytes().all(is_safe) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// `words`, each [quoted](quote), joined by spaces.
pub fn join<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    words
        .into_iter()
        .map(|w| quote(w.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Split a command line written by [`join`] (or by hand, with POSIX single quotes, double
/// quotes and backslashes) back into words; `None` when a quote is left open.
#[cfg(feature = "parquet")]
pub fn split(cmd: &str) -> Option<Vec<String>> {
    shlex::split(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "parquet")]
    fn quoted_words_split_back() {
        assert_eq!(quote("wilson-straight:0.7"), "wilson-straight:0.7");
        assert_eq!(quote("a > 'b'"), r"'a > '\''b'\'''");
        assert_eq!(quote(""), "''");
        let words = [
            "batchgen",
            "--accept",
            "algo = 'wilson' AND dead_ends % 2 = 0",
            "",
            "64×64",
            "out dir/",
            "$HOME;*",
        ];
        assert_eq!(split(&join(words)).unwrap(), words);
        assert_eq!(
            split(r#"a "b c" d\ e 'f"g'"#).unwrap(),
            ["a", "b c", "d e", "f\"g"]
        );
        assert_eq!(split("a 'b"), None);
    }
}
