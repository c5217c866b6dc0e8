//! `batchgen check DIR`: is a dataset folder of shard files complete and consistent?
//!
//! Prints every problem (missing, duplicated or foreign shards, differing parameters, index
//! ranges that overlap or leave gaps) and the commands that re-make exactly the missing shards,
//! then exits 0 when the dataset is complete, 1 when anything is wrong, 2 when DIR is not a
//! folder. Only file footers are read, so checking a large dataset is quick.

use std::path::PathBuf;

use batchgen::dataset::{self, DatasetError};
use batchgen::printable::printable;

use super::UsageError;

/// Flags of `batchgen check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The dataset folder (the `--out DIR/` of the sharded runs).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Check the folder and print the report on stdout.
pub fn run(args: &CheckArgs) -> anyhow::Result<()> {
    let shown = args.dir.display().to_string();
    let rep = dataset::check(&args.dir).map_err(|e| match e {
        DatasetError::NotAFolder(_) => anyhow::Error::new(UsageError::flag(
            "DIR",
            &shown,
            if args.dir.exists() {
                "is a file, expected a dataset folder"
            } else {
                "does not exist"
            },
        )),
        DatasetError::MixedGrids(why) => anyhow::Error::new(UsageError(why)),
        other => anyhow::Error::new(other),
    })?;
    for n in &rep.notes {
        crate::outln!("note: {}", printable(n))?;
    }
    for p in &rep.problems {
        crate::outln!("problem: {}", printable(p))?;
    }
    if !rep.rerun.is_empty() {
        crate::outln!("re-run these shards (each rewrites only its own file):")?;
        for c in &rep.rerun {
            crate::outln!("  {}", printable(c))?;
        }
    }
    if rep.is_complete() {
        crate::outln!(
            "{shown}: complete: {} partitions, {} files, {} rows",
            rep.partitions,
            rep.files,
            rep.rows
        )?;
        Ok(())
    } else {
        anyhow::bail!(
            "{shown} is incomplete or inconsistent: {} problem(s)",
            rep.problems.len()
        )
    }
}
