"""Timings of the Python package, run by benches/python_generate.sh (see there).

    python generate_speed.py generate ALGO SIZE COUNT THREADS   # seconds of one generate() call
    python generate_speed.py memory ALGO SIZE COUNT THREADS     # peak RSS and table bytes
    python generate_speed.py maze-dataset SIDE SECONDS          # mazes/s of maze-dataset's generators
    python generate_speed.py batchgen SIDE SECONDS              # mazes/s of batchgen's, one thread
"""

import resource
import sys
import time


def generate(algo, size, count, threads):
    import batchgen

    t0 = time.perf_counter()
    t = batchgen.generate(algo, size, int(count), threads=int(threads))
    secs = time.perf_counter() - t0
    assert t.num_rows == int(count)
    print(f"{secs:.4f}")


def memory(algo, size, count, threads):
    import batchgen

    t = batchgen.generate(algo, size, int(count), threads=int(threads))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"{peak} {t.nbytes}")


def rate(make, seconds):
    """Mazes per second of make() over at least `seconds` (and at least 3 mazes)."""
    n, t0 = 0, time.perf_counter()
    while n < 3 or time.perf_counter() - t0 < seconds:
        make(n)
        n += 1
    return n / (time.perf_counter() - t0)


def maze_dataset(side, seconds):
    from maze_dataset.generation import LatticeMazeGenerators as G

    side, seconds = int(side), float(seconds)
    for name, gen in [("dfs", G.gen_dfs), ("kruskal", G.gen_kruskal), ("wilson", G.gen_wilson)]:
        print(f"maze-dataset {name} {rate(lambda _: gen((side, side)), seconds):.2f}")


def batchgen_rate(side, seconds):
    import batchgen

    side, seconds = int(side), float(seconds)
    for algo in ["backtracker", "kruskal", "wilson"]:
        # One maze per call, as maze-dataset makes them, and a batch of 10000 per call.
        one = rate(lambda i: batchgen.Level(algo, (side, side), 42, i), seconds)
        batchgen.generate(algo, (side, side), 100, threads=1)  # warm-up
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            batchgen.generate(algo, (side, side), 10000, threads=1)
            runs.append(time.perf_counter() - t0)
        batch = 10000 / sorted(runs)[1]
        print(f"batchgen {algo} {one:.2f} {batch:.2f}")


if __name__ == "__main__":
    what, args = sys.argv[1], sys.argv[2:]
    {"generate": generate, "memory": memory, "maze-dataset": maze_dataset, "batchgen": batchgen_rate}[
        what
    ](*args)
