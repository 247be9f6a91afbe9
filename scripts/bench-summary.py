#!/usr/bin/env python3
"""Summarises bench_gpu's JSON output (Google Benchmark, --benchmark_out):
each kernel's median device time against its work model, the peer (sppark on
the same GPU model) and the floor band of docs/PERFORMANCE.md, from the
counters bench_gpu attaches (median_ms, min_ms, model_ms, peer_ms,
floor_lo_ms, floor_hi_ms, window; Gmul_per_s for the multiply rates).

    scripts/bench-summary.py kernels.json
"""
import json
import sys


def row(b):
    name = b["name"].replace("/iterations:", "/it:").replace("/manual_time", "")
    if b.get("error_occurred"):
        return f"{name:<44} ERROR {b.get('error_message', '')}"
    if "Gmul_per_s" in b:
        peer = b.get("peer_Gmul_per_s", 0.0)
        ratio = f"  ratio {b['Gmul_per_s'] / peer:.2f}" if peer else ""
        return (f"{name:<44} {b['Gmul_per_s']:>8.2f} G mul/s   peer {peer:.1f} G/s{ratio}"
                f"   (median kernel {b.get('median_ms', 0):.2f} ms)")
    med, mn, model = b.get("median_ms", 0.0), b.get("min_ms", 0.0), b.get("model_ms", 0.0)
    peer, flo, fhi = b.get("peer_ms", 0.0), b.get("floor_lo_ms", 0.0), b.get("floor_hi_ms", 0.0)
    xm = f"{med / model:.2f}" if model else "-"
    ps, xp = (f"{peer:.1f}", f"{med / peer:.2f}") if peer else ("-", "-")
    fs, xf = (f"{flo:.0f}-{fhi:.0f}", f"{med / fhi:.2f}-{med / flo:.2f}") if flo else ("-", "-")
    extra = f"  c={int(b['window'])}" if "window" in b else ""
    return f"{name:<44} {med:>10.3f} {mn:>9.3f} {model:>9.3f} {xm:>8} {ps:>8} {xp:>7} {fs:>11} {xf:>11}{extra}"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bench-summary.py BENCH_GPU.json")
    try:
        with open(sys.argv[1]) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"bench-summary: {sys.argv[1]}: {e}")
    ctx = data.get("context", {})
    print(f"bench_gpu on {ctx.get('host_name', '?')}, {ctx.get('date', '?')}")
    print("medians of the timed iterations (device time from CUDA events), data on the device")
    print("model = counted multiplications / measured multiply rate (docs/PERFORMANCE.md)")
    print()
    hdr = (f"{'benchmark':<44} {'median ms':>10} {'min ms':>9} {'model ms':>9} {'x model':>8}"
           f" {'peer ms':>8} {'x peer':>7} {'floor ms':>11} {'x floor':>11}")
    print(hdr)
    print("-" * len(hdr))
    for b in data.get("benchmarks", []):
        print(row(b))


if __name__ == "__main__":
    main()
