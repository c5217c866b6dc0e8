//! Every generator makes perfect mazes (W·H−1 passages and every cell reachable) on many sizes
//! and seeds, and on small grids every metric equals an independent brute-force recomputation
//! (BFS from every cell for the diameter).

use crate::common;
use common::{adjacency, bfs, make};

use batchgen::generate::Scratch;
use batchgen::{metrics, Algorithm, Ends, Maze, Metrics};

const SIZES: [(u32, u32); 14] = [
    (1, 1),
    (1, 2),
    (2, 1),
    (1, 9),
    (9, 1),
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (4, 4),
    (5, 7),
    (8, 3),
    (10, 10),
    (17, 6),
];

fn brute_force_check(m: &Maze, ends: Ends, got: &Metrics, path_seen: &[u32]) {
    let adj = adjacency(m);
    let n = m.cells() as usize;
    let w = m.width();
    common::assert_degree_columns(m, &adj, got);
    let mut diameter = 0;
    for c in 0..n as u32 {
        let (d, _) = bfs(&adj, c);
        diameter = diameter.max(*d.iter().max().unwrap());
    }
    assert_eq!(got.diameter, diameter);
    let (ds, _) = bfs(&adj, got.diameter_start);
    assert_eq!(
        ds[got.diameter_end as usize], diameter,
        "endpoints are a farthest pair"
    );
    let (entrance, exit) = ends.cells_of(got);
    let (de, parent) = bfs(&adj, entrance);
    assert_eq!(got.solution_length, de[exit as usize]);
    // Turns: walk the unique path and compare successive moves as (dx, dy).
    let mut path = vec![exit];
    while *path.last().unwrap() != entrance {
        path.push(parent[*path.last().unwrap() as usize]);
    }
    let forward: Vec<u32> = path.iter().rev().copied().collect();
    assert_eq!(path_seen, &forward[..], "solution path, entrance first");
    let moves: Vec<(i64, i64)> = path
        .windows(2)
        .map(|p| {
            let (a, b) = (p[0] as i64, p[1] as i64);
            (a % w as i64 - b % w as i64, a / w as i64 - b / w as i64)
        })
        .collect();
    let turns = moves.windows(2).filter(|m| m[0] != m[1]).count();
    assert_eq!(got.solution_turns as usize, turns);
    assert_eq!(got.maze_hash, m.hash());
}

#[test]
fn every_generator_is_perfect_on_many_sizes() {
    let mut s = Scratch::new();
    for algo in Algorithm::all() {
        for (w, h) in SIZES {
            for i in 0..300 {
                let m = make(&algo, w, h, 11, i, &mut s);
                assert_eq!(
                    m.passages(),
                    (w * h - 1) as u64,
                    "{} {w}x{h} #{i}",
                    algo.name()
                );
                assert!(m.is_perfect(), "{} {w}x{h} #{i} not connected", algo.name());
            }
        }
    }
}

#[test]
fn perfect_on_larger_odd_and_flat_grids() {
    let mut s = Scratch::new();
    for algo in Algorithm::all() {
        for (w, h) in [
            (63, 65),
            (200, 3),
            (3, 200),
            (128, 128),
            (1, 1000),
            (1000, 1),
        ] {
            for i in 0..5 {
                let m = make(&algo, w, h, 3, i, &mut s);
                assert!(m.is_perfect(), "{} {w}x{h} #{i}", algo.name());
            }
        }
    }
}

#[test]
fn metrics_equal_brute_force_on_small_grids() {
    let mut s = Scratch::new();
    let mut ms = metrics::Scratch::new();
    for algo in Algorithm::all() {
        for (w, h) in SIZES {
            for i in 0..40 {
                let m = make(&algo, w, h, 5, i, &mut s);
                let corners = Ends::corners(w, h);
                let got = metrics::measure(&m, corners, &mut ms);
                brute_force_check(&m, corners, &got, &ms.solution_path());
                // An arbitrary entrance / exit pair, and the farthest pair.
                let ends = Ends::cells((i as u32 * 7) % (w * h), (i as u32 * 13 + 1) % (w * h));
                let got = metrics::measure(&m, ends, &mut ms);
                brute_force_check(&m, ends, &got, &ms.solution_path());
                let got = metrics::measure(&m, Ends::Diameter, &mut ms);
                assert_eq!(got.solution_length, got.diameter);
                brute_force_check(&m, Ends::Diameter, &got, &ms.solution_path());
            }
        }
    }
}

#[test]
fn a_maze_with_a_loop_is_measured_as_a_graph() {
    // The 2×2 ring: one loop, two shortest paths corner to corner.
    let mut m = Maze::new(2, 2);
    m.open_all();
    let got = metrics::measure(&m, Ends::corners(2, 2), &mut metrics::Scratch::new());
    assert_eq!((got.loops, got.solution_count, got.diameter), (1, 2, 2));
}
