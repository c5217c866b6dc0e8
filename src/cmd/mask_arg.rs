//! The `--mask FILE` flag shared by the subcommands that make mazes (the main job, `render`,
//! `uniformity`): read and check the mask, reconcile it with `--size`, and move the default
//! entrance and exit onto its first and last cells, each by the run layer's rule. Every refusal
//! names the flag and the value and comes before any work.

use std::path::Path;
use std::sync::Arc;

use batchgen::grid::{Mask, Size};
use batchgen::metrics::Ends;
use batchgen::run::Names;
use batchgen::Algorithm;

use super::UsageError;

/// The grid size of a run: `--size` as given (or `default`), or the mask's size, which a given
/// `--size` must equal. A 3D `--size` with a mask is refused
/// ([`batchgen::run::value::size_on_mask`]).
pub fn size_for(
    size: Option<Size>,
    default: Size,
    mask: Option<&Arc<Mask>>,
    mask_path: Option<&Path>,
) -> Result<Size, UsageError> {
    let shown = mask_path.map_or_else(String::new, |p| p.display().to_string());
    batchgen::run::value::size_on_mask(size, default, mask.map(|m| (m.as_ref(), shown.as_str())))
        .map_err(|e| UsageError(e.message(Names::Flags)))
}

/// Read `--mask FILE` (text or PNG, see [`Mask`]) by the run layer's rules
/// ([`batchgen::run::paths::read_mask`]): refused with exit 2, before any work, when it is not
/// a regular file, is too large, cannot be read, is empty or is not connected.
pub fn read(flag: &str, path: &Path) -> Result<Arc<Mask>, UsageError> {
    read_with(flag, path, Mask::from_bytes)
}

/// [`read`] with the mask built by `parse` (e.g. [`Mask::cells_from_bytes`] for a grid that
/// checks connectivity on its own neighbours).
pub fn read_with(
    flag: &str,
    path: &Path,
    parse: fn(&[u8]) -> Result<Mask, batchgen::grid::MaskError>,
) -> Result<Arc<Mask>, UsageError> {
    batchgen::run::paths::read_mask(flag, path, parse).map_err(UsageError::from)
}

/// The ends on a mask: the default entrance and exit (not given as flags) become the mask's
/// first and last cells; given ones must be mask cells ([`batchgen::run::value::ends_on_mask`]).
/// Without a mask `ends` is returned as it is. Returns the ends and their rule.
pub fn ends_on(
    ends: (Ends, String),
    entrance_given: bool,
    exit_given: bool,
    mask: Option<&Arc<Mask>>,
) -> Result<(Ends, String), UsageError> {
    batchgen::run::value::ends_on_mask(ends, entrance_given, exit_given, mask.map(|m| m.as_ref()))
        .map_err(|e| UsageError(e.message(Names::Flags)))
}

/// The generators of `--algo` on `size` and a mask, by the run layer's rule
/// ([`batchgen::run::select_algos`]): `all` keeps those that accept a 3D size or a mask (with a
/// note naming the skipped ones); a named generator that does not is refused with exit 2.
pub fn select_algos(
    spec: &str,
    algos: Vec<Algorithm>,
    size: Size,
    mask: Option<&Arc<Mask>>,
) -> Result<(Vec<Algorithm>, Option<String>), UsageError> {
    let (algos, note) = batchgen::run::select_algos(spec, algos, size, mask.map(|m| m.as_ref()))
        .map_err(|e| UsageError(e.message(Names::Flags)))?;
    Ok((algos, note.map(|n| n.render(Names::Flags))))
}
