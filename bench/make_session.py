#!/usr/bin/env python3
"""Writes a large synthetic Ridgepoint session for the timings of docs/PERFORMANCE.md ("Memory of
analyze", "Sessions with moves and workloads"). Not test data: the file goes to /tmp and is never
committed.

    bench/make_session.py 400000 /tmp/session-400000.ridgepoint.json
    bench/make_session.py --kind moved 10000 /tmp/session-moved-10000.ridgepoint.json
    bench/make_session.py --kind workloads 20000 /tmp/session-workloads-20000.ridgepoint.json

Pretty-printed as Ridgepoint writes sessions (indent 2): 400 000 points make about 210 MB. The
machine is the tests' full session's H100 (BF16 tensor, HBM3 and L2); each point has two byte
levels and one of six groups. --kind mixed (the default) moves every tenth point; moved moves every
point (a what-if move each: bytes x0.5, time x0.8); workloads makes every point a planned bf16
matmul (B, D, F from 16 to 16384) with no move. A fixed seed makes the same file every time.
"""

import argparse
import json
import math
import random

GROUPS = ["attention", "mlp", "norm", "embedding", "optimizer", "comms"]
HARDWARE = {
    "format": "ridgepoint-hardware",
    "version": 1,
    "name": "NVIDIA H100 SXM5 80GB",
    "kind": "gpu",
    "default_compute": "BF16 tensor",
    "compute": [
        {"name": "BF16 tensor", "precision": "bf16", "unit": "tensor", "peak": 989e12},
        {"name": "FP32 CUDA", "precision": "fp32", "unit": "vector", "peak": 67e12},
    ],
    "memory": [
        {"name": "HBM3", "level": "HBM", "bandwidth": 3.35e12},
        {"name": "L2 cache", "level": "L2", "bandwidth": 12e12},
    ],
}


def log_uniform(rng, low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def measured_entry(rng, i, moved):
    flops = log_uniform(rng, 1e6, 1e13)
    intensity = log_uniform(rng, 1e-2, 1e3)
    attainable = min(989e12, 3.35e12 * intensity)
    seconds = flops / (attainable * log_uniform(rng, 1e-3, 1.0))
    bytes_ = flops / intensity
    return {
        "point": {
            "name": f"kernel_{i}",
            "flops": flops,
            "bytes": [{"level": None, "bytes": bytes_}, {"level": "L2", "bytes": 3 * bytes_}],
            "seconds": seconds,
            "performance": None,
            "intensity": None,
            "precision": "bf16",
            "group": GROUPS[i % len(GROUPS)],
        },
        "bytesFactor": 0.5 if moved else 1.0,
        "timeFactor": 0.8 if moved else 1.0,
    }


def workload_entry(rng, i):
    # The point is derived again from the workload on load; the one written is its plain count.
    b, d, f = (int(log_uniform(rng, 16, 16384)) for _ in range(3))
    group = GROUPS[i % len(GROUPS)]
    return {
        "point": {
            "name": f"matmul_{i} {b}x{d}x{f}",
            "flops": 2.0 * b * d * f,
            "bytes": [{"level": None, "bytes": 2.0 * (b * d + d * f + b * f)}],
            "seconds": None,
            "performance": None,
            "intensity": None,
            "precision": "bf16",
            "group": group,
        },
        "workload": {"kind": "matmul", "b": b, "d": d, "f": f, "dtype": "bf16", "group": group},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, help="number of points")
    parser.add_argument("output", help="session file to write")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--kind", choices=["mixed", "moved", "workloads"], default="mixed")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    points = []
    for i in range(args.count):
        if args.kind == "workloads":
            points.append(workload_entry(rng, i))
        else:
            points.append(measured_entry(rng, i, args.kind == "moved" or i % 10 == 0))
    session = {"format": "ridgepoint-session", "version": 1, "hardware": HARDWARE,
               "points": points}
    with open(args.output, "w", encoding="utf-8") as out:
        json.dump(session, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
