//! Writing an output file so that it appears only when complete: the one place that owns the
//! temporary-file protocol for every output of batchgen (Parquet `--out`, maze store `--mazes`,
//! `render -o`).
//!
//! 1. [`Target::resolve`] looks at the path first. A symlink is followed (to its final target,
//!    even a dangling one): the link stays a link and its target is what gets replaced. A
//!    regular file or a missing path is written through a temporary file; a **character device**
//!    (`/dev/null` for a timing run) is written straight through, without temporary file or
//!    rename; anything else (folder, FIFO, socket, block device) is refused with
//!    [`OutputError::Special`] naming the path and its kind, before any work.
//! 2. [`AtomicFile::create`] makes the temporary file `.NAME.tmp-PID-RANDOM` in the target's
//!    own folder (same file system, so the rename is atomic), with `O_EXCL`: it never opens
//!    anything that already exists. RANDOM is 64 random bits, so a file left by a killed run
//!    whose PID comes back (containers reuse PIDs) never blocks a retry; a name that is taken
//!    anyway is drawn again. NAME is shortened in the temporary name only, so the whole stays
//!    within the file-name limit (255 bytes) whatever the target's name.
//! 3. [`AtomicFile::prepare`] fsyncs it and returns a [`Prepared`] file: complete, durable, not
//!    yet visible.
//! 4. [`commit_all`] makes several prepared files visible together: it takes an exclusive
//!    advisory lock (`flock`) on every target folder, so two runs committing into the same
//!    folders commit one after the other and the files a run commits together are always that
//!    run's; it re-checks each target, keeps a hard link to every file it replaces, renames all, fsyncs the folders, then drops
//!    the hard links. If any rename fails, the ones already done are undone (the old file is
//!    put back, a new one removed), so a run's outputs appear together or not at all.
//!
//! Every value that owns a temporary file removes it when dropped uncommitted: an error at any
//! step, an early return, a panic that unwinds, or a run stopped by SIGINT/SIGTERM/SIGHUP (the command
//! layer turns those signals into a flag, see [`crate::interrupt`], and then simply drops its
//! writers) leaves nothing behind. Only SIGKILL or a power cut can leave a `.NAME.tmp-…`
//! file, and never a file at the target that looks finished.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Failure to resolve, write or commit an output file.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The target exists and is not something batchgen replaces.
    #[error("'{path}' is {kind}; batchgen only replaces regular files (and writes character devices such as /dev/null straight through)")]
    Special {
        /// The path as given (or the symlink target it resolves to).
        path: PathBuf,
        /// What it is, e.g. `a FIFO (named pipe)`.
        kind: &'static str,
    },
    /// The path cannot name a file (empty, `..`, ends in `/`).
    #[error("'{0}' does not name a file")]
    NotAFileName(PathBuf),
    /// The folder the file goes in is missing or unreadable.
    #[error("folder '{dir}': {source}")]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// Following a symlink failed (a loop, an unreadable link).
    #[error("resolving '{path}': {why}")]
    Link {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// Creating the temporary file failed (read-only folder, full disk, …).
    #[error("cannot create a file in '{dir}': {source}")]
    Create {
        /// The folder.
        dir: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// Writing, syncing or renaming failed.
    #[error("{path}: {op}: {source}")]
    Io {
        /// The target.
        path: PathBuf,
        /// The step that failed.
        op: &'static str,
        /// The OS error.
        source: io::Error,
    },
}

/// How a target is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Through a temporary file renamed over the target (regular file or new path).
    Replace,
    /// Straight into the existing character device (no temporary file, no rename).
    WriteThrough,
}

/// An output path, resolved and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The path as the user gave it (for messages).
    pub requested: PathBuf,
    /// The file that will be written: symlinks followed, folder canonical.
    pub resolved: PathBuf,
    /// How it is written.
    pub mode: Mode,
}

/// Symlinks followed before giving up (as Linux's `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// What a file type is, for messages: `a folder`, `a FIFO (named pipe)`, ….
pub(crate) fn kind_of(ft: &fs::FileType) -> &'static str {
    if ft.is_dir() {
        "a folder"
    } else if ft.is_fifo() {
        "a FIFO (named pipe)"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_symlink() {
        "a symbolic link"
    } else if ft.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

fn folder_of(p: &Path) -> &Path {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

impl Target {
    /// Resolve `path` (follow symlinks, canonicalise its folder) and decide how to write it;
    /// refuse targets that are not regular files or character devices.
    pub fn resolve(path: &Path) -> Result<Target, OutputError> {
        let mut p = path.to_path_buf();
        let mut links = 0;
        let mode = loop {
            match fs::symlink_metadata(&p) {
                Ok(m) if m.file_type().is_symlink() => {
                    links += 1;
                    if links > MAX_LINKS {
                        return Err(OutputError::Link {
                            path: path.to_path_buf(),
                            why: format!("more than {MAX_LINKS} symbolic links (a loop?)"),
                        });
                    }
                    let to = fs::read_link(&p).map_err(|e| OutputError::Link {
                        path: p.clone(),
                        why: e.to_string(),
                    })?;
                    p = if to.is_absolute() {
                        to
                    } else {
                        folder_of(&p).join(to)
                    };
                }
                Ok(m) if m.file_type().is_file() => break Mode::Replace,
                Ok(m) if m.file_type().is_char_device() => break Mode::WriteThrough,
                Ok(m) => {
                    return Err(OutputError::Special {
                        path: p,
                        kind: kind_of(&m.file_type()),
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => break Mode::Replace,
                Err(e) => {
                    let dir = folder_of(&p).to_path_buf();
                    return Err(OutputError::Folder { dir, source: e });
                }
            }
        };
        let name = match p.file_name() {
            Some(n) if !p.as_os_str().as_encoded_bytes().ends_with(b"/") => n.to_owned(),
            _ => return Err(OutputError::NotAFileName(path.to_path_buf())),
        };
        let dir = folder_of(&p);
        let dir = fs::canonicalize(dir).map_err(|source| OutputError::Folder {
            dir: dir.to_path_buf(),
            source,
        })?;
        if !dir.is_dir() {
            return Err(OutputError::Folder {
                dir,
                source: io::Error::new(io::ErrorKind::NotADirectory, "not a folder"),
            });
        }
        Ok(Target {
            requested: path.to_path_buf(),
            resolved: dir.join(name),
            mode,
        })
    }

    /// The folder the file lives in (canonical).
    pub fn folder(&self) -> &Path {
        folder_of(&self.resolved)
    }
}

/// Mixed into every random draw so two draws of one process never repeat.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// The longest file name Linux file systems accept (`NAME_MAX`).
pub const NAME_MAX: usize = 255;

/// Names drawn for a temporary file before giving up (each taken name is drawn again).
const NAME_TRIES: usize = 16;

/// 64 random bits: the standard library's `RandomState` is keyed from the OS's randomness.
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(NEXT_TEMP.fetch_add(1, Ordering::Relaxed));
    h.finish()
}

/// `.NAME.WHAT-PID-RANDOM` next to `target`, NAME cut (in bytes) so that the whole name stays
/// within [`NAME_MAX`].
fn temp_name(target: &Path, what: &str) -> PathBuf {
    let name = target.file_name().map_or(&b"out"[..], |n| n.as_bytes());
    let tail = format!(".{what}-{}-{:016x}", std::process::id(), random_u64());
    let keep = name.len().min(NAME_MAX - 1 - tail.len());
    let mut v = Vec::with_capacity(NAME_MAX);
    v.push(b'.');
    v.extend_from_slice(&name[..keep]);
    v.extend_from_slice(tail.as_bytes());
    target.with_file_name(OsString::from_vec(v))
}

/// Run `make` on fresh temporary names next to `target` until one is not taken.
fn with_fresh_name<T>(
    target: &Path,
    what: &str,
    mut make: impl FnMut(&Path) -> io::Result<T>,
) -> io::Result<(PathBuf, T)> {
    let mut last = None;
    for _ in 0..NAME_TRIES {
        let p = temp_name(target, what);
        match make(&p) {
            Ok(t) => return Ok((p, t)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists)))
}

/// An output being written (see the module docs). Implements [`Write`] and [`Seek`].
#[derive(Debug)]
pub struct AtomicFile {
    target: Target,
    file: File,
    /// The temporary file; `None` when writing a character device straight through.
    tmp: Option<PathBuf>,
}

impl AtomicFile {
    /// Resolve `path` and start writing it.
    pub fn create(path: &Path) -> Result<AtomicFile, OutputError> {
        AtomicFile::create_target(Target::resolve(path)?)
    }

    /// Start writing an already resolved target.
    pub fn create_target(target: Target) -> Result<AtomicFile, OutputError> {
        match target.mode {
            Mode::WriteThrough => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(&target.resolved)
                    .map_err(|source| OutputError::Io {
                        path: target.resolved.clone(),
                        op: "opening the device",
                        source,
                    })?;
                Ok(AtomicFile {
                    target,
                    file,
                    tmp: None,
                })
            }
            Mode::Replace => {
                let (tmp, file) = with_fresh_name(&target.resolved, "tmp", |p| {
                    OpenOptions::new()
                        .write(true)
                        .read(true)
                        .create_new(true)
                        .open(p)
                })
                .map_err(|source| OutputError::Create {
                    dir: target.folder().to_path_buf(),
                    source,
                })?;
                Ok(AtomicFile {
                    target,
                    file,
                    tmp: Some(tmp),
                })
            }
        }
    }

    /// The target this file will become.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The temporary file's path (`None` when writing a device straight through).
    pub fn temp_path(&self) -> Option<&Path> {
        self.tmp.as_deref()
    }

    /// Sync the data to disk; the result is complete and durable but not yet visible.
    pub fn prepare(mut self) -> Result<Prepared, OutputError> {
        let path = self.target.resolved.clone();
        let io = |op, source| OutputError::Io {
            path: path.clone(),
            op,
            source,
        };
        self.file.flush().map_err(|e| io("flushing", e))?;
        let size = match self.tmp {
            Some(_) => {
                self.file.sync_all().map_err(|e| io("syncing", e))?;
                self.file
                    .metadata()
                    .map_err(|e| io("reading size", e))?
                    .len()
            }
            // A device has no size; report what was written.
            None => self.file.stream_position().map_err(|e| io("seeking", e))?,
        };
        Ok(Prepared {
            target: self.target.clone(),
            tmp: self.tmp.take(),
            size,
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Seek for AtomicFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.file.seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = fs::remove_file(tmp);
        }
    }
}

/// A complete, synced output waiting for [`commit_all`]; removed if dropped uncommitted.
#[derive(Debug)]
pub struct Prepared {
    target: Target,
    tmp: Option<PathBuf>,
    size: u64,
}

impl Prepared {
    /// Bytes in the file.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The target.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Make this one file visible (same as [`commit_all`] with one file).
    pub fn commit(self) -> Result<u64, OutputError> {
        let size = self.size;
        commit_all(vec![self])?;
        Ok(size)
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = fs::remove_file(tmp);
        }
    }
}

/// Make every prepared file visible, all or none (see the module docs). On error, the targets
/// are as they were before (old files back in place, new ones removed) and every temporary
/// file is gone.
pub fn commit_all(mut files: Vec<Prepared>) -> Result<(), OutputError> {
    // One run's commit at a time per folder: held until the folders are synced.
    let _locks = lock_folders(
        files
            .iter()
            .filter(|f| f.tmp.is_some())
            .map(|f| f.target.folder()),
    )?;
    // Re-check the targets: one may have become a FIFO or a folder since the run started.
    for f in &files {
        if f.tmp.is_some() {
            if let Ok(m) = fs::symlink_metadata(&f.target.resolved) {
                if !m.file_type().is_file() {
                    return Err(OutputError::Special {
                        path: f.target.resolved.clone(),
                        kind: kind_of(&m.file_type()),
                    });
                }
            }
        }
    }
    // A hard link to each file about to be replaced, so a failed commit can put it back.
    let mut backups: Vec<Option<PathBuf>> = Vec::with_capacity(files.len());
    for f in &files {
        let keep = (f.tmp.is_some() && f.target.resolved.is_file())
            .then(|| {
                with_fresh_name(&f.target.resolved, "old", |b| {
                    fs::hard_link(&f.target.resolved, b)
                })
            })
            .and_then(|r| r.ok())
            .map(|(b, ())| b);
        backups.push(keep);
    }
    let mut failed = None;
    let mut done = 0;
    for f in files.iter_mut() {
        if let Some(tmp) = &f.tmp {
            if let Err(source) = fs::rename(tmp, &f.target.resolved) {
                failed = Some(OutputError::Io {
                    path: f.target.resolved.clone(),
                    op: "renaming into place",
                    source,
                });
                break;
            }
            f.tmp = None;
        }
        done += 1;
    }
    if let Some(err) = failed {
        // Undo the renames already done; the remaining temporaries go when `files` drops.
        for (f, b) in files.iter().zip(&backups).take(done) {
            if f.target.mode == Mode::Replace {
                match b {
                    Some(b) => {
                        let _ = fs::rename(b, &f.target.resolved);
                    }
                    None => {
                        let _ = fs::remove_file(&f.target.resolved);
                    }
                }
            }
        }
        for b in backups.iter().flatten() {
            let _ = fs::remove_file(b);
        }
        return Err(err);
    }
    for b in backups.iter().flatten() {
        let _ = fs::remove_file(b);
    }
    // Make the renames durable: fsync each folder once.
    let mut dirs: Vec<&Path> = files
        .iter()
        .filter(|f| f.target.mode == Mode::Replace)
        .map(|f| f.target.folder())
        .collect();
    dirs.sort();
    dirs.dedup();
    for d in dirs {
        File::open(d)
            .and_then(|d| d.sync_all())
            .map_err(|source| OutputError::Io {
                path: d.to_path_buf(),
                op: "syncing the folder",
                source,
            })?;
    }
    Ok(())
}

/// Take an exclusive advisory lock on each folder (sorted and deduplicated, so two runs
/// locking overlapping sets cannot deadlock); the locks go when the files are dropped.
fn lock_folders<'a>(dirs: impl Iterator<Item = &'a Path>) -> Result<Vec<File>, OutputError> {
    let mut dirs: Vec<&Path> = dirs.collect();
    dirs.sort();
    dirs.dedup();
    dirs.into_iter()
        .map(|d| {
            let io = |source| OutputError::Io {
                path: d.to_path_buf(),
                op: "locking the folder",
                source,
            };
            let f = File::open(d).map_err(io)?;
            rustix::fs::flock(&f, rustix::fs::FlockOperation::LockExclusive)
                .map_err(|e| io(e.into()))?;
            Ok(f)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tempdir() -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "batchgen-atomic-{}-{}",
            std::process::id(),
            NEXT_TEMP.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn listing(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_appear_only_on_commit_and_drop_cleans_up() {
        let d = tempdir();
        let mut f = AtomicFile::create(&d.join("a.txt")).unwrap();
        f.write_all(b"hello").unwrap();
        assert!(!d.join("a.txt").exists());
        assert_eq!(listing(&d).len(), 1);
        drop(f);
        assert!(listing(&d).is_empty());
        let mut f = AtomicFile::create(&d.join("a.txt")).unwrap();
        f.write_all(b"hello").unwrap();
        let p = f.prepare().unwrap();
        assert_eq!(p.size(), 5);
        drop(p);
        assert!(listing(&d).is_empty());
        let mut f = AtomicFile::create(&d.join("a.txt")).unwrap();
        f.write_all(b"hello").unwrap();
        f.prepare().unwrap().commit().unwrap();
        assert_eq!(listing(&d), vec!["a.txt"]);
        assert_eq!(fs::read(d.join("a.txt")).unwrap(), b"hello");
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn symlinks_are_followed_and_stay_links() {
        let d = tempdir();
        fs::create_dir(d.join("real")).unwrap();
        std::os::unix::fs::symlink("real/x.bin", d.join("link")).unwrap();
        let t = Target::resolve(&d.join("link")).unwrap();
        assert_eq!(t.resolved, fs::canonicalize(&d).unwrap().join("real/x.bin"));
        let mut f = AtomicFile::create(&d.join("link")).unwrap();
        f.write_all(b"1").unwrap();
        f.prepare().unwrap().commit().unwrap();
        assert!(fs::symlink_metadata(d.join("link"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(d.join("real/x.bin")).unwrap(), b"1");
        std::os::unix::fs::symlink("loop", d.join("loop")).unwrap();
        assert!(matches!(
            Target::resolve(&d.join("loop")),
            Err(OutputError::Link { .. })
        ));
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_commit_undoes_the_renames_already_done() {
        let d = tempdir();
        fs::write(d.join("old.txt"), b"old").unwrap();
        let mut a = AtomicFile::create(&d.join("old.txt")).unwrap();
        a.write_all(b"new").unwrap();
        let mut b = AtomicFile::create(&d.join("b.txt")).unwrap();
        b.write_all(b"b").unwrap();
        let (a, b) = (a.prepare().unwrap(), b.prepare().unwrap());
        // Make the second rename fail: its target became a folder after the check.
        let mut c = AtomicFile::create(&d.join("c")).unwrap();
        c.write_all(b"c").unwrap();
        let c = c.prepare().unwrap();
        fs::create_dir(d.join("c")).unwrap();
        fs::write(d.join("c/inside"), b"").unwrap();
        // The re-check catches a folder before anything is renamed ...
        assert!(matches!(
            commit_all(vec![a, b, c]),
            Err(OutputError::Special { .. })
        ));
        assert_eq!(fs::read(d.join("old.txt")).unwrap(), b"old");
        assert_eq!(listing(&d), vec!["c", "old.txt"]);
        // ... and a rename that really fails (its temporary vanished) puts the first back.
        let mut a = AtomicFile::create(&d.join("old.txt")).unwrap();
        a.write_all(b"new").unwrap();
        let mut n = AtomicFile::create(&d.join("new.txt")).unwrap();
        n.write_all(b"n").unwrap();
        let mut b = AtomicFile::create(&d.join("b.txt")).unwrap();
        b.write_all(b"b").unwrap();
        let (a, n, b) = (
            a.prepare().unwrap(),
            n.prepare().unwrap(),
            b.prepare().unwrap(),
        );
        fs::remove_file(b.tmp.as_ref().unwrap()).unwrap();
        assert!(matches!(
            commit_all(vec![a, n, b]),
            Err(OutputError::Io { .. })
        ));
        assert_eq!(fs::read(d.join("old.txt")).unwrap(), b"old");
        assert_eq!(listing(&d), vec!["c", "old.txt"]);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn temp_names_are_random_short_enough_and_retried_when_taken() {
        let d = tempdir();
        // 248 bytes: the target fits the limit, the temporary name is shortened to fit too.
        let name = "x".repeat(240) + ".parquet";
        let mut f = AtomicFile::create(&d.join(&name)).unwrap();
        let tmp = f.temp_path().unwrap().file_name().unwrap().len();
        assert!(tmp <= NAME_MAX, "{tmp}");
        f.write_all(b"1").unwrap();
        f.prepare().unwrap().commit().unwrap();
        assert_eq!(listing(&d), vec![name.clone()]);
        let t = d.join("a.parquet");
        assert_ne!(temp_name(&t, "tmp"), temp_name(&t, "tmp"));
        // A taken name is drawn again; only other errors, or every draw taken, fail.
        let mut taken = 3;
        let (p, ()) = with_fresh_name(&t, "tmp", |_| {
            if taken > 0 {
                taken -= 1;
                Err(io::ErrorKind::AlreadyExists.into())
            } else {
                Ok(())
            }
        })
        .unwrap();
        assert!(p.to_string_lossy().contains(".a.parquet.tmp-"));
        let e = with_fresh_name(&t, "tmp", |_| -> io::Result<()> {
            Err(io::ErrorKind::AlreadyExists.into())
        });
        assert!(e.is_err());
        fs::remove_dir_all(&d).unwrap();
    }
}
