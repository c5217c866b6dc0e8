//! The `json` and `jsonl` level formats: one JSON document per level (`json`: one file per
//! level; `jsonl`: one document per line of one file). The schema is `level.schema.json`
//! beside this file (JSON Schema draft 2020-12); [`SCHEMA`] holds it.
//!
//! A document, members in this order:
//!
//! - `format` (`"batchgen-level"`), `format_version` (1);
//! - `id`: the maze identity as [`crate::MazeId`] prints it (it parses back);
//! - `algo`, `width`, `height`, `depth`, `seed`, `index`, `mask_hash`, `braid`, `ends_rule`,
//!   `maze_hash`: the identity, with the 64-bit `seed`, `mask_hash` and `maze_hash` as decimal
//!   strings (a JSON number does not hold every 64-bit value in most readers);
//! - `cells`: the walls as a cell grid `cells[z][y][x]` (a 2D level has one layer), each cell a
//!   number whose bits say where it is open: 1 east (x+1), 2 south (y+1), 4 west (x−1),
//!   8 north (y−1), 16 down (z+1), 32 up (z−1); `null` for a hole of the mask. A passage is
//!   set on both of its cells;
//! - `entrance`, `exit`: `[x, y, z]`; `solution`: the path from entrance to exit as `[x, y, z]`
//!   cells, both ends included (`solution_length + 1` cells);
//! - `metrics`: every column of the level's row, by name, in the file's column order (the
//!   64-bit columns `seed`, `maze_seed`, `maze_hash`, `mask_hash` as strings; NaN as `null`).
//!
//! A level on a hex, triangle or polar grid (layouts in `src/topo/README.md`) has the same
//! members and one more, `grid` (`"hex"`, `"triangle"` or `"polar"`, after `id`); `width` and
//! `height` are the row's (for polar the rings and the cells of the first ring), `depth` is 1,
//! and the cells are a neighbour list ([`graph_cells`]):
//!
//! - `cells[id]` for every cell id of the grid: `null` for a hole of the mask, else
//!   `{"at": [x, y], "neighbours": [{"cell": n, "dir": d, "open": true|false}, …]}`, the
//!   neighbours in the grid's direction order with the grid's direction labels (hex E 0, SE 1,
//!   SW 2, W 3, NW 4, NE 5; triangle E 0, S 1, W 2, N 3; polar clockwise 0, outward 1,
//!   counter-clockwise 2, inward 3, a polar cell listing each of its outward neighbours).
//!   `at` is `(x, y)` on hex and triangle grids and `(i, r)` on a polar grid (the index in the
//!   ring, the ring; the centre is `[0, 0]`). A passage is open on both of its cells;
//! - `entrance`, `exit` and the `solution`'s steps are cell ids.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::{json_value, xyz, Export};
use crate::grid::Dir;

/// The JSON Schema every document validates against.
pub const SCHEMA: &str = include_str!("level.schema.json");

/// The open bits of the cell grid, in the order of [`Dir`] (east 1, south 2, west 4, north 8,
/// down 16, up 32).
pub const BITS: [(Dir, u32); 6] = [
    (Dir::East, 1),
    (Dir::South, 2),
    (Dir::West, 4),
    (Dir::North, 8),
    (Dir::Down, 16),
    (Dir::Up, 32),
];

/// The row's columns as a JSON object in column order.
struct Metrics<'a>(&'a [(String, crate::pick::Value)]);

impl Serialize for Metrics<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, &json_value(k, v))?;
        }
        m.end()
    }
}

/// One cell of a neighbour list (see the module docs).
#[derive(serde::Serialize)]
pub struct GraphCell {
    /// `[x, y]`, polar `[i, r]`.
    pub at: [u32; 2],
    /// The cell's neighbours in direction order.
    pub neighbours: Vec<Neighbour>,
}

/// A neighbour of a [`GraphCell`].
#[derive(serde::Serialize)]
pub struct Neighbour {
    /// Its cell id.
    pub cell: u32,
    /// The direction label of the step to it.
    pub dir: u8,
    /// Is the wall between them open?
    pub open: bool,
}

/// The neighbour list of a level on a grid other than the square one (`cells[id]`, `None` for
/// a hole of the mask); empty for a square level.
pub fn graph_cells(e: &Export<'_>) -> Vec<Option<GraphCell>> {
    let l = e.level;
    let Some(g) = l.graph() else {
        return Vec::new();
    };
    (0..g.len())
        .map(|c| {
            g.has_cell(c).then(|| {
                let (x, y) = l.xy(c);
                GraphCell {
                    at: [x, y],
                    neighbours: l
                        .neighbours(c)
                        .into_iter()
                        .map(|(cell, dir, open)| Neighbour { cell, dir, open })
                        .collect(),
                }
            })
        })
        .collect()
}

/// The document of a level on a grid other than the square one.
#[derive(serde::Serialize)]
struct GraphDoc<'a> {
    format: &'static str,
    format_version: u32,
    id: String,
    grid: &'static str,
    algo: String,
    width: u32,
    height: u32,
    depth: u32,
    seed: String,
    index: u64,
    mask_hash: String,
    braid: f64,
    ends_rule: String,
    maze_hash: String,
    cells: Vec<Option<GraphCell>>,
    entrance: u32,
    exit: u32,
    solution: &'a [u32],
    metrics: Metrics<'a>,
}

#[derive(serde::Serialize)]
struct Doc<'a> {
    format: &'static str,
    format_version: u32,
    id: String,
    algo: String,
    width: u32,
    height: u32,
    depth: u32,
    seed: String,
    index: u64,
    mask_hash: String,
    braid: f64,
    ends_rule: String,
    maze_hash: String,
    cells: Vec<Vec<Vec<Option<u32>>>>,
    entrance: [u32; 3],
    exit: [u32; 3],
    solution: Vec<[u32; 3]>,
    metrics: Metrics<'a>,
}

/// The cell grid `cells[z][y][x]` of a level (see the module docs).
pub fn cells(e: &Export<'_>) -> Vec<Vec<Vec<Option<u32>>>> {
    let l = e.level;
    let size = l.size();
    (0..size.depth)
        .map(|z| {
            (0..size.height)
                .map(|y| {
                    (0..size.width)
                        .map(|x| {
                            l.maze().has_cell(size.cell(x, y, z)).then(|| {
                                BITS.iter()
                                    .filter(|(d, _)| {
                                        let inside = match d {
                                            Dir::Down => z + 1 < size.depth,
                                            Dir::Up => z > 0,
                                            _ => true,
                                        };
                                        inside && l.can_move_at(x, y, z, *d)
                                    })
                                    .map(|(_, b)| b)
                                    .sum()
                            })
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The JSON document of a level, on one line.
pub fn document(e: &Export<'_>) -> String {
    let l = e.level;
    let id = l.id();
    if l.graph().is_some() {
        let doc = GraphDoc {
            format: "batchgen-level",
            format_version: 1,
            id: id.to_string(),
            grid: l.grid().name(),
            algo: l.algo().to_string(),
            width: l.width(),
            height: l.height(),
            depth: 1,
            seed: l.seed().to_string(),
            index: l.index(),
            mask_hash: id.mask_hash.to_string(),
            braid: l.braid(),
            ends_rule: crate::maze_id::grid_ends_rule(id.ends, l.grid()),
            maze_hash: l.maze_hash().to_string(),
            cells: graph_cells(e),
            entrance: l.entrance(),
            exit: l.exit(),
            solution: l.solution(),
            metrics: Metrics(e.row),
        };
        return serde_json::to_string(&doc).expect("a level serialises");
    }
    // The ends as cells: the id reproduces this maze and this solution whatever the file's rule.
    let doc = Doc {
        format: "batchgen-level",
        format_version: 1,
        id: id.to_string(),
        algo: l.algo().to_string(),
        width: l.width(),
        height: l.height(),
        depth: l.depth(),
        seed: l.seed().to_string(),
        index: l.index(),
        mask_hash: id.mask_hash.to_string(),
        braid: l.braid(),
        ends_rule: id.ends.rule(l.size()),
        maze_hash: l.maze().hash().to_string(),
        cells: cells(e),
        entrance: xyz(l, l.entrance()),
        exit: xyz(l, l.exit()),
        solution: l.solution().iter().map(|&c| xyz(l, c)).collect(),
        metrics: Metrics(e.row),
    };
    serde_json::to_string(&doc).expect("a level serialises")
}
