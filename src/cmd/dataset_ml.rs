//! `batchgen dataset-ml`: a Hugging Face-style Parquet dataset for machine learning. Three
//! passes over each generator's index range:
//!
//! 1. generate every candidate of the whole run (every shard's: so a shard drops exactly the
//!    copies the unsharded run drops, without talking to the other shards) and append `(canonical key, algo, index, canonical walls)` to
//!    a partition file chosen by the key ([`batchgen::ml::dedup`]);
//! 2. deduplicate one partition at a time (exact: equal keys are compared wall for wall) and
//!    give every kept maze its split, a function of its key ([`batchgen::ml::split`]); the
//!    result is one byte per candidate;
//! 3. generate the kept mazes of this shard's slice again, in (algo, index) order, measure them between their
//!    origin and target, and write `data/{split}-NNNNN-of-NNNNN.parquet` (at most
//!    `--rows-per-file` rows each) with the metric columns, maze-dataset's connection list,
//!    pixels and tokens, and the dataset card `README.md`.
//!
//! Every file is written through [`batchgen::atomic_file`] and committed together at the end;
//! the partition folder is removed on every path.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use arrow_array::builder::{
    BooleanBuilder, FixedSizeListBuilder, ListBuilder, StringBuilder, UInt32Builder, UInt64Builder,
    UInt8Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use clap::{Args, ValueEnum};
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use rayon::prelude::*;

use batchgen::args::check_out_dir;
use batchgen::atomic_file::{self, AtomicFile, Prepared};
use batchgen::generate::{self, seed_base};
use batchgen::grid::Size;
use batchgen::interrupt;
use batchgen::metrics::{self, Row, COLUMNS};
use batchgen::ml::canon::{self, CanonScratch, Dedup};
use batchgen::ml::card::{Card, CardColumn};
use batchgen::ml::dedup::{self, Partitions};
use batchgen::ml::pixels;
use batchgen::ml::split::{Fractions, Split};
use batchgen::ml::tokens::{self, TokenScratch, Tokenizer};
use batchgen::rng::{splitmix64, Rng};
use batchgen::shard::{self, Shard};
use batchgen::sink::arrow::{base_metadata, run_metadata, schema as metric_schema, RunParams};
use batchgen::sink::RunInfo;
use batchgen::{Algorithm, Ends, Maze};

use crate::cmd::{values, Interrupted, UsageError};

/// Mazes per parallel work item of the key pass (about 100 bytes each at 16x16).
const KEY_CHUNK: u64 = 4096;
/// Mazes per parallel work item of the row pass (about 12 kB each at 16x16, mostly tokens).
const ROW_CHUNK: u64 = 256;
/// Rows per record batch at most.
const BATCH_ROWS: usize = 1024;
/// Rows per Parquet row group at most.
const ROW_GROUP_ROWS: usize = 8192;
/// Expected bytes per dedup partition when `--partitions` is not given.
const PARTITION_TARGET_BYTES: u64 = 32 << 20;
/// The largest side maze-dataset's adjacency list can hold (it stores coordinates as `int8`).
const MAX_SIDE: u32 = 127;
/// The constant that separates the random-ends stream from the maze's other streams: the first
/// 64 bits of the fractional part of √7.
pub const ENDS_STREAM: u64 = 0xa54f_f53a_5f1d_36f1;

/// How origin and target are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EndsRule {
    /// Top-left cell to bottom-right cell.
    Corners,
    /// A farthest pair of cells (diameter_start, diameter_end).
    Diameter,
    /// Two distinct cells drawn per maze from its own stream of the maze seed.
    Random,
}

/// `--dedup` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DedupArg {
    /// Keep every maze.
    None,
    /// Drop copies with the same walls.
    Exact,
    /// Drop copies up to the symmetries of the rectangle (8 square, 4 otherwise).
    Symmetry,
}

/// Flags of `batchgen dataset-ml`.
#[derive(Args, Debug)]
pub struct DatasetMlArgs {
    /// Generators: a comma list of names, or `all`.
    #[arg(long, default_value = "all", value_name = "LIST", value_parser = values::AlgoListParser, hide_possible_values = true)]
    pub algo: values::AlgoList,
    /// Grid size `WxH` (2D; each side at most 127, maze-dataset's coordinate range).
    #[arg(
        long,
        default_value = "16x16",
        value_name = "WxH",
        allow_hyphen_values = true
    )]
    pub size: String,
    /// Candidate mazes per generator, before deduplication.
    #[arg(long, default_value = "1000", value_name = "N", allow_hyphen_values = true, value_parser = values::text(values::count))]
    pub count: u64,
    /// Master seed.
    #[arg(long, default_value_t = batchgen::args::DEFAULT_SEED, value_name = "S")]
    pub seed: u64,
    /// The dataset folder (created if missing): `data/*.parquet` and `README.md`.
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// How origin and target are chosen.
    #[arg(long, value_enum, default_value_t = EndsRule::Corners)]
    pub ends: EndsRule,
    /// Which copies are dropped.
    #[arg(long, value_enum, default_value_t = DedupArg::Exact)]
    pub dedup: DedupArg,
    /// Split fractions TRAIN,VALIDATION,TEST (summing to 1).
    #[arg(
        long,
        default_value = "0.8,0.1,0.1",
        value_name = "T,V,T",
        allow_hyphen_values = true
    )]
    pub split: String,
    /// Rows per Parquet file at most.
    #[arg(long, default_value = "100000", value_name = "N", allow_hyphen_values = true, value_parser = values::text(values::positive))]
    pub rows_per_file: u64,
    /// The token column's tokenizer (only maze-dataset's default, `aotp-ut-uniform`).
    #[arg(long, default_value = "aotp-ut-uniform", value_name = "NAME")]
    pub tokenizer: String,
    /// Make only the K-th of N slices of each generator's indices (1-based).
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// The number of shards where the cluster engine does not export it.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub shard_count: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = values::text(values::threads))]
    pub threads: Option<usize>,
    /// Partition files of the deduplication (default: about 32 MiB each).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = values::text(values::positive))]
    pub partitions: Option<u64>,
    /// Test hook: keep only the low B bits of the dedup key, to plant hash collisions.
    #[arg(long, value_name = "B", hide = true)]
    pub hash_bits: Option<u32>,
}

/// The validated run.
struct Config {
    algos: Vec<Algorithm>,
    size: Size,
    count: u64,
    seed: u64,
    out: PathBuf,
    ends: EndsRule,
    dedup: Dedup,
    fractions: Fractions,
    rows_per_file: u64,
    tokenizer: Tokenizer,
    shard: Shard,
    shard_source: String,
    threads: usize,
    partitions: usize,
    key_mask: u64,
}

fn validate(a: &DatasetMlArgs) -> Result<Config, UsageError> {
    let size = values::size(&a.size).map_err(|e| UsageError::flag("--size", &a.size, e))?;
    if size.is_3d() {
        return Err(UsageError::flag(
            "--size",
            &a.size,
            "a learning dataset is 2D (maze-dataset's layouts are 2D)",
        ));
    }
    if size.width > MAX_SIDE || size.height > MAX_SIDE {
        return Err(UsageError::flag(
            "--size",
            &a.size,
            format!(
                "each side must be at most {MAX_SIDE} (maze-dataset stores coordinates as int8)"
            ),
        ));
    }
    if size.cells() < 2 {
        return Err(UsageError::flag(
            "--size",
            &a.size,
            "a maze needs two cells",
        ));
    }
    if a.count == 0 {
        return Err(UsageError::flag("--count", "0", "must be at least 1"));
    }
    let fractions =
        Fractions::parse(&a.split).map_err(|e| UsageError::flag("--split", &a.split, e))?;
    let tokenizer = Tokenizer::parse(&a.tokenizer)
        .map_err(|e| UsageError::flag("--tokenizer", &a.tokenizer, e))?;
    let key_mask = match a.hash_bits {
        None => u64::MAX,
        Some(b @ 1..=63) => (1u64 << b) - 1,
        Some(64) => u64::MAX,
        Some(b) => {
            return Err(UsageError::flag(
                "--hash-bits",
                &b.to_string(),
                "must be 1 to 64",
            ));
        }
    };
    let shard = shard::resolve(a.shard.as_deref(), a.shard_count.as_deref(), &|k| {
        std::env::var(k).ok()
    })
    .map_err(|e| UsageError(e.to_string()))?;
    let (shard, shard_source) = match shard {
        Some((s, src)) => (s, src.to_string()),
        None => (Shard::WHOLE, "none".to_string()),
    };
    check_out_dir("--out", &a.out)?;
    let data = a.out.join("data");
    if let Ok(rd) = std::fs::read_dir(&data) {
        let prefix = shard_tag(shard);
        for e in rd.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            let ours = n.ends_with(".parquet") && (shard == Shard::WHOLE || n.contains(&prefix));
            if ours {
                return Err(UsageError::flag(
                    "--out",
                    &a.out.display().to_string(),
                    format!(
                        "'{}' already holds dataset files ({n}); give a new folder",
                        data.display()
                    ),
                ));
            }
        }
    }
    let algos = a.algo.algos.clone();
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Every shard deduplicates the whole run's candidates.
    let candidates = a.count * algos.len() as u64;
    let rb = dedup::record_bytes(size.words_per_maze()) as u64;
    let partitions = match a.partitions {
        Some(p) if p > 4096 => {
            return Err(UsageError::flag(
                "--partitions",
                &p.to_string(),
                "must be at most 4096",
            ))
        }
        Some(p) => p as usize,
        None => (candidates * rb)
            .div_ceil(PARTITION_TARGET_BYTES)
            .clamp(1, 4096) as usize,
    };
    Ok(Config {
        algos,
        size,
        count: a.count,
        seed: a.seed,
        out: a.out.clone(),
        ends: a.ends,
        dedup: match a.dedup {
            DedupArg::None => Dedup::None,
            DedupArg::Exact => Dedup::Exact,
            DedupArg::Symmetry => Dedup::Symmetry,
        },
        fractions,
        rows_per_file: a.rows_per_file,
        tokenizer,
        shard,
        shard_source,
        threads,
        partitions,
        key_mask,
    })
}

/// The part of a file name that names the shard (empty unsharded).
fn shard_tag(s: Shard) -> String {
    if s == Shard::WHOLE {
        String::new()
    } else {
        format!("_shard_{:05}_of_{:05}", s.k, s.n)
    }
}

/// Per-worker state: a maze and the scratch buffers every pass reuses.
struct Worker {
    maze: Maze,
    gen: generate::Scratch,
    canon: CanonScratch,
    words: Vec<u64>,
    metrics: metrics::Scratch,
    tokens: TokenScratch,
}

impl Worker {
    fn new(size: Size) -> Worker {
        Worker {
            maze: Maze::with_size(size),
            gen: generate::Scratch::new(),
            canon: CanonScratch::default(),
            words: Vec::new(),
            metrics: metrics::Scratch::new(),
            tokens: TokenScratch::default(),
        }
    }
}

/// The candidates of one chunk: keys, indices and canonical words, flat.
struct KeyChunk {
    keys: Vec<u64>,
    indices: Vec<u64>,
    words: Vec<u64>,
}

/// Finished rows of one chunk, flat, in index order.
#[derive(Default)]
struct RowChunk {
    rows: Vec<Row>,
    split: Vec<Split>,
    key: Vec<u64>,
    token_seed: Vec<u32>,
    ends: Vec<(u32, u32)>,
    path_end: Vec<usize>,
    path: Vec<u32>,
    conn: Vec<bool>,
    pixels: Vec<u8>,
    tok_end: Vec<usize>,
    tokens: String,
}

/// The entrance and exit rule of a maze.
fn ends_of(rule: EndsRule, size: Size, maze_seed: u64) -> Ends {
    match rule {
        EndsRule::Corners => Ends::corners(size.width, size.height),
        EndsRule::Diameter => Ends::Diameter,
        EndsRule::Random => {
            let mut rng = Rng::from_maze_seed(splitmix64(maze_seed ^ ENDS_STREAM));
            let cells = size.cells();
            let a = rng.below(cells);
            let mut b = rng.below(cells - 1);
            if b >= a {
                b += 1;
            }
            Ends::cells(a, b)
        }
    }
}

fn ends_text(rule: EndsRule, size: Size) -> String {
    match rule {
        EndsRule::Corners => format!(
            "corners: origin (0,0), target ({},{}) as (row,col)",
            size.height - 1,
            size.width - 1
        ),
        EndsRule::Diameter => {
            "diameter: origin diameter_start, target diameter_end (a farthest pair of cells)".into()
        }
        EndsRule::Random => format!(
            "random: two distinct cells per maze, from Xoshiro256++ seeded by \
             splitmix64(maze_seed ^ {ENDS_STREAM:#018x}): origin = below(cells), \
             target = below(cells - 1), plus 1 when at least origin"
        ),
    }
}

/// Run `batchgen dataset-ml`.
pub fn run(args: &DatasetMlArgs, command_line: &str) -> anyhow::Result<()> {
    let cfg = validate(args)?;
    interrupt::install().context("installing signal handlers")?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("starting worker threads")?;
    pool.install(|| build(&cfg, command_line))
}

fn build(cfg: &Config, command_line: &str) -> anyhow::Result<()> {
    let started = Instant::now();
    let data = cfg.out.join("data");
    std::fs::create_dir_all(&data)
        .with_context(|| format!("creating dataset folder '{}'", data.display()))?;
    let range = cfg.shard.range(cfg.count);
    // The candidates deduplicated: the whole run (every shard's), or with `--dedup none` only
    // this shard's, since no candidate depends on another then.
    let keyed = if cfg.dedup == Dedup::None {
        range.clone()
    } else {
        0..cfg.count
    };
    let k0 = keyed.start;
    let n = (keyed.end - keyed.start) as usize;
    let size = cfg.size;
    let wpm = size.words_per_maze();
    // Pass 1 and 2: keys, dedup, splits. status[a][i]: 0 dropped, 1 + split kept.
    let mut status: Vec<Vec<u8>> = vec![vec![0u8; n]; cfg.algos.len()];
    let tmp = cfg.out.join(format!(".dedup-{}", std::process::id()));
    let mut parts = if cfg.dedup == Dedup::None {
        None
    } else {
        Some(
            Partitions::create(&tmp, cfg.partitions, wpm)
                .with_context(|| format!("creating partition files in '{}'", tmp.display()))?,
        )
    };
    for (ai, algo) in cfg.algos.iter().enumerate() {
        let base = seed_base(algo, size, cfg.seed);
        in_windows(
            cfg,
            &keyed,
            KEY_CHUNK,
            |w, lo, hi| {
                let mut k = KeyChunk {
                    keys: Vec::with_capacity((hi - lo) as usize),
                    indices: Vec::with_capacity((hi - lo) as usize),
                    words: Vec::with_capacity((hi - lo) as usize * wpm),
                };
                for index in lo..hi {
                    generate::regenerate_from_base(algo, &mut w.maze, &mut w.gen, base, index);
                    let key = canon::canonical(&w.maze, cfg.dedup, &mut w.canon, &mut w.words)
                        & cfg.key_mask;
                    k.keys.push(key);
                    k.indices.push(index);
                    k.words.extend_from_slice(&w.words);
                }
                k
            },
            |k: KeyChunk| {
                for (j, (&key, &index)) in k.keys.iter().zip(&k.indices).enumerate() {
                    match parts.as_mut() {
                        Some(p) => p
                            .push(key, ai as u32, index, &k.words[j * wpm..(j + 1) * wpm])
                            .context("writing a dedup partition")?,
                        None => {
                            status[ai][(index - k0) as usize] =
                                1 + cfg.fractions.split_of(key) as u8;
                        }
                    }
                }
                Ok(())
            },
        )?;
    }
    let stats = match parts.take() {
        Some(p) => p
            .resolve(|c| {
                status[c.algo as usize][(c.index - k0) as usize] =
                    1 + cfg.fractions.split_of(c.key) as u8;
            })
            .context("reading a dedup partition")?,
        None => dedup::Stats {
            candidates: (n * cfg.algos.len()) as u64,
            ..dedup::Stats::default()
        },
    };
    let mut rows = [0u64; 3];
    let mine = (range.start - k0) as usize..(range.end - k0) as usize;
    for s in status.iter().flat_map(|st| &st[mine.clone()]) {
        if *s > 0 {
            rows[(*s - 1) as usize] += 1;
        }
    }
    // Pass 3: the rows.
    let schema = dataset_schema(size, cfg, command_line, &range);
    let mut writers: Vec<SplitWriter> = Split::ALL
        .iter()
        .map(|&s| SplitWriter::new(s, rows[s as usize], cfg, &data, schema.clone()))
        .collect();
    for (ai, algo) in cfg.algos.iter().enumerate() {
        let base = seed_base(algo, size, cfg.seed);
        let name = algo.name();
        let st = &status[ai];
        in_windows(
            cfg,
            &range,
            ROW_CHUNK,
            |w, lo, hi| {
                let mut r = RowChunk::default();
                for index in lo..hi {
                    let s = st[(index - k0) as usize];
                    if s > 0 {
                        let split = Split::ALL[(s - 1) as usize];
                        make_row(cfg, algo, base, index, split, w, &mut r);
                    }
                }
                r
            },
            |r: RowChunk| {
                for i in 0..r.rows.len() {
                    writers[r.split[i] as usize].push(&name, size, cfg.seed, &r, i)?;
                }
                Ok(())
            },
        )?;
    }
    let mut prepared: Vec<Prepared> = Vec::new();
    let mut files: [Vec<String>; 3] = Default::default();
    for w in writers {
        let (p, names) = w.finish()?;
        prepared.extend(p);
        files[names.0 as usize] = names.1;
    }
    let card = Card {
        command: command_line.to_string(),
        shard: cfg.shard.to_string(),
        algos: cfg.algos.iter().map(Algorithm::name).collect(),
        size: size.to_string(),
        seed: cfg.seed,
        count: cfg.count,
        indices: format!("{}..{}", range.start, range.end),
        ends: ends_text(cfg.ends, size),
        tokenizer: (
            cfg.tokenizer.name().to_string(),
            cfg.tokenizer.maze_dataset_name().to_string(),
        ),
        dedup: (cfg.dedup.name().to_string(), dedup_text(cfg)),
        fractions: cfg.fractions.f,
        rows,
        files,
        candidates: stats.candidates,
        duplicates: stats.duplicates,
        collisions: stats.collisions,
        memory: format!(
            "{} partition files; the largest held {} records, {} bytes (read whole, plus 24 \
             bytes of sort key per record); one status byte per candidate ({} bytes)",
            if cfg.dedup == Dedup::None {
                0
            } else {
                cfg.partitions
            },
            stats.max_partition_records,
            stats.max_partition_bytes,
            n * cfg.algos.len()
        ),
        columns: schema
            .fields()
            .iter()
            .map(|f| CardColumn {
                name: f.name().clone(),
                dtype: type_text(f.data_type()),
                doc: column_doc(f.name(), size),
            })
            .collect(),
    };
    let card_name = if cfg.shard == Shard::WHOLE {
        "README.md".to_string()
    } else {
        format!("README.shard-{:05}-of-{:05}.md", cfg.shard.k, cfg.shard.n)
    };
    let mut card_file = AtomicFile::create(&cfg.out.join(&card_name))?;
    std::io::Write::write_all(&mut card_file, card.render().as_bytes())?;
    prepared.push(card_file.prepare()?);
    atomic_file::commit_all(prepared).context("committing the dataset files")?;
    eprintln!(
        "dataset-ml: {} candidates, {} duplicates dropped, rows train {} / validation {} / test {} in '{}' ({:.2} s)",
        stats.candidates,
        stats.duplicates,
        rows[0],
        rows[1],
        rows[2],
        cfg.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn dedup_text(cfg: &Config) -> String {
    let (w, h) = (cfg.size.width, cfg.size.height);
    let mut s = match cfg.dedup {
        Dedup::None => "every candidate kept; `canonical_hash` is `maze_hash`.".to_string(),
        Dedup::Exact => "a maze whose walls equal an earlier one's (in (algo, index) order) is \
             dropped; candidates are grouped by `maze_hash` and compared wall for wall, so the \
             result is exact. `canonical_hash` is `maze_hash`."
            .to_string(),
        Dedup::Symmetry => format!(
            "a maze equal to an earlier one up to the {} symmetries of a {w}x{h} grid ({}) is \
             dropped; the canonical form is the image with the least wall words, \
             `canonical_hash` its hash; equal hashes are compared wall for wall, so the result \
             is exact.",
            canon::symmetries(w, h),
            canon::symmetry_names(w, h)
        ),
    };
    s.push_str(" Across every generator of the run");
    s.push_str(if cfg.shard == Shard::WHOLE || cfg.dedup == Dedup::None {
        "."
    } else {
        " and every shard: each shard reads every candidate of the run (all indices) and writes \
         only its own kept rows, so the shards together hold exactly the unsharded run's rows."
    });
    if cfg.key_mask != u64::MAX {
        s.push_str(&format!(
            " TEST HOOK: keys truncated to their low {} bits.",
            cfg.key_mask.count_ones()
        ));
    }
    s
}

/// Run `work(worker, lo, hi)` over the chunks of `range` on the pool, a window of chunks at a
/// time (so memory stays bounded), and hand each chunk's result to `take` in index order.
fn in_windows<T: Send>(
    cfg: &Config,
    range: &std::ops::Range<u64>,
    chunk: u64,
    work: impl Fn(&mut Worker, u64, u64) -> T + Sync,
    mut take: impl FnMut(T) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let window = (cfg.threads as u64 * 4).max(1);
    let chunks = (range.end - range.start).div_ceil(chunk);
    let mut c0 = 0;
    while c0 < chunks {
        let c1 = (c0 + window).min(chunks);
        let out: Vec<T> = (c0..c1)
            .into_par_iter()
            .map_init(
                || Worker::new(cfg.size),
                |w, c| {
                    let lo = range.start + c * chunk;
                    work(w, lo, (lo + chunk).min(range.end))
                },
            )
            .collect();
        out.into_iter().try_for_each(&mut take)?;
        if let Some(sig) = interrupt::received() {
            // The writers and the partition folder are dropped on the way out: their
            // temporary files go with them.
            return Err(anyhow::Error::new(Interrupted {
                signal: sig,
                message: format!(
                    "interrupted by {}; temporary files removed, no dataset file written",
                    interrupt::name(sig)
                ),
            }));
        }
        c0 = c1;
    }
    Ok(())
}

/// Generate, measure and tokenize maze `index` into `r`.
fn make_row(
    cfg: &Config,
    algo: &Algorithm,
    base: u64,
    index: u64,
    split: Split,
    w: &mut Worker,
    r: &mut RowChunk,
) {
    let size = cfg.size;
    let t = Instant::now();
    let maze_seed = generate::regenerate_from_base(algo, &mut w.maze, &mut w.gen, base, index);
    let gen_ns = t.elapsed().as_nanos() as u64;
    let key = canon::canonical(&w.maze, cfg.dedup, &mut w.canon, &mut w.words) & cfg.key_mask;
    let ends = ends_of(cfg.ends, size, maze_seed);
    let m = metrics::measure(&w.maze, ends, &mut w.metrics);
    let (origin, target) = ends.cells_of(&m);
    let path = w.metrics.solution_path();
    let ts = tokens::token_seed(maze_seed);
    r.rows.push(Row {
        index,
        maze_seed,
        gen_ns,
        metrics: m,
    });
    r.split.push(split);
    r.key.push(key);
    r.token_seed.push(ts);
    r.ends.push((origin, target));
    r.path.extend_from_slice(&path);
    r.path_end.push(r.path.len());
    pixels::connection_list(&w.maze, &mut r.conn);
    pixels::pixels(&w.maze, &mut r.pixels);
    tokens::aotp(
        &w.maze,
        origin,
        target,
        &path,
        ts,
        &mut w.tokens,
        &mut r.tokens,
    );
    r.tok_end.push(r.tokens.len());
}

fn coord_field() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::UInt32, false))
}

fn pair_type() -> DataType {
    DataType::FixedSizeList(coord_field(), 2)
}

/// The metric columns, then the learning columns.
fn dataset_schema(
    size: Size,
    cfg: &Config,
    command_line: &str,
    range: &std::ops::Range<u64>,
) -> SchemaRef {
    let (w, h) = (size.width as i32, size.height as i32);
    let mut fields: Vec<Field> = metric_schema()
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    fields.extend([
        Field::new("canonical_hash", DataType::UInt64, false),
        Field::new("token_seed", DataType::UInt32, false),
        Field::new("origin", pair_type(), false),
        Field::new("target", pair_type(), false),
        Field::new(
            "solution",
            DataType::List(Arc::new(Field::new("item", pair_type(), false))),
            false,
        ),
        Field::new(
            "connection_list",
            DataType::FixedSizeList(
                Arc::new(Field::new("item", DataType::Boolean, false)),
                2 * w * h,
            ),
            false,
        ),
        Field::new(
            "pixels",
            DataType::FixedSizeList(
                Arc::new(Field::new("item", DataType::UInt8, false)),
                (2 * w + 1) * (2 * h + 1),
            ),
            false,
        ),
        Field::new("tokens", DataType::Utf8, false),
    ]);
    let names: Vec<String> = cfg.algos.iter().map(Algorithm::name).collect();
    let mut extra = run_metadata(&RunParams {
        algos: &names,
        size,
        count: cfg.count,
        seed: cfg.seed,
        shard: cfg.shard.to_string(),
        shard_source: cfg.shard_source.clone(),
        indices: range.clone(),
        accept: None,
        braid: 0.0,
    });
    extra.extend([
        (
            "batchgen.ml.dedup".to_string(),
            cfg.dedup.name().to_string(),
        ),
        (
            "batchgen.ml.tokenizer".to_string(),
            cfg.tokenizer.name().to_string(),
        ),
        (
            "batchgen.ml.split".to_string(),
            format!("{:?}", cfg.fractions.f),
        ),
        ("batchgen.ml.ends".to_string(), ends_text(cfg.ends, size)),
    ]);
    let info = RunInfo {
        command_line: command_line.to_string(),
        ends_rule: ends_text(cfg.ends, size),
        extra,
    };
    let kv: std::collections::HashMap<String, String> = base_metadata(&info).into_iter().collect();
    Arc::new(Schema::new(fields).with_metadata(kv))
}

fn type_text(t: &DataType) -> String {
    match t {
        DataType::FixedSizeList(f, n) => format!("{}[{n}]", type_text(f.data_type())),
        DataType::List(f) => format!("list<{}>", type_text(f.data_type())),
        other => format!("{other}").to_lowercase(),
    }
}

fn column_doc(name: &str, size: Size) -> String {
    let (w, h) = (size.width, size.height);
    match name {
        "canonical_hash" => "the dedup and split key: `maze_hash` of the maze (with `--dedup symmetry`, of its canonical image)".into(),
        "token_seed" => "`np.random.seed(token_seed)` before maze-dataset's tokenizer gives `tokens` exactly".into(),
        "origin" => "origin cell `[row, col]`".into(),
        "target" => "target cell `[row, col]`".into(),
        "solution" => "the shortest path origin → target, `[row, col]` per cell, both ends included".into(),
        "connection_list" => format!("maze-dataset's connection list, shape (2, {h}, {w}) flattened in C order: `[0, r, c]` open between (r, c) and (r+1, c), `[1, r, c]` between (r, c) and (r, c+1)"),
        "pixels" => format!("maze-dataset's `LatticeMaze.as_pixels()` grid, shape ({}, {}) flattened by rows: 255 open, 0 wall (one channel; its three are equal)", 2 * h + 1, 2 * w + 1),
        "tokens" => "maze-dataset's AOTP tokens (`AOTP_UT_uniform`), space-separated".into(),
        other => COLUMNS
            .iter()
            .find(|c| c.name == other)
            .map_or_else(String::new, |c| c.doc.to_string()),
    }
}

/// A split's committed-to-be files and their names.
type Finished = (Vec<Prepared>, (Split, Vec<String>));

/// The files of one split: the current file's writer and pending rows.
struct SplitWriter {
    split: Split,
    files: u64,
    rows_per_file: u64,
    data: PathBuf,
    tag: String,
    schema: SchemaRef,
    current: Option<ArrowWriter<AtomicFile>>,
    in_file: u64,
    file_no: u64,
    names: Vec<String>,
    prepared: Vec<Prepared>,
    pending: Pending,
}

/// Rows waiting to become a record batch.
#[derive(Default)]
struct Pending {
    algo: Option<String>,
    size: Option<Size>,
    seed: u64,
    rows: Vec<Row>,
    key: Vec<u64>,
    token_seed: Vec<u32>,
    ends: Vec<(u32, u32)>,
    paths: Vec<Vec<u32>>,
    conn: Vec<bool>,
    pixels: Vec<u8>,
    tokens: StringBuilder,
}

impl SplitWriter {
    fn new(split: Split, rows: u64, cfg: &Config, data: &Path, schema: SchemaRef) -> SplitWriter {
        SplitWriter {
            split,
            files: rows.div_ceil(cfg.rows_per_file),
            rows_per_file: cfg.rows_per_file,
            data: data.to_path_buf(),
            tag: shard_tag(cfg.shard),
            schema,
            current: None,
            in_file: 0,
            file_no: 0,
            names: Vec::new(),
            prepared: Vec::new(),
            pending: Pending::default(),
        }
    }

    fn push(
        &mut self,
        algo: &str,
        size: Size,
        seed: u64,
        r: &RowChunk,
        i: usize,
    ) -> anyhow::Result<()> {
        if self.pending.algo.as_deref().is_some_and(|a| a != algo) {
            // Batches hold one generator each (the metric columns' builder takes one name).
            self.flush()?;
        }
        let p = &mut self.pending;
        if p.algo.is_none() {
            p.algo = Some(algo.to_string());
        }
        p.size = Some(size);
        p.seed = seed;
        p.rows.push(r.rows[i]);
        p.key.push(r.key[i]);
        p.token_seed.push(r.token_seed[i]);
        p.ends.push(r.ends[i]);
        let p0 = if i == 0 { 0 } else { r.path_end[i - 1] };
        p.paths.push(r.path[p0..r.path_end[i]].to_vec());
        let cells = size.cells() as usize;
        p.conn
            .extend_from_slice(&r.conn[i * 2 * cells..(i + 1) * 2 * cells]);
        let px = (2 * size.width as usize + 1) * (2 * size.height as usize + 1);
        p.pixels.extend_from_slice(&r.pixels[i * px..(i + 1) * px]);
        let t0 = if i == 0 { 0 } else { r.tok_end[i - 1] };
        p.tokens.append_value(&r.tokens[t0..r.tok_end[i]]);
        self.in_file += 1;
        if p.rows.len() >= BATCH_ROWS || self.in_file == self.rows_per_file {
            self.flush()?;
        }
        Ok(())
    }

    fn file_name(&self, k: u64) -> String {
        format!(
            "{}-{k:05}-of-{:05}{}.parquet",
            self.split.name(),
            self.files,
            self.tag
        )
    }

    /// Write the pending rows as a batch of the current file; close the file when full.
    fn flush(&mut self) -> anyhow::Result<()> {
        let p = std::mem::take(&mut self.pending);
        if !p.rows.is_empty() {
            if self.current.is_none() {
                let name = self.file_name(self.file_no);
                let file = AtomicFile::create(&self.data.join(&name))?;
                let kv = self
                    .schema
                    .metadata()
                    .iter()
                    .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
                    .collect();
                let props = batchgen::sink::parquet::writer_properties(kv)?
                    .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
                    .build();
                self.current = Some(ArrowWriter::try_new(
                    file,
                    self.schema.clone(),
                    Some(props),
                )?);
                self.names.push(format!("data/{name}"));
            }
            let batch = p.into_batch(&self.schema)?;
            self.current.as_mut().expect("opened above").write(&batch)?;
        }
        if self.in_file == self.rows_per_file {
            self.close()?;
        }
        Ok(())
    }

    fn close(&mut self) -> anyhow::Result<()> {
        if let Some(w) = self.current.take() {
            self.prepared.push(w.into_inner()?.prepare()?);
            self.file_no += 1;
            self.in_file = 0;
        }
        Ok(())
    }

    fn finish(mut self) -> anyhow::Result<Finished> {
        self.flush()?;
        self.close()?;
        anyhow::ensure!(
            self.file_no == self.files,
            "{} files of split {} written, {} planned",
            self.file_no,
            self.split.name(),
            self.files
        );
        Ok((self.prepared, (self.split, self.names)))
    }
}

impl Pending {
    fn into_batch(mut self, schema: &SchemaRef) -> anyhow::Result<RecordBatch> {
        let size = self.size.expect("rows were pushed");
        let metric = batchgen::sink::arrow::record_batch(
            &metric_schema(),
            self.algo.as_deref().expect("rows were pushed"),
            size,
            self.seed,
            &self.rows,
        )?;
        let mut cols: Vec<ArrayRef> = metric.columns().to_vec();
        let n = self.rows.len();
        let mut key = UInt64Builder::with_capacity(n);
        key.append_slice(&self.key);
        cols.push(Arc::new(key.finish()));
        let mut ts = UInt32Builder::with_capacity(n);
        ts.append_slice(&self.token_seed);
        cols.push(Arc::new(ts.finish()));
        let w = size.width;
        let pair = |b: &mut FixedSizeListBuilder<UInt32Builder>, c: u32| {
            b.values().append_value(c / w);
            b.values().append_value(c % w);
            b.append(true);
        };
        for end in 0..2 {
            let mut b = FixedSizeListBuilder::new(UInt32Builder::with_capacity(2 * n), 2)
                .with_field(coord_field());
            for &(o, t) in &self.ends {
                pair(&mut b, if end == 0 { o } else { t });
            }
            cols.push(Arc::new(b.finish()));
        }
        let inner = FixedSizeListBuilder::new(UInt32Builder::new(), 2).with_field(coord_field());
        let mut sol =
            ListBuilder::new(inner).with_field(Arc::new(Field::new("item", pair_type(), false)));
        for path in &self.paths {
            for &c in path {
                pair(sol.values(), c);
            }
            sol.append(true);
        }
        cols.push(Arc::new(sol.finish()));
        let cells = 2 * size.cells() as i32;
        let mut cl =
            FixedSizeListBuilder::new(BooleanBuilder::with_capacity(self.conn.len()), cells)
                .with_field(Arc::new(Field::new("item", DataType::Boolean, false)));
        for row in self.conn.chunks_exact(cells as usize) {
            cl.values().append_slice(row);
            cl.append(true);
        }
        cols.push(Arc::new(cl.finish()));
        let px = ((2 * size.width + 1) * (2 * size.height + 1)) as i32;
        let mut pb = FixedSizeListBuilder::new(UInt8Builder::with_capacity(self.pixels.len()), px)
            .with_field(Arc::new(Field::new("item", DataType::UInt8, false)));
        for row in self.pixels.chunks_exact(px as usize) {
            pb.values().append_slice(row);
            pb.append(true);
        }
        cols.push(Arc::new(pb.finish()));
        cols.push(Arc::new(self.tokens.finish()));
        Ok(RecordBatch::try_new(schema.clone(), cols)?)
    }
}
