# The seed study's script, verbatim from the sampling-bias study this project grew from: the
# Python baseline that benches/python_seed.sh runs; do not edit its code (the comparison is
# against this code).

# Texture of 20x20 mazes from three generators: share of dead ends, diameter (longest shortest
# path, counted in edges) and wall-clock time. Numbers describe this grid size and sample
# size only; they are not fixed properties of the algorithms.
import random, time

random.seed(42)
W = H = 20
CELLS = [(x, y) for x in range(W) for y in range(H)]

def nbrs(c):
    x, y = c
    return [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if 0 <= x + dx < W and 0 <= y + dy < H]

def link(adj, a, b):
    adj[a].add(b); adj[b].add(a)

def backtracker():
    adj = {c: set() for c in CELLS}
    stack, seen = [(0, 0)], {(0, 0)}
    while stack:
        c = stack[-1]
        options = [n for n in nbrs(c) if n not in seen]
        if not options:
            stack.pop(); continue
        n = random.choice(options)
        link(adj, c, n); seen.add(n); stack.append(n)
    return adj

def kruskal():
    adj = {c: set() for c in CELLS}
    parent = {c: c for c in CELLS}
    def find(c):
        while parent[c] != c:
            parent[c] = parent[parent[c]]; c = parent[c]
        return c
    edges = [(a, b) for a in CELLS for b in nbrs(a) if a < b]
    random.shuffle(edges)
    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb; link(adj, a, b)
    return adj

def wilson():
    adj = {c: set() for c in CELLS}
    in_tree = {(0, 0)}
    while len(in_tree) < len(CELLS):
        c = random.choice([x for x in CELLS if x not in in_tree])
        path = [c]
        while c not in in_tree:
            c = random.choice(nbrs(c))
            if c in path:
                path = path[:path.index(c) + 1]
            else:
                path.append(c)
        for a, b in zip(path, path[1:]):
            link(adj, a, b); in_tree.add(a)
    return adj

def farthest(adj, start):
    dist = {start: 0}
    queue = [start]
    for c in queue:
        for n in adj[c]:
            if n not in dist:
                dist[n] = dist[c] + 1; queue.append(n)
    far = max(dist, key=dist.get)
    return far, dist[far]

RUNS = 200
print(f"20x20, {RUNS} mazes each")
for name, gen in (("recursive backtracker", backtracker), ("Kruskal", kruskal), ("Wilson", wilson)):
    dead = diameter = 0.0
    t0 = time.perf_counter()
    mazes = [gen() for _ in range(RUNS)]
    elapsed = (time.perf_counter() - t0) / RUNS * 1000
    for adj in mazes:
        dead += sum(len(v) == 1 for v in adj.values()) / len(CELLS)
        a, _ = farthest(adj, (0, 0))
        diameter += farthest(adj, a)[1]
    print(f"{name:22s} dead ends={dead / RUNS * 100:5.1f}%  mean diameter={diameter / RUNS:6.1f} edges  ({elapsed:5.1f} ms per maze)")
