//! `batchgen summary FILE…`: per algorithm and size, the count, mean ± standard error and
//! quantiles of every metric column, and with `--accept` the pass-rate preview (rows passing,
//! share, candidates per accepted maze) using the main job's own filter evaluator.
//!
//! Every input problem (missing file, not Parquet, not batchgen's, no rows, a filter column the
//! file lacks) is reported before any statistics are computed, with exit status 2.

use batchgen::accept::Accept;
use batchgen::summary::report::{self, Format};
use batchgen::summary::{self, inputs, GroupBy, SummaryError};

use super::UsageError;

/// Flags of `batchgen summary`.
#[derive(clap::Args, Debug)]
pub struct SummaryArgs {
    /// Metrics files, glob patterns (e.g. 'runs/*.parquet') or folders (searched recursively,
    /// e.g. a hive-partitioned dataset).
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<String>,
    /// Output format: table, csv or json.
    #[arg(long, default_value = "table", value_name = "FORMAT")]
    pub format: String,
    /// Group by: a comma list of `algo` and `size`, or `none`.
    #[arg(long, default_value = "algo,size", value_name = "KEYS")]
    pub by: String,
    /// Also count, per group, the rows passing this filter (the main job's --accept language,
    /// e.g. 'dead_end_share <= 0.28 AND solution_length >= 180').
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub accept: Option<String>,
}

/// Run `batchgen summary`.
pub fn run(args: &SummaryArgs) -> anyhow::Result<()> {
    let format = Format::parse(&args.format)
        .ok_or_else(|| UsageError::flag("--format", &args.format, "expected table, csv or json"))?;
    let by = GroupBy::parse(&args.by).map_err(|e| UsageError::flag("--by", &args.by, e))?;
    let accept = match &args.accept {
        None => None,
        Some(e) => Some(Accept::parse(e).map_err(|err| UsageError::flag("--accept", e, err))?),
    };
    let usage = |e: SummaryError| match e {
        SummaryError::Read { .. } => anyhow::Error::new(e),
        other => anyhow::Error::new(UsageError(other.to_string())),
    };
    let files = inputs::resolve(&args.inputs).map_err(usage)?;
    let s = summary::summarize(&files, by, accept.as_ref()).map_err(usage)?;
    super::stdio::out(report::render(&s, format))?;
    Ok(())
}
