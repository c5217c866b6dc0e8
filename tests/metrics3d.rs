//! `metrics::measure` on 3D mazes against brute force. The mazes are random
//! spanning trees of W×H×D boxes built here (random Kruskal, randomized depth-first search, and
//! trees forced to have a cell of degree 6), so these tests need none of the 3D generators.
//! The trees come from `tests/trees/mod.rs`. Every metric is recomputed from the open walls alone: all-pairs distances by a BFS from every
//! cell (diameter, path, branch sizes and depths), explicit degree counting on six sides, the
//! path walked for turns (a vertical step is a direction), decisions and branches, the random
//! walk's hitting time by solving its linear system, dead-end lengths by walking, and the 3D
//! Manhattan distance. A W×1×D or 1×H×D box is the same graph, with the same cell ids, as a 2D
//! maze of W×D or H×D cells, so the 3D path is also checked against the 2D one on mazes of
//! every 2D generator.

use crate::common;
use crate::trees;
use common::make;

use batchgen::generate::Scratch;
use batchgen::grid::{Dir, Size, Wall};
use batchgen::{metrics, Algorithm, Ends, Maze, Metrics, Rng};

/// A random spanning tree by random Kruskal (see [`trees::kruskal`]), from a fixed seed.
fn kruskal(size: Size, seed: u64, forced: &[Wall]) -> Maze {
    trees::kruskal(size, &mut Rng::from_maze_seed(seed), forced)
}

/// A random spanning tree by randomized depth-first search, from a fixed seed.
fn backtracker(size: Size, seed: u64) -> Maze {
    trees::backtracker(size, &mut Rng::from_maze_seed(seed))
}

/// A random spanning tree in which the cell (1,1,1) has all six passages (the box must be at
/// least 3 cells along every axis).
fn star(size: Size, seed: u64) -> Maze {
    let c = size.cell(1, 1, 1);
    let forced: Vec<Wall> = Dir::ALL.iter().map(|&d| size.wall_of(c, d)).collect();
    let m = kruskal(size, seed, &forced);
    assert_eq!(m.degree(c), 6);
    m
}

/// The cells next to `c` through open walls, found from the walls alone.
fn open_neighbours(m: &Maze, c: u32) -> Vec<u32> {
    Dir::ALL
        .into_iter()
        .filter(|&d| m.is_open(c, d))
        .map(|d| m.neighbour(c, d))
        .collect()
}

/// Distances between every pair of cells (a BFS from each cell).
fn all_distances(m: &Maze) -> Vec<Vec<u32>> {
    let n = m.cells() as usize;
    let adj: Vec<Vec<u32>> = (0..m.cells()).map(|c| open_neighbours(m, c)).collect();
    (0..n)
        .map(|src| {
            let mut dist = vec![u32::MAX; n];
            dist[src] = 0;
            let mut q = std::collections::VecDeque::from([src as u32]);
            while let Some(v) = q.pop_front() {
                for &x in &adj[v as usize] {
                    if dist[x as usize] == u32::MAX {
                        dist[x as usize] = dist[v as usize] + 1;
                        q.push_back(x);
                    }
                }
            }
            assert!(dist.iter().all(|&d| d != u32::MAX), "not connected");
            dist
        })
        .collect()
}

/// Exact expected number of steps of the simple random walk from `s` until it hits `t`: solve
/// `h(t) = 0`, `h(v) = 1 + mean of h over v's neighbours` by Gaussian elimination with partial
/// pivoting (floating point; the answer on a tree is an integer far below 2^40).
fn hitting_time(m: &Maze, s: u32, t: u32) -> f64 {
    let n = m.cells() as usize;
    let mut a = vec![vec![0.0f64; n + 1]; n];
    for (v, row) in a.iter_mut().enumerate() {
        row[v] = 1.0;
        if v as u32 != t {
            let nb = open_neighbours(m, v as u32);
            for &x in &nb {
                row[x as usize] -= 1.0 / nb.len() as f64;
            }
            row[n] = 1.0;
        }
    }
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        a.swap(col, piv);
        let p = a[col][col];
        let pivot_row: Vec<f64> = a[col].iter().map(|x| x / p).collect();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col && row[col] != 0.0 {
                let f = row[col];
                for (x, y) in row.iter_mut().zip(&pivot_row) {
                    *x -= f * y;
                }
            }
        }
        a[col] = pivot_row;
    }
    a[s as usize][n]
}

/// The direction of the step from cell `a` to its neighbour `b`.
fn step_dir(m: &Maze, a: u32, b: u32) -> Dir {
    Dir::ALL
        .into_iter()
        .find(|&d| m.has_neighbour(a, d) && m.neighbour(a, d) == b)
        .expect("neighbours")
}

/// Every metric of `got` (measured with `ends`) recomputed by brute force. `exact_walk`: also
/// solve the hitting-time system (small mazes).
fn check(m: &Maze, ends: Ends, got: &Metrics, exact_walk: bool) {
    let size = m.size();
    let n = m.cells();
    let ctx = format!("{size} {ends:?} {got:?}");
    let dist = all_distances(m);
    let deg = |c: u32| m.open_mask(c).count_ones();

    // Degrees on six sides; a straight is open on two opposite faces.
    let count = |f: &dyn Fn(u32) -> bool| (0..n).filter(|&c| f(c)).count() as u32;
    assert_eq!(got.dead_ends, count(&|c| deg(c) == 1), "{ctx}");
    assert_eq!(got.corridors, count(&|c| deg(c) == 2), "{ctx}");
    assert_eq!(got.junctions, count(&|c| deg(c) >= 3), "{ctx}");
    let opposite = |c: u32| {
        [Dir::East, Dir::South, Dir::Down]
            .into_iter()
            .any(|d| m.is_open(c, d) && m.is_open(c, d.opposite()))
    };
    assert_eq!(
        got.straights,
        count(&|c| deg(c) == 2 && opposite(c)),
        "{ctx}"
    );
    assert_eq!(got.dead_end_share, got.dead_ends as f64 / n as f64, "{ctx}");
    assert_eq!(got.maze_hash, m.hash(), "{ctx}");

    // Diameter: the largest distance, and the reported pair is that far apart.
    let diameter = dist.iter().flatten().copied().max().unwrap();
    assert_eq!(got.diameter, diameter, "{ctx}");
    assert_eq!(
        dist[got.diameter_start as usize][got.diameter_end as usize], diameter,
        "{ctx}"
    );

    if ends == Ends::Diameter {
        assert_eq!(got.solution_length, diameter, "{ctx}");
    }
    let (s, t) = ends.cells_of(got);
    // The path: from s, always to the neighbour one step closer to t.
    let mut p = vec![s];
    while *p.last().unwrap() != t {
        let c = *p.last().unwrap();
        let next = open_neighbours(m, c)
            .into_iter()
            .find(|&x| dist[x as usize][t as usize] + 1 == dist[c as usize][t as usize])
            .unwrap();
        p.push(next);
    }
    let len = p.len() as u32 - 1;
    assert_eq!(got.solution_length, len, "{ctx}");

    // Turns: direction changes between consecutive steps, vertical steps included.
    let dirs: Vec<Dir> = p.windows(2).map(|e| step_dir(m, e[0], e[1])).collect();
    let turns = dirs.windows(2).filter(|d| d[0] != d[1]).count() as u32;
    assert_eq!(got.solution_turns, turns, "{ctx}");

    // Decisions, branches and the worst wrong turn: a branch through the opening u → c holds
    // the cells x on c's side of that edge, i.e. dist(u, x) = dist(c, x) + 1.
    let (mut decisions, mut branches, mut max_cells, mut max_depth) = (0, 0, 0, 0);
    for i in 0..p.len() - 1 {
        let u = p[i];
        let off: Vec<u32> = open_neighbours(m, u)
            .into_iter()
            .filter(|&c| c != p[i + 1] && (i == 0 || c != p[i - 1]))
            .collect();
        decisions += !off.is_empty() as u32;
        branches += off.len() as u32;
        for c in off {
            let side: Vec<u32> = (0..n)
                .filter(|&x| dist[u as usize][x as usize] == dist[c as usize][x as usize] + 1)
                .collect();
            max_cells = max_cells.max(side.len() as u32);
            let depth = side.iter().map(|&x| dist[u as usize][x as usize]).max();
            max_depth = max_depth.max(depth.unwrap());
        }
    }
    assert_eq!(got.solution_decisions, decisions, "{ctx}");
    assert_eq!(got.solution_branches, branches, "{ctx}");
    assert_eq!(got.max_branch_cells, max_cells, "{ctx}");
    assert_eq!(got.max_branch_depth, max_depth, "{ctx}");

    // Hitting time: Σ (2·|T_u| − 1) over the path's edges u → v, |T_u| counted from the
    // distances; on small mazes also by solving the walk's linear system.
    let by_sides: u64 = p
        .windows(2)
        .map(|e| {
            let (u, v) = (e[0] as usize, e[1] as usize);
            let t_u = (0..n as usize).filter(|&x| dist[u][x] < dist[v][x]).count() as u64;
            2 * t_u - 1
        })
        .sum();
    assert_eq!(got.walk_steps, by_sides, "{ctx}");
    if exact_walk {
        let h = hitting_time(m, s, t);
        assert!(
            (h - got.walk_steps as f64).abs() < 1e-6 * (1.0 + h),
            "{ctx}: hitting time {h}"
        );
    }

    // Dead-end lengths: from each dead end, the forced walk through degree-2 cells.
    let mut total = 0u64;
    for d in (0..n).filter(|&c| deg(c) == 1) {
        let (mut prev, mut cur) = (d, open_neighbours(m, d)[0]);
        let mut k = 1u64;
        while deg(cur) == 2 {
            let next = open_neighbours(m, cur).into_iter().find(|&x| x != prev);
            (prev, cur, k) = (cur, next.unwrap(), k + 1);
        }
        total += k;
    }
    let mean = if got.dead_ends == 0 {
        0.0
    } else {
        total as f64 / got.dead_ends as f64
    };
    assert_eq!(got.mean_dead_end_length, mean, "{ctx}");

    // Tortuosity over the 3D Manhattan distance.
    let ((sx, sy, sz), (tx, ty, tz)) = (size.coords(s), size.coords(t));
    let manhattan = sx.abs_diff(tx) + sy.abs_diff(ty) + sz.abs_diff(tz);
    let tort = if manhattan == 0 {
        1.0
    } else {
        len as f64 / manhattan as f64
    };
    assert_eq!(got.tortuosity, tort, "{ctx}");
}

/// Measure `m` between each of the ends, check each against brute force, and check that
/// [`metrics::Scratch::solution_path`] is the path.
fn check_all_ends(m: &Maze, seed: u64, ms: &mut metrics::Scratch) {
    let n = m.cells();
    let mut rng = Rng::from_maze_seed(seed ^ 0x5eed);
    let (a, b) = (rng.below(n), rng.below(n));
    let exact = n <= 64;
    for ends in [
        Ends::first_last(m.size()),
        Ends::cells(a, b),
        Ends::cells(b, a),
        Ends::cells(a, a),
        Ends::Diameter,
    ] {
        let got = metrics::measure(m, ends, ms);
        check(m, ends, &got, exact);
        let path = ms.solution_path();
        assert_eq!(path.len() as u32, got.solution_length + 1);
        let (s, t) = ends.cells_of(&got);
        assert_eq!((path[0], *path.last().unwrap()), (s, t), "{ends:?}");
        assert!(path
            .windows(2)
            .all(|e| open_neighbours(m, e[0]).contains(&e[1])));
    }
}

const BOXES: [(u32, u32, u32); 14] = [
    (1, 1, 2),
    (1, 1, 5),
    (1, 1, 9),
    (2, 1, 2),
    (1, 3, 2),
    (2, 2, 2),
    (3, 1, 3),
    (2, 3, 3),
    (3, 3, 3),
    (3, 2, 4),
    (4, 4, 2),
    (2, 2, 7),
    (4, 4, 4),
    (5, 4, 3),
];

#[test]
fn every_metric_equals_brute_force_on_small_boxes() {
    let mut ms = metrics::Scratch::new();
    for (w, h, d) in BOXES {
        let size = Size::new(w, h, d);
        for seed in 0..10u64 {
            check_all_ends(&kruskal(size, seed, &[]), seed, &mut ms);
            check_all_ends(&backtracker(size, seed + 100), seed, &mut ms);
        }
    }
}

#[test]
fn cells_with_six_passages() {
    // A root with six children, and non-root cells with five, in the search and the chains.
    let mut ms = metrics::Scratch::new();
    for (w, h, d) in [(3, 3, 3), (4, 3, 3), (3, 5, 4)] {
        let size = Size::new(w, h, d);
        let centre = size.cell(1, 1, 1);
        for seed in 0..8u64 {
            let m = star(size, seed);
            check_all_ends(&m, seed, &mut ms);
            for ends in [
                Ends::cells(centre, size.cells() - 1),
                Ends::cells(0, centre),
            ] {
                let got = metrics::measure(&m, ends, &mut ms);
                check(&m, ends, &got, true);
            }
        }
    }
}

#[test]
fn wide_layers_cross_wall_words() {
    // Widths and layer sizes that are not multiples of 32 (the down plane is read 32 cells at a
    // time at every offset), and a layer larger than a word.
    let mut ms = metrics::Scratch::new();
    for (w, h, d) in [
        (33, 2, 3),
        (40, 3, 2),
        (70, 1, 2),
        (7, 9, 3),
        (31, 1, 4),
        (5, 13, 2),
    ] {
        let size = Size::new(w, h, d);
        for seed in 0..3u64 {
            check_all_ends(&kruskal(size, seed, &[]), seed, &mut ms);
            check_all_ends(&backtracker(size, seed), seed, &mut ms);
        }
    }
}

#[test]
fn a_larger_box() {
    let mut ms = metrics::Scratch::new();
    let size = Size::new(12, 11, 10);
    let m = kruskal(size, 7, &[]);
    for ends in [Ends::first_last(size), Ends::Diameter] {
        let got = metrics::measure(&m, ends, &mut ms);
        check(&m, ends, &got, false);
    }
}

#[test]
fn a_vertical_corridor() {
    // 1×1×N with every down wall open: one straight shaft.
    let mut ms = metrics::Scratch::new();
    for d in [2u32, 3, 8] {
        let size = Size::new(1, 1, d);
        let m = Maze::from_open_walls(size, size.interior_walls());
        let got = metrics::measure(&m, Ends::first_last(size), &mut ms);
        assert_eq!(got.solution_length, d - 1);
        assert_eq!(got.diameter, d - 1);
        assert_eq!((got.diameter_start.min(got.diameter_end)), 0);
        assert_eq!(got.dead_ends, 2);
        assert_eq!(got.corridors, d - 2);
        assert_eq!(got.straights, d - 2);
        assert_eq!(got.junctions, 0);
        assert_eq!(got.solution_turns, 0);
        assert_eq!(got.solution_decisions, 0);
        assert_eq!(got.walk_steps, ((d - 1) * (d - 1)) as u64);
        assert_eq!(got.mean_dead_end_length, (d - 1) as f64);
        assert_eq!(got.tortuosity, 1.0);
        assert_eq!(ms.solution_path(), (0..d).collect::<Vec<_>>());
    }
}

#[test]
fn a_hand_made_path_through_a_cube() {
    // 2×2×2 visited as (0,0,0) E (1,0,0) Down (1,0,1) W (0,0,1) S (0,1,1) E (1,1,1) Up (1,1,0)
    // W (0,1,0): seven steps, six turns, ends one step apart.
    let size = Size::new(2, 2, 2);
    let mut m = Maze::with_size(size);
    let mut c = 0;
    let steps = [
        Dir::East,
        Dir::Down,
        Dir::West,
        Dir::South,
        Dir::East,
        Dir::Up,
        Dir::West,
    ];
    for d in steps {
        m.carve(c, d);
        c = size.neighbour(c, d);
    }
    assert_eq!(c, size.cell(0, 1, 0));
    let mut ms = metrics::Scratch::new();
    let got = metrics::measure(&m, Ends::cells(0, c), &mut ms);
    assert_eq!(got.solution_length, 7);
    assert_eq!(got.solution_turns, 6);
    assert_eq!(got.tortuosity, 7.0);
    assert_eq!((got.dead_ends, got.corridors, got.straights), (2, 6, 0));
    assert_eq!(got.diameter, 7);
    assert_eq!(got.walk_steps, 49);
    let got = metrics::measure(&m, Ends::first_last(size), &mut ms);
    // Cell 7 is (1,1,1), the fifth step's end: 5 steps, 4 turns, 3 apart.
    assert_eq!(got.solution_length, 5);
    assert_eq!(got.solution_turns, 4);
    assert_eq!(got.tortuosity, 5.0 / 3.0);
    assert_eq!(ms.solution_path(), vec![0, 1, 5, 4, 6, 7]);
}

/// `m` (2D, W×H) as the 3D maze of W×1×H (`one_column` false) or 1×W×H cells: the same ids, south
/// walls becoming down walls (and east walls south walls for 1×W×H).
fn stand_up(m: &Maze, one_column: bool) -> Maze {
    let (w, h) = (m.width(), m.height());
    let size = if one_column {
        Size::new(1, w, h)
    } else {
        Size::new(w, 1, h)
    };
    let mut out = Maze::with_size(size);
    for c in 0..m.cells() {
        if m.is_open(c, Dir::East) {
            out.carve(c, if one_column { Dir::South } else { Dir::East });
        }
        if m.is_open(c, Dir::South) {
            out.carve(c, Dir::Down);
        }
    }
    out
}

#[test]
fn flat_boxes_match_the_2d_measure() {
    // Same graph, same ids: every metric but the hash agrees with the 2D code path.
    let mut s = Scratch::new();
    let (mut ms2, mut ms3) = (metrics::Scratch::new(), metrics::Scratch::new());
    for algo in Algorithm::all() {
        for (w, h) in [(2, 2), (5, 3), (3, 7), (9, 6), (40, 3)] {
            for i in 0..4 {
                let flat = make(&algo, w, h, 5, i, &mut s);
                for one_column in [false, true] {
                    let tall = stand_up(&flat, one_column);
                    assert!(tall.is_perfect());
                    for ends in [
                        Ends::corners(w, h),
                        Ends::cells(1, (i as u32 * 7) % (w * h)),
                        Ends::Diameter,
                    ] {
                        let mut a = metrics::measure(&flat, ends, &mut ms2);
                        // The two searches order children differently, so among longest paths
                        // they may pick different ones: measure the 3D maze between the ends
                        // the 2D one picked, and compare the pair's length only.
                        let ends3 = match ends {
                            Ends::Diameter => Ends::cells(a.diameter_start, a.diameter_end),
                            fixed => fixed,
                        };
                        let b = metrics::measure(&tall, ends3, &mut ms3);
                        assert_eq!(ms2.solution_path(), ms3.solution_path());
                        a.maze_hash = tall.hash();
                        (a.diameter_start, a.diameter_end) = (b.diameter_start, b.diameter_end);
                        assert_eq!(a, b, "{} {w}x{h} #{i} {ends:?}", algo.name());
                    }
                }
            }
        }
    }
}

#[test]
fn one_scratch_serves_every_size() {
    // Same width, other layer size (the 3D push table depends on both), and 2D in between.
    let mazes = [
        kruskal(Size::new(4, 4, 2), 1, &[]),
        kruskal(Size::new(4, 2, 4), 2, &[]),
        kruskal(Size::planar(4, 8), 3, &[]),
        kruskal(Size::new(4, 4, 2), 4, &[]),
        kruskal(Size::new(8, 2, 2), 5, &[]),
        kruskal(Size::new(3, 3, 3), 6, &[]),
    ];
    let mut shared = metrics::Scratch::new();
    for round in 0..2 {
        for m in mazes.iter().chain(mazes.iter().rev()) {
            for ends in [Ends::first_last(m.size()), Ends::Diameter] {
                let got = metrics::measure(m, ends, &mut shared);
                let fresh = metrics::measure(m, ends, &mut metrics::Scratch::new());
                assert_eq!(got, fresh, "round {round} {}", m.size());
            }
        }
    }
}

#[test]
fn first_last_ends() {
    assert_eq!(
        Ends::first_last(Size::planar(7, 5)),
        Ends::corners(7, 5),
        "2D: the corners"
    );
    assert_eq!(
        Ends::first_last(Size::new(3, 4, 5)),
        Ends::cells(0, 59),
        "3D: the first and last cells"
    );
}

#[test]
fn vertical_sides_hold_the_down_and_up_walls() {
    for size in [
        Size::new(3, 2, 4),
        Size::new(33, 3, 2),
        Size::new(1, 1, 70),
        Size::new(40, 1, 3),
        Size::planar(5, 7),
    ] {
        let m = kruskal(size, 9, &[]);
        let planes: Vec<_> = m.vertical_sides().collect();
        assert_eq!(planes.len(), m.planar_sides().count(), "{size}");
        for c in 0..32 * planes.len() as u32 {
            let (block, k) = (planes[c as usize / 32], 2 * (c % 32));
            let (down, up) = (block.down >> k & 1 == 1, block.up >> k & 1 == 1);
            let inside = c < size.cells();
            assert_eq!(down, inside && m.is_open(c, Dir::Down), "{size} cell {c}");
            assert_eq!(up, inside && m.is_open(c, Dir::Up), "{size} cell {c}");
        }
        let odd = 0xaaaa_aaaa_aaaa_aaaau64;
        assert!(planes.iter().all(|p| (p.down | p.up) & odd == 0), "{size}");
    }
}

#[test]
fn a_box_with_loops_is_measured_as_a_graph() {
    // The open 2×2×2 box: 12 passages for 8 cells (5 loops); corner to opposite corner is 3
    // steps, one along each axis in any of 3! orders.
    let size = Size::new(2, 2, 2);
    let m = Maze::from_open_walls(size, size.interior_walls());
    let got = metrics::measure(&m, Ends::first_last(size), &mut metrics::Scratch::new());
    assert_eq!(
        (
            got.loops,
            got.diameter,
            got.solution_length,
            got.solution_count
        ),
        (5, 3, 3, 6)
    );
}
