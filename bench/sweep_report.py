#!/usr/bin/env python3
"""The summary of bench/sweep.py's results (issue 19): sol against the best
peer per row, by class of shape, the worst rows, the cost model's error and
every failed check.

    python3 bench/sweep_report.py PART.json [PART.json ...] [--markdown]
        [--peers eager,addmm,inductor] [--worst 5] [--hbm-gbps 4800]

A row's ratio is best peer us / sol us (above 1: sol is faster), the best
of the --peers rows of the same (model, layer, shape, M, dtype, epilogue)
in the same file as the sol row (the same run); rows whose check failed
or that were not timed count for neither side. The default peers are issue
19's "best peer" (cuBLAS, cuBLASLt with epilogue, default torch.compile);
max-autotune, where a file has it, gets a line of its own. A row measured
in several files is taken from the first.

Classes (the first that matches; issue 19's table, on the real shapes):
"""

import argparse
import collections
import json
import math
import statistics
import sys

# (name, description, predicate on m, n, k): issue 19's classes, first
# match wins so each row is in one.
CLASSES = [
    ("decode_1", "1-token decode (M = 1)",
     lambda m, n, k: m == 1),
    ("small_n", "small N against a long K (N <= 1024, K >= 2048: GQA k|v, "
     "routers, narrow experts; M >= 2)",
     lambda m, n, k: n <= 1024 and k >= 2048),
    ("skinny", "M = 2-64 against a wide weight (N >= 4096: memory-bound)",
     lambda m, n, k: m <= 64 and n >= 4096),
    ("ragged", "ragged M (>= 128, not a multiple of 64: 999, 3001)",
     lambda m, n, k: m >= 128 and m % 64 != 0),
    ("large", "large GEMMs (M >= 900, N >= 4096)",
     lambda m, n, k: m >= 900 and n >= 4096),
    ("other", "the rest (M = 128-512 against N >= 4096; N < 4096 with "
     "K < 2048 or M <= 64)",
     lambda m, n, k: True),
]
__doc__ += "".join(f"  {name:9} {desc}\n" for name, desc, _ in CLASSES)

DEFAULT_PEERS = ["eager", "addmm", "inductor"]
MAX_AUTOTUNE = "inductor_max_autotune"
# 1-token decode of a large weight is judged against HBM bandwidth (issue
# 19: >= 0.90 of HBM SOL for weights >= 100 MB).
DECODE_WEIGHT_BYTES = 100e6


def shape_class(m, n, k):
    return next(name for name, _, test in CLASSES if test(m, n, k))


def row_key(row):
    return (row["model"], row["layer"], row["n"], row["k"],
            row.get("layout", "nk"), row["m"], row["dtype"], row["epilogue"])


def timed(row):
    return row.get("ok") and row.get("us")


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) \
        if values else None


def weight_bytes(row):
    """The bytes of the row's weights at 2 per element (fp16, bf16)."""
    count = 2 if row["epilogue"] == "silu_mul" else 1
    return count * row["n"] * row["k"] * 2


def summarize(docs, peers=DEFAULT_PEERS, worst=5, hbm_gbps=4800.0):
    """The report's figures from the parsed sweep files."""
    sol_rows, seen = [], set()
    failed, failed_peers, no_peer, left, fatal = [], {}, 0, [], []
    for doc in docs:
        left += doc.get("left", [])
        if doc.get("fatal"):
            fatal.append(doc["fatal"])
        by_key = {}
        for row in doc["rows"]:
            by_key.setdefault(row_key(row), []).append(row)
            if row["impl"] != "sol" and not row.get("ok"):
                failed_peers[row["impl"]] = failed_peers.get(row["impl"],
                                                             0) + 1
        for row in doc["rows"]:
            if row["impl"] != "sol" or row_key(row) in seen:
                continue
            seen.add(row_key(row))
            if not timed(row):
                failed.append(row)
                continue
            others = [r for r in by_key[row_key(row)] if timed(r)]
            best = min((r for r in others if r["impl"] in peers),
                       key=lambda r: r["us"], default=None)
            if best is None:
                no_peer += 1
                continue
            autotune = next((r for r in others if r["impl"] == MAX_AUTOTUNE),
                            None)
            sol_rows.append({
                "row": row, "class": shape_class(row["m"], row["n"],
                                                 row["k"]),
                "peer": best["impl"], "peer_us": best["us"],
                "ratio": best["us"] / row["us"],
                "autotune_ratio": autotune["us"] / row["us"] if autotune
                else None,
                "model_err": abs(row["t_pred_us"] / row["us"] - 1)
                if row.get("t_pred_us") and row.get("t_pred_m") == row["m"]
                else None})

    def stats(rows):
        ratios = [r["ratio"] for r in rows]
        errors = [r["model_err"] for r in rows if r["model_err"] is not None]
        plans = collections.Counter(r["row"].get("plan") or "?"
                                    for r in rows)
        return {"rows": len(rows), "geomean": geomean(ratios),
                "plans": plans.most_common(3),
                "min": min(ratios) if ratios else None,
                "wins": sum(r >= 1 for r in ratios),
                "model_err_median": statistics.median(errors) if errors
                else None, "model_rows": len(errors)}

    classes = []
    for name, desc, _ in CLASSES:
        members = [r for r in sol_rows if r["class"] == name]
        if members:
            classes.append(dict(stats(members), name=name, desc=desc))
    autotuned = [r["autotune_ratio"] for r in sol_rows
                 if r["autotune_ratio"] is not None]
    decode = [{"row": r["row"],
               "hbm_fraction": weight_bytes(r["row"]) /
               (r["row"]["us"] * 1e-6) / (hbm_gbps * 1e9)}
              for r in sol_rows if r["row"]["m"] == 1 and
              weight_bytes(r["row"]) >= DECODE_WEIGHT_BYTES]
    return {"files": len(docs), "peers": list(peers), "classes": classes,
            "overall": stats(sol_rows),
            "worst": sorted(sol_rows, key=lambda r: r["ratio"])[:worst],
            "failed": failed, "failed_peers": failed_peers,
            "no_peer": no_peer, "left": left, "fatal": fatal,
            "max_autotune": {"rows": len(autotuned),
                             "geomean": geomean(autotuned)},
            "decode_hbm": decode, "hbm_gbps": hbm_gbps}


def _f(value, digits=2, suffix=""):
    return "-" if value is None else f"{value:.{digits}f}{suffix}"


def _pct(value):
    return "-" if value is None else f"{100 * value:.1f} %"


def _table(header, rows, markdown):
    if markdown:
        # Layer names ("k|v") and the error header hold the cell separator.
        def cells(values):
            return "| " + " | ".join(str(v).replace("|", "\\|")
                                     for v in values) + " |"
        lines = [cells(header), "|" + "---|" * len(header)]
        lines += [cells(r) for r in rows]
        return "\n".join(lines)
    cells = [header] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths)))
             for r in cells]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def _where(row):
    return (f"{row['model']}/{row['layer']} {row['n']}x{row['k']} "
            f"M={row['m']} {row['dtype']} {row['epilogue']}")


def format_report(summary, markdown=False):
    out = []
    heading = "### " if markdown else ""
    overall = summary["overall"]
    out.append(f"{heading}sol against the best of "
               f"{', '.join(summary['peers'])} per row "
               f"({summary['files']} file(s), {overall['rows']} rows)")
    out.append("")
    body = [[c["name"], c["rows"], _f(c["geomean"], 3, "x"),
             _f(c["min"], 3, "x"), c["wins"], _pct(c["model_err_median"]),
             c["model_rows"]] for c in summary["classes"]]
    body.append(["all", overall["rows"], _f(overall["geomean"], 3, "x"),
                 _f(overall["min"], 3, "x"), overall["wins"],
                 _pct(overall["model_err_median"]), overall["model_rows"]])
    out.append(_table(["class", "rows", "geomean", "min", "wins",
                       "median |t_pred/us-1|", "priced rows"], body,
                      markdown))
    out.append("")
    for c in summary["classes"]:
        chose = ", ".join(f"{plan} ({count})" for plan, count in c["plans"])
        out.append(f"{'- ' if markdown else '  '}{c['name']}: {c['desc']}; "
                   f"sol ran {chose}")
    out.append("")
    out.append(f"{heading}The worst {len(summary['worst'])} rows")
    out.append("")
    out.append(_table(
        ["row", "sol us", "plan", "best peer", "peer us", "ratio"],
        [[_where(r["row"]), _f(r["row"]["us"]), r["row"].get("plan", "-"),
          r["peer"], _f(r["peer_us"]), _f(r["ratio"], 3, "x")]
         for r in summary["worst"]], markdown))
    out.append("")
    autotune = summary["max_autotune"]
    if autotune["rows"]:
        out.append(f"Against max-autotune-no-cudagraphs: geomean "
                   f"{_f(autotune['geomean'], 3, 'x')} over "
                   f"{autotune['rows']} rows.")
    decode = summary["decode_hbm"]
    if decode:
        fractions = [d["hbm_fraction"] for d in decode]
        lowest = min(decode, key=lambda d: d["hbm_fraction"])
        out.append(f"1-token decode, weights >= 100 MB ({len(decode)} rows): "
                   f"median {_pct(statistics.median(fractions))} of "
                   f"{summary['hbm_gbps']:.0f} GB/s, lowest "
                   f"{_pct(lowest['hbm_fraction'])} "
                   f"({_where(lowest['row'])}).")
    failed = summary["failed"]
    out.append(f"Failed checks: {len(failed)} sol row(s)"
               + "".join(f"; {impl} {count}" for impl, count in
                         sorted(summary["failed_peers"].items())) + ".")
    for row in failed:
        why = row.get("error") or f"rel_err {_f(row.get('rel_err'), 4)}"
        out.append(f"{'- ' if markdown else '  '}{_where(row)}: {why}")
    if summary["no_peer"]:
        out.append(f"sol rows without a timed peer: {summary['no_peer']}.")
    for message in summary["fatal"]:
        out.append(f"A part stopped, its CUDA context lost: {message}")
    if summary["left"]:
        out.append(f"Items not finished: "
                   f"{', '.join(summary['left'])}.")
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--peers", default=",".join(DEFAULT_PEERS))
    parser.add_argument("--worst", type=int, default=5)
    parser.add_argument("--hbm-gbps", type=float, default=4800.0,
                        help="HBM peak for the decode line (H200: 4800)")
    args = parser.parse_args(argv)
    docs = []
    for path in args.files:
        with open(path) as f:
            docs.append(json.load(f))
    print(format_report(summarize(docs, args.peers.split(","), args.worst,
                                  args.hbm_gbps), args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
