"""The Python package's tests run against the build's module (PYTHONPATH=BUILD/python, set by
ctest) and compare it with the build's binary (SHUFL_BINARY)."""

import os
import signal
import subprocess
import sys
import time

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


# A child Python that runs SETUP, prints "start", then RUN, and says how RUN ended.
_INTERRUPT_CHILD = r"""
import time
import numpy as np
import shufl
SETUP
print("start", flush=True)
t = time.monotonic()
try:
    RUN
    print("finished", flush=True)
except KeyboardInterrupt:
    print(f"interrupted {time.monotonic() - t:.3f}", flush=True)
"""


@pytest.fixture
def sigint_stops():
    """Runs `run` (after `setup`) in a child Python, sends it SIGINT `after` seconds past its
    start, and asserts that KeyboardInterrupt ended `run` ("interrupted", not "finished": the runs
    given last far longer) within 10 s of the signal (no tight bound: on a loaded machine the
    signal's delivery alone can take a second; 10 s catches a hang)."""

    def check(run, setup="", after=0.3):
        code = _INTERRUPT_CHILD.replace("SETUP", setup).replace("RUN", run)
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=os.environ)
        assert p.stdout.readline().strip() == "start"
        time.sleep(after)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        try:
            out, _ = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            pytest.fail("no KeyboardInterrupt within 30 s of SIGINT")
        assert out.strip().startswith("interrupted"), out
        assert time.monotonic() - sent < 10.0

    return check
