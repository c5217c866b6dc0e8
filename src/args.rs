//! Parsers for command-line values (`--size`, `--entrance`/`--exit`, counts), in the library so
//! that the fuzz targets in `tests/fuzz` reach exactly the code the binary runs. Each takes the
//! flag name and the raw text and never panics: a bad value is an [`ArgError`] naming both.
//! (Algorithm names are parsed by [`crate::Algorithm::parse`] / [`crate::Algorithm::parse_list`].)

use crate::grid::MAX_CELLS;

/// A command-line value that does not parse; displayed as
/// `invalid value 'VALUE' for 'FLAG': WHY`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid value '{value}' for '{flag}': {why}")]
pub struct ArgError {
    /// The flag, e.g. `--size`.
    pub flag: String,
    /// The text given.
    pub value: String,
    /// What is wrong with it.
    pub why: String,
}

impl ArgError {
    /// An error for `flag` with `value`.
    pub fn new(flag: &str, value: &str, why: impl std::fmt::Display) -> ArgError {
        ArgError {
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
}
