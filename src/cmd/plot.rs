//! `batchgen plot FILE… --out DIR`: a histogram per metric column (one colour per algorithm)
//! and a density of solution length against dead-end share, each as PNG and SVG; with
//! `--accept`, the cells holding accepted mazes are outlined on the density.
//!
//! Inputs are read like `batchgen summary` reads them (same checks, exit 2 on bad input).
//! Every picture is written through [`batchgen::atomic_file`]; all of them appear together
//! when the last is complete (none on an error or a signal).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use batchgen::accept::Accept;
use batchgen::atomic_file::{self, AtomicFile};
use batchgen::plot::{Density, Histogram, Picture, Series};
use batchgen::summary::{self, inputs, GroupBy, SummaryError};
use batchgen::thousands::thousands;

use super::{values, UsageError};

/// Flags of `batchgen plot`.
#[derive(clap::Args, Debug)]
pub struct PlotArgs {
    /// Metrics files, glob patterns or folders (as for `batchgen summary`).
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<std::ffi::OsString>,
    /// Folder for the pictures (created if missing; its parent must exist).
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// Outline the mazes passing this filter on the density plot.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true, value_parser = values::text(values::accept))]
    pub accept: Option<Accept>,
    /// Density grid: cells along each axis (2 to 400).
    #[arg(long, default_value_t = 60, value_name = "N", value_parser = clap::value_parser!(u16).range(2..=400))]
    pub cells: u16,
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

/// Run `batchgen plot`.
pub fn run(args: &PlotArgs) -> anyhow::Result<()> {
    let accept = args.accept.clone();
    let cells = args.cells as usize;
    let shown = args.out.display().to_string();
    if args.out.exists() && !args.out.is_dir() {
        return Err(UsageError::flag("--out", &shown, "exists and is not a folder").into());
    }
    let parent = match args.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(UsageError::flag(
            "--out",
            &shown,
            format!("folder '{}' does not exist", parent.display()),
        )
        .into());
    }
    let usage = |e: SummaryError| match e {
        SummaryError::Read { .. } => anyhow::Error::new(e),
        other => anyhow::Error::new(UsageError(other.to_string())),
    };
    let files = inputs::resolve(&args.inputs).map_err(usage)?;
    let by_algo = GroupBy {
        algo: true,
        size: false,
    };
    let s = summary::summarize(&files, by_algo, accept.as_ref()).map_err(usage)?;
    let sizes = summary::summarize(
        &files,
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
    let rows: u64 = s.groups.iter().map(|g| g.1.rows).sum();
    let tail = format!("{}, {} mazes", size_text.join(", "), thousands(rows),);
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {shown}"))?;
    // A signal only sets a flag, checked before the pictures are committed.
    batchgen::interrupt::install().context("installing the SIGINT/SIGTERM handlers")?;

    // Histograms: every metric column present in any group.
    let mut metrics: Vec<String> = Vec::new();
    for (_, g) in &s.groups {
        for (m, _) in &g.metrics {
            if !metrics.contains(m) {
                metrics.push(m.clone());
            }
        }
    }
    let mut written = Vec::new();
    let mut done = Vec::new();
    for m in &metrics {
        let series: Vec<Series<'_>> = s
            .groups
            .iter()
            .filter_map(|(k, g)| {
                let st = g.metrics.iter().find(|x| &x.0 == m)?;
                Some(Series {
                    name: k.algo.as_deref().unwrap_or("all"),
                    stat: &st.1,
                })
            })
            .filter(|x| x.stat.count() > 0)
            .collect();
        let h = Histogram {
            metric: m,
            title: format!("{m} ({tail})"),
            series,
        };
        let pic = Picture::Histogram(&h);
        write(
            &args.out,
            &format!("hist_{m}.svg"),
            pic.svg()?.as_bytes(),
            &mut done,
        )?;
        write(&args.out, &format!("hist_{m}.png"), &pic.png()?, &mut done)?;
        written.push(format!("hist_{m}"));
    }

    // Density of solution length against dead-end share, over the observed ranges.
    let range = |name: &str| -> Option<(f64, f64)> {
        let mut r: Option<(f64, f64)> = None;
        for (_, g) in &s.groups {
            if let Some((_, st)) = g.metrics.iter().find(|x| x.0 == name) {
                let items = st.items();
                if let (Some(a), Some(b)) = (items.first(), items.last()) {
                    r = Some(match r {
                        None => (a.0, b.0),
                        Some((lo, hi)) => (lo.min(a.0), hi.max(b.0)),
                    });
                }
            }
        }
        r
    };
    if let (Some(xr), Some(yr)) = (range("dead_end_share"), range("solution_length")) {
        let mut d = Density::new(xr, yr, (cells, cells));
        d.title = format!("solution length vs dead-end share ({tail})");
        d.x_label = "dead_end_share".into();
        d.y_label = "solution_length".into();
        let algos: Vec<String> = s.groups.iter().filter_map(|g| g.0.algo.clone()).collect();
        let n = cells * cells;
        d.series = algos.iter().map(|a| (a.clone(), vec![0u64; n])).collect();
        let mut acc = vec![0u64; n];
        let mut last = 0usize;
        summary::scan(
            &files,
            &["dead_end_share", "solution_length"],
            accept.as_ref(),
            |algo, v, pass| {
                if d.series[last].0 != algo {
                    last = d.series.iter().position(|x| x.0 == algo).unwrap_or(0);
                }
                let c = d.cell(v[0], v[1]);
                d.series[last].1[c] += 1;
                if pass {
                    acc[c] += 1;
                }
            },
        )
        .map_err(usage)?;
        if let Some(a) = &accept {
            d.accepted = Some((a.source().to_string(), acc));
        }
        let pic = Picture::Density(&d);
        let name = "density_solution_length_vs_dead_end_share";
        write(
            &args.out,
            &format!("{name}.svg"),
            pic.svg()?.as_bytes(),
            &mut done,
        )?;
        write(&args.out, &format!("{name}.png"), &pic.png()?, &mut done)?;
        written.push(name.to_string());
    }
    if let Some(sig) = batchgen::interrupt::received() {
        // Returning drops the prepared pictures: their temporary files are removed.
        return Err(super::Interrupted {
            signal: sig,
            message: format!(
                "interrupted by {}; no picture written to {shown}",
                batchgen::interrupt::name(sig)
            ),
        }
        .into());
    }
    atomic_file::commit_all(done).with_context(|| format!("writing the pictures to {shown}"))?;
    crate::errln!(
        "wrote {} pictures (PNG and SVG) to {shown}: {}",
        written.len(),
        written.join(", ")
    )?;
    Ok(())
}
