//! Reading inputs without hanging: the one folder walker every reader uses (`batchgen check`,
//! and the folders and `**` patterns of `summary` and `plot`), and [`open_regular`], which
//! opens an input only when it is a regular file.
//!
//! The walker ([`walk`], the `walkdir` crate with this project's rules on top) never follows a
//! symbolic link to a folder (a link to a file is read as the file), so a link loop (`ln -s . a`, `loop -> ..`) cannot make a walk endless or visit a
//! file twice; such links are reported as [`Kind::FolderLink`] for the caller to mention. A
//! folder reached twice anyway (a bind mount) is recognised by its device and inode and walked
//! once. [`open_regular`] opens without blocking and checks what it opened, so a FIFO given as
//! an input is refused instead of waiting forever for a writer.

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::atomic_file::kind_of;

/// What an entry found by [`walk`] is.
#[cfg(feature = "parquet")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A regular file (or a symbolic link to one).
    File,
    /// A symbolic link to a folder: not followed.
    FolderLink,
    /// Anything else (FIFO, socket, device, dangling link), with its kind for messages.
    Other(&'static str),
}

/// One entry below the walked folder.
#[cfg(feature = "parquet")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The path (the walked folder joined with `rel`).
    pub path: PathBuf,
    /// The path relative to the walked folder.
    pub rel: PathBuf,
    /// What it is.
    pub kind: Kind,
}

/// Failure to read an input.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The input exists but is not a regular file.
    #[error("'{}' is {kind}, not a regular file", crate::printable::path(path))]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is, e.g. `a FIFO (named pipe)`.
        kind: &'static str,
    },
    /// The input is a regular file larger than the reader's bound.
    #[error(
        "'{}' is {len} bytes, more than the {max} bytes this input may have",
        crate::printable::path(path)
    )]
    TooLarge {
        /// The path.
        path: PathBuf,
        /// Its size (or a lower bound, when it grew while being read).
        len: u64,
        /// The bound.
        max: u64,
    },
    /// Opening or listing failed.
    #[error("'{}': {source}", crate::printable::path(path))]
    Io {
        /// The path.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

impl From<InputError> for io::Error {
    fn from(e: InputError) -> io::Error {
        match e {
            InputError::Io { source, .. } => source,
            other => io::Error::new(io::ErrorKind::InvalidInput, other.to_string()),
        }
    }
}

/// Is `p` a folder itself (not a symbolic link to one)?
pub fn is_real_dir(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
}

/// Open `path` for reading if it is a regular file (a symbolic link to one is followed).
pub fn open_regular(path: &Path) -> Result<File, InputError> {
    let io = |source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It changes
    // nothing for a regular file.
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(io)?;
    let m = file.metadata().map_err(io)?;
    if !m.is_file() {
        return Err(InputError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(&m.file_type()),
        });
    }
    Ok(file)
}

/// The whole of `path`, a regular file (as [`open_regular`] opens it: a FIFO or a device is
/// refused without blocking) of at most `max` bytes. The bound is checked on the opened file's
/// size before reading and again while reading, so a file that grows meanwhile is refused too,
/// never read without limit.
pub fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, InputError> {
    use std::io::Read;
    let file = open_regular(path)?;
    let too_large = |len| InputError::TooLarge {
        path: path.to_path_buf(),
        len,
        max,
    };
    let len = file
        .metadata()
        .map_err(|source| InputError::Io {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    if len > max {
        return Err(too_large(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| InputError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Every entry below `dir` that is not a folder, sorted by relative path; hidden entries
/// (names starting with `.`) are skipped, folders included, unless `hidden`.
#[cfg(feature = "parquet")]
pub fn walk(dir: &Path, hidden: bool) -> Result<Vec<Found>, InputError> {
    use std::os::unix::fs::MetadataExt;
    let io = |path: &Path, source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut out = Vec::new();
    // Folders walked, by device and inode: a folder reached again (a bind mount) is skipped.
    let mut seen = std::collections::HashSet::new();
    // Links are not followed below `dir` (`dir` itself may be one).
    let mut entries = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter();
    while let Some(e) = entries.next() {
        let e = e.map_err(|e| {
            let path = e.path().unwrap_or(dir).to_path_buf();
            let source = e
                .into_io_error()
                .unwrap_or_else(|| io::Error::other("a link loop"));
            InputError::Io { path, source }
        })?;
        let path = e.path();
        let skipped =
            !hidden && e.depth() > 0 && e.file_name().as_encoded_bytes().starts_with(b".");
        let ft = e.file_type();
        if skipped {
            if ft.is_dir() {
                entries.skip_current_dir();
            }
            continue;
        }
        if ft.is_dir() {
            let m = fs::metadata(path).map_err(|s| io(path, s))?;
            if !seen.insert((m.dev(), m.ino())) {
                entries.skip_current_dir();
            }
            continue;
        }
        let kind = if ft.is_symlink() {
            match fs::metadata(path) {
                Ok(t) if t.is_dir() => Kind::FolderLink,
                Ok(t) if t.is_file() => Kind::File,
                Ok(t) => Kind::Other(kind_of(&t.file_type())),
                Err(_) => Kind::Other("a dangling symbolic link"),
            }
        } else if ft.is_file() {
            Kind::File
        } else {
            Kind::Other(kind_of(&ft))
        };
        let rel = path.strip_prefix(dir).unwrap_or(path).to_path_buf();
        out.push(Found {
            path: path.to_path_buf(),
            rel,
            kind,
        });
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}

#[cfg(all(test, feature = "parquet"))]
mod tests {
    use super::*;

    #[test]
    fn link_loops_are_walked_once_and_fifos_are_not_opened() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("algo=x/size=4x4");
        fs::create_dir_all(&p).unwrap();
        fs::write(p.join("part.parquet"), b"x").unwrap();
        fs::write(p.join(".hidden"), b"x").unwrap();
        std::os::unix::fs::symlink(".", p.join("a")).unwrap();
        std::os::unix::fs::symlink("..", p.join("loop")).unwrap();
        std::os::unix::fs::symlink("part.parquet", p.join("f.parquet")).unwrap();
        let found = walk(d.path(), false).unwrap();
        let show: Vec<(String, Kind)> = found
            .iter()
            .map(|f| (f.rel.display().to_string(), f.kind))
            .collect();
        assert_eq!(
            show,
            vec![
                ("algo=x/size=4x4/a".into(), Kind::FolderLink),
                ("algo=x/size=4x4/f.parquet".into(), Kind::File),
                ("algo=x/size=4x4/loop".into(), Kind::FolderLink),
                ("algo=x/size=4x4/part.parquet".into(), Kind::File),
            ]
        );
        assert_eq!(walk(d.path(), true).unwrap().len(), 5);
        let fifo = d.path().join("f");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let e = open_regular(&fifo).unwrap_err().to_string();
        assert!(e.contains("FIFO"), "{e}");
        assert!(open_regular(&p.join("f.parquet")).is_ok());
    }
}
