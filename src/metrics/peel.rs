//! The tree pass of [`measure`](super::measure) for fixed ends, by leaf peeling: no search.
//!
//! The maze is rooted at the entrance. Every dead end but the entrance is a leaf; removing a
//! leaf from the tree, its one remaining passage leads to its parent, and the parent becomes a
//! leaf once all its children are gone. So one pass over a stack of leaves (filled by the
//! degree pass, [`super::degrees::prepare_with`]) visits every cell but the entrance once,
//! children before parents, and carries each cell's height and subtree size into its parent
//! as the reverse pass of a search would, with no search order to build first. Each cell keeps
//! the direction of its parent, which gives the solution (the parents from the exit up) and
//! every cell's children (its open sides but that one).
//!
//! The values are those of the search-based pass, whose only order-dependent choice is which
//! farthest pair it reports: of the longest paths, the one met at the deepest top (the top of
//! a path being its cell nearest the entrance) and, there, through the last child in the
//! search's order (east, south, west, north, down, up) that starts one. The tops of all the
//! longest paths lie on the one path from the entrance to the tree's centre, so after the pass
//! [`farthest_pair`] walks down that path from the top the peel met to the deepest top, and
//! picks the child and both ends there by direction order.

use super::{degrees, manhattan_3d, Bufs, Metrics, Node};
use crate::grid::Maze;

/// For each open-sides byte, 1 if it has exactly one side open (below bit 7, the root's mark).
const ONE_SIDE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 1;
    while m < 128 {
        t[m] = (m.count_ones() == 1) as u8;
        m += 1;
    }
    t
};

/// The open-sides bit of the opposite direction, for each direction (E, S, W, N, Down, Up).
const BACK: [u8; 8] = [4, 8, 1, 2, 32, 16, 0, 0];

/// Marks the root's open sides so that it never looks like a leaf.
const ROOT: u8 = 0x80;

/// Nodes zeroed per `fill` call: 1 KiB, below the size where glibc's `memset` switches to
/// `rep stosb` (which callgrind counts a byte an instruction).
const ZERO_CHUNK: usize = 128;

/// Cell offsets of the directions (E, S, W, N, Down, Up), as wrapping additions.
fn offsets(maze: &Maze) -> [u32; 8] {
    let (w, l) = (maze.width(), maze.size().layer_cells());
    [
        1,
        w,
        1u32.wrapping_neg(),
        w.wrapping_neg(),
        l,
        l.wrapping_neg(),
        0,
        0,
    ]
}

/// The children of `x` (its open sides but the one to its parent) as a set of directions.
#[inline(always)]
fn children(masks: &[u8], dir: &[u8], root: u32, x: u32) -> u32 {
    let m = masks[x as usize] as u32;
    if x == root {
        m
    } else {
        m & !(1 << dir[x as usize])
    }
}

/// Steps down from `x` while it has exactly one child; returns the steps taken.
fn corridor_down(masks: &[u8], dir: &[u8], off: &[u32; 8], root: u32, mut x: u32) -> u32 {
    let mut k = 0;
    loop {
        let c = children(masks, dir, root, x);
        if c.count_ones() != 1 {
            return k;
        }
        x = x.wrapping_add(off[c.trailing_zeros() as usize]);
        k += 1;
    }
}

/// The cell ending the longest descent below `x` that the search-based pass reports: at each
/// step the last child (in direction order) of the right height.
fn deepest(masks: &[u8], dir: &[u8], off: &[u32; 8], node: &[Node], root: u32, mut x: u32) -> u32 {
    while node[x as usize].height > 0 {
        let want = node[x as usize].height - 1;
        let mut c = children(masks, dir, root, x);
        let mut next = x;
        while c != 0 {
            let y = x.wrapping_add(off[c.trailing_zeros() as usize]);
            c &= c - 1;
            if node[y as usize].height == want {
                next = y;
            }
        }
        x = next;
    }
    x
}

/// The farthest pair the search-based pass reports, given the diameter `d` and `top`, a cell
/// where the peel met a path of that length (one of the tops). See the module docs.
fn farthest_pair(
    masks: &[u8],
    dir: &[u8],
    off: &[u32; 8],
    node: &[Node],
    root: u32,
    d: u32,
    top: u32,
) -> (u32, u32) {
    // Down from `top` towards the centre: a deeper top has a smaller height, and none has
    // twice its height below `d`. The child of greatest height leads to the centre; with two
    // such children the cell is the centre.
    let (mut x, mut deep_top) = (top, top);
    loop {
        let (mut first, mut second, mut next) = (0u32, 0u32, x);
        let mut c = children(masks, dir, root, x);
        while c != 0 {
            let y = x.wrapping_add(off[c.trailing_zeros() as usize]);
            c &= c - 1;
            let up = node[y as usize].height + 1;
            if up > first {
                (second, first, next) = (first, up, y);
            } else if up > second {
                second = up;
            }
        }
        if first + second == d {
            deep_top = x;
        }
        if next == x || first == second || 2 * node[next as usize].height < d {
            break;
        }
        x = next;
    }
    // At the deepest top: the last child `c` (in direction order) whose descent plus the
    // longest descent through a later child (or none: the top itself) makes `d`; that later
    // child is the last of the greatest height.
    let p = deep_top;
    let kids = children(masks, dir, root, p);
    let (mut after, mut pick) = ((0u32, p), None);
    for k in (0..6).rev() {
        if kids >> k & 1 == 0 {
            continue;
        }
        let y = p.wrapping_add(off[k]);
        let up = node[y as usize].height + 1;
        if up + after.0 == d {
            pick = Some((y, after));
            break;
        }
        if up > after.0 {
            after = (up, y);
        }
    }
    let (c, after) = pick.expect("measure: a longest path through the deepest top");
    let end = deepest(masks, dir, off, node, root, c);
    let start = if after.0 == 0 {
        p
    } else {
        deepest(masks, dir, off, node, root, after.1)
    };
    (start, end)
}

/// [`super::measure`] of a perfect maze of `D` directions (4 or 6) from `entrance` to `exit`.
#[inline(always)]
pub(super) fn measure<const D: usize>(
    maze: &Maze,
    entrance: u32,
    exit: u32,
    masks: &mut Vec<u8>,
    b: &mut Bufs,
) -> Metrics {
    let ng = maze.cells() as usize;
    let n = maze.tree_cells() as usize;
    if b.dir.len() < ng + 1 {
        b.dir.resize(ng + 1, 0);
        b.core.resize(ng + 1, 0);
        b.stack.resize(ng + 1, 0);
    }
    if b.node.len() < ng + D {
        b.node.resize(ng + D, Node::default());
    }
    // The leaves: every dead end, from the degree pass's planes (cell `32·i + k` at bit `2k`).
    let stack = &mut b.stack[..ng + 1];
    let mut top = 0usize;
    let push = |i: usize, one: u64, stack: &mut [u32], top: &mut usize| {
        let mut bits = one;
        while bits != 0 {
            stack[*top] = (32 * i) as u32 + bits.trailing_zeros() / 2;
            *top += 1;
            bits &= bits - 1;
        }
    };
    let deg = if D == 6 {
        degrees::prepare_3d_with(maze, masks, |i, one| push(i, one, stack, &mut top))
    } else {
        degrees::prepare_with(maze, masks, |i, one| push(i, one, stack, &mut top))
    };
    // The entrance is the root, not a leaf (the stack is in cell order).
    if let Ok(k) = stack[..top].binary_search(&entrance) {
        top -= 1;
        stack[k] = stack[top];
    }
    let masks = &masks[..ng];
    let core = &mut b.core[..ng];
    core.copy_from_slice(masks);
    core[entrance as usize] |= ROOT;
    let node = &mut b.node[..ng + D];
    for chunk in node[..ng].chunks_mut(ZERO_CHUNK) {
        chunk.fill(Node::default());
    }
    let dir = &mut b.dir[..ng];
    let off = offsets(maze);
    b.off = off;

    // Children before parents. The longest path met so far at a parent through the child just
    // peeled: `best`, at the cell `best_top`. A subtree is a bare corridor ending in a dead end
    // when `below == height` (`below < up`): every passage of such a corridor is counted once
    // into `bare` (corridors ending at the root are corrected below).
    let (mut best, mut best_top) = (0u32, entrance);
    let mut bare = 0u64;
    let mut peeled = 0usize;
    while top > 0 {
        top -= 1;
        let v = stack[top] as usize;
        let d = (core[v] as u32).trailing_zeros() as usize & 7;
        let p = (v as u32).wrapping_add(off[d]) as usize;
        core[p] ^= BACK[d];
        dir[v] = d as u8;
        let me = node[v];
        let par = node[p];
        let up = me.height + 1;
        let through = par.height + up;
        if through > best {
            (best, best_top) = (through, p as u32);
        }
        bare += (me.below < up) as u64;
        node[p] = Node {
            height: par.height.max(up),
            below: par.below + me.below + 1,
        };
        stack[top] = p as u32;
        top += ONE_SIDE[core[p] as usize] as usize;
        peeled += 1;
    }
    assert_eq!(peeled + 1, n, "measure: the maze is not connected");
    let (dir, node) = (&b.dir[..ng], &b.node[..ng + D]);

    // The root's own corridors: a dead end (one child) walks down its corridor; with two
    // children a corridor from one side runs through the root into the other. `up(c)` is the
    // length of the dead-end corridor through child `c` up to the root, `None` if `c`'s subtree
    // is not a bare corridor; `low` sums them (what `bare` counted of corridors ending there).
    let root = entrance;
    let up = |c: u32| {
        let c = &node[c as usize];
        (c.below == c.height).then_some(c.height + 1)
    };
    let rk = masks[root as usize] as u32;
    let kid = |j: u32| {
        let mut m = rk;
        for _ in 0..j {
            m &= m - 1;
        }
        root.wrapping_add(off[m.trailing_zeros() as usize])
    };
    let low: u64 = (0..rk.count_ones())
        .filter_map(|j| up(kid(j)))
        .map(u64::from)
        .sum();
    let mut dead_sum = bare - low;
    let down = |c: u32| corridor_down(masks, dir, &off, root, c);
    match rk.count_ones() {
        0 => {}
        1 => dead_sum += low + down(root) as u64,
        2 => {
            let (c1, c2) = (kid(0), kid(1));
            dead_sum += match (up(c1), up(c2)) {
                (Some(x1), Some(x2)) => 2 * (x1 + x2) as u64,
                (Some(x1), None) => (x1 + 1 + down(c2)) as u64,
                (None, Some(x2)) => (x2 + 1 + down(c1)) as u64,
                (None, None) => 0,
            };
        }
        _ => dead_sum += low,
    }

    // The solution: parents from the exit up to the entrance. At each path cell above the
    // exit, the children other than the path's next cell are the wrong turns; the walker's
    // hitting time adds `2·|T_u| − 1` per edge u → x, with `T_u` everything outside x's subtree.
    b.peeled = Some((entrance, exit));
    let (mut length, mut turns, mut last) = (0u32, 0u32, 0u32);
    let (mut decisions, mut branches, mut walk) = (0u32, 0u32, 0u64);
    let (mut max_cells, mut max_depth) = (0u32, 0u32);
    let mut x = exit;
    while x != root {
        let dx = dir[x as usize] as usize;
        let px = x.wrapping_add(off[dx]);
        let step = px.wrapping_sub(x);
        turns += (last != 0 && step != last) as u32;
        last = step;
        walk += 2 * (n as u64 - node[x as usize].below as u64 - 1) - 1;
        let mut side = children(masks, dir, root, px) & !(BACK[dx] as u32);
        let off_path = side.count_ones();
        branches += off_path;
        decisions += (off_path > 0) as u32;
        while side != 0 {
            let c = &node[px.wrapping_add(off[side.trailing_zeros() as usize]) as usize];
            side &= side - 1;
            max_cells = max_cells.max(c.below + 1);
            max_depth = max_depth.max(c.height + 1);
        }
        x = px;
        length += 1;
    }

    let (diameter_start, diameter_end) = if n == 1 {
        (root, root)
    } else {
        farthest_pair(masks, dir, &off, node, root, best, best_top)
    };
    let manhattan = if D == 4 {
        let w = maze.width();
        (entrance % w).abs_diff(exit % w) + (entrance / w).abs_diff(exit / w)
    } else {
        manhattan_3d(maze.size(), entrance, exit)
    };
    Metrics {
        diameter: best,
        diameter_start,
        diameter_end,
        solution_length: length,
        solution_turns: turns,
        solution_decisions: decisions,
        solution_branches: branches,
        walk_steps: walk,
        max_branch_cells: max_cells,
        max_branch_depth: max_depth,
        mean_dead_end_length: if deg.dead_ends == 0 {
            0.0
        } else {
            dead_sum as f64 / deg.dead_ends as f64
        },
        tortuosity: if manhattan == 0 {
            1.0
        } else {
            length as f64 / manhattan as f64
        },
        solution_count: 1,
        ..Metrics::from_degrees(&deg, maze, n)
    }
}

/// The solution path of the last peel, entrance first (cell ids, both ends included).
pub(super) fn solution_path(b: &Bufs, entrance: u32, exit: u32) -> Vec<u32> {
    let mut path = vec![exit];
    let mut x = exit;
    while x != entrance {
        x = x.wrapping_add(b.off[b.dir[x as usize] as usize]);
        path.push(x);
    }
    path.reverse();
    path
}
