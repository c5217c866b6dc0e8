//! Accept filters: the SQL boolean expression a user pastes from a DuckDB `WHERE` clause,
//! parsed once, compiled to postfix code and evaluated per candidate without allocation.
//! The main job's `--accept` and `batchgen summary --accept` share this evaluator.
//!
//! Grammar (lowest precedence first; keywords in any case):
//!
//! ```text
//! or        := and ( ("OR" | "||") and )*
//! and       := not ( ("AND" | "&&") not )*
//! not       := ("NOT" | "!") not | predicate
//! predicate := sum [ cmp sum | ["NOT"] "BETWEEN" sum "AND" sum
//!                  | ["NOT"] "IN" "(" sum ("," sum)* ")" | "IS" ["NOT"] "NULL" ]
//! cmp       := "=" | "==" | "<>" | "!=" | "<" | "<=" | ">" | ">="
//! sum       := product ( ("+" | "-") product )*
//! product   := unary ( ("*" | "/" | "//" | "%") unary )*
//! unary     := ("-" | "+") unary | postfix
//! postfix   := primary ( "::" TYPE )*
//! primary   := NUMBER | 'string' | NULL | TRUE | FALSE | COLUMN | "(" or ")"
//!            | "CAST" "(" or "AS" TYPE ")"
//! TYPE      := BIGINT | INTEGER | INT | HUGEINT | DOUBLE | FLOAT8 | REAL | FLOAT | FLOAT4
//! ```
//!
//! Columns are `algo` and `grid` (compared with string literals) and the numeric Parquet
//! columns that depend only on the maze: the one column table [`COLUMNS`] gives their order,
//! SQL types and values, and says which are refused: `gen_ns` because a filter on timing would
//! make the accepted set non-reproducible, the 64-bit hashes/seeds because they do not fit a
//! double. `grid` is the grid's name (`square`, `hex`, `triangle`, `polar`: the `grid` column
//! of a table of mazes on another grid; a square table has no such column, and its rows are
//! `square`, as DuckDB's `coalesce(grid, 'square')` reads them). As for `algo`, a name that is
//! no grid is not an error: `grid = 'hexagon'` selects nothing, as in DuckDB.
//!
//! Semantics follow DuckDB 2.0 (checked row by row against DuckDB in `tests/accept_sql.rs`):
//! numbers are doubles; `/` is float division even on integers, `x/0` is ±infinity and `0/0`
//! is NaN; NaN sorts above every number and equals itself; `//` truncates on integers and is
//! plain division on doubles; `%` is the truncated remainder; a NULL (the `NULL` literal, or
//! `//`/`%` by zero on integers, where DuckDB stops with an error and `TRY(…)` gives NULL)
//! makes comparisons NULL, a bare `NULL` is an unknown truth value (`NOT NULL` is NULL,
//! `NULL OR TRUE` is TRUE), `AND`/`OR` are three-valued, and a row whose filter is NULL is
//! rejected. A cast of a constant to an integer type (`CAST(1e300 AS BIGINT)`,
//! `(0/0)::BIGINT`, `CAST(3e9 AS INTEGER)`) outside that type's range, or of NaN or infinity,
//! is refused when the filter is parsed, as DuckDB refuses it; a cast of a value computed from
//! columns is not range-checked: `(dead_ends / 0)::BIGINT` stays infinite where DuckDB stops
//! the query with a Conversion Error. Where DuckDB stops with "Out of Range" on unsigned arithmetic
//! (`dead_ends - 1000` going negative), batchgen computes the true value, which is what DuckDB
//! gives after `dead_ends::BIGINT - 1000`. As in DuckDB, a literal with a decimal point (`0.1`)
//! is an exact DECIMAL (held as a scaled integer, exact below 2^53 and up to 18 places; a
//! longer literal, such as a double's 17 digits pasted back, is read as a double):
//! `+ - * %` on integers and DECIMALs stay exact (`solution_length * 0.1 = 3` holds for 30),
//! `/` and anything with a DOUBLE (a column like `dead_end_share`, or `1e-1`) is a double;
//! `::BIGINT` rounds a DECIMAL half away from zero and a DOUBLE half to even.
//!
//! The steps, one module each, as a query engine has them: `lexer` (tokens), `parser` (a small
//! syntax tree), `types` (the type rules and column names), `compile` (the tree to a postfix
//! program, type-checked node by node, so the first error in reading order is the one
//! reported, syntax before types) and `eval` (the program on one row).

use std::fmt;

use crate::metrics::{Filter, RowView};
use crate::topo::Grid;

mod compile;
mod eval;
mod lexer;
mod parser;
mod program;
mod types;

pub(crate) use program::Op;
// What explore's column-at-a-time evaluator shares with this one.
#[cfg(feature = "cli")]
pub(crate) use eval::{arith, order};
#[cfg(feature = "cli")]
pub(crate) use program::{Arith, Cmp, Conv, SAME};

/// The output's column table: an accept filter reads `COLUMNS[i]` for the columns whose
/// [`crate::metrics::Filter`] admits them (their order, types and values come from there).
pub use crate::metrics::COLUMNS;

/// Deepest parse nesting and evaluation stack allowed.
pub(crate) const MAX_DEPTH: usize = 64;
/// String id standing for the candidate's `algo`.
pub(crate) const ALGO: u16 = u16::MAX;
/// String id standing for the candidate's `grid` (string literals have smaller ids).
pub(crate) const GRID: u16 = u16::MAX - 1;
/// The name of the `grid` column (not in [`COLUMNS`]: only tables of mazes on a grid other
/// than the square one have it, last).
pub(crate) const GRID_NAME: &str = "grid";

/// What a string id of the program stands for.
#[cfg(feature = "cli")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Text<'a> {
    /// The row's generator ([`ALGO`]).
    Algo,
    /// The row's grid ([`GRID`]).
    Grid,
    /// A string literal.
    Literal(&'a str),
}

/// What a filter sees of one candidate: its generator, size, master seed and row
/// ([`RowView::column`] gives the value of `COLUMNS[i]`).
pub type Candidate<'a> = RowView<'a>;

/// The columns a filter may use, in table order, `algo` first and `grid` last: the list shown
/// in errors.
pub fn filter_columns() -> impl Iterator<Item = &'static str> {
    COLUMNS
        .iter()
        .filter(|c| !matches!(c.filter, Filter::Refused(_)))
        .map(|c| c.name)
        .chain([GRID_NAME])
}

/// A compiled accept filter.
#[derive(Clone, Debug, PartialEq)]
pub struct Accept {
    source: String,
    code: Vec<Op>,
    strings: Vec<String>,
    uses: Vec<u8>,
}

/// A filter that does not parse: where, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct AcceptError {
    /// The expression as given.
    pub expr: String,
    /// Byte offset of the problem.
    pub pos: usize,
    /// What was wrong.
    pub message: String,
}

impl AcceptError {
    /// The error `message` at byte `pos` of `expr`.
    fn at(expr: &str, pos: usize, message: impl Into<String>) -> AcceptError {
        AcceptError {
            expr: expr.to_string(),
            pos,
            message: message.into(),
        }
    }
}

impl fmt::Display for AcceptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = (0..=self.pos.min(self.expr.len()))
            .rev()
            .find(|&p| self.expr.is_char_boundary(p))
            .unwrap_or(0);
        let col = self.expr[..pos].chars().count();
        write!(
            f,
            "{} at position {}\n  {}\n  {}^\nvalid columns: {}",
            self.message,
            col + 1,
            self.expr,
            " ".repeat(col),
            filter_columns().collect::<Vec<_>>().join(", ")
        )
    }
}

impl Accept {
    /// Parse and compile an expression.
    pub fn parse(src: &str) -> Result<Accept, AcceptError> {
        let tree = parser::parse(src)?;
        let program = compile::compile(src, &tree)?;
        Ok(Accept {
            source: src.to_string(),
            code: program.code,
            strings: program.strings,
            uses: program.uses,
        })
    }

    /// The expression as given.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The postfix program (for evaluators that run it over whole columns, as `explore` does).
    #[cfg(feature = "cli")]
    pub(crate) fn code(&self) -> &[Op] {
        &self.code
    }

    /// What string id `id` stands for: the row's generator or grid, or a literal's text.
    #[cfg(feature = "cli")]
    pub(crate) fn text(&self, id: u16) -> Text<'_> {
        match id {
            ALGO => Text::Algo,
            GRID => Text::Grid,
            _ => Text::Literal(self.strings[id as usize].as_str()),
        }
    }

    /// Indices into [`COLUMNS`] of the numeric columns the expression reads.
    pub fn columns_used(&self) -> &[u8] {
        &self.uses
    }

    /// Does this candidate pass?
    #[inline]
    pub fn eval(&self, c: &Candidate<'_>) -> bool {
        self.eval_with(c.algo, c.grid, |i| c.column(i))
    }

    /// Does a row pass, given its `algo`, its `grid` and a function returning column
    /// `COLUMNS[i]`? (A NULL result does not pass, as in a SQL `WHERE`.)
    #[inline]
    pub fn eval_with(&self, algo: &str, grid: Grid, column: impl Fn(u8) -> f64) -> bool {
        let v = eval::exec(&self.code, &self.strings, [algo, grid.name()], column);
        !v.null && v.x == 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grid::Size;
    use crate::metrics::{Metrics, Row};

    fn row(m: &Metrics) -> Row {
        Row {
            index: 7,
            metrics: *m,
            ..Default::default()
        }
    }

    fn cand(r: &Row) -> Candidate<'_> {
        Candidate {
            algo: "wilson",
            grid: Grid::Square,
            size: Size::planar(10, 10),
            seed: 1,
            row: r,
        }
    }

    #[test]
    fn precedence_and_operators() {
        let m = Metrics {
            dead_end_share: 0.1,
            solution_length: 300,
            diameter: 320,
            ..Default::default()
        };
        let t = |e: &str| Accept::parse(e).unwrap().eval(&cand(&row(&m)));
        assert!(t("dead_end_share <= 0.12 && solution_length >= 300"));
        assert!(!t("dead_end_share < 0.1"));
        assert!(t("dead_end_share < 0.1 || diameter == 320"));
        assert!(t("!(dead_end_share < 0.1) && index != 8"));
        assert!(!t("!dead_end_share <= 0.12"));
        assert!(t("1 < 2 || 3 > 4 && 5 > 6"), "&& binds tighter than ||");
        assert!(!t("(1 < 2 || 3 > 4) && 5 > 6"));
        assert!(t("solution_length > 2.5e2 && width == 10 && height >= -1"));
        assert!(t("diameter >= solution_length"));
        // SQL spellings.
        assert!(t("dead_end_share <= 0.12 AND solution_length = 300"));
        assert!(t("not dead_end_share < 0.1 and Index <> 8"));
        assert!(t("solution_length BETWEEN 300 AND 301"));
        assert!(!t("solution_length NOT BETWEEN 300 AND 301"));
        assert!(t("diameter IN (1, 320, 5)"));
        assert!(t("diameter NOT IN (1, 2)"));
        assert!(t("solution_length / diameter > 0.9"));
        assert!(t("-(diameter - 2 * solution_length) = 280"));
        assert!(t(
            "7 // 2 = 3 AND -7 // 2 = -3 AND 7.0 // 2 = 3.5 AND 7 % 3 = 1"
        ));
        assert!(t(
            "algo = 'wilson' AND algo IN ('kruskal', 'wilson') AND algo <> 'prim'"
        ));
        assert!(t(
            "\"DEAD_ENDS\" = 0 AND CAST(2.5 AS BIGINT) = 3 AND 2.5::BIGINT = 3"
        ));
    }

    #[test]
    fn sql_null_and_duckdb_division() {
        let m = Metrics::default();
        let t = |e: &str| Accept::parse(e).unwrap().eval(&cand(&row(&m)));
        // x/0 is infinity, 0/0 is NaN, NaN is above every number and equal to itself.
        assert!(t("1 / dead_ends > 1e308"));
        assert!(t("-1 / dead_ends < -1e308"));
        assert!(t("dead_ends / dead_ends > 1 / dead_ends"));
        assert!(t("dead_ends / dead_ends = 0 / 0"));
        // Integer // and % by zero give NULL; NOT NULL is NULL; NULL does not pass.
        assert!(!t("1 // dead_ends = 0"));
        assert!(!t("NOT (1 // dead_ends = 0)"));
        assert!(t("1 // dead_ends IS NULL"));
        assert!(t("1 % dead_ends IS NULL AND 1 IS NOT NULL"));
        assert!(!t("NULL > 1 OR 1 > 2"));
        // A bare NULL is an unknown truth value.
        assert!(!t("NOT NULL") && !t("NULL") && !t("NULL AND TRUE"));
        assert!(t("NULL OR TRUE") && t("(NOT NULL) IS NULL"));
        assert!(t("NULL > 1 OR 1 < 2"));
        assert!(!t("NULL > 1 AND 1 < 2"));
        assert!(t("NOT (NULL > 1 AND 1 > 2)"));
        assert!(!t("dead_ends IN (1, NULL)"));
        assert!(!t("dead_ends NOT IN (1, NULL)"));
        // Integer results have an unsigned zero; doubles keep the sign.
        assert!(t("1 / (dead_ends * -1) > 0"));
        assert!(t("1 / (dead_end_share * -1) < 0"));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = Accept::parse("dead_end_share <= 0.12 &&").unwrap_err();
        assert_eq!(e.pos, 25);
        assert!(e
            .to_string()
            .contains("valid columns: algo, width, height, depth, index, dead_ends"));
        let e = Accept::parse("dead_ends < 3 && solutoin_length > 4").unwrap_err();
        assert_eq!(e.pos, 17);
        assert!(e.message.contains("solutoin_length"));
        assert!(Accept::parse("(diameter > 3")
            .unwrap_err()
            .message
            .contains("')'"));
        assert!(Accept::parse("diameter 3").is_err());
        assert!(Accept::parse("gen_ns < 5")
            .unwrap_err()
            .message
            .contains("timing"));
        assert!(Accept::parse("diameter > 3 $").is_err());
        assert!(Accept::parse("").is_err());
        assert!(Accept::parse(&"!".repeat(100)).is_err());
        assert!(Accept::parse(&format!("{}1 > 0", "-".repeat(100))).is_err());
        let e = Accept::parse("dead_ends < 1e999").unwrap_err();
        assert!(e.message.contains("'1e999'"), "{}", e.message);
        assert_eq!(e.pos, 12);
        let e = Accept::parse("déad_ends > 3").unwrap_err();
        assert!(e.message.contains("'déad_ends'"), "{}", e.message);
        assert!(e.to_string().contains("position 1"));
        let e = Accept::parse("index > 1 AND déad_ends > 3").unwrap_err();
        assert!(e.to_string().contains("position 15"), "{e}");
        for bad in [
            "algo = 3",
            "dead_ends + algo > 1",
            "dead_ends",
            "dead_ends > 1 + (2 > 1)",
            "1 < 2 < 3",
            "dead_ends BETWEEN 1 3",
            "dead_ends IN 3",
            "'x",
            "5abc > 1",
            "1.2.3 > 1",
            "dead_ends::TEXT > 1",
            "maze_hash > 1",
            "99999999999999999999 > index",
        ] {
            assert!(Accept::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn syntax_errors_come_before_type_errors() {
        let e = Accept::parse("algo + 1 > 2 AND dead_ends > $").unwrap_err();
        assert!(
            e.message.contains("unexpected character '$'"),
            "{}",
            e.message
        );
        let e = Accept::parse("algo + 1 > 2 AND dead_ends > 3").unwrap_err();
        assert!(
            e.message.contains("arithmetic needs numbers"),
            "{}",
            e.message
        );
        assert_eq!(e.pos, 5);
    }

    #[test]
    fn long_chains_are_flat() {
        // Chains of one operator are one node: no recursion per operand.
        let sum = format!("1{} > 0", " + 1".repeat(100_000));
        assert!(Accept::parse(&sum)
            .unwrap()
            .eval(&cand(&row(&Metrics::default()))));
        let casts = format!("2.5{} = 3", "::BIGINT".repeat(100_000));
        assert!(Accept::parse(&casts)
            .unwrap()
            .eval(&cand(&row(&Metrics::default()))));
        let ors = format!("1 > 2{}", " OR 1 > 2".repeat(100_000));
        assert!(!Accept::parse(&ors)
            .unwrap()
            .eval(&cand(&row(&Metrics::default()))));
    }
}
