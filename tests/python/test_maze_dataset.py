"""maze-dataset interop: its LatticeMaze takes every generator's connection_list, its
shortest path between our ends is our solution, and its degrees count our dead ends."""

import numpy as np
import pytest
from maze_dataset import LatticeMaze

import batchgen


@pytest.mark.parametrize("algo", batchgen.ALGORITHMS)
def test_lattice_maze_agrees_with_our_metrics(algo):
    for index in range(6):
        for ends in (None, "diameter"):
            level = batchgen.Level(algo, (11, 7), 2026, index, ends=ends)
            m = level.metrics
            maze = LatticeMaze(connection_list=level.connection_list)
            coords = level.solution_coords
            path = maze.find_shortest_path(tuple(coords[0]), tuple(coords[-1]))
            assert len(path) - 1 == m["solution_length"]
            # A perfect maze has one path between two cells: the same cells, in order.
            assert np.array_equal(np.asarray(path), coords)
            degrees = maze.coord_degrees()
            assert degrees.shape == (7, 11)
            assert int((degrees == 1).sum()) == m["dead_ends"]
            assert int((degrees >= 3).sum()) == m["junctions"]
