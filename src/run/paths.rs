//! Output paths checked before any work: a file's folder exists and it is not a folder; a
//! dataset folder's nearest existing ancestor is a folder. The run layer checks its outputs
//! here; the command line checks its other outputs (`--summary-json`, man pages) the same way.

use std::path::{Path, PathBuf};

use super::value::ArgError;
use crate::atomic_file::{OutputError, Target};

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
