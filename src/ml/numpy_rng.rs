//! NumPy's legacy global random stream (`np.random.seed(s)`, then `np.random.rand`,
//! `np.random.shuffle`): MT19937 seeded by `init_genrand`, doubles from two 32-bit draws, and
//! the bounded draws of the legacy shuffle. maze-dataset's default tokenizer orders its
//! adjacency list with exactly these calls, so reproducing them is what makes a token column
//! equal to maze-dataset's output token for token (see [`crate::ml::tokens`]).
//!
//! The constants and the order of draws are NumPy's (`numpy/random/src/mt19937`,
//! `legacy_double`, `random_interval`); they are checked against NumPy itself by the Python
//! test suite (`tests/python/test_dataset_ml.py`).

const N: usize = 624;
const M: usize = 397;

/// MT19937 with NumPy's legacy seeding and draws.
#[derive(Clone)]
pub struct Mt19937 {
    key: [u32; N],
    pos: usize,
}

impl std::fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mt19937").field("pos", &self.pos).finish()
    }
}

impl Mt19937 {
    /// The state `np.random.seed(seed)` leaves (an integer seed below 2³²).
    pub fn new(seed: u32) -> Mt19937 {
        let mut m = Mt19937 {
            key: [0; N],
            pos: N,
        };
        m.reseed(seed);
        m
    }

    /// Reseed in place, as `np.random.seed(seed)`.
    pub(crate) fn reseed(&mut self, seed: u32) {
        let mut s = seed;
        for (i, k) in self.key.iter_mut().enumerate() {
            *k = s;
            s = 1_812_433_253u32
                .wrapping_mul(s ^ (s >> 30))
                .wrapping_add(i as u32 + 1);
        }
        self.pos = N;
    }

    fn refill(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        let k = &mut self.key;
        for i in 0..N {
            let y = (k[i] & UPPER) | (k[(i + 1) % N] & LOWER);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            k[i] = k[(i + M) % N] ^ (y >> 1) ^ mag;
        }
        self.pos = 0;
    }

    /// The next 32-bit output (tempered).
    pub(crate) fn next_u32(&mut self) -> u32 {
        if self.pos == N {
            self.refill();
        }
        let mut y = self.key[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A double in `[0, 1)` as `np.random.rand` draws it: 53 bits from two 32-bit outputs.
    pub(crate) fn next_f64(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// A value in `0..=max` as the legacy shuffle draws it: the 32-bit output masked to the
    /// bits of `max`, rejected while above it (`max < 2³²`).
    pub fn interval(&mut self, max: u32) -> u32 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        mask |= mask >> 1;
        mask |= mask >> 2;
        mask |= mask >> 4;
        mask |= mask >> 8;
        mask |= mask >> 16;
        loop {
            let v = self.next_u32() & mask;
            if v <= max {
                return v;
            }
        }
    }

    /// `np.random.shuffle` of the first axis of an array of `v.len()` rows.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.interval(i as u32) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference output of MT19937 (Matsumoto and Nishimura's `mt19937ar.c`) seeded by
    /// `init_genrand(5489)`: its first draws are 3499211612, 581869302, 3890346734.
    #[test]
    fn matches_the_reference_generator() {
        let mut m = Mt19937::new(5489);
        assert_eq!(
            [m.next_u32(), m.next_u32(), m.next_u32()],
            [3_499_211_612, 581_869_302, 3_890_346_734]
        );
    }

    /// `np.random.seed(0); np.random.rand()` is 0.5488135039273248 (a value every NumPy user
    /// has seen).
    #[test]
    fn matches_numpy_rand() {
        let mut m = Mt19937::new(0);
        assert_eq!(m.next_f64(), 0.548_813_503_927_324_8);
        assert_eq!(m.next_f64(), 0.715_189_366_372_419_5);
    }

    /// `np.random.seed(3); a = np.arange(10); np.random.shuffle(a)` gives this order.
    #[test]
    fn matches_numpy_shuffle() {
        let mut v: Vec<u32> = (0..10).collect();
        Mt19937::new(3).shuffle(&mut v);
        assert_eq!(v, [5, 4, 1, 2, 9, 6, 7, 0, 3, 8]);
    }
}
