//! The `batchgen` binary: parse the command line, dispatch, print errors, choose the exit code
//! (0 success, 1 failure during work, 2 bad input detected before any work).

mod cli;
mod cmd;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Command};

/// Flags whose value is a path: the only places a non-UTF-8 argument makes sense.
const PATH_FLAGS: [&str; 5] = ["--out", "--mazes", "--store", "--output", "-o"];

/// A non-UTF-8 argument that is not a path value: the flag it belongs to (or the argument).
/// clap's own message ("invalid UTF-8 was detected in one or more arguments") names neither.
fn non_utf8_value() -> Option<(String, String)> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    for (i, a) in args.iter().enumerate() {
        if a.to_str().is_some() {
            continue;
        }
        let shown = a.to_string_lossy().into_owned();
        let bytes = a.as_encoded_bytes();
        // `--flag=value`
        if let Some(eq) = bytes.iter().position(|&b| b == b'=') {
            if let Ok(flag) = std::str::from_utf8(&bytes[..eq]) {
                if flag.starts_with('-') {
                    if PATH_FLAGS.contains(&flag) {
                        continue;
                    }
                    return Some((flag.to_string(), shown));
                }
            }
        }
        let prev = i.checked_sub(1).and_then(|p| args[p].to_str());
        match prev {
            Some(flag) if PATH_FLAGS.contains(&flag) => continue,
            Some(flag) if flag.starts_with('-') => return Some((flag.to_string(), shown)),
            _ => return Some(("an argument".to_string(), shown)),
        }
    }
    None
}

fn main() -> ExitCode {
    if let Some((flag, value)) = non_utf8_value() {
        eprintln!(
            "error: {}",
            cmd::UsageError::flag(&flag, &value, "is not valid UTF-8 (only file paths may be)")
        );
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    // args_os: a file name need not be UTF-8 (clap reads paths as OsString too).
    let command_line = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
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
            if let Some(i) = e.downcast_ref::<cmd::Interrupted>() {
                eprintln!("batchgen: {i}");
                return ExitCode::from((128 + i.signal).clamp(0, 255) as u8);
            }
            if let Some(u) = e.downcast_ref::<cmd::UsageError>() {
                eprintln!("error: {u}");
                return ExitCode::from(2);
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
