//! What the Parquet writer costs the workers: the same job through `batch::run` with a callback
//! that does nothing, with one that writes every chunk to a Parquet file (on the calling
//! thread, as the program does), and with one that sleeps 40 ms per chunk (a slow disk: it
//! takes no CPU, so the figure does not depend on how busy the machine's cores are), on 1, 2,
//! 4 and 8 threads. The difference of a callback's wall time and the no-op's is the time that
//! callback adds to the run, i.e. the time the workers spend waiting on it; beside it the time
//! spent inside the writer. Runs alternate (no-op, writer, sleeper) and the medians are
//! printed.
//!
//! Run: `cargo bench --bench writer_wait [-- ALGO SIZE COUNT REPS]`, defaults
//! `kruskal 64 20000 3` (a 64×64 job of five 4,096-maze chunks).

use std::time::{Duration, Instant};

use batchgen::batch::{self, Job};
use batchgen::sink::{ParquetSink, RunInfo};
use batchgen::Algorithm;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; keep the other arguments.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
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
        "{} {side}x{side}, {count} mazes, median of {reps} (wall ms): no-op callback, Parquet \
         writer, writer - no-op (the workers' wait), time inside the writer, the 40 ms sleeper, \
         sleeper - no-op, time inside the sleeper",
        algo.name()
    );
    println!(
        "{:>7} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "threads", "no-op", "writer", "wait", "in writer", "sleeper", "wait", "in sleeper"
    );
    for threads in [1usize, 2, 4, 8] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (mut noop, mut writer, mut inside) = (Vec::new(), Vec::new(), Vec::new());
        let (mut sleeper, mut slept) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            let t = Instant::now();
            batch::run::<()>(&job, &pool, |c| {
                std::hint::black_box(c.rows.len());
                Ok(())
            })
            .unwrap();
            noop.push(t.elapsed());

            let path = dir.path().join("wait.parquet");
            let mut in_writer = Duration::ZERO;
            let t = Instant::now();
            let mut sink = ParquetSink::create(&path, &RunInfo::default()).unwrap();
            let name = algo.name();
            batch::run(&job, &pool, |c| {
                let w = Instant::now();
                let r = sink.write(&name, job.size, job.seed, c.rows);
                in_writer += w.elapsed();
                r
            })
            .unwrap();
            let w = Instant::now();
            sink.finish().unwrap();
            in_writer += w.elapsed();
            writer.push(t.elapsed());
            inside.push(in_writer);

            let mut in_sleep = Duration::ZERO;
            let t = Instant::now();
            batch::run::<()>(&job, &pool, |_| {
                let w = Instant::now();
                std::thread::sleep(Duration::from_millis(40));
                in_sleep += w.elapsed();
                Ok(())
            })
            .unwrap();
            sleeper.push(t.elapsed());
            slept.push(in_sleep);
        }
        let (n, w) = (median(noop), median(writer));
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let z = median(sleeper);
        println!(
            "{threads:>7} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1}",
            ms(n),
            ms(w),
            ms(w) - ms(n),
            ms(median(inside)),
            ms(z),
            ms(z) - ms(n),
            ms(median(slept))
        );
    }
}
