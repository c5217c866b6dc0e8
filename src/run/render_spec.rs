//! One maze drawn by `batchgen render`, described by its values: [`RenderSpec`], the maze's
//! identity (generator, size, seed, index), the ends, the mask and braid chance that remake it,
//! and the picture's options. [`RenderSpec::command_line`] prints the command, so a front end
//! that tells the user how to draw a maze (the explorer's gallery) never writes the render
//! command's syntax by hand, as [`super::RunSpec::command_line`] prints a run's.

use std::fmt::Write;
use std::path::PathBuf;

use crate::grid::Size;
use crate::topo::Grid;

use super::value::EndsRule;

/// A `batchgen render` of the maze (algo, size, seed, index), regenerated; a builder whose
/// setters give the optional flags.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderSpec {
    algo: String,
    size: Size,
    seed: u64,
    index: u64,
    ends: Option<EndsRule>,
    entrance: Option<String>,
    exit: Option<String>,
    grid: Grid,
    mask: Option<String>,
    braid: f64,
    solution: bool,
    out: Option<PathBuf>,
}

impl RenderSpec {
    /// The maze `index` of generator `algo` (a canonical name, with its parameters) on `size`
    /// from master seed `seed`.
    pub fn new(algo: impl Into<String>, size: Size, seed: u64, index: u64) -> RenderSpec {
        RenderSpec {
            algo: algo.into(),
            size,
            seed,
            index,
            ends: None,
            entrance: None,
            exit: None,
            grid: Grid::Square,
            mask: None,
            braid: 0.0,
            solution: false,
            out: None,
        }
    }

    /// The ends rule (`--ends`).
    pub fn ends(mut self, rule: EndsRule) -> RenderSpec {
        self.ends = Some(rule);
        self
    }

    /// The entrance cell, `X,Y` or `X,Y,Z` (`--entrance`).
    pub fn entrance(mut self, cell: impl Into<String>) -> RenderSpec {
        self.entrance = Some(cell.into());
        self
    }

    /// The exit cell (`--exit`).
    pub fn exit(mut self, cell: impl Into<String>) -> RenderSpec {
        self.exit = Some(cell.into());
        self
    }

    /// The grid (`--grid`; the square grid, the default, prints no flag).
    pub fn grid(mut self, grid: Grid) -> RenderSpec {
        self.grid = grid;
        self
    }

    /// The mask the maze fills, by the name of its file (`--mask`).
    pub fn mask(mut self, name: impl Into<String>) -> RenderSpec {
        self.mask = Some(name.into());
        self
    }

    /// The braid chance (`--braid`; 0, the default, for a perfect maze, prints no flag).
    pub fn braid(mut self, p: f64) -> RenderSpec {
        self.braid = p;
        self
    }

    /// Draw the solution (`--solution`).
    pub fn solution(mut self, yes: bool) -> RenderSpec {
        self.solution = yes;
        self
    }

    /// The picture's file (`-o`; its extension chooses the format).
    pub fn out(mut self, path: impl Into<PathBuf>) -> RenderSpec {
        self.out = Some(path.into());
        self
    }

    /// The `batchgen render` command that draws this maze: the flags of the fields that were
    /// set, in one fixed order, each value quoted for a POSIX shell where it needs it.
    pub fn command_line(&self) -> String {
        let q = |s: &str| crate::shell::quote(s);
        let mut c = format!(
            "batchgen render --algo {} --size {} --seed {} --index {}",
            q(&self.algo),
            self.size,
            self.seed,
            self.index
        );
        if let Some(rule) = self.ends {
            let _ = write!(c, " --ends {}", rule.name());
        }
        for (flag, cell) in [("--entrance", &self.entrance), ("--exit", &self.exit)] {
            if let Some(cell) = cell {
                let _ = write!(c, " {flag} {}", q(cell));
            }
        }
        if self.grid != Grid::Square {
            let _ = write!(c, " --grid {}", self.grid);
        }
        if let Some(m) = &self.mask {
            let _ = write!(c, " --mask {}", q(m));
        }
        if self.braid > 0.0 {
            let _ = write!(c, " --braid {}", self.braid);
        }
        if self.solution {
            c.push_str(" --solution");
        }
        if let Some(o) = &self.out {
            let _ = write!(c, " -o {}", q(&o.display().to_string()));
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_names_every_field_given() {
        let plain = RenderSpec::new("wilson", Size::planar(8, 4), 42, 17);
        assert_eq!(
            plain.command_line(),
            "batchgen render --algo wilson --size 8x4 --seed 42 --index 17"
        );
        let full = RenderSpec::new("wilson-straight:0.5", Size::new(3, 3, 2), 7, 0)
            .entrance("0,0,1")
            .exit("2,2,1")
            .mask("my mask.txt")
            .braid(0.25)
            .solution(true)
            .out("maze.svg");
        assert_eq!(
            full.command_line(),
            "batchgen render --algo wilson-straight:0.5 --size 3x3x2 --seed 7 --index 0 \
             --entrance 0,0,1 --exit 2,2,1 --mask 'my mask.txt' --braid 0.25 --solution \
             -o maze.svg"
        );
        let diameter = plain.ends(EndsRule::Diameter).braid(0.0);
        assert!(diameter
            .command_line()
            .ends_with(" --index 17 --ends diameter"));
    }
}
