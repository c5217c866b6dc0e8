"""`batchgen dataset-ml` against maze-dataset and the readers a training script uses: tokens
equal to maze-dataset's default tokenizer token for token, its LatticeMaze solving the
connection-list column to the same path, its pixel grid; exact deduplication (planted copies,
planted hash collisions, symmetry); splits that no maze or mirror image crosses; Hugging Face
`datasets` and polars reading the folder, with the card's counts."""

import os
import re
import tempfile

# Hugging Face `datasets` must neither reach the network nor write into the user's cache.
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ.setdefault("HF_HOME", tempfile.mkdtemp(prefix="hf-home-"))

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402
from maze_dataset import LatticeMaze, SolvedMaze  # noqa: E402
from maze_dataset.token_utils import equal_except_adj_list_sequence  # noqa: E402
from maze_dataset.tokenization import (  # noqa: E402
    MazeTokenizer,
    MazeTokenizerModular,
    TokenizationMode,
)

SPLITS = ("train", "validation", "test")


def make(cli, out, *args):
    cli("dataset-ml", "--out", out, *args)
    return out


def rows(out):
    """Every row of the folder as dicts, with the split each came from."""
    result = []
    for name in sorted(os.listdir(os.path.join(out, "data"))):
        split = name.split("-")[0]
        for r in pq.read_table(os.path.join(out, "data", name)).to_pylist():
            r["split"] = split
            result.append(r)
    return result


def grids(r):
    h, w = r["height"], r["width"]
    cl = np.array(r["connection_list"], dtype=bool).reshape(2, h, w)
    px = np.array(r["pixels"], dtype=np.uint8).reshape(2 * h + 1, 2 * w + 1)
    return cl, px


def card_counts(out):
    text = open(os.path.join(out, "README.md")).read()
    return {s: int(re.search(rf"^\| {s} \| (\d+) \|", text, re.M).group(1)) for s in SPLITS}


CASES = [
    ("wilson,kruskal,backtracker,prim", "3x3", "corners"),
    ("wilson,hunt-and-kill,eller,sidewinder", "5x5", "diameter"),
    ("aldous-broder,recursive-division,binary-tree", "8x6", "random"),
    ("wilson,growing-tree,kruskal", "16x16", "random"),
    ("backtracker,fractal", "7x11", "corners"),
]


@pytest.mark.parametrize("algos,size,ends", CASES)
def test_tokens_pixels_and_paths_equal_maze_dataset(cli, tmp_path, algos, size, ends):
    out = make(
        cli, tmp_path / "ds", "--algo", algos, "--size", size, "--count", "40",
        "--ends", ends, "--dedup", "none", "--seed", "7",
    )
    legacy = MazeTokenizer(tokenization_mode=TokenizationMode.AOTP_UT_uniform)
    modular = MazeTokenizerModular()
    all_rows = rows(out)
    assert len(all_rows) == 40 * len(algos.split(","))
    for r in all_rows:
        cl, px = grids(r)
        origin, target = tuple(r["origin"]), tuple(r["target"])
        solution = np.array(r["solution"])
        assert tuple(solution[0]) == origin and tuple(solution[-1]) == target
        lattice = LatticeMaze(connection_list=cl)
        path = lattice.find_shortest_path(origin, target)
        assert len(path) - 1 == r["solution_length"]
        assert np.array_equal(np.asarray(path), solution)
        rgb = lattice.as_pixels()
        assert all(np.array_equal(rgb[:, :, c], px) for c in range(3))
        solved = SolvedMaze(connection_list=cl, solution=solution)
        np.random.seed(r["token_seed"])
        expected = solved.as_tokens(legacy)
        assert r["tokens"].split(" ") == expected, (r["algo"], r["index"])
        # maze-dataset's modular default is the same tokenization, its adjacency list drawn
        # in another order.
        assert equal_except_adj_list_sequence(r["tokens"].split(" "), solved.as_tokens(modular))


def test_exact_dedup_with_planted_copies_and_collisions(cli, tmp_path):
    """A 3x3 grid has 192 spanning trees: 1,200 candidates from three generators are full of
    copies. Exact dedup keeps one row per distinct maze, the first in (algo, index) order,
    with the full 64-bit hash and with a hash cut to 3 bits (every key a collision)."""
    args = ("--algo", "wilson,kruskal,backtracker", "--size", "3x3", "--count", "400")
    everything = rows(make(cli, tmp_path / "all", *args, "--dedup", "none"))
    assert len(everything) == 1200
    order = {"backtracker": 0, "kruskal": 1, "wilson": 2}
    first = {}
    for r in sorted(everything, key=lambda r: (order[r["algo"]], r["index"])):
        first.setdefault(bytes(grids(r)[1]), (r["algo"], r["index"]))
    assert len(first) < 300  # the run is full of copies
    for extra in ((), ("--hash-bits", "3"), ("--hash-bits", "1", "--partitions", "5")):
        out = make(cli, tmp_path / f"exact{len(extra)}", *args, "--dedup", "exact", *extra)
        kept = rows(out)
        assert sorted((r["algo"], r["index"]) for r in kept) == sorted(first.values())
        assert len({bytes(grids(r)[1]) for r in kept}) == len(kept)
        assert sum(card_counts(out).values()) == len(kept)
        if extra:
            assert all(r["canonical_hash"] < 8 for r in kept)
            text = open(os.path.join(out, "README.md")).read()
            collisions = int(re.search(r"sharing a hash[^:]*: (\d+)", text).group(1))
            assert collisions == len(kept)  # every key is shared by several distinct mazes


def images(px):
    """The 8 images of a square pixel grid."""
    out = []
    for k in range(4):
        r = np.rot90(px, k)
        out += [r, np.fliplr(r)]
    return out


def test_symmetry_dedup_and_no_mirror_image_crosses_splits(cli, tmp_path):
    args = ("--algo", "wilson,kruskal,prim", "--size", "3x3", "--count", "500", "--dedup", "symmetry")
    a = rows(make(cli, tmp_path / "a", *args, "--seed", "1"))
    b = rows(make(cli, tmp_path / "b", *args, "--seed", "2", "--split", "0.4,0.3,0.3"))
    # 192 spanning trees of a 3x3 grid fall in 28 classes under the square's symmetries.
    classes = {}
    for r in a:
        key = min(bytes(i) for i in images(grids(r)[1]))
        assert key not in classes, "two rows of one symmetry class"
        classes[key] = r
    assert len(classes) == 28
    # A class met in another run (another seed, other mazes, mirrored or not) has the same
    # canonical hash there.
    for r in a:
        key = min(bytes(i) for i in images(grids(r)[1]))
        same = [q for q in b if min(bytes(i) for i in images(grids(q)[1])) == key]
        for q in same:
            assert q["canonical_hash"] == r["canonical_hash"]
    # The split is a function of the hash: with equal fractions, a class met again in another
    # run (another seed) is in the same split.
    c = rows(make(cli, tmp_path / "c", *args, "--seed", "3"))
    by_hash = {r["canonical_hash"]: r["split"] for r in a}
    shared = [r for r in c if r["canonical_hash"] in by_hash]
    assert shared
    assert all(by_hash[r["canonical_hash"]] == r["split"] for r in shared)


def test_rectangles_use_their_four_symmetries(cli, tmp_path):
    out = make(cli, tmp_path / "r", "--algo", "kruskal", "--size", "4x2", "--count", "600", "--dedup", "symmetry")
    kept = rows(out)
    seen = set()
    for r in kept:
        px = grids(r)[1]
        key = min(bytes(np.ascontiguousarray(i)) for i in (px, np.fliplr(px), np.flipud(px), np.rot90(px, 2)))
        assert key not in seen
        seen.add(key)
    # The 4x2 grid's spanning trees (209) in classes of the rectangle's four symmetries.
    everything = rows(make(cli, tmp_path / "n", "--algo", "kruskal", "--size", "4x2", "--count", "600", "--dedup", "none"))
    classes = {min(bytes(np.ascontiguousarray(i)) for i in (p, np.fliplr(p), np.flipud(p), np.rot90(p, 2)))
               for p in (grids(r)[1] for r in everything)}
    assert len(kept) == len(classes)


def test_hf_datasets_and_polars_read_the_folder(cli, tmp_path):
    import datasets

    out = make(
        cli, tmp_path / "ds", "--algo", "wilson,kruskal", "--size", "8x8", "--count", "700",
        "--rows-per-file", "300",
    )
    counts = card_counts(out)
    files = os.listdir(os.path.join(out, "data"))
    assert len([f for f in files if f.startswith("train-")]) == -(-counts["train"] // 300)
    ds = datasets.load_dataset("parquet", data_dir=str(out), cache_dir=str(tmp_path / "cache"))
    assert {s: ds[s].num_rows for s in ds} == counts
    assert sum(counts.values()) == 1400
    row = ds["train"][0]
    assert len(row["connection_list"]) == 2 * 8 * 8 and len(row["pixels"]) == 17 * 17
    for s in SPLITS:
        n = pl.scan_parquet(os.path.join(out, "data", f"{s}-*.parquet")).select(pl.len()).collect().item()
        assert n == counts[s]
    total = pl.scan_parquet(os.path.join(out, "data", "*.parquet")).select(pl.len()).collect().item()
    assert total == 1400


@pytest.mark.parametrize("size", ["3x3", "9x7"])
def test_shards_read_back_as_one_dataset(cli, tmp_path, size):
    """Three shards hold exactly the unsharded run's rows, in the same splits: at 3x3 most
    candidates are copies, dropped across shards as in one run."""
    import datasets

    args = ("--algo", "wilson,eller", "--size", size, "--count", "500")
    whole = rows(make(cli, tmp_path / "whole", *args))
    for k in (1, 2, 3):
        make(cli, tmp_path / "sharded", *args, "--shard", f"{k}/3")
    parts = rows(tmp_path / "sharded")
    key = lambda r: (r["algo"], r["index"])  # noqa: E731
    assert sorted((key(r), r["split"]) for r in parts) == sorted((key(r), r["split"]) for r in whole)
    ds = datasets.load_dataset("parquet", data_dir=str(tmp_path / "sharded"), cache_dir=str(tmp_path / "cache"))
    assert sum(ds[s].num_rows for s in ds) == len(whole)


def test_the_recipes_of_the_docs_run(cli, tmp_path):
    """src/ml/README.md's two snippets are data/ml/*.py; run them on a fresh folder."""
    import subprocess
    import sys

    out = make(cli, tmp_path / "mazes", "--algo", "wilson,kruskal", "--size", "6x6", "--count", "300")
    counts = card_counts(out)
    root = os.path.join(os.path.dirname(__file__), "..", "..", "data", "ml")
    env = dict(os.environ, HF_DATASETS_CACHE=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, os.path.join(root, "load_dataset.py"), str(out)],
                       capture_output=True, text=True, env=env, check=True)
    assert p.stdout.strip() == f"{counts} {counts['train']}"
    for name in os.listdir(os.path.join(out, "data")):
        p = subprocess.run([sys.executable, os.path.join(root, "check_tokens.py"),
                            os.path.join(out, "data", name)], capture_output=True, text=True, check=True)
        assert "tokens equal maze-dataset's" in p.stdout
