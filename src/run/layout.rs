//! The layout of a dataset folder, where a run writes one part file per (generator, size,
//! shard): `DIR/algo=NAME/size=WxH/part-KKKKK-of-NNNNN.EXT` on the square grid, and
//! `DIR/grid=G/algo=NAME/size=WxH/part-KKKKK-of-NNNNN.EXT` on the others (`G` hex, triangle
//! or polar; `WxH` is then the grid's size, `RxC` for polar), so the parts of two grids never
//! share a path and the square layout stays as it always was (see [`crate::dataset`] for the
//! check of a finished folder).

use std::path::{Path, PathBuf};

use crate::grid::Size;
use crate::shard::Shard;
use crate::topo::Grid;

/// Does `path` name a dataset folder: written with a trailing `/`, or an existing folder?
pub fn is_folder_target(path: &Path) -> bool {
    let s = path.as_os_str().to_string_lossy();
    s.ends_with('/') || s.ends_with(std::path::MAIN_SEPARATOR) || path.is_dir()
}

/// `algo=NAME/size=WxH` under `dir` (`size=WxHxD` for a 3D size; see [`Size`]'s display).
pub fn partition_dir(dir: &Path, algo: &str, size: Size) -> PathBuf {
    dir.join(format!("algo={algo}"))
        .join(format!("size={size}"))
}

/// The folder under a dataset folder that holds the partitions of `grid`: none for the square
/// grid, `grid=NAME` for the others.
pub fn grid_folder(grid: Grid) -> Option<String> {
    (grid != Grid::Square).then(|| format!("grid={}", grid.name()))
}

/// [`partition_dir`] on `grid`: `[grid=NAME/]algo=NAME/size=WxH` under `dir`.
pub fn partition_dir_on(dir: &Path, grid: Grid, algo: &str, size: Size) -> PathBuf {
    match grid_folder(grid) {
        None => partition_dir(dir, algo, size),
        Some(g) => partition_dir(&dir.join(g), algo, size),
    }
}

/// `part-KKKKK-of-NNNNN.EXT`.
pub fn part_file_name(shard: Shard, ext: &str) -> String {
    format!("part-{:05}-of-{:05}.{ext}", shard.k, shard.n)
}

/// The file of one (algo, size, shard) in a dataset folder.
pub fn part_path(dir: &Path, algo: &str, size: Size, shard: Shard, ext: &str) -> PathBuf {
    partition_dir(dir, algo, size).join(part_file_name(shard, ext))
}

/// [`part_path`] on `grid` (see [`partition_dir_on`]).
pub fn part_path_on(
    dir: &Path,
    grid: Grid,
    algo: &str,
    size: Size,
    shard: Shard,
    ext: &str,
) -> PathBuf {
    partition_dir_on(dir, grid, algo, size).join(part_file_name(shard, ext))
}

/// Parse `part-KKKKK-of-NNNNN.EXT` back into the shard and extension.
pub fn parse_part_name(name: &str) -> Option<(Shard, &str)> {
    let rest = name.strip_prefix("part-")?;
    let (k, rest) = rest.split_once("-of-")?;
    let (n, ext) = rest.split_once('.')?;
    let five = |s: &str| s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit());
    if !five(k) || !five(n) {
        return None;
    }
    let shard = Shard::new(k.parse().ok()?, n.parse().ok()?).ok()?;
    Some((shard, ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square layout is a contract: unchanged by the grid level, which only the other
    /// grids have.
    #[test]
    fn square_paths_keep_their_layout_and_other_grids_add_theirs() {
        let (d, s) = (Path::new("d"), Shard::new(3, 16).unwrap());
        let size = Size::planar(64, 32);
        let square = "d/algo=wilson/size=64x32/part-00003-of-00016.parquet";
        assert_eq!(
            part_path(d, "wilson", size, s, "parquet"),
            Path::new(square)
        );
        assert_eq!(
            part_path_on(d, Grid::Square, "wilson", size, s, "parquet"),
            Path::new(square)
        );
        assert_eq!(
            part_path_on(d, Grid::Hex, "wilson", size, s, "arrow"),
            Path::new("d/grid=hex/algo=wilson/size=64x32/part-00003-of-00016.arrow")
        );
        assert_eq!(
            partition_dir_on(d, Grid::Polar, "prim", Size::planar(10, 6)),
            Path::new("d/grid=polar/algo=prim/size=10x6")
        );
        assert_eq!(grid_folder(Grid::Square), None);
        assert_eq!(
            grid_folder(Grid::Triangle).as_deref(),
            Some("grid=triangle")
        );
    }
}
