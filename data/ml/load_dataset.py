import sys

import datasets
import polars as pl

folder = sys.argv[1]  # the --out folder of batchgen dataset-ml
ds = datasets.load_dataset("parquet", data_dir=folder)  # DatasetDict: train, validation, test
train = pl.scan_parquet(f"{folder}/data/train-*.parquet")
print({split: ds[split].num_rows for split in ds}, train.select(pl.len()).collect().item())
