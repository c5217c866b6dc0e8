//! Every key batchgen writes into, or reads from, the key-value metadata of its files: the
//! metrics table (Arrow, and the Parquet file that holds one) and the maze store. One module,
//! used by every writer and reader (`sink::arrow`, `store`, `dataset`, `cmd::generate`,
//! `summary`, `explore`, the Python bindings), so a misspelt key does not compile.

/// `K/N`: which shard of the index range the file holds (`1/1` unsharded).
pub const SHARD: &str = "batchgen.shard";
/// Where the shard came from (`--shard`, a Slurm array, …, or `none`).
pub const SHARD_SOURCE: &str = "batchgen.shard_source";
/// First index of the file's range, per generator.
pub const INDEX_START: &str = "batchgen.index_start";
/// One past the last index of the file's range, per generator.
pub const INDEX_END: &str = "batchgen.index_end";
/// The generator of a dataset part file.
pub const ALGO: &str = "batchgen.algo";
/// The run's generators (all partitions the run writes).
pub const ALGOS: &str = "batchgen.algos";
/// Mazes per generator of the whole (unsharded) run.
pub const COUNT: &str = "batchgen.count_per_algo";
/// `WxH`.
pub const SIZE: &str = "batchgen.size";
/// The cell shape of a file made on a grid other than the square one (`hex`, `triangle`,
/// `polar`); absent on square files.
pub const GRID: &str = "batchgen.grid";
/// Master seed.
pub const SEED: &str = "batchgen.seed";
/// Version of batchgen that wrote the file.
pub const VERSION: &str = "batchgen.version";
/// Seeding scheme version.
pub const SEEDING_SCHEME: &str = "batchgen.seeding_scheme";
/// RNG name.
pub const RNG: &str = "batchgen.rng";
/// Entrance/exit rule of a metrics file.
pub const ENDS: &str = "batchgen.ends";
/// The `--accept` filter, when there was one.
pub const ACCEPT: &str = "batchgen.accept";
/// The command line that made the file.
pub const COMMAND_LINE: &str = "batchgen.command_line";
/// The candidate limit per generator, when there was a filter.
pub const MAX_CANDIDATES: &str = "batchgen.max_candidates";
/// The `--mask` the mazes fill, as text (`.` a cell, `#` a hole, one line per row), when there
/// was one; its hash is the `mask_hash` column.
pub const MASK: &str = "batchgen.mask";
/// The mask's [`crate::grid::Mask::hash`] beside its text [`MASK`] (store), so that a changed
/// text is refused.
pub const MASK_HASH: &str = "batchgen.mask_hash";
/// The braid chance (`--braid`), when the mazes were braided (absent for perfect mazes).
pub const BRAID: &str = "batchgen.braid";

/// Store format version ([`crate::store::FORMAT_VERSION`]).
pub const STORE_FORMAT: &str = "batchgen.store_format";
/// Grid width (store).
pub const WIDTH: &str = "batchgen.width";
/// Grid height (store).
pub const HEIGHT: &str = "batchgen.height";
/// Grid depth, 1 for 2D (store).
pub const DEPTH: &str = "batchgen.depth";
/// Wall words per maze (store).
pub const WORDS: &str = "batchgen.words_per_maze";
/// Rows of every record batch but the last (store).
pub const ROWS_PER_BATCH: &str = "batchgen.rows_per_batch";
/// The entrance/exit rule of the run, in words (store).
pub const ENDS_RULE: &str = "batchgen.ends_rule";
/// [`crate::store::WALL_LAYOUT`] (store).
pub const WALL_LAYOUT: &str = "batchgen.wall_layout";

/// Candidates tried for generator `algo`.
pub fn candidates(algo: &str) -> String {
    format!("batchgen.candidates.{algo}")
}

/// Rows kept for generator `algo`.
pub fn accepted(algo: &str) -> String {
    format!("batchgen.accepted.{algo}")
}

/// Accepted / candidates for generator `algo`, when there was a filter.
pub fn acceptance_rate(algo: &str) -> String {
    format!("batchgen.acceptance_rate.{algo}")
}
