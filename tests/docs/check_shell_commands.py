#!/usr/bin/env python3
"""Runs every shell command of the documentation's ```sh and ```bash blocks (the ```console
blocks are run and compared by check_console_examples.py).

Usage: check_shell_commands.py SHUFL_BINARY FILE_OR_DIR...

The convention, the same for every page:

- Each command of a ```sh or ```bash block runs under `bash -c` with `set -o pipefail`, in a
  fresh temporary directory per page (the blocks of one page share it, so a block may use a file
  an earlier one wrote), with the built `shufl` first on PATH and LC_ALL=C.UTF-8, for at most
  60 s. The pages' placeholders for "your command" (`cmd`, `dealer-export`) are shell functions
  that print a few lines (PREAMBLE below). A line ending in a backslash, or
  one bash finds incomplete (an open quote), continues on the next line; `#` lines are comments.
- The input files the examples name (decks.txt, file.txt, ...) are made in that directory first
  by the FIXTURES below, with shufl itself and coreutils.
- What is compared: the exit status is 0 (0 or 3 for a command with `--check`); a file written
  with `> NAME` or `--report NAME`, `--plot NAME` or `--print-to-pdf=NAME` exists and is not
  empty; a comment that says "N lines" matches the number of lines printed; a PDF printed with
  --no-pdf-header-footer carries no file:// path.
- A block that cannot run here is marked in the page's source on the line just above its fence,
  visibly, with the reason:

      <!-- docs-test: skip (needs root and network: installs packages) -->

  Reasons are network, root-only side effects, other machines, or more than a minute of CPU.
  Every block without the mark runs; a skipped block is still parsed with `bash -n`.

Exit status 0 when every command runs as documented; 1 otherwise, with a report of each failure.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def run_group(args, **kw):
    """subprocess.run with TIMEOUT, in a session of its own: on a time-out the whole process
    group is killed (a command's children, e.g. GNU parallel's jobs, must not outlive the test)."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True, **kw)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise
    return subprocess.CompletedProcess(args, p.returncode, out, err)


TIMEOUT = 60
PREAMBLE = "set -o pipefail\ncmd() { seq 100; }\ndealer-export() { shufl deck --count 50 --seed docs-fixture; }\n"
SKIP = re.compile(r"^\s*<!--\s*docs-test:\s*skip\b\s*(.*?)\s*-->\s*$")

# 300 orders of three items, one per line (Python's Mersenne Twister, seed 1).
PERMS = "python3 -c 'import random; r = random.Random(1); w = \"{}\".split()\nfor _ in range(300): r.shuffle(w); print(\" \".join(w))'"
# Input files the examples name, made once and copied into each page's directory.
FIXTURES = {
    "decks.txt": "shufl deck --count 300 --seed docs-fixture",
    "file.txt": "seq 20",
    "file": "seq 20",
    "big.txt": "seq 1000",
    "files.list": "printf 'a\\0b\\0c\\0'",
    "uno.txt": "printf 'R0\\nR1\\nG0\\nG1\\nB0\\nB1\\nY0\\nY1\\n'",
    "shoe.txt": "shufl deck --decks 6 --count 40 --seed docs-fixture",
    "holes.txt": "shufl deck --count 200 --seed docs-fixture --format text | cut -d' ' -f1-30",
    "deals.txt": "shufl deck --count 200 --seed docs-fixture",
    "bytes": "seq 5000",
    "votes.txt": PERMS.format("red green blue"),
    "order.txt": "printf 'up\\ndown\\nleft\\n'",
    "moves.txt": PERMS.format("up down left"),
}


def blocks(path):
    """Yields (line number, skip reason or None, [lines]) of each ```sh/```bash block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(sh|bash)\s*$", lines[i])
        if not m:
            i += 1
            continue
        skip = None
        if i > 0:
            s = SKIP.match(lines[i - 1])
            if s:
                skip = s.group(1) or "skip"
        indent, start, body = len(m.group(1)), i + 1, []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        yield start, skip, body
        i += 1


def commands(body):
    """Joins continued lines; drops comment and blank lines."""
    out, pending = [], ""
    for line in body:
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending = pending + "\n" + line if pending else line
        if pending.endswith("\\"):
            continue
        if subprocess.run(["bash", "-n", "-c", pending], capture_output=True).returncode != 0:
            continue  # an open quote: the command goes on
        out.append(pending)
        pending = ""
    if pending:
        out.append(pending)
    return out


def written_files(cmd):
    code = re.sub(r"#[^'\"]*$", "", cmd)
    names = re.findall(r"(?<![0-9&])>\s*([\w./-]+)", code)
    names += re.findall(r"--(?:report|plot|save-counts)[ =]([\w./-]+)", code)
    names += re.findall(r"--print-to-pdf=([\w./-]+)", code)
    return [n for n in names if not n.startswith("/dev/")]


def main():
    shufl = os.path.abspath(sys.argv[1])
    paths = []
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):
            paths += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".md"))
        else:
            paths.append(arg)
    env = dict(os.environ, LC_ALL="C.UTF-8", PATH=os.path.dirname(shufl) + os.pathsep + os.environ["PATH"])
    failures, ran, skipped = [], 0, 0
    fixtures = tempfile.TemporaryDirectory()
    for name, make in FIXTURES.items():
        subprocess.run(["bash", "-c", f"{make} > {name}"], cwd=fixtures.name, env=env, timeout=TIMEOUT)
    for path in paths:
        page_dir = tempfile.TemporaryDirectory()
        tmp = page_dir.name
        for name in FIXTURES:
            shutil.copy(os.path.join(fixtures.name, name), tmp)
        for start, skip, body in blocks(path):
            where = f"{os.path.basename(path)}:{start}"
            cmds = commands(body)
            if skip:
                skipped += 1
                for c in cmds:
                    if subprocess.run(["bash", "-n", "-c", c], capture_output=True).returncode != 0:
                        failures.append(f"{where}: does not parse: {c}")
                print(f"SKIP {where}: {skip}")
                continue
            if True:
                for c in cmds:
                    ran += 1
                    try:
                        began = time.monotonic()
                        r = run_group(["bash", "-c", PREAMBLE + c], cwd=tmp, env=env)
                        if time.monotonic() - began > 5:
                            print(f"slow ({time.monotonic() - began:.1f} s wall) {where}: {c}")
                    except subprocess.TimeoutExpired:
                        failures.append(f"{where}: more than {TIMEOUT} s (mark the block skip): {c}")
                        continue
                    allowed = (0, 3) if "--check" in c else (0,)
                    if r.returncode not in allowed:
                        failures.append(f"{where}: exit {r.returncode}: {c}\n  {r.stderr.strip()[:500]}")
                        continue
                    for name in written_files(c):
                        f = os.path.join(tmp, name)
                        if not os.path.isfile(f) or os.path.getsize(f) == 0:
                            failures.append(f"{where}: {name} not written: {c}")
                    m = re.search(r"#\s*(\d+) lines\b", c)
                    if m and len(r.stdout.splitlines()) != int(m.group(1)):
                        failures.append(f"{where}: {len(r.stdout.splitlines())} lines, the page says {m.group(1)}: {c}")
                    pdf = re.search(r"--print-to-pdf=([\w./-]+)", c)
                    if pdf and "--no-pdf-header-footer" in c:
                        text = subprocess.run(["pdftotext", os.path.join(tmp, pdf.group(1)), "-"],
                                              capture_output=True, text=True).stdout
                        if "file://" in text or tmp in text:
                            failures.append(f"{where}: the PDF carries the file's path (header/footer): {c}")
        page_dir.cleanup()
    for f in failures:
        print("FAIL " + f)
    print(f"{ran} commands run, {skipped} blocks skipped, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
