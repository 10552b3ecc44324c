#!/usr/bin/env python3
"""Checks the rooms of ARCHITECTURE.md against the code: what src/cli/ may include, which engine
may include which, and the size caps.

Usage: check_layout.py SOURCE_DIR

Rules (ARCHITECTURE.md, "Rules"):
- src/cli/ parses, opens files, installs signals, dispatches and calls src/render/: it includes
  no statistics (stats.hpp, exact.hpp, permutation.hpp, audit's laws and statistics, Boost.Math)
  and no file or text formats (nlohmann/json, json_text.hpp, libcrypto, utf8proc); main.cpp's
  --version and common.cpp's catch of JSON exceptions excepted.
- bias never includes audit; lines includes neither; the foundations and the deck layer
  (src/*.cpp, include/shufl/*.hpp outside the engines) include no engine; nothing below src/cli/
  includes it, nothing below src/render/ includes render.
- src/cli/ holds at most 4,000 lines (sources and headers), no file there above 400 lines; no
  file of src/ or include/ above 750 lines.

The breaks that are still there (KNOWN below: the audit and bias command files that have not yet
moved their formats out) are a ratchet, not a pass: each may not grow, a new break fails, and an
entry of KNOWN that no longer breaks a rule fails too (remove it), so the list only shrinks.

Exit status 0 when every rule holds but the KNOWN breaks; 1 listing each break as FILE[:LINE]: WHAT.
Standard library only.
"""
import os
import re
import sys

CLI_MAX_TOTAL = 4000
CLI_MAX_FILE = 400
ANY_MAX_FILE = 750

# Includes src/cli/ may not name (a prefix of the included path).
CLI_FORBIDDEN = {
    'shufl/stats.hpp': 'statistics',
    'shufl/exact.hpp': 'statistics',
    'shufl/permutation.hpp': 'statistics',
    'shufl/audit/laws.hpp': 'statistics',
    'shufl/audit/statistics': 'statistics',
    'boost/math': 'statistics',
    'nlohmann/': 'a file or text format (JSON belongs in src/render/ or the library)',
    'shufl/json_text.hpp': 'a file or text format (JSON belongs in src/render/ or the library)',
    'openssl/': 'a file format (hashes of input files belong in the library)',
    'utf8proc': 'a text format (display widths belong in src/render/)',
}

# Includes that name a library for a reason of the CLI's own: --version prints the versions of
# the libraries shufl was built with; the catch-all tells a JSON exception in words.
EXEMPT = {
    ('src/cli/main.cpp', 'nlohmann/'), ('src/cli/main.cpp', 'openssl/'), ('src/cli/main.cpp', 'utf8proc'),
    ('src/cli/common.cpp', 'nlohmann/'),
}

# Breaks still to mend (see the module docstring): file -> the most lines it may have, and the
# (file, forbidden include) pairs it still has.
KNOWN_SIZES = {}
KNOWN_INCLUDES = set()

ENGINES = ('audit', 'bias', 'lines', 'trace')
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


def engine_of(path):
    """The engine a file of src/ or include/shufl/ belongs to, 'cli', 'render', or '' (below)."""
    parts = path.split('/')
    if parts[0] == 'src':
        if len(parts) > 2 and parts[1] in ENGINES + ('cli', 'render'):
            return parts[1]
        name = parts[1]
    else:  # include/shufl/...
        if len(parts) > 3 and parts[2] in ENGINES + ('detail', 'shuffle'):
            return parts[2] if parts[2] in ENGINES else ''
        name = parts[2]
    stem = name.split('.')[0]
    for engine in ENGINES:
        if stem == engine or stem.startswith(engine + '_'):
            return engine
    return ''


def engine_of_include(target):
    """The room an included path names ('' for the foundations and the deck layer)."""
    if target.startswith('render/'):
        return 'render'
    if not target.startswith('shufl/'):
        return ''
    return engine_of('include/' + target)


# Which rooms each room may include, besides its own and the foundations.
ALLOWED = {
    '': set(),
    'lines': set(),
    'trace': set(),
    'bias': {'trace'},
    'audit': {'bias'},  # the chunked streams of --algo only (audit.hpp says so)
    'render': set(ENGINES),
    'cli': set(ENGINES) | {'render'},
}


def main():
    root = sys.argv[1]
    problems, known = [], []
    cli_total = 0
    sizes_seen, includes_seen = set(), set()
    for top in ('src', 'include'):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(('.cpp', '.hpp', '.h')):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root).replace(os.sep, '/')
                with open(full, encoding='utf-8') as f:
                    lines = f.read().split('\n')
                count = len(lines) - (1 if lines and lines[-1] == '' else 0)
                room = engine_of(rel)
                if count > ANY_MAX_FILE:
                    problems.append(f'{rel}: {count} lines (no file of src/ or include/ above {ANY_MAX_FILE})')
                if room == 'cli':
                    cli_total += count
                    if count > CLI_MAX_FILE and count <= KNOWN_SIZES.get(rel, 0):
                        sizes_seen.add(rel)
                        known.append(f'{rel}: {count} lines (to move out: at most {CLI_MAX_FILE})')
                    elif count > CLI_MAX_FILE:
                        problems.append(f'{rel}: {count} lines (no file of src/cli/ above {CLI_MAX_FILE})')
                for number, line in enumerate(lines, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if room == 'cli':
                        for prefix, what in CLI_FORBIDDEN.items():
                            if not target.startswith(prefix) or (rel, prefix) in EXEMPT:
                                continue
                            if (rel, prefix) in KNOWN_INCLUDES:
                                includes_seen.add((rel, prefix))
                                known.append(f'{rel}:{number}: includes {target} (to move out)')
                            else:
                                problems.append(f'{rel}:{number}: includes {target}: {what} in src/cli/')
                    if room == 'cli' or '/' not in target and rel.startswith('src/cli/'):
                        continue
                    other = engine_of_include(target)
                    if other and other != room and other not in ALLOWED.get(room, set()):
                        problems.append(f'{rel}:{number}: includes {target}: {room or "a foundation"} '
                                        f'may not include {other}')
    if cli_total > CLI_MAX_TOTAL:
        problems.append(f'src/cli/: {cli_total} lines with its headers (at most {CLI_MAX_TOTAL})')
    for rel in sorted(set(KNOWN_SIZES) - sizes_seen):
        problems.append(f'{rel}: listed in KNOWN_SIZES but within the caps now: remove it from the list')
    for rel, prefix in sorted(KNOWN_INCLUDES - includes_seen):
        problems.append(f'{rel}: listed in KNOWN_INCLUDES for {prefix} but no longer includes it: remove it')
    for k in known:
        print(f'known, still to mend: {k}')
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
