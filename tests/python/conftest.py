"""The Python package's tests run against the build's module (PYTHONPATH=BUILD/python, set by
ctest) and compare it with the build's binary (SHUFL_BINARY)."""

import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def shufl_cli():
    binary = os.environ.get("SHUFL_BINARY")
    if not binary:
        pytest.skip("SHUFL_BINARY not set (run through ctest)")

    def run(*args, input=None, check=True):
        p = subprocess.run([binary, *args], input=input, capture_output=True, text=True)
        if check and p.returncode not in (0, 3):
            raise AssertionError(f"shufl {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return p

    return run
