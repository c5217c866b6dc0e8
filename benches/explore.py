"""The explorer's speed and memory on a metrics file, against DuckDB in the same sitting.

usage: python benches/explore.py BATCHGEN FILE [REPEATS]
(with the tests' Python environment: target/tmp/interop-venv/bin/python, which has duckdb)

Measures, with the server started fresh on FILE:
- start-up: from launch to the first answered /api/counts (the filter's columns loaded);
- a filter update: /api/counts then /api/hist (counts for every generator and the histograms of
  every metric column) for a filter not seen before, median over REPEATS distinct filters;
- DuckDB: SELECT algo, count(*) ... WHERE <same filter> GROUP BY algo on the same file,
  median over the same filters;
- the CPU time (user + system) of each per update, which does not depend on what else runs;
- the server's peak resident memory (VmHWM) after every column was loaded;
- a gallery: /api/sample?n=12 and the 12 mazes' /api/maze.svg, median over REPEATS filters.
"""
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import duckdb

batchgen, path = sys.argv[1], sys.argv[2]
repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 9


def filters(k):
    # Distinct thresholds, so no answer comes from a cache.
    return [f"dead_end_share <= {0.25 + 0.004 * i:.3f} AND tortuosity >= {1.5 + 0.1 * i:.2f}"
            for i in range(k)]


t0 = time.perf_counter()
srv = subprocess.Popen([batchgen, "explore", path], stdout=subprocess.PIPE, text=True)
try:
    line = srv.stdout.readline()
    base = re.search(r"(http://\S+/)", line).group(1)

    def get(p, **q):
        url = base + p.lstrip("/") + ("?" + urllib.parse.urlencode(q) if q else "")
        with urllib.request.urlopen(url) as r:
            return r.read()

    warm = "solution_length >= 1"
    get("api/counts", accept=warm)
    startup = time.perf_counter() - t0
    t1 = time.perf_counter()
    get("api/hist", accept=warm)
    load_all = time.perf_counter() - t1

    def cpu(pid):
        """User + system CPU seconds of a process so far."""
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

    update = []
    c0 = cpu(srv.pid)
    for f in filters(repeats):
        t = time.perf_counter()
        get("api/counts", accept=f)
        get("api/hist", accept=f)
        update.append(time.perf_counter() - t)
    update_cpu = (cpu(srv.pid) - c0) / repeats

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")  # no bar in the output after 2 s
    duck = []
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    for f in filters(repeats):
        t = time.perf_counter()
        con.execute(f"SELECT algo, count(*) FROM read_parquet('{path}') WHERE {f} GROUP BY algo").fetchall()
        duck.append(time.perf_counter() - t)
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    duck_cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) / repeats

    gallery = []
    for i in range(repeats):
        f = f"dead_ends >= {900 + i}"
        t = time.perf_counter()
        rows = json.loads(get("api/sample", accept=f, n=12))["rows"]
        for r in rows:
            get(r["svg"])
        gallery.append(time.perf_counter() - t)
        assert len(rows) == 12, len(rows)

    status = open(f"/proc/{srv.pid}/status").read()
    hwm = int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) * 1024
    rows_total = json.loads(get("api/columns"))["rows"]
finally:
    srv.terminate()
    srv.wait()

ms = lambda xs: statistics.median(xs) * 1000
print(f"file: {path} ({rows_total} rows)")
print(f"start-up to first answer: {startup:.2f} s; loading every histogram column: {load_all:.2f} s")
print(f"filter update (counts + every histogram), median of {repeats}: {ms(update):.1f} ms "
      f"(min {min(update) * 1000:.1f}, max {max(update) * 1000:.1f})")
print(f"DuckDB GROUP BY algo on the Parquet file, median of {repeats}: {ms(duck):.1f} ms "
      f"(min {min(duck) * 1000:.1f}, max {max(duck) * 1000:.1f})")
print(f"ratio DuckDB / explore: {ms(duck) / ms(update):.2f}")
print(f"CPU time per filter update: explore {update_cpu * 1000:.0f} ms, DuckDB {duck_cpu * 1000:.0f} ms "
      f"(on a busy machine the wall time is about CPU time / cores available)")
print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
print(f"gallery of 12 mazes (sample + 12 SVGs), median of {repeats}: {ms(gallery):.1f} ms")
print(f"server peak memory (VmHWM): {hwm / 2**20:.0f} MiB")
