#!/usr/bin/env python3
"""Sweep of `shufl bias` (issue 11): the algorithm zoo x n x trials x --test x --monte-carlo.

Every run with --check must exit 0, 3 or 4 (or 1 with an error message for `--test table` at
n > 10, the one right refusal), print no `nan`/`inf`, and its JSON must validate against
schema/bias-report.schema.json (Debian's python3-jsonschema).

usage: check_bias_schema.py SHUFL SCHEMA quick|medium|full
  quick:  a fixed-seed sample of 20 runs (x text, JSON, CSV) plus --exact and --input outputs (seconds)
  medium: every combination with at most 10^4 trials, plus a fixed-seed sample of 60 with 10^5 and
          10^6 trials (minutes)
  full:   the whole product (ctest label `long`)
"""
import itertools
import json
import random
import re
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed")
    sys.exit(77)

BAD = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def main():
    shufl, schema_path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    schema = json.load(open(schema_path, encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    zoo = []
    for line in subprocess.run([shufl, "bias", "--list"], check=True, capture_output=True, text=True).stdout.splitlines():
        name = line.split()[0]
        zoo.append(name.replace(":BITS", ":8").replace(":K", ":3").replace(":M", ":3").replace(":Q", ":0.5")
                   .replace("A+B+...", "riffle:1+cut"))
    ns = [3, 5, 8, 13, 52]
    trials = [1, 2, 10, 100, 1000, 10000, 100000, 1000000]
    tests = ["auto", "table", "position"]
    mcs = [None, "10"]
    runs = list(itertools.product(zoo, ns, trials, tests, mcs))
    if mode == "quick":
        rng = random.Random(11)
        runs = [r for r in runs if r[2] <= 1000 and (r[4] is None or r[2] <= 100)]
        runs = rng.sample(runs, 20)
    elif mode == "medium":
        rng = random.Random(12)
        small = [r for r in runs if r[2] <= 10000]
        runs = small + rng.sample([r for r in runs if r[2] > 10000], 60)
    failures = []
    checked = 0

    def run(args, expect_json=True, stdin=None):
        nonlocal checked
        r = subprocess.run([shufl] + args, capture_output=True, text=True, input=stdin, timeout=3600)
        checked += 1
        where = " ".join(args)
        table_refused = "table" in args and int(args[args.index("--n") + 1]) > 10 if "--n" in args else False
        if table_refused:
            if r.returncode != 1 or not r.stderr.startswith("shufl: ") or r.stdout:
                failures.append(f"{where}: expected a refusal (exit 1), got {r.returncode}")
            return
        if r.returncode not in (0, 3, 4):
            failures.append(f"{where}: exit {r.returncode}: {r.stderr.strip()}")
            return
        if BAD.search(r.stdout):
            failures.append(f"{where}: prints nan/inf: {BAD.search(r.stdout).group(0)}")
        if expect_json:
            try:
                doc = json.loads(r.stdout)
            except ValueError as e:
                failures.append(f"{where}: not JSON: {e}")
                return
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
            for e in errors[:3]:
                failures.append(f"{where}: {'/'.join(map(str, e.path))}: {e.message}")
            # "correction" reflects the valid tests: each result's m = the primary (when valid) plus
            # the secondary tests in the verdict; Holm exactly when m > 1; the top level is "holm"
            # exactly when some result's is.
            results = doc.get("results", []) if isinstance(doc, dict) else []
            for res in results:
                if "primary" not in res:
                    continue
                m = int(res["primary"]["in_verdict"]) + sum(1 for t in res["secondary"] if t["in_verdict"])
                valid = all(t["valid"] for t in res["secondary"] if t["in_verdict"])
                if res["primary"]["in_verdict"] != res["primary"]["valid"] or not valid:
                    failures.append(f"{where}: {res['algorithm']}: a test that is not valid is in the verdict")
                if res["tests_in_verdict"] != m or res["correction"] != ("holm" if m > 1 else "none"):
                    failures.append(f"{where}: {res['algorithm']}: correction {res['correction']!r} with "
                                    f"{res['tests_in_verdict']} tests in the verdict, {m} valid ones")
            if results and doc["correction"] != ("holm" if any(r.get("correction") == "holm" for r in results) else "none"):
                failures.append(f"{where}: top-level correction {doc['correction']!r} disagrees with the results")

    for algo, n, t, test, mc in runs:
        args = ["bias", "--algo", algo, "--n", str(n), "--trials", str(t), "--test", test, "--seed", "sweep",
                "--check", "--threads", "2"]
        if mc:
            args += ["--monte-carlo", mc]
        run(args + ["--format", "json"])
        run(args, expect_json=False)
        run(args + ["--format", "csv"], expect_json=False)
    # Other shapes of the report: --exact (enumeration and the riffle closed form), --input.
    run(["bias", "--exact", "--n", "4", "--algo", "naive,fisher-yates,riffle:2", "--format", "json", "--check"])
    run(["bias", "--exact", "--n", "52", "--algo", "riffle:7", "--format", "json"])
    identity = " ".join(str(i) for i in range(1, 53)) + "\n"
    for lines in (identity, identity * 100, "1 2 3\n" * 4 + "1 3 2\n"):
        run(["bias", "--input", "-", "--format", "json", "--check"], stdin=lines)
        run(["bias", "--input", "-", "--format", "json", "--check", "--monte-carlo", "20", "--seed", "1"], stdin=lines)

    for f in failures[:50]:
        print(f)
    print(f"{checked} runs, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
