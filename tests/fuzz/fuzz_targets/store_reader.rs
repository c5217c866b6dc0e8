//! Fuzz target: the maze-store reader fed arbitrary bytes. It must refuse or accept without
//! panicking or allocating beyond what the bytes justify, and every record it hands out must be
//! either an error naming the record or a perfect maze.
#![no_main]

#[path = "../targets.rs"]
mod targets;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| targets::store_reader(data));
