//! The top level of the command line: the program's name, version and global flags, and which
//! subcommand runs. Each subcommand's flags live beside its code in `cmd/NAME.rs`; shared value
//! parsers are library functions in [`batchgen::args`]. This file imports `cmd`, never the
//! other way round.

use std::sync::LazyLock;

use clap::{Parser, Subcommand};

use crate::cmd;

/// `--version`: the crate version and the seeding scheme (which maze a seed gives), e.g.
/// `batchgen 0.1.0 (seeding scheme 2)`.
pub static VERSION: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{} (seeding scheme {})",
        env!("CARGO_PKG_VERSION"),
        batchgen::rng::SEEDING_SCHEME
    )
});

/// batchgen: generate perfect mazes by the million, measure every one, write Parquet.
#[derive(Parser, Debug)]
#[command(
    name = "batchgen",
    version = VERSION.as_str(),
    about,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Cli {
    /// A subcommand; without one, batchgen runs the main job (generate, measure, write).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The main job's flags.
    #[command(flatten)]
    pub run: cmd::generate::RunArgs,
    /// Colour in messages and reports: `auto` (when the output is a terminal and NO_COLOR is
    /// unset), `always` or `never`.
    #[arg(long, global = true, value_enum, default_value_t = cmd::color::When::Auto, value_name = "WHEN")]
    pub color: cmd::color::When,
}

/// Subcommands besides the main job.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List every generator with its texture and whether it samples uniformly.
    ListAlgos(cmd::list_algos::ListAlgosArgs),
    /// Draw one maze (from a maze store, or regenerated from its algo, size, seed and index)
    /// as ascii, unicode, svg or png.
    Render(Box<cmd::render::RenderArgs>),
    /// Show exactly which generators are biased on a small grid: spanning-tree count,
    /// exhaustive Kruskal orders, exact distributions, chi-square sampling, per-wall bias.
    Uniformity(cmd::uniformity::UniformityArgs),
    /// Check that a dataset folder (`--out DIR/` of sharded runs) is complete and consistent:
    /// every shard of every (algo, size) once, same parameters, ranges disjoint and covering.
    /// Exit status 0 complete, 1 incomplete or inconsistent (with what to re-run), 2 bad input.
    Check(cmd::check::CheckArgs),
    /// Per algorithm and size: count, mean ± standard error and quantiles of every metric
    /// column of metrics files; with --accept, how many rows a filter would pass.
    Summary(cmd::summary::SummaryArgs),
    /// Histograms of every metric (one colour per algorithm) and a solution length vs
    /// dead-end share density, as PNG and SVG.
    Plot(cmd::plot::PlotArgs),
    /// Serve a local page over metrics files: linked histograms, brushing into an --accept
    /// expression, live pass rates and a gallery of the mazes that pass (loopback only).
    Explore(cmd::explore::ExploreArgs),
    /// Print a shell completion script (bash, zsh, fish or powershell) to stdout.
    Completions(cmd::completions::CompletionsArgs),
    /// Print the manual page (roff) to stdout, or write it with -o.
    Man(cmd::man::ManArgs),
}

#[cfg(test)]
mod tests {
    /// clap's own consistency checks (duplicate short flags, bad defaults, conflicting names),
    /// which release builds skip at run time.
    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
