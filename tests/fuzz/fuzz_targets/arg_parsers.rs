//! Fuzz target: the `--size`, `--entrance`/`--exit`/`--ends`, count and `--algo` parsers, fed
//! the same text. None may panic; an algorithm that parses must parse back from its canonical
//! name.
#![no_main]

use batchgen::args::{parse_cell, parse_count, parse_size, resolve_ends};
use batchgen::Algorithm;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
    if let Ok(list) = Algorithm::parse_list(s) {
        assert!(!list.is_empty());
    }
});
