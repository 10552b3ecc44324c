#!/usr/bin/env python3
"""An independent check of `shufl lines --csv` output with Python's csv module.

The input and the output are split into CSV records by Python's csv reader, fed line by line so
that the exact bytes of each record (quotes, CRLF, embedded newlines) are known: a record is the
lines the reader consumed to produce one row. Then:

  csv_oracle.py perm IN OUT [HEADER]       OUT's first HEADER records are IN's, in order; the rest
                                           are IN's other records, each byte for byte, as a multiset
  csv_oracle.py sample IN OUT K [HEADER]   as perm, but the rest is a sub-multiset of min(K, n)
  csv_oracle.py keys IN OUT F[,F...] [HEADER]
                                           OUT is a subsequence of IN's records, and records whose
                                           key (the values of the 1-based fields F, unquoted) is the
                                           same are all kept or all dropped; prints the kept keys
  csv_oracle.py count IN                   prints the number of records

Several checks run at once when separated by a ';' argument (Python starts once); each prints
one line. Exit status 0 and "ok ..." on success, 1 with the reason otherwise.
"""
import csv
import sys
from collections import Counter


def records(path):
    """[(raw record text, row)] of a CSV file (bytes decoded as Latin-1, so any byte survives)."""
    with open(path, 'rb') as f:
        text = f.read().decode('latin-1')
    lines = [part + '\n' for part in text.split('\n')]
    lines[-1] = lines[-1][:-1]
    if lines[-1] == '':
        lines.pop()
    consumed = []

    def feed():
        for line in lines:
            consumed.append(line)
            yield line

    out = []
    for row in csv.reader(feed(), strict=True):
        out.append((''.join(consumed), row))
        consumed.clear()
    if consumed:
        sys.exit('input left over after the last record: %r' % ''.join(consumed))
    return out


class Failed(Exception):
    pass


def fail(why):
    raise Failed(why)


def check_head(inp, out, header):
    if [r for r, _ in out[:header]] != [r for r, _ in inp[:header]]:
        fail('the header records differ')


def check(argv):
    mode = argv[1]
    if mode == 'count':
        print(len(records(argv[2])))
        return
    inp, out = records(argv[2]), records(argv[3])
    if mode == 'perm':
        header = int(argv[4]) if len(argv) > 4 else 0
        check_head(inp, out, header)
        if Counter(r for r, _ in out[header:]) != Counter(r for r, _ in inp[header:]):
            fail('the output records are not a permutation of the input records')
        print('ok %d records' % (len(out) - header))
    elif mode == 'sample':
        k = int(argv[4])
        header = int(argv[5]) if len(argv) > 5 else 0
        check_head(inp, out, header)
        got, have = Counter(r for r, _ in out[header:]), Counter(r for r, _ in inp[header:])
        if got - have:
            fail('output records not in the input: %r' % list((got - have).keys())[:3])
        want = min(k, len(inp) - header)
        if sum(got.values()) != want:
            fail('%d records, expected %d' % (sum(got.values()), want))
        print('ok %d records' % want)
    elif mode == 'keys':
        fields = [int(f) - 1 for f in argv[4].split(',')]
        header = int(argv[5]) if len(argv) > 5 else 0
        check_head(inp, out, header)
        inp, out = inp[header:], out[header:]
        it = iter(r for r, _ in inp)
        if not all(any(r == x for x in it) for r, _ in out):
            fail('the output is not a subsequence of the input')
        key = lambda row: tuple(row[f] for f in fields)
        kept = set(key(row) for _, row in out)
        expected = [raw for raw, row in inp if key(row) in kept]
        if expected != [r for r, _ in out]:
            fail('records of a kept key are missing')
        print('ok %d keys kept: %s' % (len(kept), sorted(kept)))
    else:
        fail('unknown mode ' + mode)


def main(argv):
    status = 0
    group = []
    for arg in argv[1:] + [';']:
        if arg != ';':
            group.append(arg)
            continue
        try:
            check([argv[0]] + group)
        except Failed as e:
            print(e)
            status = 1
        group = []
    sys.exit(status)


if __name__ == '__main__':
    main(sys.argv)
