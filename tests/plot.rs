//! `batchgen plot`: every picture is a valid PNG (decoded) and SVG (parsed), with one series
//! per algorithm in its own palette colour, a legend naming each algorithm, a title with size
//! and count, and with `--accept` the accepted region on the density plot.

mod common;

use batchgen::plot::{PALETTE, SIZE};
use predicates::str::contains;

const ALGOS: [&str; 3] = ["backtracker", "binary-tree", "wilson"];

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

#[test]
fn pictures_have_one_series_per_algorithm() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("m.parquet");
    common::batchgen()
        .args([
            "--algo",
            &ALGOS.join(","),
            "--size",
            "12x10",
            "--count",
            "800",
        ])
        .arg("--quiet")
        .arg("--out")
        .arg(&f)
        .assert()
        .success();
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
        .stderr(contains("wrote 20 pictures"));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 40, "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with('.')), "no temp files");
    for stem in names.iter().filter_map(|n| n.strip_suffix(".svg")) {
        // SVG: parses; one polyline per algorithm (histograms) or one fill colour per
        // algorithm (density), each in the algorithm's palette colour; legend and title text.
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(str::trim))
            .collect();
        for a in ALGOS {
            assert!(texts.contains(&a), "{stem}: legend lacks {a}: {texts:?}");
        }
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
        for (k, _) in ALGOS.iter().enumerate() {
            let c = hex(PALETTE[k]);
            if stem.starts_with("hist_") {
                let lines = attr("polyline", "stroke");
                assert_eq!(
                    lines.iter().filter(|s| **s == c).count(),
                    1,
                    "{stem}: one series line in {c}: {lines:?}"
                );
            } else {
                assert!(attr("rect", "fill").contains(&c), "{stem}: {c}");
            }
        }
        assert!(
            !svg.to_uppercase().contains(&hex(PALETTE[ALGOS.len()])),
            "{stem}: no fourth series"
        );
        if stem.starts_with("density") {
            assert!(texts
                .iter()
                .any(|t| t.starts_with("accepted: dead_end_share")));
            assert!(doc.descendants().any(|n| n.has_tag_name("polyline")
                && n.attribute("stroke")
                    .is_some_and(|s| s.eq_ignore_ascii_case("#000000"))));
        }

        // PNG: decodes at the documented size; each algorithm's colour is present (legend
        // swatches are solid), the next palette colour is not.
        let bytes = std::fs::read(out.join(format!("{stem}.png"))).unwrap();
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), SIZE);
        assert_eq!(info.color_type, png::ColorType::Rgb);
        let pixels: Vec<(u8, u8, u8)> = buf[..info.buffer_size()]
            .chunks(3)
            .map(|p| (p[0], p[1], p[2]))
            .collect();
        for k in 0..ALGOS.len() {
            let n = pixels.iter().filter(|p| **p == PALETTE[k]).count();
            assert!(n >= 100, "{stem}: {} pixels of {}", n, ALGOS[k]);
        }
        assert_eq!(
            pixels
                .iter()
                .filter(|p| **p == PALETTE[ALGOS.len()])
                .count(),
            0,
            "{stem}"
        );
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
