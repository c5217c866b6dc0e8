//! TEMPORARY WIRING (issue-uni branch only): just enough of a binary to run
//! `batchgen uniformity`; the lead's `src/main.rs` + `src/cli.rs` on main replace this.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "batchgen", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Which generators are uniform over spanning trees, exactly and by sampling.
    Uniformity(cmd::uniformity::UniformityArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Uniformity(a) => cmd::uniformity::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(u) = e.downcast_ref::<cmd::UsageError>() {
                eprintln!("error: {u}");
                return ExitCode::from(2);
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
