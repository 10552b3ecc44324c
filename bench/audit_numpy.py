#!/usr/bin/env python3
"""The accumulators of `shufl audit`'s battery in vectorised numpy, for bench/audit_vs_numpy.sh.

Reads a file of 52-card decks in poker codes as `shufl deck --count` writes them (each line
"As Td ... 9c\\n", 156 bytes), in batches of BATCH decks (memory independent of the number of
decks), checks every deck is a permutation of the standard pack, and adds up what the battery
tests: the card-, suit- and rank-position tables, successions, adjacent pairs, descents, rising
sequences, runs up and down, fixed points, correct guesses with feedback (both strategies:
original successor and shelf), Knuth's permutation test (triples, quadruples), the pair tables of
position-pairs (lags 1 and 2), the coupon collector's totals (suits, ranks), the gaps within each
suit, the successor table,
serial successions and the serial position table and repeats (consecutive
decks), and the duplicates among the first 2^20 decks; and the file's SHA-256, which shufl's
report states. Prints the decks and the totals (one line of JSON), with the Wald statistics of
position-pairs and gap (the largest over the lags, the suits) from the closed forms of
docs/audit-laws.md; the other tests' statistics from these sums take microseconds and are left out.
    audit_numpy.py FILE [BATCH]
"""
import hashlib
import json
from math import comb
import sys

import numpy as np

N = 52
LINE = 3 * N
RANKS = "A23456789TJQK"
SUITS = "shdc"  # canonical order: spades, hearts, diamonds, clubs

pos = np.arange(N)


class numpy_battery:
    """Every accumulator of the battery, added to a batch of decks at a time (also used on
    in-memory arrays by bench/python_audit.py)."""

    def __init__(self):
        self.card_pos = np.zeros(N * N, np.int64)
        self.suit_pos = np.zeros(4 * N, np.int64)
        self.rank_pos = np.zeros(13 * N, np.int64)
        self.serial_pos = np.zeros(N * N, np.int64)
        self.successor = np.zeros(N * N, np.int64)
        self.succ_rep = np.zeros(N, np.int64)
        self.pos_rep = np.zeros(N, np.int64)
        self.perm3 = np.zeros(6, np.int64)
        self.perm4 = np.zeros(24, np.int64)
        self.pairs = np.zeros((LAGS, N * N), np.int64)
        self.gap = np.zeros((4, N), np.int64)
        self.coupon = {"coupon_suits": 0, "coupon_ranks": 0}
        self.totals = dict.fromkeys(["successions", "adjacent_pairs", "descents", "rising_sequences", "runs_up_down",
                                     "fixed_points", "guessing", "guessing_shelf", "serial_successions"], 0)
        self.fingerprints = []
        self.kept = 0
        self.decks = 0
        self.prev = None

    def add(self, d, suit, rank):
        """Adds decks d (b × 52 int64 card indices 0..51, suit-major) with their suits (d // 13)
        and ranks (d % 13)."""
        b = d.shape[0]
        if not (np.sort(d, axis=1) == pos).all():
            raise ValueError("a deck is not a permutation of the pack")
        self.card_pos += np.bincount((d * N + pos).ravel(), minlength=N * N)
        self.suit_pos += np.bincount((suit.astype(np.int64) * N + pos).ravel(), minlength=4 * N)
        self.rank_pos += np.bincount((rank.astype(np.int64) * N + pos).ravel(), minlength=13 * N)
        a, c = d[:, :-1], d[:, 1:]
        # The self.successor table (card, the card right below it; the bottom card below itself),
        # and Knuth's permutation test: Lehmer codes of the 17 triples and 13 quadruples.
        self.successor += np.bincount(np.concatenate([(a * N + c).ravel(), d[:, -1] * (N + 1)]), minlength=N * N)
        t3 = d[:, :51].reshape(b, 17, 3)
        x, y, z = t3[..., 0], t3[..., 1], t3[..., 2]
        self.perm3 += np.bincount((((x > y).astype(np.int64) + (x > z)) * 2 + (y > z)).ravel(), minlength=6)
        t4 = d.reshape(b, 13, 4)
        w, x, y, z = t4[..., 0], t4[..., 1], t4[..., 2], t4[..., 3]
        code = (((w > x).astype(np.int64) + (w > y) + (w > z)) * 6 + ((x > y).astype(np.int64) + (x > z)) * 2 + (y > z))
        self.perm4 += np.bincount(code.ravel(), minlength=24)
        # position-pairs (card at i, card at i + k), the coupon collector (cards dealt until
        # every suit, every rank has shown: the latest first appearance), gaps within each suit.
        for k in range(1, LAGS + 1):
            self.pairs[k - 1] += np.bincount((d[:, :-k] * N + d[:, k:]).ravel(), minlength=N * N)
        for key, group, count in (("coupon_suits", suit, 4), ("coupon_ranks", rank, 13)):
            first = np.stack([np.argmax(group == g, axis=1) for g in range(count)], axis=1)
            self.coupon[key] += int(first.max(axis=1).sum() + b)
        for g in range(4):
            where_suit = np.nonzero(suit == g)[1].reshape(b, 13)
            self.gap[g] += np.bincount((np.diff(where_suit, axis=1) - 1).ravel(), minlength=N)
        self.totals["successions"] += int((c == a + 1).sum())
        self.totals["adjacent_pairs"] += int((np.abs(c - a) == 1).sum())
        rise = c > a
        self.totals["descents"] += int((~rise).sum())
        self.totals["runs_up_down"] += int(b + (rise[:, 1:] != rise[:, :-1]).sum())
        self.totals["fixed_points"] += int((d == pos).sum())
        where = np.empty_like(d)
        np.put_along_axis(where, d, np.broadcast_to(pos, d.shape), axis=1)
        self.totals["rising_sequences"] += int(b + (where[:, 1:] < where[:, :-1]).sum())
        # Guessing with feedback: the smallest unseen card above the last one shown, else the
        # largest unseen below; 52-bit masks of unseen cards, one per deck. Shelf: the same
        # after a rising step (and the first card), the mirror after a falling one.
        unseen = np.full(b, (1 << N) - 1, np.uint64)
        guess = np.zeros(b, np.int64)
        shelf = np.zeros(b, np.int64)
        last = np.full(b, -1, np.int64)
        right = right_shelf = 0
        one = np.uint64(1)
        for p in range(N):
            shown = d[:, p].astype(np.uint64)
            right += int((d[:, p] == guess).sum())
            right_shelf += int((d[:, p] == shelf).sum())
            unseen &= ~(one << shown)
            above = unseen & ~((one << (shown + one)) - one)
            below = unseen & ((one << shown) - one)
            # Bit indices exactly: frexp(x) = (m, e) with x = m·2^e, 0.5 <= m < 1 (x < 2^53 here).
            low_above = np.frexp((above & (~above + one)).astype(np.float64))[1] - 1
            high_below = np.maximum(np.frexp(below.astype(np.float64))[1] - 1, 0)
            guess = np.where(above != 0, low_above, high_below).astype(np.int64)
            falling = np.where(below != 0, high_below, low_above).astype(np.int64)
            shelf = np.where(d[:, p] > last, guess, falling)
            last = d[:, p]
        self.totals["guessing"] += right
        self.totals["guessing_shelf"] += right_shelf
        # Serial tests over consecutive self.decks (the previous batch's last deck first).
        both = d if self.prev is None else np.vstack([self.prev[None, :], d])
        p_, n_ = both[:-1], both[1:]
        below_of = np.full((p_.shape[0], N + 1), N, np.int64)
        np.put_along_axis(below_of, p_[:, :-1], p_[:, 1:], axis=1)
        nxt = np.take_along_axis(below_of, n_[:, :-1], axis=1)
        # Per card: the same card right below it in both self.decks, or at the bottom of both.
        kept_below = nxt == n_[:, 1:]
        self.succ_rep += np.bincount(n_[:, :-1][kept_below], minlength=N)
        bottom = p_[:, -1] == n_[:, -1]
        self.succ_rep += np.bincount(p_[:, -1][bottom], minlength=N)
        self.totals["serial_successions"] += int(kept_below.sum() + bottom.sum())
        self.pos_rep += (p_ == n_).sum(axis=0)
        self.serial_pos += np.bincount((p_ * N + n_).ravel(), minlength=N * N)
        self.prev = d[-1].copy()
        if self.kept < (1 << 20):
            take = min(b, (1 << 20) - self.kept)
            self.fingerprints.append(np.ascontiguousarray(d[:take].astype(np.uint8)).view(np.dtype((np.void, N))).ravel())
            self.kept += take
        self.decks += b

    def result(self):
        """The decks and the totals (a dict)."""
        fp = np.concatenate(self.fingerprints) if self.fingerprints else np.empty(0, np.dtype((np.void, N)))
        repeats = int(fp.size - np.unique(fp).size)
        x2 = {k: float(((c - c.sum() / c.size) ** 2).sum() / (c.sum() / c.size)) for k, c in (("permutation_3", self.perm3), ("permutation_4", self.perm4))}
        wald = {"position_pairs": max(pairs_wald(self.pairs[k - 1], k, self.decks) for k in range(1, LAGS + 1)),
                "gap": max(gap_wald(self.gap[g], 13, self.decks) for g in range(4))}
        return ({**self.coupon, **wald, "decks": self.decks, "repeats": repeats, "card_position_sum": int(self.card_pos.sum()),
                "serial_pairs": int(self.serial_pos.sum()) // N, "serial_position_repeats": int(self.pos_rep.sum()),
                "successor_table_sum": int(self.successor.sum()), **x2, **self.totals})



LAGS = 2


def pairs_wald(table, k, T):
    """position-pairs' Wald statistic (docs/audit-laws.md) from the closed form, in numpy."""
    n = N
    x = table.reshape(n, n).astype(float)
    mu = (n - k) / (n * (n - 1))
    y = x - T * mu
    np.fill_diagonal(y, 0)
    r, c = y.sum(axis=1), y.sum(axis=0)
    p, s = k * (n - k) / (n * (n - 1)), -k * k / (n * (n - 1))
    q = (p * (r @ r) - 2 * s * (r @ c) + p * (c @ c)) / ((p * p - s * s) * T)
    u, v = ((n - 1) * r + c) / (n * (n - 2)), ((n - 1) * c + r) / (n * (n - 2))
    w = y - u[:, None] - v[None, :]
    np.fill_diagonal(w, 0)
    f3 = max(n - 2 * k, 0) / (n * (n - 1) * (n - 2))
    f4 = ((n - k) ** 2 - (n - k) - 2 * max(n - 2 * k, 0)) / (n * (n - 1) * (n - 2) * (n - 3))

    def cov(a, b, c_, d):
        e = mu if (a, b) == (c_, d) else f4 if len({a, b, c_, d}) == 4 else f3 if (b == c_ and a != d) or (a == d and b != c_) else 0
        return e - mu * mu

    def rayleigh(vec):
        return sum(x1 * x2 * cov(a, b, c_, d) for (a, b, x1) in vec for (c_, d, x2) in vec) / sum(x1 * x1 for *_, x1 in vec)

    l_sym = rayleigh([(0, 1, 1), (1, 0, 1), (2, 3, 1), (3, 2, 1), (0, 2, -1), (2, 0, -1), (1, 3, -1), (3, 1, -1)])
    l_anti = rayleigh([(0, 1, 1), (1, 0, -1), (1, 2, 1), (2, 1, -1), (2, 0, 1), (0, 2, -1)])
    sym, anti = (w + w.T) / 2, (w - w.T) / 2
    return float(q + (sym * sym).sum() / (T * l_sym) + (anti * anti).sum() / (T * l_anti))


def gap_wald(lengths, s, T):
    """gap's Wald statistic for one suit (docs/audit-laws.md), binned as shufl bins."""
    n, m = N, s - 1
    P = np.array([comb(n - j - 1, s - 1) / comb(n, s) for j in range(n)])
    tail = P[::-1].cumsum()[::-1]
    B = 1
    while B + 1 <= n - s and T * m * P[B] >= 5 and T * m * tail[B + 1] >= 5:
        B += 1
    bins = np.minimum(np.arange(n), B)
    pb = np.bincount(bins, weights=P, minlength=B + 1)
    p2 = np.zeros((B + 1, B + 1))
    for i in range(n - s + 1):
        for j in range(n - s + 1 - i):
            p2[bins[i], bins[j]] += comb(n - i - j - 2, s - 2) / comb(n, s)
    cov = T * (m * np.diag(pb) + m * (m - 1) * p2 - m * m * np.outer(pb, pb))
    y = np.bincount(bins, weights=lengths, minlength=B + 1) - T * m * pb
    return float(y[:B] @ np.linalg.solve(cov[:B, :B], y[:B]))


def main():
    path = sys.argv[1]
    batch = int(sys.argv[2]) if len(sys.argv) > 2 else 65536
    rank_of_byte = np.full(256, 255, np.uint8)
    suit_of_byte = np.full(256, 255, np.uint8)
    for i, c in enumerate(RANKS):
        rank_of_byte[ord(c)] = i
    for i, c in enumerate(SUITS):
        suit_of_byte[ord(c)] = i
    battery = numpy_battery()
    sha = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            chunk = f.read(batch * LINE)
            sha.update(chunk)
            raw = np.frombuffer(chunk, np.uint8)
            if raw.size == 0:
                break
            if raw.size % LINE:
                sys.exit("not a file of 52-card poker-code lines")
            lines = raw.reshape(-1, LINE)
            rank = rank_of_byte[lines[:, 0::3]]
            suit = suit_of_byte[lines[:, 1::3]]
            if (rank == 255).any() or (suit == 255).any() or (lines[:, 2:-1:3] != 32).any() or (lines[:, -1] != 10).any():
                sys.exit("unknown card or separator")
            try:
                battery.add(suit.astype(np.int64) * 13 + rank, suit, rank)
            except ValueError as e:
                sys.exit(str(e))
    print(json.dumps({"sha256": sha.hexdigest(), **battery.result()}))


if __name__ == "__main__":
    main()
