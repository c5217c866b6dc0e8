//! The dataset card: the `README.md` at the top of a dataset folder, in the Hugging Face
//! convention (a YAML header naming the splits' files, then prose). It records what a reader
//! needs to trust and regenerate the data: the exact command, the batchgen version and seeding
//! scheme, how origins and targets were chosen, the deduplication and split rules, the columns,
//! and the realised counts (rows and files per split, candidates and duplicates).

use std::fmt::Write;

/// One column of the dataset, for the card's table.
#[derive(Clone, Debug)]
pub struct CardColumn {
    /// Name.
    pub name: String,
    /// Arrow type, as shown.
    pub dtype: String,
    /// Meaning.
    pub doc: String,
}

/// Everything the card states.
#[derive(Clone, Debug, Default)]
pub struct Card {
    /// The command that wrote the folder.
    pub command: String,
    /// The shard (`K/N`, `1/1` unsharded).
    pub shard: String,
    /// Generators, canonical names.
    pub algos: Vec<String>,
    /// `WxH`.
    pub size: String,
    /// Master seed.
    pub seed: u64,
    /// Mazes per generator of the whole run, and this shard's index range.
    pub count: u64,
    /// This shard's index range, as text.
    pub indices: String,
    /// The origin/target rule, as text.
    pub ends: String,
    /// The tokenizer: our name and maze-dataset's.
    pub tokenizer: (String, String),
    /// Dedup mode and its rule, as text.
    pub dedup: (String, String),
    /// The split fractions.
    pub fractions: [f64; 3],
    /// Rows per split (train, validation, test).
    pub rows: [u64; 3],
    /// File names per split (relative to the folder).
    pub files: [Vec<String>; 3],
    /// Candidates generated, duplicates dropped, collisions resolved by comparison.
    pub candidates: u64,
    /// Duplicates dropped.
    pub duplicates: u64,
    /// Distinct mazes sharing a key.
    pub collisions: u64,
    /// The memory bound of deduplication, as text.
    pub memory: String,
    /// Columns.
    pub columns: Vec<CardColumn>,
}

const SPLITS: [&str; 3] = ["train", "validation", "test"];

impl Card {
    /// The card's text.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "---");
        let _ = writeln!(s, "configs:");
        let _ = writeln!(s, "- config_name: default");
        let _ = writeln!(s, "  data_files:");
        for (i, name) in SPLITS.iter().enumerate() {
            if !self.files[i].is_empty() {
                let _ = writeln!(s, "  - split: {name}");
                let _ = writeln!(s, "    path: data/{name}-*.parquet");
            }
        }
        let _ = writeln!(s, "tags:\n- mazes\n- maze-dataset\n---\n");
        let _ = writeln!(
            s,
            "# Mazes: {} at {}\n\nWritten by batchgen {} (seeding scheme {}):\n\n```sh\n{}\n```\n",
            self.algos.join(", "),
            self.size,
            env!("CARGO_PKG_VERSION"),
            crate::rng::SEEDING_SCHEME,
            self.command
        );
        let _ = writeln!(s, "## Counts\n");
        let _ = writeln!(s, "| split | rows | files |\n|---|---:|---:|");
        for (i, name) in SPLITS.iter().enumerate() {
            let _ = writeln!(s, "| {name} | {} | {} |", self.rows[i], self.files[i].len());
        }
        let total: u64 = self.rows.iter().sum();
        let _ = writeln!(
            s,
            "| all | {total} | {} |\n",
            self.files.iter().map(Vec::len).sum::<usize>()
        );
        let _ = writeln!(
            s,
            "Candidates deduplicated (every index of every generator; with shards, the whole \
             run's): {}; copies dropped among them: {}; distinct mazes sharing a hash (kept, told \
             apart by comparing walls): {}.\n",
            self.candidates, self.duplicates, self.collisions
        );
        let _ = writeln!(s, "## How it was made\n");
        let _ = writeln!(
            s,
            "- Mazes: generators {}, size {}, master seed {}, {} mazes per generator \
             (shard {}: indices {}). Maze `index` of generator `algo` is a function of \
             (seeding scheme, algo, size, seed, index): `batchgen render --algo A --size {} \
             --seed {} --index I` draws it again.",
            self.algos.join(", "),
            self.size,
            self.seed,
            self.count,
            self.shard,
            self.indices,
            self.size,
            self.seed
        );
        let _ = writeln!(s, "- Origin and target: {}.", self.ends);
        let _ = writeln!(
            s,
            "- Tokens: `{}`, equal token for token to maze-dataset 1.4.2's `{}` after \
             `np.random.seed(token_seed)` (maze-dataset orders the adjacency list with NumPy's \
             global random state; `token_seed` is the high 32 bits of \
             `splitmix64(maze_seed ^ 0xbb67ae8584caa73b)`).",
            self.tokenizer.0, self.tokenizer.1
        );
        let _ = writeln!(
            s,
            "- Deduplication `{}`: {} Memory bound: {}.",
            self.dedup.0, self.dedup.1, self.memory
        );
        let _ = writeln!(
            s,
            "- Splits: train {}, validation {}, test {} — a function of `canonical_hash` alone \
             (`u = splitmix64(canonical_hash ^ 0x3c6ef372fe94f82b) >> 11`, train when \
             `u < ⌊train·2^53⌋`, validation when `u < ⌊(train + validation)·2^53⌋`), so no \
             maze{} appears in two splits, in any run or shard.\n",
            self.fractions[0],
            self.fractions[1],
            self.fractions[2],
            if self.dedup.0 == "symmetry" {
                " and none of its symmetric images"
            } else {
                ""
            }
        );
        let _ = writeln!(
            s,
            "## Columns\n\n| column | type | meaning |\n|---|---|---|"
        );
        for c in &self.columns {
            let _ = writeln!(s, "| `{}` | {} | {} |", c.name, c.dtype, c.doc);
        }
        let _ = writeln!(
            s,
            "\n## Loading\n\n```python\nimport datasets\nds = datasets.load_dataset(\"parquet\", \
             data_dir=\"THIS_FOLDER/data\")\n\nimport polars as pl\ntrain = \
             pl.scan_parquet(\"THIS_FOLDER/data/train-*.parquet\")\n```"
        );
        s
    }
}
