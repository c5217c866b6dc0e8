#!/usr/bin/env python3
"""How many random-walk steps per cell Aldous-Broder and Wilson take on each grid of
benches/grids.sh (64x64 square, hex and triangle grids, a 36-ring polar grid), by simulation
on the grids' neighbour rules (src/topo/README.md) with a fixed seed: the walks' lengths are a
property of the graph, not of the code, so a walk generator's ns per cell on a grid, divided by
these steps, is its cost per step. Wilson's root is the generators' own: the middle cell
(32, 32) on the square grid, the middle id of the graph's cells on the others (src/topo/
generate/wilson.rs); the column "central" has the root at the cell nearest the grid's centre
instead (the centre cell on the polar grid). Pure Python, no packages.

    python3 benches/walk_steps.py [MAZES]   (default 20; each row's SE is over the mazes)
"""
import math
import random
import sys
import time

W = H = 64

def square(w, h):
    adj = []
    for y in range(h):
        for x in range(w):
            n = []
            for nx, ny in ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)):
                if 0 <= nx < w and 0 <= ny < h:
                    n.append(ny * w + nx)
            adj.append(tuple(n))
    return adj

def hexgrid(w, h):
    adj = []
    for y in range(h):
        for x in range(w):
            if y % 2 == 0:
                cand = [(x + 1, y), (x, y + 1), (x - 1, y + 1), (x - 1, y), (x - 1, y - 1), (x, y - 1)]
            else:
                cand = [(x + 1, y), (x + 1, y + 1), (x, y + 1), (x - 1, y), (x, y - 1), (x + 1, y - 1)]
            adj.append(tuple(ny * w + nx for nx, ny in cand if 0 <= nx < w and 0 <= ny < h))
    return adj

def triangle(w, h):
    adj = []
    for y in range(h):
        for x in range(w):
            up = (x + y) % 2 == 0
            cand = [(x + 1, y)]
            if up:
                cand.append((x, y + 1))
            cand.append((x - 1, y))
            if not up:
                cand.append((x, y - 1))
            adj.append(tuple(ny * w + nx for nx, ny in cand if 0 <= nx < w and 0 <= ny < h))
    return adj

def polar_counts(rings, first=6):
    # src/topo/polar.rs ring_counts: ratio(r) = max(1, round(2*pi*r/prev)), round half away from 0
    counts, prev = [], 1
    for r in range(rings):
        if r == 0:
            c = 1
        elif r == 1:
            c = first
        else:
            x = 2 * math.pi * r / prev
            assert abs(x - math.floor(x) - 0.5) > 1e-6
            c = prev * max(1, int(math.floor(x + 0.5)))
        counts.append(c)
        prev = c
    return counts

def polar(rings, first=6):
    # src/topo/graph.rs neighbours_of, Grid::Polar
    counts = polar_counts(rings, first)
    start = [0]
    for c in counts:
        start.append(start[-1] + c)
    adj = []
    for r, n in enumerate(counts):
        for i in range(n):
            nb = []
            if n >= 3:
                nb.append(start[r] + (i + 1) % n)               # clockwise
            if r + 1 < len(counts):
                k = counts[r + 1] // n
                nb.extend(start[r + 1] + i * k + j for j in range(k))  # outward
            if n >= 3:
                nb.append(start[r] + (i + n - 1) % n)           # counter-clockwise
            if r >= 1:
                k = n // counts[r - 1]
                nb.append(start[r - 1] + i // k)                # inward
            adj.append(tuple(nb))
    return adj, counts

def check(adj):
    n = len(adj)
    for c, nb in enumerate(adj):
        assert len(set(nb)) == len(nb)
        for v in nb:
            assert 0 <= v < n and c in adj[v], (c, v)
    seen = [False] * n
    seen[0] = True
    st = [0]
    while st:
        u = st.pop()
        for v in adj[u]:
            if not seen[v]:
                seen[v] = True
                st.append(v)
    assert all(seen)

def aldous_broder(adj, rng):
    n = len(adj)
    rand = rng.random
    visited = bytearray(n)
    c = int(rand() * n)
    visited[c] = 1
    left = n - 1
    steps = 0
    while left:
        nb = adj[c]
        c = nb[int(rand() * len(nb))]
        steps += 1
        if not visited[c]:
            visited[c] = 1
            left -= 1
    return steps

def wilson(adj, rng, root):
    n = len(adj)
    rand = rng.random
    intree = bytearray(n)
    nxt = [-1] * n
    intree[root] = 1
    steps = 0
    for u in range(n):
        if intree[u]:
            continue
        # random walk from u, remembering the last exit from each cell
        # (following nxt from u afterwards gives the loop-erased path)
        c = u
        while not intree[c]:
            nb = adj[c]
            v = nb[int(rand() * len(nb))]
            nxt[c] = v
            c = v
            steps += 1
        c = u
        while not intree[c]:
            intree[c] = 1
            c = nxt[c]
    return steps

def stats(xs):
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, math.sqrt(var / len(xs))

def main():
    mazes = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rng = random.Random(12345)
    padj, pcounts = polar(36)
    # 36 rings of the polar rule: 3,931 cells.
    assert len(padj) == sum(pcounts) == 3931, len(padj)
    mid = (H // 2) * W + W // 2
    # (name, graph, the generator's root, the central root)
    grids = [("square 64x64", square(W, H), mid, mid),
             ("hex 64x64", hexgrid(W, H), W * H // 2, mid),
             ("triangle 64x64", triangle(W, H), W * H // 2, mid),
             ("polar 36 rings", padj, len(padj) // 2, 0)]
    print("polar ring counts:", pcounts, "total", sum(pcounts), flush=True)
    res = []
    for name, adj, root, centre in grids:
        check(adj)
        n = len(adj)
        t0 = time.time()
        ab = [aldous_broder(adj, rng) / n for _ in range(mazes)]
        t1 = time.time()
        wi = [wilson(adj, rng, root) / n for _ in range(mazes)]
        wc = [wilson(adj, rng, centre) / n for _ in range(mazes)]
        t2 = time.time()
        degs = [len(a) for a in adj]
        print(f"# {name}: cells {n}, mean degree {sum(degs)/n:.3f}, "
              f"AB {t1-t0:.1f}s, Wilson {t2-t1:.1f}s", file=sys.stderr)
        res.append((name, n, stats(ab), stats(wi), stats(wc)))
    (sq_ab, sq_abse), (sq_wi, sq_wise) = res[0][2], res[0][3]

    def ratio(m, se, m0, se0):
        # independent samples; delta-method SE (0 for the square row itself)
        r = m / m0
        if m is m0:
            return r, 0.0
        return r, r * math.sqrt((se / m) ** 2 + (se0 / m0) ** 2)

    print(f"mazes per grid per algorithm: {mazes}, seed random.Random(12345)")
    hdr = (f"{'grid':<16}{'cells':>6}  {'AB steps/cell (SE)':>22}  {'Wilson steps/cell (SE)':>24}"
           f"  {'AB/sq (SE)':>14}  {'Wil/sq (SE)':>14}  {'central (SE)':>16}")
    print(hdr)
    print("-" * len(hdr))
    for name, n, (am, ase), (wm, wse), (cm, cse) in res:
        ra, rase = ratio(am, ase, sq_ab, sq_abse)
        rw, rwse = ratio(wm, wse, sq_wi, sq_wise)
        print(f"{name:<16}{n:>6}  {am:>12.2f} ({ase:>6.2f})  {wm:>14.3f} ({wse:>6.3f})  "
              f"{ra:>6.3f} ({rase:.3f})  {rw:>6.3f} ({rwse:.3f})  {cm:>8.3f} ({cse:.3f})")

if __name__ == "__main__":
    main()
