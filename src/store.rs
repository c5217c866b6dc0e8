//! The maze store: accepted mazes in a flat binary file that any language can memory-map and
//! index by record number.
//!
//! Layout, every integer little-endian (format version 1):
//!
//! ```text
//! header (fixed part, 64 bytes)
//!   0   8  magic            "BGMAZES\0"
//!   8   4  format_version   1
//!  12   4  header_bytes     offset of record 0 (a multiple of 64)
//!  16   4  width
//!  20   4  height
//!  24   8  count            number of records
//!  32   4  record_bytes     24 + 8 * words_per_maze
//!  36   4  seeding_scheme   batchgen's seeding scheme (rng::SEEDING_SCHEME)
//!  40   8  seed             master seed of the run
//!  48   4  words_per_maze   ceil(2 * width * height / 64)
//!  52   4  algo_count
//!  56   8  reserved (0)
//! algo table, from byte 64: algo_count entries of (u16 length, UTF-8 canonical name),
//!   zero-padded up to header_bytes
//! record k, at header_bytes + k * record_bytes
//!   0   8  maze_seed
//!   8   8  index            maze index within (algo, size, seed)
//!  16   4  algo             position in the algo table
//!  20   4  reserved (0)
//!  24   8 * words_per_maze  wall bits: bit 2*id = east wall of cell id open,
//!                           bit 2*id+1 = south wall open (id = y*width + x)
//! ```
//!
//! The writer goes through an [`AtomicFile`] (a temporary file committed by
//! [`crate::atomic_file::commit_all`], together with the run's Parquet file; the record count is
//! written last), so a reader never sees a half-written store. The reader maps the file with
//! memmap2 and hands out record fields and wall words without copying; it checks every size in
//! the header against the file length before using it, refuses foreign and truncated files,
//! and [`StoreReader::maze`] refuses a record that is not a perfect maze, naming it.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::atomic_file::{AtomicFile, OutputError, Prepared};
use crate::grid::Maze;

/// File magic.
pub const MAGIC: [u8; 8] = *b"BGMAZES\0";
/// Format version written and understood.
pub const FORMAT_VERSION: u32 = 1;
/// Size of the fixed header part.
pub const FIXED_HEADER: usize = 64;
/// Bytes of a record before its wall words.
pub const RECORD_PREFIX: usize = 24;

/// Failure reading or writing a maze store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// I/O on `path` failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// The target was refused, or creating, syncing or renaming the file failed.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The file is not a store this version can read.
    #[error("{path}: not a batchgen maze store: {why}")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What did not match.
        why: String,
    },
    /// The file is shorter than its header says.
    #[error("{path}: truncated: the header promises {expected} bytes ({count} records) but the file has {actual}")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Bytes the header implies.
        expected: u64,
        /// Records the header claims.
        count: u64,
        /// Bytes present.
        actual: u64,
    },
    /// A record number past the end.
    #[error("record {record} does not exist: the store has {count} records (0..{count})")]
    NoSuchRecord {
        /// Asked for.
        record: u64,
        /// Records present.
        count: u64,
    },
    /// A record's wall bits are not a valid maze of the store's size.
    #[error("record {0} holds invalid wall bits")]
    BadRecord(u64),
    /// A record's wall bits are a valid grid but not a perfect maze (a loop, or cells cut off).
    #[error("record {record} is not a perfect maze ({passages} passages for {cells} cells, expected {expected} and every cell connected): the store is corrupt")]
    NotPerfect {
        /// The record number.
        record: u64,
        /// Open walls found.
        passages: u64,
        /// Cells of the grid.
        cells: u64,
        /// Passages of a perfect maze (`cells - 1`).
        expected: u64,
    },
}

fn words_per_maze(width: u32, height: u32) -> usize {
    crate::grid::Size::planar(width, height).words_per_maze()
}

/// Writes a store; records are appended as mazes are accepted.
#[derive(Debug)]
pub struct StoreWriter {
    out: BufWriter<AtomicFile>,
    final_path: PathBuf,
    words: usize,
    count: u64,
}

impl StoreWriter {
    /// Start a store for `width × height` mazes of the given algorithms (canonical names; a
    /// record refers to one by position).
    pub fn create(
        path: &Path,
        width: u32,
        height: u32,
        seed: u64,
        algos: &[String],
    ) -> Result<StoreWriter, StoreError> {
        let io_err = |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = AtomicFile::create(path)?;
        let words = words_per_maze(width, height);
        let mut table = Vec::new();
        for a in algos {
            table.extend_from_slice(&(a.len() as u16).to_le_bytes());
            table.extend_from_slice(a.as_bytes());
        }
        let header_bytes = (FIXED_HEADER + table.len()).div_ceil(64) * 64;
        let mut h = Vec::with_capacity(header_bytes);
        h.extend_from_slice(&MAGIC);
        h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        h.extend_from_slice(&(header_bytes as u32).to_le_bytes());
        h.extend_from_slice(&width.to_le_bytes());
        h.extend_from_slice(&height.to_le_bytes());
        h.extend_from_slice(&0u64.to_le_bytes());
        h.extend_from_slice(&((RECORD_PREFIX + 8 * words) as u32).to_le_bytes());
        h.extend_from_slice(&crate::rng::SEEDING_SCHEME.to_le_bytes());
        h.extend_from_slice(&seed.to_le_bytes());
        h.extend_from_slice(&(words as u32).to_le_bytes());
        h.extend_from_slice(&(algos.len() as u32).to_le_bytes());
        h.extend_from_slice(&0u64.to_le_bytes());
        debug_assert_eq!(h.len(), FIXED_HEADER);
        h.extend_from_slice(&table);
        h.resize(header_bytes, 0);
        // A failure below drops the AtomicFile, which removes the temporary file.
        let mut w = StoreWriter {
            out: BufWriter::with_capacity(1 << 20, file),
            final_path: path.to_path_buf(),
            words,
            count: 0,
        };
        w.out.write_all(&h).map_err(io_err)?;
        Ok(w)
    }

    /// Append one record. `walls` are the maze's [`Maze::words`].
    pub fn append(
        &mut self,
        algo: u32,
        index: u64,
        maze_seed: u64,
        walls: &[u64],
    ) -> Result<(), StoreError> {
        assert_eq!(walls.len(), self.words, "wall words of another size");
        let out = &mut self.out;
        let mut prefix = [0u8; RECORD_PREFIX];
        prefix[..8].copy_from_slice(&maze_seed.to_le_bytes());
        prefix[8..16].copy_from_slice(&index.to_le_bytes());
        prefix[16..20].copy_from_slice(&algo.to_le_bytes());
        let r = out.write_all(&prefix).and_then(|_| {
            if cfg!(target_endian = "little") {
                out.write_all(bytemuck::cast_slice(walls))
            } else {
                walls
                    .iter()
                    .try_for_each(|w| out.write_all(&w.to_le_bytes()))
            }
        });
        r.map_err(|source| StoreError::Io {
            path: self.final_path.clone(),
            source,
        })?;
        self.count += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Write the record count and sync: complete but not yet visible; commit it with
    /// [`crate::atomic_file::commit_all`] (together with the run's Parquet file).
    pub fn prepare(self) -> Result<Prepared, StoreError> {
        let io_err = |source| StoreError::Io {
            path: self.final_path.clone(),
            source,
        };
        // On any error below the AtomicFile is dropped, which removes the temporary file.
        let mut file = self.out.into_inner().map_err(|e| io_err(e.into_error()))?;
        file.seek(SeekFrom::Start(24)).map_err(io_err)?;
        file.write_all(&self.count.to_le_bytes()).map_err(io_err)?;
        Ok(file.prepare()?)
    }

    /// Write the record count, sync, rename into place; returns the file size in bytes.
    pub fn finish(self) -> Result<u64, StoreError> {
        Ok(self.prepare()?.commit()?)
    }
}

/// One record, borrowed from the mapped file.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    /// Canonical generator name.
    pub algo: &'a str,
    /// Maze index within (algo, size, seed).
    pub index: u64,
    /// The per-maze seed.
    pub maze_seed: u64,
    /// The wall words, zero-copy.
    pub walls: &'a [u64],
}

/// The bytes of an opened store: a read-only map of a file, or bytes handed over in memory.
#[derive(Debug)]
enum Backing {
    Map(Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Backing {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Backing::Map(m) => m,
            Backing::Owned(v) => v,
        }
    }
}

/// A store opened for reading (memory-mapped, or from bytes in memory).
#[derive(Debug)]
pub struct StoreReader {
    map: Backing,
    path: PathBuf,
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
    /// Master seed of the run.
    pub seed: u64,
    /// Seeding scheme the records were made with.
    pub seeding_scheme: u32,
    count: u64,
    header_bytes: usize,
    record_bytes: usize,
    words: usize,
    algos: Vec<String>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl StoreReader {
    /// Map and validate a store file.
    pub fn open(path: &Path) -> Result<StoreReader, StoreError> {
        let io_err = |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io_err)?;
        // SAFETY: the map is read-only and private to this reader; batchgen never modifies a
        // finished store (writers go through a temporary file and rename), and every access
        // below is bounds-checked against the length validated here.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
        Self::validate(Backing::Map(map), path)
    }

    /// Validate a store held in memory (`name` is used in error messages only). Never panics
    /// and never allocates more than the bytes given justify, whatever they hold: this is what
    /// the `store_reader` fuzz target drives.
    pub fn from_bytes(bytes: Vec<u8>, name: &Path) -> Result<StoreReader, StoreError> {
        Self::validate(Backing::Owned(bytes), name)
    }

    fn validate(map: Backing, path: &Path) -> Result<StoreReader, StoreError> {
        let foreign = |why: String| StoreError::Foreign {
            path: path.to_path_buf(),
            why,
        };
        let b = &map[..];
        if b.len() < FIXED_HEADER || b[..8] != MAGIC {
            return Err(foreign("bad magic (expected \"BGMAZES\\0\")".into()));
        }
        let version = u32_at(b, 8);
        if version != FORMAT_VERSION {
            return Err(foreign(format!(
                "format version {version}, this batchgen reads version {FORMAT_VERSION}"
            )));
        }
        if cfg!(target_endian = "big") {
            return Err(foreign(
                "stores are little-endian; this machine is not".into(),
            ));
        }
        let header_bytes = u32_at(b, 12) as usize;
        let (width, height) = (u32_at(b, 16), u32_at(b, 20));
        let count = u64_at(b, 24);
        let record_bytes = u32_at(b, 32) as usize;
        let words = u32_at(b, 48) as usize;
        let algo_count = u32_at(b, 52) as usize;
        if width == 0
            || height == 0
            || width as u64 * height as u64 > crate::grid::MAX_CELLS
            || words != words_per_maze(width, height)
            || record_bytes != RECORD_PREFIX + 8 * words
            || !header_bytes.is_multiple_of(64)
            || header_bytes < FIXED_HEADER
        {
            return Err(foreign("inconsistent header fields".into()));
        }
        // Every size read from the header is checked against the file length before it is used
        // for anything (a lying `algo_count` or `count` must not make us allocate or index).
        let expected =
            (header_bytes as u64).saturating_add(count.saturating_mul(record_bytes as u64));
        if (b.len() as u64) < expected || b.len() < header_bytes {
            return Err(StoreError::Truncated {
                path: path.to_path_buf(),
                expected,
                count,
                actual: b.len() as u64,
            });
        }
        // Each table entry takes at least its 2-byte length inside the header.
        if algo_count > (header_bytes - FIXED_HEADER) / 2 {
            return Err(foreign(format!(
                "algo_count {algo_count} does not fit a {header_bytes}-byte header"
            )));
        }
        let mut algos = Vec::with_capacity(algo_count);
        let mut at = FIXED_HEADER;
        for _ in 0..algo_count {
            if at + 2 > header_bytes {
                return Err(foreign("algo table overruns the header".into()));
            }
            let len = u16::from_le_bytes([b[at], b[at + 1]]) as usize;
            let name = b
                .get(at + 2..at + 2 + len)
                .filter(|_| at + 2 + len <= header_bytes)
                .and_then(|s| std::str::from_utf8(s).ok())
                .ok_or_else(|| foreign("bad algo table".into()))?;
            algos.push(name.to_string());
            at += 2 + len;
        }
        Ok(StoreReader {
            seed: u64_at(b, 40),
            seeding_scheme: u32_at(b, 36),
            map,
            path: path.to_path_buf(),
            width,
            height,
            count,
            header_bytes,
            record_bytes,
            words,
            algos,
        })
    }

    /// Number of records.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// True when the store holds no records.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The algorithm names, in table order.
    pub fn algos(&self) -> &[String] {
        &self.algos
    }

    /// Record `k`, without copying.
    pub fn record(&self, k: u64) -> Result<Record<'_>, StoreError> {
        if k >= self.count {
            return Err(StoreError::NoSuchRecord {
                record: k,
                count: self.count,
            });
        }
        let at = self.header_bytes + k as usize * self.record_bytes;
        let r = &self.map[at..at + self.record_bytes];
        let algo = self
            .algos
            .get(u32_at(r, 16) as usize)
            .ok_or_else(|| StoreError::Foreign {
                path: self.path.clone(),
                why: format!("record {k} names algo #{} beyond the table", u32_at(r, 16)),
            })?;
        // Records start at multiples of 8 in a page-aligned map, so the words are aligned.
        let walls: &[u64] =
            bytemuck::try_cast_slice(&r[RECORD_PREFIX..]).map_err(|_| StoreError::BadRecord(k))?;
        debug_assert_eq!(walls.len(), self.words);
        Ok(Record {
            algo,
            index: u64_at(r, 8),
            maze_seed: u64_at(r, 0),
            walls,
        })
    }

    /// Record `k` as a maze (copies the walls). Checks that no border bit is set and that the
    /// walls form a perfect maze: a corrupt record is an error naming it, never a panic later.
    pub fn maze(&self, k: u64) -> Result<Maze, StoreError> {
        let r = self.record(k)?;
        let m =
            Maze::from_words(self.width, self.height, r.walls).ok_or(StoreError::BadRecord(k))?;
        if !m.is_perfect() {
            let cells = m.cells() as u64;
            return Err(StoreError::NotPerfect {
                record: k,
                passages: m.passages(),
                cells,
                expected: cells - 1,
            });
        }
        Ok(m)
    }
}
