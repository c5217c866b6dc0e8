//! The set of files one run will write, planned before any work so that no two outputs of a
//! run land on one file.
//!
//! Every output path (each part file of a dataset folder, the maze store, the summary JSON) is
//! resolved the way the writer will resolve it: the folder made canonical (symlinks followed,
//! `.` and `..` applied; components that do not exist yet are the folders the run creates, so
//! they are applied as written), a symlink in the last component followed to its final target
//! ([`crate::atomic_file::Target::resolve`]), and an existing file identified by its device and
//! inode, which catches hard links. Two outputs collide when they resolve to one path or one
//! inode, or when one would have to be a folder holding the other. Character devices written
//! straight through (`/dev/null` for a timing run) may be shared. The files a run reads
//! (`--mask`, `render --store`, the inputs of `levels`) join the set as inputs: an output that
//! is one of them, by any spelling or hard link, is refused, so no run replaces its own input.

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use crate::atomic_file::{Mode, OutputError, Target};

/// One planned output file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// The flag it comes from (`--out`, `--mazes`, `--summary-json`).
    pub flag: String,
    /// The flag's value as given (a dataset folder for a part file).
    pub given: PathBuf,
    /// The file's path before resolving (the part file's path inside a dataset folder).
    pub requested: PathBuf,
    /// The file that will be written.
    pub resolved: PathBuf,
    /// How it will be written.
    pub mode: Mode,
    /// Device and inode of the file when it exists.
    pub inode: Option<(u64, u64)>,
    /// A file the run reads (`--mask`, `--store`, an input file), which no output may replace.
    pub input: bool,
}

/// Why an output cannot be planned.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The path itself cannot be written (see [`OutputError`]).
    #[error("invalid value '{given}' for '{flag}': {source}")]
    Output {
        /// The flag.
        flag: String,
        /// Its value.
        given: String,
        /// What is wrong.
        source: OutputError,
    },
    /// Two outputs are one file, or one would have to be the other's folder.
    #[error("{} and {} {why} ('{}'): the run would lose one of them; give them different paths", describe(.first), describe(.second), .second.resolved.display())]
    Collision {
        /// The output planned first.
        first: Box<Planned>,
        /// The output that collides with it.
        second: Box<Planned>,
        /// `would write the same file`, or how one contains the other.
        why: &'static str,
    },
}

fn describe(p: &Planned) -> String {
    if p.given == p.requested {
        format!("{} '{}'", p.flag, p.given.display())
    } else {
        format!(
            "{} '{}' (its part '{}')",
            p.flag,
            p.given.display(),
            p.requested.display()
        )
    }
}

/// Resolve a folder that may not exist yet: existing components canonically, the missing tail
/// as written. Returns the path and whether it exists.
fn resolve_folder(dir: &Path) -> Result<(PathBuf, bool), OutputError> {
    let fail = |source: io::Error| OutputError::Folder {
        dir: dir.to_path_buf(),
        source,
    };
    let mut cur = if dir.is_absolute() {
        PathBuf::from("/")
    } else {
        std::env::current_dir()
            .and_then(std::fs::canonicalize)
            .map_err(fail)?
    };
    // Components appended that do not exist (folders the run will create).
    let mut missing = 0usize;
    for c in dir.components() {
        match c {
            Component::Prefix(_) | Component::CurDir => {}
            Component::RootDir => {
                cur = PathBuf::from("/");
                missing = 0;
            }
            Component::ParentDir => {
                cur.pop();
                missing = missing.saturating_sub(1);
            }
            Component::Normal(n) => {
                let next = cur.join(n);
                if missing > 0 {
                    missing += 1;
                    cur = next;
                    continue;
                }
                match std::fs::symlink_metadata(&next) {
                    Ok(_) => {
                        cur = std::fs::canonicalize(&next).map_err(fail)?;
                        if !cur.is_dir() {
                            return Err(fail(io::Error::new(
                                io::ErrorKind::NotADirectory,
                                format!("'{}' is not a folder", next.display()),
                            )));
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        missing = 1;
                        cur = next;
                    }
                    Err(e) => return Err(fail(e)),
                }
            }
        }
    }
    Ok((cur, missing == 0))
}

/// A resolved output: the file, how it is written, its device and inode when it exists.
pub(crate) type Resolved = (PathBuf, Mode, Option<(u64, u64)>);

/// Resolve one output path as its writer will (see the module docs).
pub fn resolve(path: &Path) -> Result<Resolved, OutputError> {
    let name = match path.file_name() {
        Some(n) if !path.as_os_str().as_encoded_bytes().ends_with(b"/") => n,
        _ => return Err(OutputError::NotAFileName(path.to_path_buf())),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (dir, exists) = resolve_folder(dir)?;
    if !exists {
        return Ok((dir.join(name), Mode::Replace, None));
    }
    let t = Target::resolve(&dir.join(name))?;
    let inode = std::fs::metadata(&t.resolved)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| (m.dev(), m.ino()));
    Ok((t.resolved, t.mode, inode))
}

/// The outputs of one run, checked pairwise as they are added.
#[derive(Debug, Default)]
pub struct OutputSet {
    files: Vec<Planned>,
}

impl OutputSet {
    /// No outputs yet.
    pub fn new() -> OutputSet {
        OutputSet::default()
    }

    /// Plan the file `requested` written for `flag` (whose value was `given`); refuse it when
    /// it collides with an output already planned.
    pub fn add(&mut self, flag: &str, given: &Path, requested: &Path) -> Result<(), PlanError> {
        let (resolved, mode, inode) = resolve(requested).map_err(|source| PlanError::Output {
            flag: flag.into(),
            given: given.display().to_string(),
            source,
        })?;
        let new = Planned {
            flag: flag.into(),
            given: given.to_path_buf(),
            requested: requested.to_path_buf(),
            resolved,
            mode,
            inode,
            input: false,
        };
        for old in &self.files {
            if old.mode == Mode::WriteThrough && new.mode == Mode::WriteThrough {
                continue;
            }
            if old.input {
                if old.resolved == new.resolved || (old.inode.is_some() && old.inode == new.inode) {
                    return Err(PlanError::Collision {
                        first: Box::new(old.clone()),
                        second: Box::new(new),
                        why: "would replace a file the run reads",
                    });
                }
                continue;
            }
            let why = if old.resolved == new.resolved
                || (old.inode.is_some() && old.inode == new.inode)
            {
                Some("would write the same file")
            } else if new.resolved.starts_with(&old.resolved) {
                Some("clash: the first would have to be a folder holding the second")
            } else if old.resolved.starts_with(&new.resolved) {
                Some("clash: the second would have to be a folder holding the first")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(PlanError::Collision {
                    first: Box::new(old.clone()),
                    second: Box::new(new),
                    why,
                });
            }
        }
        self.files.push(new);
        Ok(())
    }

    /// Record a file the run reads (for `flag`): an output planned on it, by any spelling or
    /// hard link, is refused. Add inputs before outputs. A path that cannot be resolved is
    /// left to its reader to report.
    pub fn add_input(&mut self, flag: &str, path: &Path) {
        let Ok(resolved) = std::fs::canonicalize(path) else {
            return;
        };
        let inode = std::fs::metadata(&resolved)
            .ok()
            .map(|m| (m.dev(), m.ino()));
        self.files.push(Planned {
            flag: flag.into(),
            given: path.to_path_buf(),
            requested: path.to_path_buf(),
            resolved,
            mode: Mode::Replace,
            inode,
            input: true,
        });
    }

    /// The planned files, in the order added.
    pub fn files(&self) -> &[Planned] {
        &self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_folders_are_applied_as_written() {
        let d = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap();
        let (p, m, i) = resolve(&d.path().join("new/deeper/../x.parquet")).unwrap();
        assert_eq!(p, root.join("new/x.parquet"));
        assert_eq!((m, i), (Mode::Replace, None));
        std::fs::write(d.path().join("f"), b"").unwrap();
        assert!(resolve(&d.path().join("f/x.parquet")).is_err());
        assert!(resolve(&d.path().join("dir/")).is_err());
    }

    #[test]
    fn hard_links_and_nesting_collide() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.parquet");
        std::fs::write(&a, b"x").unwrap();
        std::fs::hard_link(&a, d.path().join("b.arrow")).unwrap();
        let mut set = OutputSet::new();
        set.add("--out", &a, &a).unwrap();
        let b = d.path().join("b.arrow");
        let e = set.add("--mazes", &b, &b).unwrap_err().to_string();
        assert!(e.contains("--out") && e.contains("--mazes"), "{e}");
        let nested = d.path().join("a.parquet/x/part.arrow");
        let mut set = OutputSet::new();
        set.add("--out", &nested, &nested).unwrap_err();
        let ds = d.path().join("ds/algo=x");
        let inside = d.path().join("ds/algo=x/size=4x4/part.arrow");
        set.add("--out", &ds, &ds).unwrap();
        assert!(matches!(
            set.add("--mazes", &inside, &inside),
            Err(PlanError::Collision { .. })
        ));
    }
}
