//! Typed flag values: the clap `value_parser`s and `ValueEnum`s the subcommands' flag structs
//! share, so that parsing, help, completions and errors come from one definition. Each parser
//! calls the library's rule ([`batchgen::args`], [`Algorithm::parse_list`], [`Accept::parse`])
//! and returns its reason as text, which clap shows as `invalid value 'V' for '--flag <V>': …`
//! with exit status 2. Checks across several flags stay in each command's validation.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};

use batchgen::accept::{filter_columns, Accept, AcceptError};
use batchgen::generate::{Algorithm, FAMILIES};
use batchgen::grid::Size;

/// `f` on the text of a value, with a value that is not UTF-8 refused by the same kind of
/// error, naming the flag (clap's own message for that names neither flag nor value).
pub fn text<T, F>(f: F) -> impl TypedValueParser<Value = T>
where
    T: Clone + Send + Sync + 'static,
    F: Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static,
{
    clap::builder::OsStringValueParser::new().try_map(move |os| match os.to_str() {
        Some(s) => f(s),
        None => Err("is not valid UTF-8 (only file paths may be)".to_string()),
    })
}

/// A whole number as people type it (`1000`, `1,000,000`, `1e6`, `2^20`; see
/// [`batchgen::args::count_value`]).
pub fn count(s: &str) -> Result<u64, String> {
    batchgen::args::count_value(s)
}

/// A count of at least one.
pub fn positive(s: &str) -> Result<u64, String> {
    match count(s)? {
        0 => Err("must be at least 1".into()),
        n => Ok(n),
    }
}

/// A worker thread count, 1 to 1024.
pub fn threads(s: &str) -> Result<usize, String> {
    match count(s) {
        Ok(n @ 1..=1024) => Ok(n as usize),
        _ => Err("expected a whole number from 1 to 1024".into()),
    }
}

/// A braid chance from 0 to 1 (see [`batchgen::args::braid_value`]).
pub fn braid(s: &str) -> Result<f64, String> {
    batchgen::args::braid_value(s)
}

/// One generator (`wilson`, `growing-tree:mix:0.5`).
pub fn algorithm(s: &str) -> Result<Algorithm, String> {
    Algorithm::parse(s).map_err(|e| e.to_string())
}

/// Pixels per maze cell, 1 to 100,000 (the picture's total size is checked with the grid's).
pub fn cell_px(s: &str) -> Result<u32, String> {
    match count(s) {
        Ok(n @ 1..=100_000) => Ok(n as u32),
        _ => Err("expected a whole number from 1 to 100000".into()),
    }
}

/// A percentage of rows left out at each end of a plot's axes: 0 to below 50.
pub fn tail_percent(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if (0.0..50.0).contains(&p) => Ok(p),
        _ => Err("expected a percentage from 0 to below 50 (e.g. 0.5)".into()),
    }
}

/// A grid size `WxH` or `WxHxD` (`×` also separates).
pub fn size(s: &str) -> Result<Size, String> {
    batchgen::args::parse_size3("", s).map_err(reason)
}

/// `--size` of the main job as given: a grid size, or a bare number (the rings of a polar
/// grid, `--grid polar --size R`; refused on the other grids).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SizeArg {
    /// `WxH` or `WxHxD`.
    Grid(Size),
    /// A single number.
    Rings(u32),
}

impl SizeArg {
    /// The size of a square-cell grid: a bare number is refused naming `--size`.
    pub fn square(self) -> Result<Size, crate::cmd::UsageError> {
        match self {
            SizeArg::Grid(s) => Ok(s),
            SizeArg::Rings(r) => Err(crate::cmd::UsageError::flag(
                "--size",
                &r.to_string(),
                "expected WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH, e.g. 64x64 or 16x16x16 (a single \
                 number is the rings of --grid polar)",
            )),
        }
    }
}

impl SizeArg {
    /// The size on `grid`: as [`SizeArg::square`] on square, hex and triangle grids; on a
    /// polar grid `R` rings (first ring of 6 cells) or `R×C`.
    pub fn on_grid(self, grid: batchgen::topo::Grid) -> Result<Size, crate::cmd::UsageError> {
        match (grid, self) {
            (batchgen::topo::Grid::Polar, SizeArg::Rings(r)) => {
                Ok(Size::planar(r, batchgen::topo::polar::FIRST_RING))
            }
            _ => self.square(),
        }
    }
}

/// [`size`], or a bare positive number ([`SizeArg::Rings`]); a bare number that is not one
/// (`0`, or past `u32`) is refused as rings, not as a malformed `WxH`.
pub fn size_arg(s: &str) -> Result<SizeArg, String> {
    match s.trim().parse::<u64>() {
        Ok(r) if r > 0 && r <= u32::MAX as u64 => Ok(SizeArg::Rings(r as u32)),
        Ok(0) => Err(
            "a single number is the rings of --grid polar, from 1 up (other grids take \
             WIDTHxHEIGHT, e.g. 64x64)"
                .into(),
        ),
        Ok(r) => Err(format!(
            "{r} rings of --grid polar hold more than the {} cells a maze may have",
            batchgen::grid::MAX_CELLS
        )),
        Err(_) => size(s).map(SizeArg::Grid),
    }
}

/// A grid name (`--grid`): square, hex, triangle or polar.
pub fn grid(s: &str) -> Result<batchgen::topo::Grid, String> {
    batchgen::topo::Grid::parse(s)
}

/// The reason of an [`batchgen::args::ArgError`] without its flag and value (clap names those).
fn reason(e: batchgen::args::ArgError) -> String {
    match e {
        batchgen::args::ArgError::Value { why, .. } => why,
        batchgen::args::ArgError::Conflict(why) => why,
    }
}

/// A generator list as given (`all`, `wilson,kruskal`, `growing-tree:mix:0.5`) and what it
/// names, in canonical order.
#[derive(Clone, Debug, PartialEq)]
pub struct AlgoList {
    /// The text given (a 3D size treats `all` in it specially).
    pub spec: String,
    /// The generators.
    pub algos: Vec<Algorithm>,
}

/// Parses `--algo` lists and offers the family names (and `all`) to completions and help.
#[derive(Clone, Copy, Debug)]
pub struct AlgoListParser;

fn algo_list(s: &str) -> Result<AlgoList, String> {
    Algorithm::parse_list(s)
        .map(|algos| AlgoList {
            spec: s.to_string(),
            algos,
        })
        .map_err(|e| e.to_string())
}

impl TypedValueParser for AlgoListParser {
    type Value = AlgoList;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<AlgoList, clap::Error> {
        // clap's own `invalid value` error with our reason.
        text(algo_list).parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            std::iter::once(PossibleValue::new("all").help("every generator"))
                .chain(FAMILIES.iter().map(|f| PossibleValue::new(f.name))),
        ))
    }
}

/// An `--accept` filter, compiled; a filter that does not parse says where and, for the
/// common slips, what was probably meant ([`accept_hint`]).
pub fn accept(s: &str) -> Result<Accept, String> {
    Accept::parse(s).map_err(|e| {
        let hint = accept_hint(&e);
        format!("{e}{hint}")
    })
}

/// What a filter error probably means: a misspelt column (`did you mean …?`), or a string
/// written in double quotes (SQL names a column with those; strings take single quotes).
pub fn accept_hint(e: &AcceptError) -> String {
    let Some(name) = e
        .message
        .strip_prefix("unknown column '")
        .and_then(|r| r.strip_suffix('\''))
    else {
        return String::new();
    };
    if e.expr.get(e.pos..).is_some_and(|r| r.starts_with('"')) {
        return format!(
            "\nhint: strings take single quotes ('{name}'); double quotes name a column, as in SQL"
        );
    }
    match batchgen::suggest::closest(name, filter_columns()) {
        Some(c) => format!("\nhint: did you mean '{c}'?"),
        None => String::new(),
    }
}

/// An `--accept` given unquoted on a shell command line: `--accept solution_length >= 10`
/// reaches the program as `--accept solution_length 10` (the shell took `>=` as a redirection
/// into a file named `=`). The explanation, when `args` look like that.
pub fn unquoted_accept(args: &[std::ffi::OsString]) -> Option<String> {
    let args: Vec<&str> = args.iter().map(|a| a.to_str().unwrap_or("")).collect();
    for (i, a) in args.iter().enumerate() {
        let value = if *a == "--accept" {
            args.get(i + 1).copied()
        } else {
            a.strip_prefix("--accept=")
        };
        let Some(v) = value else { continue };
        let bare = !v.is_empty()
            && v.chars().all(|c| c.is_alphanumeric() || c == '_')
            && filter_columns().any(|c| c == v);
        if bare {
            return Some(format!(
                "--accept got only '{v}': a filter must be one quoted argument, e.g. \
                 --accept '{v} >= 10'. Unquoted, the shell reads '>', '<' and '>=' as \
                 redirections (and may have made a file named '=' or '10')"
            ));
        }
    }
    None
}

/// The entrance-and-exit rule of `--ends`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndsRule {
    /// The first and the last cell (or --entrance/--exit).
    Corners,
    /// A farthest pair: the solution is a longest path.
    Diameter,
}

impl EndsRule {
    /// The run layer's rule.
    pub fn rule(self) -> batchgen::run::EndsRule {
        match self {
            EndsRule::Corners => batchgen::run::EndsRule::Corners,
            EndsRule::Diameter => batchgen::run::EndsRule::Diameter,
        }
    }

    /// The name [`batchgen::args::resolve_ends_sized`] takes.
    pub fn name(self) -> &'static str {
        self.rule().name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_hints() {
        let e = accept("dead_end_shar <= 0.3").unwrap_err();
        assert!(e.contains("did you mean 'dead_end_share'?"), "{e}");
        let e = accept("algo == \"wilson\"").unwrap_err();
        assert!(e.contains("strings take single quotes ('wilson')"), "{e}");
        assert!(accept("algo == 'wilson'").is_ok());
        let args: Vec<std::ffi::OsString> = ["batchgen", "--accept", "solution_length", "10"]
            .iter()
            .map(Into::into)
            .collect();
        let m = unquoted_accept(&args).unwrap();
        assert!(m.contains("--accept 'solution_length >= 10'"), "{m}");
        let quoted: Vec<std::ffi::OsString> = ["batchgen", "--accept", "solution_length >= 10"]
            .iter()
            .map(Into::into)
            .collect();
        assert!(unquoted_accept(&quoted).is_none());
    }

    #[test]
    fn typed_numbers() {
        assert_eq!(count("1e6"), Ok(1_000_000));
        assert!(count("2^64").unwrap_err().contains("too large"));
        assert_eq!(threads("4"), Ok(4));
        assert!(threads("0").is_err());
        assert_eq!(positive("1"), Ok(1));
        assert!(positive("0").is_err());
        assert_eq!(size("64×64"), Ok(Size::planar(64, 64)));
    }
}
