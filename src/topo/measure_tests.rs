//! The graph metrics against two references: on the square grid, the square metrics of
//! [`crate::metrics::measure`] for the same maze (an independent implementation of the same
//! definitions); on the other grids, brute force (all-pairs distances, direct readings of the
//! definitions).

use super::generate::{generate, GraphScratch};
use super::measure::{grid_distance, measure, measure_peel, GraphEnds, MeasureScratch};
use super::{maze_seed, CellGraph, GraphMaze, Grid, GridSize};
use crate::grid::{Dir, Maze};
use crate::{generate as sq, metrics, Algorithm, Ends, Rng};

/// The square maze as a graph maze on the square cell graph.
fn as_graph(maze: &Maze, g: &CellGraph) -> GraphMaze {
    let mut m = GraphMaze::new(g);
    for c in 0..g.len() {
        for t in g.slots(c) {
            if maze.is_open(c, Dir::ALL[g.dir(t) as usize]) {
                m.open(g.edge(t));
            }
        }
    }
    m
}

#[test]
fn square_graph_metrics_equal_the_square_metrics() {
    for (w, h) in [(1, 1), (1, 5), (6, 1), (7, 5), (16, 16)] {
        let g = CellGraph::new(GridSize::new(Grid::Square, w, h));
        let mut ms = MeasureScratch::new();
        let mut sqs = metrics::Scratch::new();
        let mut maze = Maze::new(w, h);
        let mut gen = sq::Scratch::new();
        for algo in Algorithm::all() {
            for index in 0..5 {
                sq::regenerate(&algo, &mut maze, &mut gen, 3, index);
                let (a, b) = (0, w * h - 1);
                let want = metrics::measure(&maze, Ends::cells(a, b), &mut sqs);
                let got = measure(
                    &g,
                    &as_graph(&maze, &g),
                    GraphEnds::new(&g, a, b),
                    0,
                    &mut ms,
                );
                let mut got_cmp = got;
                got_cmp.maze_hash = want.maze_hash;
                // A farthest pair is not unique: compare its length, and that it is one.
                (got_cmp.diameter_start, got_cmp.diameter_end) =
                    (want.diameter_start, want.diameter_end);
                assert_eq!(got_cmp, want, "{} {w}x{h} index {index}", algo.name());
                assert_eq!(ms.solution_path(), sqs.solution_path());
            }
        }
    }
}

/// Distances from `a` over the maze's passages (brute force, allocating).
fn distances(g: &CellGraph, m: &GraphMaze, a: u32) -> Vec<u32> {
    let mut d = vec![u32::MAX; g.len() as usize];
    d[a as usize] = 0;
    let mut q = std::collections::VecDeque::from([a]);
    while let Some(u) = q.pop_front() {
        for t in g.slots(u) {
            let v = g.nbr(t);
            if m.is_open(g.edge(t)) && d[v as usize] == u32::MAX {
                d[v as usize] = d[u as usize] + 1;
                q.push_back(v);
            }
        }
    }
    d
}

#[test]
fn metrics_on_every_grid_match_brute_force() {
    for size in [
        GridSize::new(Grid::Hex, 1, 1),
        GridSize::new(Grid::Hex, 6, 5),
        GridSize::new(Grid::Triangle, 7, 4),
        GridSize::new(Grid::Triangle, 2, 2),
        GridSize::new(Grid::Polar, 1, 6),
        GridSize::new(Grid::Polar, 4, 6),
        GridSize::new(Grid::Polar, 3, 4),
    ] {
        let g = CellGraph::new(size);
        let mut s = GraphScratch::new();
        let mut ms = MeasureScratch::new();
        let ends = GraphEnds::corners(&g);
        for algo in super::generate::on_grid(size.grid) {
            for index in 0..8 {
                let mut maze = GraphMaze::new(&g);
                let mut rng = Rng::from_maze_seed(maze_seed(5, &algo.name(), size, index));
                generate(&algo, &g, &mut maze, &mut s, &mut rng);
                let m = measure(&g, &maze, ends, 0, &mut ms);
                let all: Vec<Vec<u32>> = (0..g.len()).map(|a| distances(&g, &maze, a)).collect();
                let diameter = all.iter().flatten().copied().max().unwrap();
                assert_eq!(m.diameter, diameter);
                assert_eq!(
                    all[m.diameter_start as usize][m.diameter_end as usize],
                    diameter
                );
                assert_eq!(
                    m.solution_length,
                    all[ends.entrance as usize][ends.exit as usize]
                );
                let deg = |c: u32| g.slots(c).filter(|&t| maze.is_open(g.edge(t))).count();
                let by = |k: usize| (0..g.len()).filter(|&c| deg(c) == k).count() as u32;
                assert_eq!(m.dead_ends, by(1));
                assert_eq!(m.corridors, by(2));
                assert_eq!(m.junctions, g.len() - by(0) - by(1) - by(2));
                let straights = (0..g.len())
                    .filter(|&c| deg(c) == 2)
                    .filter(|&c| {
                        let d: Vec<u8> = g
                            .slots(c)
                            .filter(|&t| maze.is_open(g.edge(t)))
                            .map(|t| g.dir(t))
                            .collect();
                        d[1] == g.opposite(d[0])
                    })
                    .count() as u32;
                assert_eq!(m.straights, straights);
                // The path: consecutive cells adjacent through passages, one step closer each.
                let path = ms.solution_path();
                assert_eq!(path.len() as u32, m.solution_length + 1);
                let to_exit = &all[ends.exit as usize];
                for (k, &c) in path.iter().enumerate() {
                    assert_eq!(to_exit[c as usize] as usize, path.len() - 1 - k);
                }
                // The hitting-time identity of a tree.
                let back = measure(
                    &g,
                    &maze,
                    GraphEnds::new(&g, ends.exit, ends.entrance),
                    0,
                    &mut ms,
                );
                assert_eq!(
                    m.walk_steps + back.walk_steps,
                    2 * (g.cells() as u64 - 1) * m.solution_length as u64
                );
                assert!(m.tortuosity >= 1.0);
            }
        }
    }
}

#[test]
fn straights_and_turns_follow_the_grid() {
    // A 3x1 hex row opened E-W: the middle cell is a straight, the solution never turns.
    let g = CellGraph::new(GridSize::new(Grid::Hex, 3, 1));
    let mut m = GraphMaze::new(&g);
    m.open(0);
    m.open(1);
    let r = measure(
        &g,
        &m,
        GraphEnds::corners(&g),
        0,
        &mut MeasureScratch::new(),
    );
    assert_eq!((r.straights, r.solution_turns, r.corridors), (1, 0, 1));
    // A 2x2 hex: path 0 -E-> 1 -SW-> 2 -E-> 3: two turns, no straight.
    let g = CellGraph::new(GridSize::new(Grid::Hex, 2, 2));
    let mut m = GraphMaze::new(&g);
    for e in 0..g.edges() {
        if matches!(g.ends(e), [0, 1] | [1, 2] | [2, 3]) {
            m.open(e);
        }
    }
    let r = measure(
        &g,
        &m,
        GraphEnds::corners(&g),
        0,
        &mut MeasureScratch::new(),
    );
    assert_eq!(
        (r.solution_length, r.solution_turns, r.straights),
        (3, 2, 0)
    );
    assert_eq!(grid_distance(&g, 0, 3), 2);
    assert_eq!(r.tortuosity, 1.5);
}

/// The breadth-first pass (every graph with tree tables) gives every column the peel gives,
/// diameter ends and solution path included, on the hex, triangle and polar grids, with and
/// without a mask, for every generator and ends at the corners, reversed, at one cell and
/// scattered (the square graph's pass is checked against the square metrics above).
#[test]
fn breadth_first_pass_equals_the_peel() {
    let mask: Vec<bool> = (0..9 * 7).map(|i| i % 9 != 4 || i / 9 == 3).collect();
    let mut graphs: Vec<CellGraph> = [
        GridSize::new(Grid::Hex, 1, 1),
        GridSize::new(Grid::Hex, 2, 3),
        GridSize::new(Grid::Hex, 9, 7),
        GridSize::new(Grid::Hex, 40, 33),
        GridSize::new(Grid::Triangle, 1, 2),
        GridSize::new(Grid::Triangle, 9, 7),
        GridSize::new(Grid::Triangle, 41, 30),
        GridSize::new(Grid::Polar, 1, 6),
        GridSize::new(Grid::Polar, 2, 3),
        GridSize::new(Grid::Polar, 12, 6),
        GridSize::new(Grid::Polar, 5, 8),
    ]
    .into_iter()
    .map(CellGraph::new)
    .collect();
    for grid in [Grid::Hex, Grid::Triangle] {
        let size = GridSize::new(grid, 9, 7);
        graphs.push(CellGraph::masked(size, 9, 7, &mask).expect("connected"));
    }
    let (mut fast, mut slow) = (MeasureScratch::new(), MeasureScratch::new());
    let mut s = GraphScratch::new();
    for g in &graphs {
        let size = g.size();
        assert!(g.tree_tables().is_some(), "{size}");
        let ids = g.ids();
        let (a, b) = g.corners();
        let mid = ids[ids.len() / 2];
        let third = ids[ids.len() / 3];
        let ends = [
            (a, b),
            (b, a),
            (mid, mid),
            (mid, a),
            (third, mid),
            (b, third),
        ];
        for algo in super::generate::on_grid(size.grid) {
            for index in 0..6 {
                let mut maze = GraphMaze::new(g);
                let mut rng = Rng::from_maze_seed(maze_seed(9, &algo.name(), size, index));
                generate(&algo, g, &mut maze, &mut s, &mut rng);
                for &(x, y) in &ends {
                    let e = GraphEnds::new(g, x, y);
                    let want = measure_peel(g, &maze, e, 7, &mut slow);
                    let got = measure(g, &maze, e, 7, &mut fast);
                    let what = format!("{size} {} index {index} ends {x} {y}", algo.name());
                    assert_eq!(got, want, "{what}");
                    assert_eq!(fast.solution_path(), slow.solution_path(), "{what}");
                }
            }
        }
    }
}

/// Without tree tables (a polar grid whose first ring has more than 8 cells) the peel runs.
#[test]
fn graphs_without_tree_tables_take_the_peel() {
    let g = CellGraph::new(GridSize::new(Grid::Polar, 3, 9));
    assert!(g.tree_tables().is_none());
    let size = g.size();
    let (mut a, mut b) = (MeasureScratch::new(), MeasureScratch::new());
    let mut s = GraphScratch::new();
    for algo in super::generate::on_grid(size.grid) {
        let mut maze = GraphMaze::new(&g);
        let mut rng = Rng::from_maze_seed(maze_seed(3, &algo.name(), size, 0));
        generate(&algo, &g, &mut maze, &mut s, &mut rng);
        let e = GraphEnds::corners(&g);
        assert_eq!(
            measure(&g, &maze, e, 0, &mut a),
            measure_peel(&g, &maze, e, 0, &mut b)
        );
    }
}
