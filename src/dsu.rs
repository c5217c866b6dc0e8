//! Index-based union-find over `u32` cell ids, reset and reused across mazes.
//!
//! Union by size; `find` links the queried element and its parent straight to the root (two
//! levels of compression per find: with the element alone, Kruskal's generation took 1.15×
//! longer, since later finds walked deeper chains). `reset` keeps the allocations, so a worker
//! that makes a million mazes allocates its union-find once.

/// Disjoint-set forest over `0..n`.
#[derive(Clone, Debug, Default)]
pub struct Dsu {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Dsu {
    /// A forest of `n` singletons.
    pub fn new(n: u32) -> Dsu {
        let mut d = Dsu::default();
        d.reset(n);
        d
    }

    /// Make every element a singleton again, over `0..n`, reusing the buffers.
    pub fn reset(&mut self, n: u32) {
        self.parent.clear();
        self.parent.extend(0..n);
        self.size.clear();
        self.size.resize(n as usize, 1);
    }

    /// Number of elements.
    pub fn len(&self) -> u32 {
        self.parent.len() as u32
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The two arrays as a [`Forest`]: a loop that runs many finds and unions works on the
    /// borrowed slices, which the compiler knows alias nothing else the loop writes (through
    /// `&mut self` it reloads the vectors' pointers and lengths after every store).
    #[inline(always)]
    pub fn forest(&mut self) -> Forest<'_> {
        Forest {
            parent: &mut self.parent,
            size: &mut self.size,
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

/// A [`Dsu`]'s arrays, borrowed for a loop of finds and unions ([`Dsu::forest`]).
///
/// Invariant (set by [`Dsu::reset`], kept by [`Forest::union`]): both arrays have the same
/// length and every parent is an index below it. So after one check of the queried elements,
/// every link followed is in bounds, and the loads and stores along the chains go unchecked
/// (the checks were a third of the union loop's instructions).
#[derive(Debug)]
pub struct Forest<'a> {
    parent: &'a mut [u32],
    size: &'a mut [u32],
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
        // SAFETY: as in `up`: `x` is a checked element or a root reached by links.
        unsafe { *self.parent.get_unchecked_mut(x as usize) = to };
    }

    /// The set size stored at root `r` (in bounds as for [`Forest::up`]).
    #[inline(always)]
    fn size_at(&mut self, r: u32) -> &mut u32 {
        debug_assert!((r as usize) < self.size.len());
        // SAFETY: `r` is a root reached by links (below the parent length, which equals the
        // size length by the invariant).
        unsafe { self.size.get_unchecked_mut(r as usize) }
    }

    /// `find` for an element already checked to be in bounds.
    #[inline(always)]
    fn root(&mut self, x: u32) -> u32 {
        let p1 = self.up(x);
        let mut r = self.up(p1);
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
    /// link a fixed number of times never overshoots: the first hops are taken without a
    /// test (a short chain of dependent loads instead of a mispredicted loop exit per find),
    /// and a loop finishes the rare deeper paths. `x` and its parent are then linked straight
    /// to the root.
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

    /// Merge the sets of `a` and `b` (the smaller under the larger, ties under `a`'s root);
    /// returns false if they were already one set. Written with selects, not branches:
    /// whether two random elements are already joined is a coin flip for a branch predictor.
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
        let (ra, rb) = (self.root(a), self.root(b));
        let joined = ra != rb;
        let (big, small) = if *self.size_at(ra) < *self.size_at(rb) {
            (rb, ra)
        } else {
            (ra, rb)
        };
        // When `ra == rb` both writes leave the root as it was: the size gains 0 (a mask,
        // not a select the compiler would turn back into a branch) and `small` is a root,
        // which points to itself.
        let add = *self.size_at(small) & (joined as u32).wrapping_neg();
        *self.size_at(big) += add;
        self.link(small, big);
        joined
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

    /// Random unions against a plain relabelling, sizes included: the unchecked links must
    /// agree with the definition on every answer, through deep chains and resets.
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
                let members = label.iter().filter(|&&l| l == to).count() as u32;
                let root = d.find(a);
                assert_eq!(d.size[root as usize], members);
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
