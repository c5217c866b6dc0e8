//! Parsers and checks for command-line values shared by several subcommands (`--size`,
//! `--entrance`/`--exit`/`--ends`, counts, output paths), in the library so that tests and the
//! fuzz targets in `tests/fuzz` reach exactly the code the binary runs. Each takes the flag name
//! and the raw text and never panics: a bad value is an [`ArgError`] naming both; the binary's
//! command layer turns it into exit status 2.
//! (Algorithm names are parsed by [`crate::Algorithm::parse`] / [`crate::Algorithm::parse_list`].)

use std::path::{Path, PathBuf};

use crate::atomic_file::{OutputError, Target};
use crate::grid::MAX_CELLS;
use crate::metrics::Ends;

/// Default master seed when `--seed` is not given (always recorded in the output).
pub const DEFAULT_SEED: u64 = 42;

/// Bad command-line input, found before any work.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// A value that does not parse or is out of range; displayed as
    /// `invalid value 'VALUE' for 'FLAG': WHY`.
    #[error("invalid value '{value}' for '{flag}': {why}")]
    Value {
        /// The flag, e.g. `--size`.
        flag: String,
        /// The text given.
        value: String,
        /// What is wrong with it.
        why: String,
    },
    /// Flags that cannot be combined; the message says which and what to do.
    #[error("{0}")]
    Conflict(String),
}

impl ArgError {
    /// An error for `flag` with `value`.
    pub fn new(flag: &str, value: &str, why: impl std::fmt::Display) -> ArgError {
        ArgError::Value {
            flag: flag.to_string(),
            value: value.to_string(),
            why: why.to_string(),
        }
    }
}

/// Parse `WxH` into a size, refusing zero sides and grids over [`MAX_CELLS`] (before anything
/// is allocated).
pub fn parse_size(flag: &str, s: &str) -> Result<(u32, u32), ArgError> {
    let bad = |why: &str| ArgError::new(flag, s, why);
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| bad("expected WIDTHxHEIGHT, e.g. 64x64"))?;
    let side = |v: &str| -> Result<u64, ArgError> {
        v.trim()
            .parse::<u64>()
            .map_err(|_| bad("expected WIDTHxHEIGHT with whole numbers, e.g. 64x64"))
    };
    let (w, h) = (side(w)?, side(h)?);
    if w == 0 || h == 0 {
        return Err(bad("width and height must be at least 1"));
    }
    let cells = w.saturating_mul(h);
    if cells > MAX_CELLS || w > u32::MAX as u64 || h > u32::MAX as u64 {
        return Err(bad(&format!(
            "too big: {cells} cells; the largest maze has {MAX_CELLS} cells (e.g. 8192x8192)"
        )));
    }
    Ok((w as u32, h as u32))
}

/// Parse `X,Y` into a cell id of a `width × height` grid.
pub fn parse_cell(flag: &str, s: &str, width: u32, height: u32) -> Result<u32, ArgError> {
    let bad = |why: String| ArgError::new(flag, s, why);
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| bad("expected X,Y, e.g. 0,0".into()))?;
    let (x, y) = match (x.trim().parse::<u32>(), y.trim().parse::<u32>()) {
        (Ok(x), Ok(y)) => (x, y),
        _ => return Err(bad("expected X,Y with whole numbers, e.g. 0,0".into())),
    };
    if x >= width || y >= height {
        return Err(bad(format!(
            "outside the {width}x{height} grid (x must be < {width}, y < {height})"
        )));
    }
    // x < width and y < height, and the caller's grid fits MAX_CELLS (< 2^32) cells; checked
    // arithmetic keeps a caller with a larger grid from wrapping silently.
    y.checked_mul(width)
        .and_then(|v| v.checked_add(x))
        .ok_or_else(|| bad(format!("cell id overflows for a {width}x{height} grid")))
}

/// Parse a count (a whole number ≥ 0; `_` separators allowed).
pub fn parse_count(flag: &str, s: &str) -> Result<u64, ArgError> {
    s.trim()
        .replace('_', "")
        .parse::<u64>()
        .map_err(|_| ArgError::new(flag, s, "expected a whole number ≥ 0"))
}

/// The entrance/exit rule from `--ends`, `--entrance` and `--exit` of a `width × height` grid,
/// and its description for the file metadata.
pub fn resolve_ends(
    ends: Option<&str>,
    entrance: Option<&str>,
    exit: Option<&str>,
    width: u32,
    height: u32,
) -> Result<(Ends, String), ArgError> {
    match ends {
        Some("diameter") => {
            if entrance.is_some() || exit.is_some() {
                return Err(ArgError::Conflict(
                    "--ends diameter chooses the entrance and exit itself; drop --entrance/--exit"
                        .into(),
                ));
            }
            return Ok((
                Ends::Diameter,
                "diameter: entrance=diameter_start exit=diameter_end (a farthest pair)".into(),
            ));
        }
        None | Some("corners") => {}
        Some(other) => {
            return Err(ArgError::new(
                "--ends",
                other,
                "expected 'corners' or 'diameter'",
            ))
        }
    }
    let entrance = match entrance {
        Some(e) => parse_cell("--entrance", e, width, height)?,
        None => 0,
    };
    let exit = match exit {
        Some(e) => parse_cell("--exit", e, width, height)?,
        None => width * height - 1,
    };
    let rule = format!(
        "entrance={},{} exit={},{} (x,y; cell id = y*width+x)",
        entrance % width,
        entrance / width,
        exit % width,
        exit / width
    );
    Ok((Ends::cells(entrance, exit), rule))
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
    fn sizes() {
        assert_eq!(parse_size("--size", "64x32").unwrap(), (64, 32));
        assert_eq!(parse_size("--size", "1X1").unwrap(), (1, 1));
        for bad in ["0x5", "5x0", "abc", "100000x100000", "3x", "-1x4", "x"] {
            let e = parse_size("--size", bad).unwrap_err().to_string();
            assert!(e.contains("--size") && e.contains(bad), "{e}");
        }
        assert!(parse_size("--size", "100000x100000")
            .unwrap_err()
            .to_string()
            .contains("too big"));
    }

    #[test]
    fn cells() {
        assert_eq!(parse_cell("--exit", "2,1", 3, 2).unwrap(), 5);
        assert!(parse_cell("--exit", "3,0", 3, 2).is_err());
        assert!(parse_cell("--exit", "0,2", 3, 2).is_err());
        assert!(parse_cell("--exit", "a,b", 3, 2).is_err());
        // A grid larger than any maze: refused, not wrapped.
        assert!(parse_cell("--exit", "5,4294967295", u32::MAX, u32::MAX).is_err());
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("--count", " 1_000 ").unwrap(), 1000);
        assert!(parse_count("--count", "-1").is_err());
        assert!(parse_count("--count", "").is_err());
    }

    #[test]
    fn ends() {
        let (e, rule) = resolve_ends(None, Some("1,0"), None, 3, 2).unwrap();
        assert_eq!(e, Ends::cells(1, 5));
        assert!(rule.starts_with("entrance=1,0 exit=2,1"), "{rule}");
        assert_eq!(
            resolve_ends(Some("diameter"), None, None, 3, 2).unwrap().0,
            Ends::Diameter
        );
        let e = resolve_ends(Some("diameter"), Some("0,0"), None, 3, 2).unwrap_err();
        assert!(matches!(e, ArgError::Conflict(_)), "{e}");
        let e = resolve_ends(Some("middle"), None, None, 3, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid value 'middle' for '--ends': expected 'corners' or 'diameter'"
        );
        assert!(resolve_ends(None, None, Some("3,0"), 3, 2).is_err());
    }

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
