#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Join the BENCH lines of one guest boot into a table and a JSON file.

usage: report.py [--require-all] RESULTS_DIR RATIOS_CONF
       report.py --markdown RATIOS_CONF
Reads RESULTS_DIR/*.log and RESULTS_DIR/config, prints a table of every
figure and every ratio whose two figures were measured, and writes
RESULTS_DIR/bench.json. A figure measured at a scale (streams, buffers)
carries "size", the size actually measured: smoke runs shrink it while the
figure keeps its full-run name, and the tables show it. With --markdown, prints the ratio table of the
README's Benchmarks section (tests/bench/check-readme.sh keeps them equal).
With --require-all (run.sh --smoke), exit 1 if any ratio of RATIOS_CONF
could not be computed, listing each with the figures it lacks: the smoke
run proves every figure still comes out.
"""
import glob
import json
import os
import sys


def read_figures(results):
    figures = {}
    for log in sorted(glob.glob(os.path.join(results, "*.log"))):
        program = os.path.basename(log)[:-4]
        with open(log) as f:
            for line in f:
                if not line.startswith("BENCH "):
                    continue
                fig = json.loads(line[6:])
                fig["program"] = program
                figures[fig["name"]] = fig
    return figures


def read_ratios(path):
    ratios = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, num, den, good = [p.strip() for p in line.split("|", 3)]
            ratios.append((name, num, den, good))
    return ratios


def read_config(results):
    config = {}
    path = os.path.join(results, "config")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, _, value = line.rstrip("\n").partition("=")
                config[key] = value
    return config


def markdown(ratios_conf):
    print("| ratio | numerator / denominator | what a good value is |")
    print("| --- | --- | --- |")
    for name, num, den, good in read_ratios(ratios_conf):
        print(f"| `{name}` | `{num}` / `{den}` | {good} |")
    return 0


def usage():
    print("usage: report.py [--require-all] RESULTS_DIR RATIOS_CONF\n"
          "       report.py --markdown RATIOS_CONF", file=sys.stderr)
    return 2


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--markdown":
        return markdown(args[1])
    require_all = args[:1] == ["--require-all"]
    if require_all:
        args = args[1:]
    if len(args) != 2 or args[0].startswith("-"):
        return usage()
    results, ratios_conf = args
    figures = read_figures(results)
    config = read_config(results)
    out_ratios = []
    missing = []
    for name, num, den, good in read_ratios(ratios_conf):
        if num in figures and den in figures and figures[den]["median"] > 0:
            value = figures[num]["median"] / figures[den]["median"]
            out_ratios.append({"name": name, "numerator": num,
                               "denominator": den, "value": value,
                               "good": good})
        else:
            why = [f"no {f}" for f in (num, den) if f not in figures]
            if not why:
                why = [f"{den} median is 0"]
            missing.append((name, ", ".join(why)))

    print("guest: " + ", ".join(f"{k}={v}" for k, v in config.items()))
    print(f"{'figure':34} {'median':>14} {'p99':>14} {'size':>8}  unit")
    for name, fig in figures.items():
        size = fig.get("size", "")
        print(f"{name:34} {fig['median']:14.1f} {fig['p99']:14.1f} {size:>8}  {fig['unit']}")
    print()
    print(f"{'ratio':34} {'value':>10}  what a good value is")
    for r in out_ratios:
        sizes = ", ".join(f"{n} at size {figures[n]['size']}"
                          for n in (r["numerator"], r["denominator"])
                          if "size" in figures[n])
        note = f" [{sizes}]" if sizes else ""
        print(f"{r['name']:34} {r['value']:10.3f}  {r['good']}{note}")

    if missing:
        print(f"\nnot computed: {len(missing)} ratio(s)")
        for name, why in missing:
            print(f"  {name}: {why}")

    with open(os.path.join(results, "bench.json"), "w") as f:
        json.dump({"config": config, "figures": figures, "ratios": out_ratios,
                   "missing_ratios": [m[0] for m in missing]},
                  f, indent=2)
    print(f"\nwritten: {os.path.join(results, 'bench.json')}")
    if require_all and missing:
        print(f"report.py: {len(missing)} ratio(s) of {ratios_conf} could not be "
              f"computed: {', '.join(m[0] for m in missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
