#!/usr/bin/env python3
"""Independent check of the change detector's false-alarm guarantee through the real binary.

The detector of `shufl audit --follow` is a Shiryaev-Roberts statistic M_t = Σ_k π_k M_{k,t},
M_{k,t} = e_{k,t} (M_{k,t-1} + 1), over per-deck e-values. Its average run length to a false alarm
is at least its threshold A because E0[M_t | past] = M_{t-1} + 1 under the null. This script
checks that identity from the outside: it saves a state after a history of decks (--state), then
feeds the binary every one of the n! orders of the next deck (each of probability 1/n! when the
shuffler is fair), each on a fresh copy of the state, reads M_t from the final JSON status, and
compares the average (math.fsum) with M_{t-1} + 1, for a 5-card pack and a 5-card shoe, with
histories long enough that decks have left the 32-deck learner window.

Usage: check_sr_identity.py SHUFL
"""
import itertools
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile


def run(shufl, args, decks):
    text = "".join(" ".join(d) + "\n" for d in decks)
    p = subprocess.run([shufl, "audit", "--follow", "-", "--format", "json", "--every", "1000000", "--arl", "1e300"] + args,
                       input=text.encode(), capture_output=True, check=False)
    if p.returncode not in (0, 6):  # 6: the battery of a structured history
        sys.exit(f"shufl exited {p.returncode}: {p.stderr.decode()}")
    final = json.loads(p.stdout.decode().splitlines()[-1])
    assert final["type"] == "final", final
    return final


def check(shufl, labels, history, tmp):
    cards = os.path.join(tmp, "cards.txt")
    with open(cards, "w") as f:
        f.write("\n".join(labels) + "\n")
    state = os.path.join(tmp, "state.json")
    if os.path.exists(state):
        os.remove(state)
    base = ["--cards-file", cards, "--state", state]
    before = run(shufl, base, history)
    m0 = 10.0 ** before["log10_m"]
    values = []
    for order in sorted(set(itertools.permutations(labels))):
        copy = os.path.join(tmp, "copy.json")
        shutil.copyfile(state, copy)
        after = run(shufl, ["--cards-file", cards, "--state", copy], [order])
        values.append(10.0 ** after["log10_m"])
    # A shoe's orders of equal faces are one deck: weight each distinct face order by its count.
    weights = [math.prod(math.factorial(labels.count(x)) for x in set(labels))] * len(values)
    total = math.factorial(len(labels))
    mean = math.fsum(v * w for v, w in zip(values, weights)) / total
    # M before must be small enough that the "+ 1" is far above the rounding of doubles.
    ok = m0 < 1e4 and abs(mean - (m0 + 1)) <= 1e-9 * (m0 + 1)
    print(f"{'ok' if ok else 'FAIL'}: pack {labels}, {len(history)} decks before: "
          f"M before {m0:.12g}, mean M after {mean:.12g}, expected {m0 + 1:.12g}")
    return ok


def main():
    shufl = sys.argv[1]
    rng = random.Random(20231203)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        pack = ["a", "b", "c", "d", "e"]
        # Histories of random decks, longer than the 32-deck learner window (so decks have left
        # it), with a few sorted decks so the learners hold something; M stays small enough for
        # the "+ 1" to show.
        for length in (0, 1, 40):
            history = [pack[:] if t % 7 == 0 else rng.sample(pack, len(pack)) for t in range(length)]
            ok &= check(shufl, pack, history, tmp)
        shoe = ["a", "a", "b", "b", "c"]
        history = [shoe[:] if t % 7 == 0 else rng.sample(shoe, len(shoe)) for t in range(36)]
        ok &= check(shufl, shoe, history, tmp)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
