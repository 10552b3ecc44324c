#!/usr/bin/env python3
"""ctest docs.manpage (issue 13, item 8): the generated man page as a reader sees it.

Usage: check_manpage.py SHUFL_BINARY MAN_PAGE

1. Rendered by man(1) at 80 columns (MANWIDTH=80), the page renders without warnings and no line,
   EXAMPLES included, is wider than 80 columns.
2. Every option row of `shufl lines|bias|deck|trace|audit --help` (GNU's options, shufl's extensions,
   CLI11's positionals alike) is a man(7) option entry: in the source a `.TP` whose tag line has
   each option name in bold (\\fB...\\fR) and reads as the --help row's names; rendered, the tag
   starts at column 8 and the description's first word follows it (same line when the tag is
   short, else the next line at column 15), as for every other option.

The --help rows are parsed here with a regex of this script's own, not with the generator's code.
"""
import os
import re
import subprocess
import sys
import unicodedata

SUBCOMMANDS = ["lines", "bias", "deck", "trace", "audit"]
WIDTH = 80
TAG_COLUMN = 7    # man's section indent
TEXT_COLUMN = 14  # .TP's default indent (7 + 7)


def columns(text):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1 for c in text)


def help_rows(binary, sub):
    """(names, first word of the description) of each option row of `shufl SUB --help`."""
    text = subprocess.run([binary, sub, "--help"], capture_output=True, text=True, check=True).stdout
    rows, positionals = [], False
    for line in text.split("\n"):
        if line and not line.startswith(" "):
            positionals = line.strip() == "Positionals:"
            continue
        match = re.match(r"^ {1,8}(-\S.*?)(?: {2,}(\S+).*)?$", line)
        if not match and positionals:
            match = re.match(r"^ {1,8}([a-z]\S*(?: [A-Z]\S*)?(?: \.\.\.)?)(?: {2,}(\S+).*)?$", line)
        if match:
            rows.append((match.group(1), match.group(2)))
    return rows


def roff_plain(line):
    return re.sub(r"\\f[BIRP]", "", line).replace("\\-", "-").replace("\\e", "\\").replace("\\&", "")


def main():
    binary, page = sys.argv[1], sys.argv[2]
    failures = []
    env = dict(os.environ, MANWIDTH=str(WIDTH), LC_ALL="C.UTF-8")
    env.pop("MAN_KEEP_FORMATTING", None)
    proc = subprocess.run(["man", "-l", page], capture_output=True, text=True, env=env)
    if proc.returncode != 0 or proc.stderr.strip():
        failures.append(f"man -l {page}: status {proc.returncode}, stderr: {proc.stderr.strip()}")
    rendered = [re.sub(r".\x08", "", l) for l in proc.stdout.split("\n")]
    for number, line in enumerate(rendered, 1):
        if columns(line) > WIDTH:
            failures.append(f"rendered line {number} is {columns(line)} columns wide: {line!r}")

    source = open(page, encoding="utf-8").read().split("\n")
    tags = {}  # plain tag text -> roff tag line, for every .TP entry
    for k, line in enumerate(source[:-1]):
        if line.strip() == ".TP":
            tags.setdefault(roff_plain(source[k + 1]), source[k + 1])

    checked = 0
    for sub in SUBCOMMANDS:
        rows = help_rows(binary, sub)
        if len(rows) < 3:
            failures.append(f"shufl {sub} --help: only {len(rows)} option rows found")
        for names, first_word in rows:
            checked += 1
            what = f"shufl {sub}: {names}"
            tag = tags.get(names)
            if tag is None:
                failures.append(f"{what}: no .TP entry with this tag in the source")
                continue
            for name in re.findall(r"(?:^|, )(--?[A-Za-z0-9][\w-]*)", names):
                if "\\fB" + name.replace("-", "\\-") + "\\fR" not in tag:
                    failures.append(f"{what}: {name} is not bold in the tag {tag!r}")
            indent = " " * TAG_COLUMN
            at = [k for k, l in enumerate(rendered) if l.startswith(indent + names) and
                  (len(l) == TAG_COLUMN + len(names) or l[TAG_COLUMN + len(names)] == " ")]
            if not at:
                failures.append(f"{what}: no rendered line starts with the tag at column {TAG_COLUMN + 1}")
                continue
            if first_word is None:
                continue
            ok = False
            for k in at:
                rest = rendered[k][TAG_COLUMN + len(names):]
                if rest.strip():
                    ok = rest.split()[0] == first_word and len(rendered[k]) - len(rest.lstrip()) == TEXT_COLUMN
                elif k + 1 < len(rendered):
                    following = rendered[k + 1]
                    ok = following.startswith(" " * TEXT_COLUMN + first_word)
                if ok:
                    break
            if not ok:
                failures.append(f"{what}: its description ({first_word} ...) is not indented at column "
                                f"{TEXT_COLUMN + 1} under or beside the tag: "
                                + " | ".join(rendered[k:k + 2] for k in at[:1]).__repr__())
    for f in failures:
        print("FAIL:", f)
    print(f"{len(rendered)} rendered lines, {checked} options checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
