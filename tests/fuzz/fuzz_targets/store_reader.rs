//! Fuzz target: the maze-store reader fed arbitrary bytes. It must refuse or accept without
//! panicking or allocating beyond what the bytes justify, and every record it hands out must be
//! either an error naming the record or a perfect maze.
#![no_main]

use batchgen::store::StoreReader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
});
