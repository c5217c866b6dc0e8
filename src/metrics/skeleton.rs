//! The 2-core of a braided maze with its corridors contracted: the searches of the exact
//! diameter ([`super::graph`]) run here instead of over every core cell.
//!
//! A core cell with three or more core passages is a **node**; the corridor cells between two
//! nodes form a **chain** of `len` edges (its `len − 1` inner cells kept in walk order). A core
//! that is one cycle has no such cell, so its first cell is made a node and the cycle is one
//! chain from it back to it. A search from a cell is then a shortest-path search over the nodes
//! with the chains' lengths as weights (a bucket queue: the weights are small integers), and an
//! inner cell at position `k` of a chain from `a` to `b` is `min(d(a) + k, d(b) + len − k)`
//! away (and, on the source's own chain, never farther than `|k − i|`). One pass over the
//! inner cells then gives every core cell's distance, exactly the distances a breadth-first
//! search over the core finds; the queue sees only the nodes, and most core cells of a braided
//! maze are corridor cells.

use super::opposite;

/// No entry, in the bucket lists; a corridor cell no walk has reached yet, in `place`.
const NONE: u32 = u32::MAX;

/// An inner cell of a chain: the chain's end nodes and the cell's distances along the chain
/// to each of them.
#[derive(Debug, Clone, Copy, Default)]
struct Inner {
    /// The node at the chain's start.
    a: u32,
    /// Edges from `a` along the chain.
    ka: u32,
    /// The node at the chain's end.
    b: u32,
    /// Edges to `b` along the chain.
    kb: u32,
}

/// The contracted core of one maze and the buffers of its searches, reused across mazes.
///
/// Every core cell has a **slot**: nodes `0..nodes`, then one slot no cell has (the padding
/// of the passage table, always at distance 0), then the inner cells chain after chain, each
/// chain in walk order. Distances and heights are kept per slot, so the passes over them read
/// arrays in order.
#[derive(Debug, Default)]
pub(super) struct Skeleton {
    /// Node count.
    nodes: usize,
    /// Slot count (nodes, the padding slot, inner cells).
    slots: usize,
    /// Cell of each slot (the padding slot's is the first node's).
    cells: Vec<u32>,
    /// `D` (neighbour node, chain length) entries per node, padded with (padding slot, 0).
    adj: Vec<(u32, u32)>,
    /// Per inner cell (slot − nodes − 1): its chain's ends and its distances to them.
    inner: Vec<Inner>,
    /// Per core cell: its slot (valid for core cells only, after [`Skeleton::build`]).
    place: Vec<u32>,
    /// Per slot: the height of the pendant trees hanging off its cell.
    height: Vec<u32>,
    /// Per slot: the distance from the last search's root.
    dist: Vec<u32>,
    /// Bucket list heads, one per distance (all `NONE` between searches).
    head: Vec<u32>,
    /// Bucket entries: (node, next entry).
    entries: Vec<(u32, u32)>,
}

impl Skeleton {
    /// Contract the core `core` (walls per cell after the peel; 0 off the core) of `n` cells
    /// with direction offsets `off` and pendant tree heights `height` (per cell). `core` must
    /// be a connected 2-core (every core cell has two or more core passages) or empty (a tree:
    /// then the skeleton is empty and has no search).
    pub(super) fn build<const D: usize>(
        &mut self,
        core: &[u8],
        off: &[u32; 6],
        height: &[u32],
        n: usize,
    ) {
        if self.place.len() < n {
            self.place.resize(n, 0);
            self.cells.resize(n + 1, 0);
            self.inner.resize(n, Inner::default());
            self.height.resize(n + 1, 0);
            self.dist.resize(n + 1, 0);
            self.head.resize(2 * n + 2, NONE);
        }
        let core = &core[..n];
        let place = &mut self.place[..n];
        let cells = &mut self.cells[..n + 1];
        // Nodes first, in cell order; the other core cells wait for their chain's walk.
        let (mut nodes, mut any) = (0, NONE);
        for (c, &m) in core.iter().enumerate() {
            let node = m.count_ones() > 2;
            place[c] = if node { nodes as u32 } else { NONE };
            cells[nodes] = c as u32;
            nodes += node as usize;
            if m != 0 && any == NONE {
                any = c as u32;
            }
        }
        if any == NONE {
            (self.nodes, self.slots) = (0, 0);
            return;
        }
        if nodes == 0 {
            // One cycle: its first cell stands for a node.
            place[any as usize] = 0;
            cells[0] = any;
            nodes = 1;
        }
        self.nodes = nodes;
        let pad = nodes as u32;
        cells[nodes] = cells[0];
        self.adj.clear();
        self.adj.resize(nodes * D, (pad, 0));
        let adj = &mut self.adj[..];
        let inner = &mut self.inner[..n];
        let mut slots = nodes + 1;
        for j in 0..nodes {
            let x = cells[j];
            let mut m = core[x as usize] as u32;
            let mut e = j * D;
            while m != 0 {
                let d = m.trailing_zeros();
                m &= m - 1;
                let mut cur = x.wrapping_add(off[d as usize]);
                let p = place[cur as usize];
                if p != NONE && p > pad {
                    // An inner cell seen from its chain's other end already.
                    let i = inner[(p - pad - 1) as usize];
                    let other = if i.a == j as u32 { i.b } else { i.a };
                    adj[e] = (other, i.ka + i.kb);
                    e += 1;
                    continue;
                }
                let first = slots;
                let mut back = opposite(d as usize) as u32;
                while place[cur as usize] == NONE {
                    place[cur as usize] = slots as u32;
                    cells[slots] = cur;
                    slots += 1;
                    let k = core[cur as usize] as u32 & !(1 << back);
                    let d = k.trailing_zeros();
                    back = opposite(d as usize) as u32;
                    cur = cur.wrapping_add(off[d as usize]);
                }
                let b = place[cur as usize];
                let len = (slots - first + 1) as u32;
                for (ka, i) in
                    (1..).zip(&mut inner[first - pad as usize - 1..slots - pad as usize - 1])
                {
                    *i = Inner {
                        a: j as u32,
                        ka,
                        b,
                        kb: len - ka,
                    };
                }
                adj[e] = (b, len);
                e += 1;
            }
        }
        self.slots = slots;
        let h = &mut self.height[..slots];
        for (h, &c) in h.iter_mut().zip(&cells[..slots]) {
            *h = height[c as usize];
        }
        h[nodes] = 0;
        if self.entries.len() < nodes * D + 3 {
            self.entries.resize(nodes * D + 3, (0, 0));
        }
    }

    /// The slot of core cell `c`.
    pub(super) fn slot(&self, c: u32) -> u32 {
        self.place[c as usize]
    }

    /// The distances of the last search, per slot.
    pub(super) fn dist(&self) -> &[u32] {
        &self.dist[..self.slots]
    }

    /// Distances from core cell `root` to every core cell, per slot ([`Self::dist`]), exactly
    /// as a breadth-first search over the core finds them. Returns the largest `dist + height`
    /// over the core cells but the root.
    pub(super) fn search<const D: usize>(&mut self, root: u32) -> u32 {
        let (nodes, slots) = (self.nodes, self.slots);
        let (dn, rest) = self.dist[..slots].split_at_mut(nodes + 1);
        dn.fill(NONE);
        dn[nodes] = 0;
        let head = &mut self.head;
        let entries = &mut self.entries;
        let r = self.place[root as usize] as usize;
        let mut top = 0;
        let mut start = |d: u32, j: u32, top: &mut usize| {
            if d < dn[j as usize] {
                dn[j as usize] = d;
                entries[*top] = (j, head[d as usize]);
                head[d as usize] = *top as u32;
                *top += 1;
            }
        };
        // The root's own chain, when it is an inner cell: its slots and its position.
        let own = if r < nodes {
            start(0, r as u32, &mut top);
            None
        } else {
            let i = self.inner[r - nodes - 1];
            start(i.ka, i.a, &mut top);
            start(i.kb, i.b, &mut top);
            Some((r - nodes - i.ka as usize, i.ka, i.ka + i.kb))
        };
        // Stale entries (a node reached again at a larger distance) relax nothing.
        let adj = &self.adj;
        let (mut popped, mut d) = (0, 0u32);
        while popped < top {
            let mut e = head[d as usize];
            head[d as usize] = NONE;
            while e != NONE {
                popped += 1;
                let (j, next) = entries[e as usize];
                e = next;
                let row = &adj[j as usize * D..j as usize * D + D];
                for &(k, w) in row {
                    let nd = d + w;
                    let old = dn[k as usize];
                    let better = nd < old;
                    dn[k as usize] = if better { nd } else { old };
                    let h = head[nd as usize];
                    entries[top] = (k, h);
                    head[nd as usize] = if better { top as u32 } else { h };
                    top += better as usize;
                }
            }
            d += 1;
        }
        for (x, i) in rest.iter_mut().zip(&self.inner[..slots - nodes - 1]) {
            *x = (dn[i.a as usize] + i.ka).min(dn[i.b as usize] + i.kb);
        }
        if let Some((first, at, len)) = own {
            for (k, x) in (1..len).zip(&mut rest[first..]) {
                *x = (*x).min(k.abs_diff(at));
            }
        }
        self.dist[..slots]
            .iter()
            .zip(&self.height[..slots])
            .map(|(&d, &h)| if d == 0 { 0 } else { d + h })
            .max()
            .unwrap_or(0)
    }

    /// The cells whose `dist + height` is `e` after the last search: how many there are, and
    /// one of them.
    pub(super) fn farthest(&self, e: u32) -> (u32, u32) {
        let (mut ties, mut far) = (0, NONE);
        let slots = self.slots;
        for (s, (&d, &h)) in self.dist[..slots]
            .iter()
            .zip(&self.height[..slots])
            .enumerate()
        {
            if d != 0 && d + h == e {
                ties += 1;
                far = self.cells[s];
            }
        }
        (ties, far)
    }
}
