//! [`measure_pair`] against [`measure`] one maze at a time: every generator, sizes down to one
//! row or column, odd sizes, a mask, fixed and diameter ends, and the pairs it must not
//! interleave (braided, 3D, different sizes).

use super::{measure, measure_pair, Ends, Scratch};
use crate::braid::{self, Scratch as BraidScratch};
use crate::generate::{generate_seeded, Algorithm, Scratch as GenScratch};
use crate::grid::{Mask, Maze, Size};
use crate::rng::Chance;
use std::sync::Arc;

/// A maze of `size` (with `mask`) made by `algo` from seed `seed`.
fn maze(algo: &Algorithm, size: Size, mask: Option<&Arc<Mask>>, seed: u64) -> Maze {
    let mut m = Maze::with_size(size);
    m.set_mask(mask.cloned());
    generate_seeded(algo, &mut m, &mut GenScratch::new(), seed);
    m
}

/// `measure_pair` gives each maze what `measure` gives it alone, and leaves the second maze's
/// solution in the scratch; `pair` is reused across calls, as the batch reuses it.
fn check(mazes: [&Maze; 2], ends: Ends, pair: &mut Scratch, what: &str) {
    let got = measure_pair(mazes, ends, pair);
    let mut one = Scratch::new();
    let want0 = measure(mazes[0], ends, &mut one);
    let want1 = measure(mazes[1], ends, &mut one);
    assert_eq!(got, [want0, want1], "{what}");
    assert_eq!(pair.solution_path(), one.solution_path(), "{what}");
}

/// The ends to try on `m`: corners (or the mask's first and last cells), the middle cell to
/// the first, and a farthest pair.
fn ends_of(m: &Maze) -> [Ends; 3] {
    let (first, last) = match m.mask() {
        Some(mask) => (mask.first(), mask.last()),
        None => (0, m.size().cells() - 1),
    };
    let mid = m.mask().map_or(m.size().cells() / 2, |mask| mask.centre());
    [
        Ends::cells(first, last),
        Ends::cells(mid, first),
        Ends::Diameter,
    ]
}

#[test]
fn paired_measures_are_the_measures_one_by_one() {
    let mask = Arc::new(Mask::from_text("....#\n.#...\n...#.\n.....\n..#..\n").unwrap());
    let mut pair = Scratch::new();
    let mut sizes: Vec<(Size, Option<&Arc<Mask>>)> = [
        (64, 64),
        (1, 1),
        (1, 9),
        (9, 1),
        (2, 2),
        (7, 5),
        (13, 17),
        (33, 3),
    ]
    .into_iter()
    .map(|(w, h)| (Size::planar(w, h), None))
    .collect();
    sizes.push((mask.size(), Some(&mask)));
    for &(size, mask) in &sizes {
        let algos: Vec<Algorithm> = Algorithm::all()
            .into_iter()
            .filter(|a| mask.is_none() || a.supports_mask())
            .collect();
        assert!(algos.len() > 2);
        for (k, a) in algos.iter().enumerate() {
            // Two different generators, so a mix-up of the two mazes shows; then one generator
            // with two seeds, as the batch pairs its rows.
            let b = &algos[(k + 1) % algos.len()];
            for seed in 0..3u64 {
                let x = maze(a, size, mask, seed);
                let y = maze(b, size, mask, seed + 100);
                let z = maze(a, size, mask, seed + 200);
                for ends in ends_of(&x) {
                    let what = format!("{a:?} {b:?} {size:?} seed {seed} {ends:?}");
                    check([&x, &y], ends, &mut pair, &what);
                    check([&y, &x], ends, &mut pair, &what);
                    check([&x, &z], ends, &mut pair, &what);
                }
            }
        }
    }
}

#[test]
fn pairs_that_cannot_be_interleaved_are_measured_one_by_one() {
    let mut pair = Scratch::new();
    let planar = Size::planar(12, 9);
    let a = Algorithm::Wilson;
    let x = maze(&a, planar, None, 1);
    // Another width with the same cell count, another size, a 3D maze.
    let wide = maze(&a, Size::planar(9, 12), None, 2);
    let small = maze(&a, Size::planar(5, 4), None, 3);
    let cube = maze(&a, Size::new(4, 3, 3), None, 4);
    let mut braided = maze(&a, planar, None, 5);
    let loops = braid::braid_seeded(&mut braided, Chance::new(1.0), 5, &mut BraidScratch::new());
    assert!(loops > 0);
    for other in [&wide, &small, &braided] {
        for ends in [Ends::cells(0, 3), Ends::Diameter] {
            check([&x, other], ends, &mut pair, "planar");
            check([other, &x], ends, &mut pair, "planar");
        }
    }
    let cube2 = maze(&a, cube.size(), None, 6);
    for ends in [Ends::first_last(cube.size()), Ends::Diameter] {
        check([&cube, &cube2], ends, &mut pair, "3D");
    }
}
