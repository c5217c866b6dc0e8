"""Read a batchgen maze store (see README, "Maze store format") with numpy.memmap.

Usage: python data/read_store.py STORE [RECORD ...]
Prints a JSON object: the header fields, and for each requested record (default: all) its
algo, index, maze_seed, the number of open walls, and the open walls of every cell as a string
of 'E'/'S' flags, so other tools (and batchgen's tests) can compare.
"""
import json
import sys

import numpy as np

HEADER = np.dtype(
    [
        ("magic", "S8"),
        ("format_version", "<u4"),
        ("header_bytes", "<u4"),
        ("width", "<u4"),
        ("height", "<u4"),
        ("count", "<u8"),
        ("record_bytes", "<u4"),
        ("seeding_scheme", "<u4"),
        ("seed", "<u8"),
        ("words_per_maze", "<u4"),
        ("algo_count", "<u4"),
        ("reserved", "<u8"),
    ]
)


def open_store(path):
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    h = raw[: HEADER.itemsize].view(HEADER)[0]
    if h["magic"] != b"BGMAZES" or h["format_version"] != 1:
        raise ValueError(f"{path}: not a batchgen maze store version 1")
    algos, at = [], HEADER.itemsize
    for _ in range(int(h["algo_count"])):
        n = int(raw[at]) | int(raw[at + 1]) << 8
        algos.append(bytes(raw[at + 2 : at + 2 + n]).decode())
        at += 2 + n
    words = int(h["words_per_maze"])
    record = np.dtype(
        [("maze_seed", "<u8"), ("index", "<u8"), ("algo", "<u4"), ("reserved", "<u4"), ("walls", "<u8", (words,))]
    )
    assert record.itemsize == h["record_bytes"]
    count = int(h["count"])
    start = int(h["header_bytes"])
    if raw.size < start + count * record.itemsize:
        raise ValueError(f"{path}: truncated")
    records = np.memmap(path, dtype=record, mode="r", offset=start, shape=(count,))
    return h, algos, records


def cell_walls(walls, cells):
    """Per cell: 'E' if the east wall is open, 'S' if the south wall is open, '-' otherwise."""
    bits = np.unpackbits(walls.view(np.uint8), bitorder="little")[: 2 * cells]
    east, south = bits[0::2], bits[1::2]
    return ["E" * int(e) + "S" * int(s) or "-" for e, s in zip(east, south)]


def main():
    path = sys.argv[1]
    h, algos, records = open_store(path)
    cells = int(h["width"]) * int(h["height"])
    wanted = [int(k) for k in sys.argv[2:]] or range(len(records))
    out = {
        "width": int(h["width"]),
        "height": int(h["height"]),
        "count": int(h["count"]),
        "seed": int(h["seed"]),
        "seeding_scheme": int(h["seeding_scheme"]),
        "algos": algos,
        "records": [],
    }
    for k in wanted:
        r = records[k]
        out["records"].append(
            {
                "record": k,
                "algo": algos[int(r["algo"])],
                "index": int(r["index"]),
                "maze_seed": int(r["maze_seed"]),
                "passages": int(np.unpackbits(r["walls"].view(np.uint8)).sum()),
                "cells": cell_walls(r["walls"], cells),
            }
        )
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
