//! `--color auto|always|never`: whether messages and reports are coloured. Colour is used for
//! the `error:` prefix (stderr) and the uniformity verdicts (stdout, painted by
//! [`batchgen::uniformity::verdict`]); nothing else. `auto` colours a stream only when it is a
//! terminal and `NO_COLOR` is unset or empty (<https://no-color.org>).

use std::io::IsTerminal;
use std::sync::OnceLock;

/// When to colour.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum When {
    /// When the stream is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    /// Always (even into a pipe or file).
    Always,
    /// Never.
    Never,
}

/// The choice of this process, set once by `main`.
static CHOICE: OnceLock<When> = OnceLock::new();

/// Record the `--color` choice (the first call wins).
pub fn set(when: When) {
    let _ = CHOICE.set(when);
}

/// The recorded choice (`auto` before [`set`]).
pub fn choice() -> When {
    CHOICE.get().copied().unwrap_or_default()
}

/// Resolve `when` for a stream that is (`is_terminal`) or is not a terminal, with the value of
/// `NO_COLOR`.
pub fn resolve(when: When, is_terminal: bool, no_color: Option<&str>) -> bool {
    match when {
        When::Always => true,
        When::Never => false,
        When::Auto => is_terminal && no_color.is_none_or(str::is_empty),
    }
}

fn no_color() -> Option<String> {
    std::env::var("NO_COLOR").ok()
}

/// Colour stderr?
pub fn stderr() -> bool {
    resolve(
        choice(),
        std::io::stderr().is_terminal(),
        no_color().as_deref(),
    )
}

/// Colour stdout?
pub fn stdout() -> bool {
    resolve(
        choice(),
        std::io::stdout().is_terminal(),
        no_color().as_deref(),
    )
}

/// `text` in bold red (errors) when `on`.
pub fn red(text: &str, on: bool) -> String {
    paint(text, "1;31", on)
}

fn paint(text: &str, sgr: &str, on: bool) -> String {
    if on {
        format!("\x1b[{sgr}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_follows_the_terminal_and_no_color() {
        assert!(resolve(When::Auto, true, None));
        assert!(resolve(When::Auto, true, Some("")));
        assert!(!resolve(When::Auto, true, Some("1")));
        assert!(!resolve(When::Auto, false, None));
        assert!(resolve(When::Always, false, Some("1")));
        assert!(!resolve(When::Never, true, None));
        assert_eq!(red("x", false), "x");
        assert_eq!(red("x", true), "\x1b[1;31mx\x1b[0m");
    }
}
