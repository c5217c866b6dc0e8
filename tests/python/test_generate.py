"""batchgen.generate against the CLI's Parquet file, the Arrow consumers, bad arguments,
the released GIL and Ctrl-C."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import duckdb
import pandas
import polars
import pyarrow
import pyarrow.parquet as pq
import pytest

import batchgen
from batchgen import _batchgen

# generate()'s keyword arguments; flags() turns each into the same CLI flags.
CASES = [
    dict(algo="wilson", size="16x12", count=300, seed=42),
    dict(algo="all", size=(9, 7), count=40, seed=7, threads=2),
    dict(algo="kruskal,backtracker", size="10x10", count=50, seed=3, ends="diameter"),
    dict(algo="prim", size="8x6", count=30, seed=1, entrance=(2, 1), exit="7,0"),
    dict(
        algo="wilson,eller",
        size="12x12",
        count=25,
        seed=5,
        accept="dead_end_share <= 0.3 AND solution_length >= 30",
        max_candidates=100000,
    ),
    dict(algo="wilson", size="5x4x3", count=20, seed=9),
    dict(algo="wilson,backtracker", size="9x6", count=30, seed=4, braid=0.5),
    dict(algo="prim,kruskal", size=None, count=20, seed=6, mask="data/masks/rooms.txt"),
    dict(algo="wilson", size="26x14", count=10, seed=8, mask="data/masks/rooms.txt", exit=(0, 0)),
    dict(algo=["wilson", "kruskal"], size=(9, 7), count=20, seed=3, grid="hex"),
    dict(algo="wilson,backtracker", size=(9, 7), count=15, seed=3, grid="hex", braid=0.5),
    dict(algo="kruskal", size=4, count=10, seed=1, grid="polar", braid=1, ends="diameter"),
    dict(algo="all", size=5, count=10, seed=2, grid="polar", entrance="0,0", exit=(4, 7)),
    dict(
        algo="backtracker",
        size="10x6",
        count=15,
        seed=4,
        grid="triangle",
        accept="dead_ends >= 8",
        exit=(0, 5),
    ),
]

# The columns masks and braid add; every table has them (0 for unmasked, perfect mazes).
MASK_BRAID_COLUMNS = ["mask_hash", "cells", "braid", "loops", "solution_count"]


def flags(kw):
    """The CLI flags of generate's keyword arguments."""
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        if isinstance(v, (tuple, list)):
            v = ("x" if k == "size" else ",").join(map(str, v))
        out += ["--" + k.replace("_", "-"), str(v)]
    return out


def rows(table):
    cols = [c for c in table.column_names if c != "gen_ns"]
    return table.select(cols).to_pylist()


def case_id(kw):
    extra = "".join(f"-{k}" for k in ("mask", "braid", "grid") if k in kw)
    return str(kw["algo"]) + "-" + str(kw["size"]) + extra


@pytest.mark.parametrize("kw", CASES, ids=case_id)
def test_generate_equals_the_cli_parquet_row_by_row(tmp_path, cli, kw):
    out = tmp_path / "m.parquet"
    cli(*flags(kw), "--out", out, "--quiet")
    want = pq.read_table(out)
    got = batchgen.generate(**kw)
    assert isinstance(got, pyarrow.Table)
    # Same columns, types and nullability, in the same order.
    assert got.schema.remove_metadata() == want.schema.remove_metadata()
    assert got.num_rows == want.num_rows > 0
    assert rows(got) == rows(want)
    assert set(MASK_BRAID_COLUMNS) <= set(got.column_names)
    loops = got.column("loops").to_pylist()
    assert (max(loops) > 0) == ("braid" in kw), loops
    masked = set(got.column("mask_hash").to_pylist())
    assert (masked != {0}) == ("mask" in kw), masked
    # The file's key-value metadata (the Parquet footer's) is the table's schema metadata,
    # but for the command line that made it.
    meta = lambda kv: {k.decode(): v.decode() for k, v in kv.items()}
    g, w = meta(got.schema.metadata), meta(pq.read_metadata(out).metadata)
    assert g.pop("batchgen.command_line").startswith("batchgen.generate(")
    w.pop("batchgen.command_line")
    w.pop("ARROW:schema", None)
    assert g == w
    assert got.column("gen_ns").to_pylist() != [0] * got.num_rows  # timed, not zeroed


def test_every_consumer_reads_the_capsule_without_a_copy():
    raw = _batchgen.generate("backtracker", "12x8", 500, 11)
    assert isinstance(raw, batchgen.Table) and len(raw) == 500
    a, b = pyarrow.table(raw), pyarrow.table(raw)
    # Both imports point at the same Rust-owned buffer: nothing was copied.
    addr = lambda t: t.column("maze_hash").chunks[0].buffers()[1].address
    assert addr(a) == addr(b)
    assert a.schema.metadata[b"batchgen.algos"] == b"backtracker"
    # polars and DuckDB take the capsule object itself; pandas through pyarrow.
    df = polars.from_arrow(a)
    assert df.height == 500 and df["index"].to_list() == list(range(500))
    pl_direct = polars.DataFrame(raw)
    assert pl_direct["maze_seed"].to_list() == a.column("maze_seed").to_pylist()
    t = batchgen.generate("backtracker", "12x8", 500, 11)
    n, longest = duckdb.sql("SELECT count(*), max(solution_length) FROM t").fetchall()[0]
    assert (n, longest) == (500, max(a.column("solution_length").to_pylist()))
    n_raw = duckdb.sql("SELECT count(*) FROM raw").fetchall()[0][0]
    assert n_raw == 500
    pdf = t.to_pandas()
    assert isinstance(pdf, pandas.DataFrame) and len(pdf) == 500
    assert list(pdf.columns) == a.column_names


BAD = [
    (dict(algo="wilsn", size="8x8", count=1), ["--algo", "wilsn", "--size", "8x8", "--count", "1"]),
    (dict(algo="wilson", size="0x8", count=1), ["--size", "0x8", "--count", "1"]),
    (dict(algo="wilson", size="8x8", count=-3), ["--size", "8x8", "--count", "-3"]),
    (dict(algo="wilson", size="8x8", count=1, threads=0), ["--size", "8x8", "--count", "1", "--threads", "0"]),
    (dict(algo="wilson", size="8x8", count=1, ends="middle"), ["--size", "8x8", "--count", "1", "--ends", "middle"]),
    (dict(algo="wilson", size="8x8", count=1, entrance="9,0"), ["--size", "8x8", "--count", "1", "--entrance", "9,0"]),
    (
        dict(algo="wilson", size="8x8", count=1, ends="diameter", exit="1,1"),
        ["--size", "8x8", "--count", "1", "--ends", "diameter", "--exit", "1,1"],
    ),
    (dict(algo="wilson", size="8x8", count=1, accept="dead_ends >"), ["--size", "8x8", "--count", "1", "--accept", "dead_ends >"]),
    (dict(algo="wilson", size="8x8", count=1, max_candidates=10), ["--size", "8x8", "--count", "1", "--max-candidates", "10"]),
    (dict(algo="eller", size="4x4x2", count=1), ["--algo", "eller", "--size", "4x4x2", "--count", "1"]),
]


@pytest.mark.parametrize("kw,args", BAD, ids=[" ".join(a[-2:]) for _, a in BAD])
def test_bad_arguments_raise_value_error_naming_the_parameter(tmp_path, cli, kw, args):
    """The CLI refuses the same values (exit 2, naming the flag); Python names the parameter
    and never a flag."""
    if "--algo" not in args:
        args = ["--algo", kw["algo"]] + args
    p = cli(*args, "--out", tmp_path / "x.parquet", check=False)
    assert p.returncode == 2, p.stderr
    with pytest.raises(ValueError) as e:
        batchgen.generate(**kw)
    message = str(e.value)
    flags = [a for a in args if a.startswith("--")]
    named = [f[2:].replace("-", "_") for f in flags]
    assert any(f"'{n}'" in message or message.startswith(n) for n in named), message
    assert "--" not in message, message
    assert not (tmp_path / "x.parquet").exists()


def test_generators_as_a_list_or_tuple():
    a = batchgen.generate(["kruskal", "wilson"], "16x16", 50)
    b = batchgen.generate(("kruskal", "wilson"), "16x16", 50)
    c = batchgen.generate("kruskal,wilson", "16x16", 50)
    assert a.num_rows == 100
    drop = lambda t: t.drop_columns(["gen_ns"]).to_pylist()
    assert drop(a) == drop(b) == drop(c)
    meta = {k.decode(): v.decode() for k, v in a.schema.metadata.items()}
    assert meta["batchgen.algos"] == "kruskal,wilson"
    assert meta["batchgen.command_line"].startswith("batchgen.generate(['kruskal', 'wilson'], '16x16', 50")
    with pytest.raises(ValueError, match="'algo'"):
        batchgen.generate([], "16x16", 5)


def test_a_filter_that_accepts_too_few_raises_runtime_error():
    with pytest.raises(RuntimeError, match="accepted too few mazes within --max-candidates 50"):
        batchgen.generate("wilson", "8x8", 5, accept="solution_length > 1000", max_candidates=50)


def test_the_gil_is_released_while_generating():
    done = threading.Event()
    result = {}

    def work():
        result["t"] = _batchgen.generate("wilson", "48x48", 20000, 1, threads=1)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    spins = 0
    while not done.is_set():
        spins += 1  # only runs while the generating thread does not hold the GIL
        time.sleep(0.001)
    worker.join()
    assert len(result["t"]) == 20000
    assert spins > 50, spins


def test_ctrl_c_raises_keyboard_interrupt_and_stops_the_workers():
    # A run that would take minutes; SIGINT once it has started.
    script = textwrap.dedent(
        """
        import sys, time, batchgen
        print("started", flush=True)
        t0 = time.monotonic()
        try:
            batchgen.generate("wilson", "64x64", 50_000_000, threads=1)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", time.monotonic() - t0, flush=True)
            sys.exit(0)
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout.readline().strip() == "started"
    time.sleep(1.0)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    # A hang guard, not a timing claim: without the interrupt the run lasts for minutes.
    out, err = child.communicate(timeout=30)
    latency = time.monotonic() - sent
    assert child.returncode == 0, err
    assert out.startswith("KeyboardInterrupt"), (out, err)
    print(f"SIGINT to exit: {latency:.3f} s")


def test_a_masked_runs_command_line_reruns_it(tmp_path, monkeypatch):
    """`batchgen.command_line` names the mask as the CLI's argv does, by its path as given; a
    mask given as its text or bytes is named "mask.txt": the file's `batchgen.mask` saved so."""
    ring = "...\n.#.\n...\n"
    path = tmp_path / "ring.txt"
    path.write_text(ring)
    for given, named in [(str(path), str(path)), (path, str(path)),
                         (ring, "mask.txt"), (ring.encode(), "mask.txt")]:
        t = batchgen.generate("wilson", None, 4, 1, mask=given, braid=0.5)
        meta = {k.decode(): v.decode() for k, v in t.schema.metadata.items()}
        call = meta["batchgen.command_line"]
        assert f"mask={named!r}" in call and ring not in call, call
        rerun = tmp_path / f"rerun-{len(list(tmp_path.iterdir()))}"
        rerun.mkdir()
        (rerun / "mask.txt").write_text(meta["batchgen.mask"])
        monkeypatch.chdir(rerun)
        assert rows(eval(call, {"batchgen": batchgen})) == rows(t), call


def test_mask_and_braid_arguments_are_checked_naming_them(tmp_path):
    ring = "...\n.#.\n...\n"
    t = batchgen.generate("wilson", None, 4, 1, mask=ring)
    meta = {k.decode(): v.decode() for k, v in t.schema.metadata.items()}
    assert meta["batchgen.mask"] == ring and t.column("cells").to_pylist() == [8] * 4
    # The same mask as a path, as bytes, and as text give the same rows.
    path = tmp_path / "ring.txt"
    path.write_text(ring)
    for same in (path, str(path), ring.encode()):
        assert rows(batchgen.generate("wilson", None, 4, 1, mask=same)) == rows(t)
    braided = batchgen.generate("kruskal", "6x6", 3, 1, braid="0.25")
    meta = {k.decode(): v.decode() for k, v in braided.schema.metadata.items()}
    assert meta["batchgen.braid"] == "0.25"
    assert braided.column("braid").to_pylist() == [0.25] * 3
    # Braided on a mask: each ring's one loop closed, no dead end left.
    both = batchgen.generate("wilson", None, 4, 1, mask=ring, braid=1)
    assert both.column("loops").to_pylist() == [1] * 4
    assert both.column("dead_ends").to_pylist() == [0] * 4
    assert both.column("cells").to_pylist() == [8] * 4
    for kw, match in [
        (dict(mask=str(tmp_path / "missing.txt")), "'mask'"),
        (dict(mask="#.\n.#\n"), "'mask'.*not connected"),
        (dict(mask=42), "'mask'"),
        (dict(mask=tmp_path), "'mask'.*it is a folder; a mask must be a regular file"),
        (dict(braid=1.5), "'braid'"),
        (dict(braid="often"), "'braid'"),
        (dict(mask=ring, size="4x4"), "is 3x3 \\(the mask sets the size: drop size"),
        (dict(mask=ring, algo="eller"), "eller is a row- or recursion-based generator"),
        (dict(mask=ring, entrance=(1, 1)), "hole of the mask"),
        (dict(size=None), "needs a size"),
    ]:
        args = dict(algo="wilson", size=None if "mask" in kw else "3x3", count=2)
        args.update(kw)
        with pytest.raises(ValueError, match=match):
            batchgen.generate(**args)


def test_the_command_line_is_a_python_call_that_reruns(tmp_path, monkeypatch):
    """`batchgen.command_line` writes each argument as the Python literal it was given (a mask
    path with a tab, both quotes, a backslash and non-ASCII letters; a count as text that is
    not a Python number; a tuple, ints, a float), and `eval` of it gives the same rows."""
    folder = tmp_path / "m\u00e4ze \u65e5\u672c"
    folder.mkdir()
    path = folder / "ring\t'q\"\\caf\u00e9.txt"
    path.write_text("....\n.##.\n....\n")
    kw = dict(threads=1, entrance=(0, 0), exit=[3, 2], braid=0.5,
              accept="algo = 'wilson' AND \"solution_length\" >= 1", max_candidates=1000)
    t = batchgen.generate("wilson", None, "2^3", 7, mask=str(path), **kw)
    call = {k.decode(): v.decode() for k, v in t.schema.metadata.items()}["batchgen.command_line"]
    assert call == (
        f"batchgen.generate('wilson', None, '2^3', 7, threads=1, entrance=(0, 0), "
        f"exit=[3, 2], accept={kw['accept']!r}, max_candidates=1000, mask={str(path)!r}, "
        f"braid=0.5)"
    ), call
    assert not call.isascii() and "\\t" in call and "\\\\" in call, call
    assert t.num_rows == 8
    monkeypatch.chdir(tmp_path)
    assert rows(eval(call, {"batchgen": batchgen})) == rows(t), call
    # A control character and a separator Python does not print are escaped as Python does.
    odd = folder / "a\x01\u2028b.txt"
    odd.write_text("...\n...\n")
    t = batchgen.generate("wilson", None, 2, 1, mask=odd)
    call = {k.decode(): v.decode() for k, v in t.schema.metadata.items()}["batchgen.command_line"]
    assert f"mask={str(odd)!r})" in call and "\\x01\\u2028" in call, call
    assert rows(eval(call, {"batchgen": batchgen})) == rows(t), call


def test_no_time_limit_lets_a_long_walk_through_as_the_cli_flag_does(tmp_path, cli):
    """A random walk expected to take hours is refused naming ``no_time_limit`` (the CLI names
    ``--no-time-limit``); with ``no_time_limit=True`` the rule is skipped, so the run goes on to
    the next check (here a bad exit cell) before any maze is made."""
    p = cli("--algo", "aldous-broder", "--size", "1000000x1", "--count", "1",
            "--out", tmp_path / "x.parquet", check=False)
    assert p.returncode == 2 and "--no-time-limit" in p.stderr, p.stderr
    with pytest.raises(ValueError, match="no_time_limit") as e:
        batchgen.generate("aldous-broder", "1000000x1", 1)
    assert "1.0e12 steps" in str(e.value) and "--" not in str(e.value)
    with pytest.raises(ValueError, match="'exit'"):
        batchgen.generate("aldous-broder", "1000000x1", 1, exit="0,5", no_time_limit=True)
    # On a small grid it changes nothing but the recorded call, which reruns it.
    a = batchgen.generate("wilson", "8x8", 20, seed=5)
    b = batchgen.generate("wilson", "8x8", 20, seed=5, no_time_limit=True)
    drop = lambda t: t.drop_columns(["gen_ns"]).to_pylist()
    assert drop(a) == drop(b)
    meta = {k.decode(): v.decode() for k, v in b.schema.metadata.items()}
    assert meta["batchgen.command_line"].endswith("no_time_limit=True)"), meta
    assert "no_time_limit" not in {k.decode(): v.decode() for k, v in a.schema.metadata.items()}[
        "batchgen.command_line"
    ]
