#!/usr/bin/env python3
"""Writes a large PyTorch profiler trace for the timings of docs/PERFORMANCE.md ("Profiler
traces"): the A100 fixture's events (diff_control_a100.json.gz, in tests/data/traces) repeated, each
copy's times shifted past the one before and its correlation, External id and flow ids shifted
past the highest of the fixture, until the file reaches the size asked for (124 MB by default).
Not test data: the file goes to /tmp and is never committed.

    bench/make_trace.py /tmp/trace-124mb.json [MEGABYTES]

Written as Kineto writes (deviceProperties first, one event a line), plain JSON, not gzip. The
events go in order of time (those without one, the metadata, first), so a file smaller than one
copy of the fixture is its first milliseconds whole: the CPU operators, the launches and the
kernels of that stretch (the fixture lists its CPU events before its GPU events, and a cut in
that order left a small trace without one kernel).
"""

import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "tests", "data", "traces", "diff_control_a100.json.gz")


def in_time(event):
    """Events without a time (metadata) first, then by time."""
    ts = event.get("ts")
    return (1, ts) if isinstance(ts, (int, float)) else (0, 0)


def shifted(event, dt, did):
    e = dict(event)
    if "ts" in e:
        e["ts"] = e["ts"] + dt
    if "id" in e and isinstance(e["id"], int):
        e["id"] = e["id"] + did
    args = e.get("args")
    if isinstance(args, dict):
        args = dict(args)
        for key in ("correlation", "External id"):
            if isinstance(args.get(key), int):
                args[key] = args[key] + did
        e["args"] = args
    return e


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out_path = sys.argv[1]
    target = int(float(sys.argv[2]) * 1e6) if len(sys.argv) == 3 else 124_000_000
    with gzip.open(FIXTURE, "rt") as f:
        trace = json.load(f)
    events = sorted(trace["traceEvents"], key=in_time)
    starts = [e["ts"] for e in events if isinstance(e.get("ts"), (int, float))]
    ends = [e["ts"] + e.get("dur", 0) for e in events if isinstance(e.get("ts"), (int, float))]
    span = max(ends) - min(starts) + 1000
    ids = [0]
    for e in events:
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        for v in (args.get("correlation"), args.get("External id"), e.get("id")):
            if isinstance(v, int):
                ids.append(v)
    idspan = max(ids) + 1
    head = {k: v for k, v in trace.items() if k != "traceEvents"}
    with open(out_path, "w") as out:
        out.write("{\n")
        for key, value in head.items():
            out.write(f"  {json.dumps(key)}: {json.dumps(value)},\n")
        out.write('  "traceEvents": [\n')
        written = out.tell()
        copy = 0
        first = True
        while written < target:
            for event in events:
                line = json.dumps(shifted(event, copy * span, copy * idspan))
                out.write(("" if first else ",\n") + line)
                written += len(line) + 2
                first = False
                if written >= target:
                    break
            copy += 1
        out.write("\n  ]\n}\n")
    print(f"{out_path}: {os.path.getsize(out_path) / 1e6:.1f} MB, the fixture's {len(events)} "
          f"events {copy} times (the last in part)")


if __name__ == "__main__":
    main()
