"""Ctrl-C (SIGINT) stops a long audit, shufl.deck(count), shufl.bias or Detector.add_many with
KeyboardInterrupt within a fraction of a second, the GIL released meanwhile."""

import os
import signal
import subprocess
import sys
import time

import pytest

CHILD = r"""
import sys, time
import numpy as np
import shufl
rng = np.random.default_rng(1)
base = np.argsort(rng.random((1000, 52)), axis=1).astype(np.uint8)
decks = np.tile(base, (6000, 1))          # 6,000,000 decks: several seconds of audit
print("start", flush=True)
t = time.monotonic()
try:
    RUN
    print("finished", flush=True)
except KeyboardInterrupt:
    print(f"interrupted {time.monotonic() - t:.3f}", flush=True)
"""


@pytest.mark.parametrize("run", [
    "shufl.audit(decks, zero_based=True, threads=1)",
    "shufl.deck(3_000_000, seed='s')",            # 312 MB, several seconds of shuffling
])
def test_sigint_stops_the_audit(run):
    p = subprocess.Popen([sys.executable, "-c", CHILD.replace("RUN", run)], stdout=subprocess.PIPE, text=True, env=os.environ)
    assert p.stdout.readline().strip() == "start"
    time.sleep(0.3)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    line = p.stdout.readline().strip()
    p.wait(timeout=30)
    # "interrupted" (not "finished") is the proof: the audit stops before its end. No tight time
    # bound: on a loaded machine the signal's delivery alone can take a second; 10 s catches a hang.
    assert line.startswith("interrupted"), line
    assert time.monotonic() - sent < 10.0


LONG = r"""
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


@pytest.mark.parametrize("setup,run", [
    ("", "shufl.bias(52, 10**10, 'fisher-yates', seed='s', threads=1)"),
    # 10^9 decks, one row repeated (row stride 0: no memory): an hour of monitoring.
    ("d = shufl.Detector(pack='standard')\ndecks = np.broadcast_to(np.arange(1, 53, dtype=np.uint8), (10**9, 52))",
     "d.add_many(decks)"),
])
def test_sigint_stops_bias_and_add_many(setup, run):
    # Runs far longer than the bound, so "interrupted" within it proves that Ctrl-C stopped them
    # (a poll of the signal handlers off the main thread never sees it: the run would go on).
    p = subprocess.Popen([sys.executable, "-c", LONG.replace("SETUP", setup).replace("RUN", run)],
                         stdout=subprocess.PIPE, text=True, env=os.environ)
    assert p.stdout.readline().strip() == "start"
    time.sleep(0.5)
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
