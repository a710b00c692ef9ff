#!/usr/bin/env bash
# `ridgepoint measure` against likwid-bench on this machine, interleaved (issue 6, accuracy).
#
# Both tools run in turns in one script (likwid then ridgepoint, then ridgepoint then likwid,
# ... so a drift in the machine's load hits both alike), with the same threads (one per CPU,
# pinned to it), the same working set (the bytes of all arrays of all threads, far beyond the
# last-level cache: ridgepoint's --sweep-from/--sweep-to put a sweep point on it) and the same
# byte counting: load 8 B, copy 16 B, triad 24 B per element, ordinary (write-allocating)
# stores, write-allocate traffic counted by neither (likwid: "Bytes per element" in
# `likwid-bench -l copy_avx512`; ridgepoint: docs/MEASURE.md).
#
# Two ways to read likwid-bench, because the tools summarise differently: likwid-bench as it
# is used (the mean over a run of at least a second), and likwid-bench as ridgepoint times
# (single passes, `-i 1`, REPEATS of them: best and median). ridgepoint reports the best of its
# trials (each one pass over the working set) and keeps their median.
#
#   bench/compare_likwid.sh                          # 7 pairs, 1 GB, every CPU
#   PAIRS=9 SIZE=4GB bench/compare_likwid.sh
#   RIDGEPOINT=build/m-rel/app/ridgepoint OUT=/tmp/cmp bench/compare_likwid.sh
#   FULL=1 SIZE=1073741kB PAIRS=5 bench/compare_likwid.sh
#
# FULL=1 runs the default `ridgepoint measure` (about 60 s, the sweep up to its own largest
# working set) instead of one aimed at SIZE, and also compares the DRAM plateaus it reports
# (the figures a user gets) with likwid-bench at SIZE: give SIZE as the largest working set of
# that sweep (1 GiB = 1073741kB on a machine with a 32 MiB L3).
#
# Needs likwid-bench (Debian: apt-get install likwid) and python3. Writes every raw output, a TSV
# of the figures and summary.md (the table of docs/PERFORMANCE.md) into $OUT.
set -euo pipefail

RIDGEPOINT=${RIDGEPOINT:-build/m-rel/app/ridgepoint}
PAIRS=${PAIRS:-7}
THREADS=${THREADS:-$(nproc)}
SIZE=${SIZE:-1GB}    # likwid-bench and ridgepoint both read "GB" as 10^9 bytes
BUDGET=${BUDGET:-10} # seconds per ridgepoint run (the --quick budget)
FULL=${FULL:-0}      # 1: the default ridgepoint run, plateaus compared too
# Scheduling priority of both tools (nice -n; negative needs root). On a machine shared with
# builds, NICE=-20 gives both the CPUs almost alone, the same for each tool.
NICE=${NICE:-0}
REPEATS=${REPEATS:-5} # single-pass likwid-bench runs per kernel and pair
DOMAIN=${DOMAIN:-S0} # the likwid thread domain holding the CPUs (likwid-bench -p)
OUT=${OUT:-compare_likwid-$(date -u +%Y%m%dT%H%M%SZ)}

command -v likwid-bench >/dev/null || { echo "likwid-bench not found (apt-get install likwid)" >&2; exit 2; }
[ -x "$RIDGEPOINT" ] || { echo "$RIDGEPOINT: not built (ninja -C build/m-rel ridgepoint)" >&2; exit 2; }
mkdir -p "$OUT"
TSV="$OUT/figures.tsv"
printf 'pair\ttool\tmetric\tvalue\tmedian\tload\tsteal\n' >"$TSV"

# likwid-bench test, our name for it, working set, iterations (default: at least 1 s), runs.
LIKWID_TESTS=(
    "load_avx512 load $SIZE - 1"
    "copy_avx512 copy $SIZE - 1"
    "stream_avx512_fma triad $SIZE - 1"
    "load load-scalar $SIZE - 1"
    "copy copy-scalar $SIZE - 1"
    "load_avx512 load-1pass $SIZE 1 $REPEATS"
    "copy_avx512 copy-1pass $SIZE 1 $REPEATS"
    "peakflops_avx512_fma fp64-avx512-fma 16kB - 1"
    "peakflops_avx_fma fp64-avx2-fma 16kB - 1"
)

loadavg() { cut -d' ' -f1 /proc/loadavg; }
# Percent of the CPU time the hypervisor gave to other guests since `steal_mark`.
steal_mark() { STEAL_PREV=$(awk '/^cpu /{print $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat); }
steal_since() {
    awk -v a="$STEAL_PREV" '/^cpu /{split(a, x, " "); d = $2+$3+$4+$5+$6+$7+$8+$9 - x[2];
        printf "%.1f", (d > 0 ? 100 * ($9 - x[1]) / d : 0)}' /proc/stat
}

run_likwid() {
    local pair=$1 spec test metric size iterations runs run raw
    for spec in "${LIKWID_TESTS[@]}"; do
        read -r test metric size iterations runs <<<"$spec"
        local args=(-t "$test" -W "$DOMAIN:$size:$THREADS")
        [ "$iterations" != - ] && args+=(-i "$iterations")
        local values=()
        steal_mark
        for run in $(seq 1 "$runs"); do
            raw="$OUT/likwid-$pair-$metric-$run.txt"
            nice -n "$NICE" likwid-bench "${args[@]}" >"$raw" 2>&1
            # MByte/s and MFlops/s are 10^6 per second.
            case $metric in
            fp64*) values+=("$(awk -F'\t+' '/^MFlops\/s/{printf "%.6e", $2 * 1e6}' "$raw")") ;;
            *) values+=("$(awk -F'\t+' '/^MByte\/s/{printf "%.6e", $2 * 1e6}' "$raw")") ;;
            esac
        done
        # One run: its figure; several: the best and the median.
        python3 -c 'import statistics, sys
v = [float(x) for x in sys.argv[6:]]
print("\t".join([sys.argv[1], "likwid", sys.argv[2], str(max(v)),
    str(statistics.median(v)) if len(v) > 1 else "", sys.argv[3], sys.argv[4]]))' \
            "$pair" "$metric" "$(loadavg)" "$(steal_since)" - "${values[@]}" >>"$TSV"
        echo "pair $pair likwid-bench ${args[*]} (x$runs): ${values[*]}"
    done
}

run_ridgepoint() {
    local pair=$1 json="$OUT/ridgepoint-$pair.json"
    steal_mark
    local args=(measure --threads "$THREADS" --json -o "$json")
    ((FULL)) || args+=(--budget "$BUDGET" --sweep-from "$SIZE" --sweep-to "$SIZE")
    nice -n "$NICE" "$RIDGEPOINT" "${args[@]}" >/dev/null 2>"$OUT/ridgepoint-$pair.log"
    python3 - "$json" "$pair" "$THREADS" "$SIZE" "$(loadavg)" "$(steal_since)" "$FULL" >>"$TSV" <<'EOF'
import json, re, sys
path, pair, threads, size, load, steal, full = sys.argv[1:]
threads = int(threads)
number, unit = re.fullmatch(r"([0-9.]+)\s*([kMG]?)B", size).groups()
target = float(number) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[unit]
m = json.load(open(path))["measurement"]
for kernel in ("load", "copy", "triad"):
    samples = [s for s in m["sweep"] if s["kernel"] == kernel and s["threads"] == threads]
    s = min(samples, key=lambda s: abs(s["working_set"] - target))
    print(f"{pair}\tridgepoint\t{kernel}\t{s['best']}\t{s['median']}\t{load}\t{steal}")
    for p in m["plateaus"] if full == "1" else []:
        if p["kernel"] == kernel and p["threads"] == threads and p["level"] == "DRAM":
            print(f"{pair}\tridgepoint\tplateau-{kernel}\t{p['bandwidth']}\t{p['bandwidth']}\t{load}\t{steal}")
for isa in ("avx512", "avx2"):
    for c in m["compute"]:
        if (c["precision"], c["isa"], c["simd"], c["fma"], c["threads"]) == ("fp64", isa, True, True, threads):
            print(f"{pair}\tridgepoint\tfp64-{isa}-fma\t{c['best']}\t{c['median']}\t{load}\t{steal}")
EOF
    echo "pair $pair ridgepoint measure: done (load average $(loadavg))"
}

echo "$("$RIDGEPOINT" --version 2>/dev/null | head -1 || true); $(likwid-bench -h 2>&1 | head -1 | xargs)"
echo "$PAIRS pairs, $THREADS threads, working set $SIZE, nice $NICE, $(lscpu | sed -n 's/^Model name: *//p'), output in $OUT"
for pair in $(seq 1 "$PAIRS"); do
    if ((pair % 2)); then
        run_likwid "$pair"
        run_ridgepoint "$pair"
    else
        run_ridgepoint "$pair"
        run_likwid "$pair"
    fi
done

python3 - "$TSV" "$OUT/summary.md" "$THREADS" "$SIZE" "$NICE" <<'EOF'
import collections, statistics, sys
tsv, out, threads, size, nice = sys.argv[1:]
fig = collections.defaultdict(dict)  # (tool, metric) -> pair -> (value, median or None)
loads, steals = [], []
for line in list(open(tsv))[1:]:
    pair, tool, metric, value, median, load, steal = line.rstrip("\n").split("\t")
    fig[(tool, metric)][int(pair)] = (float(value), float(median) if median else None)
    loads.append(float(load))
    steals.append(float(steal))

# label, likwid metric and statistic (0 value / best, 1 median), ridgepoint metric and statistic
rows = [
    ("DRAM load: ridgepoint best vs load_avx512 (mean of >= 1 s)", "load", 0, "load", 0),
    ("DRAM load: ridgepoint median vs load_avx512", "load", 0, "load", 1),
    ("DRAM load: ridgepoint best vs load (scalar)", "load-scalar", 0, "load", 0),
    ("DRAM load: best single pass, both tools", "load-1pass", 0, "load", 0),
    ("DRAM load: median single pass, both tools", "load-1pass", 1, "load", 1),
    ("DRAM copy: ridgepoint best vs copy_avx512 (mean of >= 1 s)", "copy", 0, "copy", 0),
    ("DRAM copy: ridgepoint median vs copy_avx512", "copy", 0, "copy", 1),
    ("DRAM copy: ridgepoint best vs copy (scalar)", "copy-scalar", 0, "copy", 0),
    ("DRAM copy: best single pass, both tools", "copy-1pass", 0, "copy", 0),
    ("DRAM copy: median single pass, both tools", "copy-1pass", 1, "copy", 1),
    ("DRAM triad: ridgepoint best vs stream_avx512_fma", "triad", 0, "triad", 0),
    ("DRAM load plateau (what ridgepoint reports) vs load_avx512", "load", 0, "plateau-load", 0),
    ("DRAM copy plateau (what ridgepoint reports) vs copy_avx512", "copy", 0, "plateau-copy", 0),
    ("DRAM triad plateau (what ridgepoint reports) vs stream_avx512_fma", "triad", 0, "plateau-triad", 0),
    ("FP64 AVX-512 FMA: best vs peakflops_avx512_fma", "fp64-avx512-fma", 0, "fp64-avx512-fma", 0),
    ("FP64 AVX2 FMA: best vs peakflops_avx_fma", "fp64-avx2-fma", 0, "fp64-avx2-fma", 0),
]
pct = lambda r: f"{100 * (r - 1):+.0f} %"
lines = [f"{threads} threads, working set {size}, nice {nice}; load average {min(loads):.1f} to {max(loads):.1f}, "
         f"steal {min(steals):.1f} to {max(steals):.1f} %", "",
         "| comparison | pairs | likwid-bench (median of pairs) | ridgepoint (median of pairs) "
         "| ratio of the medians | per-pair ratio: median [min, max] |",
         "|---|---|---|---|---|---|"]
for label, lk_metric, lk_stat, rp_metric, rp_stat in rows:
    lk, rp = fig.get(("likwid", lk_metric), {}), fig.get(("ridgepoint", rp_metric), {})
    pairs = sorted(set(lk) & set(rp))
    if not pairs:
        continue
    unit, scale = ("GFLOP/s", 1e9) if rp_metric.startswith("fp64") else ("GB/s", 1e9)
    a = [lk[p][lk_stat] for p in pairs]
    b = [rp[p][rp_stat] for p in pairs]
    ratios = [y / x for x, y in zip(a, b)]
    ma, mb = statistics.median(a), statistics.median(b)
    lines.append(f"| {label} | {len(pairs)} | {ma / scale:.1f} {unit} | {mb / scale:.1f} {unit} | "
                 f"{pct(mb / ma)} | {pct(statistics.median(ratios))} "
                 f"[{pct(min(ratios))}, {pct(max(ratios))}] |")
lines += ["", "Per pair, likwid-bench / ridgepoint (best, median of trials):", ""]
for metric in ("load", "copy", "triad", "fp64-avx512-fma", "fp64-avx2-fma"):
    rp = fig.get(("ridgepoint", metric), {})
    for lk_metric in (metric, metric + "-1pass", metric + "-scalar"):
        lk = fig.get(("likwid", lk_metric), {})
        if not lk:
            continue
        cells = []
        for p in sorted(set(lk) & set(rp)):
            l = f"{lk[p][0] / 1e9:.1f}" + (f" ({lk[p][1] / 1e9:.1f})" if lk[p][1] else "")
            cells.append(f"{l} / {rp[p][0] / 1e9:.1f} ({rp[p][1] / 1e9:.1f})")
        lines.append(f"- {lk_metric}: " + "; ".join(cells))
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
