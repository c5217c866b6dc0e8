//! The 2D pair loops (`generate_pair` of Prim, the backtracker and hunt-and-kill) against their
//! single loops: a worker makes two mazes at once only because that gives exactly the two
//! mazes, and leaves exactly the two random sources, that the single loop makes and leaves for
//! each alone.

use super::topology::Planar;
use super::{backtracker, hunt_and_kill, prim, Scratch};
use crate::grid::{Mask, Maze, Size};
use crate::rng::Rng;
use std::sync::Arc;

/// A single loop: one maze from one source.
type Single = fn(&mut Maze, &mut Scratch, &mut Rng);
/// A pair loop: two mazes of one size, each from its own scratch and source.
type Pair = fn(&mut Maze, &mut Scratch, &mut Rng, &mut Maze, &mut Scratch, &mut Rng);

/// A pair is the two mazes made alone, on one cell, one row, one column, odd sizes, a long thin
/// grid, a size whose Prim frontier outgrows the buffer, and a mask; one side's scratch starts
/// large (a bigger maze came first) and the other's empty, so their buffers grow at different
/// steps. Each source is left where the single maze leaves it (a pair that stops one maze
/// early may still give the same walls, but not the same source).
#[test]
fn a_pair_is_two_single_mazes() {
    let loops: [(&str, Single, Pair); 3] = [
        ("prim", prim::generate::<Planar, Rng>, prim::generate_pair),
        (
            "backtracker",
            backtracker::generate::<Planar, Rng>,
            backtracker::generate_pair,
        ),
        (
            "hunt-and-kill",
            hunt_and_kill::generate::<Planar, Rng>,
            hunt_and_kill::generate_pair,
        ),
    ];
    let mask = Arc::new(Mask::from_text("..#....\n.##.#..\n....#..\n.#.....\n").unwrap());
    let mut templates: Vec<Maze> = [(1, 1), (1, 7), (7, 1), (2, 2), (13, 9), (100, 3), (90, 90)]
        .into_iter()
        .map(|(w, h)| Maze::with_size(Size::planar(w, h)))
        .collect();
    templates.push(Maze::masked(mask));
    let mut big = Maze::with_size(Size::planar(120, 120));
    for (name, single, pair) in loops {
        for template in &templates {
            for i in 0..12u64 {
                let (mut sa, mut sb) = (Scratch::new(), Scratch::new());
                single(&mut big, &mut sa, &mut Rng::from_maze_seed(i));
                let seeds = [i.wrapping_mul(0x9e37_79b9_7f4a_7c15), i ^ 0x55];
                let (mut a, mut b) = (template.clone(), template.clone());
                let (mut ra, mut rb) =
                    (Rng::from_maze_seed(seeds[0]), Rng::from_maze_seed(seeds[1]));
                pair(&mut a, &mut sa, &mut ra, &mut b, &mut sb, &mut rb);
                for (got, seed, after) in [(&a, seeds[0], ra), (&b, seeds[1], rb)] {
                    let (mut want, mut r) = (template.clone(), Rng::from_maze_seed(seed));
                    single(&mut want, &mut Scratch::new(), &mut r);
                    assert_eq!(got, &want, "{name} {} seed {seed}", want.size());
                    assert!(got.is_perfect());
                    assert_eq!(format!("{after:?}"), format!("{r:?}"), "{name} seed {seed}");
                }
            }
        }
    }
}
