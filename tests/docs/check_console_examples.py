#!/usr/bin/env python3
"""Runs every console example of the documentation and checks its output (case U07).

Usage: check_console_examples.py SHUFL_BINARY FILE...

FILE is a Markdown file (README.md: every ```console block), a directory (every *.md file in it,
e.g. docs/; a page there may have no console block) or a generated man page (shufl.1: every
.nf/.fi block of its EXAMPLES section). A FILE named directly must have at least one example.
The convention, the same for all:

- A line starting with `$ ` is a command. It runs under `bash -c` with `set -o pipefail`, in a
  fresh temporary directory per block (commands of one block share it, so a block may create a
  file and use it), with the built `shufl` first on PATH and LC_ALL=C.UTF-8. A command that
  bash finds incomplete (an open quote, a trailing backslash) continues on the next lines.
- The lines after a command, up to the next `$ ` line or the end of the block, are its expected
  standard output, compared line by line. A line that is exactly `...` matches any number (0 or
  more) of lines. Standard error is not compared.
- A command must exit with status 0; to show another status, write `$ cmd; echo "exit $?"` and
  the expected `exit 3`.
- ```sh blocks (and any other fence) are not run.
- The files in tests/docs/files/ are copied into each block's directory (data the examples use).

Exit status 0 when every example prints what the documentation shows; 1 otherwise, with a
report of each mismatch.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")
TIMEOUT = 300


def markdown_blocks(path):
    """Yields (line number, [lines]) of each ```console block of a Markdown file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```console\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, start, body = len(m.group(1)), i + 1, []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        yield start + 1, body
        i += 1


def roff_unescape(line):
    line = line.replace("\\&", "").replace("\\-", "-").replace("\\e", "\\").replace("\\(em", "—")
    return re.sub(r"\\f[BIRP]", "", line)


def man_blocks(path):
    """Yields (line number, [lines]) of each .nf/.fi block in the EXAMPLES section of a man page."""
    lines = open(path, encoding="utf-8").read().split("\n")
    in_examples, block, start = False, None, 0
    for number, line in enumerate(lines, 1):
        if line.startswith(".SH"):
            in_examples = "EXAMPLES" in line
            continue
        if not in_examples:
            continue
        if line.startswith(".nf"):
            block, start = [], number + 1
        elif line.startswith(".fi") and block is not None:
            yield start, block
            block = None
        elif block is not None and not line.startswith((".RS", ".RE", ".PP", ".IP")):
            block.append(roff_unescape(line))


def is_complete(command):
    if command.endswith("\\"):
        return False
    return subprocess.run(["bash", "-n", "-c", command], capture_output=True).returncode == 0


def parse_block(body):
    """Splits a block into [(command, [expected lines])]. Lines before the first command are
    ignored (a block should have none)."""
    examples, i = [], 0
    while i < len(body) and not body[i].startswith("$ "):
        i += 1
    while i < len(body):
        command = body[i][2:]
        i += 1
        while not is_complete(command) and i < len(body) and not body[i].startswith("$ "):
            command += "\n" + body[i]
            i += 1
        expected = []
        while i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        while expected and expected[-1] == "":
            expected.pop()
        examples.append((command, expected))
    return examples


def matches(expected, actual):
    """True when `actual` lines match `expected`, where a line "..." matches 0+ lines."""
    memo = {}

    def go(e, a):
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(expected):
            result = a == len(actual)
        elif expected[e] == "...":
            result = any(go(e + 1, k) for k in range(a, len(actual) + 1))
        else:
            result = a < len(actual) and expected[e] == actual[a] and go(e + 1, a + 1)
        memo[key] = result
        return result

    return go(0, 0)


def run_block(shufl, source, line, body):
    """Runs one block; returns a list of failure reports."""
    failures = []
    bindir = tempfile.mkdtemp(prefix="shufl-doc-bin-")
    workdir = tempfile.mkdtemp(prefix="shufl-doc-")
    try:
        os.symlink(os.path.abspath(shufl), os.path.join(bindir, "shufl"))
        if os.path.isdir(FILES):
            for name in os.listdir(FILES):
                shutil.copy(os.path.join(FILES, name), workdir)
        env = dict(os.environ)
        env.update(PATH=bindir + os.pathsep + env.get("PATH", "/usr/bin:/bin"), LC_ALL="C.UTF-8",
                   HOME=workdir, TMPDIR=workdir)
        env.pop("NO_COLOR", None)
        for command, expected in parse_block(body):
            try:
                proc = subprocess.run(["bash", "-c", "set -o pipefail\n" + command], cwd=workdir, env=env,
                                      stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                failures.append(f"{source}:{line}: `{command}` did not finish in {TIMEOUT} s")
                continue
            actual = proc.stdout.decode("utf-8", "replace").split("\n")
            if actual and actual[-1] == "":
                actual.pop()
            problems = []
            if proc.returncode != 0:
                problems.append(f"exit status {proc.returncode} (write `; echo \"exit $?\"` to show it)")
            if not matches(expected, actual):
                problems.append("stdout differs")
            if problems:
                failures.append(
                    f"{source}:{line}: `{command}`: {', '.join(problems)}\n"
                    + "--- expected\n" + "\n".join(expected) + "\n"
                    + "--- actual stdout\n" + "\n".join(actual) + "\n"
                    + "--- stderr\n" + proc.stderr.decode("utf-8", "replace"))
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)
    return failures


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    shufl, sources = sys.argv[1], []
    optional = set()
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):
            pages = sorted(os.path.join(arg, p) for p in os.listdir(arg) if p.endswith(".md"))
            sources += pages
            optional.update(pages)
        else:
            sources.append(arg)
    failures, commands = [], 0
    for source in sources:
        blocks = list(man_blocks(source) if source.endswith(".1") else markdown_blocks(source))
        if not blocks and source not in optional:
            failures.append(f"{source}: no console examples found")
        for line, body in blocks:
            commands += len(parse_block(body))
            failures += run_block(shufl, os.path.relpath(source), line, body)
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    print(f"{commands} example commands in {len(sources)} files, {len(failures)} failing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
