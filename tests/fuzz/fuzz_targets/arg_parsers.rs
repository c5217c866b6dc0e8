//! Fuzz target: the `--size`, `--entrance`/`--exit`/`--ends`, count and `--algo` parsers, fed
//! the same text. None may panic; an algorithm that parses must parse back from its canonical
//! name.
#![no_main]

#[path = "../targets.rs"]
mod targets;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| targets::arg_parsers(data));
