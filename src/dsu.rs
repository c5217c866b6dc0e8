//! Index-based union-find over `u32` cell ids, reset and reused across mazes.
//!
//! Union by size; `find` links the queried element straight to its root. `reset` keeps the allocations, so a worker that makes
//! a million mazes allocates its union-find once.

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

    /// The representative of `x`'s set. Roots point to themselves, so following the parent
    /// link a fixed number of times never overshoots: the first hops are taken without a
    /// test (a short chain of dependent loads instead of a mispredicted loop exit per find),
    /// and a loop finishes the rare deeper paths. `x` is then linked straight to its root.
    #[inline]
    pub fn find(&mut self, x: u32) -> u32 {
        let p = &mut self.parent;
        let mut r = p[x as usize];
        r = p[r as usize];
        loop {
            let up = p[r as usize];
            if up == r {
                break;
            }
            r = p[up as usize];
        }
        p[x as usize] = r;
        r
    }

    /// Merge the sets of `a` and `b` (the smaller under the larger, ties under `a`'s root);
    /// returns false if they were already one set. Written with selects, not branches:
    /// whether two random elements are already joined is a coin flip for a branch predictor.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (ra, rb) = (self.find(a) as usize, self.find(b) as usize);
        let joined = ra != rb;
        let (big, small) = if self.size[ra] < self.size[rb] {
            (rb, ra)
        } else {
            (ra, rb)
        };
        // When `ra == rb` both writes leave the root as it was.
        self.size[big] += if joined { self.size[small] } else { 0 };
        self.parent[small] = if joined {
            big as u32
        } else {
            self.parent[small]
        };
        joined
    }

    /// Are `a` and `b` in the same set?
    #[inline]
    pub fn same(&mut self, a: u32, b: u32) -> bool {
        self.find(a) == self.find(b)
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
}
