"""Fixtures of the Python suite: the CLI binary to compare against (BATCHGEN_BIN, set by
tests/python.rs) and a helper that runs it."""

import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cli():
    """Run the batchgen binary with arguments; return the CompletedProcess."""
    binary = os.environ.get("BATCHGEN_BIN")
    if not binary:
        pytest.fail("BATCHGEN_BIN must name the batchgen binary (tests/python.rs sets it)")

    def run(*args, check=True):
        p = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"batchgen {' '.join(map(str, args))}: {p.stderr}")
        return p

    return run
