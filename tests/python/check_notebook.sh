#!/usr/bin/env bash
# ctest python.notebook (label long): executes examples/audit.ipynb with Debian's jupyter
# nbconvert and ipykernel against the build's module, and checks that its report cells show the
# battery's table and heatmap and that the two-riffle machine fails. Installs jupyter-nbconvert
# and python3-ipykernel with apt-get when missing (about 50 packages); exits 77 (skipped, with
# the reason) when it cannot. Usage: check_notebook.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
if ! command -v jupyter-nbconvert >/dev/null 2>&1 || ! /usr/bin/python3 -c 'import ipykernel' 2>/dev/null; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "skipped: jupyter-nbconvert or python3-ipykernel missing, and installing them needs root and apt-get"
    exit 77
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends jupyter-nbconvert python3-ipykernel >/dev/null 2>&1; then
    echo "skipped: apt-get could not install jupyter-nbconvert and python3-ipykernel (offline?)"
    exit 77
  fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PYTHONPATH=$build/python HOME=$tmp JUPYTER_PLATFORM_DIRS=1
if ! jupyter-nbconvert --to notebook --execute "$src/examples/audit.ipynb" --output-dir "$tmp" \
     --ExecutePreprocessor.timeout=120 --ExecutePreprocessor.kernel_name=python3 >"$tmp/log" 2>&1; then
  echo "FAIL: nbconvert --execute: $(tail -20 "$tmp/log")"
  exit 1
fi
exec /usr/bin/python3 - "$tmp/audit.ipynb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
outs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
htmls = ["".join(o["data"]["text/html"]) for o in outs if "text/html" in o.get("data", {})]
texts = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")) for o in outs)
errors = [o for o in outs if o.get("output_type") == "error"]
assert not errors, errors
assert len(htmls) == 2, f"{len(htmls)} HTML outputs"
# The --report page's section, its styles scoped to its own <div>.
assert htmls[0].startswith('<div class="shufl-audit">\n<style>'), htmls[0][:300]
assert '<p class="overall fail"' in htmls[0] and 'data-picture="card-position"' in htmls[0], htmls[0][:300]
assert '<p class="overall pass"' in htmls[1]
assert "result: fail: evidence of non-randomness in 3000 decks" in texts, texts[-2000:]
print("notebook: executed; the two-riffle machine fails, random.shuffle passes")
PY
