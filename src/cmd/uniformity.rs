//! `batchgen uniformity`: which generators sample every spanning tree with equal probability,
//! and how far from it the others are (exact where feasible, sampled otherwise).
//!
//! Parses and validates the flags into [`batchgen::uniformity::report::Options`], runs the study
//! (progress on stderr) and prints the report as a table or JSON on stdout. Requests that would
//! run for hours are refused up front with the estimate (exit 2) unless `--force`.

use super::UsageError;
use batchgen::args::parse_size;
use batchgen::generate::Algorithm;
use batchgen::grid::{Size, MAX_CELLS};
use batchgen::uniformity::report::{self, Options};

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
    /// Grid size WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH in cells, e.g. 2x3, 3x3 or 2x2x2.
    #[arg(long, value_name = "WxH[xD]")]
    pub size: String,
    /// Generators: a comma list of canonical names, or `all`.
    #[arg(long, value_name = "LIST", default_value = "all")]
    pub algo: String,
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
}

/// `WxH` (depth 1) or `WxHxD`: the 2D parser for the first two sides, then the depth.
// Stand-in until `batchgen::args::parse_size` returns a `grid::Size` (the 3D CLI work): the
// merge replaces this with that parser.
fn parse_size_3d(flag: &str, s: &str) -> Result<Size, UsageError> {
    let seps = s.matches(['x', 'X']).count();
    let (wh, depth) = match s.rsplit_once(['x', 'X']) {
        Some((wh, d)) if seps == 2 => (wh, Some(d)),
        _ => (s, None),
    };
    let (width, height) = parse_size(flag, wh).map_err(UsageError::from)?;
    let depth = match depth {
        None => 1,
        Some(d) => match d.trim().parse::<u32>() {
            Ok(d) if d > 0 => d,
            _ => {
                return Err(UsageError::flag(
                    flag,
                    s,
                    "expected WIDTHxHEIGHTxDEPTH with whole numbers of at least 1, e.g. 2x2x2",
                ))
            }
        },
    };
    let size = Size::new(width, height, depth);
    if size.cells_u64() > MAX_CELLS {
        return Err(UsageError::flag(
            flag,
            s,
            format!(
                "too big: {} cells; the largest maze has {MAX_CELLS} cells",
                size.cells_u64()
            ),
        ));
    }
    Ok(size)
}

/// Run `batchgen uniformity`.
pub fn run(args: &UniformityArgs) -> anyhow::Result<()> {
    let size = parse_size_3d("--size", &args.size)?;
    let mut algos =
        Algorithm::parse_list(&args.algo).map_err(|e| UsageError::flag("--algo", &args.algo, e))?;
    if size.is_3d() {
        let three_d = || {
            Algorithm::all_3d()
                .iter()
                .map(|a| a.family().name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let all = args.algo.split(',').any(|p| p.trim() == "all");
        let flat: Vec<String> = algos
            .iter()
            .filter(|a| !a.supports_3d())
            .map(|a| a.name())
            .collect();
        if all {
            algos.retain(|a| a.supports_3d());
            eprintln!(
                "batchgen uniformity: {size} is 3D: --algo all runs the 3D-capable generators ({})",
                three_d()
            );
        } else if !flat.is_empty() {
            return Err(UsageError::flag(
                "--algo",
                &args.algo,
                format!(
                    "{} only work(s) on 2D sizes; generators that accept a 3D size: {}",
                    flat.join(", "),
                    three_d()
                ),
            )
            .into());
        }
    }
    let opts = Options {
        size,
        algos,
        samples: args.samples,
        seed: args.seed,
        force: args.force,
    };
    let mut progress = |m: &str| eprintln!("batchgen uniformity: {m}");
    let rep = report::run(&opts, &mut progress).map_err(|e| UsageError(format!("refused: {e}")))?;
    match args.format {
        Format::Table => print!("{}", rep.table_with(super::color::stdout())),
        Format::Json => print!("{}", rep.to_json().pretty()),
    }
    Ok(())
}
