//! Level exports: chosen levels (a [`Level`] and its metrics row, picked by [`crate::pick`])
//! written in the formats game engines and level tools read. One file per format: [`json`]
//! (a JSON document per level, its schema beside it), [`tmx`] and [`tmj`] (Tiled maps, XML
//! and JSON), [`tileset`] (the default tileset those maps use) and [`sheet`] (a contact sheet,
//! PNG or SVG). This file holds what they share: the tile picture of a level and the names.
//!
//! # The tile picture
//!
//! A level of `W × H` cells is drawn on a `(2W+1) × (2H+1)` grid of square tiles per layer of
//! depth (the wall grid of [`crate::render`]): cell `(x, y)` is tile `(2x+1, 2y+1)` (column,
//! row), the wall east of it `(2x+2, 2y+1)`, the wall south of it `(2x+1, 2y+2)`, and the
//! tiles with two even coordinates are posts. Each tile is one of [`Tile`]: a cell is
//! [`Tile::Floor`] (or a stairs tile in 3D, by the passages up and down it has), a wall tile is
//! [`Tile::Floor`] when the wall is open and [`Tile::Wall`] otherwise, a post is a wall. On a
//! mask, a hole cell is [`Tile::Empty`], and so is every wall or post tile that touches only
//! holes (or the border), so a masked level has the shape of its mask.
//!
//! A hex level is a Tiled hexagonal map instead: one tile per cell, the tile of its open sides
//! ([`hex_tiles`]); a hole of the mask is no tile. Triangle and polar levels have no Tiled map
//! (`batchgen levels` refuses them by name).

pub mod hex_tiles;
pub mod json;
pub mod sheet;
pub mod tileset;
pub mod tmj;
pub mod tmx;

use crate::grid::Dir;
use crate::level::Level;
use crate::pick::Value;

/// One tile of the picture; the value is its global tile id in the maps (the default tileset
/// is the maps' first, `firstgid = 1`), 0 for no tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Tile {
    /// No tile: a hole of the mask, or a wall or post touching only holes.
    Empty = 0,
    /// A wall or post.
    Wall = 1,
    /// A cell, or an open wall between two cells.
    Floor = 2,
    /// A cell with a passage up only (3D).
    Up = 3,
    /// A cell with a passage down only (3D).
    Down = 4,
    /// A cell with passages up and down (3D).
    UpDown = 5,
}

/// A level with its metrics row: what every exporter writes.
#[derive(Clone, Copy, Debug)]
pub struct Export<'a> {
    /// The level, made again and checked against its row.
    pub level: &'a Level,
    /// Every column of its row (name, value), in the file's column order.
    pub row: &'a [(String, Value)],
}

/// The tile picture of layer `z` of `level`: `(2W+1)·(2H+1)` tiles, row by row.
pub fn tile_layer(level: &Level, z: u32) -> Vec<Tile> {
    let (w, h) = (level.width(), level.height());
    let (cols, rows) = (2 * w + 1, 2 * h + 1);
    let maze = level.maze();
    let size = level.size();
    // Is (x, y) (possibly outside the grid) a cell of the maze?
    let is_cell = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as u32) < w
            && (y as u32) < h
            && maze.has_cell(size.cell(x as u32, y as u32, z))
    };
    let mut out = Vec::with_capacity((cols * rows) as usize);
    for r in 0..rows {
        for c in 0..cols {
            let (x, y) = (c as i64 / 2, r as i64 / 2);
            let t = match (c % 2, r % 2) {
                (1, 1) => {
                    if !is_cell(x, y) {
                        Tile::Empty
                    } else {
                        let (ux, uy) = (x as u32, y as u32);
                        let up = z > 0 && level.can_move_at(ux, uy, z, Dir::Up);
                        let down = z + 1 < size.depth && level.can_move_at(ux, uy, z, Dir::Down);
                        match (up, down) {
                            (false, false) => Tile::Floor,
                            (true, false) => Tile::Up,
                            (false, true) => Tile::Down,
                            (true, true) => Tile::UpDown,
                        }
                    }
                }
                (0, 1) => {
                    // The wall between (x-1, y) and (x, y).
                    let (a, b) = (is_cell(x - 1, y), is_cell(x, y));
                    if a && b && level.can_move_at(x as u32 - 1, y as u32, z, Dir::East) {
                        Tile::Floor
                    } else if a || b {
                        Tile::Wall
                    } else {
                        Tile::Empty
                    }
                }
                (1, 0) => {
                    // The wall between (x, y-1) and (x, y).
                    let (a, b) = (is_cell(x, y - 1), is_cell(x, y));
                    if a && b && level.can_move_at(x as u32, y as u32 - 1, z, Dir::South) {
                        Tile::Floor
                    } else if a || b {
                        Tile::Wall
                    } else {
                        Tile::Empty
                    }
                }
                _ => {
                    let any = is_cell(x - 1, y - 1)
                        || is_cell(x, y - 1)
                        || is_cell(x - 1, y)
                        || is_cell(x, y);
                    if any {
                        Tile::Wall
                    } else {
                        Tile::Empty
                    }
                }
            };
            out.push(t);
        }
    }
    out
}

/// The tile grid of a level's Tiled map: its size in tiles, the tile size in pixels and
/// whether it is a hexagonal map (a hex level) or an orthogonal one (a square level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapShape {
    /// Tiles across.
    pub cols: u32,
    /// Tiles down.
    pub rows: u32,
    /// Tile width, pixels.
    pub tile_w: u32,
    /// Tile height, pixels.
    pub tile_h: u32,
    /// A hexagonal map (stagger axis `y`, stagger index `odd`, side [`hex_tiles::SIDE`]).
    pub hex: bool,
}

/// The [`MapShape`] of a level (square or hex).
pub fn map_shape(level: &Level) -> MapShape {
    if level.grid() == crate::topo::Grid::Hex {
        MapShape {
            cols: level.width(),
            rows: level.height(),
            tile_w: hex_tiles::TILE_W,
            tile_h: hex_tiles::TILE_H,
            hex: true,
        }
    } else {
        let t = tileset::TILE_PX;
        MapShape {
            cols: 2 * level.width() + 1,
            rows: 2 * level.height() + 1,
            tile_w: t,
            tile_h: t,
            hex: false,
        }
    }
}

/// The global tile ids of tile layer `z` of a level's map, row by row: the tile picture
/// ([`tile_layer`]) of a square level; one tile per cell of a hex level (the tile of its open
/// sides, [`hex_tiles::gid`]; 0 for a hole of the mask).
pub fn layer_gids(level: &Level, z: u32) -> Vec<u32> {
    match level.graph() {
        None => tile_layer(level, z).into_iter().map(|t| t as u32).collect(),
        Some(g) => (0..g.len())
            .map(|c| {
                if !g.has_cell(c) {
                    return 0;
                }
                let open = level
                    .neighbours(c)
                    .into_iter()
                    .filter(|n| n.2)
                    .fold(0, |bits, n| bits | 1 << n.1);
                hex_tiles::gid(open)
            })
            .collect(),
    }
}

/// The file name (without extension) of a level in a folder of per-level files:
/// `ALGO-WxH[xD]-INDEX` (another grid: `ALGO-GRID-SIZE-INDEX`, e.g. `wilson-hex-8x8-3`), any character of the generator's name but letters, digits, `.`, `-`
/// and `_` written as `_` (`wilson-straight:0.5` → `wilson-straight_0.5`).
pub fn file_stem(level: &Level) -> String {
    let algo: String = level
        .algo()
        .to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match level.graph() {
        None => format!("{algo}-{}-{}", level.size(), level.index()),
        Some(g) => format!("{algo}-{}-{}-{}", level.grid(), g.size(), level.index()),
    }
}

/// Columns whose 64-bit values are written as decimal strings (JSON numbers and Tiled's `int`
/// properties do not hold every 64-bit value exactly).
pub const WIDE_COLUMNS: [&str; 4] = ["seed", "maze_seed", "maze_hash", "mask_hash"];

/// A row value as JSON: [`WIDE_COLUMNS`] as strings, NaN and infinities as `null`.
pub fn json_value(name: &str, v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::Null => J::Null,
        Value::Unsigned(u) if WIDE_COLUMNS.contains(&name) => J::String(u.to_string()),
        Value::Unsigned(u) => J::from(*u),
        Value::Signed(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Text(s) => J::String(s.clone()),
    }
}

/// XML text with `&`, `<`, `>` and `"` escaped.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The cell coordinates `[x, y, z]` of cell id `cell`.
pub fn xyz(level: &Level, cell: u32) -> [u32; 3] {
    let (x, y, z) = level.xyz(cell);
    [x, y, z]
}

/// A map property of the Tiled formats: name, Tiled type (`string`, `int`, `float`) and value
/// as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    /// The name.
    pub name: String,
    /// `string`, `int` or `float`.
    pub kind: &'static str,
    /// The value as text.
    pub value: String,
}

impl Property {
    fn text(name: &str, value: impl ToString) -> Property {
        Property {
            name: name.to_string(),
            kind: "string",
            value: value.to_string(),
        }
    }

    /// A property of a row value: integers that fit Tiled's 32-bit `int` as `int`, wider ones
    /// (and [`WIDE_COLUMNS`]) as `string`, floats as `float` (NaN and infinities as `string`),
    /// NULL as an empty `string`.
    fn of(name: &str, v: &Value) -> Property {
        let int = |text: String| Property {
            name: name.to_string(),
            kind: "int",
            value: text,
        };
        match v {
            Value::Unsigned(u) if *u <= i32::MAX as u64 && !WIDE_COLUMNS.contains(&name) => {
                int(u.to_string())
            }
            Value::Signed(i) if i32::try_from(*i).is_ok() => int(i.to_string()),
            Value::Unsigned(u) => Property::text(name, u),
            Value::Signed(i) => Property::text(name, i),
            Value::Float(f) if f.is_finite() => Property {
                name: name.to_string(),
                kind: "float",
                value: f.to_string(),
            },
            Value::Float(f) => Property::text(name, f),
            Value::Text(s) => Property::text(name, s),
            Value::Null => Property::text(name, ""),
        }
    }
}

/// The row columns a Tiled map names otherwise: the grid size is `maze_width`, `maze_height`,
/// `maze_depth` (a map's own `width` and `height` are in tiles, and readers such as pytmx
/// refuse a property named like an attribute).
const RENAMED: [(&str, &str); 3] = [
    ("width", "maze_width"),
    ("height", "maze_height"),
    ("depth", "maze_depth"),
];

/// The map properties of a level: `id` (the maze identity as [`crate::MazeId`] prints it),
/// `ends_rule`, then every column of its row by name (`width`, `height`, `depth` as
/// `maze_width`, `maze_height`, `maze_depth`): integers that fit Tiled's 32-bit `int` as
/// `int`, wider ones as `string`, floats as `float` (NaN and infinities as `string`), NULL as
/// an empty `string`.
pub fn properties(e: &Export<'_>) -> Vec<Property> {
    let id = e.level.id();
    let rule = match e.level.grid() {
        crate::topo::Grid::Square => id.ends.rule(e.level.size()),
        g => crate::maze_id::grid_ends_rule(id.ends, g),
    };
    let mut out = vec![Property::text("id", id), Property::text("ends_rule", rule)];
    for (name, v) in e.row {
        let name = RENAMED
            .iter()
            .find(|r| r.0 == name)
            .map_or(name.as_str(), |r| r.1);
        out.push(Property::of(name, v));
    }
    out
}

/// An object of a map's object layer, in pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct MapObject {
    /// `entrance`, `exit` or `solution`.
    pub name: &'static str,
    /// Position (a point's, or a polyline's first point).
    pub x: f64,
    /// Position.
    pub y: f64,
    /// A polyline's points relative to (x, y); `None` for a point object.
    pub polyline: Option<Vec<(f64, f64)>>,
    /// The cell, for a point object.
    pub cell: Option<[u32; 3]>,
}

/// The pixel centre of cell `(x, y)` in a map of `tile`-pixel tiles.
pub fn centre(x: u32, y: u32, tile: u32) -> (f64, f64) {
    let t = tile as f64;
    (
        (2 * x + 1) as f64 * t + t / 2.0,
        (2 * y + 1) as f64 * t + t / 2.0,
    )
}

/// The objects of layer `z`: the entrance and exit points (if on that layer) and the solution
/// as one polyline through the centres of its cells per run of consecutive cells on the layer
/// (a hex level: the centres of its hexagons, [`hex_tiles::centre`]).
pub fn objects(e: &Export<'_>, z: u32, tile: u32) -> Vec<MapObject> {
    let l = e.level;
    let hex = l.grid() == crate::topo::Grid::Hex;
    let centre = |x: u32, y: u32, tile: u32| {
        if hex {
            hex_tiles::centre(x, y)
        } else {
            centre(x, y, tile)
        }
    };
    let mut out = Vec::new();
    for (name, cell) in [("entrance", l.entrance()), ("exit", l.exit())] {
        let c = xyz(l, cell);
        if c[2] == z {
            let (x, y) = centre(c[0], c[1], tile);
            out.push(MapObject {
                name,
                x,
                y,
                polyline: None,
                cell: Some(c),
            });
        }
    }
    let mut run: Vec<(f64, f64)> = Vec::new();
    let flush = |run: &mut Vec<(f64, f64)>, out: &mut Vec<MapObject>| {
        if let Some(&(x0, y0)) = run.first() {
            out.push(MapObject {
                name: "solution",
                x: x0,
                y: y0,
                polyline: Some(run.iter().map(|&(x, y)| (x - x0, y - y0)).collect()),
                cell: None,
            });
        }
        run.clear();
    };
    for &cell in l.solution() {
        let c = xyz(l, cell);
        if c[2] == z {
            run.push(centre(c[0], c[1], tile));
        } else {
            flush(&mut run, &mut out);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// The name of tile layer `z` (`maze` for a 2D level, `z=K` per layer of a 3D one) and of its
/// object layer (`objects`, `objects z=K`).
pub fn layer_names(level: &Level, z: u32) -> (String, String) {
    if level.depth() == 1 {
        ("maze".into(), "objects".into())
    } else {
        (format!("z={z}"), format!("objects z={z}"))
    }
}
