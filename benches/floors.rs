//! Floors for `measure()`: how long the least work a breadth-first design
//! must do takes on the very mazes `benches/metrics.rs` measures, next to `measure()` itself.
//!
//! - `pass`: one linear read of every cell's open-sides byte (the memory floor).
//! - `bfs`: a bare breadth-first search from cell 0 that records each position's parent and
//!   nothing else: per position one queue load, one mask load, one push-table load and four
//!   speculative stores, the same branch-free push as `measure()`.
//! - `bfs+sweep`: that search plus the least tree pass there is, one pass in reverse order that
//!   adds every position's subtree size into its parent's.
//! - `measure`: `metrics::measure` with every column.
//!
//! `measure()` needs everything `bfs+sweep` does (an order with parents before children and a
//! pass with children before parents) and more (the degree pass, heights, the diameter, the
//! dead-end corridors, the solution walk). So `bfs+sweep` bounds from below what any
//! `measure()` of this shape can cost: how much faster `measure()` could get without a different
//! kind of traversal.
//!
//! The masks are built before timing, from [`Maze::open_mask`]. Run:
//! `cargo bench --bench floors` (optionally a filter such as `64x64`). Environment as in
//! `benches/metrics.rs`: `METRICS_BENCH_ROUNDS` (default 31), `METRICS_BENCH_MS` (default 20).

mod common;

use std::hint::black_box;

use batchgen::generate::Scratch;
use batchgen::{metrics, rng, Algorithm, Ends, Maze, Rng};

/// The push table of a width-`w` grid: for each set of forward sides (E=1, S=2, W=4, N=8), the
/// values to add to `parent_pos << 32 | cell << 4` for each child, the child's back bit in the
/// low four bits; unused slots add 0.
fn push_table(w: u32) -> [[u64; 4]; 16] {
    let steps: [(i64, u64); 4] = [(1, 4), (w as i64, 8), (-1, 1), (-(w as i64), 2)];
    let mut t = [[0u64; 4]; 16];
    for (f, row) in t.iter_mut().enumerate() {
        let mut j = 0;
        for (d, &(off, back)) in steps.iter().enumerate() {
            if f >> d & 1 == 1 {
                row[j] = ((off << 4) as u64).wrapping_add(back);
                j += 1;
            }
        }
    }
    t
}

/// Population count of a 4-bit set from a nibble table.
#[inline(always)]
fn pop4(f: u64) -> usize {
    (0x4332_3221_3221_2110u64 >> (4 * f) & 15) as usize
}

/// The bare search: fills `queue` (entries `parent_pos << 32 | cell << 4 | back`) and, if
/// `SIZES`, zeroes `size` at every position it leaves. Returns the number of positions.
#[inline(always)]
fn bfs<const SIZES: bool>(
    masks: &[u8],
    table: &[[u64; 4]; 16],
    queue: &mut [u64],
    size: &mut [u32],
) -> usize {
    let n = masks.len();
    let queue = &mut queue[..n + 4];
    let size = &mut size[..n];
    queue[0] = 0;
    let (mut head, mut tail) = (0usize, 1usize);
    while head < tail {
        let e = queue[head];
        let v = (e as u32 >> 4) as usize;
        let fwd = masks[v] as u64 & !e & 15;
        if SIZES {
            size[head] = 0;
        }
        let base = (head as u64) << 32 | (e & 0xffff_fff0);
        let row = &table[fwd as usize];
        queue[tail..tail + 4].copy_from_slice(&std::array::from_fn::<u64, 4, _>(|j| {
            base.wrapping_add(row[j])
        }));
        tail += pop4(fwd);
        assert!(tail <= n, "not a tree");
        head += 1;
    }
    tail
}

/// Leaf peeling, the other order with children before parents: every dead end starts in the
/// queue; a cell leaves it through its one remaining side, which closes the facing side of the
/// neighbour, and the neighbour joins the queue when one side is left. Subtree sizes (rooted
/// at the last cell) are summed on the way, so this is the counterpart of `bfs+sweep`. Its
/// queue holds every front at once (one per dead end) instead of a breadth-first frontier, so
/// the loads of one corridor do not wait on each other. `live` and `size` are set up here by
/// linear passes. Returns the cells processed (every one, if the maze is a tree).
#[inline(always)]
fn peel(masks: &[u8], w: u32, live: &mut [u8], size: &mut [u32], queue: &mut [u32]) -> usize {
    let n = masks.len();
    let (live, size, queue) = (&mut live[..n], &mut size[..n], &mut queue[..n + 1]);
    live.copy_from_slice(masks);
    size.fill(0);
    let mut off = [0u32; 16];
    let mut opp = [0u8; 16];
    for (bit, step, back) in [
        (1, 1, 4),
        (2, w, 8),
        (4, 1u32.wrapping_neg(), 1),
        (8, w.wrapping_neg(), 2),
    ] {
        off[bit] = step;
        opp[bit] = back;
    }
    let mut tail = 0usize;
    for (c, &m) in masks.iter().enumerate() {
        queue[tail] = c as u32;
        tail += (pop4(m as u64) == 1) as usize;
    }
    let mut head = 0usize;
    while head < tail {
        let x = queue[head] as usize;
        head += 1;
        // One side left (0 at the last cell, whose step goes nowhere and closes nothing).
        let m = live[x] as usize;
        let y = (x as u32).wrapping_add(off[m]) as usize;
        live[y] &= !opp[m];
        let up = (m != 0) as u32;
        size[y] += (size[x] + 1) * up;
        queue[tail] = y as u32;
        tail += (pop4(live[y] as u64) == 1 && m != 0) as usize;
        assert!(tail <= n, "not a tree");
    }
    tail
}

/// The least tree pass: subtree sizes, children before parents.
#[inline(always)]
fn sweep(queue: &[u64], size: &mut [u32], n: usize) -> u32 {
    let size = &mut size[..n];
    for pos in (1..n).rev() {
        let p = (queue[pos] >> 32) as usize;
        size[p] += size[pos] + 1;
    }
    size[0]
}

fn main() {
    let filter = common::Filter::from_args();
    for (w, h) in [(20u32, 20u32), (64, 64), (256, 256)] {
        for algo in ["backtracker", "kruskal", "wilson"] {
            let name = format!("{w}x{h}/{algo}");
            if !filter.selects(&name) {
                continue;
            }
            let a = Algorithm::parse(algo).unwrap();
            // The mazes of `benches/metrics.rs`: about a million cells, the same seeds.
            let count = ((1u64 << 20) / (w * h) as u64).max(8);
            let mut scratch = Scratch::new();
            let mazes: Vec<Maze> = (0..count)
                .map(|i| {
                    let mut m = Maze::new(w, h);
                    let mut r = Rng::from_maze_seed(rng::maze_seed(3, algo, w, h, i));
                    a.generate(&mut m, &mut scratch, &mut r);
                    m
                })
                .collect();
            let masks: Vec<Vec<u8>> = mazes
                .iter()
                .map(|m| (0..m.cells()).map(|c| m.open_mask(c)).collect())
                .collect();
            let n = (w * h) as usize;
            let table = push_table(w);
            let mut queue = vec![0u64; n + 4];
            let mut peel_queue = vec![0u32; n + 1];
            let mut live = vec![0u8; n];
            let mut size = vec![0u32; n];
            let mut ms = metrics::Scratch::new();
            let ends = Ends::corners(w, h);
            // Every floor is checked once: the search reaches every cell, the sweep counts them.
            for mk in &masks {
                assert_eq!(bfs::<true>(mk, &table, &mut queue, &mut size), n);
                assert_eq!(sweep(&queue, &mut size, n) as usize, n - 1);
                assert_eq!(peel(mk, w, &mut live, &mut size, &mut peel_queue), n);
                assert_eq!(size.iter().max().copied(), Some(n as u32 - 1));
            }
            let time = |label: &str, f: &mut dyn FnMut(usize)| {
                let median = common::median_ns_per_item(mazes.len(), f);
                println!(
                    "{:<36} median_ns={:>10.1} ns_per_cell={:.2}",
                    format!("floors/{name}/{label}"),
                    median,
                    median / n as f64
                );
            };
            time("pass", &mut |i| {
                black_box(masks[i].iter().fold(0u32, |s, &b| s.wrapping_add(b as u32)));
            });
            time("bfs", &mut |i| {
                black_box(bfs::<false>(
                    black_box(&masks[i]),
                    &table,
                    &mut queue,
                    &mut size,
                ));
            });
            time("bfs+sweep", &mut |i| {
                bfs::<true>(black_box(&masks[i]), &table, &mut queue, &mut size);
                black_box(sweep(&queue, &mut size, n));
            });
            time("peel", &mut |i| {
                let k = peel(
                    black_box(&masks[i]),
                    w,
                    &mut live,
                    &mut size,
                    &mut peel_queue,
                );
                black_box((k, size[0]));
            });
            time("measure", &mut |i| {
                black_box(metrics::measure(black_box(&mazes[i]), ends, &mut ms));
            });
        }
    }
}
