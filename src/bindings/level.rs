//! `batchgen.Level`: one maze regenerated from a row's identifiers ([`crate::Level`]), seen
//! from Python: walls, solution and maze-dataset's `connection_list` as NumPy arrays, the
//! row's metrics as a dict, and drawings (text and SVG, which a notebook shows). A masked or
//! braided row's level takes the row's mask and braid chance ([`crate::LevelSpec`]). `grid=`
//! (`"hex"`, `"triangle"`, `"polar"`) makes the level of a `--grid` row: cells numbered as
//! on that grid, the walls its open-edge bits, `neighbours(cell)` its neighbour list, drawn as
//! SVG (the text drawings and `connection_list` are square-only and say so), its `entrance`
//! and `exit` given as on the command line (`X,Y`; polar `RING,I`).

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict};

use super::{braid_of, joined, mask_of, text, value_error};
use crate::grid::Size;
use crate::metrics::{Get, Row, RowView, COLUMNS};
use crate::render::{self, Style};
use crate::run::value::{parse_size3, ArgError};
use crate::topo::{Grid, GridSize};
use crate::{Algorithm, Level, LevelSpec};

/// A NumPy array of `bytes` (native-endian items of `dtype`) in `shape`, made by NumPy itself
/// (`numpy.frombuffer(bytearray(bytes), dtype).reshape(shape)`, writable, owning a copy of the
/// data), so the module links no array crate.
fn ndarray<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?
        .call_method1("frombuffer", (PyByteArray::new(py, bytes), dtype))?
        .call_method1("reshape", (shape.to_vec(),))
}

/// One maze ready for a game or a dataset: see the package's `Level` for the Python view.
#[pyclass(frozen, module = "batchgen", name = "Level")]
pub struct PyLevel {
    level: Level,
}

#[pymethods]
impl PyLevel {
    #[new]
    #[allow(clippy::too_many_arguments)] // the Python signature: identifiers and ends
    #[pyo3(signature = (
        algo, size, seed, index, *, ends = None, entrance = None, exit = None, mask = None,
        braid = None, grid = None
    ))]
    fn new(
        py: Python<'_>,
        algo: &str,
        size: Option<&Bound<'_, PyAny>>,
        seed: &Bound<'_, PyAny>,
        index: &Bound<'_, PyAny>,
        ends: Option<&str>,
        entrance: Option<&Bound<'_, PyAny>>,
        exit: Option<&Bound<'_, PyAny>>,
        mask: Option<&Bound<'_, PyAny>>,
        braid: Option<&Bound<'_, PyAny>>,
        grid: Option<&str>,
    ) -> PyResult<PyLevel> {
        let grid = match grid {
            None => Grid::Square,
            Some(g) => Grid::parse(g).map_err(|why| value_error(ArgError::new("grid", g, why)))?,
        };
        let mask = mask.map(|m| mask_of(m, grid)).transpose()?;
        let braid = braid.map(braid_of).transpose()?.unwrap_or(0.0);
        let size = match (size, &mask) {
            (None, Some(m)) => m.size(),
            (None, None) => {
                return Err(value_error(
                    "Level needs a size (or a mask, which sets the size)",
                ))
            }
            (Some(s), _) if grid != Grid::Square => {
                let size_text = joined(s, "x")?;
                let gs = GridSize::parse(grid, &size_text)
                    .map_err(|why| value_error(ArgError::new("--size", &size_text, why)))?;
                Size::planar(gs.a, gs.b)
            }
            (Some(s), _) => {
                let size_text = joined(s, "x")?;
                parse_size3("--size", &size_text).map_err(value_error)?
            }
        };
        let number = |flag: &str, v: &Bound<'_, PyAny>| -> PyResult<u64> {
            let t = text(v)?;
            t.trim().parse::<u64>().map_err(|_| {
                value_error(ArgError::new(
                    flag,
                    &t,
                    "expected a whole number from 0 to 18446744073709551615",
                ))
            })
        };
        let (seed, index) = (number("--seed", seed)?, number("--index", index)?);
        let entrance = entrance.map(|e| joined(e, ",")).transpose()?;
        let exit = exit.map(|e| joined(e, ",")).transpose()?;
        let algo = Algorithm::parse(algo).map_err(value_error)?;
        let spec = LevelSpec {
            mask,
            ..LevelSpec::new(algo, size, seed, index).braid(braid)
        };
        let spec = spec
            .on_grid(grid)
            .ends_of_flags(ends, entrance.as_deref(), exit.as_deref())
            .map_err(value_error)?;
        let level = py.detach(|| spec.build()).map_err(value_error)?;
        Ok(PyLevel { level })
    }

    /// The grid: `"square"`, `"hex"`, `"triangle"` or `"polar"`.
    #[getter]
    fn grid(&self) -> &'static str {
        self.level.grid().name()
    }

    /// The neighbours of cell `cell` in the grid's direction order, as `(cell, direction
    /// label, open)` tuples (labels: square E 0, S 1, W 2, N 3, down 4, up 5; the other grids'
    /// in `src/topo/README.md`).
    fn neighbours(&self, cell: u32) -> PyResult<Vec<(u32, u8, bool)>> {
        if !self.level.has_cell(cell) {
            return Err(value_error(format!(
                "cell {cell} is not a cell of this maze"
            )));
        }
        Ok(self.level.neighbours(cell))
    }

    /// The braid chance (the row's `braid`; 0 for a perfect maze).
    #[getter]
    fn braid(&self) -> f64 {
        self.level.braid()
    }

    /// The hash of the mask the maze fills (the row's `mask_hash`; 0 without a mask).
    #[getter]
    fn mask_hash(&self) -> u64 {
        self.level.mask().map_or(0, |m| m.hash())
    }

    /// The mask as text (`.` a cell, `#` a hole, one line per row), or `None`.
    #[getter]
    fn mask(&self) -> Option<String> {
        self.level.mask().map(|m| m.to_text())
    }

    /// Canonical generator name.
    #[getter]
    fn algo(&self) -> String {
        self.level.algo().name()
    }

    /// Grid width in cells.
    #[getter]
    fn width(&self) -> u32 {
        self.level.width()
    }

    /// Grid height in cells.
    #[getter]
    fn height(&self) -> u32 {
        self.level.height()
    }

    /// Layers (1 for a 2D maze).
    #[getter]
    fn depth(&self) -> u32 {
        self.level.depth()
    }

    /// Master seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.level.seed()
    }

    /// Maze index within (algo, size, seed).
    #[getter]
    fn index(&self) -> u64 {
        self.level.index()
    }

    /// The derived per-maze seed (the row's `maze_seed`).
    #[getter]
    fn maze_seed(&self) -> u64 {
        self.level.maze_seed()
    }

    /// Entrance cell id (`y * width + x`; 3D `x + width * (y + height * z)`).
    #[getter]
    fn entrance(&self) -> u32 {
        self.level.entrance()
    }

    /// Exit cell id.
    #[getter]
    fn exit(&self) -> u32 {
        self.level.exit()
    }

    /// The packed wall bits as the maze store holds them (`uint64` words).
    #[getter]
    fn walls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let w = self.level.walls();
        ndarray(py, bytemuck::cast_slice(w), "=u8", &[w.len()])
    }

    /// The solution path, entrance to exit, as cell ids (`uint32`).
    #[getter]
    fn solution<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let s = self.level.solution();
        ndarray(py, bytemuck::cast_slice(s), "=u4", &[s.len()])
    }

    /// The solution path as `(row, col)` coordinates, shape `(n, 2)` (3D: `(layer, row, col)`,
    /// shape `(n, 3)`).
    #[getter]
    fn solution_coords<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dims = if self.level.depth() > 1 { 3 } else { 2 };
        let mut out = Vec::with_capacity(self.level.solution().len() * dims);
        for &c in self.level.solution() {
            let (x, y, z) = self.level.xyz(c);
            if dims == 3 {
                out.push(z as i64);
            }
            out.extend([y as i64, x as i64]);
        }
        let n = self.level.solution().len();
        ndarray(py, bytemuck::cast_slice(&out), "=i8", &[n, dims])
    }

    /// maze-dataset's layout: `bool`, shape `(2, height, width)`; `[0, r, c]` is open between
    /// `(r, c)` and `(r + 1, c)`, `[1, r, c]` between `(r, c)` and `(r, c + 1)`. 2D only.
    #[getter]
    fn connection_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let l = &self.level;
        if l.grid() != Grid::Square {
            return Err(value_error(format!(
                "connection_list is the layout of square mazes; this maze is on the {} grid \
                 (use neighbours(cell))",
                l.grid()
            )));
        }
        if l.depth() > 1 {
            return Err(value_error(format!(
                "connection_list is the layout of 2D mazes; this maze is {}",
                l.size()
            )));
        }
        let (w, h) = (l.width() as usize, l.height() as usize);
        let mut out = Vec::with_capacity(2 * w * h);
        crate::ml::pixels::connection_list(l.maze(), &mut out);
        let bytes: Vec<u8> = out.iter().map(|&b| u8::from(b)).collect();
        ndarray(py, &bytes, "bool", &[2, h, w])
    }

    /// Every column of the row this maze has in a metrics table (`gen_ns`, a timing, aside).
    #[getter]
    fn metrics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let l = &self.level;
        let row = Row {
            index: l.index(),
            maze_seed: l.maze_seed(),
            gen_ns: 0,
            metrics: *l.metrics(),
        };
        let algo = l.algo().name();
        let view = RowView {
            algo: &algo,
            grid: l.grid(),
            size: l.size(),
            seed: l.seed(),
            row: &row,
        };
        let d = PyDict::new(py);
        for c in COLUMNS.iter().filter(|c| c.name != "gen_ns") {
            match c.get {
                Get::Algo => d.set_item(c.name, &algo)?,
                Get::U32(f) => d.set_item(c.name, f(&view))?,
                Get::U64(f) => d.set_item(c.name, f(&view))?,
                Get::F64(f) => d.set_item(c.name, f(&view))?,
                Get::OptU64(f) => d.set_item(c.name, f(&view))?,
            }
        }
        Ok(d)
    }

    /// The maze drawn as `ascii`, `unicode` or `svg` (`cell_px`: SVG cell side in pixels).
    #[pyo3(signature = (fmt = "unicode", *, solution = true, cell_px = None))]
    fn render(&self, fmt: &str, solution: bool, cell_px: Option<u32>) -> PyResult<String> {
        let path = solution.then_some(self.level.solution());
        let px = Style { cell_px }.px_for(render::Format::Svg);
        if let (Some(g), Some(m)) = (self.level.graph(), self.level.graph_maze()) {
            let ends = (self.level.entrance(), self.level.exit());
            return match fmt {
                "svg" if px >= 1 => Ok(render::polygon::svg(g, m, path, ends, px)),
                "svg" => Err(value_error(ArgError::new(
                    "--cell-px",
                    "0",
                    "must be at least 1",
                ))),
                other => Err(value_error(ArgError::new(
                    "--format",
                    other,
                    format!("the {} grid is drawn as svg", self.level.grid()),
                ))),
            };
        }
        let maze = self.level.maze();
        let drawn = match fmt {
            "ascii" => render::ascii(maze, path),
            "unicode" => render::unicode(maze, path),
            "svg" if px >= 1 => render::svg(maze, path, px),
            "svg" => {
                return Err(value_error(ArgError::new(
                    "--cell-px",
                    "0",
                    "must be at least 1",
                )))
            }
            other => {
                return Err(value_error(ArgError::new(
                    "--format",
                    other,
                    "expected ascii, unicode or svg",
                )))
            }
        };
        drawn.map_err(value_error)
    }

    /// The SVG drawing with the solution, so a notebook shows the level.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.render("svg", true, None)
    }

    fn __str__(&self) -> PyResult<String> {
        if self.level.grid() != Grid::Square {
            return Ok(self.__repr__());
        }
        self.render("unicode", true, None)
    }

    fn __repr__(&self) -> String {
        let l = &self.level;
        format!(
            "batchgen.Level({:?}, {:?}, {}, {}, entrance={}, exit={}, solution_length={}{}{}{})",
            l.algo().name(),
            l.size().to_string(),
            l.seed(),
            l.index(),
            l.entrance(),
            l.exit(),
            l.metrics().solution_length,
            match l.mask() {
                Some(m) => format!(", mask_hash={}", m.hash()),
                None => String::new(),
            },
            match l.braid() {
                0.0 => String::new(),
                p => format!(", braid={p}"),
            },
            match l.grid() {
                Grid::Square => String::new(),
                g => format!(", grid={:?}", g.name()),
            },
        )
    }
}
