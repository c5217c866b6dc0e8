//! `batchgen plot FILE… --out DIR`: a histogram per metric column and a density of solution
//! length against dead-end share, each as PNG and SVG (see [`batchgen::plot`] for what they
//! show). `--algo` chooses the generators, `--facet` one panel per generator, `--trim` the
//! percentiles the ranges span; with `--accept`, the accepted region or the passing rows.
//!
//! Inputs are read like `batchgen summary` reads them (same checks, exit 2 on bad input). The
//! statistics give each column's range; one pass over the rows then fills the bins and counts
//! what falls outside. Every picture is drawn in memory first (while no file exists, a SIGINT
//! or SIGTERM ends the run at once), then written through [`batchgen::atomic_file`]; all of them appear
//! together when the last is complete (none on an error or a signal), and no temporary file
//! exists while pictures are being drawn.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use batchgen::accept::{Accept, COLUMNS};
use batchgen::atomic_file::{self, AtomicFile};
use batchgen::plot::region;
use batchgen::plot::{Accepted, Axis, Density, Histogram, Layout, Picture};
use batchgen::summary::dist::Stat;
use batchgen::summary::{self, inputs, GroupBy, SummaryError};
use batchgen::thousands::thousands;

use super::{values, UsageError};

/// The density's columns (x, y).
const DENSITY: (&str, &str) = ("dead_end_share", "solution_length");
/// The density picture's file name, less its extension.
const DENSITY_NAME: &str = "density_solution_length_vs_dead_end_share";

/// One panel per generator, or one chart for all.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facet {
    /// Panels when more than six generators are plotted.
    Auto,
    /// One panel per generator.
    On,
    /// One chart (the density pools the generators).
    Off,
}

/// Flags of `batchgen plot`.
#[derive(clap::Args, Debug)]
pub struct PlotArgs {
    /// Metrics files, glob patterns or folders (as for `batchgen summary`).
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<std::ffi::OsString>,
    /// Folder for the pictures (created if missing; its parent must exist).
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// Plot only these generators (`all`, or names as for the main job's --algo) [default:
    /// every generator in the files].
    #[arg(long, value_name = "ALGOS", value_parser = values::AlgoListParser)]
    pub algo: Option<values::AlgoList>,
    /// One small panel per generator on shared axes (`auto`: above six generators).
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = Facet::Auto)]
    pub facet: Facet,
    /// Show the passing rows on the density: the exact region when the filter reads only its
    /// two columns, else a dot on each cell holding passing rows.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true, value_parser = values::text(values::accept))]
    pub accept: Option<Accept>,
    /// Axes span the PCT-th to the (100 - PCT)-th percentile; rows outside are counted in
    /// edge bins and said under the title (0: the full range).
    #[arg(long, value_name = "PCT", default_value_t = 0.5, value_parser = values::text(values::tail_percent))]
    pub trim: f64,
    /// Density grid: cells along each axis (2 to 400).
    #[arg(long, default_value_t = 60, value_name = "N", value_parser = clap::value_parser!(u16).range(2..=400))]
    pub cells: u16,
}

/// The pictures of a run, drawn in memory: (file name, bytes). No file exists until every
/// picture is drawn, so a run stopped meanwhile (even by SIGKILL) leaves nothing behind.
type Drawn = Vec<(String, Vec<u8>)>;

/// Stop with the signal's exit status when a caught signal arrived.
fn stop_if_signalled(shown: &str) -> anyhow::Result<()> {
    match batchgen::interrupt::received() {
        Some(sig) => Err(super::Interrupted {
            signal: sig,
            message: format!(
                "interrupted by {}; no picture written to {shown}",
                batchgen::interrupt::name(sig)
            ),
        }
        .into()),
        None => Ok(()),
    }
}

/// Write `bytes` to `dir/name` through [`AtomicFile`]: complete and synced, but visible only
/// when every picture of the run is committed together ([`atomic_file::commit_all`]).
fn write(
    dir: &Path,
    name: &str,
    bytes: &[u8],
    done: &mut Vec<atomic_file::Prepared>,
) -> anyhow::Result<()> {
    let path = dir.join(name);
    let shown = || format!("writing {}", path.display());
    let mut f = AtomicFile::create(&path).with_context(shown)?;
    f.write_all(bytes).with_context(shown)?;
    done.push(f.prepare().with_context(shown)?);
    Ok(())
}

/// Is `column` a whole-number column (by the column table; by its values if not in it)?
fn integer_column(column: &str, stat: &Stat) -> bool {
    match COLUMNS.iter().find(|c| c.name == column) {
        Some(c) => !c.is_float(),
        None => stat.items().iter().all(|(v, _)| v.fract() == 0.0),
    }
}

/// The note under a title for the rows outside `axis`'s range, if any.
fn edge_note(axis: &Axis) -> Option<String> {
    axis.note().map(|n| format!("{}; {n}", axis.range_words()))
}

/// A summary error as the command reports it: a read failure as is, anything else (bad
/// input) as a usage error (exit 2).
fn usage(e: SummaryError) -> anyhow::Error {
    match e {
        SummaryError::Read { .. } => anyhow::Error::new(e),
        other => anyhow::Error::new(UsageError(other.to_string())),
    }
}

/// `--out` must be a folder or not exist yet, in a parent folder that exists.
fn check_out(out: &Path, shown: &str) -> anyhow::Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(UsageError::flag("--out", shown, "exists and is not a folder").into());
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(UsageError::flag(
            "--out",
            shown,
            format!("folder '{}' does not exist", parent.display()),
        )
        .into());
    }
    // The folder that will receive the pictures (or, when missing, be created) must be
    // writable: a read-only folder or file system is a usage error before any work.
    let target = if out.is_dir() { out } else { parent };
    let rw = rustix::fs::Access::WRITE_OK | rustix::fs::Access::EXEC_OK;
    if let Err(e) = rustix::fs::access(target, rw) {
        return Err(UsageError::flag(
            "--out",
            shown,
            format!(
                "folder '{}' is not writable ({})",
                target.display(),
                std::io::Error::from(e)
            ),
        )
        .into());
    }
    Ok(())
}

/// The generators plotted, in the files' order: `--algo`'s that the files hold (all of them
/// without `--algo`); a named generator the files do not hold is a usage error.
fn plotted_names(
    s: &summary::Summary,
    algo: Option<&values::AlgoList>,
) -> anyhow::Result<Vec<String>> {
    let present: Vec<String> = s.groups.iter().filter_map(|g| g.0.algo.clone()).collect();
    Ok(match algo {
        None => present.clone(),
        Some(list) => {
            let wanted: Vec<String> = list.algos.iter().map(|a| a.name()).collect();
            let every = list.spec.split(',').any(|p| p.trim() == "all");
            if !every {
                if let Some(m) = wanted.iter().find(|w| !present.contains(w)) {
                    return Err(UsageError::flag(
                        "--algo",
                        &list.spec,
                        format!(
                            "the files hold no '{m}' rows (they hold: {})",
                            present.join(", ")
                        ),
                    )
                    .into());
                }
            }
            present
                .iter()
                .filter(|p| wanted.contains(p))
                .cloned()
                .collect()
        }
    })
}

/// Panels or one chart, as `--facet` asks for `plotted` generators.
fn layout_of(facet: Facet, plotted: usize) -> Layout {
    match facet {
        Facet::On => Layout::Facet,
        Facet::Off => Layout::Single,
        Facet::Auto if plotted > 6 => Layout::Facet,
        Facet::Auto => Layout::Single,
    }
}

/// The end of every title: the files' sizes and how many mazes are plotted.
fn title_tail(files: &[PathBuf], rows: u64) -> anyhow::Result<String> {
    let sizes = summary::summarize(
        files,
        GroupBy {
            algo: false,
            size: true,
        },
        None,
    )
    .map_err(usage)?;
    let size_text: Vec<String> = sizes
        .groups
        .iter()
        .filter_map(|g| g.0.size.clone())
        .collect();
    Ok(format!(
        "{}, {} mazes",
        size_text.join(", "),
        thousands(rows)
    ))
}

/// One axis per metric column of the plotted groups, its range from their pooled statistics.
fn axes_of(groups: &[&summary::Group], trim: f64) -> Vec<Axis> {
    let mut pooled: Vec<(String, Stat)> = Vec::new();
    for g in groups {
        for (m, st) in &g.metrics {
            match pooled.iter_mut().find(|p| &p.0 == m) {
                Some(p) => p.1.merge(st),
                None => pooled.push((m.clone(), st.clone())),
            }
        }
    }
    pooled
        .iter()
        .filter_map(|(m, st)| Axis::new(m, integer_column(m, st), st, trim))
        .collect()
}

/// One pass over the rows: bins, edge counts, density cells, passing rows.
fn fill(
    files: &[PathBuf],
    axes: &[Axis],
    accept: Option<&Accept>,
    names: &[String],
    hists: &mut [Histogram],
    density: &mut Option<Density>,
) -> anyhow::Result<()> {
    let columns: Vec<&str> = axes.iter().map(|a| a.column.as_str()).collect();
    let dx = columns.iter().position(|c| *c == DENSITY.0);
    let dy = columns.iter().position(|c| *c == DENSITY.1);
    let mut last = (String::new(), None::<usize>);
    summary::scan(files, &columns, accept, |algo, v, pass| {
        if last.0 != algo {
            last = (algo.to_string(), names.iter().position(|n| n == algo));
        }
        let Some(k) = last.1 else { return };
        for (h, &x) in hists.iter_mut().zip(v) {
            let p = h.axis.count(x);
            if let Some(slot) = h.bins.slot(x, p) {
                h.series[k].counts[slot] += 1;
            }
        }
        if let (Some(d), Some(ix), Some(iy)) = (density.as_mut(), dx, dy) {
            let (x, y) = (v[ix], v[iy]);
            let (px, py) = (d.x.count(x), d.y.count(y));
            if px != batchgen::plot::Place::Skipped && py != batchgen::plot::Place::Skipped {
                let c = d.cell(x, y);
                d.panels[k].counts[c] += 1;
                if pass {
                    d.panels[k].passing[c] += 1;
                }
            }
        }
    })
    .map_err(usage)
}

/// Draw a picture as `name.svg` and `name.png` (written at the end).
fn draw_picture(name: &str, pic: &Picture, drawn: &mut Drawn) -> anyhow::Result<()> {
    drawn.push((format!("{name}.svg"), pic.svg()?.into_bytes()));
    drawn.push((format!("{name}.png"), pic.png()?));
    Ok(())
}

/// Title and notes of each histogram, then its pictures; their names go to `written`.
fn draw_histograms(
    hists: &mut [Histogram],
    tail: &str,
    layout: Layout,
    written: &mut Vec<String>,
    drawn: &mut Drawn,
) -> anyhow::Result<()> {
    for h in hists {
        h.title = format!("{} ({tail})", h.axis.column);
        h.notes.extend(edge_note(&h.axis));
        if layout == Layout::Facet {
            h.notes
                .push("share of each generator's mazes per bin".into());
        }
        let name = hist_name(&h.axis.column);
        draw_picture(&name, &Picture::Histogram(h), drawn)?;
        written.push(name);
    }
    Ok(())
}

/// The passing rows on the density: the exact region `a` accepts when it reads only the
/// density's two columns, else the cells holding passing rows; said in a note.
fn mark_accepted(d: &mut Density, a: &Accept, passing: u64, rows: u64) {
    let index = |c: &str| COLUMNS.iter().position(|x| x.name == c).map(|i| i as u8);
    let extent = d.extent;
    let column = |name: &str, axis: &Axis, range: (f64, f64)| {
        index(name).map(|index| region::Column {
            index,
            integer: axis.integer,
            range,
        })
    };
    let exact = match (
        column(DENSITY.0, &d.x, extent.0),
        column(DENSITY.1, &d.y, extent.1),
    ) {
        (Some(x), Some(y)) => region::region(a, x, y),
        _ => None,
    };
    let share = format!("{} of {} mazes pass", thousands(passing), thousands(rows));
    d.accepted = Some(match exact {
        Some(region) => {
            d.notes.push(format!(
                "shaded: the region {} accepts ({share})",
                a.source()
            ));
            Accepted::Region {
                expr: a.source().to_string(),
                region,
            }
        }
        None => {
            d.notes.push(format!(
                "dots: cells holding mazes passing {} ({share})",
                a.source()
            ));
            Accepted::Rows {
                expr: a.source().to_string(),
            }
        }
    });
}

/// What the density shows beside its cells: layout, title, notes, the passing rows.
fn finish_density(
    d: &mut Density,
    layout: Layout,
    tail: &str,
    plotted: usize,
    accept: Option<&Accept>,
    (passing, rows): (u64, u64),
) {
    d.layout = layout;
    d.title = format!("solution length vs dead-end share ({tail})");
    for a in [&d.x, &d.y] {
        d.notes.extend(edge_note(a));
    }
    if layout == Layout::Single && plotted > 1 {
        d.notes.push(format!(
            "{plotted} generators pooled (--facet on: one panel each)"
        ));
    }
    if let Some(a) = accept {
        mark_accepted(d, a, passing, rows);
    }
}

/// Write every drawn picture to a temporary file in `dir`, then commit them together (none
/// after a signal) and say what was written.
fn commit(dir: &Path, shown: &str, drawn: Drawn, written: &[String]) -> anyhow::Result<()> {
    // Until now no file existed, and a signal ended the run at once. From here a signal only
    // sets a flag, checked before the pictures are committed.
    batchgen::interrupt::install().context("installing the SIGINT/SIGTERM handlers")?;
    let mut done = Vec::with_capacity(drawn.len());
    for (name, bytes) in &drawn {
        write(dir, name, bytes, &mut done)?;
    }
    // Returning drops the prepared pictures: their temporary files are removed.
    stop_if_signalled(shown)?;
    atomic_file::commit_all(done).with_context(|| format!("writing the pictures to {shown}"))?;
    crate::errln!(
        "wrote {} pictures (PNG and SVG) to {shown}: {}",
        written.len(),
        written.join(", ")
    )?;
    Ok(())
}

/// The file name (less extension) of a column's histogram: `hist_COLUMN`, with every
/// character of a column name (read from the files) other than ASCII letters, digits, `_` and
/// `-` replaced by `_`, so a name such as `a/b` or `../x` stays one file in the output folder.
/// Two columns that come out alike are refused before drawing ([`check_inputs_kept`]).
fn hist_name(column: &str) -> String {
    let safe: String = column
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '-' => c,
            _ => '_',
        })
        .collect();
    format!("hist_{safe}")
}

/// No picture may replace an input (a metrics file in the output folder under a picture's
/// name, by any spelling or hard link), nor two pictures share a name: refused with exit 2
/// before the pictures are drawn.
fn check_inputs_kept(
    out: &Path,
    shown: &str,
    files: &[std::path::PathBuf],
    axes: &[Axis],
    density: bool,
) -> anyhow::Result<()> {
    let mut set = batchgen::output_set::OutputSet::new();
    for f in files {
        set.add_input("INPUT", f);
    }
    let names = axes
        .iter()
        .map(|a| hist_name(&a.column))
        .chain(density.then(|| DENSITY_NAME.to_string()));
    for name in names {
        for ext in ["svg", "png"] {
            set.add(
                "--out",
                Path::new(shown),
                &out.join(format!("{name}.{ext}")),
            )
            .map_err(|e| UsageError(e.to_string()))?;
        }
    }
    Ok(())
}

/// Run `batchgen plot`.
pub fn run(args: &PlotArgs) -> anyhow::Result<()> {
    let accept = args.accept.clone();
    let shown = args.out.display().to_string();
    check_out(&args.out, &shown)?;
    let files = inputs::resolve(&args.inputs).map_err(usage)?;
    let by_algo = GroupBy {
        algo: true,
        size: false,
    };
    let s = summary::summarize(&files, by_algo, accept.as_ref()).map_err(usage)?;
    let names = plotted_names(&s, args.algo.as_ref())?;
    let groups: Vec<&summary::Group> = s
        .groups
        .iter()
        .filter(|g| g.0.algo.as_ref().is_some_and(|a| names.contains(a)))
        .map(|g| &g.1)
        .collect();
    let layout = layout_of(args.facet, names.len());
    let rows: u64 = groups.iter().map(|g| g.rows).sum();
    let passing: u64 = groups.iter().map(|g| g.passing).sum();
    let tail = title_tail(&files, rows)?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {shown}"))?;

    let axes = axes_of(&groups, args.trim);
    let mut hists: Vec<Histogram> = axes
        .iter()
        .map(|a| Histogram::new(a.clone(), &names, layout))
        .collect();
    let axis_of = |c: &str| axes.iter().find(|a| a.column == c).cloned();
    let mut density = match (axis_of(DENSITY.0), axis_of(DENSITY.1)) {
        (Some(x), Some(y)) => Some(Density::new(
            x,
            y,
            args.cells as usize,
            &names,
            accept.is_some(),
        )),
        _ => None,
    };
    check_inputs_kept(&args.out, &shown, &files, &axes, density.is_some())?;
    fill(
        &files,
        &axes,
        accept.as_ref(),
        &names,
        &mut hists,
        &mut density,
    )?;

    let mut written = Vec::new();
    let mut drawn = Vec::new();
    draw_histograms(&mut hists, &tail, layout, &mut written, &mut drawn)?;
    if let Some(mut d) = density {
        let plotted = names.len();
        finish_density(
            &mut d,
            layout,
            &tail,
            plotted,
            accept.as_ref(),
            (passing, rows),
        );
        let name = DENSITY_NAME;
        draw_picture(name, &Picture::Density(&d), &mut drawn)?;
        written.push(name.to_string());
    }
    commit(&args.out, &shown, drawn, &written)
}
