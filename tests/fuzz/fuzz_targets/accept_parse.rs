//! Fuzz target: the `--accept` expression parser, and evaluating whatever it accepts on a
//! fixed set of metrics (no input may panic either step).
#![no_main]

use batchgen::accept::{Accept, Candidate};
use batchgen::Metrics;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
                size: batchgen::grid::Size::planar(w, h),
                seed: 0,
                row: &row,
            });
        }
        // What it parsed, it prints back as something it parses again.
        let _ = Accept::parse(a.source());
    }
});
