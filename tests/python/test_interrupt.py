"""Ctrl-C (SIGINT) stops a long audit, shufl.deck(count), shufl.bias or Detector.add_many with
KeyboardInterrupt within a fraction of a second, the GIL released meanwhile."""

import pytest

# 6,000,000 decks: several seconds of audit.
AUDIT_DECKS = """rng = np.random.default_rng(1)
base = np.argsort(rng.random((1000, 52)), axis=1).astype(np.uint8)
decks = np.tile(base, (6000, 1))"""


@pytest.mark.parametrize("setup,run", [
    (AUDIT_DECKS, "shufl.audit(decks, zero_based=True, threads=1)"),
    ("", "shufl.deck(3_000_000, seed='s')"),            # 312 MB, several seconds of shuffling
], ids=["audit", "deck"])
def test_sigint_stops_the_audit(sigint_stops, setup, run):
    sigint_stops(run, setup)


@pytest.mark.parametrize("setup,run", [
    ("", "shufl.bias(52, 10**10, 'fisher-yates', seed='s', threads=1)"),
    # 10^9 decks, one row repeated (row stride 0: no memory): an hour of monitoring.
    ("d = shufl.Detector(pack='standard')\ndecks = np.broadcast_to(np.arange(1, 53, dtype=np.uint8), (10**9, 52))",
     "d.add_many(decks)"),
], ids=["bias", "add_many"])
def test_sigint_stops_bias_and_add_many(sigint_stops, setup, run):
    # Runs far longer than the bound, so "interrupted" within it proves that Ctrl-C stopped them
    # (a poll of the signal handlers off the main thread never sees it: the run would go on).
    sigint_stops(run, setup, after=0.5)
