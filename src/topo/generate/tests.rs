//! Every generator on every grid makes a spanning tree, from the one-cell grid upward and on
//! masks; the refusals name the generator and the grid; golden hashes pin the mazes.

use super::*;
use crate::topo::{maze_seed, GridSize};
use crate::Rng;

/// Every generator that runs on `grid`, parameterised variants included.
fn generators(grid: Grid) -> Vec<Algorithm> {
    let mut v = on_grid(grid);
    for s in [
        "growing-tree:newest",
        "growing-tree:oldest",
        "growing-tree:random",
        "growing-tree:mix:0.25",
        "wilson-straight:0.9",
        "wilson-turn:1",
    ] {
        let a = Algorithm::parse(s).unwrap();
        if check(&a, grid).is_ok() {
            v.push(a);
        }
    }
    v
}

fn sizes(grid: Grid) -> Vec<GridSize> {
    match grid {
        Grid::Polar => [1, 2, 3, 4, 6]
            .iter()
            .flat_map(|&r| {
                // A first ring of 12: a centre with more than 8 neighbours.
                [6, 3, 12].map(|c| GridSize::new(grid, r, c))
            })
            .collect(),
        _ => (1..=5)
            .flat_map(|w| [1, 2, 3, 6].map(|h| GridSize::new(grid, w, h)))
            .filter(|s| GridSize::parse(grid, &format!("{}x{}", s.a, s.b)).is_ok())
            .collect(),
    }
}

fn make(algo: &Algorithm, g: &CellGraph, index: u64) -> GraphMaze {
    let mut maze = GraphMaze::new(g);
    let mut s = GraphScratch::new();
    let mut rng = Rng::from_maze_seed(maze_seed(42, &algo.name(), g.size(), index));
    generate(algo, g, &mut maze, &mut s, &mut rng);
    maze
}

#[test]
fn every_generator_makes_a_spanning_tree_on_every_grid() {
    for grid in [Grid::Hex, Grid::Triangle, Grid::Polar] {
        for size in sizes(grid) {
            let g = CellGraph::new(size);
            for algo in generators(grid) {
                // One scratch for many mazes: buffers are reused, never stale.
                let mut maze = GraphMaze::new(&g);
                let mut s = GraphScratch::new();
                for index in 0..20 {
                    let mut rng = Rng::from_maze_seed(maze_seed(7, &algo.name(), size, index));
                    generate(&algo, &g, &mut maze, &mut s, &mut rng);
                    assert!(
                        maze.is_spanning_tree(&g),
                        "{} on {grid} {size} index {index}",
                        algo.name()
                    );
                }
            }
        }
    }
}

#[test]
fn every_generator_fills_a_mask() {
    // A ring of cells with a hole, and a plus shape.
    let ring = |w: u32, h: u32| -> Vec<bool> {
        (0..w * h)
            .map(|c| {
                let (x, y) = (c % w, c / w);
                !(x > 1 && x + 2 < w && y > 1 && y + 2 < h)
            })
            .collect()
    };
    for grid in [Grid::Hex, Grid::Triangle] {
        for (w, h) in [(6, 6), (7, 5), (8, 9)] {
            let g = CellGraph::masked(GridSize::new(grid, w, h), w, h, &ring(w, h)).unwrap();
            assert!(g.cells() < w * h);
            for algo in generators(grid) {
                for index in 0..10 {
                    let m = make(&algo, &g, index);
                    assert!(m.is_spanning_tree(&g), "{} {grid} {w}x{h}", algo.name());
                    // No passage touches a hole.
                    for e in 0..g.edges() {
                        let [a, b] = g.ends(e);
                        assert!(g.has_cell(a) && g.has_cell(b));
                    }
                }
            }
        }
    }
}

#[test]
fn refusals_name_the_generator_and_the_grid() {
    let on = |s: &str, grid| check(&Algorithm::parse(s).unwrap(), grid);
    for s in ["eller", "recursive-division", "fractal"] {
        for grid in [Grid::Hex, Grid::Triangle, Grid::Polar] {
            let e = on(s, grid).unwrap_err();
            assert!(e.contains(s) && e.contains(grid.name()), "{e}");
        }
    }
    for s in ["wilson-straight:0.5", "wilson-turn:0.5"] {
        assert!(on(s, Grid::Hex).is_ok());
        for grid in [Grid::Triangle, Grid::Polar] {
            let e = on(s, grid).unwrap_err();
            assert!(e.contains(s) && e.contains(grid.name()), "{e}");
        }
    }
    for s in ["binary-tree", "sidewinder"] {
        assert!(on(s, Grid::Polar).is_ok());
        assert!(on(s, Grid::Hex).unwrap_err().contains("hex"));
    }
    let hex: Vec<String> = on_grid(Grid::Hex).iter().map(|a| a.name()).collect();
    assert_eq!(
        hex,
        [
            "backtracker",
            "kruskal",
            "wilson",
            "aldous-broder",
            "wilson-straight:0.5",
            "wilson-turn:0.5",
            "prim",
            "growing-tree:mix:0.5",
            "hunt-and-kill"
        ]
    );
    for a in Algorithm::all() {
        assert!(check(&a, Grid::Square).is_ok());
    }
}

/// The neighbour-mask forms of backtracker, growing tree and hunt-and-kill (cells of at most 8
/// neighbours) make the same mazes, from the same draws, as their scans of the neighbours'
/// marks (which any degree takes).
#[test]
fn neighbour_masks_make_the_scans_mazes() {
    let ring: Vec<bool> = (0..48).map(|c| c % 8 != 3 || c / 8 == 5).collect();
    let graphs = [
        CellGraph::new(GridSize::new(Grid::Hex, 9, 7)),
        CellGraph::new(GridSize::new(Grid::Hex, 1, 1)),
        CellGraph::new(GridSize::new(Grid::Triangle, 10, 6)),
        CellGraph::new(GridSize::new(Grid::Polar, 6, 6)),
        CellGraph::new(GridSize::new(Grid::Polar, 5, 3)),
        // Centres of 7 and 8 neighbours (8 is the most the masks hold).
        CellGraph::new(GridSize::new(Grid::Polar, 4, 7)),
        CellGraph::new(GridSize::new(Grid::Polar, 4, 8)),
        CellGraph::masked(GridSize::new(Grid::Hex, 8, 6), 8, 6, &ring).unwrap(),
    ];
    let policies = ["newest", "oldest", "random", "mix:0.5"].map(|p| {
        match Algorithm::parse(&format!("growing-tree:{p}")).unwrap() {
            Algorithm::GrowingTree(p) => p,
            _ => unreachable!(),
        }
    });
    type Gen<'a> = &'a dyn Fn(&mut GraphMaze, &mut GraphScratch, &mut Rng);
    let same = |g: &CellGraph, name: &str, fast: Gen, slow: Gen| {
        let mut s = GraphScratch::new();
        for index in 0..10 {
            let mut mazes = [GraphMaze::new(g), GraphMaze::new(g)];
            let mut rngs = [Rng::from_maze_seed(index), Rng::from_maze_seed(index)];
            fast(&mut mazes[0], &mut s, &mut rngs[0]);
            slow(&mut mazes[1], &mut s, &mut rngs[1]);
            assert_eq!(mazes[0], mazes[1], "{name} on {} index {index}", g.size());
            assert!(mazes[0].is_spanning_tree(g));
            assert_eq!(
                rngs[0].next_u32(),
                rngs[1].next_u32(),
                "{name}: the same draws"
            );
        }
    };
    for g in &graphs {
        assert!(g.full_masks().is_some());
        same(
            g,
            "backtracker",
            &|m, s, r| backtracker::generate(g, m, s, r),
            &|m, s, r| backtracker::scan(g, m, s, r),
        );
        same(
            g,
            "hunt-and-kill",
            &|m, s, r| hunt_and_kill::generate(g, m, s, r),
            &|m, s, r| hunt_and_kill::scan(g, m, s, r),
        );
        for p in policies {
            same(
                g,
                &format!("growing-tree {p:?}"),
                &|m, s, r| growing_tree::generate(g, m, s, r, p),
                &|m, s, r| growing_tree::scan(g, m, s, r, p),
            );
        }
    }
    let big = CellGraph::new(GridSize::new(Grid::Polar, 3, 12));
    assert!(big.full_masks().is_none());
}

/// [`generate_pair`] makes, for every generator on every grid (masks and a cell of more than 8
/// neighbours included), exactly the two mazes [`generate`] makes one by one, from the same
/// draws of each source, with buffers reused across pairs.
#[test]
fn pairs_make_the_single_mazes() {
    let ring: Vec<bool> = (0..48).map(|c| c % 8 != 3 || c / 8 == 5).collect();
    let mut graphs = vec![
        CellGraph::masked(GridSize::new(Grid::Hex, 8, 6), 8, 6, &ring).unwrap(),
        CellGraph::masked(GridSize::new(Grid::Triangle, 8, 6), 8, 6, &ring).unwrap(),
        CellGraph::new(GridSize::new(Grid::Polar, 3, 12)),
    ];
    for grid in [Grid::Hex, Grid::Triangle, Grid::Polar] {
        graphs.extend(sizes(grid).into_iter().map(CellGraph::new));
    }
    for g in &graphs {
        for algo in generators(g.size().grid) {
            let (mut sa, mut sb) = (GraphScratch::new(), GraphScratch::new());
            let mut pair = [GraphMaze::new(g), GraphMaze::new(g)];
            for index in 0..6 {
                let seeds = [index, index + 1].map(|i| maze_seed(7, &algo.name(), g.size(), i));
                let [ma, mb] = &mut pair;
                let (mut ra, mut rb) =
                    (Rng::from_maze_seed(seeds[0]), Rng::from_maze_seed(seeds[1]));
                generate_pair(&algo, g, (ma, &mut sa, &mut ra), (mb, &mut sb, &mut rb));
                for (k, m) in pair.iter().enumerate() {
                    let mut one = GraphMaze::new(g);
                    let mut rng = Rng::from_maze_seed(seeds[k]);
                    generate(&algo, g, &mut one, &mut GraphScratch::new(), &mut rng);
                    let name = algo.name();
                    assert_eq!(*m, one, "{name} on {} index {index}, maze {k}", g.size());
                    let rest = if k == 0 { &mut ra } else { &mut rb };
                    assert_eq!(rest.next_u64(), rng.next_u64(), "{name}: the same draws");
                }
            }
        }
    }
}

/// The hash of maze 0..3 of every generator on one size of each grid: a change that alters a
/// maze fails here (bless by pasting the printed table after checking why it changed).
#[test]
fn golden_hashes() {
    let mut got = String::new();
    for size in [
        GridSize::new(Grid::Hex, 9, 7),
        GridSize::new(Grid::Triangle, 10, 6),
        GridSize::new(Grid::Polar, 6, 6),
    ] {
        let g = CellGraph::new(size);
        for algo in generators(size.grid) {
            let hs: Vec<String> = (0..3)
                .map(|i| format!("{:016x}", make(&algo, &g, i).hash(size)))
                .collect();
            got += &format!("{} {size} {} {}\n", size.grid, algo.name(), hs.join(" "));
        }
    }
    let want = include_str!("golden.txt");
    assert_eq!(got, want, "golden hashes changed; new table:\n{got}");
}
