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
    subcommand_negates_reqs = true,
    // The main job needs --out (clap leaves a conditionally required flag out of the usage).
    override_usage = "batchgen [OPTIONS] --out <FILE|DIR/>\n       batchgen <COMMAND>"
)]
pub struct Cli {
    /// A subcommand; without one, batchgen runs the main job (generate, measure, write).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The main job's flags.
    #[command(flatten)]
    pub run: cmd::generate::RunArgs,
    /// Colour in messages and reports.
    ///
    /// `auto`: when the output is a terminal and NO_COLOR is unset.
    #[arg(long, global = true, value_enum, default_value_t = cmd::color::When::Auto, value_name = "WHEN")]
    pub color: cmd::color::When,
}

/// Subcommands besides the main job. The first line of each is its one-line summary (`-h`,
/// the command list); the rest is shown by `--help` and the manual page.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List every generator with its texture and whether it samples uniformly.
    ListAlgos(cmd::list_algos::ListAlgosArgs),
    /// Draw one maze as ascii, unicode, svg or png.
    ///
    /// The maze comes from a maze store (`--store FILE --record K`) or is regenerated from its
    /// algo, size, seed and index; `-o FILE` picks the format from its extension.
    Render(Box<cmd::render::RenderArgs>),
    /// Show exactly which generators are biased on a small grid.
    ///
    /// Spanning-tree count, exhaustive Kruskal orders, exact distributions, chi-square
    /// sampling and per-wall bias.
    Uniformity(cmd::uniformity::UniformityArgs),
    /// Check that a dataset folder of shard files is complete and consistent.
    ///
    /// Every shard of every (algo, size) once, same parameters, index ranges disjoint and
    /// covering. Exit status 0 complete, 1 incomplete or inconsistent (with the commands to
    /// re-run), 2 bad input.
    Check(cmd::check::CheckArgs),
    /// Statistics of every metric per generator and size, from metrics files.
    ///
    /// Count, mean ± standard error and quantiles of every metric column; with --accept, how
    /// many rows a filter would pass.
    Summary(cmd::summary::SummaryArgs),
    /// Write the mazes of chosen rows as levels: a maze store, JSON, Tiled maps or a sheet.
    ///
    /// Rows of metrics files passing --accept, picked per algo and size (the first N by index,
    /// as --accept with --count generates them, or a seeded sample), made again, checked
    /// against their maze_hash and written with --format to --out.
    Levels(Box<cmd::levels::LevelsArgs>),
    /// Histograms of every metric and a density plot, as PNG and SVG.
    ///
    /// One colour per generator, and a solution length vs dead-end share density; with
    /// --accept, the accepted region outlined.
    Plot(cmd::plot::PlotArgs),
    /// Serve a local page over metrics files: linked histograms, brushing into an --accept
    /// expression, live pass rates and a gallery of the mazes that pass (loopback only).
    Explore(cmd::explore::ExploreArgs),
    /// Write a Hugging Face-style Parquet dataset for machine learning.
    ///
    /// maze-dataset's connection list, pixels and AOTP tokens beside the metrics; exact
    /// deduplication (optionally up to symmetry) in bounded memory; train/validation/test
    /// splits that are a function of the maze, so no maze crosses splits; a dataset card.
    DatasetMl(Box<cmd::dataset_ml::DatasetMlArgs>),
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
