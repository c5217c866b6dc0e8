//! Paths checked before any work: a file's folder exists and it is not a folder; a dataset
//! folder's nearest existing ancestor is a folder; a mask file is a regular file of bounded
//! size that parses. The run layer checks its outputs here; the command line checks its other
//! outputs (`--summary-json`, man pages) the same way, and every front end reads mask files
//! here.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::value::ArgError;
use crate::atomic_file::{OutputError, Target};
use crate::folder_walk::{self, InputError};
use crate::grid::mask::MAX_FILE_BYTES;
use crate::grid::{Mask, MaskError};

/// Read the mask file at `path` for the option `name` (`--mask`, `mask`) with `parse` (e.g.
/// [`Mask::from_bytes`], text or PNG); refused, naming the option and the path, when it is not
/// a regular file (a FIFO, a device or a folder is refused without blocking or reading it), is
/// larger than [`MAX_FILE_BYTES`], cannot be read, is empty or is not connected.
pub fn read_mask(
    name: &str,
    path: &Path,
    parse: fn(&[u8]) -> Result<Mask, MaskError>,
) -> Result<Arc<Mask>, ArgError> {
    let shown = path.display().to_string();
    let bytes = folder_walk::read_regular(path, MAX_FILE_BYTES).map_err(|e| {
        let why = match e {
            InputError::NotRegular { kind, .. } => {
                format!("it is {kind}; a mask must be a regular file")
            }
            InputError::TooLarge { len, max, .. } => {
                format!("it is {len} bytes; a mask file is at most {max} bytes")
            }
            InputError::Io { source, .. } => source.to_string(),
        };
        ArgError::new(name, &shown, why)
    })?;
    parse(&bytes)
        .map(Arc::new)
        .map_err(|e| ArgError::new(name, &shown, e))
}

/// Check an output file path (see [`crate::atomic_file::Target::resolve`]): its folder must
/// exist, and a target that exists must be a regular file (replaced) or a character device
/// (written straight through); a symlink is followed. (Writability is proved by creating the
/// temporary file, still before any work.)
pub fn check_out(flag: &str, out: &Path) -> Result<Target, ArgError> {
    let shown = out.display().to_string();
    Target::resolve(out).map_err(|e| match e {
        OutputError::Special {
            kind: "a folder", ..
        } if out.is_dir() => ArgError::new(flag, &shown, "is a folder, expected a file path"),
        OutputError::Folder { dir, source } if source.kind() == std::io::ErrorKind::NotFound => {
            ArgError::new(
                flag,
                &shown,
                format!("folder '{}' does not exist", dir.display()),
            )
        }
        other => ArgError::new(flag, &shown, other),
    })
}

/// Check a dataset folder path: it must be a folder if it exists; if it does not, it is created
/// (with its parents) when the run starts, so its nearest existing ancestor must be a folder.
pub fn check_out_dir(flag: &str, dir: &Path) -> Result<(), ArgError> {
    let shown = dir.display().to_string();
    // Without the trailing slash, so that "afile/" finds the file "afile".
    let dir: PathBuf = dir.components().collect();
    let mut p = Some(dir.as_path());
    while let Some(q) = p {
        if q.as_os_str().is_empty() {
            break;
        }
        if q.exists() || q.symlink_metadata().is_ok() {
            if !q.is_dir() {
                return Err(ArgError::new(
                    flag,
                    &shown,
                    format!("'{}' is a file, not a folder", q.display()),
                ));
            }
            break;
        }
        p = q.parent();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_paths() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("f");
        std::fs::write(&file, b"x").unwrap();
        assert!(check_out("--out", &d.path().join("new.parquet")).is_ok());
        let e = check_out("--out", d.path()).unwrap_err().to_string();
        assert!(e.contains("is a folder, expected a file path"), "{e}");
        let e = check_out("--out", &d.path().join("missing/x.parquet"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not exist") && e.contains("--out"), "{e}");
        assert!(check_out_dir("--out", &d.path().join("a/b/")).is_ok());
        let e = check_out_dir("--out", &file.join("sub/"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a file, not a folder"), "{e}");
    }
}
