//! `batchgen man [SUBCOMMAND] [-o FILE]`: a manual page in roff, generated from the clap
//! definitions (clap_mangen): `batchgen(1)` (the main job, with the list of subcommands), or
//! with a subcommand name its own page `batchgen-render(1)` etc., as git and cargo lay theirs
//! out. On stdout (`batchgen man | man -l -`), or written atomically to `-o/--out FILE` (e.g.
//! `batchgen man render -o ~/.local/share/man/man1/batchgen-render.1`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use batchgen::atomic_file::AtomicFile;

use super::UsageError;

/// Flags of `batchgen man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// The page of this subcommand (e.g. `render`) instead of the main page.
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
    /// Write the page here instead of stdout (through a temporary file renamed when complete);
    /// a folder (an existing one, or a trailing slash) gets every page, `batchgen.1` and
    /// `batchgen-SUBCOMMAND.1` for each subcommand.
    #[arg(short, long, value_name = "FILE|DIR/")]
    pub out: Option<PathBuf>,
}

/// The page of `cmd` (the whole command line definition), or of its subcommand `sub`.
pub fn page(cmd: &clap::Command, sub: Option<&str>) -> Result<Vec<u8>, String> {
    let page = match sub {
        None => cmd.clone(),
        Some(name) => {
            let s = cmd
                .get_subcommands()
                .find(|s| s.get_name() == name && !s.is_hide_set())
                .ok_or_else(|| {
                    let names: Vec<&str> = cmd
                        .get_subcommands()
                        .filter(|s| !s.is_hide_set())
                        .map(|s| s.get_name())
                        .collect();
                    format!("no such subcommand; expected one of {}", names.join(", "))
                })?;
            let full = format!("{}-{}", cmd.get_name(), s.get_name());
            s.clone()
                .name(full)
                .bin_name(format!("{} {}", cmd.get_name(), s.get_name()))
        }
    };
    let mut buf = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut buf)
        .map_err(|e| e.to_string())?;
    Ok(buf)
}

/// Every page: `(file name, roff)` for the main page and each visible subcommand.
fn all_pages(cmd: &clap::Command) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut pages = vec![(format!("{}.1", cmd.get_name()), page(cmd, None)?)];
    for s in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = s.get_name();
        if name == "help" {
            continue;
        }
        pages.push((
            format!("{}-{name}.1", cmd.get_name()),
            page(cmd, Some(name))?,
        ));
    }
    Ok(pages)
}

/// Print or write the page.
pub fn run(args: &ManArgs, cmd: clap::Command) -> anyhow::Result<()> {
    if let Some(dir) = args
        .out
        .as_deref()
        .filter(|p| args.subcommand.is_none() && batchgen::dataset::is_folder_target(p))
    {
        let shown = dir.display().to_string();
        batchgen::args::check_out_dir("--out", dir).map_err(UsageError::from)?;
        std::fs::create_dir_all(dir).with_context(|| format!("creating {shown}"))?;
        let mut done = Vec::new();
        for (name, bytes) in all_pages(&cmd).map_err(UsageError)? {
            let path = dir.join(&name);
            let mut f =
                AtomicFile::create(&path).map_err(|e| UsageError::flag("--out", &shown, e))?;
            f.write_all(&bytes)
                .with_context(|| format!("writing {}", path.display()))?;
            done.push(f.prepare()?);
        }
        let n = done.len();
        batchgen::atomic_file::commit_all(done)?;
        crate::errln!("wrote {n} manual pages to {shown}")?;
        return Ok(());
    }
    let bytes = page(&cmd, args.subcommand.as_deref()).map_err(|why| {
        UsageError::flag("SUBCOMMAND", args.subcommand.as_deref().unwrap_or(""), why)
    })?;
    match &args.out {
        None => {
            super::stdio::out(&bytes)?;
        }
        Some(path) => {
            let shown = path.display().to_string();
            let target = batchgen::args::check_out("--out", path).map_err(UsageError::from)?;
            let mut f = AtomicFile::create_target(target)
                .map_err(|e| UsageError::flag("--out", &shown, e))?;
            f.write_all(&bytes)
                .with_context(|| format!("writing {shown}"))?;
            f.prepare()?.commit()?;
        }
    }
    Ok(())
}
