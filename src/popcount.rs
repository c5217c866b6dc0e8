//! The number of set bits of every byte, as one table. The hot loops of the metrics, the braid
//! pass and the grid generators count a byte's bits; `popcnt` is not in the baseline
//! x86-64 instruction set (`count_ones` is a dozen instructions without it), and a table is one
//! load.

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
