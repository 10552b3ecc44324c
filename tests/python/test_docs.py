"""Every ```python block of README.md and docs/python.md runs, and what its comments say it
prints (a `print(...)  # -> WORDS` line) is what it prints."""

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def blocks():
    for page in ("README.md", "docs/python.md"):
        text = (ROOT / page).read_text()
        for i, m in enumerate(re.finditer(r"```python\n(.*?)```", text, re.S)):
            yield pytest.param(m.group(1), id=f"{page}#{i}")


@pytest.mark.parametrize("code", list(blocks()))
def test_block(code):
    for line in code.splitlines():
        m = re.match(r"\s*print\((.*)\)\s+# -> (.+)$", line)
        if not m:
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code.split(line)[0] + f"print({m.group(1)})", "<doc>", "exec"), {})
        assert out.getvalue().strip().splitlines()[-1] == m.group(2).strip(), line
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "<doc>", "exec"), {})


@pytest.mark.parametrize("module", ["shufl", "shufl._audit", "shufl._bias", "shufl._plan", "shufl._detector",
                                    "shufl.testing"])
def test_docstring_examples(module):
    import doctest
    import importlib

    failed, _ = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert failed == 0
