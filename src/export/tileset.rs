//! The default tileset of the Tiled maps: five square tiles of [`TILE_PX`] pixels in one row
//! of a small PNG ([`NAME`]`.png`), described by [`NAME`]`.tsx` (for TMX maps) and
//! [`NAME`]`.tsj` (for TMJ maps), written beside the maps so that a map opens as it is. Tile
//! ids 0–4 (global ids 1–5 in the maps) are [`super::Tile::Wall`], [`super::Tile::Floor`] and
//! the three stairs tiles of 3D levels (floor with a blue triangle up, a green one down, a
//! purple diamond both ways); each tile's class (`type` in the files) says which. Any square
//! tileset with the same five tiles in that order can replace it.

use super::Tile;

/// Side of a tile in pixels.
pub const TILE_PX: u32 = 16;
/// The tileset's file name without extension.
pub const NAME: &str = "batchgen-tiles";
/// Wall colour (RGB).
pub const WALL: [u8; 3] = [40, 40, 52];
/// Floor colour (RGB).
pub const FLOOR: [u8; 3] = [236, 228, 208];
/// Colour of the stairs-up mark.
const UP: [u8; 3] = [0, 80, 220];
/// Colour of the stairs-down mark.
const DOWN: [u8; 3] = [0, 150, 0];
/// Colour of the both-ways mark.
const BOTH: [u8; 3] = [150, 0, 200];

/// The tiles in tileset order, with their class names.
pub const TILES: [(Tile, &str); 5] = [
    (Tile::Wall, "wall"),
    (Tile::Floor, "floor"),
    (Tile::Up, "stairs-up"),
    (Tile::Down, "stairs-down"),
    (Tile::UpDown, "stairs-up-down"),
];

/// The colour of pixel `(x, y)` of tile `t`.
fn pixel(t: Tile, x: u32, y: u32) -> [u8; 3] {
    let c = TILE_PX as i32 / 2;
    let (dx, dy) = (x as i32 - c, y as i32 - c);
    // Triangles of the stairs marks, inside the middle half of the tile.
    let up = dy <= 0 && dy >= -(c / 2) - 1 && dx.abs() <= (dy + c / 2 + 1);
    let down = dy >= 0 && dy <= c / 2 + 1 && dx.abs() <= (c / 2 + 1 - dy);
    match t {
        Tile::Empty => [0, 0, 0],
        Tile::Wall => WALL,
        Tile::Floor => FLOOR,
        Tile::Up if up && dy > -(c / 2) - 1 => UP,
        Tile::Down if down && dy < c / 2 + 1 => DOWN,
        Tile::UpDown if (up || down) && dx.abs() + dy.abs() <= c / 2 + 1 => BOTH,
        _ => FLOOR,
    }
}

/// The tileset image: the five tiles left to right, RGB PNG.
pub fn png() -> Vec<u8> {
    let (w, h) = (TILE_PX * TILES.len() as u32, TILE_PX);
    let mut rgb = Vec::with_capacity((w * h * 3) as usize);
    for y in 0..h {
        for x in 0..w {
            let t = TILES[(x / TILE_PX) as usize].0;
            rgb.extend_from_slice(&pixel(t, x % TILE_PX, y));
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().expect("writing to memory");
        wr.write_image_data(&rgb).expect("writing to memory");
    }
    out
}

/// The `.tsx` (XML) description of the tileset.
pub fn tsx() -> String {
    let n = TILES.len();
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tileset version=\"1.8\" name=\"{NAME}\" \
         tilewidth=\"{TILE_PX}\" tileheight=\"{TILE_PX}\" tilecount=\"{n}\" columns=\"{n}\">\n \
         <image source=\"{NAME}.png\" width=\"{}\" height=\"{TILE_PX}\"/>\n",
        TILE_PX as usize * n
    );
    for (i, (_, class)) in TILES.iter().enumerate() {
        s.push_str(&format!(" <tile id=\"{i}\" type=\"{class}\"/>\n"));
    }
    s.push_str("</tileset>\n");
    s
}

/// The `.tsj` (JSON) description of the tileset.
pub fn tsj() -> String {
    let n = TILES.len();
    let tiles: Vec<serde_json::Value> = TILES
        .iter()
        .enumerate()
        .map(|(i, (_, class))| serde_json::json!({"id": i, "type": class}))
        .collect();
    let v = serde_json::json!({
        "type": "tileset",
        "version": "1.8",
        "name": NAME,
        "tilewidth": TILE_PX,
        "tileheight": TILE_PX,
        "tilecount": n,
        "columns": n,
        "margin": 0,
        "spacing": 0,
        "image": format!("{NAME}.png"),
        "imagewidth": TILE_PX as usize * n,
        "imageheight": TILE_PX,
        "tiles": tiles,
    });
    let mut s = serde_json::to_string_pretty(&v).expect("serialises");
    s.push('\n');
    s
}
