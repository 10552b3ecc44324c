#!/usr/bin/env python3
"""Checks every relative link and anchor in README.md, NEWS.md and docs/*.md.

Usage: check_links.py SOURCE_DIR

A link `[text](target)` or an image `![alt](target)` whose target is not a URL (no scheme) must
name an existing file relative to the page (or the page itself when the target is only
`#anchor`); an `#anchor` must be the GitHub slug of a heading of the target Markdown file
(lowercase; punctuation other than `-` and `_` dropped; spaces become `-`; repeated headings get
`-1`, `-2`, ...). Links inside fenced code blocks and inline code are ignored.

Exit status 0 when every link resolves; 1 listing each broken one as FILE:LINE: TARGET (REASON).
Standard library only.
"""
import os
import re
import sys

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+"[^"]*")?\)')


def strip_code(line):
    return re.sub(r'`[^`]*`', '', line)


def slug(heading):
    text = heading.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)  # keeps letters, digits, _, -, spaces (Unicode-aware)
    return text.replace(' ', '-')


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        found = set()
        fenced = False
        with open(path, encoding='utf-8') as f:
            for line in f:
                if line.startswith('```'):
                    fenced = not fenced
                    continue
                m = None if fenced else re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
                if m:
                    base = slug(m.group(1))
                    k = seen.get(base, 0)
                    found.add(base if k == 0 else f'{base}-{k}')
                    seen[base] = k + 1
        cache[path] = found
    return cache[path]


def pages(root):
    out = [os.path.join(root, p) for p in ('README.md', 'NEWS.md', 'ARCHITECTURE.md')]
    docs = os.path.join(root, 'docs')
    if os.path.isdir(docs):
        out += sorted(os.path.join(docs, p) for p in os.listdir(docs) if p.endswith('.md'))
    return [p for p in out if os.path.isfile(p)]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    broken = []
    checked = 0
    for page in pages(root):
        fenced = False
        with open(page, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                if line.startswith('```'):
                    fenced = not fenced
                    continue
                if fenced:
                    continue
                for target in LINK.findall(strip_code(line)):
                    if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                        continue  # a URL
                    checked += 1
                    path, _, anchor = target.partition('#')
                    dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                    where = f'{os.path.relpath(page, root)}:{number}: {target}'
                    if not os.path.exists(dest):
                        broken.append(f'{where} (no file {os.path.relpath(dest, root)})')
                    elif anchor and (not dest.endswith('.md') or anchor not in anchors(dest)):
                        broken.append(f'{where} (no heading with anchor #{anchor})')
    for b in broken:
        print(b)
    print(f'{checked} relative links checked, {len(broken)} broken')
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
