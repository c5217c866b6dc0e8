import sys

import numpy as np
import pyarrow.parquet as pq
from maze_dataset import SolvedMaze
from maze_dataset.tokenization import MazeTokenizer, TokenizationMode

tokenizer = MazeTokenizer(tokenization_mode=TokenizationMode.AOTP_UT_uniform)
rows = pq.read_table(sys.argv[1]).to_pylist()  # one file of data/
for row in rows:
    h, w = row["height"], row["width"]
    maze = SolvedMaze(
        connection_list=np.array(row["connection_list"]).reshape(2, h, w),
        solution=np.array(row["solution"]),
    )
    np.random.seed(row["token_seed"])
    assert maze.as_tokens(tokenizer) == row["tokens"].split(" ")
print(f"{len(rows)} rows: tokens equal maze-dataset's")
