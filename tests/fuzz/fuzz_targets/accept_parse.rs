//! Fuzz target: the `--accept` expression parser, and evaluating whatever it accepts on a
//! fixed set of metrics (no input may panic either step).
#![no_main]

#[path = "../targets.rs"]
mod targets;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| targets::accept_parse(data));
