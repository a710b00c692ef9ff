#!/usr/bin/python3
"""The pandas baseline for `ridgepoint analyze --format csv` (docs/PERFORMANCE.md, "analyze on a
million rows"): read_csv of a points file (name,flops,bytes,seconds,group, bench/make_points.py),
the same per-point columns analyze computes on one roof (H100 BF16 tensor 989 TFLOP/s over HBM3
3.35 TB/s: intensity, performance, attainable, utilization, payoff, bound, T_min, T_max) and
to_csv of the result.

    bench/pandas_analyze.py /tmp/points-1000000.csv /dev/null
"""

import sys

import numpy as np
import pandas as pd

PEAK = 989e12  # FLOP/s
BANDWIDTH = 3.35e12  # B/s


def main():
    source, target = sys.argv[1], sys.argv[2]
    frame = pd.read_csv(source)
    flops, data, seconds = frame["flops"], frame["bytes"], frame["seconds"]
    out = pd.DataFrame({"kernel": frame["name"], "group": frame["group"]})
    out["flops [FLOP]"] = flops
    out["bytes [B]"] = data
    out["intensity [FLOP/B]"] = flops / data
    out["time [s]"] = seconds
    out["performance [FLOP/s]"] = flops / seconds
    out["attainable [FLOP/s]"] = np.minimum(PEAK, BANDWIDTH * out["intensity [FLOP/B]"])
    out["utilization [1]"] = out["performance [FLOP/s]"] / out["attainable [FLOP/s]"]
    share = seconds / seconds.sum()
    out["payoff [1]"] = share * (1.0 - out["utilization [1]"].clip(0.0, 1.0))
    out["bound"] = np.where(BANDWIDTH * out["intensity [FLOP/B]"] < PEAK, "memory", "compute")
    t_math, t_mem = flops / PEAK, data / BANDWIDTH
    out["T_min [s]"] = np.maximum(t_math, t_mem)
    out["T_max [s]"] = t_math + t_mem
    out.to_csv(target, index=False)


if __name__ == "__main__":
    main()
