//! The Python package's test suite (`tests/python/`), run by `cargo test`: a virtual
//! environment under the target folder gets the pinned packages of
//! `tests/python/requirements.txt` from PyPI (once; reused while the pins are unchanged), then
//! `pip install .` builds and installs the package from this checkout as a user would (maturin,
//! with its own cargo target folder `target/python`: the outer `cargo test` holds the lock on
//! the main one), and pytest runs the suite against the binary this test was built with.
//! Any failure, and a run that collects no test (pytest's exit 5), fails this test.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::pip_install;

fn run(what: &str, cmd: &mut Command) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(status.success(), "{what} failed ({status})");
}

/// The venv's Python, with the pinned requirements installed.
fn venv(target: &Path, requirements: &Path) -> PathBuf {
    let dir = target.join("python-venv");
    let py = dir.join("bin").join("python");
    let pins = std::fs::read_to_string(requirements).unwrap();
    let stamp = dir.join("requirements.installed");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(pins.as_str()) && py.exists() {
        return py;
    }
    run(
        "python3 -m venv",
        Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(&dir),
    );
    run(
        "pip install -r tests/python/requirements.txt",
        pip_install(&py).arg("-r").arg(requirements),
    );
    std::fs::write(&stamp, pins).unwrap();
    py
}

/// `PATH` with `dir` first.
fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

#[test]
fn python_package_suite_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // CARGO_TARGET_TMPDIR is `<target>/tmp`: the venv and the nested build live beside it.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let py = venv(&target, &root.join("tests/python/requirements.txt"));
    run(
        "pip install . (maturin build of the python feature)",
        pip_install(&py)
            .current_dir(root)
            .args([
                "--no-deps",
                "--force-reinstall",
                "--no-build-isolation",
                ".",
            ])
            .env("CARGO_TARGET_DIR", target.join("python"))
            // The build backend runs the venv's `maturin` by name.
            .env("PATH", path_with(py.parent().unwrap())),
    );
    let status = Command::new(&py)
        .current_dir(root)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/python",
        ])
        .env("BATCHGEN_BIN", env!("CARGO_BIN_EXE_batchgen"))
        .status()
        .expect("running pytest");
    match status.code() {
        Some(0) => {}
        Some(5) => panic!("pytest collected no test in tests/python"),
        _ => panic!("the Python suite failed ({status})"),
    }
}
