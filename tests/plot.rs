//! `batchgen plot`: every picture is a valid PNG (decoded) and SVG (parsed); histograms have
//! one series per generator in its palette colour and a legend; 14 generators get one panel
//! each; `--algo` chooses; the caption's edge-bin counts are the rows outside the stated range;
//! integer ticks are whole numbers; a rectangle filter is drawn as that rectangle; densities
//! have a colour bar.

use crate::common;

use std::path::{Path, PathBuf};

use batchgen::plot::PALETTE;
use predicates::prelude::*;
use predicates::str::contains;

const ALGOS: [&str; 3] = ["backtracker", "binary-tree", "wilson"];

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// A metrics file of `algos`, `count` mazes each.
fn metrics(dir: &Path, algos: &str, size: &str, count: &str) -> PathBuf {
    let f = dir.join(format!("m-{}.parquet", algos.replace([',', ':'], "_")));
    common::batchgen()
        .args([
            "--algo", algos, "--size", size, "--count", count, "-q", "--out",
        ])
        .arg(&f)
        .assert()
        .success();
    f
}

/// `batchgen plot FILE --out DIR ARGS…` (success); the pictures' folder.
fn plot(dir: &Path, file: &Path, args: &[&str]) -> PathBuf {
    let out = dir.join(format!("pics{}", args.join("_").len()));
    common::batchgen()
        .arg("plot")
        .arg(file)
        .arg("--out")
        .arg(&out)
        .args(args)
        .assert()
        .success();
    out
}

/// A text element: its content, position and anchor.
struct Text {
    s: String,
    x: f64,
    y: f64,
    anchor: String,
}

fn texts(svg: &str) -> Vec<Text> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| Text {
            s: n.text().unwrap_or("").trim().to_string(),
            x: n.attribute("x").unwrap().parse().unwrap(),
            y: n.attribute("y").unwrap().parse().unwrap(),
            anchor: n.attribute("text-anchor").unwrap_or("").to_string(),
        })
        .collect()
}

fn number(s: &str) -> Option<f64> {
    s.replace(',', "").parse().ok()
}

#[test]
fn pictures_have_one_series_per_algorithm() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), &ALGOS.join(","), "12x10", "800");
    let out = d.path().join("pics");
    common::batchgen()
        .arg("plot")
        .arg(&f)
        .arg("--out")
        .arg(&out)
        .args([
            "--accept",
            "dead_end_share <= 0.28 AND solution_length >= 20",
        ])
        .assert()
        .success()
        .stderr(contains("wrote 21 pictures"));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 42, "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with('.')), "no temp files");
    for stem in names.iter().filter_map(|n| n.strip_suffix(".svg")) {
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts: Vec<String> = texts(&svg).into_iter().map(|t| t.s).collect();
        assert!(
            texts.iter().any(|t| t.contains("12x10, 2,400 mazes")),
            "{stem}: title {texts:?}"
        );
        let attr = |tag: &str, name: &str| -> Vec<String> {
            doc.descendants()
                .filter(|n| n.has_tag_name(tag))
                .filter_map(|n| n.attribute(name).map(str::to_uppercase))
                .collect()
        };
        let size: (u32, u32) = (
            doc.root_element()
                .attribute("width")
                .unwrap()
                .parse()
                .unwrap(),
            doc.root_element()
                .attribute("height")
                .unwrap()
                .parse()
                .unwrap(),
        );
        if stem.starts_with("hist_") {
            // One outline per generator in its palette colour, a legend naming each.
            for (k, a) in ALGOS.iter().enumerate() {
                assert!(texts.iter().any(|t| t == a), "{stem}: legend lacks {a}");
                let lines = attr("polyline", "stroke");
                let c = hex(PALETTE[k]);
                assert_eq!(
                    lines.iter().filter(|s| **s == c).count(),
                    1,
                    "{stem}: one series line in {c}: {lines:?}"
                );
            }
            assert!(
                !svg.to_uppercase().contains(&hex(PALETTE[ALGOS.len()])),
                "{stem}: no fourth series"
            );
        } else {
            // The generators pooled, the region of the filter shaded and outlined.
            assert!(texts.iter().any(|t| t.contains("3 generators pooled")));
            assert!(texts
                .iter()
                .any(|t| t.starts_with("shaded: the region dead_end_share <= 0.28")));
            assert!(doc.descendants().any(|n| n.has_tag_name("polyline")
                && n.attribute("stroke")
                    .is_some_and(|s| s.eq_ignore_ascii_case("#000000"))));
        }

        // PNG: decodes at the SVG's size; in a histogram each generator's colour is present
        // (legend swatches are solid), the next palette colour is not.
        let bytes = std::fs::read(out.join(format!("{stem}.png"))).unwrap();
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), size);
        assert_eq!(info.color_type, png::ColorType::Rgb);
        let pixels: Vec<(u8, u8, u8)> = buf[..info.buffer_size()]
            .chunks(3)
            .map(|p| (p[0], p[1], p[2]))
            .collect();
        if stem.starts_with("hist_") {
            for k in 0..ALGOS.len() {
                let n = pixels.iter().filter(|p| **p == PALETTE[k]).count();
                assert!(n >= 100, "{stem}: {} pixels of {}", n, ALGOS[k]);
            }
            let next = PALETTE[ALGOS.len()];
            assert_eq!(pixels.iter().filter(|p| **p == next).count(), 0, "{stem}");
        }
        let white = pixels.iter().filter(|p| **p == (255, 255, 255)).count();
        // A column that is constant on perfect mazes (braid, loops, solution_count) is one bar
        // filling the plot.
        let constant = matches!(stem, "hist_braid" | "hist_loops" | "hist_solution_count");
        assert!(
            constant || white > pixels.len() / 3,
            "{stem}: mostly white background"
        );
    }
}

#[test]
fn fourteen_generators_get_fourteen_panels() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), "all", "8x8", "40");
    let out = plot(d.path(), &f, &[]);
    let all: Vec<String> = batchgen::generate::FAMILIES
        .iter()
        .map(|f| f.name.to_string())
        .collect();
    assert_eq!(all.len(), 14);
    for stem in [
        "hist_dead_ends",
        "density_solution_length_vs_dead_end_share",
    ] {
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        let t = texts(&svg);
        // One panel title per generator (and no legend repeating them).
        let titles: Vec<&str> = t
            .iter()
            .map(|t| t.s.as_str())
            .filter(|s| all.iter().any(|a| s.split(':').next() == Some(a.as_str())))
            .collect();
        assert_eq!(titles.len(), 14, "{stem}: {titles:?}");
        for a in &all {
            assert_eq!(
                titles
                    .iter()
                    .filter(|s| s.split(':').next() == Some(a))
                    .count(),
                1,
                "{stem}: {a}"
            );
        }
        // 14 distinct series colours in the histogram.
        if stem.starts_with("hist") {
            for c in PALETTE {
                assert!(svg.to_uppercase().contains(&hex(c)), "{stem}: {}", hex(c));
            }
        }
    }
    // --facet off: one chart, the legend names all 14.
    let single = plot(d.path(), &f, &["--facet", "off"]);
    let svg = std::fs::read_to_string(single.join("hist_dead_ends.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().attribute("width"), Some("900"));
}

#[test]
fn algo_chooses_the_generators() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), "backtracker,kruskal,wilson", "8x8", "100");
    let out = plot(d.path(), &f, &["--algo", "wilson,kruskal"]);
    let svg = std::fs::read_to_string(out.join("hist_solution_length.svg")).unwrap();
    let t: Vec<String> = texts(&svg).into_iter().map(|t| t.s).collect();
    assert!(t.iter().any(|s| s == "kruskal") && t.iter().any(|s| s == "wilson"));
    assert!(!t.iter().any(|s| s == "backtracker"), "{t:?}");
    assert!(t.iter().any(|s| s.contains("8x8, 200 mazes")), "{t:?}");
    // A generator the files do not hold is bad input, named.
    common::batchgen()
        .arg("plot")
        .arg(&f)
        .arg("--out")
        .arg(d.path().join("x"))
        .args(["--algo", "eller"])
        .assert()
        .code(2)
        .stderr(contains("--algo").and(contains("eller")));
    common::batchgen()
        .arg("plot")
        .arg(&f)
        .arg("--out")
        .arg(d.path().join("x"))
        .args(["--algo", "wilsn"])
        .assert()
        .code(2);
    assert!(!d.path().join("x").exists());
}

#[test]
fn edge_bins_hold_exactly_the_rows_outside_the_range() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), "wilson,backtracker", "10x10", "1500");
    let out = plot(d.path(), &f, &[]);
    let table = common::read(&f);
    let mut checked = 0;
    for column in ["gen_ns", "dead_end_share", "solution_length", "tortuosity"] {
        let svg = std::fs::read_to_string(out.join(format!("hist_{column}.svg"))).unwrap();
        let values = table.f64s(column);
        let prefix = format!("0.5–99.5 percentile range; {column}: ");
        let Some(note) = texts(&svg).into_iter().find(|t| t.s.starts_with(&prefix)) else {
            continue;
        };
        // "N rows below LO and M above HI in the edge bins" (either part may be missing).
        let body = note.s[prefix.len()..]
            .strip_suffix(" in the edge bins")
            .unwrap()
            .replace(" rows", "")
            .replace(" row", "");
        for part in body.split(" and ") {
            let w: Vec<&str> = part.split(' ').collect();
            let (n, side, bound) = (number(w[0]).unwrap(), w[1], number(w[2]).unwrap());
            let outside = values
                .iter()
                .filter(|&&v| {
                    if side == "below" {
                        v < bound
                    } else {
                        v > bound
                    }
                })
                .count();
            assert_eq!(n as usize, outside, "{column}: {part}");
            assert!(
                outside > 0 && outside < values.len() / 50,
                "{column}: {outside}"
            );
            checked += 1;
        }
    }
    // Timings always have a long tail: at least gen_ns has edge bins.
    assert!(checked >= 1);
    // --trim 0: the full range, no edge bins.
    let full = plot(d.path(), &f, &["--trim", "0"]);
    let svg = std::fs::read_to_string(full.join("hist_gen_ns.svg")).unwrap();
    assert!(!texts(&svg).iter().any(|t| t.s.contains("edge bins")));
    common::batchgen()
        .args(["plot", "x.parquet", "--out", "y", "--trim", "50"])
        .assert()
        .code(2)
        .stderr(contains("--trim"));
}

#[test]
fn integer_ticks_are_whole_numbers() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), "wilson", "20x20", "300");
    let out = plot(d.path(), &f, &[]);
    for stem in [
        "hist_gen_ns",
        "hist_solution_length",
        "hist_dead_ends",
        "density_solution_length_vs_dead_end_share",
    ] {
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        let t = texts(&svg);
        // The histograms' x axis; the density's y axis (solution_length).
        let anchor = if stem.starts_with("hist") {
            "middle"
        } else {
            "end"
        };
        let ticks: Vec<&Text> = t
            .iter()
            .filter(|t| t.anchor == anchor && number(&t.s).is_some())
            .collect();
        assert!(ticks.len() >= 3, "{stem}: ticks");
        for tick in &ticks {
            assert!(!tick.s.contains('.'), "{stem}: tick {}", tick.s);
        }
    }
}

/// The pixel ↔ value map of an axis, fitted to its tick labels (least squares).
fn fit(points: &[(f64, f64)]) -> impl Fn(f64) -> f64 {
    let n = points.len() as f64;
    let (sv, sp) = points
        .iter()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    let (mv, mp) = (sv / n, sp / n);
    let num: f64 = points.iter().map(|p| (p.0 - mv) * (p.1 - mp)).sum();
    let den: f64 = points.iter().map(|p| (p.0 - mv) * (p.0 - mv)).sum();
    let b = num / den;
    move |v| mp + b * (v - mv)
}

#[test]
fn a_rectangle_filter_is_drawn_as_that_rectangle() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), "wilson", "16x16", "2000");
    let filter = "dead_end_share BETWEEN 0.27 AND 0.3 AND solution_length >= 40";
    let out = plot(d.path(), &f, &["--accept", filter]);
    let svg =
        std::fs::read_to_string(out.join("density_solution_length_vs_dead_end_share.svg")).unwrap();
    let t = texts(&svg);
    assert!(t
        .iter()
        .any(|t| t.s.starts_with(&format!("shaded: the region {filter}"))));
    let bottom = t
        .iter()
        .filter(|t| t.anchor == "middle" && number(&t.s).is_some())
        .map(|t| t.y)
        .fold(0.0, f64::max);
    let xs: Vec<(f64, f64)> = t
        .iter()
        .filter(|t| t.anchor == "middle" && t.y == bottom)
        .filter_map(|t| Some((number(&t.s)?, t.x)))
        .collect();
    let ys: Vec<(f64, f64)> = t
        .iter()
        .filter(|t| t.anchor == "end")
        .filter_map(|t| Some((number(&t.s)?, t.y)))
        .collect();
    assert!(xs.len() >= 3 && ys.len() >= 3);
    let (px, py) = (fit(&xs), fit(&ys));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let shaded: Vec<[f64; 4]> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("opacity") == Some("0.12"))
        .map(|n| {
            let a = |k: &str| n.attribute(k).unwrap().parse::<f64>().unwrap();
            [a("x"), a("y"), a("width"), a("height")]
        })
        .collect();
    assert_eq!(shaded.len(), 1, "one rectangle: {shaded:?}");
    let [x, y, w, h] = shaded[0];
    // Left and right sides at 0.27 and 0.3; the bottom half-way between 39 and 40 (whole
    // numbers); the top at the plot's top (the filter has no upper bound).
    let close = |a: f64, b: f64| (a - b).abs() <= 1.5;
    assert!(close(x, px(0.27)), "{x} vs {}", px(0.27));
    assert!(close(x + w, px(0.3)), "{} vs {}", x + w, px(0.3));
    assert!(close(y + h, py(39.5)), "{} vs {}", y + h, py(39.5));
    let top = ys.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    assert!(y < top, "the region reaches the top");
    // Its boundary: black polylines.
    assert!(doc
        .descendants()
        .any(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#000000")));
    // A filter on another column: the passing rows as dots.
    let other = plot(d.path(), &f, &["--accept", "dead_ends >= 70"]);
    let svg = std::fs::read_to_string(other.join("density_solution_length_vs_dead_end_share.svg"))
        .unwrap();
    assert!(texts(&svg).iter().any(|t| t
        .s
        .starts_with("dots: cells holding mazes passing dead_ends >= 70")));
    assert!(svg.contains("<circle"));
}

#[test]
fn densities_have_a_colour_bar() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), "kruskal", "10x10", "500");
    let out = plot(d.path(), &f, &[]);
    let svg =
        std::fs::read_to_string(out.join("density_solution_length_vs_dead_end_share.svg")).unwrap();
    let t = texts(&svg);
    assert!(t.iter().any(|t| t.s == "per cell"));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // 64 slices of the ramp, side by side in one column.
    let slices = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("width") == Some("20"))
        .count();
    assert!(slices >= 64, "{slices}");
    let first = batchgen::plot::ramp(0.5 / 64.0);
    assert!(svg
        .to_uppercase()
        .contains(&hex((first.0, first.1, first.2))));
    // Its top label is the fullest cell's count.
    let bar: Vec<u64> = t
        .iter()
        .filter(|t| t.anchor == "start")
        .filter_map(|t| t.s.replace(',', "").parse().ok())
        .collect();
    assert!(bar.contains(&1) && bar.len() >= 2, "{bar:?}");
}

#[test]
fn bad_out_and_input_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("file");
    std::fs::write(&f, "x").unwrap();
    common::batchgen()
        .args(["plot", "nope.parquet", "--out"])
        .arg(d.path().join("p"))
        .assert()
        .code(2)
        .stderr(contains("nope.parquet"));
    common::batchgen()
        .args(["plot", "x.parquet", "--out"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(contains("is not a folder"));
    assert!(!d.path().join("p").exists(), "nothing created on bad input");
}

/// A metrics file in the output folder under a picture's name (or a hard link to one there)
/// is an input the pictures would replace: refused with exit 2, the file untouched.
#[test]
fn a_picture_never_replaces_an_input() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), "kruskal", "6x6", "20");
    let out = d.path().join("pics");
    std::fs::create_dir(&out).unwrap();
    let bytes = std::fs::read(&f).unwrap();
    let named = out.join("hist_dead_ends.png");
    std::fs::copy(&f, &named).unwrap();
    let linked = out.join("hist_solution_length.svg");
    std::fs::hard_link(&f, &linked).unwrap();
    for (input, spelled) in [
        (named.clone(), out.clone()),
        (f.clone(), out.clone()),
        (named.clone(), d.path().join("pics/../pics")),
    ] {
        common::batchgen()
            .arg("plot")
            .arg(&input)
            .arg("--out")
            .arg(&spelled)
            .assert()
            .code(2)
            .stderr(contains("would replace a file the run reads"));
    }
    assert_eq!(std::fs::read(&named).unwrap(), bytes);
    assert_eq!(std::fs::read(&linked).unwrap(), bytes);
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        2,
        "nothing written"
    );
    // Another folder is fine.
    plot(d.path(), &named, &[]);
}

/// A copy of the metrics file `src` with two more float columns, named `names`.
fn with_extra_columns(src: &Path, dst: &Path, names: [&str; 2]) {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use std::sync::Arc;
    let b = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(src).unwrap()).unwrap();
    let kv = b.metadata().file_metadata().key_value_metadata().cloned();
    let old = b.schema().clone();
    let mut fields: Vec<arrow_schema::Field> =
        old.fields().iter().map(|f| f.as_ref().clone()).collect();
    for n in names {
        fields.push(arrow_schema::Field::new(
            n,
            arrow_schema::DataType::Float64,
            false,
        ));
    }
    let schema = Arc::new(arrow_schema::Schema::new_with_metadata(
        fields,
        old.metadata().clone(),
    ));
    let props = parquet::file::properties::WriterProperties::builder()
        .set_key_value_metadata(kv)
        .build();
    let file = std::fs::File::create(dst).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(file, schema.clone(), Some(props)).unwrap();
    for batch in b.build().unwrap() {
        let batch = batch.unwrap();
        let mut cols = batch.columns().to_vec();
        for k in 0..2 {
            let v: Vec<f64> = (0..batch.num_rows())
                .map(|i| (i * (k + 1)) as f64)
                .collect();
            cols.push(Arc::new(arrow_array::Float64Array::from(v)));
        }
        w.write(&arrow_array::RecordBatch::try_new(schema.clone(), cols).unwrap())
            .unwrap();
    }
    w.close().unwrap();
}

/// Column names come from the files: a histogram's file name keeps to one safe path component
/// (`a/b` and `../x` stay in the folder), two names that come out alike are refused before
/// drawing, and `summary` prints control characters in a name escaped.
#[test]
fn column_names_from_files_stay_file_names_and_text() {
    let d = tempfile::tempdir().unwrap();
    let f = metrics(d.path(), "kruskal", "6x6", "20");
    let odd = d.path().join("odd.parquet");
    with_extra_columns(&f, &odd, ["a/b", "../\u{1b}[31mx\u{7}"]);
    let out = plot(d.path(), &odd, &[]);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.contains(&"hist_a_b.svg".to_string()), "{names:?}");
    assert!(
        names.contains(&"hist______31mx_.png".to_string()),
        "{names:?}"
    );
    assert!(names.iter().all(|n| n
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))));
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        3,
        "nothing beside the folder"
    );
    let report = common::batchgen()
        .args(["summary", "--layout", "blocks"])
        .arg(&odd)
        .output()
        .unwrap();
    let text = String::from_utf8(report.stdout).unwrap();
    assert!(
        text.contains("\\u{1b}[31mx\\u{7}") && !text.contains('\u{1b}'),
        "{text}"
    );
    // `a/b` and `a.b` would both be hist_a_b: refused, nothing drawn.
    let clash = d.path().join("clash.parquet");
    with_extra_columns(&f, &clash, ["a/b", "a.b"]);
    let none = d.path().join("none");
    common::batchgen()
        .arg("plot")
        .arg(&clash)
        .arg("--out")
        .arg(&none)
        .assert()
        .code(2)
        .stderr(contains("hist_a_b"));
    assert!(!none.exists() || std::fs::read_dir(&none).unwrap().count() == 0);
}

#[test]
fn infinite_values_do_not_stop_the_plot() {
    let d = tempfile::tempdir().unwrap();
    let base = d.path().join("base.parquet");
    common::batchgen()
        .args([
            "--algo",
            "kruskal,wilson",
            "--size",
            "6x6",
            "--count",
            "200",
            "-q",
        ])
        .arg("--out")
        .arg(&base)
        .assert()
        .success();
    let odd = d.path().join("odd.parquet");
    common::with_float_column(&base, &odd, "dead_end_share", |i| match i % 5 {
        0 => f64::INFINITY,
        1 => f64::NEG_INFINITY,
        2 => f64::NAN,
        _ => 0.2 + (i % 13) as f64 / 100.0,
    });
    let out = d.path().join("pics");
    common::batchgen()
        .arg("plot")
        .arg(&odd)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let svg = std::fs::read_to_string(out.join("hist_dead_end_share.svg")).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
}

/// A metrics file whose `dead_end_share` alternates ±1e308 (the rest valid), from `base`.
pub(crate) fn alternating_huge(dir: &Path) -> PathBuf {
    let base = metrics(dir, "kruskal,wilson", "6x6", "200");
    let odd = dir.join("mixbig.parquet");
    common::with_float_column(&base, &odd, "dead_end_share", |i| {
        if i % 2 == 0 {
            1e308
        } else {
            -1e308
        }
    });
    if let Some(keep) = std::env::var_os("KEEP_MIXBIG") {
        std::fs::copy(&odd, keep).unwrap();
    }
    odd
}

/// Values at the ends of the f64 range: the span between them is infinite, yet the plot
/// finishes (bins and ticks come from finite numbers), states the range, and leaves only its
/// pictures.
#[test]
fn values_near_the_f64_limits_are_plotted() {
    let d = tempfile::tempdir().unwrap();
    let odd = alternating_huge(d.path());
    let out = d.path().join("pics");
    common::batchgen()
        .arg("plot")
        .arg(&odd)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let svg = std::fs::read_to_string(out.join("hist_dead_end_share.svg")).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".png") || n.ends_with(".svg")),
        "{names:?}"
    );
    let left: Vec<String> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// SIGTERM or SIGINT stops a plot promptly (the pictures are drawn in memory, with the default
/// signal action, and written only at the end), and leaves no temporary file: the pictures are
/// all there or none is.
#[test]
fn a_signal_stops_the_plot_and_leaves_no_temporary_file() {
    let d = tempfile::tempdir().unwrap();
    let odd = alternating_huge(d.path());
    for (sig, delay) in [("-TERM", 50), ("-INT", 150), ("-TERM", 400)] {
        let out = d.path().join(format!("pics{sig}{delay}"));
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_batchgen"))
            .arg("plot")
            .arg(&odd)
            .arg("--out")
            .arg(&out)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let _ = std::process::Command::new("kill")
            .args([sig, &child.id().to_string()])
            .status();
        let sent = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if sent.elapsed() > std::time::Duration::from_secs(60) {
                let _ = child.kill();
                panic!("plot ignored {sig}");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        let names: Vec<String> = std::fs::read_dir(&out)
            .map(|r| {
                r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        assert!(
            names.iter().all(|n| !n.contains(".tmp")),
            "{sig}: {names:?}"
        );
        if status.success() {
            assert_eq!(names.len(), 42, "{names:?}"); // 21 pictures, PNG and SVG
        } else {
            assert!(names.is_empty(), "{sig} ({status:?}): {names:?}");
        }
    }
}
