//! `batchgen levels` against its consumers: the rows it picks are the rows the filter passes
//! (by the rule `--accept` + `--count` generates), every maze it writes is its row's
//! (`maze_hash`), its store, JSON and TMX outputs agree cell for cell, its JSON validates
//! against the shipped schema (Python `jsonschema`), pytmx reads its maps, and Tiled's own
//! renderer (`tmxrasterizer`, Debian's `tiled`, installed when missing) draws its TMX and TMJ
//! maps with walls and floors exactly where the maze has them. Levels of hex, triangle and
//! polar grids are their rows too, as JSON neighbour lists checked against the grids' layout
//! rules and SVG sheets; the formats of square cells refuse them by name.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::Command;

use batchgen::accept::{Accept, COLUMNS};
use batchgen::grid::Dir;
use batchgen::store::StoreReader;
use serde_json::Value;

use crate::common::{self, batchgen};

/// Run the main job into `dir/name`.
fn make(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let out = dir.join(name);
    batchgen()
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .assert()
        .success();
    out
}

/// Run `batchgen levels ARGS`, which must succeed.
fn levels(args: &[&str]) {
    let out = batchgen().arg("levels").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "levels {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The documents of a JSONL file.
fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The tile gids of each layer of a TMX map, from its CSV data.
fn tmx_layers(text: &str) -> Vec<Vec<u32>> {
    text.split("<data encoding=\"csv\">")
        .skip(1)
        .map(|part| {
            part.split("</data>")
                .next()
                .unwrap()
                .split(',')
                .map(|t| t.trim().parse().unwrap())
                .collect()
        })
        .collect()
}

/// The tile gids a level document's cells give, per layer: the documented picture (1 wall,
/// 2 floor, 3 up, 4 down, 5 both, 0 nothing), made here from the JSON bits alone.
fn expected_tiles(doc: &Value) -> Vec<Vec<u32>> {
    let cells = doc["cells"].as_array().unwrap();
    let (w, h) = (
        doc["width"].as_u64().unwrap() as i64,
        doc["height"].as_u64().unwrap() as i64,
    );
    cells
        .iter()
        .map(|layer| {
            let bits = |x: i64, y: i64| -> Option<u64> {
                if x < 0 || y < 0 || x >= w || y >= h {
                    return None;
                }
                layer[y as usize][x as usize].as_u64()
            };
            let mut out = Vec::new();
            for r in 0..2 * h + 1 {
                for c in 0..2 * w + 1 {
                    let (x, y) = (c / 2, r / 2);
                    let t = match (c % 2, r % 2) {
                        (1, 1) => match bits(x, y) {
                            None => 0,
                            Some(b) => match (b & 32 != 0, b & 16 != 0) {
                                (false, false) => 2,
                                (true, false) => 3,
                                (false, true) => 4,
                                (true, true) => 5,
                            },
                        },
                        (0, 1) => match (bits(x - 1, y), bits(x, y)) {
                            (Some(a), Some(_)) if a & 1 != 0 => 2,
                            (None, None) => 0,
                            _ => 1,
                        },
                        (1, 0) => match (bits(x, y - 1), bits(x, y)) {
                            (Some(a), Some(_)) if a & 2 != 0 => 2,
                            (None, None) => 0,
                            _ => 1,
                        },
                        _ => {
                            let any = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
                                .iter()
                                .any(|&(a, b)| bits(a, b).is_some());
                            u32::from(any)
                        }
                    };
                    out.push(t);
                }
            }
            out
        })
        .collect()
}

/// The first `n` rows per algo passing `expr`, in index order (the file is one run: each
/// generator's rows in index order), as (algo, index), computed from the rows read back.
fn first_passing(t: &common::Table, expr: &str, n: usize) -> Vec<(String, u64)> {
    let accept = Accept::parse(expr).unwrap();
    let (algo, index) = (t.col("algo"), t.col("index"));
    let mut taken: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for row in &t.rows {
        let value = |c: u8| {
            let name = COLUMNS[c as usize].name;
            match row[t.col(name)].as_str() {
                "null" => f64::NAN,
                v => v.parse().unwrap(),
            }
        };
        if !accept.eval_with(&row[algo], batchgen::topo::Grid::Square, value) {
            continue;
        }
        let k = taken.entry(row[algo].clone()).or_default();
        if *k < n {
            *k += 1;
            out.push((row[algo].clone(), row[index].parse().unwrap()));
        }
    }
    out
}

const FILTERS: [&str; 3] = [
    "solution_length >= 24",
    "dead_end_share < 0.3 AND junctions >= 6",
    "algo IN ('wilson', 'kruskal', 'eller') OR diameter > 30",
];

#[test]
fn levels_are_their_rows_and_store_json_and_tmx_agree_cell_for_cell() {
    let dir = tempfile::tempdir().unwrap();
    let file = make(
        dir.path(),
        "all.parquet",
        &[
            "--algo", "all", "--size", "10x8", "--count", "80", "--seed", "4242",
        ],
    );
    let table = common::read(&file);
    let (algo_c, index_c) = (table.col("algo"), table.col("index"));
    let row_of: HashMap<(String, u64), &Vec<String>> = table
        .rows
        .iter()
        .map(|r| ((r[algo_c].clone(), r[index_c].parse().unwrap()), r))
        .collect();
    for (k, expr) in FILTERS.iter().enumerate() {
        let store = dir.path().join(format!("s{k}.arrow"));
        let jl = dir.path().join(format!("j{k}.jsonl"));
        let tmx = dir.path().join(format!("t{k}"));
        for (format, out) in [("store", &store), ("jsonl", &jl), ("tmx", &tmx)] {
            levels(&[
                p(&file),
                "--accept",
                expr,
                "--count",
                "3",
                "--format",
                format,
                "--out",
                p(out),
            ]);
        }
        let docs = jsonl(&jl);
        let got: Vec<(String, u64)> = docs
            .iter()
            .map(|d| {
                (
                    d["algo"].as_str().unwrap().to_string(),
                    d["index"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, first_passing(&table, expr, 3), "{expr}");
        let reader = StoreReader::open(&store).unwrap();
        assert_eq!(reader.len() as usize, docs.len());
        for (j, doc) in docs.iter().enumerate() {
            let key = &got[j];
            let row = row_of[key];
            // The maze is its row's, and so are the metrics.
            assert_eq!(
                doc["maze_hash"].as_str().unwrap(),
                row[table.col("maze_hash")]
            );
            for (c, name) in table.columns.iter().enumerate() {
                let v = &doc["metrics"][name];
                let text = match v {
                    Value::String(s) => s.clone(),
                    Value::Null => "null".into(),
                    v => v.to_string(),
                };
                // serde_json's default float parser (no `float_roundtrip`) may read a number
                // one ulp off: floats are compared to a relative 1e-15.
                let close = match (text.parse::<f64>(), row[c].parse::<f64>()) {
                    (Ok(a), Ok(b)) => (a - b).abs() <= 1e-15 * a.abs().max(b.abs()),
                    _ => false,
                };
                let same = text == row[c] || (text == "null" && row[c] == "NaN") || close;
                assert!(same, "{key:?} {name}: json {text}, row {}", row[c]);
            }
            // The store's record: same maze, same walls as the JSON cells.
            let rec = reader.record(j as u64).unwrap();
            assert_eq!((rec.algo, rec.index), (key.0.as_str(), key.1));
            assert_eq!(
                rec.maze_hash.to_string(),
                doc["maze_hash"].as_str().unwrap()
            );
            let maze = reader.maze(j as u64).unwrap();
            let (w, h) = (maze.width(), maze.height());
            for y in 0..h {
                for x in 0..w {
                    let cell = y * w + x;
                    let bits = doc["cells"][0][y as usize][x as usize].as_u64().unwrap();
                    for (dir, bit) in [
                        (Dir::East, 1),
                        (Dir::South, 2),
                        (Dir::West, 4),
                        (Dir::North, 8),
                    ] {
                        let open = maze.has_neighbour(cell, dir) && maze.is_open(cell, dir);
                        assert_eq!(open, bits & bit != 0, "{key:?} cell {x},{y} {dir:?}");
                    }
                }
            }
            // The TMX map's tiles are the JSON cells' picture.
            let name = format!("{}-10x8-{}.tmx", key.0.replace(':', "_"), key.1);
            let map = std::fs::read_to_string(tmx.join(&name)).unwrap();
            assert_eq!(tmx_layers(&map), expected_tiles(doc), "{name}");
            // The solution runs from the entrance to the exit through open walls.
            let sol = doc["solution"].as_array().unwrap();
            assert_eq!(sol.first().unwrap(), &doc["entrance"]);
            assert_eq!(sol.last().unwrap(), &doc["exit"]);
            assert_eq!(
                sol.len() as u64 - 1,
                row[table.col("solution_length")].parse::<u64>().unwrap()
            );
        }
    }
}

#[test]
fn the_first_pick_is_what_accept_and_count_generate() {
    let dir = tempfile::tempdir().unwrap();
    let expr = "solution_length >= 22 AND dead_end_share < 0.4";
    let all = make(
        dir.path(),
        "all.parquet",
        &[
            "--algo", "all", "--size", "9x9", "--count", "150", "--seed", "77",
        ],
    );
    // Every generator needs its 4 passing rows within the 150 the unfiltered file holds.
    let filtered = make(
        dir.path(),
        "f.parquet",
        &[
            "--algo",
            "all",
            "--size",
            "9x9",
            "--count",
            "4",
            "--seed",
            "77",
            "--accept",
            &format!("{expr} OR algo = 'binary-tree'"),
            "--max-candidates",
            "150",
        ],
    );
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    levels(&[p(&filtered), "--format", "jsonl", "--out", p(&a)]);
    let or = format!("{expr} OR algo = 'binary-tree'");
    levels(&[
        p(&all),
        "--accept",
        &or,
        "--count",
        "4",
        "--format",
        "jsonl",
        "--out",
        p(&b),
    ]);
    let key = |d: &Value| (d["id"].clone(), d["maze_hash"].clone());
    let (a, b) = (jsonl(&a), jsonl(&b));
    assert_eq!(a.len(), 14 * 4);
    assert_eq!(
        a.iter().map(key).collect::<Vec<_>>(),
        b.iter().map(key).collect::<Vec<_>>()
    );
}

#[test]
fn a_sample_is_reproducible_passes_the_filter_and_changes_with_its_seed() {
    let dir = tempfile::tempdir().unwrap();
    let file = make(
        dir.path(),
        "k.parquet",
        &[
            "--algo",
            "kruskal,wilson",
            "--size",
            "8x8",
            "--count",
            "300",
            "--seed",
            "5",
        ],
    );
    let expr = "solution_length >= 20";
    let run = |seed: &str, name: &str| {
        let out = dir.path().join(name);
        levels(&[
            p(&file),
            "--accept",
            expr,
            "--count",
            "10",
            "--pick",
            "sample",
            "--pick-seed",
            seed,
            "--format",
            "jsonl",
            "--out",
            p(&out),
        ]);
        jsonl(&out)
            .iter()
            .map(|d| {
                assert!(d["metrics"]["solution_length"].as_u64().unwrap() >= 20);
                (
                    d["algo"].as_str().unwrap().to_string(),
                    d["index"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let (a, again, other) = (run("1", "a"), run("1", "b"), run("2", "c"));
    assert_eq!(a, again);
    assert_ne!(a, other);
    assert_eq!(a.iter().filter(|k| k.0 == "kruskal").count(), 10);
    // In index order within a group, and not simply the first ten.
    let k: Vec<u64> = a.iter().filter(|k| k.0 == "wilson").map(|k| k.1).collect();
    assert!(k.windows(2).all(|w| w[0] < w[1]), "{k:?}");
    let table = common::read(&file);
    assert_ne!(
        a[..10].to_vec(),
        first_passing(&table, expr, 10)[..10].to_vec()
    );
}

/// A copy of the metrics file `src` with row `row`'s `maze_hash` changed.
fn with_wrong_hash(src: &Path, dst: &Path, row: usize) {
    common::with_column(src, dst, "maze_hash", |old, first| {
        let old = old
            .as_any()
            .downcast_ref::<arrow_array::UInt64Array>()
            .unwrap();
        let new: Vec<u64> = (0..old.len())
            .map(|r| old.value(r) ^ u64::from(first + r == row))
            .collect();
        std::sync::Arc::new(arrow_array::UInt64Array::from(new))
    });
}

#[test]
fn a_row_whose_maze_is_not_made_again_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = make(
        dir.path(),
        "w.parquet",
        &["--algo", "wilson", "--size", "6x6", "--count", "5"],
    );
    let bad = dir.path().join("bad.parquet");
    with_wrong_hash(&file, &bad, 3);
    let out = dir.path().join("x.jsonl");
    let o = batchgen()
        .args(["levels", p(&bad), "--format", "jsonl", "--out", p(&out)])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("row 3") && err.contains("maze_hash"), "{err}");
    assert!(!out.exists(), "nothing delivered");
    // The rows before it are fine: a filter that leaves row 3 out delivers.
    levels(&[
        p(&bad),
        "--accept",
        "index < 3",
        "--format",
        "jsonl",
        "--out",
        p(&out),
    ]);
    assert_eq!(jsonl(&out).len(), 3);
}

#[test]
fn bad_input_is_refused_with_exit_2_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let file = make(
        dir.path(),
        "w.parquet",
        &["--algo", "wilson", "--size", "6x6", "--count", "5"],
    );
    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, "x").unwrap();
    let f = p(&file);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![f, "--count", "0", "--format", "jsonl", "--out", "o.jsonl"],
            "--count",
        ),
        (
            vec![
                f,
                "--pick-seed",
                "3",
                "--format",
                "jsonl",
                "--out",
                "o.jsonl",
            ],
            "--pick-seed",
        ),
        (vec![f, "--format", "tmx", "--out", p(&plain)], "--out"),
        (
            vec![f, "--format", "jsonl", "--out", p(dir.path())],
            "--out",
        ),
        (
            vec![
                f, "--accept", "nope > 1", "--format", "jsonl", "--out", "o.jsonl",
            ],
            "--accept",
        ),
        (vec![f, "--format", "gif", "--out", "o.gif"], "--format"),
        (
            vec!["missing.parquet", "--format", "jsonl", "--out", "o.jsonl"],
            "missing.parquet",
        ),
        (
            vec![
                f,
                "--ends-rule",
                "corners",
                "--format",
                "jsonl",
                "--out",
                "o.jsonl",
            ],
            "--ends-rule",
        ),
        (
            vec![
                f,
                "--accept",
                "index > 99",
                "--format",
                "jsonl",
                "--out",
                "o.jsonl",
            ],
            "no row",
        ),
    ];
    for (args, want) in cases {
        let o = batchgen()
            .current_dir(dir.path())
            .arg("levels")
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert!(!dir.path().join("o.jsonl").exists());
    // Two sizes in one store are refused, naming the flag.
    let other = make(
        dir.path(),
        "v.parquet",
        &["--algo", "wilson", "--size", "7x6", "--count", "2"],
    );
    let o = batchgen()
        .args(["levels", f, p(&other), "--format", "store", "--out"])
        .arg(dir.path().join("s.arrow"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--format") && err.contains("one size"),
        "{err}"
    );
}

/// A 9×7 mask with a hole in the middle and a notch at the bottom right.
const MASK: &str = ".........\n.........\n...###...\n...###...\n.........\n.......##\n.......##\n";

/// Four small metrics files covering the map cases: plain 2D, masked, braided, 3D.
fn cases(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    std::fs::write(dir.join("mask.txt"), MASK).unwrap();
    let mask = dir.join("mask.txt");
    vec![
        (
            "plain",
            make(
                dir,
                "plain.parquet",
                &[
                    "--algo", "kruskal", "--size", "11x7", "--count", "3", "--seed", "9",
                ],
            ),
        ),
        (
            "masked",
            make(
                dir,
                "masked.parquet",
                &["--algo", "wilson", "--mask", p(&mask), "--count", "3"],
            ),
        ),
        (
            "braided",
            make(
                dir,
                "braided.parquet",
                &[
                    "--algo",
                    "backtracker",
                    "--size",
                    "9x9",
                    "--braid",
                    "0.5",
                    "--count",
                    "3",
                ],
            ),
        ),
        (
            "3d",
            make(
                dir,
                "threed.parquet",
                &["--algo", "backtracker", "--size", "5x4x3", "--count", "3"],
            ),
        ),
    ]
}

/// Export every case as `format` into `dir/NAME-FORMAT` and JSON beside it; the map files and
/// their JSON documents, by stem.
fn export_cases(dir: &Path, format: &str) -> Vec<(String, PathBuf, Value)> {
    let mut out = Vec::new();
    for (name, file) in cases(dir) {
        let maps = dir.join(format!("{name}-{format}"));
        let json = dir.join(format!("{name}-json"));
        levels(&[p(&file), "--format", format, "--out", p(&maps)]);
        levels(&[p(&file), "--format", "json", "--out", p(&json)]);
        let mut stems: Vec<PathBuf> = std::fs::read_dir(&json)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        stems.sort();
        assert_eq!(stems.len(), 3);
        for j in stems {
            let stem = j.file_stem().unwrap().to_str().unwrap().to_string();
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
            out.push((name.to_string(), maps.join(format!("{stem}.{format}")), doc));
        }
    }
    out
}

/// The RGBA pixels of a PNG, with its width.
fn pixels(path: &Path) -> (Vec<[u8; 4]>, u32, u32) {
    let dec = png::Decoder::new(BufReader::new(File::open(path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let px = match info.color_type {
        png::ColorType::Rgba => buf
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect(),
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2], 255])
            .collect(),
        t => panic!("{t:?}"),
    };
    (px, info.width, info.height)
}

/// Draw tile layer `layer` of `map` into `png` with Tiled's `tmxrasterizer` (headless), which
/// must succeed.
fn rasterize(raster: &Path, runtime: &Path, map: &Path, png: &Path, layer: &str) {
    let out = Command::new(raster)
        .env("QT_QPA_PLATFORM", "offscreen")
        .env("XDG_RUNTIME_DIR", runtime)
        .args(["--show-layer", layer])
        .arg(map)
        .arg(png)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tmxrasterizer {}: {}",
        map.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn tiled_draws_the_walls_of_tmx_and_tmj_maps_tile_for_tile() {
    let raster = common::debian_program("tmxrasterizer", "tiled");
    let dir = tempfile::tempdir().unwrap();
    let mut seen: HashMap<(String, u32), u32> = HashMap::new();
    for format in ["tmx", "tmj"] {
        for (case, map, doc) in export_cases(dir.path(), format) {
            let want = expected_tiles(&doc);
            for (z, tiles) in want.iter().enumerate() {
                let png_path = dir.path().join(format!("r-{format}-{case}-{z}.png"));
                let layer = if want.len() == 1 {
                    "maze".to_string()
                } else {
                    format!("z={z}")
                };
                rasterize(&raster, dir.path(), &map, &png_path, &layer);
                let (px, w, h) = pixels(&png_path);
                let cols = 2 * doc["width"].as_u64().unwrap() as u32 + 1;
                let rows = 2 * doc["height"].as_u64().unwrap() as u32 + 1;
                assert_eq!((w, h), (cols * 16, rows * 16), "{}", map.display());
                for (t, &gid) in tiles.iter().enumerate() {
                    let (c, r) = (t as u32 % cols, t as u32 / cols);
                    // A corner pixel of the tile: its base colour (stairs marks are central).
                    let [pr, pg, pb, pa] = px[((r * 16 + 1) * w + c * 16 + 1) as usize];
                    let drawn = match (pa, [pr, pg, pb]) {
                        (0, _) => 0,
                        (255, batchgen::export::tileset::WALL) => 1,
                        (255, batchgen::export::tileset::FLOOR) => 2,
                        other => panic!("{} tile {c},{r}: pixel {other:?}", map.display()),
                    };
                    let want = if gid >= 2 { 2 } else { gid };
                    assert_eq!(drawn, want, "{} layer {z} tile {c},{r}", map.display());
                    // The centre pixel tells the stairs tiles apart from plain floor.
                    let [cr, cg, cb, _] = px[((r * 16 + 8) * w + c * 16 + 8) as usize];
                    if gid >= 3 {
                        assert_ne!([cr, cg, cb], batchgen::export::tileset::FLOOR);
                    }
                    *seen.entry((case.clone(), gid)).or_insert(0) += 1;
                }
            }
        }
    }
    // Every case drew walls and floors; the masked one empty tiles; the 3D one stairs.
    for case in ["plain", "masked", "braided", "3d"] {
        assert!(
            seen.contains_key(&(case.to_string(), 1)) && seen.contains_key(&(case.to_string(), 2)),
            "{case}"
        );
    }
    assert!(seen.contains_key(&("masked".to_string(), 0)));
    assert!(seen.contains_key(&("3d".to_string(), 3)) || seen.contains_key(&("3d".to_string(), 4)));
}

/// Run a Python script in the interop venv with `args`; it must succeed; its stdout.
fn python(script: &str, args: &[&Path]) -> String {
    let out = Command::new(common::python())
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn pytmx_reads_the_maps_their_ends_and_properties() {
    let dir = tempfile::tempdir().unwrap();
    let mut pairs: Vec<PathBuf> = Vec::new();
    for (_, map, doc) in export_cases(dir.path(), "tmx") {
        let j = map.with_extension("expected.json");
        std::fs::write(&j, doc.to_string()).unwrap();
        pairs.push(map);
        pairs.push(j);
    }
    let script = r#"
import json, sys, pytmx
n = 0
for tmx, js in zip(sys.argv[1::2], sys.argv[2::2]):
    d = json.load(open(js))
    m = pytmx.TiledMap(tmx)
    assert (m.width, m.height) == (2 * d["width"] + 1, 2 * d["height"] + 1), tmx
    assert (m.tilewidth, m.tileheight) == (16, 16)
    p = m.properties
    assert p["algo"] == d["algo"] and p["index"] == d["index"], (tmx, p)
    assert p["maze_hash"] == d["maze_hash"] and p["seed"] == d["seed"], (tmx, p)
    assert (p["maze_width"], p["maze_height"]) == (d["width"], d["height"])
    assert p["solution_length"] == len(d["solution"]) - 1
    objs = list(m.objects)
    for name in ("entrance", "exit"):
        [o] = [o for o in objs if o.name == name]
        x, y, z = d[name]
        assert (o.properties["cell_x"], o.properties["cell_y"], o.properties["cell_z"]) == (x, y, z)
        assert (o.x, o.y) == ((2 * x + 1) * 16 + 8, (2 * y + 1) * 16 + 8), (tmx, name, o.x, o.y)
    sol = [o for o in objs if o.name == "solution"]
    assert sum(len(o.points) for o in sol) == len(d["solution"]), tmx
    first = sol[0].points[0]
    x, y, z = d["entrance"]
    assert (first.x, first.y) == ((2 * x + 1) * 16 + 8, (2 * y + 1) * 16 + 8)
    layers = [l for l in m.visible_layers if isinstance(l, pytmx.TiledTileLayer)]
    assert len(layers) == d["depth"], tmx
    n += 1
print(n)
"#;
    let args: Vec<&Path> = pairs.iter().map(PathBuf::as_path).collect();
    assert_eq!(python(script, &args).trim(), "12");
}

#[test]
fn json_validates_against_the_schema_and_a_broken_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> = Vec::new();
    for (name, file) in cases(dir.path()) {
        let out = dir.path().join(format!("{name}.jsonl"));
        levels(&[p(&file), "--format", "jsonl", "--out", p(&out)]);
        files.push(out);
    }
    // Levels of the other grids (neighbour lists): one per generator of each grid, 34 in all.
    for (name, file) in grid_cases(dir.path()) {
        let out = dir.path().join(format!("{name}.jsonl"));
        levels(&[
            p(&file),
            "--count",
            "1",
            "--format",
            "jsonl",
            "--out",
            p(&out),
        ]);
        files.push(out);
    }
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/export/level.schema.json");
    let script = r#"
import copy, json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
n = 0
for f in sys.argv[2:]:
    for line in open(f):
        d = json.loads(line)
        v.validate(d)
        for k, bad in [("cells", [[[64]]]), ("seed", 42), ("entrance", [0, 0]), ("extra", 1)]:
            b = copy.deepcopy(d)
            b[k] = bad
            assert not v.is_valid(b), k
        n += 1
print(n)
"#;
    let mut args: Vec<&Path> = vec![&schema];
    args.extend(files.iter().map(PathBuf::as_path));
    assert_eq!(python(script, &args).trim(), "46");
}

/// Metrics files of the other grids (`--algo all`, seed 4242): hex, hex on a mask, triangle and
/// polar; (name, file, levels in it at `--count 2`).
fn grid_cases(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let mask = dir.join("hexmask.txt");
    std::fs::write(&mask, "..#...\n.#....\n......\n...#..\n......\n").unwrap();
    let m = p(&mask).to_string();
    let common = ["--algo", "all", "--seed", "4242", "--count", "3"];
    let with = |extra: &[&str]| -> Vec<String> {
        common.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    [
        ("hex", with(&["--grid", "hex", "--size", "7x5"])),
        ("hexmask", with(&["--grid", "hex", "--mask", &m])),
        ("triangle", with(&["--grid", "triangle", "--size", "6x4"])),
        ("polar", with(&["--grid", "polar", "--size", "4"])),
    ]
    .into_iter()
    .map(|(name, args)| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        (name, make(dir, &format!("{name}.parquet"), &args))
    })
    .collect()
}

/// The neighbours of `(x, y)` on a `w×h` hex (odd-r) or triangle grid, recomputed from the
/// layout's rules (not from the library): (cell, direction label).
fn layout_neighbours(grid: &str, w: i64, h: i64, x: i64, y: i64) -> Vec<(u64, u64)> {
    let steps: Vec<(i64, i64)> = match grid {
        "hex" if y % 2 == 0 => vec![(1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1)],
        "hex" => vec![(1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1)],
        _ => {
            let up = (x + y) % 2 == 0;
            vec![
                (1, 0),
                if up { (0, 1) } else { (0, 99) },
                (-1, 0),
                if up { (0, 99) } else { (0, -1) },
            ]
        }
    };
    steps
        .into_iter()
        .enumerate()
        .filter_map(|(d, (dx, dy))| {
            let (nx, ny) = (x + dx, y + dy);
            (nx >= 0 && ny >= 0 && nx < w && ny < h).then_some(((ny * w + nx) as u64, d as u64))
        })
        .collect()
}

/// The width, height and RGB bytes of the PNG file at `path`.
fn decode_png(path: &Path) -> (usize, usize, Vec<u8>) {
    let (w, h, rgb) = crate::render::decode_png(&std::fs::read(path).unwrap());
    (w as usize, h as usize, rgb)
}

/// The 4-connected regions of pixels of colour `c` in a `w × h` RGB picture.
fn blobs(w: usize, h: usize, rgb: &[u8], c: [u8; 3]) -> usize {
    let is = |i: usize| rgb[3 * i..3 * i + 3] == c;
    let mut seen = vec![false; w * h];
    let mut count = 0;
    for start in 0..w * h {
        if seen[start] || !is(start) {
            continue;
        }
        count += 1;
        seen[start] = true;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            let near = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            for j in near.into_iter().flatten() {
                if !seen[j] && is(j) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
    }
    count
}

#[test]
fn grid_levels_are_their_rows_as_json_neighbour_lists_sheets_and_stores() {
    let dir = tempfile::tempdir().unwrap();
    for (name, file) in grid_cases(dir.path()) {
        let out = dir.path().join(format!("{name}.jsonl"));
        levels(&[
            p(&file),
            "--count",
            "2",
            "--format",
            "jsonl",
            "--out",
            p(&out),
        ]);
        let docs = jsonl(&out);
        let grid = if name == "hexmask" { "hex" } else { name };
        let algos = match grid {
            "hex" | "polar" => 9,
            _ => 7,
        };
        assert_eq!(docs.len(), 2 * algos, "{name}");
        for d in &docs {
            let what = format!("{name}: {}", d["id"]);
            assert_eq!(d["grid"], grid, "{what}");
            assert_eq!(d["maze_hash"], d["metrics"]["maze_hash"], "{what}");
            assert_eq!(d["metrics"]["grid"], grid, "{what}");
            let cells = d["cells"].as_array().unwrap();
            let (w, h) = (d["width"].as_i64().unwrap(), d["height"].as_i64().unwrap());
            // Passages are open on both cells; a perfect maze has cells - 1 of them.
            let mut open = 0;
            let mut present = 0;
            for (c, cell) in cells.iter().enumerate() {
                if cell.is_null() {
                    assert_eq!(name, "hexmask", "{what}");
                    continue;
                }
                present += 1;
                let nbrs = cell["neighbours"].as_array().unwrap();
                let got: Vec<(u64, u64)> = nbrs
                    .iter()
                    .map(|n| (n["cell"].as_u64().unwrap(), n["dir"].as_u64().unwrap()))
                    .collect();
                if grid != "polar" {
                    let (x, y) = (c as i64 % w, c as i64 / w);
                    assert_eq!(cell["at"], serde_json::json!([x, y]), "{what}");
                    let want: Vec<(u64, u64)> = layout_neighbours(grid, w, h, x, y)
                        .into_iter()
                        .filter(|&(n, _)| !cells[n as usize].is_null())
                        .collect();
                    assert_eq!(got, want, "{what}: cell {c}");
                }
                for n in nbrs {
                    let other = &cells[n["cell"].as_u64().unwrap() as usize]["neighbours"];
                    let back = other
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|m| m["cell"].as_u64() == Some(c as u64))
                        .expect("neighbours are mutual");
                    assert_eq!(back["open"], n["open"], "{what}: cell {c}");
                    open += usize::from(n["open"] == true);
                }
            }
            assert_eq!(open / 2 + 1, present, "{what}");
            assert_eq!(
                d["metrics"]["cells"].as_u64(),
                Some(present as u64),
                "{what}"
            );
            // The solution steps through open walls from the entrance to the exit.
            let sol: Vec<u64> = d["solution"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            assert_eq!(Some(sol[0]), d["entrance"].as_u64(), "{what}");
            assert_eq!(sol.last().copied(), d["exit"].as_u64(), "{what}");
            assert_eq!(
                d["metrics"]["solution_length"].as_u64(),
                Some(sol.len() as u64 - 1)
            );
            for s in sol.windows(2) {
                let step = cells[s[0] as usize]["neighbours"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|n| n["cell"].as_u64() == Some(s[1]))
                    .expect("solution steps are neighbours");
                assert_eq!(step["open"], true, "{what}");
            }
            if grid == "polar" {
                // Rings of 1, 6, 12, 24 cells: the centre's neighbours are ring 1.
                assert_eq!(cells.len(), 1 + 6 + 12 + 24, "{what}");
                assert_eq!(cells[0]["at"], serde_json::json!([0, 0]));
                let centre: Vec<u64> = cells[0]["neighbours"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n["cell"].as_u64().unwrap())
                    .collect();
                assert_eq!(centre, (1..7).collect::<Vec<u64>>());
            }
        }
        // The same levels as files of their own, named by grid.
        let folder = dir.path().join(format!("{name}-json"));
        levels(&[
            p(&file),
            "--count",
            "1",
            "--format",
            "json",
            "--out",
            p(&folder),
        ]);
        let size = match grid {
            "polar" => "4",
            "triangle" => "6x4",
            _ if name == "hexmask" => "6x5",
            _ => "7x5",
        };
        let one = folder.join(format!("wilson-{grid}-{size}-0.json"));
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&one).unwrap()).unwrap();
        assert_eq!(
            doc,
            docs.iter().find(|d| d["algo"] == "wilson").unwrap().clone()
        );
        // An SVG sheet with a polygon picture and marked ends per level.
        let sheet = dir.path().join(format!("{name}.svg"));
        levels(&[
            p(&file),
            "--count",
            "1",
            "--format",
            "svg",
            "--out",
            p(&sheet),
        ]);
        let svg = std::fs::read_to_string(&sheet).unwrap();
        assert_eq!(svg.matches(r#"class="level""#).count(), algos, "{name}");
        assert_eq!(svg.matches(r#"class="entrance""#).count(), algos, "{name}");
        assert_eq!(svg.matches(r#"class="exit""#).count(), algos, "{name}");
        assert!(!svg.contains(r#"id="entrance""#), "one id per document");
        // A PNG sheet: each level's polygon picture with its entrance (an orange square) and
        // exit (a cyan disc), one blob of each colour per level.
        let sheet = dir.path().join(format!("{name}.png"));
        levels(&[
            p(&file),
            "--count",
            "1",
            "--format",
            "png",
            "--out",
            p(&sheet),
        ]);
        let (w, h, rgb) = decode_png(&sheet);
        use batchgen::render::{PNG_ENTRANCE, PNG_EXIT, PNG_SOLUTION};
        assert_eq!(blobs(w, h, &rgb, PNG_ENTRANCE), algos, "{name}");
        assert_eq!(blobs(w, h, &rgb, PNG_EXIT), algos, "{name}");
        assert!(rgb.chunks_exact(3).any(|c| c == PNG_SOLUTION), "{name}");
        // A maze store of the grid, read back as the levels (checked against maze_hash) and
        // as ids that regenerate them; render --store draws a record.
        let store = dir.path().join(format!("{name}.arrow"));
        levels(&[
            p(&file),
            "--count",
            "1",
            "--format",
            "store",
            "--out",
            p(&store),
        ]);
        let st = batchgen::store::StoreReader::open(&store).unwrap();
        assert_eq!(st.grid().unwrap().size().grid.name(), grid, "{name}");
        assert_eq!(st.mask().is_some(), name == "hexmask", "{name}");
        assert_eq!(st.len(), algos as u64, "{name}");
        for k in 0..st.len() {
            let l = batchgen::Level::from_store(&st, k).unwrap();
            let doc = docs
                .iter()
                .find(|d| {
                    d["algo"] == l.algo().to_string() && d["index"].as_u64() == Some(l.index())
                })
                .unwrap_or_else(|| panic!("{name}: record {k} is a picked level"));
            assert_eq!(doc["maze_hash"], l.maze_hash().to_string(), "{name} {k}");
            assert_eq!(
                doc["solution"].as_array().unwrap().len(),
                l.solution().len()
            );
            let id = batchgen::MazeId::from_store(&st, k).unwrap();
            assert_eq!(id.to_string(), doc["id"].as_str().unwrap(), "{name} {k}");
            let again = id.level_on(st.mask().cloned()).unwrap();
            assert_eq!(again.maze_hash(), l.maze_hash(), "{name} {k}");
        }
        let drawn = dir.path().join(format!("{name}-record.png"));
        let out = batchgen()
            .args([
                "render",
                "--store",
                p(&store),
                "--record",
                "1",
                "--solution",
                "-o",
            ])
            .arg(&drawn)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (pw, ph, pic) = decode_png(&drawn);
        assert_eq!(blobs(pw, ph, &pic, PNG_ENTRANCE), 1, "{name}");
        assert_eq!(blobs(pw, ph, &pic, PNG_EXIT), 1, "{name}");
        // render --store refuses, by name, what these grids do not draw, and cells outside
        // the grid (cells as ends on every grid: `grids::ends`).
        for (args, names) in [
            (&["--format", "ascii"][..], [grid, "ascii"]),
            (
                &["--entrance", "99,0", "--format", "svg"][..],
                ["--entrance", "'99,0'"],
            ),
        ] {
            let out = batchgen()
                .args(["render", "--store", p(&store), "--record", "0"])
                .args(args)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name}: {err}");
            assert!(names.iter().all(|n| err.contains(n)), "{name}: {err}");
        }
        // The Tiled formats refuse the grids without a Tiled orientation by name, before
        // writing anything (hex levels are hexagonal Tiled maps).
        let refused: &[&str] = if grid == "hex" { &[] } else { &["tmx", "tmj"] };
        for &format in refused {
            let target = dir.path().join(format!("{name}-refused.{format}"));
            let out = batchgen()
                .args([
                    "levels",
                    p(&file),
                    "--count",
                    "1",
                    "--format",
                    format,
                    "--out",
                ])
                .arg(&target)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} {format}: {err}");
            assert!(
                err.contains(&format!("'{format}' for '--format'")),
                "{name} {format}: {err}"
            );
            assert!(
                err.contains(&format!("{grid}-grid")),
                "{name} {format}: {err}"
            );
            assert!(!target.exists(), "{name} {format}");
        }
    }
}

#[test]
fn tiled_draws_hex_levels_as_hexagonal_maps_side_for_side_and_pytmx_reads_them() {
    use batchgen::export::hex_tiles::{side, ROW_STEP, TILE_H, TILE_W};
    use batchgen::export::tileset::{FLOOR, WALL};
    let raster = common::debian_program("tmxrasterizer", "tiled");
    let dir = tempfile::tempdir().unwrap();
    let mut pairs: Vec<PathBuf> = Vec::new();
    let (mut walls, mut open, mut holes) = (0, 0, 0);
    for (name, file) in grid_cases(dir.path()) {
        if !name.starts_with("hex") {
            continue;
        }
        let json = dir.path().join(format!("{name}-hexjson"));
        levels(&[
            p(&file),
            "--count",
            "1",
            "--format",
            "json",
            "--out",
            p(&json),
        ]);
        for format in ["tmx", "tmj"] {
            let maps = dir.path().join(format!("{name}-hex{format}"));
            levels(&[
                p(&file),
                "--count",
                "1",
                "--format",
                format,
                "--out",
                p(&maps),
            ]);
            for entry in std::fs::read_dir(&json).unwrap() {
                let j = entry.unwrap().path();
                let stem = j.file_stem().unwrap().to_str().unwrap().to_string();
                let doc: Value =
                    serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
                let map = maps.join(format!("{stem}.{format}"));
                let text = std::fs::read_to_string(&map).unwrap();
                assert!(
                    text.contains("hexagonal") && text.contains("staggerindex"),
                    "{stem}"
                );
                if format == "tmx" {
                    pairs.push(map.clone());
                    let e = map.with_extension("expected.json");
                    std::fs::write(&e, doc.to_string()).unwrap();
                    pairs.push(e);
                }
                let png_path = dir.path().join(format!("{name}-{stem}-{format}.png"));
                rasterize(&raster, dir.path(), &map, &png_path, "maze");
                let (px, w, h) = pixels(&png_path);
                let (cw, ch) = (
                    doc["width"].as_u64().unwrap() as u32,
                    doc["height"].as_u64().unwrap() as u32,
                );
                let want_w = cw * TILE_W + if ch > 1 { TILE_W / 2 } else { 0 };
                assert_eq!(
                    (w, h),
                    (want_w, (ch - 1) * ROW_STEP + TILE_H),
                    "{}",
                    map.display()
                );
                let at = |x: f64, y: f64| {
                    let [r, g, b, a] = px[(y.floor() as u32 * w + x.floor() as u32) as usize];
                    match (a, [r, g, b]) {
                        (0, _) => "empty",
                        (255, c) if c == WALL => "wall",
                        (255, c) if c == FLOOR => "floor",
                        other => panic!("{}: pixel {other:?} at {x},{y}", map.display()),
                    }
                };
                for (c, cell) in doc["cells"].as_array().unwrap().iter().enumerate() {
                    let (x, y) = (c as u32 % cw, c as u32 / cw);
                    let ox = (x * TILE_W + if y % 2 == 1 { TILE_W / 2 } else { 0 }) as f64;
                    let oy = (y * ROW_STEP) as f64;
                    let (cx, cy) = (ox + TILE_W as f64 / 2.0, oy + TILE_H as f64 / 2.0);
                    if cell.is_null() {
                        assert_eq!(at(cx, cy), "empty", "{} cell {c}", map.display());
                        holes += 1;
                        continue;
                    }
                    assert_eq!(at(cx, cy), "floor", "{} cell {c}", map.display());
                    for d in 0..6usize {
                        // Two pixels in from the middle of side d: wall unless a passage.
                        let ((ax, ay), (bx, by)) = side(d);
                        let (mx, my) = (ox + (ax + bx) / 2.0, oy + (ay + by) / 2.0);
                        let (vx, vy) = (cx - mx, cy - my);
                        let n = (vx * vx + vy * vy).sqrt();
                        let is_open = cell["neighbours"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|nb| nb["dir"] == d as u64 && nb["open"] == true);
                        let got = at(mx + vx / n * 2.0, my + vy / n * 2.0);
                        assert_eq!(
                            got,
                            if is_open { "floor" } else { "wall" },
                            "{} cell {c} side {d}",
                            map.display()
                        );
                        if is_open {
                            open += 1;
                        } else {
                            walls += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(walls > 0 && open > 0 && holes > 0, "{walls} {open} {holes}");
    let script = r#"
import json, sys, pytmx
n = 0
for tmx, js in zip(sys.argv[1::2], sys.argv[2::2]):
    d = json.load(open(js))
    m = pytmx.TiledMap(tmx)
    assert m.orientation == "hexagonal", tmx
    assert (m.width, m.height) == (d["width"], d["height"]), tmx
    assert (m.tilewidth, m.tileheight, m.hexsidelength) == (28, 32, 16), tmx
    assert (m.staggeraxis, m.staggerindex) == ("y", "odd"), tmx
    p = m.properties
    assert p["algo"] == d["algo"] and p["maze_hash"] == d["maze_hash"] and p["grid"] == "hex"
    objs = list(m.objects)
    for name in ("entrance", "exit"):
        [o] = [o for o in objs if o.name == name]
        c = d[name]
        x, y = c % d["width"], c // d["width"]
        assert (o.properties["cell_x"], o.properties["cell_y"]) == (x, y), (tmx, name)
        assert (o.x, o.y) == (x * 28 + 14 * (y % 2) + 14, y * 24 + 16), (tmx, name, o.x, o.y)
    [sol] = [o for o in objs if o.name == "solution"]
    assert len(sol.points) == len(d["solution"]), tmx
    layer = m.get_layer_by_name("maze")
    for c, cell in enumerate(d["cells"]):
        gid = layer.data[c // d["width"]][c % d["width"]]
        if cell is None:
            assert gid == 0, (tmx, c)
            continue
        bits = sum(1 << nb["dir"] for nb in cell["neighbours"] if nb["open"])
        assert m.tiledgidmap[gid] == bits + 1, (tmx, c, gid, bits)
    n += 1
print(n)
"#;
    let args: Vec<&Path> = pairs.iter().map(PathBuf::as_path).collect();
    assert_eq!(python(script, &args).trim(), "18");
}

/// A grid row's random walk is judged on its own grid, as `--grid` runs judge it: a triangle
/// grid two cells wide is one chain of cells (399,999 end to end at 2×200,000), whose walk is
/// refused although the square rule on 2×200,000 cells (a side of 200,000) would pass it. The
/// refusal names the row, the grid and `--no-time-limit`, and nothing is written.
#[test]
fn grid_rows_walk_time_is_checked_on_their_own_grid() {
    let dir = tempfile::tempdir().unwrap();
    let small = make(
        dir.path(),
        "t.parquet",
        &[
            "--grid", "triangle", "--size", "2x6", "--algo", "wilson", "--count", "2",
        ],
    );
    let out = dir.path().join("small.jsonl");
    levels(&[p(&small), "--format", "jsonl", "--out", p(&out)]);
    assert_eq!(jsonl(&out).len(), 2);
    let tall = dir.path().join("tall.parquet");
    common::with_column(&small, &tall, "height", |old, _| {
        std::sync::Arc::new(arrow_array::UInt32Array::from(vec![200_000; old.len()]))
    });
    let refused = dir.path().join("tall.jsonl");
    let o = batchgen()
        .arg("levels")
        .args([p(&tall), "--format", "jsonl", "--out", p(&refused)])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for want in [
        "row 0",
        "triangle grid (400000 cells, 399999 on its longest path",
        "--no-time-limit",
    ] {
        assert!(err.contains(want), "{want}: {err}");
    }
    assert!(!refused.exists());
}

/// A grid row whose maze and cell graph would not fit in memory is refused with exit 2,
/// naming the row and its size columns, before the graph is built: under an address-space
/// limit of 1 GiB (`ulimit -v`, on the child process only), rows rewritten to hex and triangle
/// 8192×8192 and polar 4000 rings, for a random walk (whose walk check builds the graph) and
/// for the backtracker, also with `--no-time-limit`. Nothing is written.
#[test]
fn grid_rows_over_memory_are_refused_before_the_graph_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_batchgen");
    for (grid, small, big) in [
        ("hex", "4x4", (8192, 8192)),
        ("triangle", "4x4", (8192, 8192)),
        ("polar", "3", (4000, 6)),
    ] {
        for algo in ["wilson", "backtracker"] {
            let name = format!("{grid}-{algo}");
            let file = make(
                dir.path(),
                &format!("{name}.parquet"),
                &[
                    "--grid", grid, "--size", small, "--algo", algo, "--count", "2",
                ],
            );
            let wide = dir.path().join(format!("{name}-wide.parquet"));
            let huge = dir.path().join(format!("{name}-huge.parquet"));
            let column = |v: u32| {
                move |old: &arrow_array::ArrayRef, _| -> arrow_array::ArrayRef {
                    std::sync::Arc::new(arrow_array::UInt32Array::from(vec![v; old.len()]))
                }
            };
            common::with_column(&file, &wide, "width", column(big.0));
            common::with_column(&wide, &huge, "height", column(big.1));
            for extra in ["", " --no-time-limit"] {
                let out = dir.path().join(format!("{name}.jsonl"));
                let o = Command::new("sh")
                    .arg("-c")
                    .arg(format!(
                        "ulimit -v 1048576 && exec \"$0\" levels \"$1\" --format jsonl --out \"$2\"{extra}"
                    ))
                    .arg(bin)
                    .arg(&huge)
                    .arg(&out)
                    .output()
                    .unwrap();
                let err = String::from_utf8_lossy(&o.stderr);
                assert_eq!(o.status.code(), Some(2), "{name}{extra}: {err}");
                for want in [
                    "row 0",
                    &format!("{algo} {grid} "),
                    "(columns width and height) needs about",
                ] {
                    assert!(err.contains(want), "{name}{extra}: {want}: {err}");
                }
                assert!(!out.exists());
            }
        }
    }
}
