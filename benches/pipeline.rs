//! The whole pipeline minus the disk: generate + measure through `batch::run` with 1 and 2
//! threads (the thread-scaling claim), and Parquet encoding of the resulting rows.
//!
//! Run: `cargo bench --bench pipeline`.

use std::hint::black_box;

use batchgen::accept::Accept;
use batchgen::batch::{self, Job, Row};
use batchgen::sink::{ParquetSink, RunInfo};
use batchgen::store::{Entry, StoreInfo, StoreWriter};
use batchgen::Algorithm;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const COUNT: u64 = 1024;

fn job(algo: Algorithm, side: u32) -> Job {
    Job::new(vec![algo], side, side, COUNT, 1)
}

fn generate_and_measure(c: &mut Criterion) {
    // Per core: every generator, one thread. Scaling: the first three with two threads too.
    for side in [20u32, 64] {
        let mut g = c.benchmark_group(format!("pipeline/{side}x{side}"));
        g.throughput(Throughput::Elements(COUNT));
        g.sample_size(10);
        for algo in Algorithm::all() {
            let threads: &[usize] = match algo {
                Algorithm::Backtracker | Algorithm::Kruskal | Algorithm::Wilson if side == 64 => {
                    &[1, 2]
                }
                _ => &[1],
            };
            for &threads in threads {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let j = job(algo, side);
                g.bench_function(BenchmarkId::new(algo.name(), format!("{threads}t")), |b| {
                    b.iter(|| {
                        let mut n = 0u64;
                        batch::run::<()>(&j, &pool, |c| {
                            n += c
                                .rows
                                .iter()
                                .map(|r| r.metrics.diameter as u64)
                                .sum::<u64>();
                            Ok(())
                        })
                        .unwrap();
                        black_box(n)
                    })
                });
            }
        }
        g.finish();
    }
}

/// Candidate throughput with and without an accept filter (the filter must cost < 10%).
fn accept_overhead(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut g = c.benchmark_group("accept/64x64/kruskal");
    g.throughput(Throughput::Elements(COUNT));
    g.sample_size(10);
    let filters = [
        ("none", None),
        ("pass_all", Some("dead_ends >= 0 || diameter > 1e9")),
        (
            "half",
            Some("dead_end_share <= 0.305 && solution_length >= 0"),
        ),
    ];
    for (name, expr) in filters {
        let mut j = job(Algorithm::Kruskal, 64);
        if let Some(e) = expr {
            j.accept = Some(Accept::parse(e).unwrap());
            j.max_candidates = COUNT;
        }
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut n = 0usize;
                batch::run::<()>(&j, &pool, |c| {
                    n += c.rows.len();
                    Ok(())
                })
                .unwrap();
                black_box(n)
            })
        });
    }
    g.finish();
}

fn parquet_encode(c: &mut Criterion) {
    let rows: Vec<Row> = (0..65_536u64)
        .map(|i| Row {
            index: i,
            maze_seed: batchgen::rng::splitmix64(i),
            gen_ns: 20_000 + i % 977,
            metrics: batchgen::Metrics {
                dead_ends: (i % 1200) as u32,
                dead_end_share: (i % 1200) as f64 / 4096.0,
                diameter: (i % 900) as u32,
                maze_hash: batchgen::rng::splitmix64(!i),
                ..Default::default()
            },
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let mut g = c.benchmark_group("parquet");
    g.throughput(Throughput::Elements(rows.len() as u64));
    g.sample_size(10);
    g.bench_function("write_65536_rows", |b| {
        b.iter(|| {
            let path = dir.path().join("bench.parquet");
            let mut sink = ParquetSink::create(&path, &RunInfo::default()).unwrap();
            sink.write("kruskal", batchgen::grid::Size::planar(64, 64), 1, &rows)
                .unwrap();
            black_box(sink.finish().unwrap())
        })
    });
    g.finish();
}

/// Raw maze-store write speed (records of 64×64 mazes through the buffered writer, fsync and
/// rename included), to compare with the disk's own sequential write speed.
fn store_write(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let walls = vec![0x5555_5555_5555_5555u64; 128];
    let records = 20_000u64;
    let mut g = c.benchmark_group("store");
    // Per record: 60 bytes of identifiers and ends, then the walls.
    g.throughput(Throughput::Bytes(records * (60 + 8 * 128)));
    g.sample_size(10);
    g.bench_function("write_20000_records_64x64", |b| {
        b.iter(|| {
            let path = dir.path().join("bench.arrow");
            let info = StoreInfo {
                width: 64,
                height: 64,
                depth: 1,
                seed: 1,
                algos: vec!["kruskal".to_string()],
                ends_rule: "corners".into(),
                mask: None,
                braid: 0.0,
            };
            let mut w = StoreWriter::create(&path, &info).unwrap();
            for i in 0..records {
                w.append(Entry {
                    algo: 0,
                    index: i,
                    maze_seed: i,
                    maze_hash: i,
                    entrance: 0,
                    exit: 4095,
                    loops: 0,
                    walls: &walls,
                })
                .unwrap();
            }
            black_box(w.finish().unwrap())
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    generate_and_measure,
    accept_overhead,
    parquet_encode,
    store_write
);
criterion_main!(benches);
