"""Run one batchgen job as N shard tasks on a Dask cluster, one `--shard K/N` per task.

    python data/cluster/dask_shards.py --shards 16 [--workers 4 | --scheduler tcp://HOST:8786] \
        -- batchgen --algo all --size 64x64 --count 1000000 --quiet --out /shared/mazes/

Everything after `--` is the batchgen command line; task K runs it with `--shard K/N` appended
in a Dask worker process (`subprocess`, so the workers need the batchgen binary and the output
folder, e.g. a shared file system). Without --scheduler a LocalCluster with --workers separate
worker processes (one thread each) is started here and stopped at the end. A task that fails
is reported with its stderr and the script exits 1; re-running the same command re-makes every
shard (each overwrites only its own file); `batchgen check DIR` names the shards still missing.
"""

import argparse
import os
import socket
import subprocess
import sys


def run_shard(cmd, k, n):
    """One task: batchgen with --shard k/n, in this worker process."""
    p = subprocess.run(cmd + ["--shard", f"{k}/{n}"], capture_output=True, text=True)
    return {
        "shard": f"{k}/{n}",
        "code": p.returncode,
        "stderr": p.stderr,
        "pid": os.getpid(),
        "host": socket.gethostname(),
    }


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("usage: dask_shards.py --shards N [--workers W | --scheduler ADDR] -- batchgen ...")
    cut = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shards", type=int, required=True, help="N: the number of shard tasks")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler instead")
    args = ap.parse_args(argv[:cut])
    cmd = argv[cut + 1 :]
    if args.shards < 1 or not cmd:
        ap.error("need --shards N >= 1 and a batchgen command after --")

    from dask.distributed import Client, LocalCluster

    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        client = Client(cluster)
        client.wait_for_workers(args.workers, timeout=120)
    try:
        n = args.shards
        futures = [
            client.submit(run_shard, cmd, k, n, key=f"batchgen-shard-{k}-of-{n}", pure=False)
            for k in range(1, n + 1)
        ]
        results = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    print(f"client pid {os.getpid()}")
    for r in results:
        print(f"shard {r['shard']}: exit {r['code']} on {r['host']} worker pid {r['pid']}")
    failed = [r for r in results if r["code"] != 0]
    for r in failed:
        print(f"shard {r['shard']} failed:\n{r['stderr']}", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
