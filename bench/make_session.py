#!/usr/bin/env python3
"""Writes a large synthetic Ridgepoint session for the memory timings of docs/PERFORMANCE.md
("Memory of analyze"). Not test data: the file goes to /tmp and is never committed.

    bench/make_session.py 400000 /tmp/session-400000.ridgepoint.json

Pretty-printed as Ridgepoint writes sessions (indent 2): 400 000 points make about 210 MB. The
machine is the tests' full session's H100 (BF16 tensor, HBM3 and L2); each point has two byte
levels, a what-if move on every tenth, and six groups. A fixed seed makes the same file every time.
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, help="number of points")
    parser.add_argument("output", help="session file to write")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    points = []
    for i in range(args.count):
        flops = log_uniform(rng, 1e6, 1e13)
        intensity = log_uniform(rng, 1e-2, 1e3)
        attainable = min(989e12, 3.35e12 * intensity)
        seconds = flops / (attainable * log_uniform(rng, 1e-3, 1.0))
        bytes_ = flops / intensity
        points.append({
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
            "bytesFactor": 0.5 if i % 10 == 0 else 1.0,
            "timeFactor": 0.8 if i % 10 == 0 else 1.0,
        })
    session = {"format": "ridgepoint-session", "version": 1, "hardware": HARDWARE,
               "points": points}
    with open(args.output, "w", encoding="utf-8") as out:
        json.dump(session, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
