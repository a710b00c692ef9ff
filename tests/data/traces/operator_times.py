#!/usr/bin/env python3
"""Per-operator GPU time of two Kineto traces, linked independently of Ridgepoint's reader:
kernel -> runtime launch by args.correlation -> innermost cpu_op on the launch's thread whose
[ts, ts+dur] holds the launch's ts. Key: operator name and its tensor inputs' (type, dims).
Prints baseline time, current time and baseline/current per key, largest baseline first.

    operator_times.py BASELINE.json.gz CURRENT.json.gz [ROWS]
"""
import bisect, collections, gzip, json, sys

TENSOR = {'float', 'double', 'c10::Half', 'c10::BFloat16', 'long int', 'int', 'bool',
          'signed char', 'unsigned char', 'short int', 'c10::complex<float>'}

def op_times(path):
    events = json.load(gzip.open(path) if path.endswith('.gz') else open(path))['traceEvents']
    launches = {}
    ops = collections.defaultdict(list)
    kernels = []
    for e in events:
        cat = e.get('cat')
        if cat == 'cuda_runtime' and 'correlation' in e.get('args', {}):
            launches[e['args']['correlation']] = e
        elif cat == 'cpu_op':
            ops[(e['pid'], e['tid'])].append(e)
        elif cat == 'kernel':
            kernels.append(e)
    for v in ops.values():
        v.sort(key=lambda e: e['ts'])
    starts = {k: [e['ts'] for e in v] for k, v in ops.items()}
    times = collections.defaultdict(float)
    for k in kernels:
        launch = launches.get(k['args'].get('correlation'))
        if launch is None:
            continue
        thread = (launch['pid'], launch['tid'])
        best = None
        lst = ops.get(thread, [])
        i = bisect.bisect_right(starts.get(thread, []), launch['ts'])
        for e in reversed(lst[:i]):  # innermost: latest start that still encloses
            if e['ts'] + e['dur'] >= launch['ts']:
                best = e
                break
        if best is None:
            continue
        a = best['args']
        shapes = tuple((t, tuple(d)) for t, d in zip(a.get('Input type', []), a.get('Input Dims', []))
                       if t in TENSOR)
        times[(best['name'], shapes)] += k['dur'] * 1e-6
    return times

base, cur = op_times(sys.argv[1]), op_times(sys.argv[2])
rows = sorted(base, key=lambda k: -base[k])
for key in rows[: int(sys.argv[3]) if len(sys.argv) > 3 else 15]:
    if key in cur:
        print(f"{base[key]*1e3:10.4f} ms {cur[key]*1e3:10.4f} ms  x{base[key]/cur[key]:.4f}  {key[0]} {list(key[1])}")
    else:
        print(f"{base[key]*1e3:10.4f} ms    (none)       {key[0]} {list(key[1])}")
