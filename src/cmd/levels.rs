//! `batchgen levels INPUT… --format F --out PATH`: the rows of metrics files that pass a filter,
//! picked by the main job's own rule ([`batchgen::pick`]), made again, checked against their
//! `maze_hash`, and written as levels ([`batchgen::export`]): a maze store, JSON, Tiled maps or
//! a contact sheet.
//!
//! Every flag is checked before any file is read (exit 2, naming the flag); the inputs are
//! checked as `summary` checks them; every output is planned (pairwise distinct) before any is
//! written, and all of them appear together or none ([`batchgen::atomic_file::commit_all`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use rayon::prelude::*;

use batchgen::accept::Accept;
use batchgen::atomic_file::{commit_all, AtomicFile, Prepared};
use batchgen::export::{self, tileset, Export};
use batchgen::grid::Mask;
use batchgen::level::Level;
use batchgen::output_set::OutputSet;
use batchgen::pick::{self, Pick, PickError, PickSpec, Picked, Value};
use batchgen::run::grid_cost::memory_need;
use batchgen::store::{Entry, StoreInfo, StoreWriter};
use batchgen::summary::inputs;
use batchgen::topo::{Grid, GridSize};

use super::generate::check_walk_steps;
use super::{mask_arg, values, UsageError};

/// Threads writing and syncing the files of a per-level format.
const WRITERS: usize = 8;

/// Most levels drawn on one contact sheet.
pub const SHEET_MAX: usize = 400;

/// What `--format` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelFormat {
    /// A maze store (Arrow IPC), as `--mazes` writes it: one file.
    Store,
    /// One JSON document per level: a folder of `ALGO-WxH-INDEX.json`.
    Json,
    /// One JSON document per line: one file.
    Jsonl,
    /// One Tiled map (XML) per level, with the default tileset: a folder.
    Tmx,
    /// One Tiled map (JSON) per level, with the default tileset: a folder.
    Tmj,
    /// A contact sheet of the levels as a PNG image: one file.
    Png,
    /// A contact sheet of the levels as an SVG document: one file.
    Svg,
}

impl LevelFormat {
    /// Is `--out` a folder of one file per level?
    fn per_level(self) -> bool {
        matches!(
            self,
            LevelFormat::Json | LevelFormat::Tmx | LevelFormat::Tmj
        )
    }

    fn extension(self) -> &'static str {
        match self {
            LevelFormat::Json => "json",
            LevelFormat::Tmx => "tmx",
            LevelFormat::Tmj => "tmj",
            _ => "",
        }
    }
}

/// How rows are picked within an (algo, size) group.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickArg {
    /// The first N passing rows in index order: what --accept with --count makes.
    First,
    /// A reproducible sample of N passing rows, chosen by --pick-seed.
    Sample,
}

/// Flags of `batchgen levels`.
#[derive(clap::Args, Debug)]
pub struct LevelsArgs {
    /// Metrics files, glob patterns (e.g. 'runs/*.parquet') or folders (searched recursively,
    /// e.g. a hive-partitioned dataset): the inputs `summary` takes.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<std::ffi::OsString>,
    /// Only rows passing this filter (the main job's --accept language).
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true, value_parser = values::text(values::accept))]
    pub accept: Option<Accept>,
    /// Levels per algo and size [default: every passing row, at most 10,000 in all].
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = values::text(values::count))]
    pub count: Option<u64>,
    /// Which passing rows: `first` (in index order, as --accept with --count generates them)
    /// or `sample` (reproducible, by --pick-seed).
    #[arg(long, value_enum, default_value = "first", value_name = "RULE")]
    pub pick: PickArg,
    /// The seed of --pick sample.
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = values::text(values::count))]
    pub pick_seed: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: LevelFormat,
    /// Where to write: a folder for json, tmx and tmj (made if missing; one file per level,
    /// ALGO-WxH-INDEX.EXT), a file for store, jsonl, png and svg.
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// The entrance/exit rule of inputs whose metadata lacks batchgen.ends, as batchgen
    /// writes it ('diameter', 'entrance=0,0 exit=31,31').
    #[arg(long, value_name = "RULE")]
    pub ends_rule: Option<String>,
    /// The mask of masked rows in inputs whose metadata lacks batchgen.mask.
    #[arg(long, value_name = "FILE")]
    pub mask: Option<PathBuf>,
    /// Regenerate rows of a random-walk generator even where one maze is expected to walk more
    /// than 10^11 steps (a long 1-wide grid, which can take hours per maze), as the main job's
    /// flag.
    #[arg(long)]
    pub no_time_limit: bool,
}

/// Bad `--out`: refused before any work.
fn check_out(args: &LevelsArgs) -> Result<(), UsageError> {
    let shown = args.out.display().to_string();
    let meta = std::fs::metadata(&args.out);
    if args.format.per_level() {
        if meta.as_ref().is_ok_and(|m| !m.is_dir()) {
            return Err(UsageError::flag(
                "--out",
                &shown,
                format!(
                    "--format {} writes one file per level into a folder, and this is not a folder",
                    args.format.extension()
                ),
            ));
        }
    } else if meta.as_ref().is_ok_and(|m| m.is_dir()) {
        return Err(UsageError::flag(
            "--out",
            &shown,
            "this format writes one file, and this is a folder",
        ));
    } else {
        let mut plan = OutputSet::new();
        plan.add("--out", &args.out, &args.out)
            .map_err(|e| UsageError(e.to_string()))?;
    }
    Ok(())
}

/// A pick error as the command reports it: input problems are bad input (exit 2).
fn pick_error(e: PickError) -> anyhow::Error {
    match e {
        e @ (PickError::Read { .. } | PickError::HashMismatch { .. }) => anyhow::Error::new(e),
        other => anyhow::Error::new(UsageError(other.to_string())),
    }
}

/// Write `bytes` to `path` through a temporary file; ready to commit.
fn prepared(path: &Path, bytes: &[u8]) -> anyhow::Result<Prepared> {
    let mut f =
        AtomicFile::create(path).with_context(|| format!("writing '{}'", path.display()))?;
    f.write_all(bytes)
        .with_context(|| format!("writing '{}'", path.display()))?;
    Ok(f.prepare()?)
}

/// The maze store of the levels: they must share a size, a seed, a mask, a braid chance and a
/// grid.
fn write_store(out: &Path, levels: &[Level], picked: &[Picked]) -> anyhow::Result<Prepared> {
    let first = &levels[0];
    for (l, p) in levels.iter().zip(picked) {
        let same = l.size() == first.size()
            && l.grid_size() == first.grid_size()
            && l.seed() == first.seed()
            && p.id.mask_hash == picked[0].id.mask_hash
            && l.braid() == first.braid();
        if !same {
            return Err(UsageError::flag(
                "--format",
                "store",
                format!(
                    "a maze store holds mazes of one size, seed, mask, braid chance and grid, \
                     and the picked levels include {} and {}: pick from one (--accept \"width = \
                     …\") or use --format jsonl",
                    first.id(),
                    l.id()
                ),
            )
            .into());
        }
    }
    let mut algos: Vec<String> = Vec::new();
    for l in levels {
        let a = l.algo().to_string();
        if !algos.contains(&a) {
            algos.push(a);
        }
    }
    let size = first.size();
    let grid = first.grid_size();
    let ends_rule = match grid.grid {
        Grid::Square => picked[0].id.ends.rule(size),
        g => batchgen::maze_id::grid_ends_rule(picked[0].id.ends, g),
    };
    let info = StoreInfo {
        width: size.width,
        height: size.height,
        depth: size.depth,
        seed: first.seed(),
        algos: algos.clone(),
        ends_rule,
        mask: first.mask().cloned(),
        braid: first.braid(),
    };
    // Levels of another grid are stored as the main job stores them: the open bits of the
    // grid's edges ([`StoreWriter::create_on`]).
    let mut w = StoreWriter::create_on(out, &info, first.graph())?;
    for l in levels {
        let algo = algos
            .iter()
            .position(|a| *a == l.algo().to_string())
            .expect("listed") as u32;
        w.append(Entry {
            algo,
            index: l.index(),
            maze_seed: l.maze_seed(),
            maze_hash: l.maze_hash(),
            entrance: l.entrance(),
            exit: l.exit(),
            loops: l.metrics().loops,
            walls: l.walls(),
        })?;
    }
    Ok(w.prepare()?)
}

/// Every picked (algo, size, mask, grid) group must regenerate in reasonable time, by the main
/// job's rule: the square grid's ([`check_walk_steps`]) on a square grid, the grid's own on the
/// others (its cells and end-to-end span, [`batchgen::run::grid_cost::check_walk_steps_on`], as
/// `--grid` runs apply it): a file's rows can name any generator, grid and size. A refusal
/// names the group's first row.
fn check_walks(picked: &[Picked]) -> Result<(), UsageError> {
    let mut seen = std::collections::HashSet::new();
    for p in picked {
        let id = &p.id;
        if !seen.insert((id.algo.name(), id.size, id.mask_hash, id.grid)) {
            continue;
        }
        let mask = p.mask.as_deref().map(|m| (m, p.path.as_path()));
        let checked = match id.grid {
            Grid::Square => check_walk_steps(&[id.algo], id.size, mask),
            grid => check_grid_walks(id.algo, grid, id.size, mask),
        };
        checked.map_err(|e| {
            UsageError(format!(
                "INPUT '{}' row {} ({}): {e}",
                p.path.display(),
                p.row,
                pick::grid_group_name(&id.algo.name(), id.size, id.grid)
            ))
        })?;
    }
    Ok(())
}

/// [`check_walks`] on a grid other than the square one: the walk limit on the cell graph of
/// `grid` at `size` (over `mask`'s cells, named by its file).
fn check_grid_walks(
    algo: batchgen::Algorithm,
    grid: Grid,
    size: batchgen::grid::Size,
    mask: Option<(&Mask, &Path)>,
) -> Result<(), UsageError> {
    if algo
        .expected_walk_steps(batchgen::grid::Size::planar(2, 2))
        .is_none()
    {
        return Ok(());
    }
    let usage = |e: batchgen::run::RunError| UsageError(e.message(batchgen::run::Names::Flags));
    let mask_name = mask.map(|(_, path)| path.display().to_string());
    let mask = mask.map(|(m, _)| m).zip(mask_name.as_deref());
    let (gs, g) = batchgen::run::grid_graph(grid, Some(size), mask).map_err(usage)?;
    batchgen::run::grid_cost::check_walk_steps_on(
        &[algo],
        &g,
        &gs.to_string(),
        mask_name.as_deref(),
    )
    .map_err(usage)
}

/// Every picked group on a grid other than the square one must fit in memory before its cell
/// graph is built (by the walk check and by the levels): one maze of the group with its graph
/// and buffers ([`memory_need`], as `render --grid` checks it) within the memory available,
/// and its cells within [`batchgen::grid::MAX_CELLS`]. Without it a row naming a huge grid
/// aborts on allocation. A refusal names the group's first row and its size columns.
fn check_grid_memory(picked: &[Picked]) -> Result<(), UsageError> {
    let mut seen = std::collections::HashSet::new();
    for p in picked {
        let id = &p.id;
        if id.grid == Grid::Square || !seen.insert((id.algo.name(), id.size, id.mask_hash, id.grid))
        {
            continue;
        }
        let gs = GridSize::new(id.grid, id.size.width, id.size.height);
        let row = || {
            format!(
                "INPUT '{}' row {} ({}): its size {gs} (columns width and height)",
                p.path.display(),
                p.row,
                pick::grid_group_name(&id.algo.name(), id.size, id.grid)
            )
        };
        let cells = gs.cells_u64();
        if cells > batchgen::grid::MAX_CELLS {
            return Err(UsageError(format!(
                "{} has {cells} cells, more than the {} a maze may have",
                row(),
                batchgen::grid::MAX_CELLS
            )));
        }
        let need = memory_need(&[id.algo], gs, p.mask.as_ref().map(|m| m.cells()), 1, false);
        if let Some(have) = batchgen::memory::available().filter(|&have| need > have) {
            return Err(UsageError(format!(
                "{} needs about {} of memory for one level (its maze, cell graph and buffers), \
                 but only {} is available (MemAvailable, and the address-space limit \
                 `ulimit -v`); pick smaller levels (--accept)",
                row(),
                batchgen::memory::human(need),
                batchgen::memory::human(have)
            )));
        }
    }
    Ok(())
}

/// The Tiled formats refuse levels of the triangle and polar grids, which have no Tiled
/// orientation, naming the format and the grid (square and hex levels go to every format; the
/// others to json, jsonl, png, svg and store).
fn check_grids(format: LevelFormat, picked: &[Picked]) -> Result<(), UsageError> {
    let tiled = matches!(format, LevelFormat::Tmx | LevelFormat::Tmj);
    let refused = |g: Grid| g != Grid::Square && !(tiled && g == Grid::Hex);
    let Some(p) = picked.iter().find(|p| refused(p.id.grid)) else {
        return Ok(());
    };
    let grid = p.id.grid;
    let (name, why) = match format {
        LevelFormat::Tmx => ("tmx", "Tiled maps are written for square and hex grids"),
        LevelFormat::Tmj => ("tmj", "Tiled maps are written for square and hex grids"),
        _ => return Ok(()),
    };
    Err(UsageError::flag(
        "--format",
        name,
        format!(
            "{why}, and the picked levels include {grid}-grid levels ('{}' row {}); use \
             --format json, jsonl, svg, png or store",
            p.path.display(),
            p.row,
        ),
    ))
}

/// Run `batchgen levels`.
pub fn run(args: &LevelsArgs) -> anyhow::Result<()> {
    let pick = match (args.pick, args.pick_seed) {
        (PickArg::First, Some(s)) => {
            return Err(UsageError::flag(
                "--pick-seed",
                &s.to_string(),
                "it seeds --pick sample; --pick first takes no seed",
            )
            .into())
        }
        (PickArg::First, None) => Pick::First,
        (PickArg::Sample, s) => Pick::Sample(s.unwrap_or(0)),
    };
    if args.count == Some(0) {
        return Err(UsageError::flag("--count", "0", "at least one level per group").into());
    }
    if let Some(rule) = &args.ends_rule {
        let ok = rule.trim().starts_with("diameter")
            || (rule.contains("entrance=") && rule.contains("exit="));
        if !ok {
            return Err(UsageError::flag(
                "--ends-rule",
                rule,
                "expected 'diameter' or 'entrance=X,Y[,Z] exit=X,Y[,Z]'",
            )
            .into());
        }
    }
    let mask: Option<Arc<Mask>> = match &args.mask {
        Some(p) => Some(mask_arg::read("--mask", p)?),
        None => None,
    };
    check_out(args)?;
    let files = inputs::resolve(&args.inputs).map_err(|e| UsageError(e.to_string()))?;
    if !args.format.per_level() {
        // One output file: never one of the files the run reads.
        let mut plan = OutputSet::new();
        for f in &files {
            plan.add_input("INPUT", f);
        }
        if let Some(m) = &args.mask {
            plan.add_input("--mask", m);
        }
        plan.add("--out", &args.out, &args.out)
            .map_err(|e| UsageError(e.to_string()))?;
    }
    batchgen::interrupt::install().context("installing the signal handlers")?;
    let spec = PickSpec {
        accept: args.accept.as_ref(),
        count: args.count,
        pick,
        ends_rule: args.ends_rule.as_deref(),
        mask,
    };
    let picked = pick::choose(&files, &spec).map_err(pick_error)?;
    if picked.is_empty() {
        return Err(UsageError(match &args.accept {
            Some(a) => format!("no row of the inputs passes --accept '{}'", a.source()),
            None => "the inputs have no rows".into(),
        })
        .into());
    }
    check_grids(args.format, &picked)?;
    check_grid_memory(&picked)?;
    if !args.no_time_limit {
        check_walks(&picked)?;
    }
    if matches!(args.format, LevelFormat::Png | LevelFormat::Svg) && picked.len() > SHEET_MAX {
        return Err(UsageError::flag(
            "--format",
            if args.format == LevelFormat::Png { "png" } else { "svg" },
            format!(
                "a contact sheet shows at most {SHEET_MAX} levels and {} are picked; give a smaller --count",
                picked.len()
            ),
        )
        .into());
    }
    let levels: Vec<Level> = picked
        .par_iter()
        .map(Picked::level)
        .collect::<Result<_, _>>()
        .map_err(pick_error)?;
    let rows: Vec<Vec<(String, Value)>> = pick::row_values(&picked).map_err(pick_error)?;
    let exports: Vec<Export<'_>> = levels
        .iter()
        .zip(&rows)
        .map(|(level, row)| Export { level, row })
        .collect();
    if let Some(sig) = batchgen::interrupt::received() {
        anyhow::bail!(
            "interrupted by {}; nothing written",
            batchgen::interrupt::name(sig)
        );
    }
    let mut files: Vec<Prepared> = Vec::new();
    match args.format {
        LevelFormat::Store => files.push(write_store(&args.out, &levels, &picked)?),
        LevelFormat::Jsonl => {
            let mut text = String::new();
            for e in &exports {
                text.push_str(&export::json::document(e));
                text.push('\n');
            }
            files.push(prepared(&args.out, text.as_bytes())?);
        }
        LevelFormat::Png | LevelFormat::Svg => {
            let columns: Vec<&str> = args.accept.as_ref().map_or(Vec::new(), |a| {
                a.columns_used()
                    .iter()
                    .map(|&c| batchgen::accept::COLUMNS[c as usize].name)
                    .collect()
            });
            let title = match &args.accept {
                Some(a) => format!("{} levels passing {}", exports.len(), a.source()),
                None => format!("{} levels", exports.len()),
            };
            let bytes = if args.format == LevelFormat::Png {
                export::sheet::png(&exports, &columns, &title)?
            } else {
                export::sheet::svg(&exports, &columns, &title)?.into_bytes()
            };
            files.push(prepared(&args.out, &bytes)?);
        }
        f => {
            std::fs::create_dir_all(&args.out)
                .with_context(|| format!("making the folder '{}'", args.out.display()))?;
            let ext = f.extension();
            let mut plan = OutputSet::new();
            let mut outputs: Vec<(PathBuf, Vec<u8>)> = Vec::new();
            let hex = levels.iter().any(|l| l.grid() == Grid::Hex);
            let square = levels.iter().any(|l| l.grid() == Grid::Square);
            if hex && matches!(f, LevelFormat::Tmx | LevelFormat::Tmj) {
                let name = export::hex_tiles::HEX_NAME;
                let (ext, text) = if f == LevelFormat::Tmx {
                    ("tsx", export::hex_tiles::tsx())
                } else {
                    ("tsj", export::hex_tiles::tsj())
                };
                outputs.push((args.out.join(format!("{name}.{ext}")), text.into_bytes()));
                outputs.push((
                    args.out.join(format!("{name}.png")),
                    export::hex_tiles::png(),
                ));
            }
            match f {
                _ if !square => {}
                LevelFormat::Tmx => {
                    outputs.push((
                        args.out.join(format!("{}.tsx", tileset::NAME)),
                        tileset::tsx().into_bytes(),
                    ));
                    outputs.push((
                        args.out.join(format!("{}.png", tileset::NAME)),
                        tileset::png(),
                    ));
                }
                LevelFormat::Tmj => {
                    outputs.push((
                        args.out.join(format!("{}.tsj", tileset::NAME)),
                        tileset::tsj().into_bytes(),
                    ));
                    outputs.push((
                        args.out.join(format!("{}.png", tileset::NAME)),
                        tileset::png(),
                    ));
                }
                _ => {}
            }
            let texts: Vec<(PathBuf, Vec<u8>)> = exports
                .par_iter()
                .map(|e| {
                    let path = args
                        .out
                        .join(format!("{}.{ext}", export::file_stem(e.level)));
                    let text = match f {
                        LevelFormat::Json => export::json::document(e) + "\n",
                        LevelFormat::Tmx => export::tmx::map(e),
                        _ => export::tmj::map(e),
                    };
                    (path, text.into_bytes())
                })
                .collect();
            outputs.extend(texts);
            for (path, _) in &outputs {
                plan.add("--out", &args.out, path).map_err(|e| {
                    UsageError(format!(
                        "{e} (two picked levels share algo, size and index: pick from one seed)"
                    ))
                })?;
            }
            if let Some(sig) = batchgen::interrupt::received() {
                anyhow::bail!(
                    "interrupted by {}; nothing written",
                    batchgen::interrupt::name(sig)
                );
            }
            // Each file is synced before the commit: the syncs wait on the disk, not on a
            // core, so they overlap on more threads than cores.
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(WRITERS)
                .build()
                .context("starting the writer threads")?;
            let written: Vec<Prepared> = pool.install(|| {
                outputs
                    .par_iter()
                    .map(|(path, bytes)| prepared(path, bytes))
                    .collect::<anyhow::Result<_>>()
            })?;
            files.extend(written);
        }
    }
    commit_all(files)?;
    Ok(())
}
