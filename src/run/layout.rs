//! The layout of a dataset folder, where a run writes one part file per (generator, size,
//! shard): `DIR/algo=NAME/size=WxH/part-KKKKK-of-NNNNN.EXT` (see [`crate::dataset`] for the
//! check of a finished folder).

use std::path::{Path, PathBuf};

use crate::grid::Size;
use crate::shard::Shard;

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

/// `part-KKKKK-of-NNNNN.EXT`.
pub fn part_file_name(shard: Shard, ext: &str) -> String {
    format!("part-{:05}-of-{:05}.{ext}", shard.k, shard.n)
}

/// The file of one (algo, size, shard) in a dataset folder.
pub fn part_path(dir: &Path, algo: &str, size: Size, shard: Shard, ext: &str) -> PathBuf {
    partition_dir(dir, algo, size).join(part_file_name(shard, ext))
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
