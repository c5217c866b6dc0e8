//! Index-based union-find over `u32` cell ids, reset and reused across mazes.
//!
//! Union by size, path halving in `find`. `reset` keeps the allocations, so a worker that makes
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

    /// The representative of `x`'s set (path halving).
    #[inline]
    pub fn find(&mut self, mut x: u32) -> u32 {
        loop {
            let p = self.parent[x as usize];
            if p == x {
                return x;
            }
            let gp = self.parent[p as usize];
            self.parent[x as usize] = gp;
            x = gp;
        }
    }

    /// Merge the sets of `a` and `b`; returns false if they were already one set.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        if self.size[ra as usize] < self.size[rb as usize] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb as usize] = ra;
        self.size[ra as usize] += self.size[rb as usize];
        true
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
