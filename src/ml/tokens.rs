//! maze-dataset's default tokenization (AOTP: adjacency list, origin, target, path) of a maze,
//! token for token. maze-dataset's default tokenizer is the legacy
//! `MazeTokenizer(tokenization_mode=TokenizationMode.AOTP_UT_uniform)`; its
//! `MazeTokenizerModular()` default is documented there as equivalent to it. The tokens are:
//!
//! ```text
//! <ADJLIST_START> (r,c) <--> (r,c) ; … <ADJLIST_END> <ORIGIN_START> (r,c) <ORIGIN_END>
//! <TARGET_START> (r,c) <TARGET_END> <PATH_START> (r,c) … <PATH_END>
//! ```
//!
//! with one `(row,col)` token per coordinate (the "UT" unique-token coordinates). The adjacency
//! list is shuffled by maze-dataset with NumPy's global random state: `np.random.rand(n)` picks
//! which connections are written end-first (a draw above 0.5), then `np.random.shuffle` orders
//! them. This module replays those draws with [`Mt19937`] from a per-maze seed, so the tokens
//! equal what maze-dataset 1.4.2 emits after `np.random.seed(token_seed)`, exactly.
//!
//! Only this tokenizer is produced; the others maze-dataset offers are refused by name
//! ([`Tokenizer::parse`]).

use std::fmt::Write;

use super::numpy_rng::Mt19937;
use crate::grid::Maze;
use crate::rng::splitmix64;

/// The constant that separates the token-order stream from the maze's other streams: the
/// first 64 bits of the fractional part of √3.
pub const TOKEN_STREAM: u64 = 0xbb67_ae85_84ca_a73b;

/// The NumPy seed (`np.random.seed(token_seed)`) under which maze-dataset orders this maze's
/// adjacency list as the token column does: the high 32 bits of
/// `splitmix64(maze_seed ^ TOKEN_STREAM)`.
pub fn token_seed(maze_seed: u64) -> u32 {
    (splitmix64(maze_seed ^ TOKEN_STREAM) >> 32) as u32
}

/// The tokenizers a dataset can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Tokenizer {
    /// maze-dataset's default, `TokenizationMode.AOTP_UT_uniform`.
    AotpUtUniform,
}

/// maze-dataset's other tokenization modes, refused by name.
const REFUSED: &[(&str, &str)] = &[
    ("aotp-ut-rasterized", "the legacy AOTP_UT_rasterized mode"),
    (
        "aotp-ci",
        "the legacy AOTP_CTT_indexed mode (coordinates as index tokens)",
    ),
    (
        "aotp-ctt-indexed",
        "the legacy AOTP_CTT_indexed mode (coordinates as index tokens)",
    ),
    ("modular", "a non-default MazeTokenizerModular"),
];

impl Tokenizer {
    /// The name used on the command line and in the dataset card.
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::AotpUtUniform => "aotp-ut-uniform",
        }
    }

    /// maze-dataset's name for it.
    pub fn maze_dataset_name(self) -> &'static str {
        match self {
            Tokenizer::AotpUtUniform => {
                "MazeTokenizer(tokenization_mode=TokenizationMode.AOTP_UT_uniform)"
            }
        }
    }

    /// Parse a `--tokenizer` value; maze-dataset's other modes are refused with their name.
    pub fn parse(s: &str) -> Result<Tokenizer, String> {
        let k = s.to_ascii_lowercase().replace('_', "-");
        if k == "aotp-ut-uniform" || k == "default" {
            return Ok(Tokenizer::AotpUtUniform);
        }
        if let Some((_, what)) = REFUSED.iter().find(|(n, _)| *n == k) {
            return Err(format!(
                "{what} is not supported; the only tokenizer is aotp-ut-uniform \
                 (maze-dataset's default)"
            ));
        }
        Err("unknown tokenizer; the only one is aotp-ut-uniform (maze-dataset's default)".into())
    }
}

/// Reused buffers of [`aotp`].
#[derive(Debug)]
pub struct TokenScratch {
    edges: Vec<[u16; 4]>,
    flips: Vec<f64>,
    rng: Mt19937,
}

impl Default for TokenScratch {
    fn default() -> TokenScratch {
        TokenScratch {
            edges: Vec::new(),
            flips: Vec::new(),
            rng: Mt19937::new(0),
        }
    }
}

fn coord(out: &mut String, maze: &Maze, cell: u32) {
    let w = maze.width();
    let _ = write!(out, "({},{})", cell / w, cell % w);
}

/// Append the AOTP tokens of a 2D `maze` (space-separated) to `out`: its adjacency list in the
/// order maze-dataset draws after `np.random.seed(numpy_seed)`, then `origin`, `target` and
/// `path` (cell ids, origin first). Coordinates are `(row,col)`.
pub fn aotp(
    maze: &Maze,
    origin: u32,
    target: u32,
    path: &[u32],
    numpy_seed: u32,
    s: &mut TokenScratch,
    out: &mut String,
) {
    let (w, h) = (maze.width(), maze.height());
    // maze-dataset walks np.ndindex((2, H, W)): every downward connection, then every
    // rightward one, each in row-major order, smaller coordinate first.
    s.edges.clear();
    for d in 0..2 {
        for r in 0..h {
            for c in 0..w {
                let cell = r * w + c;
                let open = if d == 0 {
                    maze.south_open(cell)
                } else {
                    maze.east_open(cell)
                };
                if open {
                    let (r2, c2) = if d == 0 { (r + 1, c) } else { (r, c + 1) };
                    s.edges.push([r as u16, c as u16, r2 as u16, c2 as u16]);
                }
            }
        }
    }
    s.rng.reseed(numpy_seed);
    let n = s.edges.len();
    s.flips.clear();
    for _ in 0..n {
        let f = s.rng.next_f64();
        s.flips.push(f);
    }
    for (e, &f) in s.edges.iter_mut().zip(&s.flips) {
        if f > 0.5 {
            *e = [e[2], e[3], e[0], e[1]];
        }
    }
    s.rng.shuffle(&mut s.edges);
    out.push_str("<ADJLIST_START>");
    for e in &s.edges {
        let _ = write!(out, " ({},{}) <--> ({},{}) ;", e[0], e[1], e[2], e[3]);
    }
    out.push_str(" <ADJLIST_END> <ORIGIN_START> ");
    coord(out, maze, origin);
    out.push_str(" <ORIGIN_END> <TARGET_START> ");
    coord(out, maze, target);
    out.push_str(" <TARGET_END> <PATH_START>");
    for &c in path {
        out.push(' ');
        coord(out, maze, c);
    }
    out.push_str(" <PATH_END>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Dir;

    #[test]
    fn other_tokenizers_are_refused_by_name() {
        assert_eq!(
            Tokenizer::parse("AOTP_UT_uniform"),
            Ok(Tokenizer::AotpUtUniform)
        );
        let e = Tokenizer::parse("aotp-ut-rasterized").unwrap_err();
        assert!(e.contains("AOTP_UT_rasterized"), "{e}");
        assert!(Tokenizer::parse("bpe").is_err());
    }

    /// A 2×1 maze has one connection; its two orientations are drawn by the first double.
    #[test]
    fn one_connection_follows_the_first_draw() {
        let mut m = Maze::new(2, 1);
        m.carve(0, Dir::East);
        let mut s = TokenScratch::default();
        let mut out = String::new();
        // np.random.seed(0): the first draw is 0.5488… > 0.5, so the connection is flipped.
        aotp(&m, 0, 1, &[0, 1], 0, &mut s, &mut out);
        assert_eq!(
            out,
            "<ADJLIST_START> (0,1) <--> (0,0) ; <ADJLIST_END> <ORIGIN_START> (0,0) <ORIGIN_END> \
             <TARGET_START> (0,1) <TARGET_END> <PATH_START> (0,0) (0,1) <PATH_END>"
        );
    }
}
