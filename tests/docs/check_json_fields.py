#!/usr/bin/env python3
"""Checks that docs/json.md documents every field of the `shufl bias --format json` report (issue 11).

Usage: check_json_fields.py SCHEMA PAGE

SCHEMA is schema/bias-report.schema.json. Every property name it declares, anywhere (top level,
nested objects and everything under "definitions": result, test, secondary, exact, power,
monte_carlo, primary, ...), must appear as `name` (the whole name between backticks) inside the
page's subsection whose heading is "JSON report fields" (from that heading to the next heading
of the same or a higher level; fenced code blocks are not searched for headings).

Exit status 0 when every name is documented; 1 with the list of missing names otherwise (also
when the subsection is missing or the schema declares no properties). Standard library only.
"""
import json
import re
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


def section(markdown):
    """The text of the subsection titled HEADING, or None."""
    lines = markdown.splitlines()
    start = level = None
    fenced = False
    out = []
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if start is None:
            if m and m.group(2) == HEADING:
                start, level = True, len(m.group(1))
            continue
        if m and len(m.group(1)) <= level:
            break
        out.append(line)
    return None if start is None else "\n".join(out)


def main(argv):
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
