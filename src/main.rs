//! The `batchgen` binary: parse the command line, dispatch, print errors, choose the exit code
//! (0 success, 1 failure during work, 2 bad input detected before any work).

mod cli;
mod cmd;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use cli::{Cli, Command};

/// `error:`, in red when stderr is coloured.
fn error_prefix() -> String {
    cmd::color::red("error:", cmd::color::stderr())
}

/// The `--color` choice on the command line (the last one wins) and the arguments without it.
/// It is taken out before clap parses because a global flag given before a subcommand
/// (`batchgen --color never render …`) would otherwise conflict with the main job's flags.
/// A bad value is an error naming the flag and the value.
fn take_color_flag(
    args: Vec<std::ffi::OsString>,
) -> Result<(cmd::color::When, Vec<std::ffi::OsString>), cmd::UsageError> {
    use clap::ValueEnum;
    let mut when = cmd::color::When::Auto;
    let mut kept = Vec::with_capacity(args.len());
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--" {
            kept.push(a);
            kept.extend(it.by_ref());
            break;
        }
        let value = match a.to_str().and_then(|s| s.strip_prefix("--color")) {
            Some("") => match it.next() {
                Some(v) => v.to_string_lossy().into_owned(),
                None => String::new(),
            },
            Some(rest) if rest.starts_with('=') => rest[1..].to_string(),
            _ => {
                kept.push(a);
                continue;
            }
        };
        when = cmd::color::When::from_str(&value, false).map_err(|_| {
            cmd::UsageError::flag("--color", &value, "expected auto, always or never")
        })?;
    }
    Ok((when, kept))
}

fn main() -> ExitCode {
    // `--color` also governs clap's own help and error colours; read it before parsing.
    let (when, args) = match take_color_flag(std::env::args_os().collect()) {
        Ok(x) => x,
        Err(e) => {
            let _ = errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    cmd::color::set(when);
    let clap_color = match when {
        cmd::color::When::Auto if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) => {
            clap::ColorChoice::Never
        }
        cmd::color::When::Auto => clap::ColorChoice::Auto,
        cmd::color::When::Always => clap::ColorChoice::Always,
        cmd::color::When::Never => clap::ColorChoice::Never,
    };
    let matches = match Cli::command().color(clap_color).try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => {
            // An unquoted filter (`--accept solution_length >= 10`) reaches clap as a column
            // name and stray words: say what happened instead of clap's puzzle.
            let usage = !matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            );
            if let (true, Some(why)) = (usage, cmd::values::unquoted_accept(&args)) {
                let _ = errln!("{} {why}", error_prefix());
                return ExitCode::from(2);
            }
            if !usage {
                // `--help` and `--version` on stdout: a write error (a full disk) is a failure
                // (exit 1), a closed pipe a quiet exit 0, as for every command's output.
                use std::io::Write;
                return match e.print().and_then(|()| std::io::stdout().flush()) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(w) if w.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                    Err(w) => {
                        let _ = errln!("{} writing to stdout: {w}", error_prefix());
                        ExitCode::from(1)
                    }
                };
            }
            e.exit()
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // args_os: a file name need not be UTF-8 (clap reads paths as OsString too).
    let command_line =
        batchgen::shell::join(std::env::args_os().map(|a| a.to_string_lossy().into_owned()));
    let result = match &cli.command {
        Some(Command::ListAlgos(args)) => cmd::list_algos::run(args),
        Some(Command::Render(args)) => cmd::render::run(args),
        Some(Command::Uniformity(args)) => cmd::uniformity::run(args),
        Some(Command::Check(args)) => cmd::check::run(args),
        Some(Command::Summary(args)) => cmd::summary::run(args),
        Some(Command::Levels(args)) => cmd::levels::run(args),
        Some(Command::Plot(args)) => cmd::plot::run(args),
        Some(Command::Explore(args)) => cmd::explore::run(args),
        Some(Command::DatasetMl(args)) => cmd::dataset_ml::run(args, &command_line),
        Some(Command::Completions(args)) => cmd::completions::run(args, Cli::command()),
        Some(Command::Man(args)) => cmd::man::run(args, Cli::command()),
        None if cli.run.list_algos => cmd::list_algos::run(&Default::default()),
        None => cli
            .run
            .validate()
            .map_err(anyhow::Error::new)
            .and_then(|cfg| cmd::generate::run(&cfg, &command_line)),
    };
    exit_code(result)
}

/// The exit status for a command's result, printing its error on stderr. A closed pipe on
/// stdout or stderr (`batchgen … | head`) is a quiet success; a message that cannot be written
/// is dropped (there is nowhere left to say it), never a panic.
fn exit_code(result: anyhow::Result<()>) -> ExitCode {
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    let broken_pipe = e.chain().any(|c| {
        c.downcast_ref::<cmd::stdio::StreamError>()
            .is_some_and(|s| s.is_broken_pipe())
            || c.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    if let Some(i) = e.downcast_ref::<cmd::Interrupted>() {
        let _ = errln!("batchgen: {i}");
        return ExitCode::from((128 + i.signal).clamp(0, 255) as u8);
    }
    if let Some(u) = e.downcast_ref::<cmd::UsageError>() {
        let _ = errln!("{} {u}", error_prefix());
        return ExitCode::from(2);
    }
    let _ = errln!("{} {e:#}", error_prefix());
    ExitCode::FAILURE
}
