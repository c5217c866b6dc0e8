//! Accept filter evaluation per row: the compiled filter run over the metric rows of real
//! mazes, for a plain filter, a SQL-shaped one (BETWEEN, IN, strings) and an exact-DECIMAL and
//! cast one. This is the cost the main job's `--accept` and `summary --accept` pay per
//! candidate, without generation (`accept_eval`), and the cost per row of the explorer's
//! column-at-a-time evaluator over the same rows held as columns (`accept_block`).
//!
//! Run: `cargo bench --bench accept` (`-- accept_block` for the explorer's evaluator alone).

use std::hint::black_box;

use batchgen::accept::{Accept, Candidate};
use batchgen::batch::{self, Job, Row};
use batchgen::explore::filter::{Scratch, Source, BLOCK};
use batchgen::grid::Size;
use batchgen::topo::Grid;
use batchgen::Algorithm;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Rows per measured pass.
const ROWS: u64 = 4096;

/// The filters measured, named.
const FILTERS: [(&str, &str); 3] = [
    ("plain", "dead_end_share <= 0.305 AND solution_length >= 40"),
    (
        "sql",
        "solution_length BETWEEN 30 AND 200 AND algo IN ('kruskal', 'wilson') \
         AND dead_ends % 2 = 0",
    ),
    (
        "decimal_cast",
        "solution_length * 0.1 > 3 OR (diameter / 2)::BIGINT >= 40 AND NOT tortuosity IS NULL",
    ),
];

/// The metric rows of `ROWS` Kruskal mazes of 20×20.
fn rows() -> Vec<Row> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let job = Job::new(vec![Algorithm::Kruskal], 20, 20, ROWS, 1);
    let mut rows = Vec::with_capacity(ROWS as usize);
    batch::run::<()>(&job, &pool, |c| {
        rows.extend_from_slice(c.rows);
        Ok(())
    })
    .unwrap();
    rows
}

fn evaluate(c: &mut Criterion) {
    let rows = rows();
    let mut g = c.benchmark_group("accept_eval");
    g.throughput(Throughput::Elements(rows.len() as u64));
    for (name, expr) in FILTERS {
        let accept = Accept::parse(expr).unwrap();
        g.bench_function(name, |b| {
            b.iter(|| {
                let passed = rows
                    .iter()
                    .filter(|r| {
                        accept.eval(&Candidate {
                            algo: "kruskal",
                            grid: Grid::Square,
                            size: Size::planar(20, 20),
                            seed: 1,
                            row: r,
                        })
                    })
                    .count();
                black_box(passed)
            })
        });
    }
    g.finish();
}

/// The rows as columns (`COLUMNS[i]` as doubles), as the explorer holds them.
struct Columns {
    algos: Vec<String>,
    cols: Vec<Vec<f64>>,
}

impl Source for Columns {
    fn fill(&self, column: u8, start: usize, out: &mut [f64]) {
        out.copy_from_slice(&self.cols[column as usize][start..start + out.len()]);
    }
    fn algo_codes(&self, _start: usize, out: &mut [u16]) {
        out.fill(0);
    }
    fn algos(&self) -> &[String] {
        &self.algos
    }
    fn grid_codes(&self, _start: usize, out: &mut [u16]) {
        out.fill(0);
    }
}

fn evaluate_blocks(c: &mut Criterion) {
    let rows = rows();
    let columns = Columns {
        algos: vec!["kruskal".into()],
        cols: (0..batchgen::accept::COLUMNS.len() as u8)
            .map(|i| {
                rows.iter()
                    .map(|r| {
                        Candidate {
                            algo: "kruskal",
                            grid: Grid::Square,
                            size: Size::planar(20, 20),
                            seed: 1,
                            row: r,
                        }
                        .column(i)
                    })
                    .collect()
            })
            .collect(),
    };
    let mut g = c.benchmark_group("accept_block");
    g.throughput(Throughput::Elements(rows.len() as u64));
    let (mut scratch, mut pass) = (Scratch::default(), vec![false; rows.len()]);
    for (name, expr) in FILTERS {
        let accept = Accept::parse(expr).unwrap();
        g.bench_function(name, |b| {
            b.iter(|| {
                for (k, out) in pass.chunks_mut(BLOCK).enumerate() {
                    accept.eval_block(&columns, k * BLOCK, out.len(), &mut scratch, out);
                }
                black_box(pass.iter().filter(|&&p| p).count())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, evaluate, evaluate_blocks);
criterion_main!(benches);
