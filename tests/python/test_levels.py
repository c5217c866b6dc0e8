"""batchgen.Level / batchgen.levels / batchgen.read_store: rows regenerated into levels with
NumPy arrays, drawings, and the maze store as an Arrow table."""

import numpy as np
import pandas
import polars
import pyarrow
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
