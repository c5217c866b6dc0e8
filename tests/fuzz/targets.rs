//! What each fuzz target does with one input, shared by the libFuzzer targets in
//! `fuzz_targets/` and the replay of the saved inputs in `tests/integrity.rs`, so the two cannot
//! drift. None of them may panic on any input.

// Each libFuzzer target calls one of these.
#![allow(dead_code)]

use batchgen::accept::{Accept, Candidate};
use batchgen::args::{parse_cell, parse_count, parse_size, resolve_ends};
use batchgen::store::StoreReader;
use batchgen::{Algorithm, Metrics};

/// The `--accept` expression parser, and evaluating whatever it accepts on a fixed set of
/// metrics; what it parsed, it prints back as something it parses again.
pub fn accept_parse(data: &[u8]) {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(a) = Accept::parse(src) {
        let m = Metrics::default();
        for (w, h) in [(1, 1), (64, 64)] {
            let row = batchgen::metrics::Row {
                index: 7,
                metrics: m,
                ..Default::default()
            };
            let _ = a.eval(&Candidate {
                algo: "wilson",
                grid: batchgen::topo::Grid::Hex,
                size: batchgen::grid::Size::planar(w, h),
                seed: 0,
                row: &row,
            });
        }
        let _ = Accept::parse(a.source());
    }
}

/// The `--size`, `--entrance`/`--exit`/`--ends`, count and `--algo` parsers, fed the same
/// text; an algorithm that parses must parse back from its canonical name.
pub fn arg_parsers(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (w, h) = parse_size("--size", s).unwrap_or((3, 2));
    let _ = parse_cell("--entrance", s, w, h);
    let _ = parse_cell("--exit", s, u32::MAX, u32::MAX);
    let _ = parse_count("--count", s);
    // `--ends` / `--entrance` / `--exit` together, as the main job and `render` resolve them.
    let _ = resolve_ends(Some(s), None, None, w, h);
    let _ = resolve_ends(None, Some(s), Some(s), w, h);
    // 3D sizes and X,Y,Z cells, as the main job and `render` read them.
    let size =
        batchgen::args::parse_size3("--size", s).unwrap_or(batchgen::grid::Size::new(3, 2, 2));
    let _ = batchgen::args::parse_cell3("--entrance", s, size);
    let _ = batchgen::args::resolve_ends_sized(None, Some(s), Some(s), size);
    if let Ok(a) = Algorithm::parse(s) {
        let name = a.name();
        let back = Algorithm::parse(&name).expect("a canonical name parses");
        assert_eq!(back.name(), name, "canonical name round trip");
    }
    let _ = Algorithm::parse_list(s);
}

/// The maze-store reader fed arbitrary bytes: it must refuse or accept without panicking or
/// allocating beyond what the bytes justify, and every record it hands out must be either an
/// error naming the record or a perfect maze.
pub fn store_reader(data: &[u8]) {
    let Ok(r) = StoreReader::from_bytes(data.to_vec(), std::path::Path::new("fuzz")) else {
        return;
    };
    for k in 0..r.len().min(4) {
        let _ = r.record(k);
        if let Ok(m) = r.maze(k) {
            assert!(m.is_perfect());
        }
    }
    let _ = r.record(r.len());
}
