//! The spanning-tree counts of the new grids, checked against a computation that shares nothing
//! with the library: the neighbours come from the cells' geometry (cube coordinates for hexes,
//! shared corners for triangles, overlapping arcs for polar rings), and the count from a
//! brute-force enumeration of edge subsets or this file's own fraction-free determinant. Then
//! the uniform samplers are checked against the uniform distribution over those trees.

use super::generate::{generate, GraphScratch};
use super::{maze_seed, CellGraph, GraphMaze, Grid, GridSize};
use crate::uniformity::kirchhoff::spanning_trees_graph;
use crate::{Algorithm, Rng};
use std::collections::{BTreeSet, HashMap};

/// The edges of a `w × h` hex grid (odd-r) from cube coordinates: two hexes are neighbours
/// when their cube coordinates differ by one of the six unit vectors.
fn hex_edges(w: i64, h: i64) -> BTreeSet<(u32, u32)> {
    let cube = |x: i64, y: i64| {
        let q = x - (y - (y & 1)) / 2;
        (q, y, -q - y)
    };
    let mut out = BTreeSet::new();
    for a in 0..w * h {
        for b in a + 1..w * h {
            let (p, q) = (cube(a % w, a / w), cube(b % w, b / w));
            let d = ((p.0 - q.0).abs() + (p.1 - q.1).abs() + (p.2 - q.2).abs()) / 2;
            if d == 1 {
                out.insert((a as u32, b as u32));
            }
        }
    }
    out
}

/// The edges of a `w × h` triangle grid from the triangles' corners (doubled coordinates so
/// they are integers): two triangles are neighbours when they share two corners.
fn triangle_edges(w: i64, h: i64) -> BTreeSet<(u32, u32)> {
    let corners = |x: i64, y: i64| -> [(i64, i64); 3] {
        if (x + y) % 2 == 0 {
            [(x, y + 1), (x + 2, y + 1), (x + 1, y)]
        } else {
            [(x, y), (x + 2, y), (x + 1, y + 1)]
        }
    };
    let mut out = BTreeSet::new();
    for a in 0..w * h {
        for b in a + 1..w * h {
            let (p, q) = (corners(a % w, a / w), corners(b % w, b / w));
            if p.iter().filter(|c| q.contains(c)).count() == 2 {
                out.insert((a as u32, b as u32));
            }
        }
    }
    out
}

/// The edges of a polar grid with the given ring sizes, from the cells' arcs: cells of one ring
/// touch when their arcs are consecutive (a ring of one cell touches nothing), cells of
/// adjacent rings when their arcs overlap by more than a point. Angles are fractions of a turn
/// over the common denominator `den`.
fn polar_edges(counts: &[u64]) -> BTreeSet<(u32, u32)> {
    let den: u64 = counts.iter().product();
    let mut cells = Vec::new(); // (ring, start, end) in units of 1/den turn
    for (r, &n) in counts.iter().enumerate() {
        for i in 0..n {
            cells.push((r, i * den / n, (i + 1) * den / n));
        }
    }
    let mut out = BTreeSet::new();
    for a in 0..cells.len() {
        for b in a + 1..cells.len() {
            let ((ra, sa, ea), (rb, sb, eb)) = (cells[a], cells[b]);
            let touch = if ra == rb {
                counts[ra] > 1
                    && (ea == sb || eb == sa || (ea == den && sb == 0) || (eb == den && sa == 0))
            } else if ra + 1 == rb {
                sa.max(sb) < ea.min(eb)
            } else {
                false
            };
            if touch {
                out.insert((a as u32, b as u32));
            }
        }
    }
    out
}

fn library_edges(g: &CellGraph) -> BTreeSet<(u32, u32)> {
    (0..g.edges())
        .map(|e| g.ends(e))
        .map(|[a, b]| (a, b))
        .collect()
}

/// Spanning trees by trying every (n−1)-subset of the edges (small graphs only).
fn brute_force_trees(n: u32, edges: &[(u32, u32)]) -> u64 {
    fn find(p: &mut [u32], x: u32) -> u32 {
        let mut x = x;
        while p[x as usize] != x {
            x = p[x as usize];
        }
        x
    }
    let m = edges.len();
    let mut count = 0;
    for set in 0u64..1 << m {
        if set.count_ones() != n - 1 {
            continue;
        }
        let mut p: Vec<u32> = (0..n).collect();
        let mut ok = true;
        for (i, &(a, b)) in edges.iter().enumerate() {
            if set >> i & 1 == 1 {
                let (ra, rb) = (find(&mut p, a), find(&mut p, b));
                if ra == rb {
                    ok = false;
                    break;
                }
                p[ra as usize] = rb;
            }
        }
        count += ok as u64;
    }
    count
}

/// Spanning trees by Kirchhoff with this file's own Bareiss elimination over i128 (exact for
/// the small counts used here; every intermediate value is a minor).
fn determinant_trees(n: u32, edges: &[(u32, u32)]) -> i128 {
    let m = n as usize - 1;
    if m == 0 {
        return 1;
    }
    let mut a = vec![vec![0i128; m]; m];
    for &(u, v) in edges {
        let (u, v) = (u as usize, v as usize);
        for (x, y) in [(u, v), (v, u)] {
            if x < m {
                a[x][x] += 1;
                if y < m {
                    a[x][y] -= 1;
                }
            }
        }
    }
    let (mut prev, mut sign) = (1i128, 1i128);
    for k in 0..m {
        if a[k][k] == 0 {
            let r = (k + 1..m)
                .find(|&r| a[r][k] != 0)
                .expect("connected: non-singular");
            a.swap(k, r);
            sign = -sign;
        }
        for i in k + 1..m {
            for j in k + 1..m {
                a[i][j] = (a[i][j] * a[k][k] - a[i][k] * a[k][j]) / prev;
            }
        }
        prev = a[k][k];
    }
    sign * a[m - 1][m - 1]
}

#[test]
fn the_bareiss_of_this_file_is_right() {
    // K4 has 16 spanning trees, a 4-cycle 4, a wheel with 6 spokes 320.
    let k4: Vec<(u32, u32)> = vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    assert_eq!(determinant_trees(4, &k4), 16);
    assert_eq!(brute_force_trees(4, &k4), 16);
    assert_eq!(determinant_trees(4, &[(0, 1), (1, 2), (2, 3), (0, 3)]), 4);
}

#[test]
fn neighbours_match_the_geometry() {
    for (w, h) in [(1, 1), (2, 2), (3, 2), (4, 5), (6, 3)] {
        let g = CellGraph::new(GridSize::new(Grid::Hex, w, h));
        assert_eq!(
            library_edges(&g),
            hex_edges(w as i64, h as i64),
            "hex {w}x{h}"
        );
        if GridSize::parse(Grid::Triangle, &format!("{w}x{h}")).is_ok() {
            let g = CellGraph::new(GridSize::new(Grid::Triangle, w, h));
            assert_eq!(
                library_edges(&g),
                triangle_edges(w as i64, h as i64),
                "triangle {w}x{h}"
            );
        }
    }
    for (rings, first, counts) in [
        (1, 6, vec![1]),
        (2, 6, vec![1, 6]),
        (4, 6, vec![1, 6, 12, 24]),
        (6, 6, vec![1, 6, 12, 24, 24, 24]),
        (3, 3, vec![1, 3, 12]),
        (3, 5, vec![1, 5, 15]),
    ] {
        let g = CellGraph::new(GridSize::new(Grid::Polar, rings, first));
        assert_eq!(
            library_edges(&g),
            polar_edges(&counts),
            "polar {rings}x{first}"
        );
    }
}

#[test]
fn spanning_tree_counts_match_an_independent_count() {
    // The figure: a 2x2 hex grid has 5 edges and 8 spanning trees.
    let g = CellGraph::new(GridSize::new(Grid::Hex, 2, 2));
    assert_eq!(g.edges(), 5);
    assert_eq!(spanning_trees_graph(&g), 8.into());
    // A polar grid of 2 rings is the wheel with 6 spokes: 320 trees.
    let g = CellGraph::new(GridSize::new(Grid::Polar, 2, 6));
    assert_eq!(spanning_trees_graph(&g), 320.into());
    let small: Vec<(GridSize, Vec<(u32, u32)>)> = vec![
        (
            GridSize::new(Grid::Hex, 3, 2),
            hex_edges(3, 2).into_iter().collect(),
        ),
        (
            GridSize::new(Grid::Hex, 2, 3),
            hex_edges(2, 3).into_iter().collect(),
        ),
        (
            GridSize::new(Grid::Triangle, 4, 3),
            triangle_edges(4, 3).into_iter().collect(),
        ),
        (
            GridSize::new(Grid::Triangle, 3, 3),
            triangle_edges(3, 3).into_iter().collect(),
        ),
        (
            GridSize::new(Grid::Polar, 2, 3),
            polar_edges(&[1, 3]).into_iter().collect(),
        ),
    ];
    for (size, edges) in &small {
        let g = CellGraph::new(*size);
        let n = g.cells();
        let brute = brute_force_trees(n, edges);
        assert_eq!(
            spanning_trees_graph(&g),
            brute.into(),
            "{} {size}",
            size.grid
        );
        assert_eq!(determinant_trees(n, edges), brute as i128);
    }
    let larger: Vec<(GridSize, Vec<(u32, u32)>)> = vec![
        (
            GridSize::new(Grid::Hex, 5, 4),
            hex_edges(5, 4).into_iter().collect(),
        ),
        (
            GridSize::new(Grid::Triangle, 7, 4),
            triangle_edges(7, 4).into_iter().collect(),
        ),
        (
            GridSize::new(Grid::Polar, 3, 6),
            polar_edges(&[1, 6, 12]).into_iter().collect(),
        ),
    ];
    for (size, edges) in &larger {
        let g = CellGraph::new(*size);
        let want = determinant_trees(g.cells(), edges);
        assert_eq!(
            spanning_trees_graph(&g),
            want.into(),
            "{} {size}",
            size.grid
        );
    }
}

/// Chi-square of the trees a uniform sampler makes on a small grid against the uniform
/// distribution over all τ of them (every tree must appear). Fixed seed; the threshold is the
/// 0.1% critical value, so a correct sampler fails with probability 0.001 per case, and the
/// seed fixes the outcome.
#[test]
fn uniform_samplers_are_uniform_on_every_grid() {
    // Critical values of chi-square at significance 0.001.
    let crit = |df: u32| match df {
        5 => 20.52,
        7 => 24.32,
        15 => 37.70,
        _ => panic!("no critical value for {df}"),
    };
    for (size, tau) in [
        (GridSize::new(Grid::Hex, 2, 2), 8u64),
        // The wheel with 3 spokes is K4.
        (GridSize::new(Grid::Polar, 2, 3), 16),
        // Rows 0-1-2 and 3-4-5 joined at both ends: a 6-cycle.
        (GridSize::new(Grid::Triangle, 3, 2), 6),
    ] {
        let g = CellGraph::new(size);
        let tau_exact: u64 = spanning_trees_graph(&g).try_into().unwrap();
        assert_eq!(tau_exact, tau);
        for name in ["wilson", "aldous-broder"] {
            let algo = Algorithm::parse(name).unwrap();
            let mut maze = GraphMaze::new(&g);
            let mut s = GraphScratch::new();
            let mut counts: HashMap<Vec<u64>, u64> = HashMap::new();
            let per = 400u64;
            let samples = per * tau_exact;
            for i in 0..samples {
                let mut rng = Rng::from_maze_seed(maze_seed(1, name, size, i));
                generate(&algo, &g, &mut maze, &mut s, &mut rng);
                *counts.entry(maze.words().to_vec()).or_default() += 1;
            }
            assert_eq!(
                counts.len() as u64,
                tau_exact,
                "{name} {} {size}",
                size.grid
            );
            let chi: f64 = counts
                .values()
                .map(|&c| (c as f64 - per as f64).powi(2) / per as f64)
                .sum();
            let df = tau_exact as u32 - 1;
            assert!(
                chi < crit(df),
                "{name} {} {size}: chi2 {chi} with {df} df",
                size.grid
            );
        }
    }
}

/// A random source that walks every outcome of every draw (prefix replayed, then outcome 0
/// of each new draw, arities recorded): the exact distribution of a generator whose tree of
/// choices is finite, written here independently of the lab's enumerator.
struct Every {
    path: Vec<(u32, u32)>,
    pos: usize,
}

// SAFETY: each draw is a path entry's choice, which counts from 0 up to its arity minus one.
unsafe impl crate::RandomSource for Every {
    fn below(&mut self, n: u32) -> u32 {
        if self.pos == self.path.len() {
            self.path.push((0, n));
        }
        let (c, a) = self.path[self.pos];
        assert_eq!(a, n, "the same prefix must make the same draws");
        self.pos += 1;
        c
    }
    fn bits(&mut self, k: u32) -> u32 {
        self.below(1 << k)
    }
    fn unit_f64(&mut self) -> f64 {
        panic!("not enumerable: a floating-point draw")
    }
}

/// The exact distribution of `algo` on `g`: maze bits → probability.
fn exact(algo: &Algorithm, g: &CellGraph) -> HashMap<Vec<u64>, num_rational::BigRational> {
    use num_rational::BigRational;
    let mut out: HashMap<Vec<u64>, BigRational> = HashMap::new();
    let mut prefix: Vec<(u32, u32)> = Vec::new();
    let mut maze = GraphMaze::new(g);
    let mut s = GraphScratch::new();
    loop {
        let mut src = Every {
            path: prefix,
            pos: 0,
        };
        generate(algo, g, &mut maze, &mut s, &mut src);
        let denom: num_bigint::BigInt = src
            .path
            .iter()
            .map(|&(_, a)| num_bigint::BigInt::from(a))
            .product();
        *out.entry(maze.words().to_vec())
            .or_insert_with(|| BigRational::from_integer(0.into())) +=
            BigRational::new(1.into(), denom);
        prefix = src.path;
        while prefix.last().is_some_and(|&(c, a)| c + 1 == a) {
            prefix.pop();
        }
        match prefix.last_mut() {
            None => return out,
            Some(last) => last.0 += 1,
        }
    }
}

#[test]
fn exhaustive_distributions_on_the_smallest_grids() {
    use num_rational::BigRational;
    let one = BigRational::from_integer(1.into());
    let sizes = [
        GridSize::new(Grid::Hex, 2, 2),
        GridSize::new(Grid::Triangle, 3, 2),
        GridSize::new(Grid::Polar, 2, 3),
    ];
    for size in sizes {
        let g = CellGraph::new(size);
        let tau: u64 = spanning_trees_graph(&g).try_into().unwrap();
        for name in [
            "backtracker",
            "kruskal",
            "prim",
            "hunt-and-kill",
            "growing-tree:newest",
            "growing-tree:oldest",
            "growing-tree:random",
        ] {
            let algo = Algorithm::parse(name).unwrap();
            let dist = exact(&algo, &g);
            let total: BigRational = dist.values().cloned().sum();
            assert_eq!(total, one, "{name} {} {size}", size.grid);
            for bits in dist.keys() {
                let mut m = GraphMaze::new(&g);
                for e in 0..g.edges() {
                    if bits[(e / 64) as usize] >> (e % 64) & 1 == 1 {
                        m.open(e);
                    }
                }
                assert!(m.is_spanning_tree(&g));
            }
            assert!(dist.len() as u64 <= tau);
            if name == "kruskal" {
                // Independently: the greedy forest of every order of the edges, each order
                // equally likely.
                let edges: Vec<[u32; 2]> = (0..g.edges()).map(|e| g.ends(e)).collect();
                let mut want: HashMap<Vec<u64>, u64> = HashMap::new();
                let mut order: Vec<usize> = (0..edges.len()).collect();
                let mut orders = 0u64;
                permute(&mut order, 0, &mut |o| {
                    let mut p: Vec<u32> = (0..g.len()).collect();
                    fn root(p: &mut [u32], x: u32) -> u32 {
                        let mut x = x;
                        while p[x as usize] != x {
                            x = p[x as usize];
                        }
                        x
                    }
                    let mut bits = vec![0u64; edges.len().div_ceil(64)];
                    for &e in o {
                        let (a, b) = (root(&mut p, edges[e][0]), root(&mut p, edges[e][1]));
                        if a != b {
                            p[a as usize] = b;
                            bits[e / 64] |= 1 << (e % 64);
                        }
                    }
                    *want.entry(bits).or_default() += 1;
                    orders += 1;
                });
                assert_eq!(dist.len() as u64, tau, "kruskal makes every tree");
                for (bits, k) in want {
                    assert_eq!(dist[&bits], BigRational::new(k.into(), orders.into()));
                }
            }
        }
    }
    // Polar binary tree: every cell but the centre and the cells 0 of the rings chooses between
    // two parents with a fair coin, so each of the 2^k trees has probability 2^-k.
    for (rings, first) in [(2, 3), (3, 3), (2, 6)] {
        let g = CellGraph::new(GridSize::new(Grid::Polar, rings, first));
        let k = g.cells() - rings;
        let dist = exact(&Algorithm::BinaryTree, &g);
        assert_eq!(dist.len() as u64, 1 << k);
        let p = BigRational::new(1.into(), (1u64 << k).into());
        assert!(dist.values().all(|v| *v == p));
        let side = exact(&Algorithm::Sidewinder, &g);
        let total: BigRational = side.values().cloned().sum();
        assert_eq!(total, one);
    }
}

/// Call `f` on every permutation of `v[i..]` (with `v[..i]` fixed).
fn permute(v: &mut Vec<usize>, i: usize, f: &mut impl FnMut(&[usize])) {
    if i == v.len() {
        return f(v);
    }
    for j in i..v.len() {
        v.swap(i, j);
        permute(v, i + 1, f);
        v.swap(i, j);
    }
}
