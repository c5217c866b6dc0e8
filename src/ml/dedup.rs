//! Exact deduplication of any number of mazes in bounded memory, by external partitioning on
//! the canonical key. Every candidate is appended, as a record `(key, algo, index, canonical
//! wall words)`, to one of `P` partition files chosen by its key; two copies of a maze have one
//! key, so they meet in one partition. Each partition is then read alone, sorted by
//! `(key, algo, index)`, and within a run of equal keys every record is compared word for word
//! with the ones kept so far: equal walls are a duplicate (the first in run order is kept),
//! different walls under one key are a hash collision and both are kept. So the result is exact
//! whatever the hash does; the hash only decides who is compared with whom.
//!
//! Memory: one partition at a time, `records × (20 + 8·words)` bytes plus 24 bytes of sort key
//! per record, and `P` write buffers of [`WRITE_BUFFER`] bytes while partitioning.

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::rng::splitmix64;

/// Bytes of write buffer per partition file.
pub const WRITE_BUFFER: usize = 64 << 10;

/// A folder of partition files, removed (with its files) when dropped.
#[derive(Debug)]
pub struct Partitions {
    dir: PathBuf,
    files: Vec<BufWriter<File>>,
    words: usize,
    records: Vec<u64>,
}

/// The bytes of one record holding `words` wall words.
pub fn record_bytes(words: usize) -> usize {
    20 + 8 * words
}

/// One kept or dropped candidate, as [`Partitions::resolve`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Canonical key.
    pub key: u64,
    /// Position of the generator in the run.
    pub algo: u32,
    /// Maze index.
    pub index: u64,
}

/// What deduplication found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Candidates read.
    pub candidates: u64,
    /// Candidates dropped as copies of a kept one.
    pub duplicates: u64,
    /// Distinct mazes that share a key with another distinct maze (kept; found by comparison).
    pub collisions: u64,
    /// The largest partition, in records.
    pub max_partition_records: u64,
    /// The largest partition, in bytes (its file; its records in memory are this size).
    pub max_partition_bytes: u64,
}

impl Partitions {
    /// Create `n` empty partition files in a new folder `dir` (which must not exist), for
    /// records of `words` wall words each.
    pub fn create(dir: &Path, n: usize, words: usize) -> io::Result<Partitions> {
        fs::create_dir(dir)?;
        let mut p = Partitions {
            dir: dir.to_path_buf(),
            files: Vec::with_capacity(n),
            words,
            records: vec![0; n],
        };
        for i in 0..n {
            let f = File::create(p.path(i))?;
            p.files.push(BufWriter::with_capacity(WRITE_BUFFER, f));
        }
        Ok(p)
    }

    fn path(&self, i: usize) -> PathBuf {
        self.dir.join(format!("part-{i:05}.bin"))
    }

    /// The partition of a key.
    fn of(&self, key: u64) -> usize {
        (splitmix64(key) % self.files.len() as u64) as usize
    }

    /// Append one candidate.
    pub fn push(&mut self, key: u64, algo: u32, index: u64, words: &[u64]) -> io::Result<()> {
        debug_assert_eq!(words.len(), self.words);
        let i = self.of(key);
        let f = &mut self.files[i];
        f.write_all(&key.to_le_bytes())?;
        f.write_all(&algo.to_le_bytes())?;
        f.write_all(&index.to_le_bytes())?;
        for w in words {
            f.write_all(&w.to_le_bytes())?;
        }
        self.records[i] += 1;
        Ok(())
    }

    /// Deduplicate each partition in turn; `keep` is called for every kept candidate (in
    /// partition order, each partition's in `(key, algo, index)` order).
    pub fn resolve(mut self, mut keep: impl FnMut(Candidate)) -> io::Result<Stats> {
        for f in &mut self.files {
            f.flush()?;
        }
        self.files.clear();
        let rb = record_bytes(self.words);
        let mut stats = Stats::default();
        let mut buf = Vec::new();
        let mut order: Vec<(u64, u32, u64, u32)> = Vec::new();
        let mut kept: Vec<usize> = Vec::new();
        for i in 0..self.records.len() {
            buf.clear();
            File::open(self.path(i))?.read_to_end(&mut buf)?;
            fs::remove_file(self.path(i))?;
            let n = buf.len() / rb;
            stats.candidates += n as u64;
            stats.max_partition_records = stats.max_partition_records.max(n as u64);
            stats.max_partition_bytes = stats.max_partition_bytes.max(buf.len() as u64);
            let u64_at = |o: usize| u64::from_le_bytes(buf[o..o + 8].try_into().unwrap());
            let u32_at = |o: usize| u32::from_le_bytes(buf[o..o + 4].try_into().unwrap());
            order.clear();
            order.extend((0..n).map(|r| {
                let o = r * rb;
                (u64_at(o), u32_at(o + 8), u64_at(o + 12), r as u32)
            }));
            order.sort_unstable();
            let walls = |r: u32| &buf[r as usize * rb + 20..(r as usize + 1) * rb];
            let mut g = 0;
            while g < order.len() {
                let key = order[g].0;
                let mut e = g;
                while e < order.len() && order[e].0 == key {
                    e += 1;
                }
                kept.clear();
                for (j, &(_, algo, index, r)) in order[g..e].iter().enumerate() {
                    if kept.iter().any(|&k| walls(order[g + k].3) == walls(r)) {
                        stats.duplicates += 1;
                    } else {
                        kept.push(j);
                        keep(Candidate { key, algo, index });
                    }
                }
                if kept.len() > 1 {
                    stats.collisions += kept.len() as u64;
                }
                g = e;
            }
        }
        Ok(stats)
    }
}

impl Drop for Partitions {
    fn drop(&mut self) {
        self.files.clear();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Planted copies are dropped, planted collisions (one key, different walls) kept.
    #[test]
    fn copies_go_and_collisions_stay() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = Partitions::create(&dir.path().join("p"), 3, 2).unwrap();
        p.push(7, 0, 0, &[1, 2]).unwrap();
        p.push(7, 0, 1, &[1, 3]).unwrap(); // collision
        p.push(7, 1, 5, &[1, 2]).unwrap(); // copy of (0, 0)
        p.push(9, 0, 2, &[4, 4]).unwrap();
        p.push(7, 0, 3, &[1, 3]).unwrap(); // copy of (0, 1)
        let mut kept = Vec::new();
        let s = p.resolve(|c| kept.push((c.algo, c.index))).unwrap();
        kept.sort();
        assert_eq!(kept, [(0, 0), (0, 1), (0, 2)]);
        assert_eq!((s.candidates, s.duplicates, s.collisions), (5, 2, 2));
        assert!(!dir.path().join("p").exists());
    }
}
