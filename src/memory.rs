//! Will a run fit in memory? An estimate of the bytes a run needs (every worker's maze and
//! scratch buffers, the chunk buffers, the Parquet row group) and of the bytes this process may
//! still use (`MemAvailable` from `/proc/meminfo`, and the address-space limit `RLIMIT_AS`, as
//! set by `ulimit -v`, minus what the process already maps). The command layer refuses a run
//! whose estimate exceeds what is available, with both numbers, before any work: a huge grid
//! under a tight limit is an exit-2 message instead of an allocation abort.

use crate::generate::Algorithm;
use crate::grid::Size;

/// Bytes per cell one worker needs for `algo` (maze bits, generator scratch, metrics scratch),
/// an upper bound from peak-RSS measurements of one maze on one thread at 2048×2048 and
/// 160×160×160 (November 30, 2026; the run's peak minus that of a 2×2×2 run): kruskal 41.3 /
/// 45.4, growing-tree:oldest 38.6 / 37.9, backtracker 36.1 / 35.4, wilson-straight 33.3 / 32.6,
/// eller 29.2 (2D only), every other generator at most 32.5 bytes per cell. About 29 of them are
/// `measure()`'s per-position buffers (queue 8, first child 4, tree values 16, masks 1).
/// `tests/memory_estimate.rs` checks the bound against real runs.
pub fn bytes_per_cell(algo: &Algorithm) -> u64 {
    match algo {
        Algorithm::Kruskal => 48,
        Algorithm::GrowingTree(_) => 41,
        Algorithm::Backtracker => 39,
        _ => 36,
    }
}

/// Fixed overhead of a run: one Parquet row group being encoded, code, thread stacks.
pub const FIXED_BYTES: u64 = 64 << 20;

/// Estimated peak bytes of a main-job run on mazes of `size` (2D or 3D): `threads` workers of
/// the most demanding generator, plus (with a maze store) the wall words of
/// [`crate::batch::CHUNKS_IN_FLIGHT`] chunks (the one being written and the ones the workers
/// fill meanwhile) and of the blocks the workers are making (at most a quarter chunk; a 3D
/// maze's include its down-wall plane) and the store writer's buffers (one record batch of walls being
/// filled or written, the copy the writer encodes, its 1 MiB file buffer), plus
/// [`FIXED_BYTES`]. The per-cell bounds cover 2D and 3D runs; a 3D worker is given one byte per
/// cell more for its down-wall plane.
pub fn estimate(
    algos: &[Algorithm],
    size: Size,
    threads: usize,
    chunk_mazes: u64,
    keep_walls: bool,
) -> u64 {
    let cells = size.cells_u64();
    let per_cell = algos.iter().map(bytes_per_cell).max().unwrap_or(36) + u64::from(size.is_3d());
    let workers = cells
        .saturating_mul(per_cell)
        .saturating_mul(threads.max(1) as u64);
    // Wall words of one maze, kept per maze of the chunks in flight and the workers' blocks,
    // and the store's batches.
    let walls = if keep_walls {
        walls_bytes(size.words_per_maze(), chunk_mazes)
    } else {
        0
    };
    workers.saturating_add(walls).saturating_add(FIXED_BYTES)
}

/// The wall words a run with a maze store holds at once: those of the chunks in flight and
/// of the workers' blocks, and the store writer's buffers (see [`estimate`]).
fn walls_bytes(words: usize, chunk_mazes: u64) -> u64 {
    let mazes = chunk_mazes
        .saturating_mul(crate::batch::CHUNKS_IN_FLIGHT as u64)
        .saturating_add(chunk_mazes.div_ceil(4));
    (words as u64 * 8)
        .saturating_mul(mazes)
        .saturating_add(crate::store::writer_peak_bytes(words))
}

/// Bytes per cell one worker needs on a hex, triangle or polar grid (the grid's slot lists,
/// the maze's edge bits, the generator's and the measure's scratch), an upper bound from
/// peak-RSS measurements of one maze on one thread, the run's peak minus that of a 4×4
/// (polar: 2-ring) run, on 2048×2048 hex and triangle grids and a 1160-ring polar grid
/// (`benches/grid_memory.sh`, December 5, 2026): prim, the largest everywhere, 175.1 (hex),
/// 103.0 (triangle), 134.9 (polar); kruskal 160.2 / 100.0 / 130.0; every other generator at
/// most 152.8 / 95.1 / 122.9. The cell graph is counted in every worker's share although the
/// workers share it. `tests/memory_estimate.rs` checks the bound against real runs.
pub fn grid_bytes_per_cell(_algo: &Algorithm, grid: crate::topo::Grid) -> u64 {
    match grid {
        crate::topo::Grid::Hex => 190,
        crate::topo::Grid::Triangle => 120,
        _ => 150,
    }
}

/// [`estimate`] for a run on a hex, triangle or polar grid of `cells` cells and `words` wall
/// words per maze ([`crate::topo::CellGraph::words_per_maze`]).
pub fn estimate_on_grid(
    algos: &[Algorithm],
    grid: crate::topo::Grid,
    cells: u64,
    words: usize,
    threads: usize,
    chunk_mazes: u64,
    keep_walls: bool,
) -> u64 {
    let per_cell = algos
        .iter()
        .map(|a| grid_bytes_per_cell(a, grid))
        .max()
        .unwrap_or(grid_bytes_per_cell(&Algorithm::Kruskal, grid));
    let workers = cells
        .saturating_mul(per_cell)
        .saturating_mul(threads.max(1) as u64);
    let walls = if keep_walls {
        walls_bytes(words, chunk_mazes)
    } else {
        0
    };
    workers.saturating_add(walls).saturating_add(FIXED_BYTES)
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn mem_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:")
}

/// A `Key:   123 kB` line of a /proc file, in bytes.
fn kib_field(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Room left under `RLIMIT_AS` (`ulimit -v`): the soft limit minus this process's `VmSize`.
fn address_space_left() -> Option<u64> {
    let lim = rustix::process::getrlimit(rustix::process::Resource::As).current?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let used = kib_field(&status, "VmSize:").unwrap_or(0);
    Some(lim.saturating_sub(used))
}

/// Bytes this process can still use: the smaller of `MemAvailable` and the room under
/// `RLIMIT_AS`; `None` when neither is known (then nothing is refused).
pub fn available() -> Option<u64> {
    match (mem_available(), address_space_left()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `1234567890` → `1.2 GB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    format!("{v:.1} {}", UNITS[u])
}

/// `Err(message)` when `need` exceeds what is available.
pub fn check(need: u64) -> Result<(), String> {
    match available() {
        Some(have) if need > have => Err(format!(
            "needs about {} of memory (walls and scratch buffers of every worker thread), but \
             only {} is available (MemAvailable, and the address-space limit `ulimit -v`); use \
             a smaller --size or fewer --threads",
            human(need),
            human(have)
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_grows_with_cells_threads_and_the_store() {
        let w = [Algorithm::Wilson];
        let k = [Algorithm::Wilson, Algorithm::Kruskal];
        let a = estimate(&w, Size::planar(8192, 8192), 1, 4, false);
        assert_eq!(a, 8192 * 8192 * 36 + FIXED_BYTES);
        assert!(estimate(&k, Size::planar(8192, 8192), 1, 4, false) > a);
        assert!(estimate(&w, Size::planar(8192, 8192), 2, 4, false) > a);
        // A maze's walls: 8192² cells, two bits each, 16 MiB; the chunks of 4 mazes in
        // flight and one maze in the worker's block; one maze per store batch.
        let maze = 8192 * 8192 / 4;
        let in_flight = crate::batch::CHUNKS_IN_FLIGHT as u64;
        assert_eq!(
            estimate(&w, Size::planar(8192, 8192), 1, 4, true),
            a + (in_flight * 4 + 1) * maze + 2 * maze + (1 << 20)
        );
    }

    #[test]
    fn proc_fields_parse() {
        assert_eq!(
            kib_field(
                "MemTotal: 10 kB\nMemAvailable:    2048 kB\n",
                "MemAvailable:"
            ),
            Some(2048 * 1024)
        );
        assert_eq!(kib_field("x", "MemAvailable:"), None);
        assert!(available().is_some());
    }
}
