"""batchgen: perfect mazes by the million, each one measured, for notebooks and datasets.

>>> import batchgen, pyarrow.compute
>>> t = batchgen.generate("wilson", "32x32", 1000, seed=42)   # a pyarrow.Table
>>> picked = t.filter(pyarrow.compute.greater(t["solution_length"], 150))
>>> level = next(batchgen.levels(picked))                      # the same maze again
>>> level.connection_list.shape                                # maze-dataset's layout
(2, 32, 32)

``generate`` returns the metrics table of a run: exactly the columns, types, values and
key-value metadata of the CLI's Parquet file for the same arguments
(``batchgen --algo wilson --size 32x32 --count 1000 --seed 42 --out mazes.parquet``). It
crosses from Rust through the Arrow PyCapsule interface without a copy; with pyarrow
installed it is a ``pyarrow.Table`` (``to_pandas()``, ``polars.from_arrow``, DuckDB's
``SELECT ... FROM t``), otherwise a :class:`Table` that any Arrow PyCapsule consumer reads.

Masks and braid are the CLI's ``--mask`` and ``--braid``: ``generate("wilson", None, 100,
mask="level.txt")`` fills a shape (the mask sets the size), ``generate("wilson", "32x32", 100,
braid=0.5)`` opens loops; the rows carry ``mask_hash``, ``cells``, ``braid``, ``loops`` and
``solution_count``, and :func:`levels` regenerates them with the table's mask and braid.
"""

from __future__ import annotations

import re
from os import PathLike
from typing import Any, Iterator, Optional, Sequence, Tuple, Union

from . import _batchgen
from ._batchgen import ALGORITHMS, SEEDING_SCHEME, Level, Table, __version__

__all__ = [
    "ALGORITHMS",
    "SEEDING_SCHEME",
    "Level",
    "Table",
    "generate",
    "level_from_json",
    "levels",
    "read_store",
    "__version__",
]

Size = Union[str, Tuple[int, int], Tuple[int, int, int]]
Cell = Union[str, Tuple[int, int], Tuple[int, int, int]]
MaskArg = Union[str, bytes, "PathLike[str]"]


def _arrow(table: Table) -> Any:
    """A ``pyarrow.Table`` of ``table`` (zero-copy) when pyarrow is importable, else ``table``."""
    try:
        import pyarrow
    except ImportError:
        return table
    return pyarrow.table(table)


def generate(
    algo: Union[str, Sequence[str]],
    size: Optional[Size],
    count: Union[int, str],
    seed: int = 42,
    *,
    threads: Optional[int] = None,
    ends: Optional[str] = None,
    entrance: Optional[Cell] = None,
    exit: Optional[Cell] = None,
    accept: Optional[str] = None,
    max_candidates: Optional[int] = None,
    mask: Optional[MaskArg] = None,
    braid: Optional[float] = None,
    grid: Optional[str] = None,
    no_time_limit: bool = False,
) -> Any:
    """Generate and measure ``count`` mazes per generator; return their metrics table.

    The arguments are the CLI's flags: ``algo`` a generator name, a comma list or ``"all"``,
    or a list or tuple of those;
    ``size`` ``"WxH"`` / ``"WxHxD"`` or a tuple; ``threads`` worker threads (default one per
    core); ``ends`` ``"corners"`` or ``"diameter"``; ``entrance``/``exit`` cells ``"X,Y"`` or
    ``(x, y)``; ``accept`` a filter such as ``"dead_end_share <= 0.12 AND solution_length >=
    300"`` (``count`` then counts accepted mazes); ``max_candidates`` the candidate limit with
    a filter; ``mask`` a mask file's path, the mask's text (a ``str`` with line breaks, ``#`` a
    hole, any other character a cell) or a file's ``bytes`` (text or PNG): it sets the size
    (``size`` ``None`` or equal to it) and only generators that accept a mask run; ``braid``
    the chance from 0 to 1 of opening each dead end; ``grid`` ``"square"`` (the default),
    ``"hex"``, ``"triangle"`` or ``"polar"`` (then ``size`` may be the rings alone, and the
    table ends with a ``grid`` column); ``no_time_limit=True`` runs a random-walk
    generator (``aldous-broder``, ``wilson``) on a grid where its walk is expected to take
    hours, which is otherwise refused (the CLI's ``--no-time-limit``). A bad argument raises ``ValueError``
    naming the parameter (the CLI's rules) before any work; a filter that accepts too few
    mazes raises ``RuntimeError``.

    The GIL is released while the workers run, and Ctrl-C stops them and raises
    ``KeyboardInterrupt``. Returns a ``pyarrow.Table`` when pyarrow is installed, otherwise a
    :class:`Table` (Arrow PyCapsule interface). ``gen_ns`` is a timing and differs between
    runs; every other value equals the CLI's Parquet row for the same arguments.
    """
    return _arrow(
        _batchgen.generate(
            algo,
            size,
            count,
            seed,
            threads=threads,
            ends=ends,
            entrance=entrance,
            exit=exit,
            accept=accept,
            max_candidates=max_candidates,
            mask=mask,
            braid=braid,
            grid=grid,
            no_time_limit=no_time_limit,
        )
    )


def read_store(path: Any) -> Any:
    """Read the maze store at ``path`` (``--mazes FILE.arrow``) as an Arrow table.

    One row per maze (``algo``, ``index``, ``maze_seed``, ``maze_hash``, ``entrance``,
    ``exit`` and the packed ``walls``); the store's metadata is the schema's. The file is
    checked as ``batchgen check`` would (``ValueError`` if it is not a batchgen store) and read
    into memory. A ``pyarrow.Table`` when pyarrow is installed, else a :class:`Table`.
    """
    return _arrow(_batchgen.read_store(path))


_CELL = re.compile(r"entrance=(\d+(?:,\d+)*) exit=(\d+(?:,\d+)*)")
# A hex, triangle or polar run's rule: its default cells, or the cells as given (X,Y; RING,I).
_GRID_CELLS = re.compile(
    r"entrance=cell \d+ exit=cell \d+ \((?:the first and last cell|on the \w+ grid; "
    r"entrance (\S+) exit (\S+) as)"
)


def _ends_of(rule: str) -> dict:
    """The ``Level`` keyword arguments that reproduce a file's ``batchgen.ends`` rule."""
    if rule.startswith("diameter"):
        return {"ends": "diameter"}
    g = _GRID_CELLS.match(rule)
    if g:
        given = {"entrance": g.group(1), "exit": g.group(2)}
        return {k: v for k, v in given.items() if v not in (None, "default")}
    m = _CELL.match(rule)
    if not m:
        raise ValueError(f"cannot read the entrance/exit rule {rule!r}")
    return {"entrance": m.group(1), "exit": m.group(2)}


def _columns(data: Any, names: Sequence[str]) -> Tuple[dict, dict]:
    """The given columns of a table or data frame as Python lists, and its batchgen metadata."""
    if hasattr(data, "__arrow_c_stream__") or hasattr(data, "__arrow_c_array__"):
        try:
            import pyarrow
        except ImportError:
            pyarrow = None
        if pyarrow is not None:
            t = data if isinstance(data, pyarrow.Table) else pyarrow.table(data)
            meta = {
                k.decode(): v.decode()
                for k, v in (t.schema.metadata or {}).items()
                if k.startswith(b"batchgen.")
            }
            cols = {n: t.column(n).to_pylist() for n in names if n in t.column_names}
            return cols, meta
    if hasattr(data, "columns") and hasattr(data, "__getitem__"):  # a pandas data frame
        cols = {n: list(data[n]) for n in names if n in data.columns}
        attrs = getattr(data, "attrs", {}) or {}
        return cols, {k: v for k, v in attrs.items() if str(k).startswith("batchgen.")}
    raise TypeError(
        "levels() takes an Arrow table (pyarrow, polars, batchgen.Table, anything with "
        f"__arrow_c_stream__) or a pandas DataFrame, not {type(data).__name__}"
    )


def levels(
    data: Any,
    *,
    ends: Optional[str] = None,
    entrance: Optional[Cell] = None,
    exit: Optional[Cell] = None,
    mask: Optional[MaskArg] = None,
) -> Iterator[Level]:
    """Regenerate the maze of every row of a metrics table, in row order.

    ``data`` is a table from :func:`generate`, a Parquet file read with pyarrow, polars or
    DuckDB (``.arrow()``), or a pandas DataFrame; it needs the columns ``algo``, ``width``,
    ``height``, ``seed`` and ``index`` (``depth`` for 3D). Each level is measured between the
    ends the table was made with (its ``batchgen.ends`` metadata, or a maze store's recorded
    entrance and exit of each record), so its ``metrics`` equal the row. Where that is unknown
    (DuckDB, polars and pandas drop a file's metadata) pass ``ends`` or ``entrance``/``exit``:
    without them ``ValueError`` says so; the rule is never guessed. A masked table's levels
    are made on its mask (its ``batchgen.mask`` metadata; pass ``mask`` when the metadata is
    lost) and a braided row's with its ``braid`` column (a store's ``batchgen.braid``). Where
    the table has ``maze_seed``, each level is checked against it. The rows of a hex, triangle
    or polar run (its ``grid`` column) are levels on that grid, their ``entrance``/``exit``
    named as the CLI names them (``"X,Y"``; polar ``"RING,I"``). For maze-dataset, take
    coordinates from ``Level.solution_coords`` (int64): coordinates computed from the uint32
    ``solution`` stay unsigned, and maze-dataset's ``is_valid_path``, which subtracts them,
    then rejects correct paths.
    """
    names = [
        "algo", "width", "height", "depth", "seed", "index", "maze_seed", "braid", "mask_hash",
        "entrance", "exit", "grid",
    ]
    cols, meta = _columns(data, names)
    missing = [n for n in ("algo", "width", "height", "seed", "index") if n not in cols]
    if missing:
        raise ValueError(f"levels() needs the columns {', '.join(missing)}")
    # The ends rule changes each level's solution and metrics: given, the table's own (a
    # metrics table's batchgen.ends, a maze store's batchgen.ends_rule), or an error; never a
    # default. A store's records also keep their entrance and exit, checked below.
    if ends is not None or entrance is not None or exit is not None:
        how = {"ends": ends, "entrance": entrance, "exit": exit}
    elif "batchgen.ends" in meta:
        how = _ends_of(meta["batchgen.ends"])
    elif "batchgen.ends_rule" in meta:
        how = _ends_of(meta["batchgen.ends_rule"])
    else:
        raise ValueError(
            "levels() does not know the rows' ends rule: the table has no batchgen.ends "
            "metadata (DuckDB, polars and pandas drop a file's metadata). Pass it as the rows "
            "were made: ends='corners' (the default of a run), ends='diameter', or "
            "entrance=/exit=; a Parquet file's rule is "
            "pyarrow.parquet.read_metadata(path).metadata[b'batchgen.ends']"
        )
    if mask is None:
        mask = meta.get("batchgen.mask")
    if mask is not None:
        how["mask"] = mask
    n = len(cols["index"])
    depth = cols.get("depth", [1] * n)
    # A metrics table has a braid column; a maze store records its one chance as metadata.
    braid = cols.get("braid", [float(meta.get("batchgen.braid", 0.0))] * n)
    mask_hash = cols.get("mask_hash", [0] * n)
    # A hex, triangle or polar table's rows (polar: width = rings, height = the first ring's cells).
    grid = cols.get("grid", [meta.get("batchgen.grid", "square")] * n)
    for k in range(n):
        if mask_hash[k] and mask is None:
            raise ValueError(
                f"row {k} is on the mask with hash {mask_hash[k]} (its mask_hash) and the table "
                "has no batchgen.mask metadata: pass mask="
            )
        w, h, d = cols["width"][k], cols["height"][k], depth[k]
        size = (w, h) if d == 1 else (w, h, d)
        extra = {"braid": braid[k]} if braid[k] else {}
        if grid[k] != "square":
            extra["grid"] = grid[k]
        level = Level(cols["algo"][k], size, cols["seed"][k], cols["index"][k], **how, **extra)
        if "entrance" in cols and (level.entrance, level.exit) != (
            cols["entrance"][k],
            cols["exit"][k],
        ):
            raise ValueError(
                f"row {k}: its entrance and exit are cells {cols['entrance'][k]} and "
                f"{cols['exit'][k]}, the ends rule gives {level.entrance} and {level.exit}"
            )
        if "mask_hash" in cols and level.mask_hash != mask_hash[k]:
            raise ValueError(
                f"row {k}: its mask_hash is {mask_hash[k]}, the mask given hashes to "
                f"{level.mask_hash}"
            )
        if "maze_seed" in cols and level.maze_seed != cols["maze_seed"][k]:
            raise ValueError(
                f"row {k}: maze_seed {cols['maze_seed'][k]} is not the one batchgen "
                f"{__version__} (seeding scheme {SEEDING_SCHEME}) derives: {level.maze_seed}"
            )
        yield level


def _grid_level_from_json(doc: dict) -> Level:
    """:func:`level_from_json` of a level on a hex, triangle or polar grid (a neighbour list
    per cell): made again from its identity, its braid and its ends (``diameter`` when its
    ``ends_rule`` says so, else its ``entrance`` and ``exit`` cells, named by their ``at`` as
    the CLI names cells: ``X,Y``, polar ``RING,I``) and checked cell by cell."""
    w, h, cells = doc["width"], doc["height"], doc["cells"]
    kw: dict = {}
    if int(doc["mask_hash"]):
        kw["mask"] = "".join(
            "".join("#" if cells[y * w + x] is None else "." for x in range(w)) + "\n"
            for y in range(h)
        )
    if doc["braid"]:
        kw["braid"] = doc["braid"]
    if doc["ends_rule"].startswith("diameter"):
        kw["ends"] = "diameter"
    else:
        for end in ("entrance", "exit"):
            cell = cells[doc[end]] if 0 <= doc[end] < len(cells) else None
            if cell is None:
                raise ValueError(f"{doc['id']}: its {end} {doc[end]} is not a cell of the level")
            a, b = cell["at"]
            kw[end] = f"{b},{a}" if doc["grid"] == "polar" else f"{a},{b}"
    size = str(w) if doc["grid"] == "polar" and h == 6 else f"{w}x{h}"
    level = Level(doc["algo"], size, int(doc["seed"]), doc["index"], grid=doc["grid"], **kw)
    if level.metrics["maze_hash"] != int(doc["maze_hash"]):
        raise ValueError(
            f"{doc['id']}: batchgen {__version__} makes a maze of hash "
            f"{level.metrics['maze_hash']}, the document's is {doc['maze_hash']}"
        )
    if (level.entrance, level.exit) != (doc["entrance"], doc["exit"]):
        raise ValueError(f"{doc['id']}: the entrance and exit differ from the document's")
    if list(level.solution) != doc["solution"]:
        raise ValueError(f"{doc['id']}: the solution differs from the document's")
    for c, cell in enumerate(cells):
        if cell is None:
            continue
        got = [{"cell": n, "dir": dd, "open": o} for n, dd, o in level.neighbours(c)]
        if got != cell["neighbours"]:
            raise ValueError(f"{doc['id']}: cell {c} differs from the document's")
    return level


def level_from_json(doc: Union[str, bytes, dict]) -> Level:
    """The :class:`Level` of a level document of ``batchgen levels --format json`` (or one line
    of ``--format jsonl``), given as its text or as the parsed ``dict``.

    The level is made again from the document's identity: ``algo``, the size, ``seed``,
    ``index``, ``braid``, its ``entrance`` and ``exit`` cells and, for a masked level, the mask
    its ``null`` cells draw. It is then checked against the document: the same maze hash, the
    same open sides of every cell and the same solution, or ``ValueError``.
    """
    import json

    if isinstance(doc, (str, bytes)):
        doc = json.loads(doc)
    if doc.get("format") != "batchgen-level":
        raise ValueError("not a batchgen level document (its 'format' is not 'batchgen-level')")
    if "grid" in doc:
        return _grid_level_from_json(doc)
    w, h, d = doc["width"], doc["height"], doc["depth"]
    cells = doc["cells"]
    kw: dict = {}
    if int(doc["mask_hash"]):
        if d != 1:
            raise ValueError("a masked level of more than one layer is not read back")
        kw["mask"] = "".join(
            "".join("#" if c is None else "." for c in row) + "\n" for row in cells[0]
        )
        size = None
    else:
        size = (w, h) if d == 1 else (w, h, d)
    if doc["braid"]:
        kw["braid"] = doc["braid"]
    cell = lambda xyz: ",".join(map(str, xyz if d > 1 else xyz[:2]))  # noqa: E731
    level = Level(
        doc["algo"], size, int(doc["seed"]), doc["index"],
        entrance=cell(doc["entrance"]), exit=cell(doc["exit"]), **kw,
    )
    if level.metrics["maze_hash"] != int(doc["maze_hash"]):
        raise ValueError(
            f"{doc['id']}: batchgen {__version__} makes a maze of hash "
            f"{level.metrics['maze_hash']}, the document's is {doc['maze_hash']}"
        )
    solution = [x + w * (y + h * z) for x, y, z in doc["solution"]]
    if list(level.solution) != solution:
        raise ValueError(f"{doc['id']}: the solution differs from the document's")
    # The open sides of every cell, from the packed walls (bit 2·id east, 2·id + 1 south, and
    # in 3D bit id of the plane after the planar words down).
    words = [int(v) for v in level.walls]
    planar = (2 * w * h * d + 63) // 64

    def bit(i: int) -> int:
        return (words[i >> 6] >> (i & 63)) & 1

    def sides(x: int, y: int, z: int) -> int:
        i = x + w * (y + h * z)
        east, south = bit(2 * i), bit(2 * i + 1)
        down = bit(64 * planar + i) if d > 1 else 0
        west = x > 0 and bit(2 * (i - 1))
        north = y > 0 and bit(2 * (i - w) + 1)
        up = z > 0 and bit(64 * planar + i - w * h)
        return east | south << 1 | int(west) << 2 | int(north) << 3 | down << 4 | int(up) << 5

    for z in range(d):
        for y in range(h):
            for x in range(w):
                c = cells[z][y][x]
                if c is not None and c != sides(x, y, z):
                    raise ValueError(f"{doc['id']}: cell {x},{y},{z} differs from the document's")
    return level

