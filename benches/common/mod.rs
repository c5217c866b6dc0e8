//! What the hand-timed benches (`floors`, `draws`, `masks`) share: their environment knobs and the
//! median-of-rounds timer, so each bench file holds only what it measures.
//!
//! Environment: `METRICS_BENCH_ROUNDS` (default 31) rounds, `METRICS_BENCH_MS` (default 20)
//! target milliseconds per round (the same knobs as `benches/metrics.rs`).

use std::time::Instant;

/// An unsigned environment variable, or `default` when it is unset or not a number.
pub fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The command line's filters (arguments not starting with `--`); a name is selected when there
/// are none or one of them is a substring of it.
pub struct Filter(Vec<String>);

impl Filter {
    /// The filters of this process's command line.
    pub fn from_args() -> Filter {
        Filter(
            std::env::args()
                .skip(1)
                .filter(|a| !a.starts_with("--"))
                .collect(),
        )
    }

    /// Whether `name` is selected.
    pub fn selects(&self, name: &str) -> bool {
        self.0.is_empty() || self.0.iter().any(|f| name.contains(f.as_str()))
    }
}

/// Median nanoseconds per item of `f` run over items `0..items`: one untimed pass sizes a round
/// to about `METRICS_BENCH_MS`, then `METRICS_BENCH_ROUNDS` rounds are timed.
pub fn median_ns_per_item(items: usize, f: &mut dyn FnMut(usize)) -> f64 {
    let rounds = env("METRICS_BENCH_ROUNDS", 31).max(1);
    let target_ns = env("METRICS_BENCH_MS", 20) * 1_000_000;
    let t = Instant::now();
    (0..items).for_each(&mut *f);
    let once = t.elapsed().as_nanos().max(1) as u64;
    let passes = (target_ns / once).max(1);
    let mut per_item: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..passes {
                (0..items).for_each(&mut *f);
            }
            t.elapsed().as_nanos() as f64 / (passes * items as u64) as f64
        })
        .collect();
    per_item.sort_by(|x, y| x.partial_cmp(y).unwrap());
    per_item[(per_item.len() - 1) / 2]
}
