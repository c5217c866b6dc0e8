//! The difficulty columns against brute force on many small mazes of every generator:
//! decisions and branches by walking the path, branch sizes and depths by a search from each
//! opening, `walk_steps` by solving the hitting-time linear system exactly in rationals and by a
//! Monte-Carlo walk, dead-end lengths by walking from each dead end, and the tree identities.
//! The degree counts are re-checked on widths that put the row above in another wall word.

use crate::common;
use common::{adjacency, make};

use std::collections::VecDeque;

use batchgen::generate::Scratch;
use batchgen::grid::Dir;
use batchgen::{metrics, Algorithm, Ends, Maze, Metrics, Rng};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The unique path from `a` to `b`, both included.
fn path(adj: &[Vec<u32>], a: u32, b: u32) -> Vec<u32> {
    let mut parent = vec![u32::MAX; adj.len()];
    parent[a as usize] = a;
    let mut q = VecDeque::from([a]);
    while let Some(v) = q.pop_front() {
        for &n in &adj[v as usize] {
            if parent[n as usize] == u32::MAX {
                parent[n as usize] = v;
                q.push_back(n);
            }
        }
    }
    let mut p = vec![b];
    while *p.last().unwrap() != a {
        p.push(parent[*p.last().unwrap() as usize]);
    }
    p.reverse();
    p
}

/// Exact expected hitting time from `s` to `t` of the simple random walk: solve
/// `deg(v)·h(v) − Σ_{u~v, u≠t} h(u) = deg(v)` for every `v ≠ t` by Gaussian elimination over
/// the rationals (no use of the tree structure).
fn hitting_time_exact(adj: &[Vec<u32>], s: u32, t: u32) -> BigRational {
    if s == t {
        return BigRational::zero();
    }
    let vars: Vec<u32> = (0..adj.len() as u32).filter(|&v| v != t).collect();
    let idx = |v: u32| if v < t { v as usize } else { v as usize - 1 };
    let k = vars.len();
    let mut a = vec![vec![BigRational::zero(); k + 1]; k];
    for (r, &v) in vars.iter().enumerate() {
        let d = BigRational::from_integer(BigInt::from(adj[v as usize].len()));
        a[r][r] = d.clone();
        a[r][k] = d;
        for &u in &adj[v as usize] {
            if u != t {
                a[r][idx(u)] -= BigRational::one();
            }
        }
    }
    for col in 0..k {
        let piv = (col..k).find(|&r| !a[r][col].is_zero()).expect("singular");
        a.swap(col, piv);
        let p = a[col][col].clone();
        for x in a[col][col..].iter_mut() {
            *x = &*x / &p;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col && !row[col].is_zero() {
                let f = row[col].clone();
                for (x, y) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= &f * y;
                }
            }
        }
    }
    a[idx(s)][k].clone()
}

/// `Σ (2·|T_u| − 1)` over the path's edges, with `|T_u|` counted by a search from `u` that may
/// not cross to `v` (a second, independent route to the same number on bigger mazes).
fn hitting_time_by_sides(adj: &[Vec<u32>], p: &[u32]) -> u64 {
    p.windows(2)
        .map(|e| 2 * reach(adj, e[0], &[e[1]]).0 as u64 - 1)
        .sum()
}

/// Cells reachable from `from` without entering `blocked`, and the farthest distance.
fn reach(adj: &[Vec<u32>], from: u32, blocked: &[u32]) -> (u32, u32) {
    let mut dist = vec![u32::MAX; adj.len()];
    dist[from as usize] = 0;
    let mut q = VecDeque::from([from]);
    let (mut count, mut far) = (0, 0);
    while let Some(v) = q.pop_front() {
        count += 1;
        far = far.max(dist[v as usize]);
        for &n in &adj[v as usize] {
            if dist[n as usize] == u32::MAX && !blocked.contains(&n) {
                dist[n as usize] = dist[v as usize] + 1;
                q.push_back(n);
            }
        }
    }
    (count, far)
}

fn check(m: &Maze, ends: Ends, got: &Metrics, exact_walk: bool) {
    let adj = adjacency(m);
    let n = m.cells();
    let w = m.width();
    let ctx = format!("{}x{} {:?} {:?}", w, m.height(), ends, got);
    let deg = |c: u32| adj[c as usize].len() as u32;

    // Degree counts (widths here put the row above in other wall words than the small grids).
    let count = |f: &dyn Fn(u32) -> bool| (0..n).filter(|&c| f(c)).count() as u32;
    assert_eq!(got.dead_ends, count(&|c| deg(c) == 1), "{ctx}");
    assert_eq!(got.corridors, count(&|c| deg(c) == 2), "{ctx}");
    assert_eq!(got.junctions, count(&|c| deg(c) >= 3), "{ctx}");
    let straight = |c: u32| {
        deg(c) == 2
            && ((m.is_open(c, Dir::East) && m.is_open(c, Dir::West))
                || (m.is_open(c, Dir::North) && m.is_open(c, Dir::South)))
    };
    assert_eq!(got.straights, count(&straight), "{ctx}");

    let (s, t) = ends.cells_of(got);
    let p = path(&adj, s, t);
    let len = p.len() as u32 - 1;
    assert_eq!(got.solution_length, len, "{ctx}");

    // Decisions and branches: walk the path; every neighbour of a path cell (exit excluded)
    // other than its path neighbours is a wrong turn; search each one for its size and depth.
    let (mut decisions, mut branches, mut max_cells, mut max_depth) = (0, 0, 0, 0);
    for (i, &u) in p[..p.len() - 1].iter().enumerate() {
        let on_path = |c: u32| (i > 0 && c == p[i - 1]) || c == p[i + 1];
        let off: Vec<u32> = adj[u as usize]
            .iter()
            .copied()
            .filter(|&c| !on_path(c))
            .collect();
        decisions += !off.is_empty() as u32;
        branches += off.len() as u32;
        for c in off {
            let (cells, far) = reach(&adj, c, &p);
            max_cells = max_cells.max(cells);
            max_depth = max_depth.max(far + 1);
        }
    }
    assert_eq!(got.solution_decisions, decisions, "{ctx}");
    assert_eq!(got.solution_branches, branches, "{ctx}");
    assert_eq!(got.max_branch_cells, max_cells, "{ctx}");
    assert_eq!(got.max_branch_depth, max_depth, "{ctx}");
    assert!(got.solution_decisions <= got.solution_length, "{ctx}");

    // Hitting time: exact rationals on small mazes, the side-count formula on all.
    if exact_walk {
        let h = hitting_time_exact(&adj, s, t);
        assert!(
            h.is_integer(),
            "{ctx}: hitting time {h} on a tree is an integer"
        );
        assert_eq!(
            h,
            BigRational::from_integer(BigInt::from(got.walk_steps)),
            "{ctx}"
        );
    }
    assert_eq!(got.walk_steps, hitting_time_by_sides(&adj, &p), "{ctx}");

    // Dead-end length: from each dead end walk through degree-2 cells to the first cell whose
    // degree is not 2.
    let (mut total, mut ends_seen) = (0u64, 0u64);
    for d in (0..n).filter(|&c| deg(c) == 1) {
        let (mut prev, mut cur, mut k) = (d, adj[d as usize][0], 1u64);
        while deg(cur) == 2 {
            let next = adj[cur as usize]
                .iter()
                .copied()
                .find(|&x| x != prev)
                .unwrap();
            prev = cur;
            cur = next;
            k += 1;
        }
        total += k;
        ends_seen += 1;
    }
    let mean = if ends_seen == 0 {
        0.0
    } else {
        total as f64 / ends_seen as f64
    };
    assert_eq!(got.mean_dead_end_length, mean, "{ctx}");
    if got.junctions == 0 && n > 1 {
        assert_eq!(
            got.mean_dead_end_length,
            (n - 1) as f64,
            "{ctx}: a single corridor"
        );
    }

    // Tortuosity.
    let manhattan = (s % w).abs_diff(t % w) + (s / w).abs_diff(t / w);
    let tort = if manhattan == 0 {
        1.0
    } else {
        len as f64 / manhattan as f64
    };
    assert_eq!(got.tortuosity, tort, "{ctx}");
    assert!(!got.tortuosity.is_nan() && got.tortuosity >= 1.0, "{ctx}");
}

const SMALL: [(u32, u32); 12] = [
    (1, 1),
    (1, 2),
    (2, 1),
    (1, 7),
    (7, 1),
    (2, 2),
    (2, 3),
    (3, 3),
    (4, 4),
    (5, 3),
    (4, 6),
    (5, 5),
];

#[test]
fn difficulty_columns_equal_brute_force_with_exact_hitting_times() {
    let mut s = Scratch::new();
    let mut ms = metrics::Scratch::new();
    for algo in Algorithm::all() {
        for (w, h) in SMALL {
            let n = w * h;
            for i in 0..12 {
                let m = make(&algo, w, h, 21, i, &mut s);
                let fixed = [
                    Ends::corners(w, h),
                    Ends::cells((i as u32 * 7) % n, (i as u32 * 13 + 1) % n),
                    Ends::cells(i as u32 % n, i as u32 % n),
                ];
                for ends in fixed.into_iter().chain([Ends::Diameter]) {
                    let got = metrics::measure(&m, ends, &mut ms);
                    check(&m, ends, &got, true);
                }
            }
        }
    }
}

#[test]
fn difficulty_columns_equal_brute_force_on_wider_grids() {
    // Widths 31..=33, 64, 65, 100 put a cell's north neighbour one or more wall words back,
    // at a bit offset of zero or not.
    let mut s = Scratch::new();
    let mut ms = metrics::Scratch::new();
    for algo in Algorithm::all() {
        for (w, h) in [
            (31, 3),
            (32, 3),
            (33, 4),
            (64, 2),
            (65, 3),
            (100, 2),
            (6, 40),
        ] {
            let n = w * h;
            for i in 0..3 {
                let m = make(&algo, w, h, 22, i, &mut s);
                for ends in [
                    Ends::corners(w, h),
                    Ends::cells((i as u32 * 101) % n, (i as u32 * 37 + 5) % n),
                    Ends::Diameter,
                ] {
                    let got = metrics::measure(&m, ends, &mut ms);
                    check(&m, ends, &got, false);
                }
            }
        }
    }
}

#[test]
fn commute_time_identity_and_decisions_bound() {
    let mut s = Scratch::new();
    let mut ms = metrics::Scratch::new();
    for algo in Algorithm::all() {
        for (w, h) in [(8u32, 8u32), (20, 20), (33, 17)] {
            let n = w * h;
            for i in 0..10 {
                let m = make(&algo, w, h, 23, i, &mut s);
                let (a, b) = ((i as u32 * 97) % n, (i as u32 * 61 + 3) % n);
                let st = metrics::measure(&m, Ends::cells(a, b), &mut ms);
                let ts = metrics::measure(&m, Ends::cells(b, a), &mut ms);
                assert_eq!(st.solution_length, ts.solution_length);
                assert_eq!(
                    st.walk_steps + ts.walk_steps,
                    2 * (n as u64 - 1) * st.solution_length as u64,
                    "{} {w}x{h} #{i}",
                    algo.name()
                );
                assert!(st.solution_decisions <= st.solution_length);
                assert!(ts.solution_decisions <= ts.solution_length);
            }
        }
    }
}

#[test]
fn walk_steps_match_a_monte_carlo_walk() {
    // 4000 walks per maze from a fixed seed; the sample mean must lie within 4 standard errors
    // of the exact value (a two-sided 4σ band: a false alarm has probability about 6e-5).
    let mut s = Scratch::new();
    let mut ms = metrics::Scratch::new();
    let mut r = Rng::from_maze_seed(0x5eed_da7a);
    for (k, name) in ["backtracker", "kruskal", "wilson"].iter().enumerate() {
        let algo = Algorithm::parse(name).unwrap();
        let m = make(&algo, 7, 6, 24, k as u64, &mut s);
        let adj = adjacency(&m);
        let ends = Ends::corners(7, 6);
        let got = metrics::measure(&m, ends, &mut ms);
        let runs = 4000;
        let (mut sum, mut sum2) = (0f64, 0f64);
        for _ in 0..runs {
            let (mut v, mut steps) = (0u32, 0u64);
            while v != 41 {
                let nb = &adj[v as usize];
                v = nb[r.below(nb.len() as u32) as usize];
                steps += 1;
            }
            sum += steps as f64;
            sum2 += (steps * steps) as f64;
        }
        let mean = sum / runs as f64;
        let var = (sum2 - sum * sum / runs as f64) / (runs - 1) as f64;
        let se = (var / runs as f64).sqrt();
        let exact = got.walk_steps as f64;
        assert!(
            (mean - exact).abs() < 4.0 * se,
            "{name}: Monte-Carlo mean {mean:.1} ± {se:.1}, exact {exact}"
        );
    }
}

#[test]
fn degenerate_mazes_have_defined_values() {
    let mut ms = metrics::Scratch::new();
    // 1×1: no dead end, no junction, entrance = exit.
    let m = Maze::new(1, 1);
    let got = metrics::measure(&m, Ends::corners(1, 1), &mut ms);
    assert_eq!(
        (got.mean_dead_end_length, got.tortuosity, got.walk_steps),
        (0.0, 1.0, 0)
    );
    // A single corridor 1×5: both dead ends are 4 from each other; no decisions.
    let mut m = Maze::new(1, 5);
    for c in 0..4 {
        m.carve(c, Dir::South);
    }
    let got = metrics::measure(&m, Ends::corners(1, 5), &mut ms);
    assert_eq!(got.mean_dead_end_length, 4.0);
    assert_eq!((got.solution_decisions, got.solution_branches), (0, 0));
    assert_eq!((got.max_branch_cells, got.max_branch_depth), (0, 0));
    assert_eq!(got.walk_steps, 16, "a path of 4 edges: 1 + 3 + 5 + 7");
    assert_eq!(got.tortuosity, 1.0);
}
