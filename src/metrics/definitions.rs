//! The exact definition of every output column, and the Markdown page generated from them.
//!
//! [`COLUMNS`] holds each column's name, type, one-line meaning and filter rule; the longer
//! definitions and edge cases live here, keyed by column name, so the column table stays one
//! line per column. [`columns_page`] renders both as the reference page
//! `src/metrics/columns.md`; a test checks that the page equals what this module generates and
//! that every column of [`COLUMNS`] has a definition. Lengths count edges (passages), not
//! cells; a cell id is `x + width·(y + height·z)`, which is `y·width + x` in 2D.

use super::row::{Column, Filter, Get, COLUMNS};

/// Exact definitions and edge cases, keyed by column name (in [`COLUMNS`] order).
pub const DEFINITIONS: &[(&str, &str)] = &[
    ("algo", "The generator that made the maze, by its canonical name, parameters included (`wilson-straight:0.7`, `growing-tree:mix:0.5`); `--algo` reads the same name back."),
    ("width", "Cells along x."),
    ("height", "Cells along y."),
    ("depth", "Layers along z: 1 for a 2D maze (`--size WxH`), D for `--size WxHxD`."),
    ("seed", "The run's master seed (`--seed`, default 42), the same on every row of a run."),
    ("index", "The maze's number within (algo, size, seed), from 0. With `--accept` the accepted mazes keep the index of their candidate, so the numbers have gaps. With `--shard K/N` each file holds its slice of `0..count`."),
    ("maze_seed", "The maze's own seed, derived from (seed, algo, width, height, index) by the seeding scheme (see the crate documentation); 3D sizes add the depth. The maze is a function of it."),
    ("dead_ends", "Cells with exactly one passage. A 1×1 maze has none (its only cell has no passage)."),
    ("dead_end_share", "`dead_ends / cells`, cells = width·height·depth; 0 for a 1×1 maze."),
    ("diameter", "The longest shortest path between two cells, in edges: on a tree, the longest path. 0 for a 1×1 maze."),
    ("diameter_start", "Cell id of one end of a farthest pair (a maze may have several; this is one of them; with `--ends diameter` it is the entrance). The id is `x + width·(y + height·z)`: `y·width + x` in 2D. 0 for a 1×1 maze."),
    ("diameter_end", "Cell id of the other end of that pair: its distance from `diameter_start` is `diameter` (with `--ends diameter` it is the exit). Same numbering as `diameter_start`."),
    ("solution_length", "Distance in edges from the entrance to the exit: by default the first and the last cell (top-left; bottom-right of the bottom layer in 3D), or `--entrance`/`--exit`, or `--ends diameter` (then it equals `diameter`). 0 when entrance = exit."),
    ("junctions", "Cells with three or more passages (up to 4 in 2D, 6 in 3D)."),
    ("corridors", "Cells with exactly two passages. `dead_ends + corridors + junctions = cells` except on a 1×1 grid."),
    ("straights", "Corridors whose two passages are on opposite sides: east+west or north+south, and up+down in 3D."),
    ("solution_turns", "Direction changes along the entrance → exit path; a vertical step in 3D is a direction like the others. 0 when the solution has fewer than two edges."),
    ("maze_hash", "A 64-bit hash of the wall bits and the size: equal mazes have equal hashes, so `GROUP BY maze_hash` finds duplicates. Not filterable (not exact in a double)."),
    ("gen_ns", "Time spent in the generator for this maze, in nanoseconds (not the metrics or the writing); where a worker makes two mazes at once (Aldous–Broder, Prim, the backtracker and hunt-and-kill on a 2D square grid; the backtracker, hunt-and-kill, Kruskal and Prim on the hex, triangle and polar grids, and Aldous–Broder and Wilson on the triangle grid), each gets half the pair's time. The one column that differs between two runs of the same command; not filterable, so a filter stays reproducible."),
    ("solution_decisions", "Cells of the solution path, entrance included and exit excluded, with at least one open side leading off the path: where a wrong turn is possible. 0 when entrance = exit; never more than `solution_length`."),
    ("solution_branches", "The off-path openings of those cells, summed (a cell with two side passages counts 2). At least `solution_decisions`."),
    ("walk_steps", "The exact expected number of steps of an unbiased random walk (each step to a uniformly chosen open neighbour) from the entrance until it first reaches the exit. On a tree it is Σ (2·|T_u| − 1) over the solution's edges u → v, T_u being the part of the maze on u's side of that edge: an integer, 0 when entrance = exit, below 2·cells² (exact in a double). NULL on a maze with loops (`loops > 0`), where the hitting time is not an integer."),
    ("max_branch_cells", "Over every opening off the solution (at the cells counted by `solution_decisions`), the most cells reachable through one opening without returning to the path: the biggest wrong turn. 0 if there is none."),
    ("max_branch_depth", "Over the same openings, the farthest distance from the path cell into the branch: the deepest wrong turn. 0 if there is none."),
    ("mean_dead_end_length", "Mean over dead ends of the distance to the nearest junction (a cell with three or more passages), Pullen's \"river\": high means fewer, longer dead ends. The walk from a dead end through two-passage cells is forced and stops at the first cell that does not have two passages; in a maze without junctions (one corridor) that is the other dead end, so the value is cells − 1. 0 with no dead end (1×1)."),
    ("tortuosity", "`solution_length` divided by the Manhattan distance between entrance and exit (the 3D one on a 3D grid): at least 1, and 1 for a straight or staircase path. 1 when entrance = exit."),
    ("mask_hash", "The `--mask` the maze fills, as a 64-bit hash of the mask's size and cells (never 0); 0 for a maze without a mask. The file's metadata key `batchgen.mask` holds the mask itself as text (`.` a cell, `#` a hole). Every metric of a masked maze is over the mask's cells."),
    ("cells", "Cells of the maze: the mask's cells with `--mask`, otherwise width × height × depth. The denominator of `dead_end_share`."),
    ("braid", "The `--braid P` chance the maze was made with: each dead end of the perfect maze, visited in a random order from a stream derived from `maze_seed`, had chance P of getting one more wall opened, towards a neighbour that is itself a dead end when there is one (Buck's method). 0 for a perfect maze; the perfect maze under the loops is the one without `--braid`."),
    ("loops", "Passages − cells + 1, the cyclomatic number: the independent loops of the maze, equal to the walls the braid pass opened. 0 for a perfect maze. On a maze with loops the shortest-path columns are BFS distances, `solution_turns`, `solution_decisions` and `solution_branches` are taken along the canonical shortest path (first-discoverer BFS parents, neighbours in the order east, south, west, north, down, up), `diameter` is exact on the graph (eccentricity bounds with iFUB's fringe stop) and `walk_steps` is NULL."),
    ("solution_count", "The number of distinct shortest entrance → exit paths, saturating at 2^64−1; 1 on a perfect maze. `--accept` compares it as a double, exact up to 2^53 and rounded to the nearest double above (as DuckDB compares a UBIGINT with a DOUBLE)."),
    ("solution_twist", "How twisty the solution is: `solution_turns / (solution_length − 1)`, the share of the solution's inner cells (every cell of the path but the entrance and the exit, where a turn can happen) at which the path changes direction, as a double. 0 for a straight path, 1 for a path that turns at every inner cell (a staircase); independent of the length, so it compares mazes of any size. 0 when `solution_length < 2` (no inner cell; `solution_turns` is 0 then). It follows `solution_turns`: a vertical step in 3D is a direction like the others, and on a maze with loops it is taken along the canonical shortest path. Never NULL; SQL gets the same double from `CASE WHEN solution_length > 1 THEN solution_turns / (solution_length - 1) ELSE 0 END`."),
];

/// The definition of the column named `name`, if it has one.
pub fn definition(name: &str) -> Option<&'static str> {
    DEFINITIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, d)| *d)
}

/// The column's type as Parquet readers (DuckDB, pandas) show it.
fn type_name(column: &Column) -> &'static str {
    match column.get {
        Get::Algo => "string (dictionary)",
        Get::U32(_) => "uint32",
        Get::U64(_) => "uint64",
        Get::OptU64(_) => "uint64 (nullable)",
        Get::F64(_) => "float64",
    }
}

/// Whether `--accept` may use the column, as the table shows it.
fn filter_name(column: &Column) -> &'static str {
    match column.filter {
        Filter::Number => "yes",
        Filter::Text => "yes (text)",
        Filter::Refused(_) => "no",
    }
}

/// The reference page of the output's columns: one Markdown table row per column of
/// [`COLUMNS`], in Parquet order, with its type, its one-line meaning, its exact definition
/// (from [`DEFINITIONS`]; "(not written yet)" when missing) and whether `--accept` may use it.
pub fn columns_page() -> String {
    let mut page = String::from(
        "# The columns of a metrics file\n\n\
         One row per maze, in this order. Lengths count edges (passages), not cells; a cell id \
         is `x + width·(y + height·z)`, `y·width + x` in 2D. This page is generated from \
         `metrics::COLUMNS` and `metrics::definitions` (`src/metrics/row.rs`, \
         `src/metrics/definitions.rs`); `tests/docs.rs` checks that it is current \
         (`BATCHGEN_BLESS=1 cargo test --release --test tests -- docs::` rewrites it).\n\n\
         | column | type | meaning | exact definition and edge cases | `--accept` |\n\
         |---|---|---|---|---|\n",
    );
    for c in COLUMNS.iter() {
        let def = definition(c.name).unwrap_or("(not written yet)");
        page.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            c.name,
            type_name(c),
            escape(c.doc),
            escape(def),
            filter_name(c)
        ));
    }
    page.push_str(
        "\nThe difficulty columns (`solution_decisions` … `tortuosity`) follow the entrance/exit \
         rule, like `solution_length`. The file's key-value metadata records \
         `batchgen.version`, `batchgen.seeding_scheme`, `batchgen.rng`, `batchgen.ends` (the \
         entrance/exit rule), `batchgen.command_line`, the size, seed and count, and with \
         `--accept` the filter and each generator's candidates, accepted count and acceptance \
         rate.\n",
    );
    page.push_str(crate::topo::measure::COLUMNS_SECTION);
    page.push_str(
        "\nThe `grid` column filters like `algo` (`--accept \"grid = 'hex'\"`, \
         `grid IN ('hex', 'triangle')`, in `batchgen generate`, `summary`, `levels`, `plot` and \
         the explorer); a square file's rows are `square` there, as DuckDB reads them with \
         `coalesce(grid, 'square')` over `read_parquet(…, union_by_name = true)`. A name that is \
         no grid selects nothing, as a name that is no generator does.\n",
    );
    page
}

/// A table cell's text: `|` would end the cell.
fn escape(text: &str) -> String {
    text.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_name_real_columns_once() {
        for (i, (name, def)) in DEFINITIONS.iter().enumerate() {
            assert!(
                COLUMNS.iter().any(|c| c.name == *name),
                "{name} is not a column"
            );
            assert!(!def.is_empty());
            assert!(
                DEFINITIONS[..i].iter().all(|(n, _)| n != name),
                "{name} twice"
            );
        }
    }
}
