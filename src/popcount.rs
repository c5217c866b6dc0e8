//! The number of set bits of every byte, and the position of each of them, as two tables. The
//! hot loops of the metrics, the braid pass and the generators count a byte's bits and pick the
//! `i`-th; `popcnt` is not in the baseline x86-64 instruction set (`count_ones` is a dozen
//! instructions without it), and a table is one load.

/// `ONES[b]`: the set bits of byte `b`.
pub(crate) const ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The number of set bits of `m`.
#[inline(always)]
pub(crate) fn count(m: u8) -> u32 {
    ONES[m as usize] as u32
}

/// The position of the `i`-th set bit of `m` (for `i` below its set bits): [`SELECT`], its index
/// masked so that the read needs no bounds check.
#[inline(always)]
pub(crate) fn select(m: u8, i: u32) -> u32 {
    SELECT[m as usize][i as usize & 7] as u32
}

/// `SELECT[m][i]`: the position of the `i`-th set bit of `m` (for `i` below its set bits).
static SELECT: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut b, mut i) = (0, 0);
        while b < 8 {
            if m >> b & 1 != 0 {
                t[m][i] = b as u8;
                i += 1;
            }
            b += 1;
        }
        m += 1;
    }
    t
};
