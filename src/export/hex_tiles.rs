//! The hex tileset of the Tiled maps of hex levels: pointy-top hexagon tiles of [`TILE_W`] ×
//! [`TILE_H`] pixels (side [`SIDE`]), one per set of open sides, so a hex maze is a Tiled
//! hexagonal map with one tile per cell (orientation `hexagonal`, stagger axis `y`, stagger
//! index `odd`: the "odd-r" layout of `src/topo/README.md`). Tile id `k` (global id `k + 1` in
//! the maps, the tileset being their first) is the cell whose open sides are the set bits of
//! `k`: E 1, SE 2, SW 4, W 8, NW 16, NE 32 (bit `d` for direction label `d`). A closed side is
//! a wall band [`WALL_PX`] pixels deep along the side, and each corner is a wall post; outside
//! the hexagon a tile is transparent. The image ([`HEX_NAME`]`.png`, 8 tiles a row, RGBA) and
//! its descriptions ([`HEX_NAME`]`.tsx`, `.tsj`) are written beside the maps.

use super::tileset::{FLOOR, WALL};

/// Width of a tile (the hexagon's width, corner to corner across its vertical sides), pixels.
pub const TILE_W: u32 = 28;
/// Height of a tile (vertex to vertex), pixels.
pub const TILE_H: u32 = 32;
/// Length of the vertical sides (Tiled's `hexsidelength`), pixels.
pub const SIDE: u32 = 16;
/// Vertical distance between rows, pixels: `(TILE_H + SIDE) / 2`.
pub const ROW_STEP: u32 = (TILE_H + SIDE) / 2;
/// Depth of a wall band, pixels.
pub const WALL_PX: f64 = 3.5;
/// The tileset's file name without extension.
pub const HEX_NAME: &str = "batchgen-hex-tiles";
/// Tiles: one per set of open sides.
pub const COUNT: u32 = 64;
/// Tiles per row of the image.
const COLUMNS: u32 = 8;

/// The hexagon's corners in a tile, clockwise from the top; side `d` (direction label `d`:
/// E 0, SE 1, SW 2, W 3, NW 4, NE 5) runs from corner `(d + 1) % 6` to corner `(d + 2) % 6`.
pub const CORNERS: [(f64, f64); 6] = [
    (14.0, 0.0),
    (28.0, 8.0),
    (28.0, 24.0),
    (14.0, 32.0),
    (0.0, 24.0),
    (0.0, 8.0),
];

/// The two corners of side `d`.
pub fn side(d: usize) -> ((f64, f64), (f64, f64)) {
    (CORNERS[(d + 1) % 6], CORNERS[(d + 2) % 6])
}

/// The distance of `p` inside side `d`'s line (negative: outside the hexagon on that side).
fn inside(d: usize, p: (f64, f64)) -> f64 {
    let ((ax, ay), (bx, by)) = side(d);
    let (ex, ey) = (bx - ax, by - ay);
    // Clockwise corners on a y-down screen: the inside is where this cross product is positive.
    (ex * (p.1 - ay) - ey * (p.0 - ax)) / (ex * ex + ey * ey).sqrt()
}

/// The colour of pixel `(x, y)` of tile `open` (bits of the open sides), RGBA.
pub fn pixel(open: u32, x: u32, y: u32) -> [u8; 4] {
    let p = (x as f64 + 0.5, y as f64 + 0.5);
    let dist: Vec<f64> = (0..6).map(|d| inside(d, p)).collect();
    if dist.iter().any(|&v| v < 0.0) {
        return [0, 0, 0, 0];
    }
    let post = CORNERS
        .iter()
        .any(|&(cx, cy)| ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt() < WALL_PX + 1.0);
    let wall = (0..6).any(|d| open >> d & 1 == 0 && dist[d] < WALL_PX);
    let [r, g, b] = if post || wall { WALL } else { FLOOR };
    [r, g, b, 255]
}

/// The global tile id of a cell with open sides `open` (bits by direction label).
pub fn gid(open: u32) -> u32 {
    open + 1
}

/// The pixel position of the top-left corner of tile `(x, y)` in a hexagonal map.
pub fn origin(x: u32, y: u32) -> (f64, f64) {
    let shift = if y % 2 == 1 { TILE_W / 2 } else { 0 };
    ((x * TILE_W + shift) as f64, (y * ROW_STEP) as f64)
}

/// The pixel centre of cell `(x, y)` in a hexagonal map.
pub fn centre(x: u32, y: u32) -> (f64, f64) {
    let (ox, oy) = origin(x, y);
    (ox + TILE_W as f64 / 2.0, oy + TILE_H as f64 / 2.0)
}

/// The tileset image: tile `k` at column `k % 8`, row `k / 8`; RGBA PNG.
pub fn png() -> Vec<u8> {
    let rows = COUNT / COLUMNS;
    let (w, h) = (TILE_W * COLUMNS, TILE_H * rows);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let k = (y / TILE_H) * COLUMNS + x / TILE_W;
            rgba.extend_from_slice(&pixel(k, x % TILE_W, y % TILE_H));
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().expect("writing to memory");
        wr.write_image_data(&rgba).expect("writing to memory");
    }
    out
}

/// The class of tile `k`: `hex-open-` and its open sides' names (`hex-open-none` for none).
fn class(k: u32) -> String {
    const NAMES: [&str; 6] = ["e", "se", "sw", "w", "nw", "ne"];
    let open: Vec<&str> = (0..6)
        .filter(|d| k >> d & 1 == 1)
        .map(|d| NAMES[d])
        .collect();
    if open.is_empty() {
        "hex-open-none".into()
    } else {
        format!("hex-open-{}", open.join("-"))
    }
}

/// The `.tsx` (XML) description of the tileset.
pub fn tsx() -> String {
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tileset version=\"1.8\" name=\"{HEX_NAME}\" \
         tilewidth=\"{TILE_W}\" tileheight=\"{TILE_H}\" tilecount=\"{COUNT}\" columns=\"{COLUMNS}\">\n \
         <image source=\"{HEX_NAME}.png\" width=\"{}\" height=\"{}\"/>\n",
        TILE_W * COLUMNS,
        TILE_H * (COUNT / COLUMNS)
    );
    for k in 0..COUNT {
        s.push_str(&format!(" <tile id=\"{k}\" type=\"{}\"/>\n", class(k)));
    }
    s.push_str("</tileset>\n");
    s
}

/// The `.tsj` (JSON) description of the tileset.
pub fn tsj() -> String {
    let tiles: Vec<serde_json::Value> = (0..COUNT)
        .map(|k| serde_json::json!({"id": k, "type": class(k)}))
        .collect();
    let v = serde_json::json!({
        "type": "tileset",
        "version": "1.8",
        "name": HEX_NAME,
        "tilewidth": TILE_W,
        "tileheight": TILE_H,
        "tilecount": COUNT,
        "columns": COLUMNS,
        "margin": 0,
        "spacing": 0,
        "image": format!("{HEX_NAME}.png"),
        "imagewidth": TILE_W * COLUMNS,
        "imageheight": TILE_H * (COUNT / COLUMNS),
        "tiles": tiles,
    });
    let mut s = serde_json::to_string_pretty(&v).expect("serialises");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_is_floor_inside_wall_on_its_closed_sides_and_clear_outside() {
        let centre = (14, 16);
        for k in 0..COUNT {
            assert_eq!(
                pixel(k, centre.0, centre.1),
                [FLOOR[0], FLOOR[1], FLOOR[2], 255]
            );
            for d in 0..6 {
                // Two pixels in from the middle of side d.
                let ((ax, ay), (bx, by)) = side(d);
                let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
                let (vx, vy) = (14.0 - mx, 16.0 - my);
                let n = (vx * vx + vy * vy).sqrt();
                let (px, py) = (mx + vx / n * 2.0, my + vy / n * 2.0);
                let c = pixel(k, px.floor() as u32, py.floor() as u32);
                let want = if k >> d & 1 == 1 { FLOOR } else { WALL };
                assert_eq!(c[..3], want, "tile {k} side {d}");
            }
        }
        assert_eq!(pixel(0, 0, 0)[3], 0);
        assert_eq!(pixel(0, 27, 31)[3], 0);
    }
}
