//! A run described by its values: [`RunSpec`], a builder of typed fields (generators, size or
//! mask, count, seed, ends, filter, braid, threads, shard, outputs), checked once by
//! [`RunSpec::validate`] into a [`Run`] for every front end (the command line, Python, the
//! explorer's printed commands). Refusals are [`RunError`]s naming fields; the command line
//! spells them as flags. [`RunSpec::command_line`] prints the `batchgen` command of a spec, so
//! no front end writes another's syntax by hand. A new field is one setter, one check in
//! [`RunSpec::validate`] and one flag in [`RunSpec::command_line`].

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use crate::accept::Accept;
use crate::batch::{self, GraphJob, Job, Tally};
use crate::generate::Algorithm;
use crate::grid::{Mask, Size};
use crate::meta_keys as keys;
use crate::metrics::Ends;
use crate::shard::{Shard, Source};
use crate::sink::arrow::{run_metadata, tally_metadata, RunParams};
use crate::sink::RunInfo;
use crate::topo::{Grid, GridSize};

use super::error::{Field, Reason, RunError};
use super::value::{self, EndsRule, DEFAULT_SEED};

/// Walk steps per maze above which a random-walk generator is refused unless
/// [`RunSpec::no_time_limit`] (see [`Algorithm::expected_walk_steps`]).
pub const MAX_WALK_STEPS: f64 = 1e11;

/// The size of a run given neither a size nor a mask.
pub const DEFAULT_SIZE: Size = Size {
    width: 64,
    height: 64,
    depth: 1,
};

/// Mazes per generator when no count is given.
pub const DEFAULT_COUNT: u64 = 1000;

/// A mask and the name a command line gives it (the path it was read from, or `mask.txt`
/// for a mask given as its text).
#[derive(Clone, Debug)]
pub struct MaskArg {
    /// The mask.
    pub mask: Arc<Mask>,
    /// Its file's name in messages and printed commands.
    pub name: String,
}

/// An output: a file, or a dataset folder (one part file per generator and shard).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The path as given.
    pub path: PathBuf,
    /// A dataset folder (`DIR/`, or an existing folder).
    pub folder: bool,
}

impl Output {
    /// `path`, a dataset folder when it ends in a slash or is an existing folder.
    pub fn new(path: impl Into<PathBuf>) -> Output {
        let path = path.into();
        let folder = super::layout::is_folder_target(&path);
        Output { path, folder }
    }
}

/// A run, field by field (a builder; [`RunSpec::validate`] checks it).
///
/// ```
/// use batchgen::run::RunSpec;
/// use batchgen::Size;
///
/// let spec = RunSpec::new()
///     .algos(["kruskal", "wilson"])
///     .size(Size::planar(16, 16))
///     .count(500)
///     .seed(7);
/// assert_eq!(
///     spec.command_line(),
///     "batchgen --algo kruskal,wilson --size 16x16 --seed 7 --count 500"
/// );
/// let run = spec.validate()?;
/// assert_eq!(run.names(), ["kruskal", "wilson"]);
/// let e = RunSpec::new().algos(["wilsn"]).validate().unwrap_err();
/// assert!(e.to_string().starts_with("invalid value 'wilsn' for 'algo'"), "{e}");
/// # Ok::<(), batchgen::run::RunError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct RunSpec {
    algos: Vec<String>,
    size: Option<Size>,
    mask: Option<MaskArg>,
    count: Option<u64>,
    seed: Option<u64>,
    threads: Option<usize>,
    ends: Option<EndsRule>,
    entrance: Option<String>,
    exit: Option<String>,
    accept: Option<Accept>,
    max_candidates: Option<u64>,
    braid: f64,
    shard: Option<(Shard, Source)>,
    out: Option<Output>,
    mazes: Option<Output>,
    no_time_limit: bool,
    grid: Grid,
}

impl RunSpec {
    /// Every generator, 64×64, 1000 mazes each, seed 42, corner to corner.
    pub fn new() -> RunSpec {
        RunSpec::default()
    }

    /// The generators: names, comma lists or `all` (every generator; the default).
    pub fn algos<S: AsRef<str>>(mut self, algos: impl IntoIterator<Item = S>) -> RunSpec {
        self.algos = algos.into_iter().map(|a| a.as_ref().to_string()).collect();
        self
    }

    /// The cell shape (default square). On the other grids the size is `W×H`, or for polar
    /// `R×C` (rings, cells of the first ring; `R×6` for `R` rings); see `src/topo/README.md`.
    pub fn grid(mut self, grid: Grid) -> RunSpec {
        self.grid = grid;
        self
    }

    /// The grid size (default 64×64, or the mask's; 32 rings on a polar grid).
    pub fn size(mut self, size: Size) -> RunSpec {
        self.size = Some(size);
        self
    }

    /// Make every maze inside `mask` (read from the file `name`); it sets the size.
    pub fn mask(mut self, mask: Arc<Mask>, name: impl Into<String>) -> RunSpec {
        self.mask = Some(MaskArg {
            mask,
            name: name.into(),
        });
        self
    }

    /// Mazes per generator (accepted ones, with a filter; default 1000).
    pub fn count(mut self, count: u64) -> RunSpec {
        self.count = Some(count);
        self
    }

    /// The master seed (default 42).
    pub fn seed(mut self, seed: u64) -> RunSpec {
        self.seed = Some(seed);
        self
    }

    /// Worker threads (default one per core).
    pub fn threads(mut self, threads: usize) -> RunSpec {
        self.threads = Some(threads);
        self
    }

    /// The ends rule (default corners).
    pub fn ends(mut self, rule: EndsRule) -> RunSpec {
        self.ends = Some(rule);
        self
    }

    /// The entrance cell, `X,Y` (3D `X,Y,Z`).
    pub fn entrance(mut self, cell: impl Into<String>) -> RunSpec {
        self.entrance = Some(cell.into());
        self
    }

    /// The exit cell, `X,Y` (3D `X,Y,Z`).
    pub fn exit(mut self, cell: impl Into<String>) -> RunSpec {
        self.exit = Some(cell.into());
        self
    }

    /// Keep only mazes passing `filter`; the count then counts accepted mazes.
    pub fn accept(mut self, filter: Accept) -> RunSpec {
        self.accept = Some(filter);
        self
    }

    /// With a filter: give up on a generator after this many candidates.
    pub fn max_candidates(mut self, n: u64) -> RunSpec {
        self.max_candidates = Some(n);
        self
    }

    /// Braid each maze with chance `p` per dead end (0, the default, keeps perfect mazes).
    pub fn braid(mut self, p: f64) -> RunSpec {
        self.braid = p;
        self
    }

    /// Make only this shard of each generator's indices, and where it came from.
    pub fn shard(mut self, shard: Shard, source: Source) -> RunSpec {
        self.shard = Some((shard, source));
        self
    }

    /// Write the metrics to this Parquet file or dataset folder.
    pub fn out(mut self, out: Output) -> RunSpec {
        self.out = Some(out);
        self
    }

    /// Write every maze to this maze store file or dataset folder.
    pub fn mazes(mut self, mazes: Output) -> RunSpec {
        self.mazes = Some(mazes);
        self
    }

    /// Run random walks even where a maze is expected to take hours.
    pub fn no_time_limit(mut self, yes: bool) -> RunSpec {
        self.no_time_limit = yes;
        self
    }

    /// The generators as the command line writes them (`all` when none were given).
    fn algo_text(&self) -> String {
        if self.algos.is_empty() {
            "all".into()
        } else {
            self.algos.join(",")
        }
    }

    /// The `batchgen` command that runs this spec: the flags of the fields that were set, in
    /// one fixed order, each value quoted for a POSIX shell where it needs it. A mask is named
    /// by its file name.
    pub fn command_line(&self) -> String {
        use std::fmt::Write;
        let q = |s: &str| crate::shell::quote(s);
        let mut c = format!("batchgen --algo {}", q(&self.algo_text()));
        if self.grid != Grid::Square {
            let _ = write!(c, " --grid {}", self.grid);
        }
        match self.size {
            Some(s) if self.grid != Grid::Square && !s.is_3d() => {
                let _ = write!(c, " --size {}", GridSize::new(self.grid, s.width, s.height));
            }
            Some(s) => {
                let _ = write!(c, " --size {s}");
            }
            None => {}
        }
        if let Some(s) = self.seed {
            let _ = write!(c, " --seed {s}");
        }
        if let Some(r) = self.ends {
            let _ = write!(c, " --ends {}", r.name());
        }
        for (flag, cell) in [("--entrance", &self.entrance), ("--exit", &self.exit)] {
            if let Some(v) = cell {
                let _ = write!(c, " {flag} {}", q(v));
            }
        }
        if let Some(m) = &self.mask {
            let _ = write!(c, " --mask {}", q(&m.name));
        }
        if self.braid > 0.0 {
            let _ = write!(c, " --braid {}", self.braid);
        }
        if let Some(a) = &self.accept {
            let _ = write!(c, " --accept {}", q(a.source()));
            if let Some(n) = self.max_candidates {
                let _ = write!(c, " --max-candidates {n}");
            }
        }
        if let Some(t) = self.threads {
            let _ = write!(c, " --threads {t}");
        }
        if let Some((s, Source::Flag)) = &self.shard {
            let _ = write!(c, " --shard {s}");
        }
        if let Some(n) = self.count {
            let _ = write!(c, " --count {n}");
        }
        if self.no_time_limit {
            c.push_str(" --no-time-limit");
        }
        for (flag, o) in [("--mazes", &self.mazes), ("--out", &self.out)] {
            if let Some(o) = o {
                let _ = write!(c, " {flag} {}", q(&o.path.display().to_string()));
            }
        }
        c
    }

    /// Check every field, in the order the command line reports them; nothing has been written
    /// or allocated when this fails. Outputs are checked as paths (their folders exist, a file
    /// is not a folder); their creation proves they can be written.
    pub fn validate(&self) -> Result<Run, RunError> {
        if self.grid != Grid::Square {
            return self.validate_on_grid();
        }
        let mask = self.mask.as_ref();
        let size = self.size_checked()?;
        let spec = self.algo_text();
        let algos = Algorithm::parse_list(&spec)
            .map_err(|e| RunError::value(Field::Algo, &spec, e.to_string()))?;
        let (algos, note) = select_algos(&spec, algos, size, mask.map(|m| m.mask.as_ref()))?;
        if !self.no_time_limit {
            check_walk_steps(
                &algos,
                size,
                mask.map(|m| (m.mask.as_ref(), m.name.as_str())),
            )?;
        }
        let count = self.count.unwrap_or(DEFAULT_COUNT);
        check_total(count, algos.len())?;
        let threads = self.threads_checked()?;
        let (ends, ends_rule) = self.ends_checked(size)?;
        let max_candidates = self.max_candidates_checked(count)?;
        if !(0.0..=1.0).contains(&self.braid) {
            return Err(RunError::value(
                Field::Braid,
                self.braid,
                "expected a chance from 0 to 1, e.g. 0, 0.25 or 1",
            ));
        }
        self.shard_accept_checked()?;
        self.outputs_checked()?;
        check_memory(&algos, size, threads, self.mazes.is_some())?;
        Ok(Run {
            algos,
            size,
            count,
            seed: self.seed.unwrap_or(DEFAULT_SEED),
            threads,
            ends,
            ends_rule,
            mask: self.mask.as_ref().map(|m| m.mask.clone()),
            accept: self.accept.clone(),
            max_candidates,
            braid: if self.braid == 0.0 { 0.0 } else { self.braid },
            shard: self.shard.clone(),
            out: self.out.clone(),
            mazes: self.mazes.clone(),
            note,
            grid: None,
        })
    }

    /// Worker threads: 1 to 1024, default one per core.
    fn threads_checked(&self) -> Result<usize, RunError> {
        match self.threads {
            Some(t @ 1..=1024) => Ok(t),
            Some(t) => Err(RunError::value(
                Field::Threads,
                t,
                "expected a whole number from 1 to 1024",
            )),
            None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }

    /// A shard cannot take a filter: its first accepted maze depends on the shards before it.
    fn shard_accept_checked(&self) -> Result<(), RunError> {
        if let (Some((s, _)), Some(a)) = (&self.shard, &self.accept) {
            return Err(RunError::Conflict(
                Reason::text("")
                    .field(Field::Shard)
                    .then(format!(" {s} cannot be combined with "))
                    .field(Field::Accept)
                    .then(format!(
                        " '{}': the accepted mazes are the first that pass in index order, \
                         which no shard can know without the ones before it. Filter the \
                         sharded dataset afterwards (DuckDB WHERE), or run ",
                        a.source()
                    ))
                    .field(Field::Accept)
                    .then(" unsharded"),
            ));
        }
        Ok(())
    }

    /// The size given, or the mask's (which a given size must equal), or 64×64.
    fn size_checked(&self) -> Result<Size, RunError> {
        let mask = self
            .mask
            .as_ref()
            .map(|m| (m.mask.as_ref(), m.name.as_str()));
        value::size_on_mask(self.size, DEFAULT_SIZE, mask)
    }

    /// The ends and their rule; on a mask the ends not given are its first and last cells,
    /// and given ones must be cells of it.
    fn ends_checked(&self, size: Size) -> Result<(Ends, String), RunError> {
        let (ends, rule) = value::ends(
            self.ends,
            self.entrance.as_deref(),
            self.exit.as_deref(),
            size,
        )?;
        value::ends_on_mask(
            (ends, rule),
            self.entrance.is_some(),
            self.exit.is_some(),
            self.mask.as_ref().map(|m| m.mask.as_ref()),
        )
    }

    /// The candidate limit (default: a thousand per maze asked for, at least 100,000); it
    /// only applies with a filter.
    fn max_candidates_checked(&self, count: u64) -> Result<u64, RunError> {
        match self.max_candidates {
            Some(0) => Err(RunError::value(
                Field::MaxCandidates,
                0,
                "must be at least 1",
            )),
            Some(_) if self.accept.is_none() => Err(RunError::Conflict(
                Reason::text("")
                    .field(Field::MaxCandidates)
                    .then(" only applies with ")
                    .field(Field::Accept),
            )),
            Some(n) => Ok(n),
            None => Ok(count.saturating_mul(1000).max(100_000)),
        }
    }

    /// The outputs can be written (as a file or a dataset folder each); a shard from the
    /// engine's environment runs as one of N tasks with the same command line, so a single
    /// output file would be overwritten by every task.
    fn outputs_checked(&self) -> Result<(), RunError> {
        let outputs = [(Field::Out, &self.out), (Field::Mazes, &self.mazes)];
        if let Some(o) = &self.out {
            check_path(Field::Out, o)?;
        }
        if let Some((s, src)) = &self.shard {
            if src.is_environment() && s.n > 1 {
                for (field, o) in outputs {
                    if let Some(o @ Output { folder: false, .. }) = o {
                        return Err(RunError::value(
                            field,
                            o.path.display(),
                            Reason::text(format!(
                                "this is shard {s} from the {src}; all {} tasks would write \
                                 this one file: give a dataset folder (",
                                s.n
                            ))
                            .field(field)
                            .then(" DIR/)"),
                        ));
                    }
                }
            }
        }
        if let Some(m) = &self.mazes {
            check_path(Field::Mazes, m)?;
        }
        Ok(())
    }
}

/// An output path can be written: a file's folder exists and it is not a folder; a dataset
/// folder's nearest existing ancestor is a folder.
fn check_path(field: Field, o: &Output) -> Result<(), RunError> {
    let r = if o.folder {
        super::paths::check_out_dir(field.flag(), &o.path)
    } else {
        super::paths::check_out(field.flag(), &o.path).map(|_| ())
    };
    r.map_err(|e| RunError::of_arg(field, e))
}

/// The generators `algos` (parsed from `spec`, the text given for [`Field::Algo`]) that a run
/// makes on `size` and `mask`: `all` keeps those that accept a 3D size or a mask, with a note
/// naming the skipped ones; a named generator that does not accept them is refused. Every
/// front end that makes mazes from generator names (a run, `render`, `uniformity`) checks them
/// here.
pub fn select_algos(
    spec: &str,
    algos: Vec<Algorithm>,
    size: Size,
    mask: Option<&Mask>,
) -> Result<(Vec<Algorithm>, Option<Reason>), RunError> {
    let (algos, mask_note) = match mask {
        None => (algos, None),
        Some(_) => {
            let (keep, note) = Algorithm::on_mask(spec, algos)
                .map_err(|why| RunError::value(Field::Algo, spec, why))?;
            (
                keep,
                note.map(|n| Reason::text("").field(Field::Mask).then(format!(": {n}"))),
            )
        }
    };
    let (algos, note) = select_3d(spec, algos, size);
    check_3d(spec, &algos, size)?;
    Ok((algos, note.or(mask_note)))
}

/// For `all` with a 3D size: keep the generators that accept one, with a note naming the
/// skipped ones.
fn select_3d(spec: &str, algos: Vec<Algorithm>, size: Size) -> (Vec<Algorithm>, Option<Reason>) {
    let (keep, note) = value::select_3d(spec, algos, size);
    // The note's text starts with the size flag; keep it a field.
    let note = note.map(|n| {
        let rest = n.strip_prefix("--size").unwrap_or(&n).to_string();
        Reason::text("").field(Field::Size).then(rest)
    });
    (keep, note)
}

/// A 3D size needs generators that make 3D mazes.
fn check_3d(spec: &str, algos: &[Algorithm], size: Size) -> Result<(), RunError> {
    let flat: Vec<String> = algos
        .iter()
        .filter(|a| !a.supports_3d())
        .map(|a| a.name())
        .collect();
    if !size.is_3d() || flat.is_empty() {
        return Ok(());
    }
    Err(RunError::value(
        Field::Algo,
        spec,
        Reason::text(format!(
            "{} only make{} 2D mazes, and ",
            flat.join(", "),
            if flat.len() == 1 { "s" } else { "" }
        ))
        .field(Field::Size)
        .then(format!(
            " {size} is 3D; the generators that accept a 3D size are: {}",
            value::names_3d()
        )),
    ))
}

/// Every generator's random walk must be expected to finish in reasonable time on `size`, or
/// on the mask's own cells (named `name` in messages) when there is one (its bounding box says nothing of a winding
/// corridor).
pub fn check_walk_steps(
    algos: &[Algorithm],
    size: Size,
    mask: Option<(&Mask, &str)>,
) -> Result<(), RunError> {
    for a in algos {
        let steps = match mask {
            Some((m, _)) => a.expected_walk_steps_on(m),
            None => a.expected_walk_steps(size),
        };
        if let Some(steps) = steps.filter(|&s| s > MAX_WALK_STEPS) {
            let (field, value, on, advice) = match mask {
                Some((m, name)) => (
                    Field::Mask,
                    name.to_string(),
                    format!(
                        "this mask ({} cells, {} on its longest path)",
                        m.cells(),
                        m.span()
                    ),
                    "mask with fewer long corridors",
                ),
                None => (
                    Field::Size,
                    size.to_string(),
                    format!("this grid ({} cells)", size.cells_u64()),
                    "grid closer to square",
                ),
            };
            return Err(RunError::value(
                field,
                value,
                Reason::text(format!(
                    "{}'s random walk is expected to take about {steps:.1e} steps per maze on \
                     {on} (the limit is {MAX_WALK_STEPS:.0e}): it could run for hours. Use a \
                     {advice}, another generator, or ",
                    a.name(),
                ))
                .field(Field::NoTimeLimit),
            ));
        }
    }
    Ok(())
}

/// The run's total must be countable: refused, never wrapped.
fn check_total(count: u64, generators: usize) -> Result<(), RunError> {
    if count.checked_mul(generators as u64).is_none() {
        return Err(RunError::value(
            Field::Count,
            count,
            format!(
                "too large: {generators} generators × {count} mazes is more than {} (2^64 − 1)",
                u64::MAX
            ),
        ));
    }
    Ok(())
}

/// Refuse up front what cannot fit, instead of aborting in the allocator mid-run.
fn check_memory(
    algos: &[Algorithm],
    size: Size,
    threads: usize,
    mazes: bool,
) -> Result<(), RunError> {
    let chunk = batch::chunk_len(size.cells_u64(), threads);
    let need = crate::memory::estimate(algos, size, threads, chunk, mazes);
    crate::memory::check(need).map_err(|why| {
        RunError::value(
            Field::Size,
            size,
            Reason::text("with ")
                .field(Field::Threads)
                .then(format!(" {threads}: {why}")),
        )
    })
}

/// A validated run, ready for [`Run::execute`].
#[derive(Clone, Debug)]
pub struct Run {
    /// Generators in canonical order.
    pub algos: Vec<Algorithm>,
    /// Grid size (depth 1 for 2D).
    pub size: Size,
    /// Mazes per generator.
    pub count: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Entrance and exit cells.
    pub ends: Ends,
    /// How `ends` was chosen, for the file metadata.
    pub ends_rule: String,
    /// The mask every maze fills, if any.
    pub mask: Option<Arc<Mask>>,
    /// The filter.
    pub accept: Option<Accept>,
    /// Candidate limit per generator (with a filter).
    pub max_candidates: u64,
    /// Braid chance per dead end (0 = perfect mazes).
    pub braid: f64,
    /// This process's shard and where it came from; `None` = the whole range (1/1).
    pub shard: Option<(Shard, Source)>,
    /// The metrics output.
    pub out: Option<Output>,
    /// The maze store output.
    pub mazes: Option<Output>,
    /// What `all` skipped on a 3D size or a mask (the generators left out), if anything.
    pub note: Option<Reason>,
    /// On a grid other than the square one: its size, graph and ends (`size` then holds its
    /// `W×H`, or `R×C` for polar).
    pub grid: Option<GraphJob>,
}

impl Run {
    /// The generators' canonical names, in run order.
    pub fn names(&self) -> Vec<String> {
        self.algos.iter().map(|a| a.name()).collect()
    }

    /// The shard (1/1 when unsharded).
    pub fn whole_shard(&self) -> Shard {
        self.shard.as_ref().map_or(Shard::WHOLE, |s| s.0)
    }

    /// This shard's slice of each generator's indices.
    pub fn indices(&self) -> Range<u64> {
        self.whole_shard().range(self.count)
    }

    /// The batch job: this shard's slice of each generator's indices, with each maze's walls
    /// when `keep_walls`.
    pub fn job(&self, keep_walls: bool) -> Job {
        let range = self.indices();
        Job {
            algos: self.algos.clone(),
            size: self.size,
            count: range.end - range.start,
            seed: self.seed,
            ends: self.ends,
            accept: self.accept.clone(),
            max_candidates: self.max_candidates,
            keep_walls,
            first_index: range.start,
            mask: self.mask.clone(),
            braid: crate::Chance::new(self.braid),
            graph: self.grid.clone(),
        }
    }

    /// The grid's name (`square` for the square grid).
    pub fn grid_name(&self) -> &'static str {
        self.grid.as_ref().map_or("square", |g| g.size.grid.name())
    }

    /// The size as `--size` writes it on the run's grid (`R` for a polar grid of `R` rings).
    pub fn size_text(&self) -> String {
        match &self.grid {
            None => self.size.to_string(),
            Some(g) => g.size.to_string(),
        }
    }

    /// The metadata every output of the run records: its parameters, its mask and
    /// `command_line` (as the front end that started it writes it).
    pub fn info(&self, command_line: &str) -> RunInfo {
        let shard = self.whole_shard();
        let shard_source = self
            .shard
            .as_ref()
            .map_or_else(|| "none".into(), |(_, s)| s.to_string());
        let names = self.names();
        let mut extra = run_metadata(&RunParams {
            algos: &names,
            size: self.size,
            count: self.count,
            seed: self.seed,
            shard: shard.to_string(),
            shard_source,
            indices: self.indices(),
            accept: self
                .accept
                .as_ref()
                .map(|a| (a.source(), self.max_candidates)),
            braid: self.braid,
        });
        if let Some(g) = &self.grid {
            extra.push((keys::GRID.into(), g.size.grid.name().into()));
        }
        if let Some(m) = &self.mask {
            extra.push((keys::MASK.into(), m.to_text()));
        }
        RunInfo {
            command_line: command_line.to_string(),
            ends_rule: self.ends_rule.clone(),
            extra,
        }
    }

    /// Generator `pos`'s candidates and acceptance, as recorded when the run is done.
    pub fn tally_metadata(&self, pos: usize, t: &Tally) -> Vec<(String, String)> {
        tally_metadata(
            &self.algos[pos].name(),
            t.candidates,
            t.accepted,
            self.accept.is_some(),
        )
    }

    /// The file's path of an output for generator `pos`'s part (a dataset folder's part file
    /// `DIR/[grid=G/]algo=NAME/size=WxH/part-KKKKK-of-NNNNN.EXT`, or the file itself).
    pub fn part_path(&self, o: &Output, pos: usize, ext: &str) -> PathBuf {
        if o.folder {
            super::layout::part_path_on(
                &o.path,
                self.grid.as_ref().map_or(Grid::Square, |g| g.size.grid),
                &self.algos[pos].name(),
                self.size,
                self.whole_shard(),
                ext,
            )
        } else {
            o.path.clone()
        }
    }
}

mod on_grid;
pub use on_grid::{graph_of, grid_graph, grid_size};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Names;

    fn ring() -> Arc<Mask> {
        Arc::new(Mask::from_text("...\n.#.\n...\n").unwrap())
    }

    #[test]
    fn a_spec_validates_into_its_run() {
        let run = RunSpec::new()
            .algos(["kruskal,wilson", "backtracker"])
            .size(Size::planar(16, 8))
            .count(500)
            .seed(7)
            .threads(2)
            .ends(EndsRule::Diameter)
            .validate()
            .unwrap();
        assert_eq!(run.names(), ["backtracker", "kruskal", "wilson"]);
        assert_eq!(
            (run.size, run.count, run.seed, run.threads),
            (Size::planar(16, 8), 500, 7, 2)
        );
        assert_eq!(run.ends, Ends::Diameter);
        assert_eq!(run.indices(), 0..500);
        let info = run.info("cmd");
        let get = |k: &str| {
            info.extra
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get(keys::ALGOS), Some("backtracker,kruskal,wilson"));
        assert_eq!(get(keys::COUNT), Some("500"));
        assert_eq!(get(keys::SHARD), Some("1/1"));
        assert!(info.ends_rule.starts_with("diameter"), "{}", info.ends_rule);
        // The defaults: every generator, 64x64, 1000 mazes, seed 42.
        let d = RunSpec::new().threads(1).validate().unwrap();
        assert_eq!(d.algos, Algorithm::parse_list("all").unwrap());
        assert_eq!(
            (d.size, d.count, d.seed),
            (DEFAULT_SIZE, 1000, DEFAULT_SEED)
        );
    }

    #[test]
    fn errors_name_fields_or_flags() {
        let e = RunSpec::new()
            .mask(ring(), "ring.txt")
            .size(Size::planar(4, 4))
            .validate()
            .unwrap_err();
        assert_eq!(e.field(), Some(Field::Size));
        assert_eq!(
            e.to_string(),
            "invalid value '4x4' for 'size': the mask 'ring.txt' is 3x3 (the mask sets the size: \
             drop size or give size 3x3)"
        );
        assert_eq!(
            e.message(Names::Flags),
            "invalid value '4x4' for '--size': the mask 'ring.txt' is 3x3 (the mask sets the \
             size: drop --size or give --size 3x3)"
        );
        let e = RunSpec::new().max_candidates(10).validate().unwrap_err();
        assert_eq!(e.to_string(), "max_candidates only applies with accept");
        assert_eq!(
            e.message(Names::Flags),
            "--max-candidates only applies with --accept"
        );
        let e = RunSpec::new()
            .ends(EndsRule::Diameter)
            .exit("1,1")
            .validate()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "ends diameter chooses the entrance and exit itself; drop entrance/exit"
        );
        let e = RunSpec::new()
            .algos(["eller"])
            .size(Size::new(4, 4, 2))
            .validate()
            .unwrap_err();
        assert_eq!(e.field(), Some(Field::Algo));
        assert!(e.to_string().contains("and size 4x4x2 is 3D"), "{e}");
        for (spec, field) in [
            (RunSpec::new().threads(0), Field::Threads),
            (RunSpec::new().braid(1.5), Field::Braid),
            (RunSpec::new().braid(f64::NAN), Field::Braid),
            (RunSpec::new().entrance("64,0"), Field::Entrance),
            (RunSpec::new().algos(["wilsn"]), Field::Algo),
            (RunSpec::new().count(u64::MAX), Field::Count),
            (
                RunSpec::new().mask(ring(), "ring.txt").entrance("1,1"),
                Field::Entrance,
            ),
        ] {
            assert_eq!(
                spec.validate().unwrap_err().field(),
                Some(field),
                "{spec:?}"
            );
        }
    }

    #[test]
    fn generators_are_selected_for_a_3d_size_or_a_mask() {
        let cube = Size::new(2, 2, 2);
        let list = |s: &str| Algorithm::parse_list(s).unwrap();
        let (keep, note) = select_algos("all", list("all"), cube, None).unwrap();
        assert!(keep.iter().all(|a| a.supports_3d()) && !keep.is_empty());
        let note = note.unwrap().render(Names::Flags);
        assert!(
            note.starts_with("--size 2x2x2 is 3D: running the"),
            "{note}"
        );
        assert!(note.contains("binary-tree"), "{note}");
        let (keep, note) = select_algos("all", list("all"), Size::planar(2, 2), None).unwrap();
        assert_eq!((keep, note), (list("all"), None));
        let e = select_algos("wilson,eller", list("wilson,eller"), cube, None).unwrap_err();
        let flags = e.message(Names::Flags);
        assert!(
            flags.starts_with("invalid value 'wilson,eller' for '--algo': eller only makes 2D")
                && flags.contains("and --size 2x2x2 is 3D")
                && flags.contains("wilson"),
            "{flags}"
        );
        assert!(e.message(Names::Fields).contains("and size 2x2x2 is 3D"));
        let mask = ring();
        let (keep, note) = select_algos("all", list("all"), mask.size(), Some(&mask)).unwrap();
        assert!(keep.iter().all(|a| a.supports_mask()) && !keep.is_empty());
        let note = note.unwrap().render(Names::Flags);
        assert!(note.starts_with("--mask: running the"), "{note}");
        let e = select_algos("eller", list("eller"), mask.size(), Some(&mask)).unwrap_err();
        assert_eq!(e.field(), Some(Field::Algo));
    }

    #[test]
    fn a_mask_sets_the_size_and_the_ends() {
        let run = RunSpec::new()
            .algos(["all"])
            .mask(ring(), "ring.txt")
            .threads(1)
            .validate()
            .unwrap();
        assert_eq!(run.size, Size::planar(3, 3));
        assert!(run.algos.iter().all(Algorithm::supports_mask));
        let note = run.note.as_ref().unwrap();
        assert!(
            note.render(Names::Fields).starts_with("mask: running the"),
            "{note:?}"
        );
        assert!(
            note.render(Names::Flags).starts_with("--mask: running the"),
            "{note:?}"
        );
        assert_eq!(run.ends, Ends::cells(0, 8));
    }

    #[test]
    fn the_command_line_names_every_field_given() {
        let spec = RunSpec::new()
            .algos(["wilson"])
            .size(Size::planar(12, 8))
            .seed(3)
            .entrance("1,0")
            .exit("11,7")
            .mask(ring(), "my mask.txt")
            .braid(0.25)
            .accept(Accept::parse("dead_end_share < 0.3").unwrap())
            .max_candidates(5000)
            .count(10)
            .mazes(Output {
                path: "m.arrow".into(),
                folder: false,
            })
            .out(Output {
                path: "out/".into(),
                folder: true,
            });
        assert_eq!(
            spec.command_line(),
            "batchgen --algo wilson --size 12x8 --seed 3 --entrance 1,0 --exit 11,7 \
             --mask 'my mask.txt' --braid 0.25 --accept 'dead_end_share < 0.3' \
             --max-candidates 5000 --count 10 --mazes m.arrow --out out/"
        );
        assert_eq!(RunSpec::new().command_line(), "batchgen --algo all");
    }
}
