"""Two compilations of the same kernels timed against each other on the GPU.

    python3 bench/ab_kernels.py OLD_DIR NEW_DIR [--select RE] [--out FILE]

OLD_DIR and NEW_DIR hold sol-opt --sol-to-ptx output (manifests, cubins) of
the same functions, e.g. from the commits before and after a codegen change,
each path in its own subfolder or not (OLD_DIR/**/X.json pairs with
NEW_DIR/**/X.json). Each pair gets the same random inputs (normal values in
the manifest's dtypes; f32 args, the scales, in [0.5, 1.5)), enough copies
to rotate through ~200 MB so the weights come cold from HBM as a model
step's do, and is timed with CUDA events over 60 launches a window, seven
windows alternating which goes first, the median reported. Both outputs
on the first set must be identical (a change that should not move a bit);
where they differ the row says so. Static kernels only. Prints a table and
writes a JSON list of rows.
"""
import argparse
import ctypes
import glob
import json
import os
import re
import statistics

import torch

import sol
DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
      "f8e4m3fn": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}
parser = argparse.ArgumentParser()
parser.add_argument("old_dir")
parser.add_argument("new_dir")
parser.add_argument("--select", default=".", help="regex on the manifest path")
parser.add_argument("--out", default="ab.json")
opts = parser.parse_args()
keep = re.compile(opts.select)
rows = []
for old in sorted(glob.glob(os.path.join(opts.old_dir, "**", "*.json"), recursive=True)):
    if not keep.search(old):
        continue
    new = os.path.join(opts.new_dir, os.path.relpath(old, opts.old_dir))
    ko, kn = sol.Kernel.from_manifest(old), sol.Kernel.from_manifest(new)
    args = ko.manifest["args"]
    # The inputs' bytes: what a launch must read at least.
    wbytes = sum(torch.Size(a["shape"]).numel() * DT[a["dtype"]].itemsize
                 for a in args if a["role"] == "input")
    sets = max(2, min(16, -(-200_000_000 // wbytes)))
    def make():
        out = []
        for a in args:
            if a["role"] == "output":
                out.append(torch.empty(a["shape"], dtype=DT[a["dtype"]], device="cuda"))
            elif a["dtype"] == "f32":
                out.append(torch.rand(a["shape"], device="cuda") + 0.5)
            else:
                out.append(torch.randn(a["shape"], device="cuda").to(DT[a["dtype"]]))
        return out
    inputs = [make() for _ in range(sets)]
    ko.launch(*inputs[0]); ref = inputs[0][-1].clone()
    kn.launch(*inputs[0]); same = torch.equal(ref, inputs[0][-1])
    lo, ln = ko.bind(), kn.bind()
    ptrs = [(ctypes.c_void_p * len(s))(*[t.data_ptr() for t in s]) for s in inputs]
    stream = torch.cuda.current_stream().cuda_stream
    def timeit(launch, iters=60):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for i in range(iters):
            launch(ptrs[i % sets], stream)
        e.record(); e.synchronize()
        return s.elapsed_time(e) * 1000 / iters
    for l in (lo, ln): timeit(l, 20)
    to, tn = [], []
    for r in range(7):
        for l, acc in ((lo, to), (ln, tn)) if r % 2 == 0 else ((ln, tn), (lo, to)):
            acc.append(timeit(l))
    o, n = statistics.median(to), statistics.median(tn)
    name = os.path.relpath(old, opts.old_dir)[:-len(".json")]
    gb = wbytes / n / 1e3
    rows.append(dict(kernel=name, old_us=o, new_us=n, ratio=n / o, new_tbps=gb / 1e3, identical=same, plan=ko.manifest["plan_attr"]))
    print(f"{name:40s} old {o:8.2f} new {n:8.2f} new/old {n/o:5.2f} new {gb/1e3:5.2f} TB/s identical={same}", flush=True)
with open(opts.out, "w") as f:
    json.dump(rows, f, indent=1)
