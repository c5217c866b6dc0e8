//! Datasets: many shard files that read back as one table.
//!
//! A dataset folder is hive-partitioned:
//! `DIR/algo=NAME/size=WxH/part-KKKKK-of-NNNNN.parquet` (and `.arrow` for maze stores), one file
//! per (generator, size, shard); a run on a hex, triangle or polar grid puts its partitions
//! under `DIR/grid=G/` ([`crate::run::layout`]), K 1-based as in `--shard K/N`. DuckDB reads the whole set with
//! `read_parquet('DIR/**/*.parquet', hive_partitioning = true)`. Every part file records in its
//! metadata the shard, the run parameters and its index range, so [`check`] can prove a folder
//! complete and consistent (every shard of every (algo, size) present once, same parameters and
//! seeding scheme everywhere, index ranges disjoint and covering) and name what is missing.
//!
//! An empty shard (N larger than the count) still writes a valid file with zero rows, so
//! `check` sees every shard of a finished run.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use parquet::file::metadata::ParquetMetaDataReader;
use parquet::file::statistics::Statistics;

use crate::folder_walk;
pub use crate::run::layout::{
    is_folder_target, parse_part_name, part_file_name, part_path, partition_dir,
};
use crate::shard::Shard;

pub use crate::meta_keys as keys;

/// Parameters that must be equal in every file of one partition.
const PARTITION_PARAMS: [&str; 9] = [
    keys::VERSION,
    keys::SEEDING_SCHEME,
    keys::RNG,
    keys::SEED,
    keys::COUNT,
    keys::ENDS,
    keys::ACCEPT,
    keys::BRAID,
    keys::MASK,
];
/// Parameters that must be equal across the whole dataset.
const DATASET_PARAMS: [&str; 4] = [keys::VERSION, keys::SEEDING_SCHEME, keys::RNG, keys::SEED];

/// Failure of a dataset operation that is not a finding about the data.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// The folder to check does not exist or is not a folder.
    #[error("'{0}' is not a folder")]
    NotAFolder(PathBuf),
    /// The folder holds parts made on different grids (square, hex, triangle, polar): their
    /// mazes are different things, never one dataset.
    #[error("{0}")]
    MixedGrids(String),
    /// Listing the folder failed.
    #[error("reading '{path}': {source}")]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

/// What one metrics part file says about itself (from its footer only: no row is read).
#[derive(Clone, Debug)]
struct PartInfo {
    path: PathBuf,
    rel: String,
    meta: HashMap<String, String>,
    rows: u64,
    /// Min and max of the `index` column over all row groups, from the footer statistics.
    index_min_max: Option<(u64, u64)>,
}

/// A footer's key-value metadata, row count, and min/max of the `index` column.
type Footer = (HashMap<String, String>, u64, Option<(u64, u64)>);

/// A Parquet footer's key-value metadata as a map (a key stored without a value maps to "").
pub fn key_values(fm: &parquet::file::metadata::FileMetaData) -> HashMap<String, String> {
    fm.key_value_metadata()
        .map(|kv| {
            kv.iter()
                .map(|k| (k.key.clone(), k.value.clone().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default()
}

fn read_part(path: &Path) -> Result<Footer, String> {
    let file = folder_walk::open_regular(path).map_err(|e| e.to_string())?;
    let md = ParquetMetaDataReader::new()
        .parse_and_finish(&file)
        .map_err(|e| format!("not a readable Parquet file: {e}"))?;
    let fm = md.file_metadata();
    let meta = key_values(fm);
    let rows = fm.num_rows().max(0) as u64;
    let col = fm
        .schema_descr()
        .columns()
        .iter()
        .position(|c| c.name() == "index");
    let mut mm: Option<(u64, u64)> = None;
    if let Some(c) = col {
        for rg in md.row_groups() {
            if rg.num_rows() == 0 {
                continue;
            }
            match rg.column(c).statistics() {
                Some(Statistics::Int64(s)) => match (s.min_opt(), s.max_opt()) {
                    (Some(&lo), Some(&hi)) => {
                        let (lo, hi) = (lo as u64, hi as u64);
                        mm = Some(mm.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
                    }
                    _ => return Err("the index column has no min/max statistics".into()),
                },
                _ => return Err("the index column has no min/max statistics".into()),
            }
        }
    }
    Ok((meta, rows, mm))
}

/// The outcome of [`check`]: problems (the dataset is incomplete or inconsistent), notes
/// (harmless), the shards to re-run, and totals.
#[derive(Debug, Default)]
pub struct Report {
    /// Each problem, one line, naming the file or partition.
    pub problems: Vec<String>,
    /// Harmless observations (leftover temporary files of interrupted runs, …).
    pub notes: Vec<String>,
    /// Commands that re-make exactly the missing or broken shards.
    pub rerun: Vec<String>,
    /// Partitions (algo, size) seen.
    pub partitions: usize,
    /// Part files that passed.
    pub files: usize,
    /// Rows in all part files.
    pub rows: u64,
}

impl Report {
    /// True when nothing is wrong.
    pub fn is_complete(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The recorded command line with its shard flags replaced by `--shard K/N` and its `--algo`
/// narrowed to the one generator; none when the recorded line leaves a quote open.
fn rerun_command(recorded: &str, algo: &str, missing: &[Shard]) -> Vec<String> {
    let Some(words) = crate::shell::split(recorded) else {
        return Vec::new();
    };
    let mut base: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if i == 0 {
            base.push("batchgen".into());
        } else if w == "--shard" || w == "--shard-count" || w == "--algo" {
            i += 1;
        } else if w.starts_with("--shard=")
            || w.starts_with("--shard-count=")
            || w.starts_with("--algo=")
        {
        } else {
            base.push(crate::shell::quote(w));
        }
        i += 1;
    }
    missing
        .iter()
        .map(|s| {
            let mut c = base.clone();
            c.push("--algo".into());
            c.push(crate::shell::quote(algo));
            c.push("--shard".into());
            c.push(s.to_string());
            c.join(" ")
        })
        .collect()
}

/// Check a dataset folder's metrics files; see the module docs for what is verified.
pub fn check(dir: &Path) -> Result<Report, DatasetError> {
    if !dir.is_dir() {
        return Err(DatasetError::NotAFolder(dir.to_path_buf()));
    }
    let mut rep = Report::default();
    let (parts, stores) = collect_files(dir, &mut rep)?;
    check_one_grid(dir, &parts)?;
    let (by_partition, expected) = group_by_partition(dir, &parts, &mut rep);
    check_dataset_params(&parts, &mut rep);
    report_missing_partitions(&expected, &by_partition, &mut rep);
    rep.partitions = by_partition.len();
    for ((algo, size), files) in &by_partition {
        check_partition(algo, size, files, &parts, &mut rep);
    }
    check_stores(&stores, &store_params(&by_partition), &mut rep);
    if parts.is_empty() && stores.is_empty() && rep.problems.is_empty() {
        rep.problems.push(format!(
            "no part files found under '{}' (expected algo=NAME/size=WxH/part-KKKKK-of-NNNNN.parquet)",
            dir.display()
        ));
    }
    Ok(rep)
}

/// Every part of a dataset is on one grid ([`keys::GRID`]; a part without it is square).
fn check_one_grid(dir: &Path, parts: &[PartInfo]) -> Result<(), DatasetError> {
    let mut grids: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for p in parts {
        let g = p.meta.get(keys::GRID).map_or("square", String::as_str);
        grids.entry(g).or_default().push(p.rel.as_str());
    }
    if grids.len() < 2 {
        return Ok(());
    }
    let listed: Vec<String> = grids
        .iter()
        .map(|(g, files)| format!("{g} ({}: {})", files.len(), files[0]))
        .collect();
    Err(DatasetError::MixedGrids(format!(
        "'{}' mixes parts made on different grids: {}; a dataset holds one grid (write each \
         grid's runs to its own folder)",
        dir.display(),
        listed.join(", ")
    )))
}

/// A partition: (algo, size).
type Key = (String, String);
/// The part files of each partition with the shard each says it is.
type Partitions<'a> = BTreeMap<Key, Vec<(Shard, &'a PartInfo)>>;
/// A maze store found in the folder: its path, and its path relative to the folder.
type StorePart = (PathBuf, String);

/// The metrics part files under `dir` (footers read) and the maze stores; what is neither is
/// noted or reported in `rep`.
fn collect_files(
    dir: &Path,
    rep: &mut Report,
) -> Result<(Vec<PartInfo>, Vec<StorePart>), DatasetError> {
    let mut parts: Vec<PartInfo> = Vec::new();
    let mut stores: Vec<(PathBuf, String)> = Vec::new();
    let found = folder_walk::walk(dir, true).map_err(|e| match e {
        folder_walk::InputError::Io { path, source } => DatasetError::Io { path, source },
        other => DatasetError::Io {
            path: dir.to_path_buf(),
            source: other.into(),
        },
    })?;
    for f in found {
        let (path, rel) = (f.path, f.rel.to_string_lossy().into_owned());
        match f.kind {
            folder_walk::Kind::File => {}
            folder_walk::Kind::FolderLink => {
                rep.notes
                    .push(format!("{rel}: a symbolic link to a folder, not followed"));
                continue;
            }
            folder_walk::Kind::Other(kind) => {
                rep.problems
                    .push(format!("{rel}: is {kind}, not a regular file"));
                continue;
            }
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with('.') && name.contains(".tmp-") {
            rep.notes.push(format!(
                "{rel}: leftover temporary file of an interrupted run (safe to delete)"
            ));
            continue;
        }
        if name.ends_with(&format!(".{}", crate::store::EXTENSION)) {
            stores.push((path, rel));
            continue;
        }
        if !name.ends_with(".parquet") {
            rep.notes
                .push(format!("{rel}: not a dataset file, ignored"));
            continue;
        }
        match read_part(&path) {
            Err(why) => rep.problems.push(format!("{rel}: {why}")),
            Ok((meta, rows, mm)) => {
                if !meta.contains_key(keys::VERSION) {
                    rep.problems.push(format!(
                        "{rel}: not written by batchgen (no batchgen metadata), yet \
                         DuckDB's '**/*.parquet' would read it as part of the dataset"
                    ));
                    continue;
                }
                parts.push(PartInfo {
                    path,
                    rel,
                    meta,
                    rows,
                    index_min_max: mm,
                })
            }
        }
    }
    Ok((parts, stores))
}

/// Group by partition as the files describe themselves; then hold the path to the layout.
/// Also the partitions the runs listed (their `batchgen.algos`).
fn group_by_partition<'a>(
    dir: &Path,
    parts: &'a [PartInfo],
    rep: &mut Report,
) -> (Partitions<'a>, BTreeSet<Key>) {
    let mut by_partition: BTreeMap<Key, Vec<(Shard, &PartInfo)>> = BTreeMap::new();
    let mut expected: BTreeSet<Key> = BTreeSet::new();
    for p in parts {
        let get = |k: &str| p.meta.get(k).cloned().unwrap_or_default();
        let algo = get(keys::ALGO);
        let size = get(keys::SIZE);
        let shard = match get(keys::SHARD).split_once('/') {
            Some((k, n)) => match (k.parse(), n.parse()) {
                (Ok(k), Ok(n)) => Shard::new(k, n).ok(),
                _ => None,
            },
            None => None,
        };
        let (Some(shard), false) = (shard, algo.is_empty() || size.is_empty()) else {
            rep.problems.push(format!(
                "{}: not a dataset part (its metadata lacks {}, {} or {}: a single-file output \
                 or a file from an older batchgen)",
                p.rel,
                keys::ALGO,
                keys::SIZE,
                keys::SHARD
            ));
            continue;
        };
        let grid = p
            .meta
            .get(keys::GRID)
            .and_then(|g| crate::topo::Grid::parse(g).ok())
            .and_then(crate::run::layout::grid_folder)
            .map_or(String::new(), |g| g + "/");
        let want = format!(
            "{grid}algo={algo}/size={size}/{}",
            part_file_name(shard, "parquet")
        );
        if p.rel != want {
            rep.problems.push(format!(
                "{}: holds {algo} {size} shard {shard}, which belongs at {want}{}",
                p.rel,
                if p.path.parent() == Some(&dir.join(format!("{grid}algo={algo}/size={size}")))
                    && parse_part_name(&p.rel[p.rel.rfind('/').map_or(0, |i| i + 1)..]).is_some()
                {
                    " (a copy of another shard: a duplicated shard)"
                } else {
                    ""
                }
            ));
        }
        for a in get(keys::ALGOS).split(',').filter(|a| !a.is_empty()) {
            expected.insert((a.to_string(), size.clone()));
        }
        by_partition
            .entry((algo, size))
            .or_default()
            .push((shard, p));
    }
    (by_partition, expected)
}

/// Across the dataset: one seed, scheme, RNG and version.
fn check_dataset_params(parts: &[PartInfo], rep: &mut Report) {
    for key in DATASET_PARAMS {
        let values: BTreeMap<String, Vec<&str>> = parts.iter().fold(BTreeMap::new(), |mut m, p| {
            m.entry(p.meta.get(key).cloned().unwrap_or_else(|| "(none)".into()))
                .or_insert_with(Vec::new)
                .push(p.rel.as_str());
            m
        });
        if values.len() > 1 {
            // Name the minority files.
            let mut v: Vec<_> = values.into_iter().collect();
            v.sort_by_key(|(_, f)| std::cmp::Reverse(f.len()));
            let (major, _) = &v[0];
            for (val, files) in &v[1..] {
                rep.problems.push(format!(
                    "{key} differs: {} file(s) have '{val}' where the rest have '{major}': {}",
                    files.len(),
                    files.join(", ")
                ));
            }
        }
    }
}

/// Partitions the runs listed but no file holds.
fn report_missing_partitions(
    expected: &BTreeSet<Key>,
    by_partition: &Partitions,
    rep: &mut Report,
) {
    for key in expected.difference(&by_partition.keys().cloned().collect()) {
        rep.problems.push(format!(
            "partition algo={}/size={} is missing entirely (the runs listed it in {})",
            key.0,
            key.1,
            keys::ALGOS
        ));
    }
}

/// One partition: one shard count, the same parameters in every file, every shard once, each
/// holding its slice; the shards to re-make go to `rep.rerun` as commands.
fn check_partition(
    algo: &str,
    size: &str,
    files: &[(Shard, &PartInfo)],
    parts: &[PartInfo],
    rep: &mut Report,
) {
    let label = format!("algo={algo}/size={size}");
    let mut bad = false;
    // One N per partition.
    let ns: BTreeSet<u32> = files.iter().map(|(s, _)| s.n).collect();
    if ns.len() > 1 {
        rep.problems.push(format!(
            "{label}: files from different shard counts N = {:?}: one run's parts cannot be \
             mixed with another's",
            ns
        ));
        return;
    }
    let n = *ns.iter().next().expect("a partition has a file");
    let odd = odd_files(&label, files, parts, rep, &mut bad);
    let reference = files
        .iter()
        .find(|(s, _)| !odd.contains(&s.k))
        .unwrap_or(&files[0])
        .1;
    let mut redo: BTreeSet<u32> = odd.clone();
    let count: Option<u64> = reference.meta.get(keys::COUNT).and_then(|c| c.parse().ok());
    let missing = missing_shards(&label, n, files, rep, &mut bad);
    let mut ranges = file_ranges(files, count, rep, &mut redo);
    check_coverage(&label, &mut ranges, count, &missing, rep, &mut bad);
    if !missing.is_empty() {
        rep.problems.push(format!(
            "{label}: missing {} of {n} shards: {}",
            missing.len(),
            missing
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut again: Vec<Shard> = missing;
    again.extend(redo.iter().map(|&k| Shard { k, n }));
    again.sort();
    again.dedup();
    if !again.is_empty() {
        let recorded = reference
            .meta
            .get(keys::COMMAND_LINE)
            .cloned()
            .unwrap_or_default();
        rep.rerun.extend(rerun_command(&recorded, algo, &again));
    }
    if !bad && again.is_empty() {
        rep.files += files.len();
        rep.rows += files.iter().map(|(_, p)| p.rows).sum::<u64>();
    }
}

/// Same parameters in every file of the partition: the files that differ from the majority
/// (re-run, with the command line of a file that agrees with it).
fn odd_files(
    label: &str,
    files: &[(Shard, &PartInfo)],
    parts: &[PartInfo],
    rep: &mut Report,
    bad: &mut bool,
) -> BTreeSet<u32> {
    let mut odd: BTreeSet<u32> = BTreeSet::new();
    for key in PARTITION_PARAMS {
        let mut tally: BTreeMap<Option<&String>, usize> = BTreeMap::new();
        for (_, p) in files {
            *tally.entry(p.meta.get(key)).or_default() += 1;
        }
        if tally.len() > 1 {
            *bad = true;
            // Ties go to the value most files of the whole dataset have.
            let everywhere =
                |v: Option<&String>| parts.iter().filter(|p| p.meta.get(key) == v).count();
            let major = tally
                .iter()
                .max_by_key(|(v, c)| (**c, everywhere(**v)))
                .map(|(v, _)| *v)
                .expect("two values");
            let show = files
                .iter()
                .map(|(s, p)| {
                    format!(
                        "part {} has '{}'",
                        s.k,
                        p.meta
                            .get(key)
                            .map_or("(none)".into(), |v| shown_value(key, v))
                    )
                })
                .collect::<Vec<_>>()
                .join(", ");
            rep.problems
                .push(format!("{label}: {key} differs between files: {show}"));
            for (s, p) in files {
                if p.meta.get(key) != major {
                    odd.insert(s.k);
                }
            }
        }
    }
    odd
}

/// A recorded parameter as a problem line shows it: a mask (its whole text) by its size, cell
/// count and hash; anything else as recorded.
fn shown_value(key: &str, v: &str) -> String {
    if key != keys::MASK {
        return v.to_string();
    }
    match crate::grid::Mask::from_text(v) {
        Ok(m) => format!(
            "a {} mask of {} cells, hash {:016x}",
            m.size(),
            m.cells(),
            m.hash()
        ),
        Err(e) => format!("a mask that does not parse ({e})"),
    }
}

/// Every shard of `n` once: the missing ones (duplicates are reported).
fn missing_shards(
    label: &str,
    n: u32,
    files: &[(Shard, &PartInfo)],
    rep: &mut Report,
    bad: &mut bool,
) -> Vec<Shard> {
    let mut seen: BTreeMap<u32, Vec<&PartInfo>> = BTreeMap::new();
    for (s, p) in files {
        seen.entry(s.k).or_default().push(p);
    }
    let mut missing: Vec<Shard> = Vec::new();
    for s in Shard::all(n) {
        match seen.get(&s.k).map(|v| v.len()) {
            None => missing.push(s),
            Some(1) => {}
            Some(c) => {
                *bad = true;
                rep.problems.push(format!(
                    "{label}: shard {s} is present {c} times (duplicated): {}",
                    seen[&s.k]
                        .iter()
                        .map(|p| p.rel.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    missing
}

/// Each file's recorded index range, checked against its shard's slice of `count` and its
/// rows; the shards of files that fail go to `redo`.
fn file_ranges<'a>(
    files: &[(Shard, &'a PartInfo)],
    count: Option<u64>,
    rep: &mut Report,
    redo: &mut BTreeSet<u32>,
) -> Vec<(u64, u64, &'a str)> {
    let mut ranges: Vec<(u64, u64, &str)> = Vec::new();
    for (s, p) in files {
        let num = |k: &str| p.meta.get(k).and_then(|v| v.parse::<u64>().ok());
        let (Some(start), Some(end)) = (num(keys::INDEX_START), num(keys::INDEX_END)) else {
            rep.problems
                .push(format!("{}: no index range in its metadata", p.rel));
            redo.insert(s.k);
            continue;
        };
        ranges.push((start, end, p.rel.as_str()));
        if let Some(c) = count {
            let want = s.range(c);
            if (start, end) != (want.start, want.end) {
                rep.problems.push(format!(
                    "{}: index range {start}..{end} is not shard {s}'s slice {}..{} of {c}",
                    p.rel, want.start, want.end
                ));
                redo.insert(s.k);
            }
        }
        let len = end.saturating_sub(start);
        let want_mm = (len > 0).then(|| (start, end - 1));
        if p.rows != len || p.index_min_max != want_mm {
            rep.problems.push(format!(
                "{}: holds {} rows with index {} but its range {start}..{end} needs {len}",
                p.rel,
                p.rows,
                p.index_min_max
                    .map_or("(none)".into(), |(a, b)| format!("{a}..={b}"))
            ));
            redo.insert(s.k);
        }
    }
    ranges
}

/// Together the ranges are disjoint and cover 0..count (gaps are reported when no shard is
/// missing, which would explain them).
fn check_coverage(
    label: &str,
    ranges: &mut [(u64, u64, &str)],
    count: Option<u64>,
    missing: &[Shard],
    rep: &mut Report,
    bad: &mut bool,
) {
    ranges.sort();
    for w in ranges.windows(2) {
        if w[1].0 < w[0].1 {
            *bad = true;
            rep.problems.push(format!(
                "{label}: index ranges overlap: {}..{} ({}) and {}..{} ({})",
                w[0].0, w[0].1, w[0].2, w[1].0, w[1].1, w[1].2
            ));
        }
    }
    if let Some(c) = count {
        let mut next = 0;
        let mut gaps = Vec::new();
        for (a, b, _) in ranges.iter() {
            if *a > next {
                gaps.push(format!("{next}..{a}"));
            }
            next = next.max(*b);
        }
        if next < c {
            gaps.push(format!("{next}..{c}"));
        }
        if !gaps.is_empty() && missing.is_empty() {
            rep.problems.push(format!(
                "{label}: indices {} of 0..{c} are in no file",
                gaps.join(", ")
            ));
        }
    }
}

/// Parameters of each Parquet partition (count, seed), for its maze stores.
fn store_params(by_partition: &Partitions) -> BTreeMap<Key, (Option<u64>, String)> {
    by_partition
        .iter()
        .map(|(key, files)| {
            let m = &files[0].1.meta;
            let count = m.get(keys::COUNT).and_then(|c| c.parse().ok());
            (
                key.clone(),
                (count, m.get(keys::SEED).cloned().unwrap_or_default()),
            )
        })
        .collect()
}
/// Maze stores (`.arrow` parts of `--mazes DIR/`): each in its place, one generator of the
/// folder's size, every shard once, each holding exactly its slice (first and last record's
/// index and the record count; the writer writes consecutive indices), with the seed of the
/// partition's Parquet files when they are there.
fn check_stores(
    stores: &[(PathBuf, String)],
    params: &BTreeMap<(String, String), (Option<u64>, String)>,
    rep: &mut Report,
) {
    type Seen = BTreeMap<(String, String), BTreeMap<u32, (u32, u64, u64)>>;
    let mut seen: Seen = BTreeMap::new();
    for (path, rel) in stores {
        // A store of another grid lies under `grid=G/`, checked against the store's grid below.
        let (folder, under) = match rel.split_once('/') {
            Some((g, rest)) if g.starts_with("grid=") => (Some(g), rest),
            _ => (None, rel.as_str()),
        };
        let mut comps = under.split('/');
        let (Some(a), Some(sz), Some(name), None) =
            (comps.next(), comps.next(), comps.next(), comps.next())
        else {
            rep.problems.push(format!(
                "{rel}: a maze store outside the algo=NAME/size=WxH/ layout"
            ));
            continue;
        };
        let (Some(algo), Some(size), Some((shard, crate::store::EXTENSION))) = (
            a.strip_prefix("algo="),
            sz.strip_prefix("size="),
            parse_part_name(name),
        ) else {
            rep.problems.push(format!(
                "{rel}: a maze store outside the algo=NAME/size=WxH/ layout"
            ));
            continue;
        };
        let st = match crate::store::StoreReader::open(path) {
            Ok(st) => st,
            Err(e) => {
                rep.problems.push(format!("{rel}: {e}"));
                continue;
            }
        };
        let mut why = Vec::new();
        let grid = st
            .grid()
            .map_or(crate::topo::Grid::Square, |g| g.size().grid);
        let want = crate::run::layout::grid_folder(grid);
        if folder != want.as_deref() {
            why.push(format!(
                "holds mazes on the {grid} grid, which belong {}",
                want.map_or("outside any grid=G/ folder".into(), |w| format!(
                    "under {w}/"
                ))
            ));
        }
        if st.algos() != [algo.to_string()] {
            why.push(format!("holds generators {:?}, not {algo}", st.algos()));
        }
        if st.size().to_string() != size {
            why.push(format!("holds {} mazes", st.size()));
        }
        if st.seeding_scheme != crate::rng::SEEDING_SCHEME {
            why.push(format!("seeding scheme {}", st.seeding_scheme));
        }
        let key = (algo.to_string(), size.to_string());
        if let Some((_, seed)) = params.get(&key) {
            if *seed != st.seed.to_string() {
                why.push(format!(
                    "seed {} where the Parquet parts have {seed}",
                    st.seed
                ));
            }
        }
        let ends = match st.len() {
            0 => None,
            n => match (st.record(0), st.record(n - 1)) {
                (Ok(a), Ok(b)) => Some((a.index, b.index)),
                _ => {
                    why.push("unreadable records".into());
                    None
                }
            },
        };
        if let Some((Some(count), _)) = params.get(&key) {
            let r = shard.range(*count);
            let want = (r.end > r.start).then(|| (r.start, r.end - 1));
            if st.len() != r.end - r.start || ends != want {
                why.push(format!(
                    "holds {} records (indices {}) where shard {shard} of {count} needs {}..{}",
                    st.len(),
                    ends.map_or("none".into(), |(a, b)| format!("{a}..={b}")),
                    r.start,
                    r.end
                ));
            }
        }
        if !why.is_empty() {
            rep.problems.push(format!("{rel}: {}", why.join("; ")));
        }
        let e = seen.entry(key).or_default();
        e.insert(shard.k, (shard.n, st.len(), ends.map_or(0, |x| x.0)));
    }
    for ((algo, size), ks) in &seen {
        let ns: BTreeSet<u32> = ks.values().map(|v| v.0).collect();
        if ns.len() > 1 {
            rep.problems.push(format!(
                "algo={algo}/size={size}: maze stores from different shard counts N = {ns:?}"
            ));
            continue;
        }
        let n = *ns.iter().next().expect("a store");
        let missing: Vec<String> = Shard::all(n)
            .filter(|s| !ks.contains_key(&s.k))
            .map(|s| s.to_string())
            .collect();
        if !missing.is_empty() {
            rep.problems.push(format!(
                "algo={algo}/size={size}: missing {} of {n} maze stores: {}",
                missing.len(),
                missing.join(", ")
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Size;

    #[test]
    fn part_names_round_trip() {
        let s = Shard { k: 3, n: 16 };
        assert_eq!(part_file_name(s, "parquet"), "part-00003-of-00016.parquet");
        assert_eq!(
            parse_part_name("part-00003-of-00016.parquet"),
            Some((s, "parquet"))
        );
        for bad in [
            "part-3-of-16.parquet",
            "part-00000-of-00016.parquet",
            "part-00017-of-00016.parquet",
            "part-00003-of-00016",
            "x-00003-of-00016.parquet",
        ] {
            assert_eq!(parse_part_name(bad), None, "{bad}");
        }
        assert_eq!(
            part_path(
                Path::new("d"),
                "wilson-straight:0.5",
                Size::planar(64, 32),
                s,
                "bgm"
            ),
            Path::new("d/algo=wilson-straight:0.5/size=64x32/part-00003-of-00016.bgm")
        );
    }

    #[test]
    fn folder_targets() {
        assert!(is_folder_target(Path::new("some/new/dir/")));
        assert!(!is_folder_target(Path::new("some/file.parquet")));
        let d = tempfile::tempdir().unwrap();
        assert!(is_folder_target(d.path()));
    }

    #[test]
    fn rerun_commands_replace_the_shard_and_algo() {
        let rec = "batchgen --algo all --size 8x8 --count 100 --shard 2/4 --out 'my dir/'";
        assert_eq!(
            rerun_command(rec, "wilson", &[Shard { k: 3, n: 4 }]),
            vec!["batchgen --size 8x8 --count 100 --out 'my dir/' --algo wilson --shard 3/4"]
        );
        let rec = "/usr/bin/batchgen --algo=kruskal --out d/";
        assert_eq!(
            rerun_command(rec, "kruskal", &[Shard { k: 1, n: 2 }]),
            vec!["batchgen --out d/ --algo kruskal --shard 1/2"]
        );
        let rec = "batchgen --out \"my dir/\" --accept 'a\\b' --size 8x8";
        assert_eq!(
            rerun_command(rec, "kruskal", &[Shard { k: 1, n: 2 }]),
            vec![r"batchgen --out 'my dir/' --accept 'a\b' --size 8x8 --algo kruskal --shard 1/2"]
        );
        assert!(rerun_command("batchgen --out 'd", "kruskal", &[Shard { k: 1, n: 2 }]).is_empty());
    }
}
