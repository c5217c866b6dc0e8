//! Property tests: the accept parser never panics and evaluates like Rust does; every generator
//! makes a perfect maze for arbitrary sizes and seeds; mazes survive a trip through their words.

use batchgen::accept::{Accept, Candidate};
use batchgen::generate::Scratch;
use batchgen::grid::Size;
use batchgen::metrics::Row;
use batchgen::{Algorithm, Maze, Metrics, Rng};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn accept_parse_never_panics(s in ".{0,60}") {
        let _ = Accept::parse(&s);
    }

    #[test]
    fn accept_parse_never_panics_on_near_valid_input(
        s in "[a-z_ ()!<>=&|0-9.]{0,40}"
    ) {
        if let Ok(a) = Accept::parse(&s) {
            let m = Metrics::default();
            let row = Row { metrics: m, ..Default::default() };
            let _ = a.eval(&Candidate { algo: "wilson", grid: batchgen::topo::Grid::Square, size: Size::planar(1, 1), seed: 0, row: &row });
        }
    }

    #[test]
    fn accept_evaluates_like_rust(a in 0u32..50, b in 0u32..50, c in 0u32..50, op in 0usize..6) {
        let ops = ["<", "<=", ">", ">=", "==", "!="];
        let m = Metrics { dead_ends: a, diameter: b, ..Default::default() };
        let row = Row { index: c as u64, metrics: m, ..Default::default() };
        let cand = Candidate { algo: "wilson", grid: batchgen::topo::Grid::Square, size: Size::planar(1, 1), seed: 0, row: &row };
        let expr = format!("dead_ends {} diameter || !(index < {c}) && diameter == {b}", ops[op]);
        let cmp = match op { 0 => a < b, 1 => a <= b, 2 => a > b, 3 => a >= b, 4 => a == b, _ => a != b };
        // `index < c` is false, so the right side is true: the whole is always true.
        prop_assert!(Accept::parse(&expr).unwrap().eval(&cand));
        let expr = format!("dead_ends {} diameter && index >= {c}", ops[op]);
        prop_assert_eq!(Accept::parse(&expr).unwrap().eval(&cand), cmp);
    }

    #[test]
    fn generators_are_perfect_on_arbitrary_sizes(w in 1u32..40, h in 1u32..40, seed: u64) {
        let mut s = Scratch::new();
        for algo in Algorithm::all() {
            let mut m = Maze::new(w, h);
            algo.generate(&mut m, &mut s, &mut Rng::from_maze_seed(seed));
            prop_assert!(m.is_perfect(), "{} {}x{} seed {}", algo.name(), w, h, seed);
            let back = Maze::from_words(w, h, m.words()).unwrap();
            prop_assert_eq!(back.hash(), m.hash());
        }
    }
}
