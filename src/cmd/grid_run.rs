//! The main job on a grid other than the square one (`--grid hex|triangle|polar`): the same
//! loop as [`super::generate`] (every maze from its own seed, measured, one Parquet row each,
//! written through [`batchgen::atomic_file`] and visible only when complete) over a
//! [`CellGraph`] built once for the run. The file has every metric column of a square run plus
//! a `grid` column, and the `batchgen.grid` metadata key; `width` and `height` hold `W×H`, or
//! for polar `R×C` (rings, cells of the first ring).
//!
//! The run takes `--algo`, `--size`, `--mask` (hex and triangle), `--count`, `--seed`,
//! `--out FILE`, `--threads` and `--quiet`; the square run's other flags are refused by name
//! (exit 2) before any work.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use parquet::schema::types::ColumnPath;
use rayon::prelude::*;

use batchgen::atomic_file::AtomicFile;
use batchgen::grid::{Mask, Size};
use batchgen::meta_keys as keys;
use batchgen::metrics::Row;
use batchgen::sink::arrow::{base_metadata, record_batch, run_metadata, RunInfo, RunParams};
use batchgen::topo::generate::{self as tgen, GraphScratch};
use batchgen::topo::{self, CellGraph, GraphEnds, GraphMaze, Grid, GridSize, MeasureScratch};
use batchgen::{Algorithm, Rng};

use super::generate::RunArgs;
use super::values::SizeArg;
use super::{mask_arg, UsageError};

/// Mazes per parallel chunk (one Arrow batch each).
const CHUNK: u64 = 4096;

/// A validated run on a cell graph.
struct GridConfig {
    size: GridSize,
    graph: Arc<CellGraph>,
    mask: Option<Arc<Mask>>,
    algos: Vec<Algorithm>,
    note: Option<String>,
    count: u64,
    seed: u64,
    out: PathBuf,
    threads: usize,
    quiet: bool,
}

/// The flags of the square run that a cell-graph run does not take, when given.
fn refused_flags(a: &RunArgs) -> Option<&'static str> {
    [
        (a.accept.is_some(), "--accept"),
        (a.max_candidates.is_some(), "--max-candidates"),
        (a.braid.is_some_and(|b| b > 0.0), "--braid"),
        (a.shard.is_some(), "--shard"),
        (a.shard_count.is_some(), "--shard-count"),
        (a.mazes.is_some(), "--mazes"),
        (a.ends.is_some(), "--ends"),
        (a.entrance.is_some(), "--entrance"),
        (a.exit.is_some(), "--exit"),
        (a.summary_json.is_some(), "--summary-json"),
    ]
    .into_iter()
    .find(|&(given, _)| given)
    .map(|(_, flag)| flag)
}

/// The grid size, cell graph and mask of `--grid`, `--size` and `--mask` (hex and triangle
/// only; its cells connected through the grid's neighbours); every refusal names the flag.
pub(super) fn grid_of(
    grid: Grid,
    size_arg: Option<SizeArg>,
    mask_path: Option<&std::path::Path>,
) -> Result<(GridSize, CellGraph, Option<Arc<Mask>>), UsageError> {
    let mask = match mask_path {
        None => None,
        Some(_) if grid == Grid::Polar => {
            return Err(UsageError(
                "--mask works on square, hex and triangle grids, not with --grid polar".into(),
            ))
        }
        Some(p) => Some(mask_arg::read_with("--mask", p, Mask::cells_from_bytes)?),
    };
    let text = match size_arg {
        None => match &mask {
            Some(m) => format!("{}x{}", m.size().width, m.size().height),
            None if grid == Grid::Polar => "32".into(),
            None => "64x64".into(),
        },
        Some(SizeArg::Rings(r)) => r.to_string(),
        Some(SizeArg::Grid(s)) if s.is_3d() => {
            return Err(UsageError::flag(
                "--size",
                &s.to_string(),
                format!("--grid {grid} is 2D: expected WIDTHxHEIGHT"),
            ))
        }
        Some(SizeArg::Grid(s)) => format!("{}x{}", s.width, s.height),
    };
    let size =
        GridSize::parse(grid, &text).map_err(|why| UsageError::flag("--size", &text, why))?;
    let graph = match &mask {
        None => CellGraph::new(size),
        Some(m) => {
            let shown = mask_path.map_or(String::new(), |p| p.display().to_string());
            let (mw, mh) = (m.size().width, m.size().height);
            if size_arg.is_some() && (mw, mh) != (size.a, size.b) {
                return Err(UsageError::flag(
                    "--size",
                    &text,
                    format!("the mask '{shown}' is {mw}x{mh}; leave --size out or give {mw}x{mh}"),
                ));
            }
            let cells: Vec<bool> = (0..mw * mh).map(|c| m.contains(c)).collect();
            CellGraph::masked(size, mw, mh, &cells)
                .map_err(|e| UsageError::flag("--mask", &shown, e))?
        }
    };
    Ok((size, graph, mask))
}

fn validate(a: &RunArgs) -> Result<GridConfig, UsageError> {
    let grid = a.grid;
    if let Some(flag) = refused_flags(a) {
        return Err(UsageError(format!(
            "{flag} works on the square grid only, not with --grid {grid}"
        )));
    }
    let shard = batchgen::shard::resolve(None, None, &|k| std::env::var(k).ok())
        .map_err(|e| UsageError(e.to_string()))?;
    if let Some((s, source)) = shard {
        return Err(UsageError(format!(
            "the environment sets shard {s} ({source:?}); sharded runs work on the square grid \
             only, not with --grid {grid}"
        )));
    }
    let (size, graph, mask) = grid_of(grid, a.size, a.mask.as_deref())?;
    let spec = a.algo.spec.as_str();
    let has_all = spec.split(',').any(|p| p.trim() == "all");
    let (algos, skipped): (Vec<Algorithm>, Vec<Algorithm>) = a
        .algo
        .algos
        .iter()
        .cloned()
        .partition(|x| tgen::check(x, grid).is_ok());
    if let (false, Some(x)) = (has_all, skipped.first()) {
        let why = tgen::check(x, grid).unwrap_err();
        return Err(UsageError::flag("--algo", spec, why));
    }
    let note = (!skipped.is_empty()).then(|| {
        let names: Vec<String> = skipped.iter().map(|x| x.name()).collect();
        format!(
            "--grid {grid}: running the {} generators defined on it; skipping {}",
            algos.len(),
            names.join(", ")
        )
    });
    let out = a
        .out
        .clone()
        .ok_or_else(|| UsageError("the main job needs --out FILE".into()))?;
    if batchgen::dataset::is_folder_target(&out) {
        return Err(UsageError::flag(
            "--out",
            &out.display().to_string(),
            format!(
                "dataset folders work on the square grid only, not with --grid {grid}; give a file"
            ),
        ));
    }
    batchgen::args::check_out("--out", &out).map_err(|e| UsageError(e.to_string()))?;
    let mut outputs = batchgen::output_set::OutputSet::new();
    if let Some(p) = &a.mask {
        outputs.add_input("--mask", p);
    }
    outputs
        .add("--out", &out, &out)
        .map_err(|e| UsageError(e.to_string()))?;
    Ok(GridConfig {
        size,
        graph: Arc::new(graph),
        mask,
        algos,
        note,
        count: a.count,
        seed: a.seed,
        out,
        threads: a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        quiet: a.quiet,
    })
}

/// Run the main job on `args.grid` (not square).
pub fn run(args: &RunArgs, command_line: &str) -> anyhow::Result<()> {
    let cfg = validate(args)?;
    if let Some(note) = &cfg.note {
        eprintln!("{note}");
    }
    let started = Instant::now();
    let g = &*cfg.graph;
    let ends = GraphEnds::corners(g);
    let mask_hash = cfg.mask.as_ref().map_or(0, |m| m.hash());
    let names: Vec<String> = cfg.algos.iter().map(|x| x.name()).collect();
    let planar = Size::planar(cfg.size.a, cfg.size.b);
    let ends_rule = format!(
        "entrance=cell {} exit=cell {} (the first and last cell of the {} grid)",
        ends.entrance, ends.exit, cfg.size.grid
    );
    let mut extra = run_metadata(&RunParams {
        algos: &names,
        size: planar,
        count: cfg.count,
        seed: cfg.seed,
        shard: "1/1".into(),
        shard_source: "none".into(),
        indices: 0..cfg.count,
        accept: None,
        braid: 0.0,
    });
    extra.push((keys::GRID.into(), cfg.size.grid.name().into()));
    if let Some(m) = &cfg.mask {
        extra.push((keys::MASK.into(), m.to_text()));
    }
    let kv = base_metadata(&RunInfo {
        command_line: command_line.into(),
        ends_rule,
        extra,
    });
    let base = batchgen::sink::arrow::schema_with_metadata(&kv);
    let mut fields: Vec<Field> = base.fields().iter().map(|f| f.as_ref().clone()).collect();
    fields.push(Field::new("grid", DataType::Utf8, false));
    let schema = Arc::new(Schema::new(fields).with_metadata(base.metadata().clone()));
    let props = batchgen::sink::parquet::writer_properties(
        kv.iter()
            .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
            .collect(),
    )?
    .set_column_dictionary_enabled(ColumnPath::from("grid"), true)
    .build();
    let file = AtomicFile::create(&cfg.out)
        .with_context(|| format!("cannot write --out {}", cfg.out.display()))?;
    let mut writer = ArrowWriter::try_new(file, schema.clone(), Some(props))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()?;
    let mut rows_written = 0u64;
    for (algo, name) in cfg.algos.iter().zip(&names) {
        let base_seed = topo::seed_base(cfg.seed, name, cfg.size);
        let mut start = 0;
        while start < cfg.count {
            let end = (start + CHUNK).min(cfg.count);
            let rows: Vec<Row> = pool.install(|| {
                (start..end)
                    .into_par_iter()
                    .map_init(
                        || {
                            (
                                GraphMaze::new(g),
                                GraphScratch::new(),
                                MeasureScratch::new(),
                            )
                        },
                        |(maze, gs, ms), index| {
                            let maze_seed = batchgen::rng::maze_seed_from_base(base_seed, index);
                            let mut rng = Rng::from_maze_seed(maze_seed);
                            let t = Instant::now();
                            tgen::generate(algo, g, maze, gs, &mut rng);
                            let gen_ns = t.elapsed().as_nanos() as u64;
                            let metrics = topo::measure(g, maze, ends, mask_hash, ms);
                            Row {
                                index,
                                maze_seed,
                                gen_ns,
                                metrics,
                            }
                        },
                    )
                    .collect()
            });
            let batch = record_batch(&base, name, planar, cfg.seed, &rows)?;
            let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
            columns.push(Arc::new(StringArray::from(vec![
                cfg.size.grid.name();
                rows.len()
            ])));
            writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
            rows_written += rows.len() as u64;
            start = end;
        }
    }
    let file = writer.into_inner()?;
    let bytes = file.prepare()?.commit()?;
    if !cfg.quiet {
        eprintln!(
            "{} mazes on a {} grid {} ({} generators) in {:.2} s: {} ({} bytes)",
            rows_written,
            cfg.size.grid,
            cfg.size,
            cfg.algos.len(),
            started.elapsed().as_secs_f64(),
            cfg.out.display(),
            bytes
        );
    }
    Ok(())
}
