//! `--braid P` and `--ends diameter` on hex, triangle and polar grids: every row is the maze the
//! library makes, braided by the library's grid pass and measured by its graph metrics; braided
//! mazes keep every cell with `cells − 1 + loops` passages and fewer dead ends; and the metric
//! values on a hand-made braided hex maze are those of a brute-force computation (Floyd–Warshall
//! distances, every simple path enumerated).

use batchgen::rng::Chance;
use batchgen::topo::braid::{braid_seeded, BraidScratch};
use batchgen::topo::generate::{generate, GraphScratch};
use batchgen::topo::measure_graph::Scratch;
use batchgen::topo::{self, CellGraph, GraphEnds, GraphMaze, Grid, GridEnds, GridSize};
use batchgen::{Algorithm, Rng};

#[test]
fn braided_and_diameter_rows_are_the_library_mazes() {
    let dir = tempfile::tempdir().unwrap();
    for (grid, size_arg, size) in [
        ("hex", "9x7", GridSize::new(Grid::Hex, 9, 7)),
        ("triangle", "10x5", GridSize::new(Grid::Triangle, 10, 5)),
        ("polar", "5", GridSize::new(Grid::Polar, 5, 6)),
    ] {
        for (braid, diameter) in [("0.5", false), ("0.5", true), ("0", true), ("1", false)] {
            let mut args = vec![
                "--grid", grid, "--size", size_arg, "--count", "5", "--seed", "4", "--braid", braid,
            ];
            if diameter {
                args.extend(["--ends", "diameter"]);
            }
            let name = format!("{grid}-{braid}-{diameter}.parquet");
            let t = super::run_ok(dir.path(), &name, &args);
            assert_eq!(t.meta["batchgen.ends"].starts_with("diameter"), diameter);
            let g = CellGraph::new(size);
            let p: f64 = braid.parse().unwrap();
            let (mut gs, mut bs, mut ms) =
                (GraphScratch::new(), BraidScratch::new(), Scratch::new());
            let mut loops_seen = 0;
            for row in &t.rows {
                let cell = |c: &str| row[t.col(c)].clone();
                let algo = Algorithm::parse(&cell("algo")).unwrap();
                let index: u64 = cell("index").parse().unwrap();
                let seed = topo::maze_seed(4, &algo.name(), size, index);
                let mut maze = GraphMaze::new(&g);
                let mut rng = Rng::from_maze_seed(seed);
                generate(&algo, &g, &mut maze, &mut gs, &mut rng);
                let loops = braid_seeded(&g, &mut maze, Chance::new(p), seed, &mut bs);
                assert_eq!(maze.passages(), g.cells() as u64 - 1 + loops as u64);
                let ends = if diameter {
                    GridEnds::Diameter
                } else {
                    GridEnds::Cells(GraphEnds::corners(&g))
                };
                let m = topo::measure_maze(&g, &maze, ends, 0, &mut ms);
                let what = format!("{grid} {} {index} P {braid}", algo.name());
                for (col, want) in [
                    ("maze_hash", m.maze_hash.to_string()),
                    ("loops", loops.to_string()),
                    ("diameter", m.diameter.to_string()),
                    ("diameter_start", m.diameter_start.to_string()),
                    ("diameter_end", m.diameter_end.to_string()),
                    ("solution_length", m.solution_length.to_string()),
                    ("solution_count", m.solution_count.to_string()),
                    ("solution_turns", m.solution_turns.to_string()),
                    ("dead_ends", m.dead_ends.to_string()),
                    ("max_branch_cells", m.max_branch_cells.to_string()),
                ] {
                    assert_eq!(cell(col), want, "{what}: {col}");
                }
                assert_eq!(cell("braid").parse::<f64>().unwrap(), p, "{what}");
                if diameter {
                    assert_eq!(cell("solution_length"), cell("diameter"), "{what}");
                }
                loops_seen += (loops > 0) as u32;
            }
            assert_eq!(loops_seen > 0, p > 0.0, "{grid} P {braid}");
        }
    }
}

/// The cell pairs of a maze made by hand, as open edges of `g`.
fn maze_of(g: &CellGraph, pairs: &[(u32, u32)]) -> GraphMaze {
    let mut m = GraphMaze::new(g);
    for &(u, v) in pairs {
        let s = g
            .slots(u)
            .find(|&s| g.nbr(s) == v)
            .expect("neighbours on the grid");
        m.open(g.edge(s));
    }
    m
}

/// All-pairs distances by Floyd–Warshall over `adj` (`None`: unreachable).
fn floyd(n: usize, adj: &[(usize, usize)]) -> Vec<Vec<Option<u32>>> {
    let mut d = vec![vec![None; n]; n];
    for (i, row) in d.iter_mut().enumerate() {
        row[i] = Some(0);
    }
    for &(a, b) in adj {
        d[a][b] = Some(1);
        d[b][a] = Some(1);
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if let (Some(x), Some(y)) = (d[i][k], d[k][j]) {
                    if d[i][j].is_none_or(|z| x + y < z) {
                        d[i][j] = Some(x + y);
                    }
                }
            }
        }
    }
    d
}

/// Every simple path from `a` to `b` over `adj`.
fn simple_paths(adj: &[Vec<usize>], a: usize, b: usize) -> Vec<Vec<usize>> {
    fn go(adj: &[Vec<usize>], path: &mut Vec<usize>, b: usize, out: &mut Vec<Vec<usize>>) {
        let u = *path.last().unwrap();
        if u == b {
            out.push(path.clone());
            return;
        }
        for &v in &adj[u] {
            if !path.contains(&v) {
                path.push(v);
                go(adj, path, b, out);
                path.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(adj, &mut vec![a], b, &mut out);
    out
}

/// A 3×3 hex maze: the tree 0-1-2-5-8, 0-3-6-7, 3-4, with the loops 7-8 and 1-3 (cell 4 a dead end). Between
/// cells 0 and 5 the shortest path is 0-1-2-5 alone; between 0 and 8 there are two.
#[test]
fn a_hand_made_braided_hex_maze_measures_as_brute_force_says() {
    let g = CellGraph::new(GridSize::new(Grid::Hex, 3, 3));
    let pairs = [
        (0, 1),
        (1, 2),
        (2, 5),
        (5, 8),
        (0, 3),
        (3, 6),
        (6, 7),
        (3, 4),
        (7, 8),
        (1, 3),
    ];
    let m = maze_of(&g, &pairs);
    let n = 9;
    let edges: Vec<(usize, usize)> = pairs
        .iter()
        .map(|&(a, b)| (a as usize, b as usize))
        .collect();
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in &edges {
        adj[a].push(b);
        adj[b].push(a);
    }
    let d = floyd(n, &edges);
    let all_grid: Vec<(usize, usize)> = (0..g.edges())
        .map(|e| {
            let [a, b] = g.ends(e);
            (a as usize, b as usize)
        })
        .collect();
    let open_grid = floyd(n, &all_grid);
    let mut s = Scratch::new();
    for exit in [5usize, 8] {
        let got = topo::measure_maze(
            &g,
            &m,
            GridEnds::Cells(GraphEnds::new(&g, 0, exit as u32)),
            0,
            &mut s,
        );
        let diameter = (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .map(|(a, b)| d[a][b].unwrap())
            .max()
            .unwrap();
        let paths = simple_paths(&adj, 0, exit);
        let length = paths.iter().map(|p| p.len() - 1).min().unwrap();
        let shortest: Vec<&Vec<usize>> = paths.iter().filter(|p| p.len() - 1 == length).collect();
        let deg: Vec<usize> = adj.iter().map(|a| a.len()).collect();
        assert_eq!(got.loops, 2);
        assert_eq!(got.diameter, diameter);
        assert_eq!(
            d[got.diameter_start as usize][got.diameter_end as usize],
            Some(diameter)
        );
        assert_eq!(got.solution_length as usize, length);
        assert_eq!(got.solution_count as usize, shortest.len());
        assert_eq!(
            got.dead_ends as usize,
            deg.iter().filter(|&&k| k == 1).count()
        );
        assert_eq!(
            got.corridors as usize,
            deg.iter().filter(|&&k| k == 2).count()
        );
        assert_eq!(
            got.junctions as usize,
            deg.iter().filter(|&&k| k >= 3).count()
        );
        assert_eq!(
            got.tortuosity,
            length as f64 / open_grid[0][exit].unwrap() as f64
        );
        assert_eq!(got.walk_steps, 0);
        if exit == 8 {
            assert_eq!(shortest.len(), 2);
            continue;
        }
        // One shortest path: the canonical one; the columns along it.
        let path = shortest[0];
        assert_eq!(path, &vec![0, 1, 2, 5]);
        let dir = |a: usize, b: usize| {
            let s = g.slots(a as u32).find(|&s| g.nbr(s) == b as u32).unwrap();
            g.dir(s)
        };
        let turns = path
            .windows(3)
            .filter(|w| dir(w[0], w[1]) != dir(w[1], w[2]))
            .count();
        assert_eq!(got.solution_turns as usize, turns);
        let off: Vec<usize> = path[..path.len() - 1]
            .iter()
            .enumerate()
            .map(|(i, &c)| deg[c] - if i == 0 { 1 } else { 2 })
            .collect();
        assert_eq!(
            got.solution_decisions as usize,
            off.iter().filter(|&&k| k > 0).count()
        );
        assert_eq!(got.solution_branches as usize, off.iter().sum::<usize>());
        // Branches: the maze without the path's cells; parts touching a path cell but the exit.
        let on_path = |c: usize| path.contains(&c);
        let rest: Vec<(usize, usize)> = edges
            .iter()
            .copied()
            .filter(|&(a, b)| !on_path(a) && !on_path(b))
            .collect();
        let dr = floyd(n, &rest);
        let touching: Vec<usize> = (0..n)
            .filter(|&c| !on_path(c))
            .filter(|&c| {
                (0..n).any(|x| {
                    dr[c][x].is_some()
                        && adj[x].iter().any(|&p| on_path(p) && p != exit)
                        && !on_path(x)
                })
            })
            .collect();
        let part = |c: usize| touching.iter().filter(|&&x| dr[c][x].is_some()).count();
        let cells = touching.iter().map(|&c| part(c)).max().unwrap_or(0);
        assert_eq!(got.max_branch_cells as usize, cells);
        // Depth: distance to the path but the exit, in the maze without the exit.
        let no_exit: Vec<(usize, usize)> = edges
            .iter()
            .copied()
            .filter(|&(a, b)| a != exit && b != exit)
            .collect();
        let dx = floyd(n, &no_exit);
        let depth = touching
            .iter()
            .map(|&c| {
                path[..path.len() - 1]
                    .iter()
                    .filter_map(|&p| dx[c][p])
                    .min()
                    .unwrap()
            })
            .max()
            .unwrap_or(0);
        assert_eq!(got.max_branch_depth, depth);
        // Dead ends' forced walks to the first cell that is not a corridor.
        let mut walk = 0;
        for c in (0..n).filter(|&c| deg[c] == 1) {
            let (mut prev, mut u) = (c, adj[c][0]);
            walk += 1;
            while deg[u] == 2 {
                let next = if adj[u][0] != prev {
                    adj[u][0]
                } else {
                    adj[u][1]
                };
                (prev, u) = (u, next);
                walk += 1;
            }
        }
        let dead = deg.iter().filter(|&&k| k == 1).count();
        assert_eq!(got.mean_dead_end_length, walk as f64 / dead as f64);
    }
    // The diameter rule: a farthest pair, the solution between them.
    let got = topo::measure_maze(&g, &m, GridEnds::Diameter, 0, &mut s);
    let (a, b) = (got.diameter_start as usize, got.diameter_end as usize);
    assert_eq!(d[a][b], Some(got.diameter));
    assert_eq!(got.solution_length, got.diameter);
}

/// A braided grid run's maze store reads back each record as the row's braided maze (checked
/// against its `maze_hash` and loops), with the row's ends under `--ends diameter`; the level of
/// a row's identifiers (`LevelSpec` on the grid, braided) is the row's maze and metrics.
#[test]
fn braided_grid_mazes_round_trip_through_the_store_and_levels() {
    use batchgen::metrics::Ends;
    use batchgen::{LevelSpec, Size};
    let dir = tempfile::tempdir().unwrap();
    for (grid, size_arg, size) in [
        ("hex", "8x6", GridSize::new(Grid::Hex, 8, 6)),
        ("polar", "4", GridSize::new(Grid::Polar, 4, 6)),
    ] {
        for diameter in [false, true] {
            let store = dir.path().join(format!("{grid}-{diameter}.arrow"));
            let mut args = vec![
                "--grid",
                grid,
                "--size",
                size_arg,
                "--algo",
                "wilson,backtracker",
                "--count",
                "4",
                "--seed",
                "2",
                "--braid",
                "0.5",
                "--mazes",
                store.to_str().unwrap(),
            ];
            if diameter {
                args.extend(["--ends", "diameter"]);
            }
            let t = super::run_ok(dir.path(), &format!("{grid}-{diameter}.parquet"), &args);
            let r = batchgen::store::StoreReader::open(&store).unwrap();
            assert_eq!(r.braid(), Some(0.5));
            let g = r.grid().unwrap();
            let mut with_loops = 0;
            for (k, row) in t.rows.iter().enumerate() {
                let cell = |c: &str| row[t.col(c)].clone();
                let rec = r.record(k as u64).unwrap();
                let maze = r.graph_maze(k as u64).unwrap();
                assert_eq!(maze.hash(size).to_string(), cell("maze_hash"));
                assert_eq!(rec.loops.to_string(), cell("loops"));
                let (entrance, exit) = if diameter {
                    (cell("diameter_start"), cell("diameter_end"))
                } else {
                    let (a, b) = g.corners();
                    (a.to_string(), b.to_string())
                };
                assert_eq!(
                    (rec.entrance.to_string(), rec.exit.to_string()),
                    (entrance, exit)
                );
                with_loops += (rec.loops > 0) as u32;
                let algo = Algorithm::parse(&cell("algo")).unwrap();
                let index: u64 = cell("index").parse().unwrap();
                let mut spec = LevelSpec::new(algo, Size::planar(size.a, size.b), 2, index)
                    .on_grid(size.grid)
                    .braid(0.5);
                if diameter {
                    spec = spec.ends(Ends::Diameter);
                }
                let level = spec.build().unwrap();
                assert_eq!(level.graph_maze(), Some(&maze), "{grid} record {k}");
                let m = level.metrics();
                for (col, got) in [
                    ("loops", m.loops.to_string()),
                    ("diameter", m.diameter.to_string()),
                    ("solution_length", m.solution_length.to_string()),
                    ("solution_count", m.solution_count.to_string()),
                    ("solution_turns", m.solution_turns.to_string()),
                    ("max_branch_depth", m.max_branch_depth.to_string()),
                ] {
                    assert_eq!(got, cell(col), "{grid} record {k}: {col}");
                }
                assert_eq!(m.braid, 0.5);
                assert_eq!(level.solution().len() as u32, m.solution_length + 1);
            }
            assert!(with_loops > 0);
        }
    }
}

#[test]
fn render_draws_braided_grid_mazes_between_their_ends() {
    use batchgen::metrics::Ends;
    use batchgen::{LevelSpec, Size};
    let dir = tempfile::tempdir().unwrap();
    for (grid, size_arg, size) in [
        ("hex", "7x5", GridSize::new(Grid::Hex, 7, 5)),
        ("triangle", "8x4", GridSize::new(Grid::Triangle, 8, 4)),
        ("polar", "4", GridSize::new(Grid::Polar, 4, 6)),
    ] {
        for diameter in [false, true] {
            let out = dir.path().join(format!("{grid}-{diameter}.svg"));
            let mut args = vec![
                "render",
                "--grid",
                grid,
                "--size",
                size_arg,
                "--algo",
                "kruskal",
                "--index",
                "3",
                "--seed",
                "5",
                "--braid",
                "0.5",
                "--solution",
                "-o",
            ];
            args.push(out.to_str().unwrap());
            if diameter {
                args.extend(["--ends", "diameter"]);
            }
            let o = crate::common::batchgen().args(&args).output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let mut spec = LevelSpec::new(
                Algorithm::parse("kruskal").unwrap(),
                Size::planar(size.a, size.b),
                5,
                3,
            )
            .on_grid(size.grid)
            .braid(0.5);
            if diameter {
                spec = spec.ends(Ends::Diameter);
            }
            let level = spec.build().unwrap();
            assert!(
                level.metrics().loops > 0,
                "{grid}: the braid opened no loop"
            );
            let want = batchgen::render::polygon::svg(
                level.graph().unwrap(),
                level.graph_maze().unwrap(),
                Some(level.solution()),
                (level.entrance(), level.exit()),
                16,
            );
            assert_eq!(
                std::fs::read_to_string(&out).unwrap(),
                want,
                "{grid} {diameter}"
            );
        }
        // The diameter rule takes no cells beside it (cells as ends: `grids::ends`).
        let o = crate::common::batchgen()
            .args([
                "render", "--grid", grid, "--size", size_arg, "--algo", "kruskal",
            ])
            .args([
                "--index",
                "0",
                "--ends",
                "diameter",
                "--entrance",
                "0,0",
                "-o",
            ])
            .arg(dir.path().join("no.svg"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--ends diameter") && err.contains("--entrance"),
            "{err}"
        );
        assert!(!dir.path().join("no.svg").exists());
    }
}
