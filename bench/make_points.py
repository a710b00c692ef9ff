#!/usr/bin/env python3
"""Writes a synthetic points CSV (name,flops,bytes,seconds,group) for the render and analyze
timings of docs/PERFORMANCE.md. Not test data: the files go to /tmp and are never committed.

    bench/make_points.py 100000 /tmp/points-100k.csv
    bench/make_points.py 1000000 /tmp/points-1m.csv

Points spread log-uniformly over intensities 0.01-1000 FLOP/B and 1e6-1e13 FLOP, each running
at 0.1-100 % of what an H100's BF16/HBM3 roof allows (so none is faster than those two roofs;
the H100 preset's 1 us launch latency, docs/MODEL.md section 13, flags those timed under it),
in six groups. A fixed seed makes the same file every time.
"""

import argparse
import math
import random

PEAK = 989e12  # FLOP/s, H100 SXM5 BF16 tensor (resources/presets)
BANDWIDTH = 3.35e12  # B/s, HBM3
GROUPS = ["attention", "mlp", "norm", "embedding", "optimizer", "comms"]


def log_uniform(rng, low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, help="number of points")
    parser.add_argument("output", help="CSV file to write")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.output, "w", encoding="ascii", newline="\n") as out:
        out.write("name,flops,bytes,seconds,group\n")
        for i in range(args.count):
            intensity = log_uniform(rng, 1e-2, 1e3)
            flops = log_uniform(rng, 1e6, 1e13)
            attainable = min(PEAK, BANDWIDTH * intensity)
            performance = attainable * log_uniform(rng, 1e-3, 1.0)
            out.write(f"k{i},{flops:.6g},{flops / intensity:.6g},{flops / performance:.6g},"
                      f"{GROUPS[i % len(GROUPS)]}\n")


if __name__ == "__main__":
    main()
