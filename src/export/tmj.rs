//! The `tmj` format: one Tiled map in Tiled's JSON map format per level, the same map as
//! [`super::tmx`] writes (layers, objects, properties), using the tileset description
//! `batchgen-tiles.tsj` written beside the maps (a hex level: the hexagonal map of
//! [`super::tmx`], with `batchgen-hex-tiles.tsj`).

use serde_json::{json, Value};

use super::hex_tiles::{HEX_NAME, SIDE};
use super::tileset::{NAME, TILE_PX};
use super::{layer_gids, layer_names, map_shape, objects, properties, Export, Property};

fn property(p: &Property) -> Value {
    let value = match p.kind {
        "int" => p.value.parse::<i64>().map_or(Value::Null, Value::from),
        "float" => p
            .value
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        _ => Value::String(p.value.clone()),
    };
    json!({"name": p.name, "type": p.kind, "value": value})
}

/// The map of a level as TMJ (JSON) text.
pub fn map(e: &Export<'_>) -> String {
    let l = e.level;
    let shape = map_shape(l);
    let (cols, rows) = (shape.cols, shape.rows);
    let mut layers = Vec::new();
    let mut next_object = 1u64;
    for z in 0..l.depth() {
        let (tiles, objs) = layer_names(l, z);
        let data: Vec<u32> = layer_gids(l, z);
        layers.push(json!({
            "type": "tilelayer", "id": 2 * z + 1, "name": tiles,
            "width": cols, "height": rows, "x": 0, "y": 0,
            "opacity": 1, "visible": true, "data": data,
        }));
        let objects: Vec<Value> = objects(e, z, TILE_PX)
            .into_iter()
            .map(|o| {
                let mut v = json!({
                    "id": next_object, "name": o.name, "type": o.name,
                    "x": o.x, "y": o.y, "width": 0, "height": 0,
                    "rotation": 0, "visible": true,
                });
                next_object += 1;
                match (o.polyline, o.cell) {
                    (Some(points), _) => {
                        let pts: Vec<Value> = points
                            .iter()
                            .map(|(x, y)| json!({"x": x, "y": y}))
                            .collect();
                        v["polyline"] = Value::Array(pts);
                    }
                    (None, cell) => {
                        v["point"] = Value::Bool(true);
                        if let Some([x, y, z]) = cell {
                            v["properties"] = json!([
                                {"name": "cell_x", "type": "int", "value": x},
                                {"name": "cell_y", "type": "int", "value": y},
                                {"name": "cell_z", "type": "int", "value": z},
                            ]);
                        }
                    }
                }
                v
            })
            .collect();
        layers.push(json!({
            "type": "objectgroup", "id": 2 * z + 2, "name": objs,
            "draworder": "topdown", "color": "#dc0000", "x": 0, "y": 0,
            "opacity": 1, "visible": true, "objects": objects,
        }));
    }
    let props: Vec<Value> = properties(e).iter().map(property).collect();
    let mut map = json!({
        "type": "map", "version": "1.8", "tiledversion": "1.8.2",
        "orientation": "orthogonal", "renderorder": "right-down",
        "width": cols, "height": rows, "tilewidth": TILE_PX, "tileheight": TILE_PX,
        "infinite": false, "compressionlevel": -1,
        "nextlayerid": 2 * l.depth() + 1, "nextobjectid": next_object,
        "layers": layers,
        "tilesets": [{"firstgid": 1, "source": format!("{NAME}.tsj")}],
        "properties": props,
    });
    if shape.hex {
        map["orientation"] = json!("hexagonal");
        map["tilewidth"] = json!(shape.tile_w);
        map["tileheight"] = json!(shape.tile_h);
        map["hexsidelength"] = json!(SIDE);
        map["staggeraxis"] = json!("y");
        map["staggerindex"] = json!("odd");
        map["tilesets"] = json!([{"firstgid": 1, "source": format!("{HEX_NAME}.tsj")}]);
    }
    let mut s = serde_json::to_string(&map).expect("serialises");
    s.push('\n');
    s
}
