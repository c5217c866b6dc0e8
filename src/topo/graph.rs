//! The cell graph of a grid: cells `0..len`, each cell's neighbours in direction order with the
//! edge between them, in flat arrays (CSR: the slots of cell `c` are `off[c]..off[c + 1]`),
//! built once per run and shared by every maze of it. The layouts below are a contract (cell
//! ids, direction labels, edge ids and the order of the neighbours are what mazes, seeds and
//! hashes are made of); `src/topo/README.md` states them with pictures.
//!
//! - **Square** `W×H`: cell `y·W + x`; directions E 0, S 1, W 2, N 3.
//! - **Hex** `W×H`, odd-r pointy-top: cell `y·W + x`; directions clockwise from the east:
//!   E 0, SE 1, SW 2, W 3, NW 4, NE 5 (opposite `d ± 3`). Even `y`: NW `(x−1, y−1)`,
//!   NE `(x, y−1)`, SW `(x−1, y+1)`, SE `(x, y+1)`; odd `y`: NW `(x, y−1)`, NE `(x+1, y−1)`,
//!   SW `(x, y+1)`, SE `(x+1, y+1)`; E and W are `(x ± 1, y)`.
//! - **Triangle** `W×H`: cell `y·W + x`, pointing up when `x + y` is even; directions E 0
//!   `(x+1, y)`, S 1 `(x, y+1)` (up-pointing cells only), W 2 `(x−1, y)`, N 3 `(x, y−1)`
//!   (down-pointing cells only).
//! - **Polar** `R×C`: see [`super::polar`]; directions clockwise 0, outward 1 (one slot per
//!   outward neighbour, in index order), counter-clockwise 2, inward 3.
//!
//! Edges are numbered in the order they are met going through the cells in id order and each
//! cell's neighbours in slot order, counting an edge at its smaller end. With a cell set (a
//! mask), the cells outside have no slot and the edges are those between cells of the set.

use super::{polar, Grid, GridSize};

/// Why a graph could not be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum GraphError {
    /// The cell set has no cell.
    #[error("the mask has no cell")]
    Empty,
    /// The cell set is not connected through the grid's neighbours.
    #[error(
        "the mask's cells are not connected on the {grid} grid: cell ({x}, {y}) cannot be \
         reached from cell ({fx}, {fy})"
    )]
    Disconnected {
        /// The grid.
        grid: Grid,
        /// The first cell of the set.
        fx: u32,
        /// Its row.
        fy: u32,
        /// A cell it does not reach.
        x: u32,
        /// Its row.
        y: u32,
    },
    /// A mask given for a grid that has none.
    #[error("masks work on square, hex and triangle grids, not on a {0} grid")]
    NoMask(Grid),
    /// The cell set's size differs from the grid's.
    #[error("the mask is {mw}x{mh} cells and the grid {w}x{h}")]
    MaskSize {
        /// Mask width.
        mw: u32,
        /// Mask height.
        mh: u32,
        /// Grid width.
        w: u32,
        /// Grid height.
        h: u32,
    },
}

/// A grid's cells and edges (see the module docs).
#[derive(Clone, Debug)]
pub struct CellGraph {
    size: GridSize,
    /// Slots of cell `c`: `off[c]..off[c + 1]`.
    off: Vec<u32>,
    /// The neighbour of each slot.
    nbr: Vec<u32>,
    /// The edge of each slot.
    edge: Vec<u32>,
    /// The direction label of each slot.
    dir: Vec<u8>,
    /// The two cells of each edge, smaller first.
    ends: Vec<[u32; 2]>,
    /// `ends` in 16 bits, when every cell id fits (empty otherwise).
    ends16: Vec<[u16; 2]>,
    /// Per cell, the neighbour and the edge of each of its slots in 16 bits, padded to 8 slots
    /// with neighbour `len()` (no cell) and edge 0, when ids and edges fit 16 bits and no cell
    /// has more than 8 neighbours (empty otherwise).
    slots16: Vec<[[u16; 2]; 8]>,
    /// The direction labels of each edge: from its smaller cell, and from its larger one.
    edge_dir: Vec<[u8; 2]>,
    /// Per slot, its neighbour and the index of the slot back among the neighbour's slots, as
    /// `neighbour << 3 | index` (when no cell has more than 8 neighbours; empty otherwise).
    back: Vec<u32>,
    /// `back` again with every cell's entries padded to [`CellGraph::back_stride`] entries by
    /// `len() << 3` (a cell past the graph's), so that a visit reads a fixed number of entries
    /// (empty when `back` is or the graph has more than 2^16 cells, with `stride` 0).
    back_fixed: Vec<u32>,
    /// The entries per cell of `back_fixed` (0 when it is empty).
    stride: u32,
    /// The one cell with more neighbours than `stride` (a polar grid's centre), or `u32::MAX`.
    wide: u32,
    /// One bit per slot of each cell (bit `i` for its `i`-th slot), when no cell has more than
    /// 8 neighbours (empty otherwise): the neighbour masks the generators start from.
    full: Vec<u8>,
    /// The cells of the graph (all of them, or a mask's), increasing.
    ids: Vec<u32>,
    /// The tree measure's words of each edge ([`CellGraph::tree_tables`]; empty when not
    /// built).
    tree_edge: Vec<u64>,
    /// The tree measure's words of each cell's edges by edge id ([`CellGraph::tree_tables`];
    /// empty when not built).
    tree_slot: Vec<u32>,
    /// Polar: the first cell id of each ring, and one past the last ring.
    ring_start: Vec<u32>,
    /// Polar: the ring of each cell.
    ring: Vec<u32>,
    /// Is each id a cell of the graph (false for a mask's holes)?
    present: Vec<bool>,
    /// The fewest and the most neighbours a cell of the graph has.
    min_deg: u32,
    max_deg: u32,
}

impl CellGraph {
    /// The full graph of `size`.
    pub fn new(size: GridSize) -> CellGraph {
        CellGraph::build(size, None).expect("a full grid is connected")
    }

    /// The graph of `size` restricted to the cells of `cells` (`cells[y·W + x]`, `W×H` long;
    /// not for polar grids), refused when empty or not connected through the grid's neighbours.
    pub fn masked(
        size: GridSize,
        mw: u32,
        mh: u32,
        cells: &[bool],
    ) -> Result<CellGraph, GraphError> {
        if size.grid == Grid::Polar {
            return Err(GraphError::NoMask(Grid::Polar));
        }
        if (mw, mh) != (size.a, size.b) || cells.len() != (mw * mh) as usize {
            return Err(GraphError::MaskSize {
                mw,
                mh,
                w: size.a,
                h: size.b,
            });
        }
        CellGraph::build(size, Some(cells))
    }

    fn build(size: GridSize, mask: Option<&[bool]>) -> Result<CellGraph, GraphError> {
        let mut counts = Vec::new();
        let mut ring_start = Vec::new();
        let len = if size.grid == Grid::Polar {
            polar::ring_counts(size.a, size.b, &mut counts);
            let mut s = 0;
            for &c in &counts {
                ring_start.push(s);
                s += c;
            }
            ring_start.push(s);
            s
        } else {
            size.a * size.b
        };
        let present: Vec<bool> = match mask {
            Some(m) => m.to_vec(),
            None => vec![true; len as usize],
        };
        let mut ring = Vec::new();
        if size.grid == Grid::Polar {
            ring.reserve(len as usize);
            for (r, &c) in counts.iter().enumerate() {
                ring.extend(std::iter::repeat_n(r as u32, c as usize));
            }
        }
        let mut g = CellGraph {
            size,
            off: Vec::with_capacity(len as usize + 1),
            nbr: Vec::new(),
            edge: Vec::new(),
            dir: Vec::new(),
            ends: Vec::new(),
            ends16: Vec::new(),
            slots16: Vec::new(),
            edge_dir: Vec::new(),
            back: Vec::new(),
            back_fixed: Vec::new(),
            stride: 0,
            wide: u32::MAX,
            full: Vec::new(),
            tree_edge: Vec::new(),
            tree_slot: Vec::new(),
            ids: (0..len).filter(|&c| present[c as usize]).collect(),
            ring_start,
            ring,
            present,
            min_deg: 0,
            max_deg: 0,
        };
        if g.ids.is_empty() {
            return Err(GraphError::Empty);
        }
        let mut list: Vec<(u32, u8)> = Vec::with_capacity(8);
        g.off.push(0);
        for c in 0..len {
            list.clear();
            if g.present[c as usize] {
                g.neighbours_of(c, &counts, &mut list);
                list.retain(|&(v, _)| g.present[v as usize]);
            }
            for &(v, d) in &list {
                g.nbr.push(v);
                g.dir.push(d);
                g.edge.push(u32::MAX);
            }
            g.off.push(g.nbr.len() as u32);
        }
        for u in 0..len {
            for s in g.slots(u) {
                let v = g.nbr[s as usize];
                if v > u {
                    let e = g.ends.len() as u32;
                    g.ends.push([u, v]);
                    g.edge[s as usize] = e;
                    let back = g
                        .slots(v)
                        .find(|&t| g.nbr[t as usize] == u)
                        .expect("neighbours are symmetric");
                    g.edge[back as usize] = e;
                    g.edge_dir.push([g.dir[s as usize], g.dir[back as usize]]);
                }
            }
        }
        debug_assert!(g.edge.iter().all(|&e| e != u32::MAX));
        if len <= 1 << 16 {
            g.ends16 = g.ends.iter().map(|&[u, v]| [u as u16, v as u16]).collect();
        }
        let degrees: Vec<u32> = g.ids.iter().map(|&c| g.slots(c).len() as u32).collect();
        g.min_deg = degrees.iter().copied().min().unwrap_or(0);
        g.max_deg = degrees.iter().copied().max().unwrap_or(0);
        if g.max_deg <= 8 {
            g.full = (0..len)
                .map(|c| ((1u32 << g.slots(c).len()) - 1) as u8)
                .collect();
            // Cell ids are below `MAX_CELLS`, so a neighbour and a slot index fit 32 bits.
            const _: () = assert!(crate::grid::MAX_CELLS <= 1 << 29);
            g.back = vec![0; g.nbr.len()];
            for u in 0..len {
                for s in g.slots(u) {
                    let v = g.nbr[s as usize];
                    let i = g.slots(v).position(|t| g.nbr[t as usize] == u);
                    g.back[s as usize] = v << 3 | i.expect("neighbours are symmetric") as u32;
                }
            }
            // Past 2^16 cells a grid's tables outweigh the time the padding saves: its
            // generators' scratch and the slot tables set how large a grid fits
            // (`memory::grid_bytes_per_cell`), and the padded table would add 12 to 24 bytes
            // per cell.
            if len <= 1 << 16 {
                g.build_back_fixed();
            }
        }
        if g.max_deg <= 8 && len < 1 << 16 && g.ends.len() <= 1 << 16 {
            g.slots16 = (0..len)
                .map(|c| {
                    let mut r = [[len as u16, 0]; 8];
                    for (k, t) in g.slots(c).enumerate() {
                        r[k] = [g.nbr[t as usize] as u16, g.edge[t as usize] as u16];
                    }
                    r
                })
                .collect();
        }
        if g.max_deg <= 8 && len <= 1 << 16 {
            g.build_tree_tables();
        }
        g.check_connected()?;
        Ok(g)
    }

    /// Fill `back_fixed`, `stride` and `wide` from `back` (see
    /// [`CellGraph::nbrs_back_fixed_unchecked`]). The stride is the most neighbours a cell has,
    /// but on a polar grid that of the cells around the centre (at most 5: inward, two outward,
    /// the two along the ring), the centre, whose first ring may have up to 8 cells, being the
    /// one wide cell.
    fn build_back_fixed(&mut self) {
        let len = self.len();
        let deg = |c: u32| self.slots(c).len() as u32;
        let (stride, wide) = if self.size.grid == Grid::Polar && len > 1 {
            let rest = (1..len).map(deg).max().unwrap_or(0);
            (rest, if deg(0) > rest { 0 } else { u32::MAX })
        } else {
            (self.max_deg, u32::MAX)
        };
        // The padding's cell `len` fits beside a 3-bit slot index.
        const _: () = assert!(crate::grid::MAX_CELLS < 1 << 29);
        let mut fixed = vec![len << 3; (len * stride) as usize];
        for c in (0..len).filter(|&c| c != wide) {
            let at = (c * stride) as usize;
            let back = self.nbrs_back(c);
            fixed[at..at + back.len()].copy_from_slice(back);
        }
        (self.back_fixed, self.stride, self.wide) = (fixed, stride, wide);
    }

    /// Fill `tree_edge` and `tree_slot` (see [`CellGraph::tree_tables`]); only when every id
    /// fits 16 bits and no cell has more than 8 slots.
    fn build_tree_tables(&mut self) {
        let bits = super::measure::label_bits(self.size.grid);
        // Each cell's slots by edge id: `order[off[c] + k]` is the slot of its `k`-th edge.
        let mut order: Vec<u32> = (0..self.nbr.len() as u32).collect();
        for c in 0..self.len() {
            let r = self.off[c as usize] as usize..self.off[c as usize + 1] as usize;
            order[r].sort_unstable_by_key(|&s| self.edge[s as usize]);
        }
        // The rank of each slot's edge among its cell's edges.
        let mut rank = vec![0u8; self.nbr.len()];
        for c in 0..self.len() {
            for k in self.slots(c) {
                rank[order[k as usize] as usize] = (k - self.off[c as usize]) as u8;
            }
        }
        let mut edge = vec![0u64; self.ends.len()];
        let mut slot = vec![0u32; self.nbr.len()];
        for u in 0..self.len() {
            for s in self.slots(u) {
                let su = s as usize;
                let (v, e) = (self.nbr[su], self.edge[su]);
                // What this end adds to its cell's word: the label's bit, the edge's rank bit.
                let add = bits[(self.dir[su] & 7) as usize] as u64 | 1 << (8 + rank[su]);
                let w = &mut edge[e as usize];
                if v > u {
                    *w |= u as u64 | (v as u64) << 16 | add << 32;
                } else {
                    *w |= add << 48;
                }
                let back = self
                    .slots(v)
                    .find(|&t| self.nbr[t as usize] == u)
                    .expect("neighbours are symmetric");
                let others = 0xff & !(1u32 << rank[back as usize]);
                slot[(self.off[u as usize] + rank[su] as u32) as usize] =
                    v | others << 16 | (self.dir[su] as u32 & 7) << 24;
            }
        }
        self.tree_edge = edge;
        self.tree_slot = slot;
    }

    /// The neighbours of cell `c` with their direction labels, in slot order (before a mask).
    fn neighbours_of(&self, c: u32, counts: &[u32], out: &mut Vec<(u32, u8)>) {
        let (w, h) = (self.size.a as i64, self.size.b as i64);
        let at = |x: i64, y: i64, d: u8, out: &mut Vec<(u32, u8)>| {
            if (0..w).contains(&x) && (0..h).contains(&y) {
                out.push(((y * w + x) as u32, d));
            }
        };
        match self.size.grid {
            Grid::Square => {
                let (x, y) = ((c as i64) % w, (c as i64) / w);
                at(x + 1, y, 0, out);
                at(x, y + 1, 1, out);
                at(x - 1, y, 2, out);
                at(x, y - 1, 3, out);
            }
            Grid::Hex => {
                let (x, y) = ((c as i64) % w, (c as i64) / w);
                let s = y & 1; // odd rows: the diagonals lean right
                at(x + 1, y, 0, out);
                at(x + s, y + 1, 1, out);
                at(x + s - 1, y + 1, 2, out);
                at(x - 1, y, 3, out);
                at(x + s - 1, y - 1, 4, out);
                at(x + s, y - 1, 5, out);
            }
            Grid::Triangle => {
                let (x, y) = ((c as i64) % w, (c as i64) / w);
                let up = (x + y) % 2 == 0;
                at(x + 1, y, 0, out);
                if up {
                    at(x, y + 1, 1, out);
                }
                at(x - 1, y, 2, out);
                if !up {
                    at(x, y - 1, 3, out);
                }
            }
            Grid::Polar => {
                let r = self.ring[c as usize] as usize;
                let n = counts[r];
                let i = c - self.ring_start[r];
                let start = self.ring_start[r];
                if n >= 3 {
                    out.push((start + (i + 1) % n, 0));
                }
                if r + 1 < counts.len() {
                    let k = counts[r + 1] / n;
                    for j in 0..k {
                        out.push((self.ring_start[r + 1] + i * k + j, 1));
                    }
                }
                if n >= 3 {
                    out.push((start + (i + n - 1) % n, 2));
                }
                if r >= 1 {
                    let k = n / counts[r - 1];
                    out.push((self.ring_start[r - 1] + i / k, 3));
                }
            }
        }
    }

    fn check_connected(&self) -> Result<(), GraphError> {
        let mut seen = vec![false; self.len() as usize];
        let first = self.ids[0];
        seen[first as usize] = true;
        let mut stack = vec![first];
        while let Some(u) = stack.pop() {
            for s in self.slots(u) {
                let v = self.nbr(s);
                if !seen[v as usize] {
                    seen[v as usize] = true;
                    stack.push(v);
                }
            }
        }
        match self.ids.iter().find(|&&c| !seen[c as usize]) {
            None => Ok(()),
            Some(&c) => {
                let w = self.size.a;
                Err(GraphError::Disconnected {
                    grid: self.size.grid,
                    fx: first % w,
                    fy: first / w,
                    x: c % w,
                    y: c / w,
                })
            }
        }
    }

    /// The grid and size.
    #[inline]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The number of cell ids (holes of a mask included).
    #[inline]
    pub fn len(&self) -> u32 {
        (self.off.len() - 1) as u32
    }

    /// Never true (a graph has a cell); for clippy's `len` convention.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The number of cells (a mask's cells, or every id).
    #[inline]
    pub fn cells(&self) -> u32 {
        self.ids.len() as u32
    }

    /// The cells, increasing.
    #[inline]
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// Is `c` a cell (not a hole of a mask)?
    #[inline]
    pub fn has_cell(&self, c: u32) -> bool {
        self.present.get(c as usize).copied().unwrap_or(false)
    }

    /// The number of edges.
    #[inline]
    pub fn edges(&self) -> u32 {
        self.ends.len() as u32
    }

    /// Words of a maze on this graph: one open bit per edge ([`super::GraphMaze::words`], the
    /// maze store's records).
    #[inline]
    pub fn words_per_maze(&self) -> usize {
        (self.edges() as usize).div_ceil(64)
    }

    /// The fewest neighbours a cell has (0 only on a one-cell graph).
    #[inline]
    pub fn min_degree(&self) -> u32 {
        self.min_deg
    }

    /// The most neighbours a cell has.
    #[inline]
    pub fn max_degree(&self) -> u32 {
        self.max_deg
    }

    /// The two cells of edge `e`, smaller first.
    #[inline]
    pub fn ends(&self, e: u32) -> [u32; 2] {
        self.ends[e as usize]
    }

    /// The ends of every edge in 16 bits ([`CellGraph::all_ends`] at half the size), when
    /// every cell id fits 16 bits.
    #[inline]
    pub fn narrow_ends(&self) -> Option<&[[u16; 2]]> {
        (!self.ends16.is_empty()).then_some(&self.ends16)
    }

    /// Per cell, the neighbour and the edge of each of its slots (in slot order) in 16 bits,
    /// padded to 8 slots with neighbour [`CellGraph::len`] (no cell) and edge 0: a cell's slots
    /// in one place, without a read of the slot offsets first. `None` when a cell id or an
    /// edge id does not fit 16 bits (or the padding id would not) or a cell has more than 8
    /// neighbours.
    #[inline]
    pub fn slots16(&self) -> Option<&[[[u16; 2]; 8]]> {
        (!self.slots16.is_empty()).then_some(&self.slots16)
    }

    /// The tables of the tree measure's breadth-first search (`super::measure`), when every
    /// cell id fits 16 bits and no cell has more than 8 slots (`None` otherwise). A cell's
    /// edges are ranked by edge id (rank `k` is its `k`-th smallest edge). Per edge: its ends
    /// (smaller in bits 0..16, larger in 16..32) and what each end adds to its cell's 16-bit
    /// word (bits 32..48 for the smaller, 48..64 for the larger): the bit of the edge's
    /// direction label from that end (`label_bits`) in the low byte, the bit of the edge's
    /// rank at that end in the high byte. Per cell `c` and rank `k`, at index
    /// `slot_span(c).0 + k`: the neighbour across the edge (bits 0..16), the bits of every
    /// rank at the neighbour but the edge's (bits 16..24, a mask that keeps the neighbour's
    /// other edges) and the edge's direction label from `c` (bits 24..27).
    #[inline]
    pub fn tree_tables(&self) -> Option<(&[u64], &[u32])> {
        (self.max_deg <= 8 && self.len() <= 1 << 16)
            .then_some((&self.tree_edge[..], &self.tree_slot[..]))
    }

    /// The direction labels of edge `e`: from its smaller cell to its larger one, and back.
    #[inline(always)]
    pub fn edge_dirs(&self, e: u32) -> [u8; 2] {
        self.edge_dir[e as usize]
    }

    /// The ends of every edge, by edge id ([`CellGraph::ends`] of each, as one slice).
    #[inline]
    pub fn all_ends(&self) -> &[[u32; 2]] {
        &self.ends
    }

    /// The direction labels of every edge, by edge id ([`CellGraph::edge_dirs`] of each, as
    /// one slice).
    #[inline]
    pub fn all_edge_dirs(&self) -> &[[u8; 2]] {
        &self.edge_dir
    }

    /// The slots of cell `c`.
    #[inline(always)]
    pub fn slots(&self, c: u32) -> std::ops::Range<u32> {
        self.off[c as usize]..self.off[c as usize + 1]
    }

    /// The first slot of cell `c` and its number of slots, without a bounds check (for the
    /// walks' inner loops).
    ///
    /// # Safety
    ///
    /// `c < self.len()`.
    #[inline(always)]
    pub unsafe fn slot_span_unchecked(&self, c: u32) -> (u32, u32) {
        debug_assert!(c < self.len());
        // SAFETY: `off` has `len() + 1` entries and the caller promises `c < len()`.
        let (a, b) = unsafe {
            (
                *self.off.get_unchecked(c as usize),
                *self.off.get_unchecked(c as usize + 1),
            )
        };
        (a, b - a)
    }

    /// The neighbour at slot `s`, without a bounds check (for the walks' inner loops). It is a
    /// cell id below [`CellGraph::len`].
    ///
    /// # Safety
    ///
    /// `s` is a slot of a cell (below `off[len()]`).
    #[inline(always)]
    pub unsafe fn nbr_unchecked(&self, s: u32) -> u32 {
        debug_assert!((s as usize) < self.nbr.len());
        // SAFETY: the caller promises `s` is a slot.
        unsafe { *self.nbr.get_unchecked(s as usize) }
    }

    /// The neighbour at slot `s`.
    #[inline(always)]
    pub fn nbr(&self, s: u32) -> u32 {
        self.nbr[s as usize]
    }

    /// The edge at slot `s`.
    #[inline(always)]
    pub fn edge(&self, s: u32) -> u32 {
        self.edge[s as usize]
    }

    /// The edge at slot `s`, without a bounds check (for Prim's push). It is an edge id below
    /// [`CellGraph::edges`].
    ///
    /// # Safety
    ///
    /// `s` is a slot of a cell (below `off[len()]`).
    #[inline(always)]
    pub unsafe fn edge_unchecked(&self, s: u32) -> u32 {
        debug_assert!((s as usize) < self.edge.len());
        // SAFETY: the caller promises `s` is a slot.
        unsafe { *self.edge.get_unchecked(s as usize) }
    }

    /// Each cell's neighbour mask (bit `i` set for its `i`-th slot; 0 for a hole), when no
    /// cell has more than 8 neighbours; `None` otherwise (a polar grid whose first ring has
    /// more than 8 cells).
    #[inline]
    pub fn full_masks(&self) -> Option<&[u8]> {
        (self.max_deg <= 8).then_some(&self.full[..])
    }

    /// The neighbours of cell `c` in slot order, each with the index of the slot back to `c`
    /// among the neighbour's slots, as `neighbour << 3 | index` (empty when
    /// [`CellGraph::full_masks`] is `None`).
    #[inline(always)]
    pub fn nbrs_back(&self, c: u32) -> &[u32] {
        let r = self.off[c as usize] as usize..self.off[c as usize + 1] as usize;
        self.back.get(r).unwrap_or(&[])
    }

    /// The neighbour at slot `s` read from the packed table of [`CellGraph::nbrs_back`] (where
    /// [`CellGraph::full_masks`] is `Some`): the same as [`CellGraph::nbr`], from the table a
    /// visit reads anyway.
    #[inline(always)]
    pub fn nbr_packed(&self, s: u32) -> u32 {
        self.back[s as usize] >> 3
    }

    /// [`CellGraph::nbrs_back`] without bounds checks (for the generators' inner loops).
    ///
    /// # Safety
    ///
    /// `c < self.len()` and [`CellGraph::full_masks`] is `Some` (the packed table then has an
    /// entry for every slot).
    #[inline(always)]
    pub unsafe fn nbrs_back_unchecked(&self, c: u32) -> &[u32] {
        debug_assert!(c < self.len() && self.full_masks().is_some());
        // SAFETY: the caller promises `c < len()`, and `off` has `len() + 1` entries, each at
        // most the slot count, which is the packed table's length when the masks exist.
        unsafe {
            let (a, b) = (
                *self.off.get_unchecked(c as usize),
                *self.off.get_unchecked(c as usize + 1),
            );
            self.back.get_unchecked(a as usize..b as usize)
        }
    }

    /// The entries per cell that [`CellGraph::nbrs_back_fixed_unchecked`] reads, and the one
    /// cell with more neighbours than that (whose visit reads [`CellGraph::nbrs_back`]), or
    /// `u32::MAX`; `(0, u32::MAX)` when [`CellGraph::full_masks`] is `None` or the graph has
    /// more than 2^16 cells (no padded table).
    #[inline]
    pub(crate) fn back_stride(&self) -> (u32, u32) {
        (self.stride, self.wide)
    }

    /// [`CellGraph::nbrs_back`] of `c` padded to `K` entries (the stride of
    /// [`CellGraph::back_stride`]) with `len() << 3`: neighbour `len()`, past every cell, so a
    /// mask buffer with one byte more than the cells takes the padding's writes. A fixed count
    /// lets a visit run without a loop (a loop over 4 or 5 entries spent more instructions on
    /// its control than on the entries).
    ///
    /// # Safety
    ///
    /// `c < self.len()`, `c` is not the wide cell of [`CellGraph::back_stride`], and `K` is
    /// its stride, not 0.
    #[inline(always)]
    pub(crate) unsafe fn nbrs_back_fixed_unchecked<const K: usize>(&self, c: u32) -> &[u32; K] {
        debug_assert!(c < self.len() && c != self.wide && K == self.stride as usize && K > 0);
        // SAFETY: the table has `stride` entries for each of the `len()` cells, and the caller
        // promises `c < len()` and `K == stride`.
        unsafe { &*(self.back_fixed.as_ptr().add(c as usize * K) as *const [u32; K]) }
    }

    /// [`CellGraph::nbr_packed`] without a bounds check (for the generators' inner loops).
    ///
    /// # Safety
    ///
    /// `s` is a slot of a cell (below `off[len()]`) and [`CellGraph::full_masks`] is `Some`.
    #[inline(always)]
    pub unsafe fn nbr_packed_unchecked(&self, s: u32) -> u32 {
        debug_assert!((s as usize) < self.back.len());
        // SAFETY: the caller promises `s` is a slot, and the packed table has one entry per
        // slot when the masks exist.
        unsafe { *self.back.get_unchecked(s as usize) >> 3 }
    }

    /// The direction label of slot `s` (see the module docs).
    #[inline(always)]
    pub fn dir(&self, s: u32) -> u8 {
        self.dir[s as usize]
    }

    /// The number of direction labels: 6 on a hex grid, 4 on the others.
    pub fn dirs(&self) -> u8 {
        if self.size.grid == Grid::Hex {
            6
        } else {
            4
        }
    }

    /// The label opposite `d`: the direction a step keeps when it goes straight on.
    #[inline]
    pub fn opposite(&self, d: u8) -> u8 {
        (d + self.dirs() / 2) % self.dirs()
    }

    /// Polar: the ring of cell `c` and its index in the ring. Other grids: `(y, x)`.
    pub fn ring_of(&self, c: u32) -> (u32, u32) {
        if self.size.grid == Grid::Polar {
            let r = self.ring[c as usize];
            (r, c - self.ring_start[r as usize])
        } else {
            (c / self.size.a, c % self.size.a)
        }
    }

    /// Cell `c` as `--entrance` and `--exit` name it: `(x, y)` on hex and triangle grids,
    /// `(ring, i)` on polar ones (`src/topo/README.md`).
    pub fn place(&self, c: u32) -> (u32, u32) {
        let (r, i) = self.ring_of(c);
        if self.size.grid == Grid::Polar {
            (r, i)
        } else {
            (i, r)
        }
    }

    /// Polar: the cells of ring `r`. Other grids: the cells of row `r`.
    pub fn ring_len(&self, r: u32) -> u32 {
        if self.size.grid == Grid::Polar {
            self.ring_start[r as usize + 1] - self.ring_start[r as usize]
        } else {
            self.size.a
        }
    }

    /// Polar: the number of rings. Other grids: rows.
    pub fn rings(&self) -> u32 {
        if self.size.grid == Grid::Polar {
            self.size.a
        } else {
            self.size.b
        }
    }

    /// The default entrance and exit: the first and the last cell (for polar, the centre and
    /// the last cell of the outer ring).
    pub fn corners(&self) -> (u32, u32) {
        (self.ids[0], *self.ids.last().expect("a graph has a cell"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Dir, Size};

    #[test]
    fn square_graph_is_the_grid() {
        let size = Size::planar(5, 3);
        let g = CellGraph::new(GridSize::new(Grid::Square, 5, 3));
        assert_eq!(g.edges() as u64, size.interior_wall_count());
        for c in 0..15 {
            let got: Vec<(u32, u8)> = g.slots(c).map(|s| (g.nbr(s), g.dir(s))).collect();
            let want: Vec<(u32, u8)> = Dir::ALL
                .iter()
                .take(4)
                .enumerate()
                .filter(|&(_, &d)| size.has_neighbour(c, d))
                .map(|(i, &d)| (size.neighbour(c, d), i as u8))
                .collect();
            assert_eq!(got, want, "cell {c}");
        }
    }

    /// The neighbour rules, spelled out cell by cell on a 3x3 hex grid.
    #[test]
    fn hex_layout() {
        let g = CellGraph::new(GridSize::new(Grid::Hex, 3, 3));
        let nb = |c: u32| -> Vec<(u32, u8)> { g.slots(c).map(|s| (g.nbr(s), g.dir(s))).collect() };
        // (1,1), odd row: E (2,1) SE (2,2) SW (1,2) W (0,1) NW (1,0) NE (2,0).
        assert_eq!(nb(4), [(5, 0), (8, 1), (7, 2), (3, 3), (1, 4), (2, 5)]);
        // (1,0), even row: E (2,0) SE (1,1) SW (0,1) W (0,0).
        assert_eq!(nb(1), [(2, 0), (4, 1), (3, 2), (0, 3)]);
        // (1,2), even row: E, W, NW (0,1), NE (1,1).
        assert_eq!(nb(7), [(8, 0), (6, 3), (3, 4), (4, 5)]);
        let two = CellGraph::new(GridSize::new(Grid::Hex, 2, 2));
        assert_eq!(two.edges(), 5);
    }

    /// The 16-bit ends are the ends, on every grid whose cell ids fit 16 bits (with and
    /// without a mask), and are absent beyond.
    #[test]
    fn narrow_ends_are_the_ends() {
        let mask = [true, false, true, true, true, true, false, true, true];
        for g in [
            CellGraph::new(GridSize::new(Grid::Hex, 64, 64)),
            CellGraph::new(GridSize::new(Grid::Triangle, 9, 5)),
            CellGraph::new(GridSize::new(Grid::Polar, 7, 7)),
            CellGraph::new(GridSize::new(Grid::Hex, 256, 256)),
            CellGraph::masked(GridSize::new(Grid::Hex, 3, 3), 3, 3, &mask).unwrap(),
        ] {
            let narrow = g.narrow_ends().expect("ids fit 16 bits");
            assert_eq!(narrow.len(), g.edges() as usize);
            for (e, &[a, b]) in narrow.iter().enumerate() {
                assert_eq!([a as u32, b as u32], g.ends(e as u32), "edge {e}");
            }
        }
        let big = CellGraph::new(GridSize::new(Grid::Hex, 257, 256));
        assert!(big.len() > 1 << 16 && big.narrow_ends().is_none());
    }

    /// Small graphs of every non-square grid: polar, triangle, hex, and a masked hex grid.
    fn small_graphs() -> [CellGraph; 4] {
        let mask = [true, false, true, true, true, true, false, true, true];
        [
            CellGraph::new(GridSize::new(Grid::Polar, 5, 3)),
            CellGraph::new(GridSize::new(Grid::Triangle, 9, 5)),
            CellGraph::new(GridSize::new(Grid::Hex, 7, 6)),
            CellGraph::masked(GridSize::new(Grid::Hex, 3, 3), 3, 3, &mask).unwrap(),
        ]
    }

    /// The 16-bit slot records hold each cell's slots in order, then the padding (neighbour
    /// `len()`, edge 0); absent where an id or the padding does not fit 16 bits.
    #[test]
    fn slot_records_are_the_slots() {
        let polar = GridSize::new(Grid::Polar, 36, crate::topo::polar::FIRST_RING);
        for g in std::iter::once(CellGraph::new(polar)).chain(small_graphs()) {
            let records = g.slots16().expect("ids fit 16 bits");
            assert_eq!(records.len(), g.len() as usize);
            for (c, r) in records.iter().enumerate() {
                let want: Vec<[u16; 2]> = g
                    .slots(c as u32)
                    .map(|t| [g.nbr(t) as u16, g.edge(t) as u16])
                    .chain(std::iter::repeat([g.len() as u16, 0]))
                    .take(8)
                    .collect();
                assert_eq!(r[..], want[..], "{} cell {c}", g.size());
            }
        }
        let wide = CellGraph::new(GridSize::new(Grid::Hex, 256, 255));
        assert!(wide.len() < 1 << 16 && wide.edges() > 1 << 16 && wide.slots16().is_none());
    }

    /// The fixed-count visits' table is `nbrs_back` padded with `len() << 3` to the stride: the
    /// most neighbours of a cell, but around the centre of a polar grid whose centre has more
    /// (that one cell is the wide one and is visited through `nbrs_back`).
    #[test]
    fn fixed_back_is_back_padded() {
        let polar = |r, c| CellGraph::new(GridSize::new(Grid::Polar, r, c));
        let graphs = [
            polar(36, crate::topo::polar::FIRST_RING),
            polar(4, 8),
            polar(3, 3),
        ];
        for g in graphs.into_iter().chain(small_graphs()) {
            let (stride, wide) = g.back_stride();
            let degree = |c: u32| g.slots(c).len() as u32;
            let most = (0..g.len())
                .filter(|&c| c != wide)
                .map(degree)
                .max()
                .unwrap();
            assert_eq!(stride, most, "{}", g.size());
            if wide != u32::MAX {
                assert_eq!((g.size().grid, wide), (Grid::Polar, 0), "{}", g.size());
                assert!(degree(0) > stride, "{}", g.size());
            }
            for c in (0..g.len()).filter(|&c| c != wide) {
                let want: Vec<u32> = g
                    .nbrs_back(c)
                    .iter()
                    .copied()
                    .chain(std::iter::repeat(g.len() << 3))
                    .take(stride as usize)
                    .collect();
                macro_rules! fixed {
                    ($($k:literal)*) => {
                        match stride {
                            // SAFETY: `c` is a cell id other than the wide one, at the graph's
                            // stride.
                            $($k => unsafe { g.nbrs_back_fixed_unchecked::<$k>(c) }.to_vec(),)*
                            k => panic!("{}: stride {k}", g.size()),
                        }
                    };
                }
                let got = fixed!(1 2 3 4 5 6 7 8);
                assert_eq!(got, want, "{} cell {c}", g.size());
            }
        }
        assert_eq!(polar(4, 8).back_stride(), (5, 0));
        assert_eq!(polar(3, 3).back_stride(), (7, u32::MAX));
        let crowded = polar(3, 9);
        assert!(crowded.full_masks().is_none() && crowded.back_stride() == (0, u32::MAX));
        let big = CellGraph::new(GridSize::new(Grid::Triangle, 257, 256));
        assert!(big.full_masks().is_some() && big.back_stride() == (0, u32::MAX));
    }

    /// Each packed slot of `nbrs_back` is the slot's neighbour and the slot of that neighbour
    /// that leads back; empty where a cell has more than 8 neighbours.
    #[test]
    fn nbrs_back_lead_back() {
        // A centre of 8 neighbours: the most a mask holds.
        let eight = CellGraph::new(GridSize::new(Grid::Polar, 2, 8));
        for g in std::iter::once(eight).chain(small_graphs()) {
            assert!(g.full_masks().is_some());
            for c in g.ids().iter().copied() {
                let packed = g.nbrs_back(c);
                assert_eq!(packed.len(), g.slots(c).len(), "{} cell {c}", g.size());
                for (t, &x) in g.slots(c).zip(packed) {
                    let v = x >> 3;
                    assert_eq!(v, g.nbr(t), "{} cell {c}", g.size());
                    assert_eq!(g.nbr_packed(t), v, "{} cell {c}", g.size());
                    let back = g.slots(v).nth((x & 7) as usize).unwrap();
                    assert_eq!(g.nbr(back), c, "{} cell {c}", g.size());
                    assert_eq!(g.edge(back), g.edge(t), "{} cell {c}", g.size());
                }
            }
        }
        let crowded = CellGraph::new(GridSize::new(Grid::Polar, 2, 9));
        assert!(crowded.full_masks().is_none() && crowded.nbrs_back(0).is_empty());
    }

    #[test]
    fn triangle_layout() {
        let g = CellGraph::new(GridSize::new(Grid::Triangle, 3, 2));
        let nb = |c: u32| -> Vec<(u32, u8)> { g.slots(c).map(|s| (g.nbr(s), g.dir(s))).collect() };
        // (0,0) up: E (1,0), S (0,1). (1,0) down: E, W, no N. (1,1) up: E, W, S none.
        assert_eq!(nb(0), [(1, 0), (3, 1)]);
        assert_eq!(nb(1), [(2, 0), (0, 2)]);
        assert_eq!(nb(3), [(4, 0), (0, 3)]);
        assert_eq!(nb(4), [(5, 0), (3, 2)]);
        // Rows: 0-1, 1-2, 3-4, 4-5; verticals from the up cells (0,0) and (2,0).
        assert_eq!(g.edges(), 4 + 2);
    }

    #[test]
    fn polar_layout() {
        let g = CellGraph::new(GridSize::new(Grid::Polar, 3, 6));
        assert_eq!(g.len(), 1 + 6 + 12);
        // The centre: six outward neighbours.
        let nb = |c: u32| -> Vec<(u32, u8)> { g.slots(c).map(|s| (g.nbr(s), g.dir(s))).collect() };
        assert_eq!(nb(0), (1..7).map(|c| (c, 1)).collect::<Vec<_>>());
        // Ring 1 cell 0 (id 1): cw 2, out 7 and 8, ccw 6, in 0.
        assert_eq!(nb(1), [(2, 0), (7, 1), (8, 1), (6, 2), (0, 3)]);
        // Ring 2 cell 11 (id 18): cw 7, ccw 17, in ring 1 cell 5 (id 6).
        assert_eq!(nb(18), [(7, 0), (17, 2), (6, 3)]);
        assert_eq!(g.edges(), 6 + 6 + 12 + 12);
        assert_eq!(CellGraph::new(GridSize::new(Grid::Polar, 1, 6)).edges(), 0);
    }

    /// The tree tables, read back against the slots: each cell's edges by rank in edge-id
    /// order, the neighbour, the ranks kept at the neighbour, the label, and each edge's ends
    /// and adds.
    #[test]
    fn tree_tables_are_the_slots_by_edge_id() {
        let mask = [true, false, true, true, true, true, false, true, true];
        for g in [
            CellGraph::new(GridSize::new(Grid::Hex, 7, 6)),
            CellGraph::new(GridSize::new(Grid::Triangle, 9, 5)),
            CellGraph::new(GridSize::new(Grid::Polar, 7, 7)),
            CellGraph::new(GridSize::new(Grid::Polar, 5, 3)),
            CellGraph::masked(GridSize::new(Grid::Hex, 3, 3), 3, 3, &mask).unwrap(),
        ] {
            let (edge, slot) = g.tree_tables().expect("small graph");
            let bits = crate::topo::measure::label_bits(g.size().grid);
            let sorted = |c: u32| {
                let mut e: Vec<u32> = g.slots(c).map(|s| g.edge(s)).collect();
                e.sort_unstable();
                e
            };
            for c in 0..g.len() {
                let mine = sorted(c);
                for (k, &e) in mine.iter().enumerate() {
                    let s = g.slots(c).find(|&s| g.edge(s) == e).unwrap();
                    let v = g.nbr(s);
                    let t = slot[(g.slots(c).start + k as u32) as usize];
                    let back = sorted(v).iter().position(|&f| f == e).unwrap();
                    assert_eq!(t & 0xffff, v, "cell {c} rank {k}");
                    assert_eq!(t >> 16 & 0xff, 0xff & !(1 << back), "cell {c} rank {k}");
                    assert_eq!(t >> 24, g.dir(s) as u32, "cell {c} rank {k}");
                    let w = edge[e as usize];
                    let add = (bits[g.dir(s) as usize] as u64 | 1 << (8 + k)) as u16;
                    let [lo, hi] = g.ends(e);
                    assert_eq!(w & 0xffff_ffff, (lo | hi << 16) as u64, "edge {e}");
                    let at = if c == lo { w >> 32 } else { w >> 48 };
                    assert_eq!(at as u16, add, "edge {e} at cell {c}");
                }
            }
        }
        let wide = CellGraph::new(GridSize::new(Grid::Hex, 257, 256));
        assert!(wide.tree_tables().is_none());
    }

    #[test]
    fn masks_connect_through_the_grid() {
        // Two cells touching only diagonally in square terms: hex neighbours on an odd row.
        let cells = [true, false, false, false, true, false];
        // 3x2 hex: (0,0) and (1,1): odd row (1,1) NW is (1,0), not (0,0): disconnected.
        let size = GridSize::new(Grid::Hex, 3, 2);
        assert!(matches!(
            CellGraph::masked(size, 3, 2, &cells),
            Err(GraphError::Disconnected { .. })
        ));
        // (0,1) and (1,0) on hex: (0,1) odd row NE = (1,0): connected.
        let cells = [false, true, false, true, false, false];
        let g = CellGraph::masked(size, 3, 2, &cells).unwrap();
        assert_eq!((g.cells(), g.edges()), (2, 1));
        // The same cells on the triangle grid are not neighbours.
        let t = GridSize::new(Grid::Triangle, 3, 2);
        assert!(CellGraph::masked(t, 3, 2, &cells).is_err());
    }
}
