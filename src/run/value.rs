//! A run's values as text: sizes, cells, counts, chances, thread counts and the ends rule,
//! parsed with the same rules and messages wherever a run is described (the command line's
//! flags, Python's arguments, the explorer's query strings, a file's metadata). Each parser
//! takes the name of the option (a flag such as `--size`, or a field such as `size`) and the
//! raw text and never panics: a bad value is an [`ArgError`] naming both. The fuzz targets in
//! `tests/fuzz` reach exactly this code. (Generator names are parsed by
//! [`crate::Algorithm::parse`] / [`crate::Algorithm::parse_list`].)

use std::str::FromStr;

use crate::generate::Algorithm;
use crate::grid::{Mask, Size, MAX_CELLS};
use crate::metrics::Ends;
use crate::run::error::{Field, Names, Reason, RunError};
use crate::topo::{polar, Grid, GridSize};

/// Default master seed when no seed is given (always recorded in the output).
pub const DEFAULT_SEED: u64 = 42;

pub use super::error::ArgError;

/// Parse a 2D `WxH` into `(width, height)`, refusing zero sides and grids over [`MAX_CELLS`]
/// (before anything is allocated). A `WxHxD` size is refused here: commands that take 3D
/// sizes use [`parse_size3`].
pub fn parse_size(flag: &str, s: &str) -> Result<(u32, u32), ArgError> {
    let size = parse_size3(flag, s)?;
    if size.is_3d() {
        return Err(ArgError::new(
            flag,
            s,
            "expected a 2D size WIDTHxHEIGHT here, e.g. 64x64",
        ));
    }
    Ok((size.width, size.height))
}

/// Parse `WxH` (depth 1) or `WxHxD` into a [`Size`], refusing zero sides, a missing side
/// (`5x4x`) and grids over [`MAX_CELLS`] (before anything is allocated).
pub fn parse_size3(flag: &str, s: &str) -> Result<Size, ArgError> {
    let bad = |why: &str| ArgError::new(flag, s, why);
    // `64x64`, `64X64` or `64×64` (the multiplication sign).
    let parts: Vec<&str> = s.split(['x', 'X', '×']).collect();
    if parts.len() < 2 || parts.len() > 3 {
        return Err(bad(
            "expected WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH, e.g. 64x64 or 16x16x16",
        ));
    }
    let mut sides = [1u64; 3];
    for (side, v) in sides.iter_mut().zip(&parts) {
        *side = v.trim().parse::<u64>().map_err(|_| {
            bad("expected WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH with whole numbers, e.g. 64x64 or 16x16x16")
        })?;
    }
    let [w, h, d] = sides;
    if w == 0 || h == 0 || d == 0 {
        return Err(bad(if parts.len() == 3 {
            "width, height and depth must be at least 1"
        } else {
            "width and height must be at least 1"
        }));
    }
    let cells = w.saturating_mul(h).saturating_mul(d);
    if cells > MAX_CELLS {
        return Err(bad(&format!(
            "too big: {cells} cells; the largest maze has {MAX_CELLS} cells (e.g. 8192x8192 or 406x406x406)"
        )));
    }
    // Each side is at most `cells ≤ MAX_CELLS < 2^32`.
    Ok(Size::new(w as u32, h as u32, d as u32))
}

impl FromStr for Size {
    type Err = ArgError;

    /// `WxH` or `WxHxD` ([`parse_size3`]); the error names the field `size`.
    fn from_str(s: &str) -> Result<Size, ArgError> {
        parse_size3("size", s)
    }
}

/// Where a run's solution runs: between two cells (the first and the last, or the ones given)
/// or between a farthest pair of each maze.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EndsRule {
    /// The first and the last cell, or the entrance and exit given.
    Corners,
    /// A farthest pair of each maze (its diameter's ends).
    Diameter,
}

impl EndsRule {
    /// The rule's name (`corners`, `diameter`).
    pub fn name(self) -> &'static str {
        match self {
            EndsRule::Corners => "corners",
            EndsRule::Diameter => "diameter",
        }
    }
}

impl FromStr for EndsRule {
    type Err = ArgError;

    /// `corners` or `diameter`; the error names the field `ends`.
    fn from_str(s: &str) -> Result<EndsRule, ArgError> {
        match s {
            "corners" => Ok(EndsRule::Corners),
            "diameter" => Ok(EndsRule::Diameter),
            other => Err(ArgError::new(
                "ends",
                other,
                "expected 'corners' or 'diameter'",
            )),
        }
    }
}

/// Parse `X,Y` into a cell id of a `width × height` grid.
pub fn parse_cell(flag: &str, s: &str, width: u32, height: u32) -> Result<u32, ArgError> {
    if width as u64 * height as u64 > MAX_CELLS {
        // A grid larger than any maze: refused, never wrapped.
        return Err(ArgError::new(
            flag,
            s,
            format!("cell id overflows for a {width}x{height} grid"),
        ));
    }
    parse_cell3(flag, s, Size::planar(width, height))
}

/// Parse a cell of a grid of `size`: `X,Y,Z` (z = layer, 0 the top), or `X,Y` when the grid is
/// 2D (a 3D grid needs all three coordinates, so a cell is never guessed). Returns its id
/// `x + width·(y + height·z)`.
pub fn parse_cell3(flag: &str, s: &str, size: Size) -> Result<u32, ArgError> {
    let bad = |why: String| ArgError::new(flag, s, why);
    let parts: Vec<&str> = s.split(',').collect();
    let example = if size.is_3d() {
        "X,Y,Z, e.g. 0,0,0"
    } else {
        "X,Y, e.g. 0,0"
    };
    if parts.len() == 2 && size.is_3d() {
        return Err(bad(format!(
            "the grid {size} is 3D: expected X,Y,Z (Z = layer, 0 the top), e.g. 0,0,0"
        )));
    }
    if !(2..=3).contains(&parts.len()) {
        return Err(bad(format!("expected {example}")));
    }
    let mut xyz = [0u32; 3];
    for (c, v) in xyz.iter_mut().zip(&parts) {
        *c = v
            .trim()
            .parse::<u32>()
            .map_err(|_| bad(format!("expected {example} with whole numbers")))?;
    }
    let [x, y, z] = xyz;
    let (w, h, d) = (size.width, size.height, size.depth);
    if x >= w || y >= h || z >= d {
        return Err(bad(if size.is_3d() || parts.len() == 3 {
            format!("outside the {size} grid (x must be < {w}, y < {h}, z < {d})")
        } else {
            format!("outside the {w}x{h} grid (x must be < {w}, y < {h})")
        }));
    }
    Ok(size.cell(x, y, z))
}

/// The generators that accept a 3D size, by name, comma-separated (for messages).
pub fn names_3d() -> String {
    Algorithm::all()
        .iter()
        .filter(|a| a.supports_3d())
        .map(|a| a.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// For `--algo all` (or a list containing `all`) with a 3D `size`: keep the generators that
/// accept a 3D size and return, beside them, the one-line note naming the skipped ones (`None`
/// when nothing was skipped). Any other list is returned as is (the run layer's
/// `select_algos` refuses a 2D-only generator named on a 3D size).
pub fn select_3d(
    spec: &str,
    algos: Vec<Algorithm>,
    size: Size,
) -> (Vec<Algorithm>, Option<String>) {
    let has_all = spec.split(',').any(|p| p.trim() == "all");
    if !size.is_3d() || !has_all {
        return (algos, None);
    }
    let (keep, skip): (Vec<Algorithm>, Vec<Algorithm>) =
        algos.into_iter().partition(|a| a.supports_3d());
    if skip.is_empty() {
        return (keep, None);
    }
    let names: Vec<String> = skip.iter().map(|a| a.name()).collect();
    let note = format!(
        "--size {size} is 3D: running the {} generators that accept it; skipping the 2D-only {}",
        keep.len(),
        names.join(", ")
    );
    (keep, Some(note))
}

/// Parse a count as people type it: `1000`, `1_000`, `1,000,000` (groups of three),
/// `1e6`, `2.5e3` or `2^20` (exact whole numbers only: `1.5` and `1e-3` are refused), up to
/// `u64::MAX`; larger is refused as too large (`2^64`), never wrapped.
pub fn parse_count(flag: &str, s: &str) -> Result<u64, ArgError> {
    count_value(s).map_err(|why| ArgError::new(flag, s, why))
}

/// A braid chance (`--braid P`, Python `braid=`): a number from 0 to 1, both included
/// (`0.25`, `1`, `.5`); NaN, infinities and values outside are refused with the reason.
pub fn braid_value(s: &str) -> Result<f64, String> {
    const WANT: &str = "expected a chance from 0 to 1, e.g. 0, 0.25 or 1";
    let t = s.trim();
    // Only plain decimals: Rust's parser would also take "nan", "inf" and "infinity".
    if t.is_empty()
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return Err(WANT.into());
    }
    match t.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(if p == 0.0 { 0.0 } else { p }),
        Ok(_) => Err(format!("{WANT} (a chance cannot be below 0 or above 1)")),
        Err(_) => Err(WANT.into()),
    }
}

/// [`parse_count`]'s rules without a flag name (what a clap `value_parser` needs): the reason a
/// text is not a count.
pub fn count_value(s: &str) -> Result<u64, String> {
    const WANT: &str = "expected a whole number ≥ 0, e.g. 1000, 1_000, 1,000,000, 1e6 or 2^20";
    let too_large = || format!("too large: at most {} (2^64 − 1)", u64::MAX);
    let t = s.trim();
    if t.starts_with('-') {
        return Err(WANT.into());
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    // `B^E`: a power.
    if let Some((b, e)) = t.split_once('^') {
        let b = digits(b).ok_or(WANT)?;
        let e = digits(e).ok_or(WANT)?;
        let (Ok(b), Ok(e)) = (b.parse::<u128>(), e.parse::<u32>()) else {
            return Err(too_large());
        };
        return b
            .checked_pow(e)
            .and_then(|v| u64::try_from(v).ok())
            .ok_or_else(too_large);
    }
    // `M[.F]eE`: a mantissa times a power of ten, exact only.
    let (mant, exp) = match t.split_once(['e', 'E']) {
        Some((m, e)) => {
            let e = e.strip_prefix('+').unwrap_or(e);
            let neg = e.starts_with('-');
            let e = digits(e.trim_start_matches('-')).ok_or(WANT)?;
            let e: i64 = e.parse().map_err(|_| too_large())?;
            (m, if neg { -e } else { e })
        }
        None => (t, 0),
    };
    let (int, frac) = match mant.split_once('.') {
        Some((i, f)) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => (i, f),
        Some(_) => return Err(WANT.into()),
        None => (mant, ""),
    };
    let int = digits(int).ok_or(WANT)?;
    let all = format!("{int}{frac}");
    // The value is all × 10^(exp − frac.len()).
    let shift = exp - frac.len() as i64;
    let sig = all.trim_start_matches('0');
    if sig.is_empty() {
        return Ok(0);
    }
    let (sig, shift) = if shift < 0 {
        let drop = (-shift) as usize;
        let kept = sig.len().saturating_sub(drop);
        if sig[kept..].bytes().any(|b| b != b'0') || drop > sig.len() {
            return Err("not a whole number".into());
        }
        (&sig[..kept], 0)
    } else {
        (sig, shift)
    };
    if sig.len() as i64 + shift > 20 {
        return Err(too_large());
    }
    let v: u128 = sig.parse().map_err(|_| too_large())?;
    v.checked_mul(10u128.pow(shift as u32))
        .and_then(|v| u64::try_from(v).ok())
        .ok_or_else(too_large)
}

/// The digits of `s` with separators removed: `_` anywhere between digits, or `,` between
/// groups of exactly three digits (`1,000,000`); `None` when it is not such a number.
fn digits(s: &str) -> Option<String> {
    if s.is_empty() || !s.bytes().next().unwrap().is_ascii_digit() {
        return None;
    }
    if s.contains(',') {
        let groups: Vec<&str> = s.split(',').collect();
        let first = groups[0].len();
        let ok = (1..=3).contains(&first)
            && groups[1..].iter().all(|g| g.len() == 3)
            && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()));
        return ok.then(|| groups.concat());
    }
    if s.ends_with('_') || !s.bytes().all(|b| b.is_ascii_digit() || b == b'_') {
        return None;
    }
    Some(s.replace('_', ""))
}

/// Worker threads from `--threads`: `None` is one per core; otherwise a whole number from 1
/// to 1024.
pub fn parse_threads(flag: &str, s: Option<&str>) -> Result<usize, ArgError> {
    match s {
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        Some(t) => match t.trim().parse::<usize>() {
            Ok(n) if (1..=1024).contains(&n) => Ok(n),
            _ => Err(ArgError::new(
                flag,
                t,
                "expected a whole number from 1 to 1024",
            )),
        },
    }
}

/// The candidate limit per algorithm from `--max-candidates` (at least 1), given whether an
/// `--accept` filter is set; without the flag, 1000 per requested maze and at least 100000.
pub fn parse_max_candidates(
    flag: &str,
    s: Option<&str>,
    count: u64,
    has_accept: bool,
) -> Result<u64, ArgError> {
    let max = match s {
        None => count.saturating_mul(1000).max(100_000),
        Some(m) => match parse_count(flag, m)? {
            0 => return Err(ArgError::new(flag, m, "must be at least 1")),
            n => n,
        },
    };
    if s.is_some() && !has_accept {
        // The flag alone, without a value placeholder (`--max-candidates <N>`).
        let name = flag.split(' ').next().unwrap_or(flag);
        return Err(ArgError::Conflict(format!(
            "{name} only applies with --accept"
        )));
    }
    Ok(max)
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
    if width as u64 * height as u64 > MAX_CELLS {
        return Err(ArgError::Conflict(format!(
            "a {width}x{height} grid is larger than any maze"
        )));
    }
    resolve_ends_sized(ends, entrance, exit, Size::planar(width, height))
}

/// [`resolve_ends`] for a grid of any `size`, the rule given as text ([`ends`] with the
/// errors naming flags).
pub fn resolve_ends_sized(
    rule: Option<&str>,
    entrance: Option<&str>,
    exit: Option<&str>,
    size: Size,
) -> Result<(Ends, String), ArgError> {
    ends(ends_rule(rule)?, entrance, exit, size).map_err(|e| e.to_arg(Names::Flags))
}

/// The rule of `--ends` given as text (`corners`, `diameter`), the error naming `--ends`.
pub fn ends_rule(rule: Option<&str>) -> Result<Option<EndsRule>, ArgError> {
    rule.map(|r| {
        r.parse::<EndsRule>().map_err(|e| match e {
            ArgError::Value { value, why, .. } => ArgError::new("--ends", &value, why),
            other => other,
        })
    })
    .transpose()
}

/// The ends of a run on a grid of `size` and the rule's description (the `batchgen.ends`
/// metadata): a farthest pair of each maze, or two cells, by default the first (0) and the
/// last one; on a 3D grid the entrance and exit are `X,Y,Z` ([`parse_cell3`]).
pub fn ends(
    rule: Option<EndsRule>,
    entrance: Option<&str>,
    exit: Option<&str>,
    size: Size,
) -> Result<(Ends, String), RunError> {
    if rule == Some(EndsRule::Diameter) {
        no_cells_with_diameter(entrance, exit)?;
        return Ok((Ends::Diameter, Ends::Diameter.rule(size)));
    }
    let cell = |field: Field, text: Option<&str>, default: u32| match text {
        Some(e) => parse_cell3(field.name(), e, size).map_err(|e| RunError::of_arg(field, e)),
        None => Ok(default),
    };
    let entrance = cell(Field::Entrance, entrance, 0)?;
    let exit = cell(Field::Exit, exit, size.cells() - 1)?;
    let ends = Ends::cells(entrance, exit);
    Ok((ends, ends.rule(size)))
}

/// `--ends diameter` picks the entrance and exit of each maze itself: cells given beside it
/// are a conflict, on every grid.
fn no_cells_with_diameter(entrance: Option<&str>, exit: Option<&str>) -> Result<(), RunError> {
    if entrance.is_some() || exit.is_some() {
        return Err(RunError::Conflict(
            Reason::text("")
                .field(Field::Ends)
                .then(" diameter chooses the entrance and exit itself; drop ")
                .field(Field::Entrance)
                .then("/")
                .field(Field::Exit),
        ));
    }
    Ok(())
}

/// [`ends`] on a hex, triangle or polar grid of `size` (over the cells of `mask`, hex and
/// triangle only; `src/topo/README.md`, "Runs on each grid"): a farthest pair of each maze
/// (`--ends diameter`, which takes no cells), or two cells named in the grid's own coordinates
/// ([`grid_cell`]), by default the first and the last cell (polar: the centre and the last
/// cell of the outer ring; on a mask, its first and last cells). Nothing is built: a run, a
/// picture and a level check their ends before any work.
pub fn grid_ends(
    rule: Option<EndsRule>,
    entrance: Option<&str>,
    exit: Option<&str>,
    size: GridSize,
    mask: Option<&Mask>,
) -> Result<Ends, RunError> {
    if rule == Some(EndsRule::Diameter) {
        no_cells_with_diameter(entrance, exit)?;
        return Ok(Ends::Diameter);
    }
    let cells = size.cells_u64();
    if cells > MAX_CELLS {
        return Err(RunError::value(
            Field::Size,
            size,
            format!("{cells} cells is more than the {MAX_CELLS} a maze may have"),
        ));
    }
    let (first, last) = match mask {
        Some(m) => (m.first(), m.last()),
        None => (0, cells as u32 - 1),
    };
    let cell = |field: Field, text: Option<&str>, default: u32| match text {
        Some(t) => grid_cell(size, mask, field, t),
        None => Ok(default),
    };
    Ok(Ends::cells(
        cell(Field::Entrance, entrance, first)?,
        cell(Field::Exit, exit, last)?,
    ))
}

/// The cell `text` names (for `field`) on a hex, triangle or polar grid of `size` (at most
/// [`MAX_CELLS`] cells): `X,Y` on hex and triangle grids, cell `Y·W + X`, a cell of `mask`
/// when there is one; `RING,I` on a polar grid, cell `I` of ring `RING` (ring 0 is the centre,
/// `I` counts clockwise from the east; ring sizes by [`polar::ring_counts`]).
pub fn grid_cell(
    size: GridSize,
    mask: Option<&Mask>,
    field: Field,
    text: &str,
) -> Result<u32, RunError> {
    let polar = size.grid == Grid::Polar;
    let form = if polar { "RING,I" } else { "X,Y" };
    let parts: Vec<Option<u32>> = text.split(',').map(|p| p.trim().parse().ok()).collect();
    let [Some(p), Some(q)] = parts[..] else {
        return Err(RunError::value(
            field,
            text,
            format!("expected {form} on a {} grid, e.g. 0,0", size.grid),
        ));
    };
    let cell = if polar {
        let mut counts = Vec::new();
        polar::ring_counts(size.a.min(p.saturating_add(1)), size.b, &mut counts);
        if p >= size.a || q >= counts[p as usize] {
            return Err(RunError::value(
                field,
                text,
                format!(
                    "outside the grid: {} rings (0 is the centre){}",
                    size.a,
                    if p < size.a {
                        format!(", ring {p} has {} cells", counts[p as usize])
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        counts[..p as usize].iter().sum::<u32>() + q
    } else {
        if p >= size.a || q >= size.b {
            return Err(RunError::value(
                field,
                text,
                format!(
                    "outside the {}x{} grid (X < {}, Y < {})",
                    size.a, size.b, size.a, size.b
                ),
            ));
        }
        q * size.a + p
    };
    if mask.is_some_and(|m| !m.contains(cell)) {
        return Err(RunError::value(field, text, "is not a cell of the mask"));
    }
    Ok(cell)
}

/// The grid size of a run on `mask` (read from the file `name`): the mask's size, which a
/// given `size` must equal; a 3D `size` with a mask is refused. Without a mask, `size` or
/// `default`.
pub fn size_on_mask(
    size: Option<Size>,
    default: Size,
    mask: Option<(&crate::grid::Mask, &str)>,
) -> Result<Size, RunError> {
    let Some((m, name)) = mask else {
        return Ok(size.unwrap_or(default));
    };
    let ms = m.size();
    match size {
        Some(s) if s.is_3d() => Err(RunError::value(
            Field::Mask,
            name,
            Reason::text("masks are 2D only; ")
                .field(Field::Size)
                .then(format!(" {s} is 3D")),
        )),
        Some(s) if s != ms => Err(RunError::value(
            Field::Size,
            s,
            Reason::text(format!(
                "the mask '{name}' is {ms} (the mask sets the size: drop "
            ))
            .field(Field::Size)
            .then(" or give ")
            .field(Field::Size)
            .then(format!(" {ms})")),
        )),
        _ => Ok(ms),
    }
}

/// The ends on a mask: the entrance and exit not given become the mask's first and last
/// cells; given ones must be cells of it (not holes). Without a mask, or with the diameter
/// rule, `ends` is returned as it is. Returns the ends and their rule.
pub fn ends_on_mask(
    ends: (Ends, String),
    entrance_given: bool,
    exit_given: bool,
    mask: Option<&crate::grid::Mask>,
) -> Result<(Ends, String), RunError> {
    let (Some(m), Ends::Cells { entrance, exit }) = (mask, ends.0) else {
        return Ok(ends);
    };
    let size = m.size();
    let pick = |field: Field, given: bool, cell: u32, default: u32| {
        if !given {
            return Ok(default);
        }
        if m.contains(cell) {
            Ok(cell)
        } else {
            let (x, y, _) = size.coords(cell);
            Err(RunError::value(
                field,
                format!("{x},{y}"),
                "this cell is a hole of the mask ('#' or a dark pixel), not a cell of the maze",
            ))
        }
    };
    let entrance = pick(Field::Entrance, entrance_given, entrance, m.first())?;
    let exit = pick(Field::Exit, exit_given, exit, m.last())?;
    let e = Ends::cells(entrance, exit);
    Ok((e, e.rule(size)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braid_values() {
        for (s, p) in [
            ("0", 0.0),
            ("1", 1.0),
            ("0.25", 0.25),
            (".5", 0.5),
            ("-0", 0.0),
            ("1e-1", 0.1),
        ] {
            assert_eq!(braid_value(s), Ok(p), "{s}");
        }
        for s in ["1.5", "nan", "NaN", "inf", "-0.1", "", "x", "1e9", "0,5"] {
            assert!(braid_value(s).is_err(), "{s}");
        }
    }

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
    fn sizes_3d() {
        assert_eq!(parse_size3("--size", "5x4x3").unwrap(), Size::new(5, 4, 3));
        assert_eq!(parse_size3("--size", "5x4").unwrap(), Size::planar(5, 4));
        assert_eq!(parse_size3("--size", "5x4x1").unwrap(), Size::planar(5, 4));
        for (bad, why) in [
            ("5x4x0", "at least 1"),
            ("0x4x3", "at least 1"),
            ("5x4x", "whole numbers"),
            ("5x4x3x2", "WIDTHxHEIGHTxDEPTH"),
            ("1000x1000x1000", "too big"),
            ("4294967296x4294967296x4294967296", "too big"),
            ("99999999999999999999x1x1", "whole numbers"),
        ] {
            let e = parse_size3("--size", bad).unwrap_err().to_string();
            assert!(
                e.contains("--size") && e.contains(bad) && e.contains(why),
                "{e}"
            );
        }
        let e = parse_size("--size", "5x4x3").unwrap_err().to_string();
        assert!(e.contains("2D size"), "{e}");
    }

    #[test]
    fn cells_3d() {
        let s = Size::new(3, 2, 4);
        assert_eq!(
            parse_cell3("--exit", "2,1,3", s).unwrap(),
            2 + 3 * (1 + 2 * 3)
        );
        assert!(parse_cell3("--exit", "0,0,4", s).is_err());
        let e = parse_cell3("--exit", "1,1", s).unwrap_err().to_string();
        assert!(e.contains("X,Y,Z") && e.contains("3x2x4"), "{e}");
        assert_eq!(
            parse_cell3("--exit", "2,1,0", Size::planar(3, 2)).unwrap(),
            5
        );
        assert!(parse_cell3("--exit", "2,1,1", Size::planar(3, 2)).is_err());
        let (e, rule) = resolve_ends_sized(None, None, None, s).unwrap();
        assert_eq!(e, Ends::cells(0, 23));
        assert!(rule.starts_with("entrance=0,0,0 exit=2,1,3"), "{rule}");
    }

    #[test]
    fn three_d_generators() {
        let cube = Size::new(2, 2, 2);
        let all = Algorithm::parse_list("all").unwrap();
        let (keep, note) = select_3d("all", all.clone(), cube);
        assert!(keep.iter().all(|a| a.supports_3d()) && !keep.is_empty());
        let note = note.unwrap();
        assert!(
            note.contains("binary-tree") && !note.contains("wilson,"),
            "{note}"
        );
        assert_eq!(select_3d("all", all.clone(), Size::planar(2, 2)).0, all);
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
        for (text, want) in [
            (" 1_000 ", 1000),
            ("1e6", 1_000_000),
            ("1E6", 1_000_000),
            ("2.5e3", 2500),
            ("1,000,000", 1_000_000),
            ("12,345", 12_345),
            ("2^20", 1 << 20),
            ("0", 0),
            ("0e5", 0),
            ("1.000e3", 1000),
            ("18446744073709551615", u64::MAX),
            ("1.8446744073709551615e19", u64::MAX),
        ] {
            assert_eq!(parse_count("--count", text).unwrap(), want, "{text}");
        }
        for (text, why) in [
            ("-1", "whole number"),
            ("", "whole number"),
            ("1.5", "not a whole number"),
            ("1e-3", "not a whole number"),
            ("1,00", "whole number"),
            ("1,0000", "whole number"),
            ("abc", "whole number"),
            ("2^64", "too large"),
            ("18446744073709551616", "too large"),
            ("1e20", "too large"),
            ("1e400", "too large"),
            ("99999999999999999999999999", "too large"),
        ] {
            let e = parse_count("--count", text).unwrap_err().to_string();
            assert!(e.contains(why) && e.contains("'--count'"), "{text}: {e}");
        }
        assert_eq!(parse_size("--size", "64×32").unwrap(), (64, 32));
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
}
