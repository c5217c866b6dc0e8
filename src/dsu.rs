//! Index-based union-find over `u32` cell ids, reset and reused across mazes.
//!
//! Linking is randomised by a fixed priority: of two roots, the one with the larger
//! `priority` (a bijective multiplicative hash of its index) becomes the parent. Random
//! priorities give the expected logarithmic depth of union by size without a size array to
//! load and update (randomised linking, Goel, Khanna, Larkin and Tarjan, "Disjoint set union
//! with randomized linking", SODA 2014); the hash breaks up the spatial order of cell ids,
//! which linking by plain index follows. `find` links the queried element and its parent
//! straight to the root (two levels of compression per find).
//!
//! Measured on Kruskal's generation (`cargo bench --bench generate`, 64×64): union by size with
//! one level of compression 61.4 µs, with two levels 54.9 µs, linking by plain index 49.4 µs,
//! by hashed priority 44.3 µs. Which walls get opened does not depend on any of this (only on
//! whether two cells are already joined), so the mazes are the same.
//!
//! A find follows four links before its first test: with three, about one find in fifteen went
//! on into the loop, whose exit the branch predictor then missed. The fourth link took whole
//! `batchgen --algo kruskal --size 64x64 --threads 1` runs from 0.412 to 0.178 mispredicted
//! branches per cell (`benches/counts.sh` on the release binaries, 200 mazes).
//!
//! `reset` keeps the allocation, so a worker that makes a million mazes allocates its
//! union-find once.

/// Disjoint-set forest over `0..n`.
#[derive(Clone, Debug, Default)]
pub struct Dsu {
    parent: Vec<u32>,
}

/// The linking priority of root `r`: multiplication by an odd constant is a bijection of `u32`,
/// so two different roots never tie, and it scatters neighbouring ids.
#[inline(always)]
fn priority(r: u32) -> u32 {
    r.wrapping_mul(0x9E37_79B1)
}

impl Dsu {
    /// A forest of `n` singletons.
    pub fn new(n: u32) -> Dsu {
        let mut d = Dsu::default();
        d.reset(n);
        d
    }

    /// Make every element a singleton again, over `0..n`, reusing the buffer.
    pub fn reset(&mut self, n: u32) {
        self.parent.clear();
        self.parent.extend(0..n);
    }

    /// Number of elements.
    pub fn len(&self) -> u32 {
        self.parent.len() as u32
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The parent array as a [`Forest`]: a loop that runs many finds and unions works on the
    /// borrowed slice, which the compiler knows aliases nothing else the loop writes (through
    /// `&mut self` it reloads the vector's pointer and length after every store).
    #[inline(always)]
    pub fn forest(&mut self) -> Forest<'_> {
        Forest {
            parent: &mut self.parent,
        }
    }

    /// The representative of `x`'s set (see [`Forest::find`]).
    #[inline]
    pub fn find(&mut self, x: u32) -> u32 {
        self.forest().find(x)
    }

    /// Merge the sets of `a` and `b` (see [`Forest::union`]); returns false if they were
    /// already one set.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        self.forest().union(a, b)
    }

    /// Are `a` and `b` in the same set?
    #[inline]
    pub fn same(&mut self, a: u32, b: u32) -> bool {
        self.find(a) == self.find(b)
    }
}

/// A [`Dsu`]'s parent array, borrowed for a loop of finds and unions ([`Dsu::forest`]).
///
/// Invariant (set by [`Dsu::reset`], kept by [`Forest::union`] and the finds): every parent
/// is an index below the length. So after one check of the queried elements, every link
/// followed is in bounds, and the loads and stores along the chains go unchecked (the checks
/// were a third of the union loop's instructions).
#[derive(Debug)]
pub struct Forest<'a> {
    parent: &'a mut [u32],
}

impl Forest<'_> {
    /// The parent link of `x`.
    #[inline(always)]
    fn up(&self, x: u32) -> u32 {
        debug_assert!((x as usize) < self.parent.len());
        // SAFETY: `x` was checked against the length by the caller of `find`/`union`, or is
        // a parent link, which the invariant keeps below the length.
        unsafe { *self.parent.get_unchecked(x as usize) }
    }

    /// Set the parent link of `x` (`x` in bounds as for [`Forest::up`]) to `to`, an index in
    /// bounds.
    #[inline(always)]
    fn link(&mut self, x: u32, to: u32) {
        debug_assert!((x as usize) < self.parent.len() && (to as usize) < self.parent.len());
        // SAFETY: as in `up`: `x` is a checked element or a node reached by links.
        unsafe { *self.parent.get_unchecked_mut(x as usize) = to };
    }

    /// `find` for an element already checked to be in bounds.
    #[inline(always)]
    fn root(&mut self, x: u32) -> u32 {
        self.root_after::<4>(x)
    }

    /// [`Forest::root`] following `LINKS` links (at least 2) before its first test.
    #[inline(always)]
    fn root_after<const LINKS: u32>(&mut self, x: u32) -> u32 {
        const { assert!(LINKS >= 2) };
        let p1 = self.up(x);
        let mut r = p1;
        for _ in 2..LINKS {
            r = self.up(r);
        }
        loop {
            let up = self.up(r);
            if up == r {
                break;
            }
            r = self.up(up);
        }
        self.link(x, r);
        self.link(p1, r);
        r
    }

    /// The representative of `x`'s set. Roots point to themselves, so following the parent
    /// link a fixed number of times never overshoots: the first four links are followed
    /// without a test (a short chain of dependent loads instead of a mispredicted loop exit
    /// per find), and a loop finishes the rare deeper paths. `x` and its parent are then
    /// linked straight to the root.
    ///
    /// # Panics
    /// If `x` is not an element.
    #[inline(always)]
    pub fn find(&mut self, x: u32) -> u32 {
        assert!(
            (x as usize) < self.parent.len(),
            "dsu: element {x} out of range"
        );
        self.root(x)
    }

    /// Merge the sets of `a` and `b` (the root of lower [`priority`] under the other);
    /// returns false if they were already one set. Without a branch on the outcome: whether
    /// two random elements are already joined is a coin flip for a branch predictor.
    ///
    /// # Panics
    /// If `a` or `b` is not an element.
    #[inline(always)]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let n = self.parent.len();
        assert!(
            (a as usize) < n && (b as usize) < n,
            "dsu: element {a} or {b} out of range"
        );
        // SAFETY: both were checked just above.
        unsafe { self.union_unchecked(a, b) }
    }

    /// [`Forest::union`] without its check of `a` and `b` (whose panic message keeps both in
    /// memory through a hot loop).
    ///
    /// # Safety
    /// `a` and `b` must be elements (below the length of the forest's [`Dsu`]).
    #[inline(always)]
    pub unsafe fn union_unchecked(&mut self, a: u32, b: u32) -> bool {
        // SAFETY: the caller's promise.
        unsafe { self.union_unchecked_links::<4>(a, b) }
    }

    /// [`Forest::union_unchecked`] whose finds follow `LINKS` links (at least 2) before their
    /// first test, where [`Forest::find`] follows four. Fewer links end a find sooner when its
    /// path is short and miss the loop's exit more often when it is long; which is faster
    /// depends on the graph: Kruskal on a 64x64 hex grid took 0.91× the time per cell with
    /// three links, on a 64x64 square or triangle grid 1.04× and 1.13×
    /// (`benches/generators.sh OLD NEW 5 -- --algo kruskal --grid G --size 64x64 --count
    /// 3000`). The sets are the same whatever the count.
    ///
    /// # Safety
    /// As [`Forest::union_unchecked`].
    #[inline(always)]
    pub unsafe fn union_unchecked_links<const LINKS: u32>(&mut self, a: u32, b: u32) -> bool {
        debug_assert!((a as usize) < self.parent.len() && (b as usize) < self.parent.len());
        let (ra, rb) = (self.root_after::<LINKS>(a), self.root_after::<LINKS>(b));
        let (top, under) = if priority(ra) < priority(rb) {
            (rb, ra)
        } else {
            (ra, rb)
        };
        // When `ra == rb` this links the root to itself, which it already is.
        self.link(under, top);
        ra != rb
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_and_reset() {
        let mut d = Dsu::new(6);
        assert!(d.union(0, 1));
        assert!(d.union(2, 3));
        assert!(!d.union(1, 0));
        assert!(d.union(1, 3));
        assert!(d.same(0, 2));
        assert!(!d.same(0, 4));
        let cap = d.parent.capacity();
        d.reset(6);
        assert!(!d.same(0, 1));
        assert_eq!(d.parent.capacity(), cap);
    }

    /// Random unions against a plain relabelling: the unchecked links must agree with the
    /// definition on every answer, through deep chains and resets.
    #[test]
    fn forest_agrees_with_relabelling() {
        let mut rng = crate::rng::Rng::from_maze_seed(7);
        let mut d = Dsu::default();
        for n in [1u32, 2, 17, 300] {
            d.reset(n);
            let mut label: Vec<u32> = (0..n).collect();
            for _ in 0..4 * n {
                let (a, b) = (rng.below(n), rng.below(n));
                let joined = d.forest().union(a, b);
                assert_eq!(joined, label[a as usize] != label[b as usize]);
                let (from, to) = (label[b as usize], label[a as usize]);
                label
                    .iter_mut()
                    .filter(|l| **l == from)
                    .for_each(|l| *l = to);
                let root = d.find(a);
                assert_eq!(d.find(b), root);
            }
            for x in 0..n {
                for y in 0..n.min(20) {
                    assert_eq!(d.same(x, y), label[x as usize] == label[y as usize]);
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn union_checks_its_elements() {
        Dsu::new(4).union(1, 4);
    }
}
