#!/usr/bin/env python3
"""Checks that docs/json.md documents every field of the `shufl bias --format json` report (issue 11).

Usage: check_json_fields.py SCHEMA PAGE
       check_json_fields.py --shufl SHUFL PAGE

SCHEMA is schema/bias-report.schema.json. Every property name it declares, anywhere (top level,
nested objects and everything under "definitions": result, test, secondary, exact, power,
monte_carlo, primary, ...), must appear as `name` (the whole name between backticks) inside the
page's subsection whose heading is "JSON report fields" (from that heading to the next heading
of the same or a higher level; fenced code blocks are not searched for headings).

Exit status 0 when every name is documented; 1 with the list of missing names otherwise (also
when the subsection is missing or the schema declares no properties). Standard library only.

With --shufl, SHUFL is the built binary and the outputs without a schema are checked instead:
every key of every object (nested ones included) that a set of `shufl trace --format json` and
`shufl deck --format json` runs prints (every algorithm's step kinds, --draws, --deal with
--burn, --grid, --count, --commit, --verify-commit, --explain) must appear as `name` in the
page's subsection titled "`shufl trace --format json`" or "`shufl deck --format json`".
"""
import json
import re
import subprocess
import sys

HEADING = "JSON report fields"


def schema_names(node, names):
    """Adds every key of every "properties" object in `node`, recursively."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            names.update(props.keys())
        for value in node.values():
            schema_names(value, names)
    elif isinstance(node, list):
        for value in node:
            schema_names(value, names)
    return names


def section(markdown, heading=HEADING):
    """The text of the subsection titled `heading`, or None."""
    lines = markdown.splitlines()
    start = level = None
    fenced = False
    out = []
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if start is None:
            if m and m.group(2) == heading:
                start, level = True, len(m.group(1))
            continue
        if m and len(m.group(1)) <= level:
            break
        out.append(line)
    return None if start is None else "\n".join(out)


TRACE_ALGOS = ["fisher-yates", "inside-out", "pencil-and-paper", "two-array", "naive", "sattolo",
               "asf-poker", "sort-coin:insertion", "sort-coin:merge", "random-keys:8", "modulo:3",
               "transpositions:3", "riffle:2", "thorp:2", "shelf:3", "overhand:0.5", "pile:2", "cut",
               "weak-seed", "riffle:1+cut"]
DECK_RUNS = [[], ["--deal", "2x5", "--burn", "1"], ["--grid", "2x3", "--symbols", "a,b,c"],
             ["--count", "2"], ["--commit"], ["--explain"], ["--pairs", "3"], ["--jokers", "2", "--decks", "2"]]


def json_keys(node, names):
    """Adds every key of every object in `node`, recursively."""
    if isinstance(node, dict):
        names.update(node.keys())
        for value in node.values():
            json_keys(value, names)
    elif isinstance(node, list):
        for value in node:
            json_keys(value, names)
    return names


def run_json(shufl, args):
    out = subprocess.run([shufl] + args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def check_outputs(shufl, page):
    with open(page, encoding="utf-8") as f:
        markdown = f.read()
    trace, deck = set(), set()
    for algo in TRACE_ALGOS:
        json_keys(run_json(shufl, ["trace", "--n", "5", "--seed", "1", "--format", "json", "--algo", algo]), trace)
    json_keys(run_json(shufl, ["trace", "--n", "3", "--draws", "1,0", "--format", "json"]), trace)
    for extra in DECK_RUNS:
        json_keys(run_json(shufl, ["deck", "--format", "json", "--seed", "s-1"] + extra), deck)
    committed = run_json(shufl, ["deck", "--format", "json", "--seed", "s-1", "--commit"])
    json_keys(run_json(shufl, ["deck", "--format", "json", "--seed", "s-1", "--verify-commit",
                               committed["commitment"]]), deck)
    failed = 0
    for heading, names in (("`shufl trace --format json`", trace), ("`shufl deck --format json`", deck)):
        text = section(markdown, heading)
        if text is None:
            print(f"{page}: no section titled '{heading}'", file=sys.stderr)
            failed = 1
            continue
        missing = sorted(names - set(re.findall(r"`([^`\n]+)`", text)))
        if missing:
            print(f"{page}: section '{heading}' does not document: {', '.join(missing)}", file=sys.stderr)
            failed = 1
        else:
            print(f"all {len(names)} keys of the {heading} runs are documented")
    return failed


def main(argv):
    if len(argv) == 4 and argv[1] == "--shufl":
        return check_outputs(argv[2], argv[3])
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        names = schema_names(json.load(f), set())
    with open(argv[2], encoding="utf-8") as f:
        text = section(f.read())
    if not names:
        print(f"{argv[1]}: no properties found", file=sys.stderr)
        return 1
    if text is None:
        print(f"{argv[2]}: no section titled '{HEADING}'", file=sys.stderr)
        return 1
    documented = set(re.findall(r"`([^`\n]+)`", text))
    missing = sorted(names - documented)
    if missing:
        print(f"{argv[2]}: section '{HEADING}' does not document these {len(missing)} field(s) of "
              f"{argv[1]} (each must appear as `name`):", file=sys.stderr)
        for name in missing:
            print(f"  {name}", file=sys.stderr)
        return 1
    print(f"all {len(names)} fields of {argv[1]} are documented in '{HEADING}'")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
