//! The `tmx` format: one Tiled map (XML) per level, read by Tiled and by the importers of
//! Godot (YATI), Unity (SuperTiled2Unity), Defold, GameMaker and Bevy (bevy_ecs_tiled).
//!
//! An orthogonal map of `(2W+1) × (2H+1)` tiles of [`TILE_PX`] pixels using the default tileset
//! `batchgen-tiles.tsx` (written beside the maps, [`super::tileset`]) as its first tileset. Per
//! layer of depth (one for a 2D level): a tile layer (`maze`, or `z=K` in 3D) of the tile
//! picture ([`super::tile_layer`]: global id 1 wall, 2 floor, 3–5 stairs, 0 for no tile),
//! CSV-encoded, then an object layer (`objects`, or `objects z=K`) with the entrance and exit as
//! point objects (name and type `entrance`/`exit`, with the cell as `cell_x`, `cell_y`,
//! `cell_z` properties: `x` and `y` are the object's own pixel position) and the
//! solution as polylines through the cell centres (name and type `solution`). The map
//! properties are [`super::properties`]: the maze identity and its row's metrics.
//!
//! A hex level is a hexagonal map instead ([`super::map_shape`]): `W × H` tiles of
//! [`super::hex_tiles`] (`batchgen-hex-tiles.tsx`), orientation `hexagonal`, `staggeraxis="y"`,
//! `staggerindex="odd"`, `hexsidelength` 16, one tile per cell; the objects at the hexagons'
//! centres.

use std::fmt::Write;

use super::hex_tiles::{HEX_NAME, SIDE};
use super::tileset::{NAME, TILE_PX};
use super::{esc, layer_gids, layer_names, map_shape, objects, properties, Export, Property};

fn write_properties(s: &mut String, props: &[Property], indent: &str) {
    let _ = writeln!(s, "{indent}<properties>");
    for p in props {
        let kind = if p.kind == "string" {
            String::new()
        } else {
            format!(" type=\"{}\"", p.kind)
        };
        let _ = writeln!(
            s,
            "{indent} <property name=\"{}\"{kind} value=\"{}\"/>",
            esc(&p.name),
            esc(&p.value)
        );
    }
    let _ = writeln!(s, "{indent}</properties>");
}

/// The map of a level as TMX text.
pub fn map(e: &Export<'_>) -> String {
    let l = e.level;
    let shape = map_shape(l);
    let (cols, rows) = (shape.cols, shape.rows);
    let depth = l.depth();
    let mut s = String::new();
    let _ = writeln!(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let layers = 2 * depth;
    let mut next_object = 1;
    let mut body = String::new();
    for z in 0..depth {
        let (tiles, objs) = layer_names(l, z);
        let _ = writeln!(
            body,
            " <layer id=\"{}\" name=\"{}\" width=\"{cols}\" height=\"{rows}\">",
            2 * z + 1,
            esc(&tiles)
        );
        let _ = writeln!(body, "  <data encoding=\"csv\">");
        let layer = layer_gids(l, z);
        for (r, row) in layer.chunks(cols as usize).enumerate() {
            let line: Vec<String> = row.iter().map(|&t| t.to_string()).collect();
            let end = if r + 1 < rows as usize { "," } else { "" };
            let _ = writeln!(body, "{}{end}", line.join(","));
        }
        let _ = writeln!(body, "  </data>");
        let _ = writeln!(body, " </layer>");
        let _ = writeln!(
            body,
            " <objectgroup id=\"{}\" name=\"{}\" color=\"#dc0000\">",
            2 * z + 2,
            esc(&objs)
        );
        for o in objects(e, z, TILE_PX) {
            let _ = write!(
                body,
                "  <object id=\"{next_object}\" name=\"{0}\" type=\"{0}\" x=\"{1}\" y=\"{2}\">",
                o.name, o.x, o.y
            );
            next_object += 1;
            match (&o.polyline, o.cell) {
                (Some(points), _) => {
                    let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
                    let _ = writeln!(body, "<polyline points=\"{}\"/></object>", pts.join(" "));
                }
                (None, cell) => {
                    let _ = writeln!(body);
                    if let Some([x, y, z]) = cell {
                        let _ = writeln!(body, "   <properties>");
                        for (k, v) in [("cell_x", x), ("cell_y", y), ("cell_z", z)] {
                            let _ = writeln!(
                                body,
                                "    <property name=\"{k}\" type=\"int\" value=\"{v}\"/>"
                            );
                        }
                        let _ = writeln!(body, "   </properties>");
                    }
                    let _ = writeln!(body, "   <point/>\n  </object>");
                }
            }
        }
        let _ = writeln!(body, " </objectgroup>");
    }
    let (orientation, hex, tileset) = if shape.hex {
        (
            "hexagonal",
            format!(" hexsidelength=\"{SIDE}\" staggeraxis=\"y\" staggerindex=\"odd\""),
            HEX_NAME,
        )
    } else {
        ("orthogonal", String::new(), NAME)
    };
    let _ = writeln!(
        s,
        "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"{orientation}\" \
         renderorder=\"right-down\" width=\"{cols}\" height=\"{rows}\" tilewidth=\"{}\" \
         tileheight=\"{}\"{hex} infinite=\"0\" nextlayerid=\"{}\" nextobjectid=\"{next_object}\">",
        shape.tile_w,
        shape.tile_h,
        layers + 1
    );
    write_properties(&mut s, &properties(e), " ");
    let _ = writeln!(s, " <tileset firstgid=\"1\" source=\"{tileset}.tsx\"/>");
    s.push_str(&body);
    s.push_str("</map>\n");
    s
}
