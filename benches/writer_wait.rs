//! What the Parquet writer costs the workers: the same job through `batch::run_timed` with a
//! callback that does nothing, with one that writes every chunk to a Parquet file (on the
//! calling thread, as the program does), and with one that sleeps 40 ms per chunk (a slow disk:
//! it takes no CPU, so the figure does not depend on how busy the machine's cores are), on 1, 2,
//! 4 and 8 threads. Two measures of the workers' wait: the difference of a callback's wall time
//! and the no-op's (the time that callback adds to the run), and the workers' idle share as
//! `run_timed` counts it (the workers' time not spent making mazes, over workers × wall; on 4
//! and 8 threads of a 2-core machine the workers also wait for a core, which counts as busy).
//! Beside them the time spent inside the writer. Runs alternate (no-op, writer, sleeper) and the
//! medians are printed.
//!
//! Run: `cargo bench --bench writer_wait [-- ALGO SIZE COUNT REPS]`, defaults
//! `kruskal 64 20000 3` (a 64×64 job of five 4,096-maze chunks).
//!
//! `cargo bench --bench writer_wait -- costs [SIZE COUNT]` (defaults `64 2000`) measures the
//! inputs of a many-core projection instead: each generator's CPU µs per maze (generation and
//! metrics, one worker, the no-op callback: the process's CPU time over the mazes), the Parquet
//! writer's CPU µs per row (the writer thread's CPU time inside `write` and `finish`), the chunk and
//! block sizes; then it projects the main job's shape (every generator, 1,000,000 mazes each)
//! onto 16 and 64 cores and prints the arithmetic.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use batchgen::batch::{self, Job, Waits};
use batchgen::sink::{ParquetSink, RunInfo};
use batchgen::Algorithm;

fn median<T: PartialOrd + Copy>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// The workers' idle share of a timed run, percent.
fn idle_pct(w: &Waits) -> f64 {
    100.0 * w.worker_idle.as_secs_f64() / (w.wall.as_secs_f64() * w.workers as f64)
}

/// CPU time (user + system) of this process so far.
fn cpu() -> Duration {
    // SAFETY: getrusage writes one `rusage` into the zeroed value it is given.
    let u = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let t = |v: libc::timeval| Duration::new(v.tv_sec as u64, v.tv_usec as u32 * 1000);
    t(u.ru_utime) + t(u.ru_stime)
}

/// CPU time of the calling thread so far.
fn thread_cpu() -> Duration {
    // SAFETY: clock_gettime writes one `timespec` into the zeroed value it is given.
    let t = unsafe {
        let mut t: libc::timespec = std::mem::zeroed();
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t);
        t
    };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Run `job` on `pool` writing Parquet into `dir` (or into nothing); returns the timings.
fn run(job: &Job, pool: &rayon::ThreadPool, dir: Option<&std::path::Path>) -> Waits {
    let mut waits = Waits::default();
    let stop = AtomicBool::new(false);
    match dir {
        None => {
            batch::run_timed::<()>(job, pool, &stop, &mut waits, |c| {
                std::hint::black_box(c.rows.len());
                Ok(())
            })
            .unwrap();
        }
        Some(dir) => {
            let path = dir.join("wait.parquet");
            let mut sink = ParquetSink::create(&path, &RunInfo::default()).unwrap();
            // The writer's own CPU time (it runs on this thread), kept in `caller_idle`'s stead.
            let mut cpu = Duration::ZERO;
            batch::run_timed(job, pool, &stop, &mut waits, |c| {
                let t = thread_cpu();
                let r = sink.write(&c.algo.name(), job.size, job.seed, c.rows);
                cpu += thread_cpu() - t;
                r
            })
            .unwrap();
            let (w, t) = (Instant::now(), thread_cpu());
            sink.finish().unwrap();
            waits.caller_busy += w.elapsed();
            waits.caller_idle = cpu + (thread_cpu() - t);
        }
    }
    waits
}

fn main() {
    // `cargo bench` passes `--bench`; keep the other arguments.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("costs") {
        return costs(&args[1..]);
    }
    let algo: Algorithm = args
        .first()
        .map_or("kruskal", |s| s.as_str())
        .parse()
        .expect("ALGO: a generator name");
    let side: u32 = args.get(1).map_or(64, |s| s.parse().expect("SIZE"));
    let count: u64 = args.get(2).map_or(20_000, |s| s.parse().expect("COUNT"));
    let reps: usize = args.get(3).map_or(3, |s| s.parse().expect("REPS"));
    let job = Job::new(vec![algo], side, side, count, 1);
    let dir = tempfile::tempdir().unwrap();
    println!(
        "{} {side}x{side}, {count} mazes, median of {reps}: wall ms of the no-op callback, the \
         Parquet writer, writer - no-op (the time it adds), ms inside the writer, the 40 ms \
         sleeper, sleeper - no-op, ms inside the sleeper; the workers' idle share (%) with each",
        algo.name()
    );
    println!(
        "{:>7} {:>8} {:>8} {:>7} {:>9} {:>8} {:>7} {:>10} {:>7} {:>7} {:>7}",
        "threads",
        "no-op",
        "writer",
        "adds",
        "in writer",
        "sleeper",
        "adds",
        "in sleeper",
        "idle%0",
        "idle%w",
        "idle%s"
    );
    for threads in [1usize, 2, 4, 8] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (mut noop, mut writer, mut sleeper) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..reps {
            noop.push(run(&job, &pool, None));
            writer.push(run(&job, &pool, Some(dir.path())));
            let mut waits = Waits::default();
            let stop = AtomicBool::new(false);
            batch::run_timed::<()>(&job, &pool, &stop, &mut waits, |_| {
                std::thread::sleep(Duration::from_millis(40));
                Ok(())
            })
            .unwrap();
            sleeper.push(waits);
        }
        let ms = |v: &[Waits], f: fn(&Waits) -> Duration| {
            median(v.iter().map(|w| f(w).as_secs_f64() * 1e3).collect())
        };
        let idle = |v: &[Waits]| median(v.iter().map(idle_pct).collect());
        let (n, w, z) = (
            ms(&noop, |w| w.wall),
            ms(&writer, |w| w.wall),
            ms(&sleeper, |w| w.wall),
        );
        println!(
            "{threads:>7} {n:>8.1} {w:>8.1} {:>7.1} {:>9.1} {z:>8.1} {:>7.1} {:>10.1} {:>7.1} {:>7.1} {:>7.1}",
            w - n,
            ms(&writer, |w| w.caller_busy),
            z - n,
            ms(&sleeper, |w| w.caller_busy),
            idle(&noop),
            idle(&writer),
            idle(&sleeper)
        );
    }
}

/// The inputs of the many-core projection, and the projection.
fn costs(args: &[String]) {
    let side: u32 = args.first().map_or(64, |s| s.parse().expect("SIZE"));
    let count: u64 = args.get(1).map_or(2000, |s| s.parse().expect("COUNT"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cells = u64::from(side) * u64::from(side);
    println!(
        "{side}x{side}, {count} mazes per generator, one worker, median of 3 (CPU µs per maze: \
         generation + metrics with a no-op callback; the Parquet writer's CPU µs per row)"
    );
    println!("{:<22} {:>10} {:>10}", "generator", "gen+metr", "writer");
    let (mut gen_sum, mut writer_sum) = (0.0, 0.0);
    let algos = Algorithm::all();
    for algo in &algos {
        let job = Job::new(vec![*algo], side, side, count, 1);
        let (mut plain, mut written) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            let t = cpu();
            run(&job, &pool, None);
            plain.push((cpu() - t).as_secs_f64() * 1e6 / count as f64);
            let w = run(&job, &pool, Some(dir.path()));
            written.push(w.caller_idle.as_secs_f64() * 1e6 / count as f64);
        }
        let (g, w) = (median(plain), median(written));
        println!("{:<22} {g:>10.1} {w:>10.2}", algo.name());
        gen_sum += g;
        writer_sum += w;
    }
    let n = algos.len() as f64;
    let (c, w) = (gen_sum / n, writer_sum / n);
    println!(
        "mean over {} generators: c = {c:.1} µs per maze, w = {w:.2} µs per row",
        n
    );
    let rows = 1_000_000.0 * n;
    println!(
        "projection for {} x 1,000,000 mazes of {side}x{side}, N cores, N workers + the writer \
         thread, {} chunks in flight:",
        n,
        batch::CHUNKS_IN_FLIGHT
    );
    for cores in [16usize, 64] {
        let chunk = batch::chunk_len(cells, cores);
        let block = (chunk / (4 * cores as u64)).clamp(1, 64);
        let fill = chunk as f64 * c / cores as f64;
        let write = chunk as f64 * w;
        // Every row costs c + w of CPU over the N cores, and the one writer thread w.
        let by_cpu = rows * (c + w) / cores as f64 / 1e6;
        let by_writer = rows * w / 1e6;
        println!(
            "  N = {cores}: chunk {chunk} mazes, block {block}; a chunk fills in {chunk} x {c:.1} / \
             {cores} = {:.1} ms, is written in {chunk} x {w:.2} = {:.1} ms; CPU bound {rows:.0} x \
             ({c:.1} + {w:.2}) / {cores} = {by_cpu:.0} s, writer bound {rows:.0} x {w:.2} = \
             {by_writer:.0} s; wall ~ {:.0} s, writer busy {:.0}%",
            fill / 1e3,
            write / 1e3,
            by_cpu.max(by_writer),
            100.0 * by_writer / by_cpu.max(by_writer)
        );
    }
}
