# Independent check of tst_attentioniobounds, written apart from the C++ (docs/MODEL.md §12.1):
# the least bytes max(compulsory, w·(P·d² − p·M²)/(M + 2d²)) of an attention forward, its
# intensity at that traffic, the limit 2(d + dv)(M + 2d²)/(w·d²), and the capacity a traffic
# needs, in exact fractions. Run: python3 tests/core/analysis/attention_io_check.py
from fractions import Fraction as F
from math import isqrt

KiB, MiB = 1024, 1024 * 1024


def pairs(n, nkv, causal):
    if not causal:
        return n * nkv
    full = min(n, nkv)
    return F(full * (full + 1), 2) + max(0, n - nkv) * nkv


def case(name, heads, kvheads, n, nkv, causal, d, dv, wq, wkv, cap, units):
    w = min(wq, wkv)
    M = F(cap, w)
    P = heads * pairs(n, nkv, causal)
    compulsory = heads * n * (d + dv) * wq + kvheads * nkv * (d + dv) * wkv
    # units 0: the count of such memories is not known, so the compulsory term alone.
    pebble = max(F(0), (P * d * d - units * M * M) / (M + 2 * d * d)) if units else F(0)
    least = max(F(compulsory), w * pebble)
    flops = 2 * P * (d + dv)
    limit = 2 * F(d + dv) * (M + 2 * d * d) / (w * d * d)
    print(f"{name}: compulsory {float(compulsory):.10g} B, pebble {float(w * pebble):.10g} B, "
          f"least {float(least):.10g} B, flops {float(flops):.10g}, "
          f"intensity {float(flops / least):.10g} FLOP/B, limit {float(limit):.10g} FLOP/B")
    return least


def needed(heads, n, nkv, causal, d, w, traffic, units):
    # p·M² + t·M − d²(P − 2t) = 0; checked by putting the root back into the bound.
    t = F(traffic, w)
    P = heads * pairs(n, nkv, causal)
    c = d * d * (P - 2 * t)
    if c <= 0:
        return 0.0
    disc = t * t + 4 * units * c
    root = (disc ** 0.5 - float(t)) / (2 * units)
    back = (P * d * d - units * F(root) ** 2) / (F(root) + 2 * d * d)
    print(f"capacity needed for {traffic} B: {w * root:.10g} B (bound there {float(w * back):.10g} B)")


h100 = dict(heads=32, kvheads=8, n=8192, nkv=8192, d=128, dv=128, wq=2, wkv=2)
case("H100 smem, 8192 full", causal=False, cap=228 * KiB, units=132, **h100)
case("H100 smem, 8192 causal", causal=True, cap=228 * KiB, units=132, **h100)
case("H100 L2, 8192 full", causal=False, cap=50 * MiB, units=1, **h100)
case("H100 smem, unknown SM count", causal=False, cap=228 * KiB, units=0, **h100)
case("round: d=10, M=100, n=1000", heads=1, kvheads=1, n=1000, nkv=1000, causal=False, d=10,
     dv=10, wq=1, wkv=1, cap=100, units=1)
case("round: causal", heads=1, kvheads=1, n=1000, nkv=1000, causal=True, d=10, dv=10, wq=1,
     wkv=1, cap=100, units=1)
needed(1, 1000, 1000, False, 10, 1, 333300, 1)
needed(32, 8192, 8192, False, 128, 2, 200_000_000, 132)
print("H100 causal pairs 8192:", pairs(8192, 8192, True), " 4 queries over 3 keys:", pairs(4, 3, True))
