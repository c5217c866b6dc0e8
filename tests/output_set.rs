//! The path-set check of a run's outputs, against the file system itself: for generated
//! spellings of output paths (`./`, `..`, folder symlinks, file symlinks, hard links, trailing
//! slashes, dataset folders expanded to their part files), two outputs are refused exactly
//! when writing one would write the other.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use batchgen::dataset;
use batchgen::grid::Size;
use batchgen::output_set::OutputSet;
use batchgen::shard::Shard;
use proptest::prelude::*;

const PART: &str = "ds/algo=kruskal/size=4x4/part-00001-of-00001.parquet";

/// A folder `a/` with a file, links to both, a hard link, and a dataset with one part.
fn fixture(root: &Path) {
    fs::create_dir_all(root.join("a/b")).unwrap();
    fs::write(root.join("a/f.parquet"), b"f").unwrap();
    std::os::unix::fs::symlink("a", root.join("ln")).unwrap();
    std::os::unix::fs::symlink("a/f.parquet", root.join("lf")).unwrap();
    std::os::unix::fs::symlink("a/none.parquet", root.join("dangling")).unwrap();
    fs::hard_link(root.join("a/f.parquet"), root.join("h.arrow")).unwrap();
    fs::create_dir_all(root.join(PART).parent().unwrap()).unwrap();
    fs::write(root.join(PART), b"p").unwrap();
}

/// An output: a file path, or a dataset folder whose part file the run writes.
#[derive(Clone, Debug)]
enum Out {
    File(String),
    Dataset(String),
}

fn file_spelling() -> impl Strategy<Value = String> {
    let base = prop_oneof![
        Just("a/f.parquet"),
        Just("a/g.parquet"),
        Just("a/b/f.parquet"),
        Just("lf"),
        Just("dangling"),
        Just("h.arrow"),
        Just(PART),
        Just("new/x.parquet"),
    ];
    let dress = prop_oneof![Just(0u8), Just(1), Just(2), Just(3), Just(4), Just(5)];
    (base, dress).prop_map(|(b, d)| match d {
        0 => b.to_string(),
        1 => format!("./{b}"),
        2 => b.replacen("a/", "ln/", 1),
        3 => b.replacen("a/", "a/b/../", 1),
        4 => format!("new/../{b}"),
        _ => b.replacen('/', "//", 1),
    })
}

fn dataset_spelling() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("ds"),
        Just("ds/"),
        Just("./ds/"),
        Just("ln/../ds/"),
        Just("a/../ds//"),
        Just("ds2/"),
    ]
    .prop_map(str::to_string)
}

fn output() -> impl Strategy<Value = Out> {
    prop_oneof![
        3 => file_spelling().prop_map(Out::File),
        1 => dataset_spelling().prop_map(Out::Dataset),
    ]
}

/// The file an output writes, below `root`.
fn file_of(root: &Path, o: &Out) -> PathBuf {
    match o {
        Out::File(f) => root.join(f),
        Out::Dataset(d) => dataset::part_path(
            &root.join(d),
            "kruskal",
            Size::planar(4, 4),
            Shard::WHOLE,
            "parquet",
        ),
    }
}

/// The truth: make both files' folders (as the run does before writing), create the first
/// file and see whether the second is then it.
fn same_file(a: &Path, b: &Path) -> bool {
    fs::create_dir_all(a.parent().unwrap()).unwrap();
    fs::create_dir_all(b.parent().unwrap()).unwrap();
    if fs::metadata(a).is_err() {
        fs::write(a, b"x").unwrap();
    }
    let ma = fs::metadata(a).unwrap();
    fs::metadata(b).is_ok_and(|mb| (mb.dev(), mb.ino()) == (ma.dev(), ma.ino()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn two_outputs_are_refused_exactly_when_they_are_one_file(a in output(), b in output()) {
        let d = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(d.path()).unwrap();
        fixture(&root);
        let (fa, fb) = (file_of(&root, &a), file_of(&root, &b));
        let mut set = OutputSet::new();
        set.add("--out", &fa, &fa).unwrap();
        let refused = set.add("--mazes", &fb, &fb).is_err();
        prop_assert_eq!(refused, same_file(&fa, &fb), "{:?} {:?}", a, b);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// An output planned over a file the run reads (`--mask`, `--store`, an input) is refused
    /// exactly when it is that file, by any spelling or hard link; the input is never touched.
    #[test]
    fn an_output_is_refused_exactly_when_it_is_an_input(a in output(), b in output()) {
        let d = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(d.path()).unwrap();
        fixture(&root);
        let (input, out) = (file_of(&root, &a), file_of(&root, &b));
        fs::create_dir_all(input.parent().unwrap()).unwrap();
        if fs::metadata(&input).is_err() {
            fs::write(&input, b"input").unwrap();
        }
        let before = fs::read(&input).unwrap();
        let mut set = OutputSet::new();
        set.add_input("--mask", &input);
        let refused = set.add("--out", &out, &out).is_err();
        prop_assert_eq!(refused, same_file(&input, &out), "{:?} {:?}", a, b);
        prop_assert_eq!(fs::read(&input).unwrap(), before);
    }
}
