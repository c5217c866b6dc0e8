//! The maze store (an Arrow IPC file): every record read back through the mmap reader equals
//! the maze regenerated from its identifiers and matches its Parquet row; records are found in
//! O(1) across record batches; foreign, truncated, newer and damaged files are refused with an
//! error naming the file (exit 2 at the CLI), never a panic; `render --solution` draws the
//! path between the recorded ends; the Level API reads the same mazes.

use crate::common;

use std::path::{Path, PathBuf};

use batchgen::generate::{regenerate, Scratch};
use batchgen::store::{self, Entry, StoreError, StoreInfo, StoreReader, StoreWriter};
use batchgen::{rng, Algorithm, Ends, Level, Maze};
use predicates::str::contains;

fn make_store(dir: &Path, extra: &[&str]) -> (PathBuf, common::Table) {
    let store = dir.join("mazes.arrow");
    let out = dir.join("m.parquet");
    common::batchgen()
        .args([
            "--algo",
            "backtracker,wilson,kruskal",
            "--size",
            "9x6",
            "--count",
            "40",
        ])
        .args(["--seed", "77", "--quiet", "--mazes"])
        .arg(&store)
        .arg("--out")
        .arg(&out)
        .args(extra)
        .assert()
        .success();
    (store, common::read(&out))
}

#[test]
fn records_equal_regenerated_mazes_and_parquet_rows() {
    let d = tempfile::tempdir().unwrap();
    let (path, table) = make_store(d.path(), &["--accept", "dead_ends >= 12"]);
    let store = StoreReader::open(&path).unwrap();
    assert_eq!((store.width, store.height, store.depth), (9, 6, 1));
    assert_eq!(store.seed, 77);
    assert_eq!(store.seeding_scheme, rng::SEEDING_SCHEME);
    assert_eq!(store.batchgen_version, env!("CARGO_PKG_VERSION"));
    assert!(
        store.ends_rule.starts_with("entrance=0,0 exit=8,5"),
        "{}",
        store.ends_rule
    );
    assert_eq!(store.len(), 120);
    assert_eq!(table.rows.len(), 120);
    let col = |n: &str| table.col(n);
    let mut scratch = Scratch::new();
    for k in 0..store.len() {
        let rec = store.record(k).unwrap();
        let row = &table.rows[k as usize];
        assert_eq!(rec.algo, row[col("algo")]);
        assert_eq!(rec.index.to_string(), row[col("index")]);
        assert_eq!(rec.maze_seed.to_string(), row[col("maze_seed")]);
        assert_eq!(rec.maze_hash.to_string(), row[col("maze_hash")]);
        assert_eq!((rec.width, rec.height, rec.depth, rec.seed), (9, 6, 1, 77));
        assert_eq!((rec.entrance, rec.exit), (0, 53), "corner ends");
        let algo = Algorithm::parse(rec.algo).unwrap();
        let mut regenerated = Maze::new(9, 6);
        let ms = regenerate(&algo, &mut regenerated, &mut scratch, 77, rec.index);
        assert_eq!(rec.maze_seed, ms);
        assert_eq!(rec.walls, regenerated.words());
        let maze = store.maze(k).unwrap();
        assert_eq!(maze, regenerated);
        assert!(maze.is_perfect());
        // The Level API reads the same maze, and regenerates it from the identifiers alone.
        let level = Level::from_store(&store, k).unwrap();
        assert_eq!(level.walls(), rec.walls);
        assert_eq!(
            level.metrics().solution_length.to_string(),
            row[col("solution_length")]
        );
        let algo = Algorithm::parse(rec.algo).unwrap();
        let size = batchgen::grid::Size::planar(9, 6);
        let again = batchgen::LevelSpec::new(algo, size, 77, rec.index)
            .build()
            .unwrap();
        assert_eq!(again.maze(), level.maze());
        assert_eq!(again.metrics(), level.metrics());
    }
    assert!(matches!(
        store.record(120),
        Err(StoreError::NoSuchRecord {
            record: 120,
            count: 120
        })
    ));
}

/// A store written through the library with tiny batches of 3-word mazes: record k is found
/// in its batch by arithmetic, for every k, across many batches, and the walls slice points
/// into the mapped file (zero-copy).
#[test]
fn records_are_found_across_many_batches_without_copying() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("many.arrow");
    // 40x40 = 1600 cells, 50 words a maze; rows_per_batch depends only on the word count.
    let (w, h) = (40, 40);
    let words = 50;
    let per_batch = store::rows_per_batch(words);
    let n = (2 * per_batch + 7) as u64; // two full batches and a partial one
    let info = StoreInfo {
        width: w,
        height: h,
        depth: 1,
        seed: 3,
        algos: vec!["sidewinder".into(), "eller".into()],
        ends_rule: "test".into(),
        mask: None,
        braid: 0.0,
    };
    let mut writer = StoreWriter::create(&path, &info).unwrap();
    let algos = [
        Algorithm::parse("sidewinder").unwrap(),
        Algorithm::parse("eller").unwrap(),
    ];
    let (mut m, mut scratch) = (Maze::new(w, h), Scratch::new());
    let mut hashes = Vec::new();
    for i in 0..n {
        let a = (i % 2) as usize;
        let seed = regenerate(&algos[a], &mut m, &mut scratch, 3, i);
        assert_eq!(m.words().len(), words);
        hashes.push(m.hash());
        writer
            .append(Entry {
                algo: a as u32,
                index: i,
                maze_seed: seed,
                maze_hash: m.hash(),
                entrance: (i % 1600) as u32,
                exit: 1599 - (i % 1600) as u32,
                loops: 0,
                walls: m.words(),
            })
            .unwrap();
    }
    assert_eq!(writer.count(), n);
    writer.finish().unwrap();
    let store = StoreReader::open(&path).unwrap();
    assert_eq!(store.len(), n);
    let file_len = std::fs::metadata(&path).unwrap().len() as usize;
    let mut seen_base = None;
    for k in (0..n).rev() {
        let r = store.record(k).unwrap();
        assert_eq!(r.index, k);
        assert_eq!(r.algo, info.algos[(k % 2) as usize]);
        assert_eq!(
            (r.entrance, r.exit),
            ((k % 1600) as u32, 1599 - (k % 1600) as u32)
        );
        assert_eq!(r.maze_hash, hashes[k as usize]);
        assert_eq!(store.maze(k).unwrap().hash(), hashes[k as usize]);
        // Zero-copy: consecutive records of one batch are adjacent in one mapped region.
        let at = r.walls.as_ptr() as usize;
        if let Some((prev_k, prev_at)) = seen_base {
            if prev_k / per_batch as u64 == k / per_batch as u64 {
                assert_eq!(prev_at - at, 8 * words, "record {k}");
            }
        }
        seen_base = Some((k, at));
    }
    // The file is a few bytes per row more than its walls: nothing is stored twice.
    assert!(file_len < n as usize * (8 * words + 64) + 64 * 1024);
}

#[test]
fn foreign_truncated_and_newer_files_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let (path, _) = make_store(d.path(), &[]);
    let bytes = std::fs::read(&path).unwrap();
    let write = |name: &str, b: &[u8]| {
        let p = d.path().join(name);
        std::fs::write(&p, b).unwrap();
        p
    };
    for cut in [bytes.len() - 5, bytes.len() / 2, 30, 9] {
        let p = write("cut.arrow", &bytes[..cut]);
        let e = StoreReader::open(&p).unwrap_err();
        assert!(matches!(e, StoreError::Truncated { .. }), "{cut}: {e}");
        assert!(e.to_string().contains("cut.arrow: truncated"), "{e}");
    }
    // Parquet, empty, text, an old format-1 store: not a store.
    let foreign = d.path().join("m.parquet");
    for (p, needle) in [
        (foreign, "no \"ARROW1\" magic"),
        (write("empty", b""), "no \"ARROW1\" magic"),
        (
            write("text", b"hello world, not a store"),
            "no \"ARROW1\" magic",
        ),
        (write("old.bgm", b"BGMAZES\0\x01\0\0\0"), "format-1 .bgm"),
    ] {
        let e = StoreReader::open(&p).unwrap_err();
        assert!(matches!(e, StoreError::Foreign { .. }), "{e}");
        assert!(e.to_string().contains("not a batchgen maze store"), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
    }
    // A newer format version: our columns, a newer batchgen's metadata.
    let p = d.path().join("newer.arrow");
    let meta = [(
        "batchgen.store_format".to_string(),
        (store::FORMAT_VERSION + 1).to_string(),
    )];
    let schema = arrow_schema::Schema::new_with_metadata(
        store::fields(2),
        std::collections::HashMap::from(meta),
    );
    let mut w = arrow_ipc::writer::FileWriter::try_new(std::fs::File::create(&p).unwrap(), &schema)
        .unwrap();
    w.finish().unwrap();
    drop(w);
    let e = StoreReader::open(&p).unwrap_err();
    let newer = store::FORMAT_VERSION as u64 + 1;
    assert!(
        matches!(e, StoreError::Newer { found, .. } if found as u64 == newer),
        "{e}"
    );
    let newer_text = format!("format version {newer}");
    assert!(e.to_string().contains(&newer_text), "{e}");
    // At the CLI: exit 2 naming the flag, the file and the reason.
    for (p, needle) in [
        (p, newer_text.as_str()),
        (write("cut2.arrow", &bytes[..bytes.len() - 5]), "truncated"),
        (d.path().join("m.parquet"), "not a batchgen maze store"),
    ] {
        render_refuses(&p, needle);
    }
}

/// `render --store p` exits 2 naming the flag, the file and `needle`.
fn render_refuses(p: &Path, needle: &str) {
    common::batchgen()
        .args(["render", "--record", "0", "--store"])
        .arg(p)
        .assert()
        .code(2)
        .stderr(contains("--store"))
        .stderr(contains(p.display().to_string()))
        .stderr(contains(needle));
}

/// An Arrow IPC file written by someone else (pyarrow-like: right magic, a footer, but not our
/// columns or metadata) is foreign.
#[test]
fn an_arrow_file_without_batchgen_metadata_is_foreign() {
    use std::sync::Arc;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("other.arrow");
    let schema = Arc::new(arrow_schema::Schema::new(vec![arrow_schema::Field::new(
        "x",
        arrow_schema::DataType::UInt64,
        false,
    )]));
    let batch = arrow_array::RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(arrow_array::UInt64Array::from(vec![1u64, 2, 3]))],
    )
    .unwrap();
    let mut w = arrow_ipc::writer::FileWriter::try_new(std::fs::File::create(&p).unwrap(), &schema)
        .unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    drop(w);
    let e = StoreReader::open(&p).unwrap_err();
    assert!(
        e.to_string()
            .contains("not a batchgen maze store: an Arrow file without batchgen's metadata"),
        "{e}"
    );
}

/// Every single-byte change and every cut of a small store is either refused with an error
/// or still reads as perfect mazes: no panic, whatever the damage.
#[test]
fn damaged_stores_never_panic() {
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("s.arrow");
    common::batchgen()
        .args([
            "--algo",
            "wilson,prim",
            "--size",
            "4x3",
            "--count",
            "3",
            "-q",
        ])
        .arg("--out")
        .arg(d.path().join("m.parquet"))
        .arg("--mazes")
        .arg(&store)
        .assert()
        .success();
    let good = std::fs::read(&store).unwrap();
    let name = Path::new("damaged");
    let probe = |b: Vec<u8>| {
        if let Ok(r) = StoreReader::from_bytes(b, name) {
            for k in 0..r.len() {
                let _ = r.record(k);
                if let Ok(m) = r.maze(k) {
                    assert!(m.is_perfect());
                }
            }
        }
    };
    for at in 0..good.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = good.clone();
            b[at] ^= x;
            probe(b);
        }
    }
    for cut in 0..good.len() {
        probe(good[..cut].to_vec());
    }
}

/// `--ends diameter`: the store records each maze's farthest pair, and `render --solution`
/// draws the path between them by default: `diameter + 1` path cells and `diameter` open walls
/// between them, so `2·diameter + 1` path marks in the ASCII picture. `--ends corners` picks
/// the corners instead.
#[test]
fn render_solution_uses_the_recorded_ends() {
    let d = tempfile::tempdir().unwrap();
    let store = d.path().join("s.arrow");
    let out = d.path().join("m.parquet");
    common::batchgen()
        .args([
            "--algo",
            "wilson,backtracker",
            "--size",
            "11x7",
            "--count",
            "6",
        ])
        .args(["--ends", "diameter", "-q", "--out"])
        .arg(&out)
        .arg("--mazes")
        .arg(&store)
        .assert()
        .success();
    let table = common::read(&out);
    let reader = StoreReader::open(&store).unwrap();
    assert!(reader.ends_rule.starts_with("diameter"));
    let mut differs = 0;
    for k in 0..reader.len() {
        let row = &table.rows[k as usize];
        let num = |c: &str| row[table.col(c)].parse::<u32>().unwrap();
        let (diameter, solution) = (num("diameter"), num("solution_length"));
        assert_eq!(diameter, solution);
        let r = reader.record(k).unwrap();
        assert_eq!(
            (r.entrance, r.exit),
            (num("diameter_start"), num("diameter_end"))
        );
        let draw = |extra: &[&str]| {
            let o = common::batchgen()
                .args([
                    "render",
                    "--solution",
                    "--record",
                    &k.to_string(),
                    "--store",
                ])
                .arg(&store)
                .args(extra)
                .output()
                .unwrap();
            common::assert_ok(&o);
            String::from_utf8(o.stdout).unwrap()
        };
        let art = draw(&[]);
        let dots = art.matches('.').count() as u32;
        assert_eq!(dots, 2 * diameter + 1, "record {k}:\n{art}");
        // The path runs from the recorded entrance to the recorded exit.
        let cell_marked = |c: u32| {
            let (x, y) = ((c % 11) as usize, (c / 11) as usize);
            art.lines().nth(2 * y + 1).unwrap().as_bytes()[2 * x + 1] == b'.'
        };
        assert!(cell_marked(r.entrance) && cell_marked(r.exit), "record {k}");
        // The override: corner to corner, the Parquet file's corner length is not recorded
        // for diameter runs, so compare with the Level API.
        let corners = draw(&["--ends", "corners"]);
        let level = Level::from_store(&reader, k)
            .unwrap()
            .with_ends(Ends::corners(11, 7))
            .unwrap();
        assert_eq!(
            corners.matches('.').count() as u32,
            2 * level.metrics().solution_length + 1
        );
        differs += usize::from(corners != art);
    }
    assert!(
        differs > 0,
        "corner paths never differed from the diameter paths"
    );
}

/// `LevelSpec::build` from a Parquet row's identifiers gives that row's maze and metrics, for
/// every generator (the game-facing API and the pipeline agree).
#[test]
fn levels_regenerated_from_parquet_rows_equal_the_rows() {
    let d = tempfile::tempdir().unwrap();
    let t = common::run(
        d.path(),
        "m.parquet",
        &[
            "--algo", "all", "--size", "10x7", "--count", "3", "--seed", "9",
        ],
    );
    assert_eq!(t.rows.len(), 3 * Algorithm::all().len());
    for row in &t.rows {
        let get = |c: &str| row[t.col(c)].clone();
        let size = batchgen::grid::Size::planar(
            get("width").parse().unwrap(),
            get("height").parse().unwrap(),
        );
        let level = batchgen::LevelSpec::new(
            get("algo").parse().unwrap(),
            size,
            get("seed").parse().unwrap(),
            get("index").parse().unwrap(),
        )
        .build()
        .unwrap();
        let m = level.metrics();
        assert_eq!(level.maze_seed().to_string(), get("maze_seed"));
        for (col, value) in [
            ("maze_hash", m.maze_hash.to_string()),
            ("dead_ends", m.dead_ends.to_string()),
            ("diameter", m.diameter.to_string()),
            ("solution_length", m.solution_length.to_string()),
            ("solution_turns", m.solution_turns.to_string()),
            ("walk_steps", m.walk_steps.to_string()),
        ] {
            assert_eq!(value, get(col), "{} {col}", get("algo"));
        }
    }
}

/// A random spanning tree of a 3D box built here, independently of the generators (Kruskal
/// over the grid's interior walls in an order from a small xorshift).
fn spanning_tree_3d(size: batchgen::grid::Size, mut state: u64) -> Maze {
    let mut walls: Vec<batchgen::grid::Wall> = size.interior_walls().collect();
    for i in (1..walls.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        walls.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let mut dsu = batchgen::dsu::Dsu::new(size.cells());
    let mut m = Maze::with_size(size);
    for w in walls {
        if dsu.union(w.a, w.b) {
            m.carve(w.a, w.dir);
        }
    }
    m
}

#[test]
fn three_d_records_round_trip_with_their_depth() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("cube.arrow");
    let size = batchgen::grid::Size::new(5, 4, 3);
    let mazes: Vec<Maze> = (1..=30u64)
        .map(|k| spanning_tree_3d(size, k * 0x9E37_79B9))
        .collect();
    assert!(mazes.iter().all(|m| m.is_perfect() && m.depth() == 3));
    let info = StoreInfo {
        width: 5,
        height: 4,
        depth: 3,
        seed: 9,
        algos: vec!["wilson".into()],
        ends_rule: "first and last cell".into(),
        mask: None,
        braid: 0.0,
    };
    let mut w = StoreWriter::create(&path, &info).unwrap();
    for (k, m) in mazes.iter().enumerate() {
        assert_eq!(m.words().len(), size.words_per_maze());
        w.append(Entry {
            algo: 0,
            index: k as u64,
            maze_seed: k as u64 * 7,
            maze_hash: m.hash(),
            entrance: 0,
            exit: size.cells() - 1,
            loops: 0,
            walls: m.words(),
        })
        .unwrap();
    }
    w.finish().unwrap();
    let r = StoreReader::open(&path).unwrap();
    assert_eq!((r.width, r.height, r.depth), (5, 4, 3));
    assert_eq!(r.size(), size);
    assert_eq!(r.len(), 30);
    for (k, m) in mazes.iter().enumerate() {
        let rec = r.record(k as u64).unwrap();
        assert_eq!((rec.width, rec.height, rec.depth), (5, 4, 3));
        assert_eq!((rec.entrance, rec.exit), (0, 59));
        let back = r.maze(k as u64).unwrap();
        assert_eq!(back.size(), size);
        assert_eq!(&back, m);
        assert_eq!(back.hash(), m.hash());
    }
    // A damaged down wall is found: the record is no longer a perfect maze (or its hash differs).
    let mut words = mazes[0].words().to_vec();
    let down_word = words.len() - 1;
    words[down_word] ^= 1;
    let bad = d.path().join("bad.arrow");
    let mut w = StoreWriter::create(&bad, &info).unwrap();
    w.append(Entry {
        algo: 0,
        index: 0,
        maze_seed: 0,
        maze_hash: mazes[0].hash(),
        entrance: 0,
        exit: 59,
        loops: 0,
        walls: &words,
    })
    .unwrap();
    w.finish().unwrap();
    let e = StoreReader::open(&bad).unwrap().maze(0).unwrap_err();
    assert!(
        matches!(
            e,
            StoreError::NotPerfect { .. } | StoreError::BadRecord { .. }
        ),
        "{e}"
    );
}

/// `path` rewritten to `to` with its schema metadata changed by `edit`: the same record
/// batches, as an older or a damaged batchgen might have written them.
fn with_metadata(path: &Path, to: &Path, edit: impl Fn(&mut arrow_schema::Metadata)) {
    let reader =
        arrow_ipc::reader::FileReader::try_new(std::fs::File::open(path).unwrap(), None).unwrap();
    let schema = reader.schema();
    let mut meta = schema.metadata().clone();
    edit(&mut meta);
    let schema = arrow_schema::Schema::new_with_metadata(schema.fields().clone(), meta);
    let mut w = arrow_ipc::writer::FileWriter::try_new(std::fs::File::create(to).unwrap(), &schema)
        .unwrap();
    let schema = std::sync::Arc::new(schema);
    for b in reader {
        let columns = b.unwrap().columns().to_vec();
        w.write(&arrow_array::RecordBatch::try_new(schema.clone(), columns).unwrap())
            .unwrap();
    }
    w.finish().unwrap();
}

/// A braided run's store records its chance as `batchgen.braid`; a value that is not a chance
/// is refused naming the key and the value (exit 2 at the CLI); a store without the key (as
/// written before it existed) still gives its perfect records' ids, and refuses those of its
/// braided records with `BraidUnknown`, while their stored mazes stay readable.
#[test]
fn the_braid_chance_is_recorded_and_checked() {
    let d = tempfile::tempdir().unwrap();
    let (path, t) = make_store(d.path(), &["--braid", "0.25"]);
    let r = StoreReader::open(&path).unwrap();
    assert_eq!(r.braid(), Some(0.25));
    let perfect_dir = d.path().join("perfect");
    std::fs::create_dir(&perfect_dir).unwrap();
    let (perfect, _) = make_store(&perfect_dir, &[]);
    assert_eq!(StoreReader::open(&perfect).unwrap().braid(), None);
    for bad in ["1.5", "-0.1", "nan", "inf", "half", ""] {
        let p = d.path().join("bad.arrow");
        with_metadata(&path, &p, |m| {
            m.insert("batchgen.braid", bad);
        });
        let e = StoreReader::open(&p).unwrap_err();
        assert!(matches!(e, StoreError::BadBraid { .. }), "{bad}: {e}");
        let text = e.to_string();
        assert!(text.contains("batchgen.braid") && text.contains(&format!("'{bad}'")));
        render_refuses(&p, "batchgen.braid");
    }
    // Without the key: the records as before.
    let old = d.path().join("old.arrow");
    with_metadata(&path, &old, |m| {
        m.remove("batchgen.braid");
    });
    let old = StoreReader::open(&old).unwrap();
    assert_eq!(old.braid(), None);
    let loops = t.f64s("loops");
    assert!(loops.contains(&0.0) && loops.iter().any(|&l| l > 0.0));
    for (k, &l) in loops.iter().enumerate() {
        let k = k as u64;
        let level = Level::from_store(&old, k).unwrap();
        assert_eq!(level.walls(), r.record(k).unwrap().walls);
        assert_eq!(level.braid(), 0.0);
        match batchgen::MazeId::from_store(&old, k) {
            Ok(id) => {
                assert_eq!((l, id.braid), (0.0, 0.0));
                assert_eq!(id.level().unwrap().walls(), level.walls());
            }
            Err(e) => {
                assert!(l > 0.0, "record {k}: {e}");
                assert!(
                    matches!(e, batchgen::MazeIdError::BraidUnknown { record, .. } if record == k),
                    "{e}"
                );
            }
        }
        // The new store gives every record's id, braided with its chance.
        let id = batchgen::MazeId::from_store(&r, k).unwrap();
        assert_eq!(id.braid, 0.25);
        assert_eq!(id.level().unwrap().walls(), r.record(k).unwrap().walls);
    }
}
