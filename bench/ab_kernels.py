"""Two compilations of the same kernels timed against each other on the GPU.

    python3 bench/ab_kernels.py OLD_DIR NEW_DIR [--select RE] [--out FILE]

OLD_DIR and NEW_DIR hold sol-opt --sol-to-ptx output (manifests, cubins) of
the same functions, e.g. from the commits before and after a codegen change,
each path in its own subfolder or not (OLD_DIR/**/X.json pairs with
NEW_DIR/**/X.json). Each pair gets the same random inputs (normal values in
the manifest's dtypes; f32 args, the scales, in [0.5, 1.5)), copied until
the copies hold ~200 MB, which the launches rotate through so the weights
come cold from HBM as a model step's do (sweep.rotation). Launches go
through Kernel.bind (one C call each: kernels of ~10 us would otherwise
time the Python launch path). After 20 launches of each, seven windows of
60 launches, CUDA events around each, alternate which kernel goes first;
the median window is the figure. Both outputs on the first set must be
identical for a change that should not move a bit; the row says whether
they are, and how far apart they are (max_rel_diff) for one that reorders
the sums. Static kernels only. Prints a table and writes a JSON list of
rows.
"""
import argparse
import ctypes
import glob
import json
import os
import re
import statistics
import sys

import torch

import sol

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import rotation  # noqa: E402

ROTATION_BYTES = 200e6
WARMUP_LAUNCHES = 20
WINDOW_LAUNCHES = 60
WINDOWS = 7


def random_inputs(kernel):
    """The kernel's inputs in their dtypes: normal values, f32 (scales) in
    [0.5, 1.5)."""
    inputs = []
    for spec in kernel.inputs:
        if spec["dtype"] == "f32":
            inputs.append(torch.rand(spec["shape"], device="cuda") + 0.5)
        else:
            inputs.append(torch.randn(spec["shape"], device="cuda").to(
                sol.torch_dtype(spec["dtype"])))
    return inputs


def window_us(launch, pointer_sets, stream, launches):
    """us per launch over `launches` back-to-back, rotating the sets."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for i in range(launches):
        launch(pointer_sets[i % len(pointer_sets)], stream)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / launches


def compare(old_path, new_path):
    """One row: both kernels timed on the same inputs."""
    old = sol.Kernel.from_manifest(old_path)
    new = sol.Kernel.from_manifest(new_path)
    inputs = random_inputs(old)
    input_bytes = sum(t.numel() * t.element_size() for t in inputs)
    sets = [inputs_set + [torch.empty(shape, dtype=dtype, device="cuda")
                          for shape, dtype in old.output_specs()]
            for inputs_set in rotation(inputs, ROTATION_BYTES)]
    outputs = []
    for kernel in (old, new):
        kernel.launch(*sets[0])
        outputs.append(sets[0][-1].clone())
    pointer_sets = [(ctypes.c_void_p * len(s))(*[t.data_ptr() for t in s])
                    for s in sets]
    stream = torch.cuda.current_stream().cuda_stream
    launches = [old.bind(), new.bind()]
    for launch in launches:
        window_us(launch, pointer_sets, stream, WARMUP_LAUNCHES)
    times = [[], []]
    for window in range(WINDOWS):
        order = (0, 1) if window % 2 == 0 else (1, 0)
        for i in order:
            times[i].append(window_us(launches[i], pointer_sets, stream,
                                      WINDOW_LAUNCHES))
    old_us, new_us = (statistics.median(t) for t in times)
    return {"old_us": old_us, "new_us": new_us, "ratio": new_us / old_us,
            "new_tbps": input_bytes / new_us / 1e6,
            "identical": torch.equal(outputs[0], outputs[1]),
            "max_rel_diff": max_rel_diff(outputs[0], outputs[1]),
            "plan": old.manifest["plan_attr"]}


def max_rel_diff(old, new):
    """The largest |new - old| over old's largest |value|: how far a change
    that reorders the sums moved the result (float32; 0 when identical)."""
    old, new = old.float(), new.float()
    scale = old.abs().max().item() or 1.0
    return (new - old).abs().max().item() / scale


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old_dir")
    parser.add_argument("new_dir")
    parser.add_argument("--select", default=".",
                        help="regex on the manifest path")
    parser.add_argument("--out", default="ab.json")
    args = parser.parse_args()
    keep = re.compile(args.select)
    rows = []
    for old_path in sorted(glob.glob(os.path.join(args.old_dir, "**", "*.json"),
                                     recursive=True)):
        if not keep.search(old_path):
            continue
        name = os.path.relpath(old_path, args.old_dir)
        row = {"kernel": name[:-len(".json")],
               **compare(old_path, os.path.join(args.new_dir, name))}
        rows.append(row)
        print(f"{row['kernel']:40s} old {row['old_us']:8.2f} new "
              f"{row['new_us']:8.2f} new/old {row['ratio']:5.2f} new "
              f"{row['new_tbps']:5.2f} TB/s identical={row['identical']} "
              f"max_rel_diff={row['max_rel_diff']:.1e}",
              flush=True)
    with open(args.out, "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
