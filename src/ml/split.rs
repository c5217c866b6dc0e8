//! Leak-free splits: a maze's split is a function of its canonical key alone (the hash of the
//! maze, or of its symmetry class's canonical form, see [`crate::ml::canon`]), so two copies of
//! one maze, or two images of one class, always land in the same split, in every run and every
//! shard. `u = splitmix64(key ^ SPLIT_STREAM) >> 11` is a 53-bit number; the maze is in `train`
//! when `u < ⌊train·2⁵³⌋`, in `validation` when `u < ⌊(train + validation)·2⁵³⌋`, else in
//! `test`.

use crate::rng::splitmix64;

/// The constant that separates the split stream from the others: the first 64 bits of the
/// fractional part of √5.
pub const SPLIT_STREAM: u64 = 0x3c6e_f372_fe94_f82b;

/// One of the three splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    /// Training rows.
    Train = 0,
    /// Validation rows.
    Validation = 1,
    /// Test rows.
    Test = 2,
}

impl Split {
    /// The three, in file order.
    pub const ALL: [Split; 3] = [Split::Train, Split::Validation, Split::Test];

    /// The Hugging Face split name (and file prefix).
    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Validation => "validation",
            Split::Test => "test",
        }
    }
}

/// The fractions of `train`, `validation` and `test`, each in `[0, 1]`, summing to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fractions {
    /// Train, validation, test.
    pub f: [f64; 3],
    cut: [u64; 2],
}

impl Fractions {
    /// Parse `TRAIN,VALIDATION,TEST` (e.g. `0.8,0.1,0.1`).
    pub fn parse(s: &str) -> Result<Fractions, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() != 3 {
            return Err("expected three fractions TRAIN,VALIDATION,TEST, e.g. 0.8,0.1,0.1".into());
        }
        let mut f = [0.0; 3];
        for (v, p) in f.iter_mut().zip(&parts) {
            *v = p
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && (0.0..=1.0).contains(x))
                .ok_or_else(|| format!("'{p}' is not a fraction between 0 and 1"))?;
        }
        let sum: f64 = f.iter().sum();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(format!("the fractions sum to {sum}, not 1"));
        }
        Ok(Fractions::new(f))
    }

    fn new(f: [f64; 3]) -> Fractions {
        const ONE: f64 = (1u64 << 53) as f64;
        let c1 = (f[0] * ONE) as u64;
        let c2 = if f[2] == 0.0 {
            1u64 << 53
        } else {
            ((f[0] + f[1]) * ONE).min(ONE) as u64
        };
        Fractions { f, cut: [c1, c2] }
    }

    /// The split of the maze whose canonical key is `key`.
    pub fn split_of(&self, key: u64) -> Split {
        let u = splitmix64(key ^ SPLIT_STREAM) >> 11;
        if u < self.cut[0] {
            Split::Train
        } else if u < self.cut[1] {
            Split::Validation
        } else {
            Split::Test
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_checked() {
        assert!(Fractions::parse("0.8,0.1,0.1").is_ok());
        assert!(Fractions::parse("0.8,0.1").is_err());
        assert!(Fractions::parse("0.8,0.3,0.1").unwrap_err().contains("sum"));
        assert!(Fractions::parse("1.5,-0.5,0").is_err());
    }

    /// The realised shares of 100,000 keys are within 5 standard errors of the fractions, and
    /// an empty split stays empty.
    #[test]
    fn shares_follow_the_fractions() {
        let f = Fractions::parse("0.7,0.2,0.1").unwrap();
        let n = 100_000u64;
        let mut c = [0u64; 3];
        for k in 0..n {
            c[f.split_of(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)) as usize] += 1;
        }
        for (i, p) in [0.7, 0.2, 0.1].iter().enumerate() {
            let se = (p * (1.0 - p) / n as f64).sqrt();
            assert!((c[i] as f64 / n as f64 - p).abs() < 5.0 * se, "{c:?}");
        }
        let g = Fractions::parse("1,0,0").unwrap();
        assert!((0..1000u64).all(|k| g.split_of(k) == Split::Train));
        let t = Fractions::parse("0,0,1").unwrap();
        assert!((0..1000u64).all(|k| t.split_of(k) == Split::Test));
    }
}
