//! Per-maze seeding and the random source every generator draws from.
//!
//! Seeding scheme 2 ([`SEEDING_SCHEME`], recorded in every output as
//! `batchgen.seeding_scheme = 2`; the derivation below is that of scheme 1 too, which differs
//! only in how `sidewinder` spends its draws):
//!
//! ```text
//! z = splitmix64(seed)
//! z = splitmix64(z ^ fnv1a64(algo_name))          // canonical name, parameters included
//! z = splitmix64(z ^ (width << 32 | height))
//! z = splitmix64(z ^ depth)                        // only when depth > 1 (3D)
//! maze_seed = splitmix64(z ^ index)
//! ```
//!
//! where `splitmix64(x)` is one SplitMix64 output step for state `x`
//! (`fmix`-style finaliser of `x + 0x9e3779b97f4a7c15`). The depth step exists only for 3D
//! sizes, so every 2D seed (depth 1) is what it was before 3D existed, and a 3D size never
//! shares its seeds with the 2D size of the same width and height. The generator state is
//! Xoshiro256PlusPlus with its four words taken from four successive SplitMix64 outputs starting
//! at `maze_seed`. We fill the state ourselves instead of calling `seed_from_u64` so the mapping
//! cannot change under us with a crate release. A maze is therefore a pure function of
//! (algo, size, seed, index): thread count, chunking, `--count` and `--algo` order do not
//! matter.
//!
//! A braided maze (`--braid P`, [`crate::braid`]) draws its braid pass from a second stream,
//! seeded with [`braid_seed`]`(maze_seed) = splitmix64(maze_seed ^ BRAID_STREAM)`: the
//! generator's draws are untouched, so the perfect maze under the loops is the maze the same
//! identifiers give without `--braid`, and `--braid 0` (no pass, no draws) changes nothing.
//!
//! Bounded draws are unbiased: [`Rng::below`] is Lemire's multiply-and-reject method; the 2-bit
//! and 1-bit draws are exact because their ranges are powers of two.

use crate::grid::Size;

/// Version of the seeding scheme above. Bump it if any step changes, or if any generator
/// changes which maze a seed gives (a maze is a function of the scheme version, algo, size,
/// seed and index).
///
/// - 1: the first release.
/// - 2: `sidewinder` draws each chunk's coins first, then one pick per run, and always spends a
///   draw on one-cell runs (5× faster; same distribution, other mazes for a given seed). Every
///   other generator gives the same mazes as under scheme 1.
pub const SEEDING_SCHEME: u32 = 2;

/// Name of the generator algorithm, recorded in output metadata.
pub const RNG_NAME: &str = "Xoshiro256PlusPlus (rand_xoshiro 0.8)";

const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The constant that separates the braid stream from the generator's stream ([`braid_seed`]):
/// the first 64 bits of the fractional part of √2 (a nothing-up-my-sleeve number).
pub const BRAID_STREAM: u64 = 0x6a09_e667_f3bc_c908;

/// The seed of the braid pass of the maze whose per-maze seed is `maze_seed` (see the module
/// docs): `splitmix64(maze_seed ^ BRAID_STREAM)`.
#[inline]
pub fn braid_seed(maze_seed: u64) -> u64 {
    splitmix64(maze_seed ^ BRAID_STREAM)
}

/// One SplitMix64 step: the output for state `x` (the state advances by `GAMMA` first).
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// 64-bit FNV-1a of a byte string (used to fold the algorithm name into the seed).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The part of [`maze_seed`] that does not depend on the index: compute once per
/// (seed, algo, size), then call [`maze_seed_from_base`] per maze.
pub fn maze_seed_base(seed: u64, algo: &str, width: u32, height: u32) -> u64 {
    let mut z = splitmix64(seed);
    z = splitmix64(z ^ fnv1a64(algo.as_bytes()));
    splitmix64(z ^ ((width as u64) << 32 | height as u64))
}

/// [`maze_seed_base`] for any size: the depth is mixed in only when it is more than 1, so a 2D
/// size gives exactly [`maze_seed_base`]`(seed, algo, width, height)`.
pub fn maze_seed_base_sized(seed: u64, algo: &str, size: Size) -> u64 {
    let z = maze_seed_base(seed, algo, size.width, size.height);
    if size.is_3d() {
        splitmix64(z ^ size.depth as u64)
    } else {
        z
    }
}

/// The seed of maze number `index` of `algo` at `size` (2D or 3D) in a run with master `seed`.
pub fn maze_seed_sized(seed: u64, algo: &str, size: Size, index: u64) -> u64 {
    maze_seed_from_base(maze_seed_base_sized(seed, algo, size), index)
}

/// The per-maze seed from a base made by [`maze_seed_base`].
#[inline]
pub fn maze_seed_from_base(base: u64, index: u64) -> u64 {
    splitmix64(base ^ index)
}

/// The seed of maze number `index` of `algo` at `width × height` in a run with master `seed`.
pub fn maze_seed(seed: u64, algo: &str, width: u32, height: u32, index: u64) -> u64 {
    maze_seed_from_base(maze_seed_base(seed, algo, width, height), index)
}

/// What a generator may ask of its randomness. Generators are generic over it: the batch uses
/// [`Rng`]; the uniformity lab substitutes a source that enumerates every outcome of every
/// draw, so the exact distribution is computed from the very code the batch runs.
///
/// Every method is a uniform draw over a finite range, except [`RandomSource::unit_f64`], which
/// enumerating sources cannot branch on (generators that use it are sampled, not enumerated).
///
/// # Safety
///
/// The generators index their buffers by these draws without bounds checks, so every draw an
/// implementation returns must lie in its documented range: `below(n) < n`, `bits(k) < 2^k`,
/// `unit_f64()` in `[0, 1)`, and the same for each provided method it overrides (the provided
/// ones keep to their ranges when the three required ones do). Uniformity is what makes a
/// source useful; the range is what makes it safe.
pub unsafe trait RandomSource {
    /// A uniform integer in `0..n` (`n > 0`), unbiased.
    fn below(&mut self, n: u32) -> u32;
    /// A uniform integer in `0..2^k` (`1 <= k <= 8`).
    fn bits(&mut self, k: u32) -> u32;
    /// A uniform `f64` in `[0, 1)`.
    fn unit_f64(&mut self) -> f64;
    /// `unit_f64() < chance.p()`: the same draw and the same outcome. The default is exactly
    /// that; [`Rng`] compares the 53 drawn bits with an integer threshold instead of converting
    /// them to a float (see [`Chance`]).
    #[inline]
    fn unit_below(&mut self, chance: Chance) -> bool {
        self.unit_f64() < chance.p
    }
    /// A uniform value in `0..4`: a random direction.
    #[inline]
    fn dir4(&mut self) -> u32 {
        self.bits(2)
    }
    /// A fair coin.
    #[inline]
    fn coin(&mut self) -> bool {
        self.bits(1) == 1
    }
    /// A fair coin flipped only when `flip` (otherwise `false`, and nothing is drawn). The
    /// default is exactly that branch; [`Rng`] consumes its buffered bit by a shift of 0 or 1,
    /// so a caller whose condition is unpredictable (Eller's "different sets?") has no branch
    /// on it.
    #[inline]
    fn coin_if(&mut self, flip: bool) -> bool {
        flip && self.coin()
    }
    /// `k` fair coins at once (`1 <= k <= 64`): bit `i` of the result is the `i`-th coin, the
    /// same coins, in the same order, as `k` calls of [`RandomSource::coin`] (which is what the
    /// default does, so enumerating sources still see `k` two-way draws).
    #[inline]
    fn coins(&mut self, k: u32) -> u64 {
        debug_assert!((1..=64).contains(&k));
        let mut r = 0u64;
        for i in 0..k {
            r |= (self.coin() as u64) << i;
        }
        r
    }
    /// Flip coins until one comes up heads or `max` coins have been flipped; return how many
    /// tails came first (`max` if all `max` were tails). The same coins as that many calls of
    /// [`RandomSource::coin`] (the default), so a run length costs one draw per coin only for
    /// enumerating sources.
    #[inline]
    fn tails_before_head(&mut self, max: u32) -> u32 {
        let mut z = 0;
        while z < max && !self.coin() {
            z += 1;
        }
        z
    }
    /// A uniform integer in `0..n` (`n > 0`), drawing ([`RandomSource::below`]) only when
    /// there is a choice (`n > 1`): exactly the draws of `if n == 1 { 0 } else { below(n) }`,
    /// which is the default. [`Rng`] computes the draw either way and keeps the generator's
    /// advance only when `n > 1`, so a walk whose number of options is unpredictable does not
    /// branch on it.
    #[inline]
    fn choose(&mut self, n: u32) -> u32 {
        if n == 1 {
            0
        } else {
            self.below(n)
        }
    }
    /// Exactly [`RandomSource::choose`] (the same draws and value; `n == 0` also gives 0
    /// without a draw), for callers whose count is 0, 1 or more at random: [`Rng`] keeps or
    /// drops the generator's advance by conditional moves
    /// ([`std::hint::select_unpredictable`]), never a branch on `n > 1`.
    #[inline]
    fn choose_flat(&mut self, n: u32) -> u32 {
        if n <= 1 {
            0
        } else {
            self.below(n)
        }
    }
    /// [`RandomSource::choose_flat`]`(n)` when `draw`; otherwise no draw and some value below
    /// `n` (0 when `n` is 0). The default is exactly that branch (0 without a draw); [`Rng`]
    /// computes the value from its next output either way and keeps the advance only when
    /// `draw` and `n > 1`, so the multiply need not wait for `draw`: a caller whose count is
    /// known before its condition (a growing tree's random pick, which a coin may replace by
    /// the newest entry) starts on the value at once.
    #[inline]
    fn choose_flat_when(&mut self, draw: bool, n: u32) -> u32 {
        if draw {
            self.choose_flat(n)
        } else {
            0
        }
    }
    /// A uniform integer in `0..n` (`n > 0`) where `n == 1` need not draw: the default draws
    /// nothing then (so enumerating sources see exactly the draws with a choice), while [`Rng`]
    /// always consumes one draw, which spares the batch a data-dependent branch. The outcome
    /// is uniform either way; only which later numbers the generator sees differs.
    #[inline]
    fn below_or_zero(&mut self, n: u32) -> u32 {
        if n == 1 {
            0
        } else {
            self.below(n)
        }
    }
    /// 32 random directions at once, direction `i` in bits `2i..2i+2`: exactly the values of
    /// 32 successive [`RandomSource::dir4`] calls (so a walk that consumes a block from the low
    /// end sees the same directions as one calling `dir4` per step). Directions of a block that
    /// the caller never uses are simply dropped. The default makes the 32 single draws, so an
    /// enumerating source still branches on every direction.
    #[inline]
    fn dir4_x32(&mut self) -> u64 {
        let mut block = 0u64;
        for i in 0..32 {
            block |= (self.dir4() as u64) << (2 * i);
        }
        block
    }

    /// `keep` when `prefer`, otherwise a uniform direction among the set `valid` (not empty)
    /// by rejection: [`RandomSource::dir4`] until it lands in `valid`. The default is exactly
    /// that branch; [`Rng`] gives the same values and consumes the same bits without a branch
    /// on `prefer` in the common case (a biased walk's coin flip is unpredictable).
    #[inline]
    fn dir4_unless(&mut self, prefer: bool, keep: u32, valid: u32) -> u32 {
        keep_or_uniform(self, prefer, keep, valid)
    }
    /// A biased turn or a uniform direction: when `prefer`, one of the turns `l` and `r` that
    /// are in `valid` (a [`RandomSource::coin`] picks `l` on heads when both are, no draw when
    /// one is; at least one must be), otherwise a uniform direction among `valid` by rejection
    /// as in [`RandomSource::dir4_unless`]. The default is exactly that branch; [`Rng`] gives the
    /// same values and consumes the same bits without a branch on `prefer` in the common case.
    #[inline]
    fn turn_unless(&mut self, prefer: bool, l: u32, r: u32, valid: u32) -> u32 {
        turn_or_uniform(self, prefer, l, r, valid)
    }
    /// The six-neighbour counterpart of [`RandomSource::dir4_unless`]: `keep` when `prefer`,
    /// otherwise a uniform direction among the set `valid` (bits 0..6, not empty) by
    /// rejection: three bits ([`RandomSource::bits`]) until they name a direction in `valid`
    /// (6 and 7 name none). The default is exactly that branch; [`Rng`] gives the same values
    /// and consumes the same bits without a branch on `prefer` in the common case.
    #[inline]
    fn dir6_unless(&mut self, prefer: bool, keep: u32, valid: u32) -> u32 {
        keep_or_uniform6(self, prefer, keep, valid)
    }
    /// This source as the batch's [`Rng`], if it is one (the default: not): a walk that draws
    /// every step can then run on a copy in locals, whose state the compiler keeps in
    /// registers, and store it back once.
    #[inline]
    fn as_rng(&mut self) -> Option<&mut Rng> {
        None
    }
}

/// `$body` with `$r` bound to the batch's generator in locals when `$rng` is one
/// ([`RandomSource::as_rng`]): a copy the compiler keeps in registers across a loop that draws
/// every step (through `$rng` its state went to memory every draw), stored back once after the
/// body; otherwise to `$rng` itself. The same draws either way; the body is compiled for both
/// generator types, so it names the generator's type `_`.
macro_rules! with_local_rng {
    ($rng:ident, |$r:ident| $body:expr) => {
        match $rng.as_rng() {
            Some(rng) => {
                let mut local = rng.clone();
                let out = {
                    let $r = &mut local;
                    $body
                };
                *rng = local;
                out
            }
            None => {
                let $r = &mut *$rng;
                $body
            }
        }
    };
}
pub(crate) use with_local_rng;

/// The plain branch of [`RandomSource::dir6_unless`].
#[inline]
fn keep_or_uniform6<R: RandomSource + ?Sized>(
    rng: &mut R,
    prefer: bool,
    keep: u32,
    valid: u32,
) -> u32 {
    debug_assert!(valid != 0 && valid < 64);
    if prefer {
        return keep;
    }
    loop {
        let d = rng.bits(3);
        if valid >> d & 1 != 0 {
            return d;
        }
    }
}

/// The plain branch of [`RandomSource::dir4_unless`].
#[inline]
fn keep_or_uniform<R: RandomSource + ?Sized>(
    rng: &mut R,
    prefer: bool,
    keep: u32,
    valid: u32,
) -> u32 {
    if prefer {
        keep
    } else {
        uniform_among(rng, valid)
    }
}

/// The plain branch of [`RandomSource::turn_unless`].
#[inline]
fn turn_or_uniform<R: RandomSource + ?Sized>(
    rng: &mut R,
    prefer: bool,
    l: u32,
    r: u32,
    valid: u32,
) -> u32 {
    if prefer {
        let turns = valid & (1 << l | 1 << r);
        if turns == (1 << l | 1 << r) {
            if rng.coin() {
                l
            } else {
                r
            }
        } else {
            turns.trailing_zeros()
        }
    } else {
        uniform_among(rng, valid)
    }
}

/// A uniform direction among the set `valid` (not empty): [`RandomSource::dir4`] until it lands
/// in `valid`.
#[inline]
fn uniform_among<R: RandomSource + ?Sized>(rng: &mut R, valid: u32) -> u32 {
    debug_assert!(valid & 15 != 0);
    loop {
        let d = rng.dir4();
        if valid >> d & 1 != 0 {
            return d;
        }
    }
}

impl Rng {
    /// The common case of [`RandomSource::dir4_unless`] (`k` = 2 bits per direction) and
    /// [`RandomSource::dir6_unless`] (`k` = 3): `k` bits buffered and, if a direction is drawn,
    /// its first draw in `valid` (always, away from the border; 6 and 7 never are). Then both
    /// outcomes are computed and one is selected, consuming the `k` bits only when the direction
    /// is taken. `None`, with the state unchanged, sends the caller to the plain branch.
    #[inline(always)]
    fn keep_or_first_draw(&mut self, k: u32, prefer: bool, keep: u32, valid: u32) -> Option<u32> {
        let d = (self.bits & ((1 << k) - 1)) as u32;
        if (self.nbits >= k) & (prefer | (valid >> d & 1 != 0)) {
            let used = k * !prefer as u32;
            self.bits >>= used;
            self.nbits -= used;
            return Some(if prefer { keep } else { d });
        }
        None
    }
}

// SAFETY: every draw is in its range: `below` by Lemire's method (a high product word,
// below `n`), `bits` and the buffered draws by masking or shifting to their widths, `unit_f64`
// from 53 bits times 2^-53; the overridden provided methods select among in-range values.
unsafe impl RandomSource for Rng {
    #[inline]
    fn as_rng(&mut self) -> Option<&mut Rng> {
        Some(self)
    }
    #[inline]
    fn dir4_unless(&mut self, prefer: bool, keep: u32, valid: u32) -> u32 {
        self.keep_or_first_draw(2, prefer, keep, valid)
            .unwrap_or_else(|| keep_or_uniform(self, prefer, keep, valid))
    }
    #[inline]
    fn dir6_unless(&mut self, prefer: bool, keep: u32, valid: u32) -> u32 {
        self.keep_or_first_draw(3, prefer, keep, valid)
            .unwrap_or_else(|| keep_or_uniform6(self, prefer, keep, valid))
    }
    #[inline]
    fn turn_unless(&mut self, prefer: bool, l: u32, r: u32, valid: u32) -> u32 {
        // As `dir4_unless`: with two bits buffered, a turn takes one bit (a coin, only when
        // both turns are possible) and a direction two (when its first draw is valid).
        let both = 1 << l | 1 << r;
        let turns = valid & both;
        let d = (self.bits & 3) as u32;
        if (self.nbits >= 2) & (prefer | (valid >> d & 1 != 0)) {
            // Selects, not branches: every condition here is a coin flip.
            let coin = turns == both;
            let pick = if self.bits & 1 == 1 { l } else { r };
            let turn = if coin { pick } else { turns.trailing_zeros() };
            let used = (prefer & coin) as u32 | (2 * !prefer as u32);
            self.bits >>= used;
            self.nbits -= used;
            return if prefer { turn } else { d };
        }
        turn_or_uniform(self, prefer, l, r, valid)
    }
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        Rng::below(self, n)
    }
    #[inline]
    fn bits(&mut self, k: u32) -> u32 {
        Rng::bits(self, k)
    }
    #[inline]
    fn unit_f64(&mut self) -> f64 {
        Rng::unit_f64(self)
    }
    #[inline]
    fn unit_below(&mut self, chance: Chance) -> bool {
        (self.next_u64() >> 11) < chance.below
    }
    #[inline]
    fn coins(&mut self, k: u32) -> u64 {
        Rng::coins(self, k)
    }
    #[inline]
    fn tails_before_head(&mut self, max: u32) -> u32 {
        Rng::tails_before_head(self, max)
    }
    #[inline]
    fn coin_if(&mut self, flip: bool) -> bool {
        // `coin` refills the buffer when it is empty and a bit is needed; so does this (a
        // branch taken once per 64 coins), and an empty buffer is never refilled without a
        // flip, so later draws from the generator see the same sequence. The test is one
        // comparison, `flip > nbits`: written as `flip & (nbits == 0)`, the compiler may split
        // it into a branch on `flip` first, which is as unpredictable as the caller's sets.
        let f = flip as u32;
        if f > self.nbits {
            self.bits = self.inner.next_u64();
            self.nbits = 64;
        }
        let heads = self.bits & f as u64 == 1;
        self.bits >>= f;
        self.nbits -= f;
        heads
    }
    #[inline]
    fn choose(&mut self, n: u32) -> u32 {
        // The next output is computed on a copy of the state; the copy replaces the state
        // (a select, not a branch) only when there is a choice. Lemire's rejection (a low
        // product below `2^32 mod n`, probability < n / 2^32) takes the plain path.
        let (out, next) = self.inner.peek();
        let m = (out >> 32) * n as u64;
        let choice = n > 1;
        if choice && (m as u32) < n {
            return self.below(n);
        }
        self.inner.advance_when(choice, next);
        if choice {
            (m >> 32) as u32
        } else {
            0
        }
    }
    #[inline(always)]
    fn choose_flat(&mut self, n: u32) -> u32 {
        let (out, next) = self.inner.peek();
        let m = (out >> 32) * n as u64;
        let keep = (n > 1) as usize;
        // Lemire's rejection (a low product below `2^32 mod n`) only with a choice: the bound
        // is 0 without one, and it is opaque, so no branch on `n > 1` comes back.
        if (m as u32) < std::hint::black_box(n & keep.wrapping_neg() as u32) {
            return self.below(n);
        }
        // With `n <= 1` the product is below `2^32`: the value is 0 and the state stays.
        self.inner.advance_when(keep == 1, next);
        (m >> 32) as u32
    }
    #[inline(always)]
    fn choose_flat_when(&mut self, draw: bool, n: u32) -> u32 {
        // As `choose_flat`, with the advance kept only when `draw` as well.
        let (out, next) = self.inner.peek();
        let m = (out >> 32) * n as u64;
        let keep = draw & (n > 1);
        if (m as u32) < std::hint::black_box(n & (keep as u32).wrapping_neg()) {
            return self.below(n);
        }
        self.inner.advance_when(keep, next);
        (m >> 32) as u32
    }
    #[inline]
    fn below_or_zero(&mut self, n: u32) -> u32 {
        // Lemire's method gives 0 for n == 1 (its rejection threshold is 0).
        Rng::below(self, n)
    }
    #[inline]
    fn dir4_x32(&mut self) -> u64 {
        Rng::dir4_x32(self)
    }
}

/// A fixed probability `p` in `[0, 1]` for [`RandomSource::unit_below`], with its integer
/// threshold: [`Rng::unit_f64`] is `m · 2^-53` for 53 drawn bits `m`, and `m · 2^-53 < p` holds
/// exactly when `m < ⌈p · 2^53⌉` (scaling by a power of two is exact, and `m` is an integer),
/// so the comparison needs no float conversion and gives the same outcome for every draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chance {
    p: f64,
    below: u64,
}

impl Chance {
    /// The chance `p` (`0 <= p <= 1`).
    pub fn new(p: f64) -> Chance {
        debug_assert!((0.0..=1.0).contains(&p));
        Chance {
            p,
            below: (p * (1u64 << 53) as f64).ceil() as u64,
        }
    }

    /// The probability.
    pub fn p(self) -> f64 {
        self.p
    }
}

/// Xoshiro256++ (Blackman and Vigna): exactly the outputs of `rand_xoshiro`'s
/// `Xoshiro256PlusPlus` from the same 32 seed bytes (a test compares them), with its four words
/// in reach, so [`RandomSource::choose_flat`] keeps or drops an advance word by word with
/// conditional moves, the state staying in registers.
#[derive(Clone, Debug)]
struct Xoshiro256PlusPlus {
    /// The state words.
    s: [u64; 4],
}

impl Xoshiro256PlusPlus {
    /// The state read from `seed` as four little-endian words. Not all zero: the seeds are four
    /// successive SplitMix64 outputs, of which at most one is 0 (SplitMix64 is a bijection).
    #[inline]
    fn from_seed(seed: [u8; 32]) -> Xoshiro256PlusPlus {
        let s = std::array::from_fn(|i| {
            u64::from_le_bytes(seed[8 * i..8 * i + 8].try_into().expect("8 bytes"))
        });
        debug_assert!(s != [0; 4]);
        Xoshiro256PlusPlus { s }
    }

    /// The next output. The step is written out here as in [`Self::peek`]: through `peek` (the
    /// words copied back whole), polar binary-tree and sidewinder and hex wilson-turn ran 4%
    /// slower (`benches/generators.sh`).
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let out = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// The next output and the state after it, this state left as it is: the words are
    /// values, not a copy of the state in memory, so [`Self::advance_when`] selects between
    /// computed words and loaded ones.
    #[inline(always)]
    fn peek(&self) -> (u64, [u64; 4]) {
        let [s0, s1, s2, s3] = self.s;
        let out = s0.wrapping_add(s3).rotate_left(23).wrapping_add(s0);
        let t = s1 << 17;
        let s2 = s2 ^ s0;
        let s3 = s3 ^ s1;
        let s1 = s1 ^ s2;
        let s0 = s0 ^ s3;
        (out, [s0, s1, s2 ^ t, s3.rotate_left(45)])
    }

    /// The state becomes `next` when `c`, word by word with conditional moves. A select
    /// between two copies of the state in memory may be compiled as a select of their
    /// addresses and a 32-byte copy in two vector halves, whose loads then wait on the
    /// 8-byte stores of the step before (no store forwarding): that doubled the cost of a
    /// growing-tree step in some builds. Selecting computed words leaves nothing to copy.
    #[inline(always)]
    fn advance_when(&mut self, c: bool, next: [u64; 4]) {
        for (s, n) in self.s.iter_mut().zip(next) {
            *s = std::hint::select_unpredictable(c, n, *s);
        }
    }
}

/// The random source of one maze: Xoshiro256PlusPlus plus a small bit buffer for cheap
/// power-of-two draws.
#[derive(Clone, Debug)]
pub struct Rng {
    inner: Xoshiro256PlusPlus,
    bits: u64,
    nbits: u32,
}

impl Rng {
    /// The generator for a maze seed (scheme 1, see the module docs).
    pub fn from_maze_seed(maze_seed: u64) -> Rng {
        let mut bytes = [0u8; 32];
        let mut s = maze_seed;
        for chunk in bytes.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(s).to_le_bytes());
            s = s.wrapping_add(GAMMA);
        }
        Rng {
            inner: Xoshiro256PlusPlus::from_seed(bytes),
            bits: 0,
            nbits: 0,
        }
    }

    /// Re-seed in place (no allocation; same as [`Rng::from_maze_seed`]).
    #[inline]
    pub fn reseed(&mut self, maze_seed: u64) {
        *self = Rng::from_maze_seed(maze_seed);
    }

    /// 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// 32 random bits (the high half of a 64-bit output).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.inner.next_u64() >> 32) as u32
    }

    /// A uniform integer in `0..n` (`n > 0`), without bias: Lemire's multiply-shift with
    /// rejection of the `2^32 mod n` low products that would over-represent some values.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = self.next_u32() as u64 * n as u64;
        if (m as u32) < n {
            let t = n.wrapping_neg() % n;
            while (m as u32) < t {
                m = self.next_u32() as u64 * n as u64;
            }
        }
        (m >> 32) as u32
    }

    /// `k` fresh random bits (`1 <= k <= 8`) from the buffer, refilled from the generator.
    #[inline]
    pub fn bits(&mut self, k: u32) -> u32 {
        debug_assert!((1..=8).contains(&k));
        if self.nbits < k {
            self.bits = self.inner.next_u64();
            self.nbits = 64;
        }
        let r = (self.bits & ((1 << k) - 1)) as u32;
        self.bits >>= k;
        self.nbits -= k;
        r
    }

    /// A uniform value in `0..4` (two buffered bits): a random direction.
    #[inline]
    pub fn dir4(&mut self) -> u32 {
        self.bits(2)
    }

    /// 32 directions in one word, the same values as 32 successive [`Rng::dir4`] calls: with
    /// an empty bit buffer (always the case at the start of a maze and between whole blocks)
    /// that is simply the next 64-bit output, whose 2-bit fields are independent and uniform.
    #[inline]
    pub fn dir4_x32(&mut self) -> u64 {
        if self.nbits == 0 {
            return self.inner.next_u64();
        }
        let mut block = 0u64;
        for i in 0..32 {
            block |= (self.bits(2) as u64) << (2 * i);
        }
        block
    }

    /// A fair coin.
    #[inline]
    pub fn coin(&mut self) -> bool {
        self.bits(1) == 1
    }

    /// A uniform `f64` in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Unbiased Fisher–Yates shuffle of a slice.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// Many coins per buffer read: the same coin stream as repeated [`Rng::coin`] calls (the bit
/// buffer is consumed low bit first and refilled only when empty), so generators that switch to
/// these keep their mazes.
impl Rng {
    /// `k` coins (`1 <= k <= 64`), bit `i` = the `i`-th coin that `k` calls of [`Rng::coin`]
    /// would have given; leaves the buffer exactly as those calls would.
    #[inline]
    pub fn coins(&mut self, k: u32) -> u64 {
        debug_assert!((1..=64).contains(&k));
        if k <= self.nbits {
            let r = self.bits & (u64::MAX >> (64 - k));
            // k may be 64 only when nbits is 64: shift in two steps to stay defined.
            self.bits = (self.bits >> (k - 1)) >> 1;
            self.nbits -= k;
            return r;
        }
        // Take what is left, refill, take the rest from the fresh word.
        let have = self.nbits;
        let fresh = self.inner.next_u64();
        let need = k - have; // 1..=64
        let low = if have == 0 { 0 } else { self.bits };
        let r = low | ((fresh & (u64::MAX >> (64 - need))) << have);
        self.bits = (fresh >> (need - 1)) >> 1;
        self.nbits = 64 - need;
        r
    }

    /// Tails before the first head, at most `max` coins flipped: the same coins as calling
    /// [`Rng::coin`] until it is true or `max` calls were made.
    #[inline]
    pub fn tails_before_head(&mut self, max: u32) -> u32 {
        let mut z = 0u32;
        loop {
            if self.nbits == 0 {
                if z == max {
                    return z;
                }
                self.bits = self.inner.next_u64();
                self.nbits = 64;
            }
            // Tails available in the buffer before a head (or its end), capped by what is left.
            let t = self.bits.trailing_zeros().min(self.nbits).min(max - z);
            z += t;
            if z == max {
                // `t` tails consumed, no head drawn.
                self.bits = (self.bits >> (t.max(1) - 1)) >> (t.min(1));
                self.nbits -= t;
                return z;
            }
            if t < self.nbits {
                // The head at position t is drawn too.
                self.bits = (self.bits >> t) >> 1;
                self.nbits -= t + 1;
                return z;
            }
            // The whole buffer was tails.
            self.nbits = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xoshiro_gives_the_outputs_of_rand_xoshiro() {
        use rand_core::{Rng as _, SeedableRng};
        for seed in [0u64, 1, 42, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
            let mut bytes = [0u8; 32];
            for (i, chunk) in bytes.chunks_exact_mut(8).enumerate() {
                chunk.copy_from_slice(&splitmix64(seed.wrapping_add(i as u64)).to_le_bytes());
            }
            let mut ours = Xoshiro256PlusPlus::from_seed(bytes);
            let mut theirs = rand_xoshiro::Xoshiro256PlusPlus::from_seed(bytes);
            for _ in 0..1000 {
                assert_eq!(ours.next_u64(), theirs.next_u64());
            }
        }
    }

    /// An [`Rng`] seen only through the required draws, so the trait's default methods run.
    struct Plain(Rng);

    // SAFETY: the required draws are `Rng`'s, in range.
    unsafe impl RandomSource for Plain {
        fn below(&mut self, n: u32) -> u32 {
            self.0.below(n)
        }
        fn bits(&mut self, k: u32) -> u32 {
            self.0.bits(k)
        }
        fn unit_f64(&mut self) -> f64 {
            self.0.unit_f64()
        }
    }

    #[test]
    fn choose_draws_only_when_there_is_a_choice() {
        // `Rng::choose` (a select on the generator's state) against the default branch, for
        // option counts 1..=4 and now and then a large one, with bit-buffer draws in between.
        let mut driver = Rng::from_maze_seed(5);
        let mut fast = Rng::from_maze_seed(6);
        let mut plain = Plain(fast.clone());
        for i in 0..100_000 {
            let n = if driver.below(64) == 0 {
                driver.next_u32() | 1
            } else {
                1 + driver.below(4)
            };
            let got = fast.choose(n);
            assert_eq!(got, plain.choose(n), "draw {i}, n = {n}");
            assert!(got < n);
            if driver.coin() {
                assert_eq!(fast.dir4(), plain.dir4(), "after draw {i}");
            }
        }
        assert_eq!(fast.next_u64(), plain.0.next_u64());
    }

    #[test]
    fn choose_flat_when_draws_only_when_asked_and_there_is_a_choice() {
        // `Rng::choose_flat_when` (a select on the generator's state) against the default
        // branch, for counts 0..=4 and now and then a large one (where Lemire's rejection is
        // likely), asked or not, with bit-buffer draws in between.
        let mut driver = Rng::from_maze_seed(7);
        let mut fast = Rng::from_maze_seed(8);
        let mut plain = Plain(fast.clone());
        for i in 0..100_000 {
            let n = if driver.below(64) == 0 {
                u32::MAX - driver.below(4)
            } else {
                driver.below(5)
            };
            let draw = driver.coin();
            let got = fast.choose_flat_when(draw, n);
            let want = plain.choose_flat_when(draw, n);
            assert!(got < n.max(1), "draw {i}, n = {n}");
            if draw {
                assert_eq!(got, want, "draw {i}, n = {n}");
            }
            if driver.coin() {
                assert_eq!(fast.dir4(), plain.dir4(), "after draw {i}");
            }
        }
        assert_eq!(fast.next_u64(), plain.0.next_u64());
    }

    #[test]
    fn unit_below_is_the_float_comparison() {
        // The integer threshold against `unit_f64() < p` on copies of one generator, for
        // probabilities at and next to the edges and between representable steps.
        let tiny = f64::EPSILON / 4.0; // 2^-54: below one step of 2^-53
        let ps = [
            0.0,
            tiny,
            1.0 / 3.0,
            0.5,
            0.5 + tiny,
            0.9999999,
            1.0 - tiny,
            1.0,
        ];
        let mut fast = Rng::from_maze_seed(3);
        let mut plain = Plain(fast.clone());
        for i in 0..100_000 {
            let c = Chance::new(ps[i % ps.len()]);
            assert_eq!(
                fast.unit_below(c),
                plain.unit_below(c),
                "draw {i}, p = {}",
                c.p()
            );
        }
        // Draws next to the threshold: m = below - 1 and m = below, as the float sees them.
        for &p in &ps {
            let c = Chance::new(p);
            for m in [c.below.saturating_sub(1), c.below, c.below + 1] {
                let m = m.min((1 << 53) - 1);
                let as_float = m as f64 * (1.0 / (1u64 << 53) as f64);
                assert_eq!(m < c.below, as_float < p, "p = {p}, m = {m}");
            }
        }
        assert_eq!(fast.next_u64(), plain.0.next_u64());
    }

    #[test]
    fn coin_if_flips_only_when_asked() {
        // `Rng::coin_if` (a shift by 0 or 1) against the default branch, with single bits and
        // whole-word draws (`below`, which bypasses the bit buffer) in between, so an empty
        // buffer meets both a flip and no flip.
        let mut driver = Rng::from_maze_seed(7);
        let mut fast = Rng::from_maze_seed(8);
        let mut plain = Plain(fast.clone());
        for i in 0..200_000 {
            let flip = driver.coin();
            assert_eq!(fast.coin_if(flip), plain.coin_if(flip), "draw {i}");
            match driver.below(8) {
                0 => assert_eq!(fast.below(1000), plain.below(1000), "after draw {i}"),
                1 => assert_eq!(fast.dir4(), plain.dir4(), "after draw {i}"),
                _ => {}
            }
        }
        assert_eq!(fast.next_u64(), plain.0.next_u64());
    }

    #[test]
    fn branch_free_walk_draws_match_the_plain_branches() {
        // `Rng`'s `dir4_unless` / `turn_unless` against the defaults on a copy of the same
        // state, with coins and single bits in between so the buffer is at every fill level
        // (including the slow paths: fewer than two bits left, a first draw outside `valid`).
        let mut driver = Rng::from_maze_seed(99);
        let mut fast = Rng::from_maze_seed(11);
        let mut plain = Plain(fast.clone());
        let (mut fast_paths, mut slow_paths, mut turns) = (0u32, 0u32, 0u32);
        for i in 0..200_000 {
            let valid = 1 + driver.below(15);
            let prefer = driver.coin();
            let l = driver.dir4();
            let r = (l + 2) & 3;
            let turn = driver.coin();
            // A turn is preferred only when one exists (as the walk ensures).
            let prefer = prefer && (!turn || valid & (1 << l | 1 << r) != 0);
            // Which path `Rng` takes, from its state before the call (both must be exercised).
            let fast_path = fast.nbits >= 2 && (prefer || valid >> (fast.bits & 3) & 1 != 0);
            fast_paths += fast_path as u32;
            slow_paths += !fast_path as u32;
            let (got, want) = if !turn {
                (
                    fast.dir4_unless(prefer, l, valid),
                    plain.dir4_unless(prefer, l, valid),
                )
            } else {
                turns += prefer as u32;
                (
                    fast.turn_unless(prefer, l, r, valid),
                    plain.turn_unless(prefer, l, r, valid),
                )
            };
            assert_eq!(got, want, "draw {i}");
            match driver.below(4) {
                0 => assert_eq!(fast.coin(), plain.coin(), "coin after draw {i}"),
                1 => assert_eq!(fast.bits(3), plain.bits(3), "bits after draw {i}"),
                _ => {}
            }
        }
        assert!(fast_paths > 100_000 && slow_paths > 10_000 && turns > 10_000);
        for _ in 0..100 {
            assert_eq!(fast.dir4(), plain.dir4());
        }
        assert_eq!(fast.next_u64(), plain.0.next_u64());
    }

    #[test]
    fn branch_free_six_neighbour_draws_match_the_plain_branch() {
        // `Rng::dir6_unless` against the default on a copy of the same state, with coins and
        // single bits in between so the buffer is at every fill level (including the slow
        // paths: fewer than three bits left, a first draw of 6, 7 or outside `valid`).
        let mut driver = Rng::from_maze_seed(98);
        let mut fast = Rng::from_maze_seed(12);
        let mut plain = Plain(fast.clone());
        let (mut fast_paths, mut slow_paths, mut kept, mut drawn) = (0u32, 0u32, 0u32, 0u32);
        for i in 0..200_000 {
            let valid = 1 + driver.below(63);
            let keep = driver.below(6);
            let prefer = driver.coin() && valid >> keep & 1 != 0;
            // Which path `Rng` takes, from its state before the call (both must be exercised).
            let fast_path = fast.nbits >= 3 && (prefer || valid >> (fast.bits & 7) & 1 != 0);
            fast_paths += fast_path as u32;
            slow_paths += !fast_path as u32;
            let got = fast.dir6_unless(prefer, keep, valid);
            assert_eq!(got, plain.dir6_unless(prefer, keep, valid), "draw {i}");
            assert!(valid >> got & 1 != 0, "draw {i}: {got} not in {valid:06b}");
            kept += prefer as u32;
            drawn += !prefer as u32;
            match driver.below(4) {
                0 => assert_eq!(fast.coin(), plain.coin(), "coin after draw {i}"),
                1 => assert_eq!(fast.bits(2), plain.bits(2), "bits after draw {i}"),
                _ => {}
            }
        }
        assert!(fast_paths > 80_000 && slow_paths > 80_000 && kept > 40_000 && drawn > 100_000);
        for _ in 0..100 {
            assert_eq!(fast.bits(3), plain.bits(3));
        }
        assert_eq!(fast.next_u64(), plain.0.next_u64());
    }

    #[test]
    fn splitmix_reference_values() {
        // SplitMix64 seeded with 0: first outputs from the reference implementation.
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(GAMMA), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_is_in_range_and_hits_every_value() {
        let mut r = Rng::from_maze_seed(7);
        for n in [1u32, 2, 3, 5, 7, 1000, u32::MAX] {
            let mut seen = std::collections::HashSet::new();
            for _ in 0..2000 {
                let v = r.below(n);
                assert!(v < n);
                seen.insert(v);
            }
            if n <= 7 {
                assert_eq!(seen.len() as u32, n);
            }
        }
    }

    #[test]
    fn below_three_is_unbiased_chi_square() {
        // 300,000 draws in 0..3; chi-square with 2 df, critical value 13.82 at alpha = 0.001.
        let mut r = Rng::from_maze_seed(12345);
        let mut c = [0f64; 3];
        for _ in 0..300_000 {
            c[r.below(3) as usize] += 1.0;
        }
        let chi: f64 = c.iter().map(|&o| (o - 100_000.0).powi(2) / 100_000.0).sum();
        assert!(chi < 13.82, "chi-square {chi}");
    }

    #[test]
    fn dir4_blocks_equal_single_draws() {
        // From an empty buffer and from a part-used one (odd bit count too).
        for skip in [0u32, 1, 2, 5, 63] {
            let mut a = Rng::from_maze_seed(99);
            let mut b = a.clone();
            for _ in 0..skip {
                a.bits(1);
                b.bits(1);
            }
            for _ in 0..5 {
                let block = a.dir4_x32();
                for i in 0..32 {
                    assert_eq!(
                        (block >> (2 * i)) & 3,
                        b.dir4() as u64,
                        "skip {skip} dir {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn seeds_differ_by_every_input() {
        let base = maze_seed(42, "wilson", 64, 64, 0);
        assert_ne!(base, maze_seed(43, "wilson", 64, 64, 0));
        assert_ne!(base, maze_seed(42, "kruskal", 64, 64, 0));
        assert_ne!(base, maze_seed(42, "wilson", 64, 65, 0));
        assert_ne!(base, maze_seed(42, "wilson", 65, 64, 0));
        assert_ne!(base, maze_seed(42, "wilson", 64, 64, 1));
    }

    #[test]
    fn depth_is_mixed_in_only_in_3d() {
        let flat = Size::planar(64, 64);
        assert_eq!(
            maze_seed_sized(42, "wilson", flat, 3),
            maze_seed(42, "wilson", 64, 64, 3)
        );
        assert_eq!(
            maze_seed_sized(42, "wilson", Size::new(64, 64, 1), 3),
            maze_seed(42, "wilson", 64, 64, 3)
        );
        let a = maze_seed_sized(42, "wilson", Size::new(64, 64, 2), 3);
        let b = maze_seed_sized(42, "wilson", Size::new(64, 64, 3), 3);
        assert_ne!(a, maze_seed(42, "wilson", 64, 64, 3));
        assert_ne!(a, b);
        let base = splitmix64(maze_seed_base(42, "wilson", 64, 64) ^ 2);
        assert_eq!(a, maze_seed_from_base(base, 3));
    }

    #[test]
    fn batched_coins_are_the_single_coins() {
        // Mixed request sizes, with bits(2) draws and refills in between, against one coin()
        // per coin on a clone of the same generator.
        let mut a = Rng::from_maze_seed(99);
        let mut b = a.clone();
        let mut sizes = Rng::from_maze_seed(5);
        for round in 0..20_000 {
            if round % 7 == 3 {
                assert_eq!(a.bits(2), b.bits(2));
            }
            let k = 1 + sizes.below(64);
            let mut want = 0u64;
            for i in 0..k {
                want |= (b.coin() as u64) << i;
            }
            assert_eq!(RandomSource::coins(&mut a, k), want, "round {round} k {k}");
            assert_eq!(a.nbits, b.nbits);
        }
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn tails_before_head_is_coins_until_heads() {
        let mut a = Rng::from_maze_seed(7);
        let mut b = a.clone();
        let mut sizes = Rng::from_maze_seed(8);
        let mut seen_max = false;
        for round in 0..50_000 {
            if round % 5 == 1 {
                assert_eq!(a.bits(3), b.bits(3));
            }
            // Mostly small caps, sometimes 0 and sometimes longer than a buffer.
            let max = match round % 4 {
                0 => 0,
                1 => sizes.below(3),
                2 => sizes.below(200),
                _ => sizes.below(8),
            };
            let mut want = 0;
            while want < max && !b.coin() {
                want += 1;
            }
            let got = RandomSource::tails_before_head(&mut a, max);
            assert_eq!(got, want, "round {round} max {max}");
            seen_max |= max > 0 && got == max;
            assert_eq!(a.nbits, b.nbits);
        }
        assert!(seen_max);
        assert_eq!(a.next_u64(), b.next_u64());
    }
}
