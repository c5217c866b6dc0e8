//! The main job's progress on a terminal and its closing per-generator table.
//!
//! The bar names the generator being made and its position (`3/14 wilson`), the mazes done,
//! the current generator's rate rounded with thousands separators (`7,959/s`) and an ETA.
//!
//! **ETA.** Generators differ up to 40× in speed, so the rate of the mazes made so far says
//! little about the generators still to come. Before the run (only when the bar is shown) each
//! generator is *calibrated*: it makes and measures a few mazes of the run's size (on the run's
//! grid: hex, triangle and polar runs use their own generators and measures) on one thread
//! (until [`CALIBRATION_BUDGET`] has passed, at least one maze; the generators are calibrated in
//! parallel, about 0.1 s in all at 64×64). That gives each generator a cost per maze relative to
//! the others. During the run, the remaining time is
//!
//! * for the current generator: its mazes still to make ÷ its own rate so far (once a chunk of
//!   it is done; before that, as for the ones to come), plus
//! * for each generator still to come: its mazes × its calibrated cost × the run's scale,
//!   where the scale is the wall time spent so far ÷ the calibrated cost of the candidates made
//!   so far (it absorbs the thread count and the measurement's share).
//!
//! With `--accept`, a generator's remaining candidates are its remaining mazes ÷ its acceptance
//! rate so far (the run's rate so far for one not yet started). Grids over
//! [`CALIBRATION_MAX_CELLS`] cells are not calibrated (one maze alone could take seconds): the
//! generators to come are then estimated at the mean cost per candidate seen so far.
//!
//! **Time per generator.** The workers make chunks ahead of the writer (up to
//! [`batchgen::batch::CHUNKS_IN_FLIGHT`] at once, of several generators when mazes are small), so
//! the time between two chunks' arrivals says little about what either cost. A generator's time
//! (in the bar's rate and the closing table) is the run's wall time so far shared out among the
//! generators in proportion to the workers' time on their chunks
//! ([`batchgen::batch::Chunk::busy`]): the times add up to the run's.
//!
//! The bar is updated once per chunk (tens of milliseconds of work) and redrawn by indicatif's
//! own ticker at most five times a second, so drawing costs the run nothing measurable. It is
//! not shown with `--quiet` or when stderr is not a terminal; the closing table is printed to
//! stderr unless `--quiet`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use batchgen::batch::Worker;
use batchgen::grid::Size;
use batchgen::thousands::thousands;
use batchgen::{Algorithm, Ends};

/// Wall time spent calibrating each generator (at least one maze is made).
pub const CALIBRATION_BUDGET: Duration = Duration::from_millis(15);
/// Largest grid that is calibrated before the run.
pub const CALIBRATION_MAX_CELLS: u64 = 1 << 20;

/// What the run made of one generator.
#[derive(Clone, Debug, Default)]
pub struct GenStats {
    /// Canonical name.
    pub name: String,
    /// Mazes written (accepted ones with `--accept`).
    pub mazes: u64,
    /// Candidates generated and measured.
    pub candidates: u64,
    /// Wall-clock seconds spent on it: the run's time so far shared out among the generators
    /// in proportion to `busy` (see the module docs).
    pub seconds: f64,
    /// The workers' seconds spent making, measuring and copying its candidates, summed over
    /// the workers.
    pub busy: f64,
    /// Its own Parquet part file and size (dataset folders).
    pub out: Option<(PathBuf, u64)>,
    /// Its own maze store part file and size (dataset folders).
    pub store: Option<(PathBuf, u64)>,
}

impl GenStats {
    /// Mazes per second (0 when no time was measured).
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.mazes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Progress of the main job: the bar and the per-generator statistics.
pub struct Progress {
    bar: ProgressBar,
    stats: Vec<GenStats>,
    /// Mazes per generator wanted (this shard's slice).
    per_gen: u64,
    /// Calibrated seconds per candidate (one thread), when calibrated.
    cost: Option<Vec<f64>>,
    started: Instant,
    current: usize,
    accept: bool,
}

/// Round a rate for people: `7958.68` → `7,959`; below 10 per second two significant digits
/// (`0.35`), so that one slow maze does not read `0`.
pub fn rate_text(per_second: f64) -> String {
    let r = per_second.max(0.0);
    if r > 0.0 && r < 9.5 {
        return batchgen::summary::report::sig(r, 2);
    }
    thousands(r.round() as u64)
}

/// `1 maze`, `2 mazes`, `1,400,000 mazes`: a count with thousands separators and the noun in
/// the right number (`noun` is singular; the plural adds `s`).
pub fn plural(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// Seconds for people: `59 s`, `12m 03s`, `1h 05m`.
pub fn eta_text(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.max(0.0).round() as u64;
    if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        format!("{}m {:02}s", s / 60, s % 60)
    } else {
        format!("{}h {:02}m", s / 3600, (s % 3600) / 60)
    }
}

/// Seconds per candidate of each generator on one thread (see the module docs).
/// On a hex, triangle or polar grid (`grid`), the grid's own generators and measures.
pub fn calibrate(
    algos: &[Algorithm],
    size: Size,
    seed: u64,
    ends: Ends,
    grid: Option<&batchgen::batch::GraphJob>,
    pool: &rayon::ThreadPool,
) -> Vec<f64> {
    pool.install(|| {
        algos
            .par_iter()
            .map(|a| {
                let (mut w, base) = match grid {
                    None => (
                        Worker::sized(size),
                        batchgen::generate::seed_base(a, size, seed),
                    ),
                    Some(g) => (
                        Worker::on_grid(g),
                        batchgen::topo::seed_base(seed, &a.name(), g.size),
                    ),
                };
                let t = Instant::now();
                let mut n = 0u64;
                loop {
                    // Indices from the top of the range: the run's own mazes stay uncounted.
                    std::hint::black_box(w.row(
                        a,
                        base,
                        u64::MAX - n,
                        ends,
                        batchgen::Chance::new(0.0),
                    ));
                    n += 1;
                    if t.elapsed() >= CALIBRATION_BUDGET || n >= 10_000 {
                        break;
                    }
                }
                t.elapsed().as_secs_f64() / n as f64
            })
            .collect()
    })
}

impl Progress {
    /// Progress of `names` (in run order), `per_gen` mazes each. `cost`: calibrated seconds
    /// per candidate, when calibrated. `show`: draw a bar (callers pass `!quiet`; the bar also
    /// needs stderr to be a terminal).
    pub fn new(
        names: &[String],
        per_gen: u64,
        cost: Option<Vec<f64>>,
        accept: bool,
        show: bool,
    ) -> Progress {
        let total = per_gen * names.len() as u64;
        let bar = if show && std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(
                // `wide_msg` is cut to the terminal's width: the bar never wraps onto a second line.
                ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {wide_msg}")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        } else {
            ProgressBar::hidden()
        };
        let now = Instant::now();
        let mut p = Progress {
            bar,
            stats: names
                .iter()
                .map(|n| GenStats {
                    name: n.clone(),
                    ..GenStats::default()
                })
                .collect(),
            per_gen,
            cost,
            started: now,
            current: 0,
            accept,
        };
        p.redraw();
        p
    }

    /// A chunk of generator `pos` is done: `rows` more mazes, `candidates` tried so far, and
    /// `busy`, the workers' time spent on the chunk ([`batchgen::batch::Chunk::busy`]).
    pub fn chunk(&mut self, pos: usize, rows: u64, candidates: u64, busy: Duration) {
        let s = &mut self.stats[pos];
        s.mazes += rows;
        s.candidates = candidates;
        s.busy += busy.as_secs_f64();
        self.current = if s.mazes >= self.per_gen {
            (pos + 1).min(self.stats.len().saturating_sub(1))
        } else {
            pos
        };
        self.share(self.started.elapsed().as_secs_f64());
        self.bar
            .set_position(self.stats.iter().map(|s| s.mazes).sum());
        if !self.bar.is_hidden() {
            self.redraw();
        }
    }

    /// Share `elapsed` seconds out among the generators in proportion to their busy time (after
    /// each chunk, the run's time so far; at the end, the whole run's, completing the files
    /// included, so that the times add up to the total).
    pub fn share(&mut self, elapsed: f64) {
        let busy: f64 = self.stats.iter().map(|s| s.busy).sum();
        if busy > 0.0 {
            for s in &mut self.stats {
                s.seconds = elapsed * s.busy / busy;
            }
        }
    }

    /// Seconds still to go (see the module docs); infinite when nothing is known yet.
    pub fn eta(&self) -> f64 {
        let cand: u64 = self.stats.iter().map(|s| s.candidates).sum();
        let mazes: u64 = self.stats.iter().map(|s| s.mazes).sum();
        let spent: f64 = self.stats.iter().map(|s| s.seconds).sum();
        let run_acceptance = if cand > 0 {
            (mazes as f64 / cand as f64).max(1e-9)
        } else {
            1.0
        };
        // The calibrated cost of what was made so far, and the time it actually took.
        let cost_done: f64 = match &self.cost {
            Some(c) => self
                .stats
                .iter()
                .zip(c)
                .map(|(s, c)| s.candidates as f64 * c)
                .sum(),
            None => cand as f64,
        };
        let scale = if cost_done > 0.0 && spent > 0.0 {
            spent / cost_done
        } else if self.cost.is_some() {
            1.0 / rayon::current_num_threads().max(1) as f64
        } else {
            return f64::INFINITY;
        };
        let mut left = 0.0;
        for (i, s) in self.stats.iter().enumerate() {
            let want = self.per_gen.saturating_sub(s.mazes) as f64;
            if want == 0.0 {
                continue;
            }
            if i == self.current && s.mazes > 0 && s.seconds > 0.0 {
                left += want / s.rate();
                continue;
            }
            let acceptance = if !self.accept {
                1.0
            } else if s.candidates > 0 {
                (s.mazes as f64 / s.candidates as f64).max(1e-9)
            } else {
                run_acceptance
            };
            let unit = self.cost.as_ref().map_or(1.0, |c| c[i]);
            left += want / acceptance * unit * scale;
        }
        left
    }

    fn redraw(&mut self) {
        let s = &self.stats[self.current];
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = if s.seconds > 0.0 {
            s.rate()
        } else {
            let done: u64 = self.stats.iter().map(|s| s.mazes).sum();
            done as f64 / elapsed.max(1e-9)
        };
        let done: u64 = self.stats.iter().map(|s| s.mazes).sum();
        let mut msg = format!(
            "{}/{} {}  {}/{}  {}/s  ETA {}",
            self.current + 1,
            self.stats.len(),
            s.name,
            thousands(done),
            thousands(self.per_gen * self.stats.len() as u64),
            rate_text(rate),
            eta_text(self.eta())
        );
        if self.accept {
            msg += &format!("  ({} candidates)", thousands(s.candidates));
        }
        self.bar.set_message(msg);
    }
    /// Clear the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// The statistics so far.
    pub fn stats(&self) -> &[GenStats] {
        &self.stats
    }

    /// The statistics, to fill in the file sizes.
    pub fn stats_mut(&mut self) -> &mut [GenStats] {
        &mut self.stats
    }
}

/// The closing table: one line per generator (mazes, time, mazes/s, and with `--accept`
/// candidates; its own file sizes when each generator has its own file), then a total line.
pub fn table(stats: &[GenStats], total_seconds: f64, accept: bool) -> String {
    let nw = stats
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max("generator".len());
    let files = stats.iter().any(|s| s.out.is_some());
    let stores = stats.iter().any(|s| s.store.is_some());
    let mut head = format!(
        "{:nw$}  {:>11}  {:>8}  {:>10}",
        "generator", "mazes", "time", "mazes/s"
    );
    if accept {
        head += &format!("  {:>12}", "candidates");
    }
    if files {
        head += &format!("  {:>9}", "file");
    }
    if stores {
        head += &format!("  {:>9}", "store");
    }
    let mut out = head.trim_end().to_string() + "\n";
    let line =
        |name: &str, mazes: u64, cand: u64, secs: f64, file: Option<u64>, store: Option<u64>| {
            let rate = if secs > 0.0 { mazes as f64 / secs } else { 0.0 };
            let mut l = format!(
                "{name:nw$}  {:>11}  {:>8}  {:>10}",
                thousands(mazes),
                format!("{secs:.2} s"),
                rate_text(rate)
            );
            if accept {
                l += &format!("  {:>12}", thousands(cand));
            }
            if files {
                l += &format!("  {:>9}", file.map_or(String::new(), human_bytes));
            }
            if stores {
                l += &format!("  {:>9}", store.map_or(String::new(), human_bytes));
            }
            l.trim_end().to_string() + "\n"
        };
    for s in stats {
        out += &line(
            &s.name,
            s.mazes,
            s.candidates,
            s.seconds,
            s.out.as_ref().map(|o| o.1),
            s.store.as_ref().map(|o| o.1),
        );
    }
    if stats.len() > 1 {
        let sum = |f: &dyn Fn(&GenStats) -> Option<u64>| -> Option<u64> {
            stats.iter().map(f).sum::<Option<u64>>()
        };
        out += &line(
            "total",
            stats.iter().map(|s| s.mazes).sum(),
            stats.iter().map(|s| s.candidates).sum(),
            total_seconds,
            sum(&|s| s.out.as_ref().map(|o| o.1)),
            sum(&|s| s.store.as_ref().map(|o| o.1)),
        );
    }
    out
}

/// `1234567` → `1.2 MB` (whole bytes below a kilobyte: `512 B`).
pub fn human_bytes(b: u64) -> String {
    if b < 1000 {
        format!("{b} B")
    } else {
        batchgen::memory::human(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_rates_for_people() {
        assert_eq!(plural(1, "maze"), "1 maze");
        assert_eq!(plural(0, "maze"), "0 mazes");
        assert_eq!(plural(1_400_000, "maze"), "1,400,000 mazes");
        assert_eq!(plural(1, "part file"), "1 part file");
        assert_eq!(rate_text(0.346), "0.35");
        assert_eq!(rate_text(7958.68), "7,959");
        assert_eq!(rate_text(0.0), "0");
    }

    #[test]
    fn rates_and_etas_read_well() {
        assert_eq!(rate_text(7958.6788), "7,959");
        assert_eq!(rate_text(0.4), "0.4");
        assert_eq!(eta_text(59.4), "59s");
        assert_eq!(eta_text(723.0), "12m 03s");
        assert_eq!(eta_text(3900.0), "1h 05m");
        assert_eq!(eta_text(f64::INFINITY), "?");
    }

    #[test]
    fn eta_counts_the_slow_generators_still_to_come() {
        // Two generators; the second costs 40 times the first per maze.
        let names = vec!["fast".to_string(), "slow".to_string()];
        let mut p = Progress::new(&names, 100, Some(vec![1e-5, 4e-4]), false, false);
        // Pretend the first half of "fast" took 0.5 ms.
        p.stats[0].mazes = 50;
        p.stats[0].candidates = 50;
        p.stats[0].seconds = 5e-4;
        // fast: 50 more at 1e5/s = 0.5 ms; slow: 100 × 4e-4 × (5e-4 / 5e-4) = 40 ms.
        let eta = p.eta();
        assert!((eta - 0.0405).abs() < 1e-9, "{eta}");
    }

    /// Chunks are made ahead of the writer, several generators' at once when mazes are small:
    /// each generator's time is its share of the run's by the workers' time on its chunks, not
    /// the time between chunk arrivals (which gives a cheap generator made meanwhile none).
    #[test]
    fn time_is_shared_by_the_workers_time() {
        let names = vec!["slow".to_string(), "cheap".to_string(), "later".to_string()];
        let mut p = Progress::new(&names, 100, None, false, false);
        p.chunk(0, 100, 100, Duration::from_millis(300));
        p.chunk(1, 100, 100, Duration::from_millis(100));
        p.share(2.0);
        let secs: Vec<f64> = p.stats().iter().map(|s| s.seconds).collect();
        assert!(
            (secs[0] - 1.5).abs() < 1e-12 && (secs[1] - 0.5).abs() < 1e-12,
            "{secs:?}"
        );
        assert_eq!(secs[2], 0.0);
        assert!((p.stats()[1].rate() - 200.0).abs() < 1e-9);
    }

    #[test]
    fn table_has_one_line_per_generator_and_a_total() {
        let stats = vec![
            GenStats {
                name: "wilson".into(),
                mazes: 1000,
                candidates: 1000,
                seconds: 0.5,
                busy: 0.9,
                out: Some(("a".into(), 12_300)),
                store: None,
            },
            GenStats {
                name: "kruskal".into(),
                mazes: 1000,
                candidates: 1000,
                seconds: 0.25,
                busy: 0.45,
                out: Some(("b".into(), 1_000)),
                store: None,
            },
        ];
        let t = table(&stats, 0.75, false);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4, "{t}");
        assert!(lines[0].starts_with("generator") && lines[0].ends_with("file"));
        assert!(
            lines[1].contains("wilson")
                && lines[1].contains("2,000")
                && lines[1].contains("12.3 kB")
        );
        assert!(
            lines[3].starts_with("total")
                && lines[3].contains("2,000")
                && lines[3].contains("13.3 kB")
        );
    }
}
