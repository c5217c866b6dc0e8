//! A row of the output: one measured maze with the identifiers that regenerate it, and the one
//! table of the output's columns ([`COLUMNS`]). It lives beside the metrics, below the pipeline,
//! so the sinks that write rows ([`crate::sink`]) need nothing from the pipeline that makes them
//! ([`crate::batch`] re-exports it).
//!
//! The column list is declared here once: its name, type, meaning, how to read it from a row
//! and whether an `--accept` filter may use it. The Parquet schema and writer
//! ([`crate::sink::parquet`]) and the accept filter's columns ([`crate::accept`]) are derived
//! from it, so a new column is one new line of [`COLUMNS`].

use super::Metrics;
use crate::grid::Size;
use crate::topo::Grid;

/// One measured maze: the identifiers that regenerate it, its metrics and its generation time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Row {
    /// Maze number within (algo, size, seed).
    pub index: u64,
    /// The derived per-maze seed.
    pub maze_seed: u64,
    /// Time spent in the generator, nanoseconds.
    pub gen_ns: u64,
    /// The measurements.
    pub metrics: Metrics,
}

/// A row as its columns see it: the run's identifiers (generator, grid, size, master seed) and
/// one maze's [`Row`]. Every column of [`COLUMNS`] is read from one of these; it is also what an
/// accept filter evaluates ([`crate::accept::Candidate`]), whose `grid` column is [`RowView::grid`].
#[derive(Clone, Copy, Debug)]
pub struct RowView<'a> {
    /// Canonical generator name.
    pub algo: &'a str,
    /// The grid the maze is on. No column of [`COLUMNS`] reads it: a table of mazes on another
    /// grid than the square one ends with a `grid` column of its own.
    pub grid: Grid,
    /// Grid size (depth 1 for 2D).
    pub size: Size,
    /// Master seed of the run.
    pub seed: u64,
    /// The maze's row.
    pub row: &'a Row,
}

/// How a column's values are read from a [`RowView`]; the variant is the column's type.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Get {
    /// The generator name (a dictionary-encoded string in Parquet).
    Algo,
    /// An unsigned 32-bit value.
    U32(fn(&RowView<'_>) -> u32),
    /// An unsigned 64-bit value.
    U64(fn(&RowView<'_>) -> u64),
    /// A double.
    F64(fn(&RowView<'_>) -> f64),
    /// An unsigned 64-bit value that may be NULL (`None`): a nullable column.
    OptU64(fn(&RowView<'_>) -> Option<u64>),
}

/// Whether an accept filter may use a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Filter {
    /// A number the filter may compare (exact in a double).
    Number,
    /// A string the filter compares with string literals (`algo`).
    Text,
    /// Refused, with the reason shown to the user.
    Refused(&'static str),
}

/// One output column.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// Column name (Parquet and SQL).
    pub name: &'static str,
    /// Its values and their type.
    pub get: Get,
    /// What it means (one line).
    pub doc: &'static str,
    /// Whether `--accept` may use it.
    pub filter: Filter,
}

impl Column {
    /// The column's value in `row` as a double (`None` for `algo` and for a NULL). Every
    /// numeric column that [`Filter::Number`] admits is exact in a double
    /// (`walk_steps < 2·cells² ≤ 2^53`) except `solution_count`, which is exact up to 2^53 and
    /// rounded to the nearest double above (as DuckDB compares a UBIGINT with a DOUBLE).
    #[inline]
    pub fn number(&self, row: &RowView<'_>) -> Option<f64> {
        match self.get {
            Get::Algo => None,
            Get::U32(f) => Some(f(row) as f64),
            Get::U64(f) => Some(f(row) as f64),
            Get::F64(f) => Some(f(row)),
            Get::OptU64(f) => f(row).map(|v| v as f64),
        }
    }

    /// May the column hold NULLs?
    pub fn is_nullable(&self) -> bool {
        matches!(self.get, Get::OptU64(_))
    }

    /// Is the column a double (rather than an integer or the name)?
    pub fn is_float(&self) -> bool {
        matches!(self.get, Get::F64(_))
    }
}

impl RowView<'_> {
    /// The value of `COLUMNS[column]` as a double (`NaN` for `algo`, which is not a number, and
    /// for a NULL: no numeric column is NaN otherwise, so an accept filter reads NaN as NULL).
    #[inline]
    pub fn column(&self, column: u8) -> f64 {
        COLUMNS[column as usize].number(self).unwrap_or(f64::NAN)
    }
}

const IDENTIFIER: Filter =
    Filter::Refused("a 64-bit identifier (not exact in a double) and cannot be filtered on");

/// The output's columns, in Parquet order: identifiers and metrics, `depth` right after `height`,
/// then the difficulty columns, the mask columns, the braid columns and `solution_twist`
/// (appended, so readers that select the older columns by position keep working).
pub const COLUMNS: [Column; 32] = [
    Column {
        name: "algo",
        get: Get::Algo,
        doc: "canonical generator name, parameters included (`wilson-straight:0.7`)",
        filter: Filter::Text,
    },
    Column {
        name: "width",
        get: Get::U32(|r| r.size.width),
        doc: "grid width (cells)",
        filter: Filter::Number,
    },
    Column {
        name: "height",
        get: Get::U32(|r| r.size.height),
        doc: "grid height (cells)",
        filter: Filter::Number,
    },
    Column {
        name: "depth",
        get: Get::U32(|r| r.size.depth),
        doc: "grid depth (layers; 1 for 2D)",
        filter: Filter::Number,
    },
    Column {
        name: "seed",
        get: Get::U64(|r| r.seed),
        doc: "master seed of the run",
        filter: IDENTIFIER,
    },
    Column {
        name: "index",
        get: Get::U64(|r| r.row.index),
        doc: "maze number within (algo, size, seed)",
        filter: Filter::Number,
    },
    Column {
        name: "maze_seed",
        get: Get::U64(|r| r.row.maze_seed),
        doc: "the derived per-maze seed",
        filter: IDENTIFIER,
    },
    Column {
        name: "dead_ends",
        get: Get::U32(|r| r.row.metrics.dead_ends),
        doc: "cells with exactly one passage",
        filter: Filter::Number,
    },
    Column {
        name: "dead_end_share",
        get: Get::F64(|r| r.row.metrics.dead_end_share),
        doc: "dead_ends / cells",
        filter: Filter::Number,
    },
    Column {
        name: "diameter",
        get: Get::U32(|r| r.row.metrics.diameter),
        doc: "longest shortest path between two cells",
        filter: Filter::Number,
    },
    Column {
        name: "diameter_start",
        get: Get::U32(|r| r.row.metrics.diameter_start),
        doc: "cell id of one end of a farthest pair",
        filter: Filter::Number,
    },
    Column {
        name: "diameter_end",
        get: Get::U32(|r| r.row.metrics.diameter_end),
        doc: "cell id of the other end of that pair",
        filter: Filter::Number,
    },
    Column {
        name: "solution_length",
        get: Get::U32(|r| r.row.metrics.solution_length),
        doc: "entrance → exit distance",
        filter: Filter::Number,
    },
    Column {
        name: "junctions",
        get: Get::U32(|r| r.row.metrics.junctions),
        doc: "cells with three or more passages",
        filter: Filter::Number,
    },
    Column {
        name: "corridors",
        get: Get::U32(|r| r.row.metrics.corridors),
        doc: "cells with exactly two passages",
        filter: Filter::Number,
    },
    Column {
        name: "straights",
        get: Get::U32(|r| r.row.metrics.straights),
        doc: "corridors open on two opposite sides",
        filter: Filter::Number,
    },
    Column {
        name: "solution_turns",
        get: Get::U32(|r| r.row.metrics.solution_turns),
        doc: "direction changes along the entrance → exit path",
        filter: Filter::Number,
    },
    Column {
        name: "maze_hash",
        get: Get::U64(|r| r.row.metrics.maze_hash),
        doc: "hash of the wall bits and size",
        filter: IDENTIFIER,
    },
    Column {
        name: "gen_ns",
        get: Get::U64(|r| r.row.gen_ns),
        doc: "time spent generating this maze, nanoseconds",
        filter: Filter::Refused("a timing and would make the accepted set non-reproducible"),
    },
    Column {
        name: "solution_decisions",
        get: Get::U32(|r| r.row.metrics.solution_decisions),
        doc: "solution cells with an opening off the path (where a wrong turn is possible)",
        filter: Filter::Number,
    },
    Column {
        name: "solution_branches",
        get: Get::U32(|r| r.row.metrics.solution_branches),
        doc: "the off-path openings of those cells, summed",
        filter: Filter::Number,
    },
    Column {
        name: "walk_steps",
        get: Get::OptU64(|r| (r.row.metrics.loops == 0).then_some(r.row.metrics.walk_steps)),
        doc: "expected steps of a random walk from the entrance to the exit (NULL when loops > 0)",
        filter: Filter::Number,
    },
    Column {
        name: "max_branch_cells",
        get: Get::U32(|r| r.row.metrics.max_branch_cells),
        doc: "cells of the biggest wrong turn off the solution",
        filter: Filter::Number,
    },
    Column {
        name: "max_branch_depth",
        get: Get::U32(|r| r.row.metrics.max_branch_depth),
        doc: "depth of the deepest wrong turn off the solution",
        filter: Filter::Number,
    },
    Column {
        name: "mean_dead_end_length",
        get: Get::F64(|r| r.row.metrics.mean_dead_end_length),
        doc: "mean distance from a dead end to the nearest junction",
        filter: Filter::Number,
    },
    Column {
        name: "tortuosity",
        get: Get::F64(|r| r.row.metrics.tortuosity),
        doc: "solution_length / Manhattan distance between entrance and exit",
        filter: Filter::Number,
    },
    Column {
        name: "mask_hash",
        get: Get::U64(|r| r.row.metrics.mask_hash),
        doc: "hash of the --mask the maze fills (0 without a mask); the metadata holds the mask",
        filter: IDENTIFIER,
    },
    Column {
        name: "cells",
        get: Get::U32(|r| r.row.metrics.cells),
        doc: "cells of the maze: the mask's cells, or width*height*depth without a mask",
        filter: Filter::Number,
    },
    Column {
        name: "braid",
        get: Get::F64(|r| r.row.metrics.braid),
        doc: "chance each dead end had of being opened (`--braid`; 0 for a perfect maze)",
        filter: Filter::Number,
    },
    Column {
        name: "loops",
        get: Get::U32(|r| r.row.metrics.loops),
        doc: "passages − cells + 1: independent loops (0 for a perfect maze)",
        filter: Filter::Number,
    },
    Column {
        name: "solution_count",
        get: Get::U64(|r| r.row.metrics.solution_count),
        doc: "distinct shortest entrance → exit paths (saturates at 2^64−1; exact in `--accept` up to 2^53)",
        filter: Filter::Number,
    },
    Column {
        name: "solution_twist",
        get: Get::F64(|r| solution_twist(r.row.metrics.solution_turns, r.row.metrics.solution_length)),
        doc: "solution_turns / (solution_length − 1): the share of the solution's inner cells where it turns",
        filter: Filter::Number,
    },
];

/// Twistiness of a solution of `length` edges with `turns` direction changes: the share of its
/// `length − 1` inner cells (where a turn can happen) at which it turns, from 0 (straight) to 1
/// (a turn at every inner cell); 0 when `length < 2` (no inner cell, and `turns` is 0). Computed
/// from the row's two columns, in doubles, exactly as SQL's `solution_turns / (solution_length
/// − 1)` divides.
#[inline]
pub fn solution_twist(turns: u32, length: u32) -> f64 {
    if length < 2 {
        0.0
    } else {
        turns as f64 / (length - 1) as f64
    }
}

/// The index in [`COLUMNS`] of the column named `name`.
pub fn column_index(name: &str) -> Option<usize> {
    COLUMNS.iter().position(|c| c.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_fit_a_u8() {
        assert!(COLUMNS.len() < u8::MAX as usize);
        for (i, c) in COLUMNS.iter().enumerate() {
            assert_eq!(column_index(c.name), Some(i), "{}", c.name);
            assert!(!c.doc.is_empty());
        }
        assert_eq!(
            column_index("depth"),
            Some(column_index("height").unwrap() + 1)
        );
    }

    #[test]
    fn accessors_read_the_right_fields() {
        let row = Row {
            index: 7,
            maze_seed: 8,
            gen_ns: 9,
            metrics: Metrics {
                dead_ends: 3,
                tortuosity: 1.5,
                ..Default::default()
            },
        };
        let v = RowView {
            algo: "wilson",
            grid: Grid::Square,
            size: Size::new(4, 5, 6),
            seed: 42,
            row: &row,
        };
        let at = |n: &str| v.column(column_index(n).unwrap() as u8);
        assert_eq!(
            [
                at("width"),
                at("height"),
                at("depth"),
                at("seed"),
                at("index")
            ],
            [4.0, 5.0, 6.0, 42.0, 7.0]
        );
        assert_eq!([at("maze_seed"), at("gen_ns")], [8.0, 9.0]);
        assert_eq!([at("dead_ends"), at("tortuosity")], [3.0, 1.5]);
        assert!(at("algo").is_nan());
    }

    #[test]
    fn twist_is_turns_per_inner_cell_of_the_solution() {
        assert_eq!(solution_twist(0, 0), 0.0);
        assert_eq!(solution_twist(0, 1), 0.0);
        assert_eq!(solution_twist(0, 9), 0.0);
        assert_eq!(solution_twist(4, 5), 1.0);
        assert_eq!(solution_twist(3, 7), 0.5);
        let row = Row {
            metrics: Metrics {
                solution_turns: 2,
                solution_length: 4,
                ..Default::default()
            },
            ..Default::default()
        };
        let v = RowView {
            algo: "wilson",
            grid: Grid::Square,
            size: Size::planar(3, 3),
            seed: 1,
            row: &row,
        };
        assert_eq!(
            v.column(column_index("solution_twist").unwrap() as u8),
            2.0 / 3.0
        );
    }
}
