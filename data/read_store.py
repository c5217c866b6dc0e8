"""Read a batchgen maze store (an Arrow IPC file, `--mazes FILE.arrow`) with pyarrow, and query
it with DuckDB: no batchgen code needed, the file describes itself.

Usage: python data/read_store.py STORE [RECORD ...]

Prints, one line each (batchgen's tests compare them with the Rust reader):
  meta KEY VALUE            the file's batchgen metadata (format, version, seeding scheme, size)
  record K ALGO WIDTH HEIGHT DEPTH SEED INDEX MAZE_SEED MAZE_HASH ENTRANCE EXIT W0,W1,...
                            each requested record (default: all), walls as decimal u64 words
  duckdb ALGO COUNT         rows per generator, counted by DuckDB on the same table

Wall words: bit 2*id = east wall of cell id = y*width + x, bit 2*id+1 = its south wall; a set bit
is an open wall (a passage).
"""
import sys

import duckdb
import pyarrow as pa


def main():
    path = sys.argv[1]
    # Memory-mapped: the columns are views of the file, nothing is copied.
    mazes = pa.ipc.open_file(pa.memory_map(path)).read_all()
    for key, value in sorted(mazes.schema.metadata.items()):
        print("meta", key.decode(), value.decode())
    # All walls as one (rows x words) numpy array, again without copying.
    walls = mazes["walls"].combine_chunks().flatten().to_numpy().reshape(mazes.num_rows, -1)
    wanted = [int(k) for k in sys.argv[2:]] or range(mazes.num_rows)
    for k in wanted:
        row = mazes.slice(k, 1).to_pylist()[0]
        assert row["walls"] == walls[k].tolist()
        ids = [row[c] for c in ("algo", "width", "height", "depth", "seed", "index",
                                "maze_seed", "maze_hash", "entrance", "exit")]
        print("record", k, *ids, ",".join(str(w) for w in row["walls"]))
    # DuckDB reads the Arrow table in place (the Python variable is the table name).
    counts = duckdb.sql("SELECT algo::VARCHAR, count(*) FROM mazes GROUP BY ALL ORDER BY 1")
    for algo, n in counts.fetchall():
        print("duckdb", algo, n)


if __name__ == "__main__":
    main()
