//! The `batchgen` binary: parse the command line, dispatch, print errors, choose the exit code
//! (0 success, 1 failure during work, 2 bad input detected before any work).

mod cli;
mod cmd;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command_line = std::env::args()
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$&|;<>*?".contains(c))
            {
                format!("'{}'", a.replace('\'', r"'\''"))
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let result = match &cli.command {
        Some(Command::ListAlgos) => cmd::list_algos::run(),
        Some(Command::Render(args)) => cmd::render::run(args),
        Some(Command::Uniformity(args)) => cmd::uniformity::run(args),
        Some(Command::Check(args)) => cmd::check::run(args),
        Some(Command::Summary(args)) => cmd::summary::run(args),
        Some(Command::Plot(args)) => cmd::plot::run(args),
        None if cli.run.list_algos => cmd::list_algos::run(),
        None => cli
            .run
            .validate()
            .map_err(anyhow::Error::new)
            .and_then(|cfg| cmd::generate::run(&cfg, &command_line)),
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
