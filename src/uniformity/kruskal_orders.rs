//! Kruskal over every one of the E! orders of the interior walls (brute force).
//!
//! Randomised Kruskal is a function from wall orders to trees; with all E! orders equally likely
//! (an unbiased shuffle), a tree's probability is its number of orders over E!. This module runs
//! that function on every order: the orders are split by their first two walls into `E·(E−1)`
//! jobs run in parallel with rayon, and each job visits every permutation of the remaining walls
//! with Heap's algorithm (one swap per order). Kruskal itself runs on a tiny label array (cells
//! relabelled on union), stopping after `W·H − 1` unions; trees are counted in a dense array
//! indexed by the bitmask of open walls. 2×3 takes milliseconds; 3×3 (479,001,600 orders) takes
//! about a minute on 2 cores.

use super::{interior_walls, TreeKey, Wall};
use crate::grid::{Maze, Size};
use num_bigint::BigUint;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Largest wall count handled (the dense count array has `2^E` entries).
pub const MAX_WALLS: usize = 20;

/// The result of running Kruskal on every wall order.
#[derive(Clone, Debug)]
pub struct OrderCounts {
    /// Number of interior walls E.
    pub walls: usize,
    /// E!, the number of orders run.
    pub orders: BigUint,
    /// Every tree produced, sorted by wall words, with the number of orders producing it.
    pub trees: Vec<(TreeKey, u64)>,
    /// How the orders were counted.
    pub method: Method,
}

/// How [`OrderCounts`] were obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Kruskal run on every one of the E! orders ([`count_all_orders`]).
    BruteForce,
    /// Linear extensions of the cycle-property order ([`count_by_linear_extensions`]).
    LinearExtensions,
}

impl OrderCounts {
    /// Multiplicity histogram: number of orders → how many trees are produced by that many.
    pub fn histogram(&self) -> BTreeMap<u64, u64> {
        let mut h = BTreeMap::new();
        for (_, c) in &self.trees {
            *h.entry(*c).or_insert(0) += 1;
        }
        h
    }

    /// Kruskal's exact distribution: each tree's probability is its order count over E!.
    pub fn distribution(&self) -> super::enumerate::ExactDistribution {
        use num_bigint::BigInt;
        use num_rational::BigRational;
        let total = BigInt::from(self.orders.clone());
        super::enumerate::ExactDistribution {
            trees: self
                .trees
                .iter()
                .map(|(k, c)| (k.clone(), BigRational::new(BigInt::from(*c), total.clone())))
                .collect(),
            leaves: 0,
            max_depth: self.walls,
        }
    }

    /// For each wall (in [`interior_walls`] order), the number of orders leaving it open.
    pub fn open_orders(&self, walls: &[Wall]) -> Vec<u64> {
        let mut v = vec![0u64; walls.len()];
        for (k, c) in &self.trees {
            super::wall_bias::add_open_counts(walls, k, *c, &mut v);
        }
        v
    }
}

/// The wall words of the tree whose open walls are the set bits of `mask` (bit `i` = `walls[i]`).
fn tree_key(mask: u64, walls: &[Wall], size: Size) -> TreeKey {
    let open = walls.iter().enumerate().filter(|(i, _)| mask >> i & 1 != 0);
    Maze::from_open_walls(size, open.map(|(_, w)| *w))
        .words()
        .into()
}

/// `n!` as a big integer.
pub fn factorial(n: usize) -> BigUint {
    (1..=n as u64).fold(BigUint::from(1u32), |a, k| a * k)
}

/// Run Kruskal on `order` (wall indices) from a label state, returning the open-wall mask.
#[inline]
fn finish(
    ends: &[(u8, u8)],
    order: &[u8],
    labels: &mut [u8; 32],
    mut mask: u32,
    mut need: u32,
    n: usize,
) -> u32 {
    for &e in order {
        if need == 0 {
            break;
        }
        let (a, b) = ends[e as usize];
        let (la, lb) = (labels[a as usize], labels[b as usize]);
        if la != lb {
            for l in labels[..n].iter_mut() {
                if *l == lb {
                    *l = la;
                }
            }
            mask |= 1 << e;
            need -= 1;
        }
    }
    mask
}

/// Count the orders producing each tree, over all `E!` orders of the `width × height` grid's
/// walls. Panics if the grid has more than [`MAX_WALLS`] walls or 32 cells.
pub fn count_all_orders(size: Size) -> OrderCounts {
    let walls = interior_walls(size);
    let e = walls.len();
    let n = size.cells() as usize;
    assert!(
        e <= MAX_WALLS && n <= 32,
        "grid too large for exhaustive orders"
    );
    let ends: Vec<(u8, u8)> = walls.iter().map(|w| (w.a as u8, w.b as u8)).collect();
    let k = e.min(2);
    let mut prefixes: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..k {
        prefixes = prefixes
            .into_iter()
            .flat_map(|p| {
                (0..e as u8)
                    .filter(|x| !p.contains(x))
                    .map(|x| {
                        let mut q = p.clone();
                        q.push(x);
                        q
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    let dense = 1usize << e;
    let total = prefixes
        .par_iter()
        .map(|prefix| {
            let mut counts = vec![0u64; dense];
            let mut labels0 = [0u8; 32];
            for (i, l) in labels0.iter_mut().enumerate() {
                *l = i as u8;
            }
            let need0 = n as u32 - 1;
            let mask0 = finish(&ends, prefix, &mut labels0, 0, need0, n);
            let need1 = need0 - mask0.count_ones();
            let mut rest: Vec<u8> = (0..e as u8).filter(|x| !prefix.contains(x)).collect();
            let m = rest.len();
            let mut visit = |a: &[u8]| {
                let mut labels = labels0;
                let mask = finish(&ends, a, &mut labels, mask0, need1, n);
                counts[mask as usize] += 1;
            };
            // Heap's algorithm, iterative.
            visit(&rest);
            let mut c = vec![0usize; m];
            let mut i = 1;
            while i < m {
                if c[i] < i {
                    if i % 2 == 0 {
                        rest.swap(0, i);
                    } else {
                        rest.swap(c[i], i);
                    }
                    visit(&rest);
                    c[i] += 1;
                    i = 1;
                } else {
                    c[i] = 0;
                    i += 1;
                }
            }
            counts
        })
        .reduce(
            || vec![0u64; dense],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    let mut trees: Vec<(TreeKey, u64)> = total
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(mask, &c)| (tree_key(mask as u64, &walls, size), c))
        .collect();
    trees.sort_by(|a, b| a.0.cmp(&b.0));
    OrderCounts {
        walls: e,
        orders: factorial(e),
        trees,
        method: Method::BruteForce,
    }
}

/// Work (inner steps) of [`count_by_linear_extensions`]: `τ · 2^E · E`, or `None` beyond
/// [`MAX_WALLS`] walls.
pub(crate) fn linear_extension_work(size: Size, tau: u64) -> Option<f64> {
    let e = size.interior_wall_count() as usize;
    (e <= MAX_WALLS && size.cells_u64() <= 32).then(|| tau as f64 * (1u64 << e) as f64 * e as f64)
}

/// The same counts as [`count_all_orders`] without visiting every order, from the cycle
/// property: Kruskal's tree for an order is the minimum spanning tree when each wall weighs its
/// position, so it returns `T` exactly when every wall `f` outside `T` comes after every wall
/// of `T` on the path joining `f`'s cells. The orders producing `T` are therefore the linear
/// extensions of that partial order, counted by dynamic programming over the sets of walls
/// already placed (`2^E` states per tree); the spanning trees themselves are the
/// `(W·H − 1)`-subsets of walls without a cycle. An independent check of the brute force, and
/// exact where `E!` orders are too many to visit (3×4: 17! ≈ 3.6·10¹⁴ orders, seconds here).
pub fn count_by_linear_extensions(size: Size) -> OrderCounts {
    let walls = interior_walls(size);
    let e = walls.len();
    let n = size.cells() as usize;
    assert!(
        e <= MAX_WALLS && n <= 32,
        "grid too large for the linear-extension count"
    );
    // Every spanning tree as a wall mask: subsets of n − 1 walls that join all cells.
    let mut trees: Vec<u32> = Vec::new();
    let k = n - 1;
    let mut comb: Vec<usize> = (0..k).collect();
    loop {
        let mut labels: Vec<usize> = (0..n).collect();
        let mut ok = true;
        for &i in &comb {
            let (a, b) = (labels[walls[i].a as usize], labels[walls[i].b as usize]);
            if a == b {
                ok = false;
                break;
            }
            for l in labels.iter_mut() {
                if *l == b {
                    *l = a;
                }
            }
        }
        if ok {
            trees.push(comb.iter().fold(0u32, |m, &i| m | 1 << i));
        }
        // Next k-combination of 0..e in lexicographic order.
        let Some(i) = (0..k).rev().find(|&i| comb[i] < e - k + i) else {
            break;
        };
        comb[i] += 1;
        for j in i + 1..k {
            comb[j] = comb[j - 1] + 1;
        }
    }
    let counts: Vec<u64> = trees
        .par_iter()
        .map(|&t| {
            // pred[f] = walls of T on the path between f's cells (empty for walls of T).
            let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
            for (i, w) in walls.iter().enumerate() {
                if t >> i & 1 != 0 {
                    adj[w.a as usize].push((w.b as usize, i));
                    adj[w.b as usize].push((w.a as usize, i));
                }
            }
            let pred: Vec<u32> = walls
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    if t >> i & 1 != 0 {
                        return 0;
                    }
                    // Path from a to b in the tree: DFS recording the wall mask to each cell.
                    let mut mask = vec![u32::MAX; n];
                    mask[w.a as usize] = 0;
                    let mut stack = vec![w.a as usize];
                    while let Some(c) = stack.pop() {
                        for &(d, wi) in &adj[c] {
                            if mask[d] == u32::MAX {
                                mask[d] = mask[c] | 1 << wi;
                                stack.push(d);
                            }
                        }
                    }
                    mask[w.b as usize]
                })
                .collect();
            let full = (1usize << e) - 1;
            let mut f = vec![0u64; 1 << e];
            f[0] = 1;
            for set in 0..full {
                let c = f[set];
                if c == 0 {
                    continue;
                }
                let mut free = !set & full;
                while free != 0 {
                    let x = free.trailing_zeros() as usize;
                    free &= free - 1;
                    if pred[x] as usize & !set == 0 {
                        f[set | 1 << x] += c;
                    }
                }
            }
            f[full]
        })
        .collect();
    let mut out: Vec<(TreeKey, u64)> = trees
        .iter()
        .zip(counts)
        .map(|(&mask, c)| (tree_key(mask as u64, &walls, size), c))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    OrderCounts {
        walls: e,
        orders: factorial(e),
        trees: out,
        method: Method::LinearExtensions,
    }
}

/// Estimated wall-clock seconds for [`count_all_orders`] on `threads` threads, from a short
/// calibration run (about 2·10⁶ Kruskal runs on this grid, single thread).
pub(crate) fn estimate_seconds(size: Size, threads: usize) -> f64 {
    let walls = interior_walls(size);
    let e = walls.len();
    let n = size.cells() as usize;
    if e > 32 || n > 32 {
        return f64::INFINITY;
    }
    if e == 0 {
        // A 1x1 grid: one (empty) order, nothing to time.
        return 0.0;
    }
    let ends: Vec<(u8, u8)> = walls.iter().map(|w| (w.a as u8, w.b as u8)).collect();
    let mut order: Vec<u8> = (0..e as u8).collect();
    let mut labels0 = [0u8; 32];
    for (i, l) in labels0.iter_mut().enumerate() {
        *l = i as u8;
    }
    let runs = 2_000_000u64;
    let mut rng = crate::Rng::from_maze_seed(99);
    let mut acc = 0u32;
    let t = Instant::now();
    for i in 0..runs {
        if i % 64 == 0 {
            rng.shuffle(&mut order);
        } else {
            let j = (i as usize) % e.max(1);
            order.swap(0, j);
        }
        let mut labels = labels0;
        acc ^= finish(&ends, &order, &mut labels, 0, n as u32 - 1, n);
    }
    std::hint::black_box(acc);
    let per = t.elapsed().as_secs_f64() / runs as f64;
    let orders: f64 = (1..=e).map(|k| k as f64).product();
    orders * per / threads.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_by_three_matches_the_study() {
        let r = count_all_orders(Size::planar(2, 3));
        assert_eq!(r.orders, BigUint::from(5040u32));
        assert_eq!(r.trees.len(), 15);
        let h = r.histogram();
        assert_eq!(h.into_iter().collect::<Vec<_>>(), vec![(300, 6), (360, 9)]);
        let walls = interior_walls(Size::planar(2, 3));
        let open = r.open_orders(&walls);
        let i = walls
            .iter()
            .position(|w| w.label(crate::grid::Size::planar(2, 3)) == "E(0,1)")
            .unwrap();
        assert_eq!(open[i], 3240);
    }

    #[test]
    fn linear_extensions_agree_with_brute_force() {
        for (w, h) in [(1, 1), (2, 1), (2, 2), (2, 3), (3, 2), (2, 4)] {
            let a = count_all_orders(Size::planar(w, h));
            let b = count_by_linear_extensions(Size::planar(w, h));
            assert_eq!(a.trees, b.trees, "{w}x{h}");
            let total: u64 = b.trees.iter().map(|t| t.1).sum();
            assert_eq!(BigUint::from(total), b.orders);
        }
    }

    #[test]
    fn tiny_grids() {
        let r = count_all_orders(Size::planar(1, 1));
        assert_eq!(r.trees.len(), 1);
        let r = count_all_orders(Size::planar(2, 2));
        assert_eq!(r.trees.len(), 4);
        assert!(r.trees.iter().all(|(_, c)| *c == 6));
    }
}
