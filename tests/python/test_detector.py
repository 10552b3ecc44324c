"""shufl.Detector against `shufl audit --follow --state` on the same decks: the same statuses, and
state files that each side resumes from the other's."""

import json
import pickle
import random

import numpy as np
import pytest

import shufl

CARDS = [r + s for s in "shdc" for r in "A23456789TJQK"]


def decks(count, seed, naive=False):
    rnd = random.Random(seed)
    out = np.empty((count, 52), dtype=np.int16)
    for t in range(count):
        d = list(range(1, 53))
        if naive:
            for i in range(52):
                j = rnd.randrange(52)
                d[i], d[j] = d[j], d[i]
        else:
            rnd.shuffle(d)
        out[t] = d
    return out


def text(arr):
    return "".join(" ".join(CARDS[c - 1] for c in row) + "\n" for row in arr)


def siphash24(key, data):
    """SipHash-2-4 (Aumasson and Bernstein, 2012), written from the paper: the deck hashes'
    independent reference."""
    mask = (1 << 64) - 1

    def rotl(x, b):
        return ((x << b) | (x >> (64 - b))) & mask

    def rounds(v, n):
        for _ in range(n):
            v[0] = (v[0] + v[1]) & mask; v[1] = rotl(v[1], 13); v[1] ^= v[0]; v[0] = rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & mask; v[3] = rotl(v[3], 16); v[3] ^= v[2]
            v[0] = (v[0] + v[3]) & mask; v[3] = rotl(v[3], 21); v[3] ^= v[0]
            v[2] = (v[2] + v[1]) & mask; v[1] = rotl(v[1], 17); v[1] ^= v[2]; v[2] = rotl(v[2], 32)

    k0, k1 = int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]
    tail = len(data) % 8
    for i in range(0, len(data) - tail, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v[3] ^= m
        rounds(v, 2)
        v[0] ^= m
    m = int.from_bytes(data[len(data) - tail:], "little") | ((len(data) & 0xFF) << 56)
    v[3] ^= m
    rounds(v, 2)
    v[0] ^= m
    v[2] ^= 0xFF
    rounds(v, 4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def test_siphash24_reference_vector():
    # The paper's Appendix A: key 00..0f, message 00..0e.
    assert siphash24(bytes(range(16)), bytes(range(15))) == 0xA129CA6149BE45E5


def recent_hashes(arr, keep=64):
    """What a state remembers of the last decks: SipHash-2-4 under the key "shufl overlap ky" of
    the faces (card number − 1) as little-endian uint32, written as 16 hex digits of the digest's
    bytes in order."""
    out = []
    for row in arr[-keep:]:
        digest = siphash24(b"shufl overlap ky", b"".join(int(c - 1).to_bytes(4, "little") for c in row))
        out.append(digest.to_bytes(8, "little").hex())
    return out


def follow(shufl_cli, arr, state, *extra):
    p = shufl_cli("audit", "--follow", "-", "--state", str(state), "--format", "json", *extra, input=text(arr),
                  check=False)
    assert p.returncode in (0, 3), p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


SAME = ("decks", "log10_e", "log10_e_mixture", "max_log10_e_mixture", "anytime_p", "leader", "evidence", "log10_m",
        "threshold_log10_m", "detector_decks", "detector_leader", "detector_evidence", "alarm")


def test_states_round_trip_with_the_cli(shufl_cli, tmp_path):
    first, second = decks(300, 1), decks(200, 2)
    cli_state = tmp_path / "cli.json"
    final = follow(shufl_cli, first, cli_state)
    d = shufl.Detector()
    assert d.add_many(first) is False
    status = d.status()
    assert {k: status[k] for k in SAME} == {k: final[k] for k in SAME}
    d.save(tmp_path / "py.json")
    assert (tmp_path / "py.json").read_text() == cli_state.read_text()
    assert json.loads(cli_state.read_text())["recent_decks"] == recent_hashes(first)
    # Python resumes from the CLI's file, the CLI from Python's: the same numbers after more decks.
    resumed = shufl.Detector.load(cli_state)
    resumed.add_many(second)
    resumed.save(tmp_path / "py2.json")
    final2 = follow(shufl_cli, second, tmp_path / "py.json")
    s2 = resumed.status()
    assert {k: s2[k] for k in SAME} == {k: final2[k] for k in SAME}
    assert (tmp_path / "py2.json").read_text() == (tmp_path / "py.json").read_text()
    again = pickle.loads(pickle.dumps(resumed))
    assert {k: again.status()[k] for k in SAME} == {k: s2[k] for k in SAME}


def test_alarm_on_a_naive_shuffler(shufl_cli, tmp_path):
    d = shufl.Detector(arl=1e6)
    bad = decks(3000, 3, naive=True)
    assert d.add_many(bad) and d.alarm
    final = follow(shufl_cli, bad, tmp_path / "s.json", "--arl", "1e6")
    assert final["alarm"] is True
    d.save(tmp_path / "alarm.json")
    assert shufl.Detector.load(tmp_path / "alarm.json", arl=1e6).alarm
    assert not shufl.Detector.load(tmp_path / "alarm.json", arl=1e6, reset_alarm=True).alarm


def test_detector_errors(tmp_path):
    d = shufl.Detector()
    with pytest.raises(ValueError, match=r"<array>: row 0, column 1: card 1 appears more often than the pack has it"):
        d.add([1] * 52)
    with pytest.raises(ValueError, match="51 cards per row, the pack has 52"):
        d.add(np.arange(1, 52))
    with pytest.raises(TypeError, match="integers"):
        d.add(np.arange(52, dtype=float))
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ValueError, match="state file"):
        shufl.Detector.load(tmp_path / "bad.json")
    shufl.Detector(pack="piquet").save(tmp_path / "piquet.json")
    with pytest.raises(ValueError, match="state file"):
        shufl.Detector.load(tmp_path / "piquet.json")
    # Bytes that are not UTF-8 are no state: the message says so (not a bare UnicodeDecodeError).
    (tmp_path / "binary.json").write_bytes(b'{"format"\xff: 1}\n')
    with pytest.raises(ValueError, match=r"^state file: not a state file of shufl audit --follow, or a damaged one: "
                                         r"line 1: invalid UTF-8 \(byte 0xff at column 10\)") as e:
        shufl.Detector.load(tmp_path / "binary.json")
    assert not isinstance(e.value, UnicodeDecodeError)
