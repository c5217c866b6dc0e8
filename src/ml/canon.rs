//! The canonical form of a maze for deduplication: the maze itself (`exact`), or the least of
//! its images under the symmetries of its rectangle (`symmetry`). A square has 8 (the dihedral
//! group: identity, three rotations, four reflections); a W≠H rectangle has 4 (identity, the
//! left–right and top–bottom mirrors, the half turn), since a quarter turn or a diagonal
//! reflection changes its shape. "Least" compares the wall words ([`Maze::words`]) as numbers,
//! last word first, so the canonical form is one fixed member of the class, and two mazes are
//! copies up to symmetry exactly when their canonical words are equal. The key is
//! [`Maze::hash`] of the canonical form: `maze_hash` itself in `exact` mode.

use crate::grid::{Dir, Maze};

/// What counts as a duplicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dedup {
    /// Keep every maze (the split is still a function of the maze's hash).
    None,
    /// The same walls.
    Exact,
    /// The same walls up to a symmetry of the rectangle.
    Symmetry,
}

impl Dedup {
    /// The flag value.
    pub fn name(self) -> &'static str {
        match self {
            Dedup::None => "none",
            Dedup::Exact => "exact",
            Dedup::Symmetry => "symmetry",
        }
    }
}

/// How many symmetries a `width × height` rectangle has (8 square, 4 otherwise).
pub fn symmetries(width: u32, height: u32) -> u32 {
    if width == height {
        8
    } else {
        4
    }
}

/// Names of the symmetries used for a `width × height` grid, for the dataset card.
pub fn symmetry_names(width: u32, height: u32) -> &'static str {
    if width == height {
        "identity, rotations by 90°, 180° and 270°, mirrors left–right, top–bottom and about both diagonals"
    } else {
        "identity, mirror left–right, mirror top–bottom, rotation by 180° (W≠H: quarter turns and diagonal mirrors change the shape)"
    }
}

/// Reused buffers of [`canonical`].
#[derive(Debug, Default)]
pub struct CanonScratch {
    image: Option<Maze>,
}

fn map(t: u32, x: u32, y: u32, w: u32, h: u32) -> (u32, u32) {
    let (mut x, mut y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    if t & 1 != 0 {
        x = w - 1 - x;
    }
    if t & 2 != 0 {
        y = h - 1 - y;
    }
    (x, y)
}

/// Write the image of 2D `maze` under symmetry `t` (`0..symmetries`) into `image` (same size).
fn image_into(maze: &Maze, t: u32, image: &mut Maze) {
    let (w, h) = (maze.width(), maze.height());
    image.clear();
    for y in 0..h {
        for x in 0..w {
            let cell = y * w + x;
            let (ax, ay) = map(t, x, y, w, h);
            for (dir, nx, ny) in [(Dir::East, x + 1, y), (Dir::South, x, y + 1)] {
                if !maze.is_open(cell, dir) {
                    continue;
                }
                let (bx, by) = map(t, nx, ny, w, h);
                let (lo, d) = if ay == by {
                    (ay * w + ax.min(bx), Dir::East)
                } else {
                    (ay.min(by) * w + ax, Dir::South)
                };
                image.carve(lo, d);
            }
        }
    }
}

fn less(a: &[u64], b: &[u64]) -> bool {
    a.iter().rev().cmp(b.iter().rev()) == std::cmp::Ordering::Less
}

/// Write the canonical words of a 2D `maze` under `mode` into `out` and return its key (the
/// hash of the canonical form). `Dedup::None` and `Dedup::Exact` give the maze's own words
/// and `maze_hash`.
pub fn canonical(maze: &Maze, mode: Dedup, s: &mut CanonScratch, out: &mut Vec<u64>) -> u64 {
    out.clear();
    out.extend_from_slice(maze.words());
    if mode != Dedup::Symmetry {
        return maze.hash();
    }
    let (w, h) = (maze.width(), maze.height());
    let image = s.image.get_or_insert_with(|| Maze::new(w, h));
    if image.width() != w || image.height() != h {
        *image = Maze::new(w, h);
    }
    let mut best_is_self = true;
    for t in 1..symmetries(w, h) {
        image_into(maze, t, image);
        if less(image.words(), out) {
            out.clear();
            out.extend_from_slice(image.words());
            best_is_self = false;
        }
    }
    if best_is_self {
        maze.hash()
    } else {
        // The hash of the canonical form, folded as Maze::hash folds a maze of this size.
        out.iter()
            .fold(maze.hash_start(), |acc, &word| Maze::hash_word(acc, word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{self, Algorithm};

    /// Every image of a maze has the same canonical form, a perfect maze of the same size.
    #[test]
    fn the_images_of_a_maze_share_their_canonical_form() {
        for (w, h) in [(5, 5), (6, 4), (1, 3)] {
            for index in 0..20 {
                let mut m = Maze::new(w, h);
                let mut g = generate::Scratch::new();
                generate::regenerate(&Algorithm::Kruskal, &mut m, &mut g, 1, index);
                let mut s = CanonScratch::default();
                let (mut c0, mut c1) = (Vec::new(), Vec::new());
                let k0 = canonical(&m, Dedup::Symmetry, &mut s, &mut c0);
                let mut img = Maze::new(w, h);
                for t in 0..symmetries(w, h) {
                    image_into(&m, t, &mut img);
                    assert!(img.is_perfect());
                    let k = canonical(&img, Dedup::Symmetry, &mut s, &mut c1);
                    assert_eq!((k, &c1), (k0, &c0), "{w}x{h} index {index} symmetry {t}");
                }
                let c = Maze::from_words(w, h, &c0).unwrap();
                assert_eq!(k0, c.hash());
                assert_eq!(canonical(&m, Dedup::Exact, &mut s, &mut c1), m.hash());
            }
        }
    }
}
