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
//! longest paths lie on the one path from the entrance to the tree's centre, and the first of
//! them the peel meets is the deepest: two longest paths share a cell, so the path at a top
//! above goes down through the child whose subtree holds the deeper top, and the peel reaches
//! that child (and so the deeper top, with both of its halves) before it. [`farthest_pair`]
//! picks the child and both ends there by direction order.

use super::{degrees, root_corridors, tree_row, Bufs, Metrics, Node, Solution};
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

/// For a set of directions off the solution: the number of sides, plus 1 in the high half
/// when there is one (the walk sums branches and decisions in one word).
const FORKS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut m = 1;
    while m < 64 {
        t[m] = m.count_ones() as u64 | 1 << 32;
        m += 1;
    }
    t
};

/// The open-sides bit of the opposite direction, for each direction (E, S, W, N, Down, Up).
const BACK: [u8; 8] = [4, 8, 1, 2, 32, 16, 0, 0];

/// Marks the root's open sides so that it never looks like a leaf; also the direction the peel
/// takes from a cell with no side left (none, in a connected maze: offset 0, [`BACK`] 0).
const ROOT: u8 = 0x80;

/// The root's parent direction after the peel: no side (offset 0, bit 7 is never open).
const NO_SIDE: u8 = 7;

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

/// The children of `x` (its open sides but the one to its parent, `dir[x]`; the root's is
/// [`NO_SIDE`]) as a set of directions.
#[inline(always)]
fn children(masks: &[u8], dir: &[u8], x: u32) -> u32 {
    masks[x as usize] as u32 & !(1 << dir[x as usize])
}

/// Steps down from `x` while it has exactly one child; returns the steps taken.
fn corridor_down(masks: &[u8], dir: &[u8], off: &[u32; 8], mut x: u32) -> u32 {
    let mut k = 0;
    loop {
        let c = children(masks, dir, x);
        if c.count_ones() != 1 {
            return k;
        }
        x = x.wrapping_add(off[c.trailing_zeros() as usize]);
        k += 1;
    }
}

/// The cell ending the longest descent below `x` that the search-based pass reports: at each
/// step the last child (in direction order) of the right height.
fn deepest(masks: &[u8], dir: &[u8], off: &[u32; 8], node: &[Node], mut x: u32) -> u32 {
    loop {
        let mut c = children(masks, dir, x);
        if c & c.wrapping_sub(1) == 0 {
            if c == 0 {
                // No child: height 0, the end of the descent.
                return x;
            }
            // One child: the way down (no height to compare).
            x = x.wrapping_add(off[c.trailing_zeros() as usize & 7]);
            continue;
        }
        let want = node[x as usize].height - 1;
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
}

/// The farthest pair the search-based pass reports, given the diameter `d` and `top`, the
/// first cell where the peel met a path of that length: the deepest top (see the module docs).
fn farthest_pair(
    masks: &[u8],
    dir: &[u8],
    off: &[u32; 8],
    node: &[Node],
    d: u32,
    top: u32,
) -> (u32, u32) {
    // At the deepest top: the last child `c` (in direction order) whose descent plus the
    // longest descent through a later child (or none: the top itself) makes `d`; that later
    // child is the last of the greatest height.
    let p = top;
    let kids = children(masks, dir, p);
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
    let end = deepest(masks, dir, off, node, c);
    let start = if after.0 == 0 {
        p
    } else {
        deepest(masks, dir, off, node, after.1)
    };
    (start, end)
}

/// `(through, top)`, out of line: the peel's longest path grows a few hundred times per maze,
/// so a branch (not two selects) keeps the loop's registers free.
#[cold]
#[inline(never)]
fn longer(through: u32, top: u32) -> (u32, u32) {
    (through, top)
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
    if b.core.len() < ng {
        b.core.resize(ng, 0);
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
    // The stack is in cell order: its last cell is the largest (the peel relies on all being
    // cells of the grid).
    assert!(
        top == 0 || (stack[top - 1] as usize) < ng,
        "measure: a leaf past the grid"
    );
    // The entrance is the root, not a leaf.
    if let Ok(k) = stack[..top].binary_search(&entrance) {
        top -= 1;
        stack[k] = stack[top];
    }
    let masks = &masks[..ng];
    // The open sides still attached; a peeled cell's byte becomes its parent's direction.
    let core = &mut b.core[..ng];
    core.copy_from_slice(masks);
    core[entrance as usize] |= ROOT;
    // `core` and `node` of one length: one bounds check serves both.
    let node = &mut b.node[..ng];
    for chunk in node.chunks_mut(ZERO_CHUNK) {
        chunk.fill(Node::default());
    }
    let off = offsets(maze);
    b.off = off;

    // Children before parents. The longest path met so far at a parent through the child just
    // peeled: `best`, at the cell `best_top`. A subtree is a bare corridor ending in a dead end
    // when `below == height` (`below < up`): every passage of such a corridor is counted once
    // into `bare` (corridors ending at the root are corrected below). A cell with no side left
    // (only in a maze that is not connected) takes direction 7: offset 0, nothing cleared, so
    // the loop still ends, and the root's size below tells.
    //
    // Only `p` is bounds-checked: the stack holds cells below `ng` (the dead ends, checked
    // above, and parents, checked as `p`), and `top` only falls from its start, within it.
    let (mut best, mut best_top) = (0u32, entrance);
    let mut bare = 0u64;
    while top > 0 {
        top -= 1;
        // SAFETY: `top` < its starting value ≤ `stack.len()` (see above).
        let v = unsafe { *stack.get_unchecked(top) } as usize;
        debug_assert!(v < ng);
        // SAFETY: `v` < `ng` = `core.len()` = `node.len()`: every value on the stack is a dead
        // end (the largest was checked) or a `p` below, checked by `core[p]`.
        let (cv, me) = unsafe { (*core.get_unchecked(v), *node.get_unchecked(v)) };
        let d = (cv as u32 | ROOT as u32).trailing_zeros() as usize & 7;
        let p = (v as u32).wrapping_add(off[d]) as usize;
        core[p] ^= BACK[d];
        // SAFETY: as above.
        unsafe { *core.get_unchecked_mut(v) = d as u8 };
        let par = node[p];
        let up = me.height + 1;
        let through = par.height + up;
        if through > best {
            (best, best_top) = longer(through, p as u32);
        }
        bare += (me.below < up) as u64;
        node[p] = Node {
            height: par.height.max(up),
            below: par.below + me.below + 1,
        };
        // SAFETY: as above (`top` < `stack.len()`).
        unsafe { *stack.get_unchecked_mut(top) = p as u32 };
        top += ONE_SIDE[core[p] as usize] as usize;
    }
    assert_eq!(
        node[entrance as usize].below as usize + 1,
        n,
        "measure: the maze is not connected"
    );
    core[entrance as usize] = NO_SIDE;
    let (dir, node) = (&b.core[..ng], &b.node[..ng + D]);

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
    let kids = rk.count_ones();
    // The root's `j`-th child in direction order (the root itself past the last).
    let kid = |j: u32| {
        let mut m = rk;
        for _ in 0..j {
            m &= m.wrapping_sub(1);
        }
        root.wrapping_add(off[m.trailing_zeros() as usize & 7])
    };
    let up2 = |j: u32| if j < kids { up(kid(j)) } else { None };
    let low: u64 = (0..kids).filter_map(|j| up(kid(j))).map(u64::from).sum();
    let down = |k: usize| {
        corridor_down(
            masks,
            dir,
            &off,
            if k == 0 { root } else { kid(k as u32 - 1) },
        )
    };
    let dead_sum = bare - low + root_corridors(kids, low, [up2(0), up2(1)], down);

    // The solution: parents from the exit up to the entrance. At each path cell above the
    // exit, the children other than the path's next cell are the wrong turns; the walker's
    // hitting time adds `2·|T_u| − 1` per edge u → x, with `T_u` everything outside x's subtree.
    b.peeled = Some((entrance, exit));
    // Per step: the parent's direction is read once, as the next step's. The hitting time is
    // summed as `length·(2n − 3) − 2·Σ below` over the path's cells below the entrance.
    let mut solution = Solution::default();
    let mut x = exit;
    if x != root {
        let mut dx = dir[x as usize] as usize & 7;
        let (mut last, mut below, mut forks) = (dx, 0u64, 0u64);
        loop {
            let px = x.wrapping_add(off[dx]);
            below += node[x as usize].below as u64;
            solution.length += 1;
            solution.turns += (dx != last) as u32;
            last = dx;
            let dp = dir[px as usize] as u32;
            let mut side = masks[px as usize] as u32 & !(1 << dp) & !(BACK[dx] as u32);
            forks += FORKS[side as usize & 63];
            while side != 0 {
                let c = &node[px.wrapping_add(off[side.trailing_zeros() as usize]) as usize];
                side &= side - 1;
                solution.max_cells = solution.max_cells.max(c.below + 1);
                solution.max_depth = solution.max_depth.max(c.height + 1);
            }
            x = px;
            dx = dp as usize & 7;
            if x == root {
                break;
            }
        }
        solution.walk = solution.length as u64 * (2 * n as u64 - 3) - 2 * below;
        (solution.branches, solution.decisions) = (forks as u32, (forks >> 32) as u32);
    }

    let (diameter_start, diameter_end) = if n == 1 {
        (root, root)
    } else {
        farthest_pair(masks, dir, &off, node, best, best_top)
    };
    let diameter = (best, diameter_start, diameter_end);
    let ends = (entrance, exit);
    tree_row::<D>(maze, n, &deg, dead_sum, diameter, ends, solution)
}

/// The solution path of the last peel, entrance first (cell ids, both ends included).
pub(super) fn solution_path(b: &Bufs, entrance: u32, exit: u32) -> Vec<u32> {
    let mut path = vec![exit];
    let mut x = exit;
    while x != entrance {
        x = x.wrapping_add(b.off[b.core[x as usize] as usize & 7]);
        path.push(x);
    }
    path.reverse();
    path
}
