//! Shards: which slice of each generator's index range this process makes, from `--shard K/N`
//! or from a cluster engine's environment (Slurm job arrays, Kubernetes Indexed Jobs, AWS Batch
//! array jobs).
//!
//! Because a maze depends only on (seed, algo, size, index), any split of the index range gives
//! exactly the rows of one unsharded run. Shard `K/N` (1-based, as users write it) of a range of
//! `count` indices is `[⌊count·(K−1)/N⌋, ⌊count·K/N⌋)`: contiguous, disjoint, covering, sizes
//! differing by at most one, and empty when `N > count` for some `K`.
//!
//! The environment is read through a lookup function, never from the process directly, so the
//! rules are pure and testable: an explicit `--shard` always wins; otherwise exactly one engine
//! may be present (two are refused as ambiguous).

use std::fmt;
use std::ops::Range;

/// The largest `N`: part file names carry K and N in five digits.
pub const MAX_SHARDS: u32 = 99_999;

/// Environment variable giving the shard count where the engine does not export it
/// (Kubernetes Indexed Jobs; AWS Batch without `AWS_BATCH_JOB_ARRAY_SIZE`).
pub(crate) const COUNT_ENV: &str = "BATCHGEN_SHARD_COUNT";

/// One shard: the `k`-th (1-based) of `n` slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    /// 1-based shard number, `1..=n`.
    pub k: u32,
    /// Number of shards, `1..=MAX_SHARDS`.
    pub n: u32,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// A shard value that cannot be used; the message names what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// `--shard` (or another source) is not `K/N` with `1 ≤ K ≤ N ≤ MAX_SHARDS`.
    #[error("invalid value '{value}' for '{source_name}': {why}")]
    Invalid {
        /// The flag or environment variable(s) the value came from.
        source_name: String,
        /// The value as given.
        value: String,
        /// What is wrong.
        why: String,
    },
    /// Two engines' variables are set at once.
    #[error(
        "the environment names two engines ({0} and {1}); say which shard this is with --shard K/N"
    )]
    Ambiguous(&'static str, &'static str),
    /// An engine gives an index but no count.
    #[error("{engine} sets {index_var}={index} but not the number of shards: give --shard-count N or set {COUNT_ENV}=N (or pass --shard K/N)")]
    NoCount {
        /// The engine's name.
        engine: &'static str,
        /// Its index variable.
        index_var: &'static str,
        /// The index value.
        index: String,
    },
    /// `--shard-count` given without an engine index to go with it.
    #[error("--shard-count {0} needs an engine's task index (JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX); none is set. Use --shard K/N")]
    CountWithoutIndex(String),
}

impl Shard {
    /// The whole range: shard 1 of 1.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Parse `K/N` (1-based), refusing `0/N`, `K>N`, `N=0`, `N>MAX_SHARDS` and anything that is
    /// not two whole numbers. `source_name` names the flag for the message.
    pub fn parse(source_name: &str, value: &str) -> Result<Shard, ShardError> {
        let bad = |why: &str| ShardError::Invalid {
            source_name: source_name.into(),
            value: value.into(),
            why: why.into(),
        };
        let (k, n) = value
            .split_once('/')
            .ok_or_else(|| bad("expected K/N, e.g. 3/16 (the 3rd of 16 shards, 1-based)"))?;
        // A number too large for u32 names the part it is (K or N): both are at most
        // MAX_SHARDS, so the message is that bound's, for the right letter.
        let num = |s: &str, which: &str| -> Result<u32, ShardError> {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad("expected K/N with whole numbers, e.g. 3/16"));
            }
            s.parse::<u32>().map_err(|_| {
                bad(&format!(
                    "{which} must be at most {MAX_SHARDS} (shards are 1/N … N/N, N at most \
                     {MAX_SHARDS})"
                ))
            })
        };
        let (k, n) = (num(k, "K")?, num(n, "N")?);
        Shard::new(k, n).map_err(|why| bad(&why))
    }

    /// A checked shard.
    pub fn new(k: u32, n: u32) -> Result<Shard, String> {
        if n == 0 {
            return Err("N must be at least 1".into());
        }
        if n > MAX_SHARDS {
            return Err(format!("N must be at most {MAX_SHARDS}"));
        }
        if k == 0 {
            return Err("K counts from 1 (shards are 1/N … N/N)".into());
        }
        if k > n {
            return Err(format!("K must be between 1 and N = {n}"));
        }
        Ok(Shard { k, n })
    }

    /// This shard's slice of `0..count`: `[⌊count·(K−1)/N⌋, ⌊count·K/N⌋)`.
    pub fn range(&self, count: u64) -> Range<u64> {
        let at = |j: u32| ((count as u128 * j as u128) / self.n as u128) as u64;
        at(self.k - 1)..at(self.k)
    }

    /// Every shard of `n`, in order.
    pub fn all(n: u32) -> impl Iterator<Item = Shard> {
        (1..=n).map(move |k| Shard { k, n })
    }
}

/// Where the shard came from (printed, and recorded in the file metadata).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// `--shard K/N`.
    Flag,
    /// A Slurm job array.
    Slurm(String),
    /// A Kubernetes Indexed Job.
    Kubernetes(String),
    /// An AWS Batch array job.
    AwsBatch(String),
}

impl Source {
    /// True when the shard came from an engine's environment, not from a flag.
    pub(crate) fn is_environment(&self) -> bool {
        !matches!(self, Source::Flag)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag => f.write_str("--shard"),
            Source::Slurm(d) => write!(f, "Slurm job array ({d})"),
            Source::Kubernetes(d) => write!(f, "Kubernetes Indexed Job ({d})"),
            Source::AwsBatch(d) => write!(f, "AWS Batch array job ({d})"),
        }
    }
}

fn env_num(
    env: &dyn Fn(&str) -> Option<String>,
    var: &'static str,
) -> Result<Option<u64>, ShardError> {
    match env(var) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .map(Some)
            .map_err(|_| ShardError::Invalid {
                source_name: var.into(),
                value: v.clone(),
                why: "expected a whole number ≥ 0".into(),
            }),
    }
}

/// Turn a 0-based engine index and a count into a shard, naming the variables on failure.
fn from_index(index: u64, count: u64, names: &str, shown: &str) -> Result<Shard, ShardError> {
    let bad = |why: String| ShardError::Invalid {
        source_name: names.into(),
        value: shown.into(),
        why,
    };
    if count == 0 || count > MAX_SHARDS as u64 {
        return Err(bad(format!(
            "the shard count must be between 1 and {MAX_SHARDS}"
        )));
    }
    if index >= count {
        return Err(bad(format!(
            "task index {index} is outside the {count} tasks (0..{count})"
        )));
    }
    Ok(Shard {
        k: index as u32 + 1,
        n: count as u32,
    })
}

/// Decide this process's shard. `flag` is `--shard`, `count_flag` is `--shard-count`, and `env`
/// looks up an environment variable. Returns `None` when nothing asks for sharding.
///
/// Rules: `--shard` wins over everything (and excludes `--shard-count`). Otherwise the engines:
/// - Slurm: `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT` (and
///   `SLURM_ARRAY_TASK_STEP`/`_MAX` when set): K = (ID − MIN)/STEP + 1, N = COUNT. A sparse
///   array (`--array=1,5,9`, where COUNT ≠ (MAX − MIN)/STEP + 1) is refused.
/// - Kubernetes: `JOB_COMPLETION_INDEX` (0-based); N from `--shard-count` or
///   `BATCHGEN_SHARD_COUNT` (Kubernetes does not export the completion count).
/// - AWS Batch: `AWS_BATCH_JOB_ARRAY_INDEX` (0-based); N from `AWS_BATCH_JOB_ARRAY_SIZE`, else
///   `--shard-count` / `BATCHGEN_SHARD_COUNT`.
/// - A count without an index (`BATCHGEN_SHARD_COUNT`, `AWS_BATCH_JOB_ARRAY_SIZE` or
///   `SLURM_ARRAY_TASK_COUNT` alone) is refused: every task would make the whole job.
pub fn resolve(
    flag: Option<&str>,
    count_flag: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<(Shard, Source)>, ShardError> {
    if let Some(f) = flag {
        if let Some(c) = count_flag {
            return Err(ShardError::Invalid {
                source_name: "--shard-count".into(),
                value: c.into(),
                why: "--shard K/N already gives the count; drop --shard-count".into(),
            });
        }
        return Ok(Some((Shard::parse("--shard", f)?, Source::Flag)));
    }
    let present: Vec<&'static str> = [
        ("Slurm", "SLURM_ARRAY_TASK_ID"),
        ("Kubernetes", "JOB_COMPLETION_INDEX"),
        ("AWS Batch", "AWS_BATCH_JOB_ARRAY_INDEX"),
    ]
    .iter()
    .filter(|(_, v)| env(v).is_some())
    .map(|(e, _)| *e)
    .collect();
    if present.len() > 1 {
        return Err(ShardError::Ambiguous(present[0], present[1]));
    }
    // The count for engines that do not export one.
    let given_count = || -> Result<Option<(u64, String)>, ShardError> {
        if let Some(c) = count_flag {
            let n = c.trim().parse::<u64>().map_err(|_| ShardError::Invalid {
                source_name: "--shard-count".into(),
                value: c.into(),
                why: "expected a whole number ≥ 1".into(),
            })?;
            return Ok(Some((n, format!("--shard-count {c}"))));
        }
        Ok(env_num(env, COUNT_ENV)?.map(|n| (n, format!("{COUNT_ENV}={n}"))))
    };
    match present.first().copied() {
        None => match (count_flag, env(COUNT_ENV)) {
            (Some(c), _) => Err(ShardError::CountWithoutIndex(c.into())),
            (None, Some(c)) => Err(ShardError::Invalid {
                source_name: COUNT_ENV.into(),
                value: c,
                why: "a shard count needs an engine's task index (JOB_COMPLETION_INDEX or \
                      AWS_BATCH_JOB_ARRAY_INDEX); none is set. Unset it or use --shard K/N"
                    .into(),
            }),
            (None, None) => {
                // An engine's array size without its task index: a run that looks sharded but
                // would make the whole job in every task. Refused, not ignored.
                for (size_var, index_var) in [
                    ("AWS_BATCH_JOB_ARRAY_SIZE", "AWS_BATCH_JOB_ARRAY_INDEX"),
                    ("SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_ID"),
                ] {
                    if let Some(v) = env(size_var) {
                        return Err(ShardError::Invalid {
                            source_name: size_var.into(),
                            value: v,
                            why: format!(
                                "an array size without the task index {index_var}: this run \
                                 would make the whole job, not one shard of it. Unset it or use \
                                 --shard K/N"
                            ),
                        });
                    }
                }
                Ok(None)
            }
        },
        Some("Slurm") => {
            if count_flag.is_some() {
                return Err(ShardError::Invalid {
                    source_name: "--shard-count".into(),
                    value: count_flag.unwrap_or_default().into(),
                    why: "Slurm exports the array size itself (SLURM_ARRAY_TASK_COUNT)".into(),
                });
            }
            let id = env_num(env, "SLURM_ARRAY_TASK_ID")?.unwrap_or(0);
            let min = env_num(env, "SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = env_num(env, "SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let count = env_num(env, "SLURM_ARRAY_TASK_COUNT")?.ok_or(ShardError::NoCount {
                engine: "Slurm",
                index_var: "SLURM_ARRAY_TASK_ID",
                index: id.to_string(),
            })?;
            let shown = format!(
                "SLURM_ARRAY_TASK_ID={id} SLURM_ARRAY_TASK_MIN={min} SLURM_ARRAY_TASK_COUNT={count}"
            );
            let names = "SLURM_ARRAY_TASK_ID/_MIN/_COUNT";
            let bad = |why: String| ShardError::Invalid {
                source_name: names.into(),
                value: shown.clone(),
                why,
            };
            if id < min || (id - min) % step != 0 {
                return Err(bad(format!(
                    "task {id} is not on the array's grid (min {min}, step {step})"
                )));
            }
            if let Some(max) = env_num(env, "SLURM_ARRAY_TASK_MAX")? {
                if max < min || (max - min) / step + 1 != count {
                    return Err(bad(format!(
                        "the array {min}-{max}:{step} is not a contiguous range of {count} tasks; \
                         submit with --array=0-{} (or pass --shard K/N)",
                        count.saturating_sub(1)
                    )));
                }
            }
            let shard = from_index((id - min) / step, count, names, &shown)?;
            Ok(Some((shard, Source::Slurm(shown))))
        }
        Some("Kubernetes") => {
            let index = env_num(env, "JOB_COMPLETION_INDEX")?.unwrap_or(0);
            let (count, how) = given_count()?.ok_or(ShardError::NoCount {
                engine: "Kubernetes",
                index_var: "JOB_COMPLETION_INDEX",
                index: index.to_string(),
            })?;
            let shown = format!("JOB_COMPLETION_INDEX={index}, {how}");
            let shard = from_index(index, count, "JOB_COMPLETION_INDEX", &shown)?;
            Ok(Some((shard, Source::Kubernetes(shown))))
        }
        Some(_) => {
            let index = env_num(env, "AWS_BATCH_JOB_ARRAY_INDEX")?.unwrap_or(0);
            let (count, how) = match env_num(env, "AWS_BATCH_JOB_ARRAY_SIZE")? {
                Some(n) => {
                    if let Some(c) = count_flag {
                        return Err(ShardError::Invalid {
                            source_name: "--shard-count".into(),
                            value: c.into(),
                            why: "AWS_BATCH_JOB_ARRAY_SIZE already gives the count".into(),
                        });
                    }
                    (n, format!("AWS_BATCH_JOB_ARRAY_SIZE={n}"))
                }
                None => given_count()?.ok_or(ShardError::NoCount {
                    engine: "AWS Batch",
                    index_var: "AWS_BATCH_JOB_ARRAY_INDEX",
                    index: index.to_string(),
                })?,
            };
            let shown = format!("AWS_BATCH_JOB_ARRAY_INDEX={index}, {how}");
            let shard = from_index(index, count, "AWS_BATCH_JOB_ARRAY_INDEX", &shown)?;
            Ok(Some((shard, Source::AwsBatch(shown))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn parse_accepts_k_of_n_and_refuses_the_rest() {
        assert_eq!(
            Shard::parse("--shard", "3/16").unwrap(),
            Shard { k: 3, n: 16 }
        );
        assert_eq!(Shard::parse("--shard", "1/1").unwrap(), Shard::WHOLE);
        for bad in [
            "0/4",
            "5/4",
            "1/0",
            "x",
            "",
            "3",
            "/4",
            "3/",
            "-1/4",
            "1/-4",
            "a/b",
            "1/100000",
            "+1/4",
            "1.0/4",
            "99999999999/4",
        ] {
            let e = Shard::parse("--shard", bad).unwrap_err().to_string();
            assert!(e.contains("--shard") && e.contains(bad), "{bad}: {e}");
        }
        // A K beyond u32 is named as K, not N.
        let e = Shard::parse("--shard", "18446744073709551615/2")
            .unwrap_err()
            .to_string();
        assert!(e.contains("K must be at most 99999"), "{e}");
        let e = Shard::parse("--shard", "1/18446744073709551615")
            .unwrap_err()
            .to_string();
        assert!(e.contains("N must be at most 99999"), "{e}");
    }

    /// Brute force: every index of 0..count is in exactly one shard, slices are in order and
    /// their sizes differ by at most one.
    #[test]
    fn ranges_are_disjoint_contiguous_and_cover() {
        for count in [0u64, 1, 2, 3, 7, 10, 64, 101, 1000] {
            for n in [1u32, 2, 3, 4, 7, 16, 100, 1001] {
                let mut owner = vec![0u32; count as usize];
                let mut next = 0;
                let mut sizes = Vec::new();
                for s in Shard::all(n) {
                    let r = s.range(count);
                    assert_eq!(r.start, next, "count {count} shard {s}");
                    next = r.end;
                    sizes.push(r.end - r.start);
                    for i in r {
                        owner[i as usize] += 1;
                    }
                }
                assert_eq!(next, count);
                assert!(owner.iter().all(|&o| o == 1));
                let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(hi - lo <= 1, "count {count} n {n}: {sizes:?}");
            }
        }
        // No overflow at the top of the range.
        let r = Shard {
            k: 99_999,
            n: 99_999,
        }
        .range(u64::MAX);
        assert_eq!(r.end, u64::MAX);
    }

    #[test]
    fn nothing_set_means_no_shard() {
        assert_eq!(resolve(None, None, &env(&[])).unwrap(), None);
        // Unrelated Slurm variables (a plain, non-array job) are not an array.
        assert_eq!(
            resolve(None, None, &env(&[("SLURM_JOB_ID", "7")])).unwrap(),
            None
        );
    }

    #[test]
    fn slurm_arrays() {
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "12"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_MAX", "25"),
            ("SLURM_ARRAY_TASK_COUNT", "16"),
        ]);
        let (s, src) = resolve(None, None, &e).unwrap().unwrap();
        assert_eq!(s, Shard { k: 3, n: 16 });
        assert!(matches!(src, Source::Slurm(_)));
        assert!(src.to_string().contains("SLURM_ARRAY_TASK_ID=12"));
        // Stepped array 0-30:10 → tasks 0,10,20,30.
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "20"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "30"),
            ("SLURM_ARRAY_TASK_STEP", "10"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(
            resolve(None, None, &e).unwrap().unwrap().0,
            Shard { k: 3, n: 4 }
        );
        // Sparse array --array=1,5,9: MIN 1, MAX 9, COUNT 3 → refused.
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        assert!(resolve(None, None, &e)
            .unwrap_err()
            .to_string()
            .contains("not a contiguous range"));
        // Index outside its count (no MAX to cross-check).
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        let msg = resolve(None, None, &e).unwrap_err().to_string();
        assert!(msg.contains("outside the 4 tasks"), "{msg}");
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert!(resolve(None, None, &e)
            .unwrap_err()
            .to_string()
            .contains("SLURM_ARRAY_TASK_ID"));
    }

    #[test]
    fn kubernetes_needs_a_count_from_flag_or_env() {
        let idx = [("JOB_COMPLETION_INDEX", "0")];
        let msg = resolve(None, None, &env(&idx)).unwrap_err().to_string();
        assert!(
            msg.contains("--shard-count") && msg.contains(COUNT_ENV),
            "{msg}"
        );
        let (s, src) = resolve(None, Some("8"), &env(&idx)).unwrap().unwrap();
        assert_eq!(s, Shard { k: 1, n: 8 });
        assert!(matches!(src, Source::Kubernetes(_)));
        let e = env(&[("JOB_COMPLETION_INDEX", "7"), (COUNT_ENV, "8")]);
        assert_eq!(
            resolve(None, None, &e).unwrap().unwrap().0,
            Shard { k: 8, n: 8 }
        );
        // The flag beats the env count.
        assert_eq!(
            resolve(None, Some("10"), &e).unwrap().unwrap().0,
            Shard { k: 8, n: 10 }
        );
        let e = env(&[("JOB_COMPLETION_INDEX", "8"), (COUNT_ENV, "8")]);
        assert!(resolve(None, None, &e)
            .unwrap_err()
            .to_string()
            .contains("outside"));
        let e = env(&[("JOB_COMPLETION_INDEX", "0"), (COUNT_ENV, "0")]);
        assert!(resolve(None, None, &e).is_err());
    }

    #[test]
    fn aws_batch() {
        let e = env(&[
            ("AWS_BATCH_JOB_ARRAY_INDEX", "2"),
            ("AWS_BATCH_JOB_ARRAY_SIZE", "5"),
        ]);
        let (s, src) = resolve(None, None, &e).unwrap().unwrap();
        assert_eq!(s, Shard { k: 3, n: 5 });
        assert!(matches!(src, Source::AwsBatch(_)));
        let e = env(&[("AWS_BATCH_JOB_ARRAY_INDEX", "2")]);
        assert!(resolve(None, None, &e).is_err());
        assert_eq!(
            resolve(None, Some("3"), &e).unwrap().unwrap().0,
            Shard { k: 3, n: 3 }
        );
    }

    #[test]
    fn a_count_without_an_index_names_the_variable() {
        let msg = resolve(None, None, &env(&[(COUNT_ENV, "4")]))
            .unwrap_err()
            .to_string();
        assert!(msg.contains(COUNT_ENV) && msg.contains("'4'"), "{msg}");
        // An index that is not a number (a non-UTF-8 value arrives as U+FFFD) names its variable.
        let e = env(&[("JOB_COMPLETION_INDEX", "\u{fffd}"), (COUNT_ENV, "4")]);
        let msg = resolve(None, None, &e).unwrap_err().to_string();
        assert!(msg.contains("JOB_COMPLETION_INDEX"), "{msg}");
        let e = env(&[("AWS_BATCH_JOB_ARRAY_INDEX", "x"), (COUNT_ENV, "4")]);
        let msg = resolve(None, None, &e).unwrap_err().to_string();
        assert!(msg.contains("AWS_BATCH_JOB_ARRAY_INDEX"), "{msg}");
    }

    #[test]
    fn the_flag_wins_and_conflicts_are_refused() {
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(
            resolve(Some("7/9"), None, &e).unwrap().unwrap(),
            (Shard { k: 7, n: 9 }, Source::Flag)
        );
        // Even a broken environment is ignored when the flag is given.
        let broken = env(&[
            ("JOB_COMPLETION_INDEX", "99"),
            ("AWS_BATCH_JOB_ARRAY_INDEX", "x"),
        ]);
        assert_eq!(resolve(Some("1/2"), None, &broken).unwrap().unwrap().0.k, 1);
        assert!(matches!(
            resolve(None, None, &broken).unwrap_err(),
            ShardError::Ambiguous(..)
        ));
        assert!(resolve(Some("1/2"), Some("2"), &env(&[])).is_err());
        assert!(matches!(
            resolve(None, Some("2"), &env(&[])).unwrap_err(),
            ShardError::CountWithoutIndex(_)
        ));
        assert!(resolve(None, Some("2"), &e).is_err());
    }
}
