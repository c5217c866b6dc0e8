//! `batchgen summary FILE…`: per algorithm and size, the count, mean ± standard error and
//! quantiles of every metric column, and with `--accept` the pass-rate preview (rows passing,
//! share, candidates per accepted maze) using the main job's own filter evaluator.
//!
//! Every input problem (missing file, not Parquet, not batchgen's, no rows, a filter column the
//! file lacks) is reported before any statistics are computed, with exit status 2.

use batchgen::accept::Accept;
use batchgen::summary::report::{self, Format};
use batchgen::summary::{self, inputs, GroupBy, SummaryError};

use super::{values, UsageError};

/// Flags of `batchgen summary`.
#[derive(clap::Args, Debug)]
pub struct SummaryArgs {
    /// Metrics files, glob patterns (e.g. 'runs/*.parquet') or folders (searched recursively,
    /// e.g. a hive-partitioned dataset).
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<std::ffi::OsString>,
    /// Output format.
    #[arg(long, default_value = "table", value_name = "FORMAT", value_enum)]
    pub format: SummaryFormat,
    /// Group by: a comma list of `algo` and `size`, or `none`.
    #[arg(long, default_value = "algo,size", value_name = "KEYS")]
    pub by: String,
    /// Also count, per group, the rows passing this filter (the main job's --accept language,
    /// e.g. 'dead_end_share <= 0.28 AND solution_length >= 180').
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true, value_parser = values::text(values::accept))]
    pub accept: Option<Accept>,
    /// The metrics to report, a comma list (default: every metric; the compact table shows
    /// dead_end_share, solution_length, diameter and solution_turns).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub columns: Option<Vec<String>>,
    /// Table layout.
    #[arg(long, value_enum, default_value = "auto", value_name = "LAYOUT")]
    pub layout: Layout,
    /// What a compact table cell shows.
    #[arg(long, value_enum, default_value = "mean", value_name = "STAT")]
    pub stat: StatArg,
}

/// Keep only the metrics `names` (in that order) in every group; a name no group has is bad
/// input, with the closest known one suggested.
fn choose_columns(s: &mut summary::Summary, names: &[String]) -> Result<(), UsageError> {
    let known: Vec<String> = s
        .groups
        .iter()
        .flat_map(|g| g.1.metrics.iter().map(|m| m.0.clone()))
        .fold(Vec::new(), |mut v, m| {
            if !v.contains(&m) {
                v.push(m);
            }
            v
        });
    for n in names {
        if !known.contains(n) {
            let hint = batchgen::suggest::closest(n, known.iter().map(String::as_str))
                .map_or(String::new(), |c| format!("did you mean '{c}'? "));
            return Err(UsageError::flag(
                "--columns",
                &names.join(","),
                format!("no metric '{n}'; {hint}(metrics: {})", known.join(", ")),
            ));
        }
    }
    for (_, g) in &mut s.groups {
        let mut kept = Vec::with_capacity(names.len());
        for n in names {
            if let Some(i) = g.metrics.iter().position(|m| &m.0 == n) {
                kept.push(g.metrics.swap_remove(i));
            }
        }
        g.metrics = kept;
    }
    Ok(())
}

/// The table's layout.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `compact` above 6 groups, else `blocks`.
    Auto,
    /// One row per group, one column per metric (--columns, --stat).
    Compact,
    /// One block per group: every metric with mean, standard error and quantiles.
    Blocks,
}

/// What a compact table cell shows.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatArg {
    /// mean ± standard error
    Mean,
    /// median [p5–p95]
    Median,
}

/// Output formats of `batchgen summary`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryFormat {
    /// Aligned text for people (numbers to 4 significant digits).
    Table,
    /// One row per group and metric, full precision.
    Csv,
    /// One object per group, full precision.
    Json,
}

/// Run `batchgen summary`.
pub fn run(args: &SummaryArgs) -> anyhow::Result<()> {
    let format = match args.format {
        SummaryFormat::Table => Format::Table,
        SummaryFormat::Csv => Format::Csv,
        SummaryFormat::Json => Format::Json,
    };
    let by = GroupBy::parse(&args.by).map_err(|e| UsageError::flag("--by", &args.by, e))?;
    let accept = args.accept.clone();
    let usage = |e: SummaryError| match e {
        SummaryError::Read { .. } => anyhow::Error::new(e),
        other => anyhow::Error::new(UsageError(other.to_string())),
    };
    let files = inputs::resolve(&args.inputs).map_err(usage)?;
    let mut s = summary::summarize(&files, by, accept.as_ref()).map_err(usage)?;
    let compact = format == Format::Table
        && match args.layout {
            Layout::Auto => s.groups.len() > 6,
            Layout::Compact => true,
            Layout::Blocks => false,
        };
    match &args.columns {
        Some(c) => choose_columns(&mut s, c)?,
        None if compact => {
            // The default columns the files have (older files may lack some).
            let names: Vec<String> = report::COMPACT_COLUMNS
                .iter()
                .filter(|c| {
                    s.groups
                        .iter()
                        .any(|g| g.1.metrics.iter().any(|m| m.0 == **c))
                })
                .map(|c| c.to_string())
                .collect();
            choose_columns(&mut s, &names)?;
        }
        None => {}
    }
    if compact {
        let stat = match args.stat {
            StatArg::Mean => report::CellStat::Mean,
            StatArg::Median => report::CellStat::Median,
        };
        super::stdio::out(report::compact(&s, stat))?;
    } else {
        super::stdio::out(report::render(&s, format))?;
    }
    Ok(())
}
