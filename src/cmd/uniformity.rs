//! `batchgen uniformity`: which generators sample every spanning tree with equal probability,
//! and how far from it the others are (exact where feasible, sampled otherwise).
//!
//! Parses and validates the flags into [`batchgen::uniformity::report::Options`], runs the study
//! (progress on stderr) and prints the report as a table or JSON on stdout. Requests that would
//! run for hours are refused up front with the estimate (exit 2) unless `--force`. With
//! `--mask FILE` the study is over the spanning trees of the mask's cells; the mask sets the
//! size, and one too large for an exact τ is refused (exit 2). With `--grid hex|triangle|polar`
//! the lab on that grid ([`batchgen::uniformity::grid_lab`]): τ exactly, the exact
//! distribution of each generator that runs there wherever its choices can be enumerated,
//! chi-square against uniform when τ is small and the per-edge test when it is not, with the
//! square grid's budgets and rules.

use std::path::PathBuf;

use super::{mask_arg, values, UsageError};
use batchgen::json;
use batchgen::uniformity::report::{self, Options, StudyMask, MASK_MAX_CELLS};

/// Output format of the report.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Human-readable tables.
    Table,
    /// One JSON document (exact numbers as strings).
    Json,
}

/// Flags of `batchgen uniformity`.
#[derive(clap::Args, Debug)]
pub struct UniformityArgs {
    /// Grid size WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH in cells, e.g. 2x3, 3x3 or 2x2x2 (with
    /// --grid polar: R rings or RxC).
    #[arg(long, value_name = "WxH[xD]", required_unless_present = "mask", value_parser = values::text(values::size_arg))]
    pub size: Option<values::SizeArg>,
    /// The cell shape: square, hex, triangle or polar (layouts in src/topo/README.md).
    #[arg(long, value_name = "GRID", default_value = "square", value_parser = values::text(values::grid))]
    pub grid: batchgen::topo::Grid,
    /// Study the mazes on this mask (text or PNG, as the main job's --mask): the spanning trees
    /// of its cells. It sets the size; a --size beside it must agree.
    #[arg(long, value_name = "FILE")]
    pub mask: Option<PathBuf>,
    /// Generators: a comma list of canonical names, or `all`.
    #[arg(long, value_name = "LIST", default_value = "all", value_parser = values::AlgoListParser, hide_possible_values = true)]
    pub algo: values::AlgoList,
    /// Mazes sampled per generator (0 skips sampling).
    #[arg(long, value_name = "N", default_value_t = 504_000)]
    pub samples: u64,
    /// Master seed of the sampled mazes (the batch's --seed: maze i is the batch's maze i).
    #[arg(long, value_name = "S", default_value_t = 42)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Run even what is estimated to take too long (exhaustive parts, long sampling).
    #[arg(long)]
    pub force: bool,
    /// Refused: the lab measures how generators sample spanning trees, and a braided maze is
    /// not a tree (the flag exists to say so instead of "unexpected argument").
    #[arg(long, value_name = "P", hide = true, allow_hyphen_values = true)]
    pub braid: Option<String>,
}

/// Run `batchgen uniformity`.
pub fn run(args: &UniformityArgs) -> anyhow::Result<()> {
    if let Some(p) = &args.braid {
        return Err(UsageError::flag(
            "--braid",
            p,
            "the uniformity lab measures spanning trees, and a braided maze has loops: \
             run it without --braid",
        )
        .into());
    }
    if args.grid != batchgen::topo::Grid::Square {
        return run_grid(args);
    }
    let mask = match &args.mask {
        Some(p) => Some(mask_arg::read("--mask", p)?),
        None => None,
    };
    let arg_size = args.size.map(values::SizeArg::square).transpose()?;
    let size = match &mask {
        Some(m) => mask_arg::size_for(arg_size, m.size(), Some(m), args.mask.as_deref())?,
        None => arg_size.expect("clap requires --size without --mask"),
    };
    if let (Some(m), Some(p)) = (&mask, &args.mask) {
        if u64::from(m.cells()) > MASK_MAX_CELLS {
            return Err(UsageError::flag(
                "--mask",
                &p.display().to_string(),
                format!(
                    "the mask has {} cells; the lab counts a mask's spanning trees exactly (no \
                     closed form exists for a shape), which it does up to {MASK_MAX_CELLS} cells",
                    m.cells()
                ),
            )
            .into());
        }
    }
    // On a 3D size, `all` means the 3D-capable generators (said on stderr); a 2D-only one named
    // explicitly is refused. On a mask, likewise for the generators that accept one.
    let (algos, note) = mask_arg::select_algos(
        &args.algo.spec,
        args.algo.algos.clone(),
        size,
        mask.as_ref(),
    )?;
    if let Some(note) = note {
        crate::errln!("batchgen uniformity: {note}")?;
    }
    let opts = Options {
        size,
        algos,
        samples: args.samples,
        seed: args.seed,
        force: args.force,
        mask: mask.zip(args.mask.as_ref()).map(|(mask, p)| StudyMask {
            name: p.display().to_string(),
            mask,
        }),
    };
    // A progress note that cannot be shown is not worth stopping the test for.
    let mut progress = |m: &str| {
        let _ = crate::errln!("batchgen uniformity: {m}");
    };
    let rep = report::run(&opts, &mut progress).map_err(|e| UsageError(format!("refused: {e}")))?;
    match args.format {
        Format::Table => super::stdio::out(rep.table_with(super::color::stdout()))?,
        Format::Json => super::stdio::out(json::pretty(&rep.to_json()))?,
    }
    Ok(())
}

/// `batchgen uniformity --grid hex|triangle|polar`: the grid's τ, each generator's exact
/// distribution where its choices can be enumerated, and the samples' chi-square or per-edge
/// test.
fn run_grid(args: &UniformityArgs) -> anyhow::Result<()> {
    use batchgen::topo::generate as tgen;
    use batchgen::uniformity::grid_lab;
    let grid = args.grid;
    let (size, g, _) = super::grid_render::grid_of(grid, args.size, args.mask.as_deref())?;
    if u64::from(g.cells()) > MASK_MAX_CELLS {
        return Err(UsageError::flag(
            "--size",
            &size.to_string(),
            format!(
                "the {grid} grid has {} cells; the lab counts its spanning trees exactly, which it \
                 does up to {MASK_MAX_CELLS} cells",
                g.cells()
            ),
        )
        .into());
    }
    let spec = args.algo.spec.as_str();
    let has_all = spec.split(',').any(|p| p.trim() == "all");
    let (algos, skipped): (Vec<_>, Vec<_>) = args
        .algo
        .algos
        .iter()
        .cloned()
        .partition(|a| tgen::check(a, grid).is_ok());
    if let (false, Some(a)) = (has_all, skipped.first()) {
        return Err(UsageError::flag("--algo", spec, tgen::check(a, grid).unwrap_err()).into());
    }
    let opts = grid_lab::GridOptions {
        algos,
        samples: args.samples,
        seed: args.seed,
        force: args.force,
        mask: args.mask.as_ref().map(|p| p.display().to_string()),
    };
    let mut progress = |m: &str| {
        let _ = crate::errln!("batchgen uniformity: {m}");
    };
    let study =
        grid_lab::run(&g, &opts, &mut progress).map_err(|e| UsageError(format!("refused: {e}")))?;
    match args.format {
        Format::Table => super::stdio::out(study.table_with(super::color::stdout()))?,
        Format::Json => super::stdio::out(json::pretty(&study.to_json()))?,
    }
    Ok(())
}
