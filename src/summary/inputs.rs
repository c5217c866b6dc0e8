//! Turning the command line's inputs into a sorted list of Parquet files: plain files, glob
//! patterns (`*`, `?` within a path component, `**` for any number of folders; for patterns
//! the shell did not expand, e.g. quoted), and folders searched recursively for `*.parquet`
//! (hidden entries, such as in-progress `.NAME.tmp-…` files, are skipped; links to folders are
//! not followed, see [`crate::folder_walk`]). A file named
//! explicitly must have rows; files found by a folder or pattern with no rows (e.g. a shard of
//! a dataset whose slice was empty) are skipped, unless nothing else is left.

use std::path::{Path, PathBuf};

use super::SummaryError;
use crate::folder_walk::{self, InputError, Kind};

/// Does `name` match the one-component pattern `pat` (`*` any run, `?` one character)?
fn matches(pat: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pat.chars().collect(), name.chars().collect());
    // Iterative wildcard matching with one backtrack point.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

fn is_hidden(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
}

/// Every `*.parquet` under `dir`, recursively (the shared walker: folder links are not
/// followed, hidden entries skipped); one that is not a regular file is refused.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), SummaryError> {
    let found = folder_walk::walk(dir, false).map_err(SummaryError::NotRegular)?;
    for f in found {
        if f.path.extension().is_none_or(|e| e != "parquet") {
            continue;
        }
        match f.kind {
            Kind::File => out.push(f.path),
            Kind::FolderLink => {}
            Kind::Other(kind) => {
                return Err(SummaryError::NotRegular(InputError::NotRegular {
                    path: f.path,
                    kind,
                }))
            }
        }
    }
    Ok(())
}

/// Paths matching the components `pat` below `base`.
fn glob(base: &Path, pat: &[&str], out: &mut Vec<PathBuf>) {
    let Some((first, rest)) = pat.split_first() else {
        // Whatever the pattern matches that is not a folder is an input: a FIFO or a device is
        // then refused when opened, as a folder's walk refuses it (one rule for both).
        if std::fs::metadata(base).is_ok_and(|m| !m.is_dir()) {
            out.push(base.to_path_buf());
        }
        return;
    };
    if *first == "**" {
        glob(base, rest, out);
        if let Ok(rd) = std::fs::read_dir(base) {
            let mut dirs: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| folder_walk::is_real_dir(p) && !is_hidden(p))
                .collect();
            dirs.sort();
            for d in dirs {
                glob(&d, pat, out);
            }
        }
        return;
    }
    if !first.contains(['*', '?']) {
        glob(&base.join(first), rest, out);
        return;
    }
    let Ok(rd) = std::fs::read_dir(base) else {
        return;
    };
    let mut hits: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            !is_hidden(p)
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| matches(first, n))
        })
        .collect();
    hits.sort();
    for h in hits {
        glob(&h, rest, out);
    }
}

/// Is this a readable Parquet file with zero rows?
fn no_rows(p: &Path) -> bool {
    folder_walk::open_regular(p)
        .ok()
        .and_then(|f| {
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f).ok()
        })
        .is_some_and(|b| b.metadata().file_metadata().num_rows() == 0)
}

/// Drop the files without rows found from `before` on, unless that would leave none.
fn skip_empty(files: &mut Vec<PathBuf>, before: usize) {
    let found: Vec<PathBuf> = files.drain(before..).collect();
    let kept: Vec<PathBuf> = found.iter().filter(|p| !no_rows(p)).cloned().collect();
    files.extend(if kept.is_empty() { found } else { kept });
}

/// Resolve the inputs in order; each must yield at least one file. Duplicates are dropped.
/// A path need not be UTF-8 (patterns are matched on its text).
pub fn resolve<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Result<Vec<PathBuf>, SummaryError> {
    let mut files = Vec::new();
    for a in args {
        let p = Path::new(a.as_ref());
        let a = &p.to_string_lossy().into_owned();
        let shown = crate::printable::path(p);
        let before = files.len();
        if p.is_dir() {
            walk(p, &mut files)?;
            if files.len() == before {
                return Err(SummaryError::EmptyFolder(shown));
            }
            skip_empty(&mut files, before);
            continue;
        }
        if p.exists() {
            files.push(p.to_path_buf());
            continue;
        }
        if a.contains(['*', '?']) {
            let (base, pat) = if let Some(rest) = a.strip_prefix('/') {
                (PathBuf::from("/"), rest)
            } else {
                (PathBuf::from("."), a.as_str())
            };
            let comps: Vec<&str> = pat.split('/').filter(|c| !c.is_empty()).collect();
            let mut hits = Vec::new();
            glob(&base, &comps, &mut hits);
            // Report paths as the user wrote them (no leading "./").
            files.extend(hits.into_iter().map(|h| match h.strip_prefix(".") {
                Ok(s) if !a.starts_with("./") => s.to_path_buf(),
                _ => h,
            }));
            skip_empty(&mut files, before);
        }
        if files.len() == before {
            return Err(SummaryError::NotFound(shown));
        }
    }
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.canonicalize().unwrap_or_else(|_| f.clone())));
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(matches("*.parquet", "a.parquet"));
        assert!(matches(
            "part-*-of-*.parquet",
            "part-00001-of-00004.parquet"
        ));
        assert!(matches("a?c", "abc"));
        assert!(!matches("a?c", "abbc"));
        assert!(!matches("*.parquet", "a.parquet.tmp"));
        assert!(matches("*", ""));
        assert!(matches("algo=*", "algo=wilson"));
    }
}
