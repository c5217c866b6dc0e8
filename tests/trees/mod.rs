//! Random spanning trees of W×H×D boxes built from the grid API alone (random Kruskal and
//! randomized depth-first search), for the 3D metric tests and the 3D metrics bench: they need
//! no generator, so they check and time `metrics::measure` independently of `generate`.
//! A module of the test binary (`mod trees;` in `tests/tests.rs`, used by `tests/metrics3d.rs`)
//! and included by `benches/metrics3d.rs` (by path).
#![allow(dead_code)]

use batchgen::grid::{Dir, Size, Wall};
use batchgen::{Maze, Rng};

/// Union-find root with path halving.
fn root(up: &mut [u32], mut x: u32) -> u32 {
    while up[x as usize] != x {
        up[x as usize] = up[up[x as usize] as usize];
        x = up[x as usize];
    }
    x
}

/// A random spanning tree of the box: random Kruskal over the interior walls, after opening
/// the walls in `forced` (which must not make a loop).
pub fn kruskal(size: Size, rng: &mut Rng, forced: &[Wall]) -> Maze {
    let mut up: Vec<u32> = (0..size.cells()).collect();
    let mut walls: Vec<Wall> = size.interior_walls().collect();
    rng.shuffle(&mut walls);
    let mut open = Vec::new();
    for w in forced.iter().chain(&walls) {
        let (a, b) = (root(&mut up, w.a), root(&mut up, w.b));
        if a != b {
            up[a as usize] = b;
            open.push(*w);
        }
    }
    let m = Maze::from_open_walls(size, open);
    assert!(m.is_perfect(), "{size}");
    m
}

/// A random spanning tree by randomized depth-first search from a random cell (long
/// corridors, long paths).
pub fn backtracker(size: Size, rng: &mut Rng) -> Maze {
    let mut m = Maze::with_size(size);
    let mut seen = vec![false; size.cells() as usize];
    let start = rng.below(size.cells());
    seen[start as usize] = true;
    let mut stack = vec![start];
    while let Some(&c) = stack.last() {
        let fresh: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| size.has_neighbour(c, d) && !seen[size.neighbour(c, d) as usize])
            .collect();
        if fresh.is_empty() {
            stack.pop();
            continue;
        }
        let d = fresh[rng.below(fresh.len() as u32) as usize];
        m.carve(c, d);
        let nb = size.neighbour(c, d);
        seen[nb as usize] = true;
        stack.push(nb);
    }
    assert!(m.is_perfect(), "{size}");
    m
}
