"""batchgen.Level / batchgen.levels / batchgen.read_store: rows regenerated into levels with
NumPy arrays, drawings, and the maze store as an Arrow table."""

import numpy as np
import pandas
import polars
import pyarrow
import pyarrow.parquet
import pytest

import batchgen


def without_timing(row):
    return {k: v for k, v in row.items() if k != "gen_ns"}


@pytest.mark.parametrize(
    "kw",
    [
        dict(),
        dict(ends="diameter"),
        dict(entrance=(3, 2), exit=(0, 6)),
    ],
    ids=["corners", "diameter", "cells"],
)
def test_levels_of_a_table_are_its_rows(kw):
    t = batchgen.generate("all", "9x7", 3, 5, **kw)
    rows = t.to_pylist()
    got = list(batchgen.levels(t))
    assert len(got) == len(rows) == 3 * len(batchgen.ALGORITHMS)
    for level, row in zip(got, rows):
        assert level.metrics == without_timing(row)
        assert (level.entrance, level.exit) == (level.solution[0], level.solution[-1])
    # polars and pandas frames lose the table's metadata, so the ends are given again.
    ends = kw or {"ends": "corners"}
    for frame in (polars.from_arrow(t), t.to_pandas()):
        again = list(batchgen.levels(frame, **ends))
        assert [l.metrics for l in again] == [l.metrics for l in got]


def test_levels_refuse_a_row_whose_maze_seed_is_not_ours():
    t = batchgen.generate("kruskal", "6x6", 2)
    bad = t.set_column(
        t.column_names.index("maze_seed"),
        "maze_seed",
        pyarrow.array([1, 2], pyarrow.uint64()),
    )
    with pytest.raises(ValueError, match="maze_seed 1 is not the one"):
        list(batchgen.levels(bad))
    with pytest.raises(ValueError, match="needs the columns"):
        list(batchgen.levels(t.drop_columns(["index"])))


def test_a_level_has_numpy_walls_solution_and_drawings():
    level = batchgen.Level("wilson", "8x5", 42, 17)
    assert level.walls.dtype == np.uint64
    assert level.solution.dtype == np.uint32
    assert level.solution.tolist()[0] == 0 and level.solution.tolist()[-1] == 39
    assert len(level.solution) == level.metrics["solution_length"] + 1
    coords = level.solution_coords
    assert coords.shape == (len(level.solution), 2)
    assert [r * 8 + c for r, c in coords.tolist()] == level.solution.tolist()
    art = level.render("ascii")
    assert len(art.splitlines()) == 11 and all(len(l) == 17 for l in art.splitlines())
    assert art.count(".") == 2 * level.metrics["solution_length"] + 1
    assert level.render("ascii", solution=False).count(".") == 0
    assert "┌" in level.render("unicode") and str(level) == level.render("unicode")
    svg = level._repr_svg_()
    assert "<svg" in svg and svg.rstrip().endswith("</svg>")
    with pytest.raises(ValueError, match="expected ascii, unicode or svg"):
        level.render("png")
    for bad, match in [
        (dict(algo="wilsn"), "wilsn"),
        (dict(size="0x5"), "'--size'"),
        (dict(seed=-1), "'--seed'"),
        (dict(entrance="8,0"), "'--entrance'"),
    ]:
        args = dict(algo="wilson", size="8x5", seed=42, index=17)
        args.update(bad)
        with pytest.raises(ValueError, match=match):
            batchgen.Level(args.pop("algo"), args.pop("size"), args.pop("seed"), args.pop("index"), **args)


def test_connection_list_is_maze_dataset_layout():
    level = batchgen.Level("backtracker", (6, 4), 1, 0)
    cl = level.connection_list
    assert cl.dtype == np.bool_ and cl.shape == (2, 4, 6)
    # A perfect maze: cells - 1 passages; none leaves the grid.
    assert cl.sum() == 6 * 4 - 1
    assert not cl[0, -1, :].any() and not cl[1, :, -1].any()
    # Consecutive solution cells are joined by an open passage of the list.
    for (r0, c0), (r1, c1) in zip(level.solution_coords[:-1], level.solution_coords[1:]):
        if r0 == r1:
            assert cl[1, r0, min(c0, c1)]
        else:
            assert cl[0, min(r0, r1), c0]
    three = batchgen.Level("wilson", "4x3x2", 1, 0)
    assert three.solution_coords.shape[1] == 3
    with pytest.raises(ValueError, match="2D"):
        three.connection_list


def test_read_store_is_the_store_as_an_arrow_table(tmp_path, cli):
    store = tmp_path / "mazes.arrow"
    cli("--algo", "wilson,kruskal", "--size", "10x6", "--count", "20", "--seed", "3",
        "--ends", "diameter", "--out", tmp_path / "m.parquet", "--mazes", store, "--quiet")
    t = batchgen.read_store(store)
    assert isinstance(t, pyarrow.Table) and t.num_rows == 40
    meta = t.schema.metadata
    assert any(k.startswith(b"batchgen") for k in meta), meta
    rows = t.to_pylist()
    for row in rows[:5] + rows[-5:]:
        level = batchgen.Level(row["algo"], "10x6", 3, row["index"], ends="diameter")
        assert row["maze_seed"] == level.maze_seed
        assert row["maze_hash"] == level.metrics["maze_hash"]
        assert (row["entrance"], row["exit"]) == (level.entrance, level.exit)
        assert np.array_equal(np.asarray(row["walls"], dtype=np.uint64), level.walls)
    bad = tmp_path / "bad.arrow"
    bad.write_bytes(b"not a store")
    with pytest.raises(ValueError):
        batchgen.read_store(bad)
    with pytest.raises(OSError):
        batchgen.read_store(tmp_path / "missing.arrow")


@pytest.mark.parametrize(
    "kw",
    [dict(mask="data/masks/rooms.txt", size=None), dict(braid=0.5, size="9x7"), dict(braid=1, size="6x5", ends="diameter")],
    ids=["masked", "braided", "braided-diameter"],
)
def test_levels_of_a_masked_or_braided_table_are_its_rows(kw):
    t = batchgen.generate("wilson,prim", count=6, seed=3, **kw)
    rows = t.to_pylist()
    got = list(batchgen.levels(t))
    assert len(got) == len(rows) == 12
    for level, row in zip(got, rows):
        assert level.metrics == without_timing(row)
        assert (level.braid, level.mask_hash) == (row["braid"], row["mask_hash"])
    if "mask" in kw:
        # The frame lost the metadata; the mask is given again.
        frame = t.to_pandas()
        with pytest.raises(ValueError, match="row 0 is on the mask with hash .*: pass mask="):
            list(batchgen.levels(frame, ends="corners"))
        with pytest.raises(ValueError, match="row 0: its mask_hash is"):
            list(batchgen.levels(frame, ends="corners", mask=("." * 26 + "\n") * 14))
        again = list(batchgen.levels(frame, ends="corners", mask=kw["mask"]))
        assert [l.metrics for l in again] == [l.metrics for l in got]
    else:
        assert sum(l.metrics["loops"] for l in got) > 0


def test_a_level_on_a_mask_and_braided_levels():
    ring = "...\n.#.\n...\n"
    level = batchgen.Level("aldous-broder", None, 5, 2, mask=ring)
    assert (level.width, level.height, level.mask) == (3, 3, ring)
    assert (level.entrance, level.exit) == (0, 8)
    assert level.metrics["cells"] == 8 and level.metrics["mask_hash"] == level.mask_hash != 0
    art = level.render("ascii", solution=False).splitlines()
    assert art[3][3] == "#"  # the hole is drawn solid
    assert "mask_hash=" in repr(level)
    braided = batchgen.Level("wilson", "8x8", 5, 2, braid=1)
    assert braided.braid == 1.0 and braided.metrics["dead_ends"] == 0
    assert braided.metrics["loops"] > 0 and "braid=1" in repr(braided)
    # Braided on a mask: the ring's one loop closed, the hole still solid.
    both = batchgen.Level("wilson", None, 5, 2, mask=ring, braid=1)
    assert (both.metrics["loops"], both.metrics["dead_ends"], both.metrics["cells"]) == (1, 0, 8)
    assert both.render("ascii", solution=False).splitlines()[3][3] == "#"
    plain = batchgen.Level("wilson", "8x8", 5, 2, braid=0)
    assert np.array_equal(plain.walls, batchgen.Level("wilson", "8x8", 5, 2).walls)
    for kw, match in [
        (dict(braid=-0.1), "'braid'"),
        (dict(mask="#.\n.#\n"), "'mask'"),
        (dict(mask=ring, algo="sidewinder"), "sidewinder is a row- or recursion-based"),
        (dict(mask=ring, size="4x3"), "the mask is 3x3"),
        (dict(mask=ring, entrance=(1, 1)), "hole of the mask"),
    ]:
        args = dict(algo="wilson", size=None, seed=1, index=0)
        args.update(kw)
        with pytest.raises(ValueError, match=match):
            batchgen.Level(args.pop("algo"), args.pop("size"), args.pop("seed"), args.pop("index"), **args)


def test_the_stub_matches_the_module():
    """_batchgen.pyi lists exactly the module's functions' and Level's parameters and
    properties."""
    import ast
    import inspect
    import pathlib

    from batchgen import _batchgen

    stub = ast.parse((pathlib.Path(batchgen.__file__).parent / "_batchgen.pyi").read_text())

    def params(fn):
        a = fn.args
        names = [p.arg for p in a.posonlyargs + a.args if p.arg != "self"]
        return names, [p.arg for p in a.kwonlyargs]

    def runtime(obj):
        sig = inspect.signature(obj)
        pos = [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        kw = [p.name for p in sig.parameters.values() if p.kind == p.KEYWORD_ONLY]
        return pos, kw

    funcs = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in stub.body if isinstance(n, ast.ClassDef)}
    for name in ("generate", "read_store"):
        assert params(funcs[name]) == runtime(getattr(_batchgen, name)), name
    level = {n.name: n for n in classes["Level"].body if isinstance(n, ast.FunctionDef)}
    assert params(level["__init__"]) == runtime(_batchgen.Level), "Level"
    props = {n for n, f in level.items() if any(getattr(d, "id", None) == "property" for d in f.decorator_list)}
    actual = {n for n, v in vars(_batchgen.Level).items() if type(v).__name__ == "getset_descriptor"}
    assert props == actual


@pytest.mark.parametrize(
    "args",
    [
        ["--algo", "all", "--size", "7x5"],
        ["--algo", "backtracker", "--size", "4x3x3"],
        ["--algo", "wilson", "--size", "8x8", "--braid", "0.5"],
        ["--algo", "kruskal", "--mask", "MASK"],
    ],
    ids=["2d", "3d", "braided", "masked"],
)
def test_a_json_level_reads_back_as_its_level(tmp_path, cli, args):
    import json

    import pyarrow.parquet

    mask = tmp_path / "mask.txt"
    mask.write_text("......\n.##...\n......\n....#.\n")
    args = [str(mask) if a == "MASK" else a for a in args]
    m, out = tmp_path / "m.parquet", tmp_path / "l.jsonl"
    cli(*args, "--count", "3", "--seed", "11", "--out", m, "--quiet")
    cli("levels", m, "--format", "jsonl", "--out", out)
    # pyarrow takes a file's schema from its ARROW:schema entry, which does not carry the
    # batchgen.* metadata: the mask is given again.
    again = {"mask": str(mask)} if "--mask" in args else {}
    table = pyarrow.parquet.read_table(m)
    want = {(l.algo, l.index): l for l in batchgen.levels(table, **again)}
    lines = out.read_text().splitlines()
    assert len(lines) == len(want)
    for line in lines:
        doc = json.loads(line)
        level = batchgen.level_from_json(line)
        same = want[(doc["algo"], doc["index"])]
        assert np.array_equal(level.walls, same.walls)
        assert np.array_equal(level.solution, same.solution)
        assert level.metrics == same.metrics
        assert (level.mask_hash, level.braid) == (same.mask_hash, same.braid)
        # A document whose walls were edited is not read back as a level.
        doc["cells"][0][0][0] ^= 1
        with pytest.raises(ValueError, match="differs"):
            batchgen.level_from_json(doc)


def _file_made_with_diameter_ends(cli, tmp_path):
    path = tmp_path / "d.parquet"
    cli("--algo", "wilson,backtracker", "--size", "9x7", "--count", "40", "--seed", "77",
        "--ends", "diameter", "--mazes", tmp_path / "d.arrow", "--out", path, "--quiet")
    return path


def test_an_unknown_ends_rule_is_an_error_never_corners(cli, tmp_path):
    import duckdb
    import pyarrow.parquet

    path = _file_made_with_diameter_ends(cli, tmp_path)
    # pyarrow keeps the file's rule (it is in the schema the file embeds): diameter ends.
    table = pyarrow.parquet.read_table(path)
    assert table.schema.metadata[b"batchgen.ends"].startswith(b"diameter")
    rows = table.to_pylist()
    got = list(batchgen.levels(table))
    assert len(got) == len(rows) == 80
    for level, row in zip(got, rows):
        assert level.metrics == without_timing(row)
        assert level.metrics["solution_length"] == level.metrics["diameter"]
    # Readers and queries that drop the metadata: an error that says how to give the rule.
    query = f"SELECT * FROM '{path}' WHERE solution_length >= 10"
    frames = [duckdb.sql(query).arrow(), polars.read_parquet(path), table.to_pandas()]
    for frame in frames:
        with pytest.raises(ValueError, match="does not know the rows' ends rule.*ends='diameter'"):
            next(batchgen.levels(frame))
    again = list(batchgen.levels(duckdb.sql(query).arrow(), ends="diameter"))
    assert again and all(
        l.metrics["solution_length"] == l.metrics["diameter"] >= 10 for l in again
    )


def test_levels_of_a_store_use_its_recorded_ends(cli, tmp_path):
    path = _file_made_with_diameter_ends(cli, tmp_path)
    rows = pyarrow.parquet.read_table(path).to_pylist()
    store = batchgen.read_store(tmp_path / "d.arrow")
    got = list(batchgen.levels(store))
    assert len(got) == len(rows) == 80
    for level, row, entrance, exit in zip(
        got, rows, store.column("entrance").to_pylist(), store.column("exit").to_pylist()
    ):
        assert (level.entrance, level.exit) == (entrance, exit)
        assert level.metrics == without_timing(row)


def test_solution_coords_are_a_valid_path_for_maze_dataset():
    from maze_dataset import LatticeMaze

    for algo in ("wilson", "backtracker", "prim"):
        level = batchgen.Level(algo, (12, 9), 5, 3, ends="diameter")
        coords = level.solution_coords
        assert coords.dtype == np.int64
        maze = LatticeMaze(connection_list=level.connection_list)
        assert maze.is_valid_path(coords)


@pytest.mark.parametrize(
    "grid,size,mask",
    [
        ("hex", "7x5", None),
        ("hex", None, "..#...\n.#....\n......\n"),
        ("triangle", "6x4", None),
        ("polar", "4", None),
    ],
    ids=["hex", "hex-mask", "triangle", "polar"],
)
def test_grid_levels_are_their_rows_and_read_back_from_json(cli, tmp_path, grid, size, mask):
    import json

    path = tmp_path / "g.parquet"
    args = ["--grid", grid, "--algo", "wilson,kruskal", "--count", "3", "--seed", "9"]
    if mask:
        (tmp_path / "m.txt").write_text(mask)
        args += ["--mask", tmp_path / "m.txt"]
    else:
        args += ["--size", size]
    cli(*args, "--out", path, "--quiet")
    rows = pyarrow.parquet.read_table(path).to_pylist()
    out = tmp_path / "g.jsonl"
    cli("levels", path, "--format", "jsonl", "--out", out)
    docs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(docs) == len(rows) == 6
    for doc, row in zip(docs, rows):
        level = batchgen.level_from_json(doc)
        assert level.grid == grid
        assert level.metrics["maze_hash"] == row["maze_hash"]
        assert level.metrics["solution_length"] == row["solution_length"]
        assert level.solution.tolist() == doc["solution"]
        assert "svg" in level.render("svg")
        with pytest.raises(ValueError, match="drawn as svg"):
            level.render("ascii")
        with pytest.raises(ValueError, match="square"):
            level.connection_list
        # An edited wall is not read back as this level.
        first = next(c for c in doc["cells"] if c is not None)
        first["neighbours"][0]["open"] = not first["neighbours"][0]["open"]
        with pytest.raises(ValueError, match="differs"):
            batchgen.level_from_json(doc)


@pytest.mark.parametrize(
    "grid,size,ends",
    [
        ("hex", "9x7", dict(entrance=(3, 2), exit="0,6")),
        ("triangle", "10x5", dict(entrance="9,0", exit=(4, 3))),
        ("polar", "5", dict(entrance="1,2", exit=(4, 7))),
        ("polar", "5", dict(exit="2,11")),
        ("hex", "9x7", dict(ends="diameter")),
    ],
    ids=["hex", "triangle", "polar", "polar-exit", "hex-diameter"],
)
def test_grid_levels_take_the_clis_ends(cli, tmp_path, grid, size, ends):
    """``Level(..., grid=, entrance=, exit=, ends=)`` names cells as the CLI does (``X,Y``;
    polar ``RING,I``): its metrics are the CLI row's made with the same flags, and its SVG is
    ``render --grid`` of the same flags."""
    flags = []
    for key, value in ends.items():
        flags += [f"--{key}", value if isinstance(value, str) else ",".join(map(str, value))]
    path = tmp_path / "g.parquet"
    cli("--grid", grid, "--size", size, "--algo", "wilson,kruskal", "--count", "2", "--seed", "9",
        *flags, "--out", path, "--quiet")
    rows = pyarrow.parquet.read_table(path).to_pylist()
    assert len(rows) == 4
    for row in rows:
        level = batchgen.Level(row["algo"], size, 9, row["index"], grid=grid, **ends)
        got = level.metrics
        for column, value in without_timing(row).items():
            if column in got:
                assert got[column] == value, column
        assert (level.entrance, level.exit) == (level.solution[0], level.solution[-1])
        svg = tmp_path / "l.svg"
        cli("render", "--grid", grid, "--size", size, "--algo", row["algo"], "--seed", "9",
            "--index", row["index"], *flags, "--solution", "--cell-px", "16", "-o", svg)
        assert level.render("svg", cell_px=16) == svg.read_text()


@pytest.mark.parametrize(
    "grid,size,flags",
    [
        ("hex", "9x7", ["--entrance", "3,2", "--exit", "0,6"]),
        ("triangle", "10x5", ["--entrance", "9,0", "--exit", "4,3", "--braid", "0.5"]),
        ("polar", "5", ["--entrance", "1,2", "--exit", "4,7"]),
        ("polar", "5", ["--entrance", "0,0", "--exit", "2,11"]),
        ("hex", "9x7", ["--ends", "diameter", "--braid", "0.3"]),
    ],
    ids=["hex", "triangle-braid", "polar", "polar-centre", "hex-diameter-braid"],
)
def test_grid_json_levels_read_back_with_their_own_ends(cli, tmp_path, grid, size, flags):
    """A hex, triangle or polar level document made with its own entrance and exit (or
    ``--ends diameter``, or braid) reads back with those ends: the same entrance, exit,
    solution and metrics as the document. (A document names its ends as cells, also under
    ``--ends diameter``: the level read back reports a farthest pair of its own, of the same
    ``diameter``, as the square documents do.)"""
    import json

    path = tmp_path / "g.parquet"
    cli("--grid", grid, "--size", size, "--algo", "wilson,kruskal", "--count", "2", "--seed", "9",
        *flags, "--out", path, "--quiet")
    out = tmp_path / "g.jsonl"
    cli("levels", path, "--format", "jsonl", "--out", out)
    docs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(docs) == 4
    for doc in docs:
        level = batchgen.level_from_json(doc)
        assert (level.entrance, level.exit) == (doc["entrance"], doc["exit"])
        assert level.solution.tolist() == doc["solution"]
        assert level.braid == doc["braid"]
        for column, value in doc["metrics"].items():
            pair = column in ("diameter_start", "diameter_end") and "diameter" in flags
            if column in level.metrics and column != "gen_ns" and not pair:
                got = level.metrics[column]
                assert (str(got) if isinstance(value, str) else got) == value, column


def test_grid_levels_refuse_bad_ends_as_the_cli_does():
    with pytest.raises(ValueError, match="'9,0' for '--entrance': outside the 9x7 grid"):
        batchgen.Level("kruskal", "9x7", 1, 0, grid="hex", entrance=(9, 0))
    with pytest.raises(ValueError, match="ring 1 has 6 cells"):
        batchgen.Level("kruskal", "3", 1, 0, grid="polar", exit="1,6")
    with pytest.raises(ValueError, match="not a cell of the mask"):
        batchgen.Level("kruskal", None, 1, 0, grid="hex", mask="...\n.#.\n...\n", exit=(1, 1))
    with pytest.raises(ValueError, match="--ends diameter chooses the entrance"):
        batchgen.Level("kruskal", "4x4", 1, 0, grid="triangle", ends="diameter", exit="1,1")


@pytest.mark.parametrize(
    "kw",
    [
        dict(grid="hex", size=(9, 7)),
        dict(grid="hex", size=(9, 7), entrance=(3, 2)),
        dict(grid="triangle", size="10x5", entrance="9,0", exit=(4, 3)),
        dict(grid="polar", size=5, exit="4,7"),
        dict(grid="polar", size="5x4", ends="diameter", braid=0.5),
        dict(grid="hex", size=None, mask="..#...\n.#....\n......\n", exit=(5, 2)),
    ],
    ids=["hex", "hex-entrance", "triangle", "polar", "polar-diameter", "hex-mask"],
)
def test_levels_of_a_grid_table_are_its_rows(kw):
    """``levels()`` of a hex, triangle or polar table makes each row's level on its grid,
    between the ends of the table's ``batchgen.ends`` (cells as the run was given them)."""
    size = kw.pop("size")
    t = batchgen.generate("wilson,kruskal", size, 3, 4, **kw)
    rows = t.to_pylist()
    got = list(batchgen.levels(t))
    assert len(got) == len(rows) == 6
    for level, row in zip(got, rows):
        assert level.grid == kw["grid"]
        metrics = level.metrics
        for column, value in without_timing(row).items():
            if column in metrics:
                assert metrics[column] == value, column
