# The torch.compile backend on real torch.nn modules, without a GPU: kernels
# are compiled for real (C API, ptxas) and "launched" by the reference
# launcher, which evaluates each manifest's program in torch. Checks the
# emitted sol IR, the partition (what went to sol, what stayed eager and
# why), the fallbacks, the numerics against eager and the disk cache.
# REQUIRES: torch
# RUN: rm -rf %t && SOL_CACHE_DIR=%t %sol_python -u %s 2>&1 | FileCheck %s

import json
import logging
import os
import tempfile

import torch
import torch._dynamo

import sol
import sol.torch_backend as backend
from sol.reference import reference_launcher

logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
torch.manual_seed(0)
# The eager-partition mode (partitioner="eager", a debugging option: sol's
# partitions beside eager torch) is what this file pins; the default mode,
# sol inside Inductor, is tested by inductor_models.py and inductor_pass.py.
OPTIONS = {"launcher": reference_launcher, "partitioner": "eager"}


def run(name, model, *inputs, options=OPTIONS):
    """Compiles `model` with backend="sol", checks it against eager and
    prints the graph's partitions and IR."""
    torch._dynamo.reset()
    before = len(backend.history)
    compiled = torch.compile(model, backend="sol", dynamic=False,
                             options=options)
    with torch.no_grad():
        expected = model(*inputs)
        got = compiled(*inputs)
    close = torch.allclose(got.float(), expected.float(), rtol=2e-2,
                           atol=2e-2)
    print(f"== {name}: matches eager: {close}")
    for report in backend.history[before:]:
        print(report.summary())
        for partition in report.partitions:
            print(partition.ir)
    return compiled


# CHECK-LABEL: == oproj_residual: matches eager: True
# CHECK:       partition 0: sol: linear, add (1 kernels)
# CHECK:       module attributes {sol.target = #sol.target<"h200">} {
# CHECK-NEXT:    func.func @sol_graph(%arg0: tensor<2x8x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<2x8x2560xf16>) -> (tensor<2x8x2560xf16>) {
# CHECK-NEXT:      %v1 = sol.matmul %arg0, %arg1 transpose_b : tensor<2x8x2560xf16>, tensor<2560x2560xf16> -> tensor<2x8x2560xf16>
# CHECK-NEXT:      %v2 = sol.add %v1, %arg2 : tensor<2x8x2560xf16>, tensor<2x8x2560xf16> -> tensor<2x8x2560xf16>
# CHECK-NEXT:      return %v2 : tensor<2x8x2560xf16>
class OProjResidual(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.o_proj = torch.nn.Linear(2560, 2560, bias=False)

    def forward(self, attn_output, residual):
        return self.o_proj(attn_output) + residual


oproj = OProjResidual().half()
x = torch.randn(2, 8, 2560).half()
r = torch.randn(2, 8, 2560).half()
run("oproj_residual", oproj, x, r)

# CHECK-LABEL: == mlp_gelu_tanh: matches eager: True
# CHECK:       partition 0: sol: {{.*}}
# CHECK:         %v1 = sol.matmul %arg0, %arg1 transpose_b : tensor<4x16x256xf16>, tensor<1024x256xf16> -> tensor<4x16x1024xf16>
# CHECK-NEXT:    %v2 = sol.add %v1, %arg2 : tensor<4x16x1024xf16>, tensor<1024xf16> -> tensor<4x16x1024xf16>
# CHECK-NEXT:    %v3 = sol.gelu tanh %v2 : tensor<4x16x1024xf16>
# CHECK-NEXT:    return %v3
mlp = torch.nn.Sequential(torch.nn.Linear(256, 1024),
                          torch.nn.GELU(approximate="tanh")).half()
run("mlp_gelu_tanh", mlp, torch.randn(4, 16, 256).half())


# CHECK-LABEL: == swiglu: matches eager: True
# CHECK:       partition 0: sol: linear, silu, linear_1, mul, linear_2 ({{[2-9]}} kernels)
# CHECK:         %v1 = sol.matmul %arg0, %arg1 transpose_b : tensor<4x16x256xf16>, tensor<512x256xf16> -> tensor<4x16x512xf16>
# CHECK-NEXT:    %v2 = sol.silu %v1 : tensor<4x16x512xf16>
# CHECK-NEXT:    %v3 = sol.matmul %arg0, %arg2 transpose_b : tensor<4x16x256xf16>, tensor<512x256xf16> -> tensor<4x16x512xf16>
# CHECK-NEXT:    %v4 = sol.mul %v2, %v3
# CHECK-NEXT:    %v5 = sol.matmul %v4, %arg3 transpose_b : tensor<4x16x512xf16>, tensor<256x512xf16> -> tensor<4x16x256xf16>
# CHECK-NEXT:    return %v5
class SwiGLU(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = torch.nn.Linear(256, 512, bias=False)
        self.up = torch.nn.Linear(256, 512, bias=False)
        self.down = torch.nn.Linear(512, 256, bias=False)

    def forward(self, x):
        return self.down(torch.nn.functional.silu(self.gate(x)) * self.up(x))


swiglu = SwiGLU().half()
compiled_swiglu = run("swiglu", swiglu, torch.randn(4, 16, 256).half())
swiglu_call = backend.history[-1].partitions[0].call

# After the first (checked) call, the partition launches its three kernels
# through the launcher's raw form, outputs preallocated: fresh data still
# matches eager, and the second call took that path (a failure there would
# fall back to eager nodes silently, with a reason: there is none).
# CHECK: swiglu hot path: resolved 3 launches, matches eager: True, fallback: None
with torch.no_grad():
    x_swiglu = torch.randn(4, 16, 256).half()
    got = compiled_swiglu(x_swiglu)
    matches = torch.allclose(got.float(), swiglu(x_swiglu).float(), 2e-2, 2e-2)
print(f"swiglu hot path: resolved {len(swiglu_call._steps.steps)} launches, "
      f"matches eager: {matches}, fallback: {swiglu_call.fallback_reason}")


# From one 128-row tile up (here 2 x 64 tokens) the gate and up projections
# share x as sibling matmuls: one kernel computes silu(x Wg^T) * (x Wu^T)
# from its two accumulators, the down projection is the second.
# CHECK-LABEL: == swiglu_siblings: matches eager: True
# CHECK:       partition 0: sol: linear, silu, linear_1, mul, linear_2 (2 kernels)
# CHECK: swiglu siblings: sol_graph_matmul_0 reads 3 tensors through 3 TMA maps
compiled_siblings = run("swiglu_siblings", swiglu, torch.randn(2, 64, 256).half())
siblings = backend.history[-1].partitions[0]
first = siblings.compilation.kernels[0]
print(f"swiglu siblings: {first.name} reads "
      f"{sum(a['role'] == 'input' for a in first.manifest['args'])} tensors "
      f"through {len(first.manifest.get('tensor_maps', []))} TMA maps")


# Scalars, casts and an unsupported op in the middle: torch.sort stays eager
# with its reason logged, and splits the graph into two partitions.
# (The backend logs while the compiled model first runs, before the label.)
# CHECK:       sol: sort stays eager: sort: op sort not supported
# CHECK-LABEL: == fallback_sort: matches eager: True
# CHECK-NEXT:  partition 0: sol: mul, add, h (1 kernels)
# CHECK-NEXT:  partition 1: sol: sigmoid, sub, half (1 kernels)
# CHECK-NEXT:  eager sort: sort: op sort not supported
# CHECK:       sol.constant 5.00000000000000000e-01 : f32
# CHECK:       sol.cast %{{.*}} : tensor<8x64xf32> to tensor<8x64xf16>
class WithSort(torch.nn.Module):
    def forward(self, a, b):
        h = torch.relu(a * 0.5 + b)
        s, _ = torch.sort(h, dim=-1)
        return (torch.sigmoid(s) - 1.0).half()


run("fallback_sort", WithSort(), torch.randn(8, 64), torch.randn(8, 64))


# int64 is not a sol dtype: the whole graph stays eager, no exception.
# CHECK:       sol: mul stays eager: mul: dtype torch.int64 not supported
# CHECK-LABEL: == fallback_int64: matches eager: True
# CHECK-NOT:   partition
class IntMath(torch.nn.Module):
    def forward(self, a):
        return a * 3 + 1


run("fallback_int64", IntMath(), torch.arange(64).reshape(8, 8))


# A kernel that cannot launch (no launcher here: the default needs CUDA)
# falls back to the partition's eager nodes at run time.
# CHECK:       sol: partition 0 runs eagerly from now on: SolError: no CUDA device
# CHECK-LABEL: == no_cuda: matches eager: True
run("no_cuda", mlp, torch.randn(4, 16, 256).half(),
    options={"partitioner": "eager"})


# The cache: the same graph again hits it (nothing compiled), a new shape
# misses and compiles on first use.
def compiles_for(name, model, *inputs):
    start = dict(backend.cache_stats)
    run(name, model, *inputs)
    print(f"{name}: compiles {backend.cache_stats['compiles'] - start['compiles']}"
          f" hits {backend.cache_stats['hits'] - start['hits']}")


backend._memory_cache.clear()  # the disk cache alone must answer
# CHECK: same_shape: compiles 0 hits 1
compiles_for("same_shape", oproj, x, r)
# CHECK: new_shape: compiles 1 hits 0
compiles_for("new_shape", oproj, torch.randn(1, 4, 2560).half(),
             torch.randn(1, 4, 2560).half())
# CHECK: cost report: [[KERNEL:[a-z_0-9]+]] {{.*}}
print("cost report:", backend.history[-1].cost_report.splitlines()[2])

# The compiler's identity is part of the key: a rebuilt library (another
# file hash) does not get an older build's kernels from the disk cache.
# CHECK: rebuilt compiler: hit False, same compiler again: hit True
backend._memory_cache.clear()
real_build_id = sol._capi._build_id
sol._capi._build_id = "0" * 64
_, rebuilt_hit = backend.compile_cached(backend.history[-1].partitions[0].ir,
                                        "h200", {})
sol._capi._build_id = real_build_id
_, again_hit = backend.compile_cached(backend.history[-1].partitions[0].ir,
                                      "h200", {})
print(f"rebuilt compiler: hit {rebuilt_hit}, same compiler again: hit "
      f"{again_hit}")

# fast_math is part of the cache key: the same IR compiles again, and only
# that compilation's PTX carries tanh.approx.f32.
# CHECK: fast_math: plain hit True approx False; fast hit False approx True
gelu_ir = next(p.ir for report in backend.history for p in report.partitions
               if "sol.gelu" in p.ir)
plain, plain_hit = backend.compile_cached(gelu_ir, "h200", {})
fast, fast_hit = backend.compile_cached(gelu_ir, "h200", {"fast_math": True})
print(f"fast_math: plain hit {plain_hit} approx "
      f"{any('tanh.approx.f32' in k.ptx for k in plain.kernels)}; fast hit "
      f"{fast_hit} approx {any('tanh.approx.f32' in k.ptx for k in fast.kernels)}")

# A plan-cache file (sol-tile's plan-cache=FILE) decides the kernels, so
# its contents join the cache key: the same options after the file changed
# compile again and take the new plan; the file as it was hits.
# CHECK: plan cache: pinned hit False plan 1 True; edited hit False plan 2 True; as before hit True
pinned_ir = backend.history[-1].partitions[0].ir
base, _ = backend.compile_cached(pinned_ir, "h200", {})
kernel = base.kernels[0]
ranked = [sol.compile(pinned_ir, target="h200", options=f"rank={r}")
          .kernels[0].manifest for r in (1, 2)]
plan_file = os.path.join(tempfile.mkdtemp(), "plans.json")


def pin(manifest):
    with open(plan_file, "w") as f:
        json.dump({"plans": [{"key": kernel.manifest["plan_key"],
                              "plan": manifest["plan_attr"]}]}, f)


pin(ranked[0])
options = {"sol_options": f"plan-cache={plan_file}"}
first, first_hit = backend.compile_cached(pinned_ir, "h200", options)
pin(ranked[1])
second, second_hit = backend.compile_cached(pinned_ir, "h200", options)
pin(ranked[0])
_, third_hit = backend.compile_cached(pinned_ir, "h200", options)
print(f"plan cache: pinned hit {first_hit} plan 1 "
      f"{first.kernels[0].manifest['plan'] == ranked[0]['plan']}; edited hit "
      f"{second_hit} plan 2 "
      f"{second.kernels[0].manifest['plan'] == ranked[1]['plan']}; as before "
      f"hit {third_hit}")

# sol_options passes further sol-to-ptx options through (and into the cache
# key); an unknown one fails the compile, so the partition runs eagerly with
# sol's diagnostic as the reason, and the model still answers.
# CHECK: sol_options: "fast-math=true schedules=cooperative"
print("sol_options: \"" + backend.compile_options(
    {"fast_math": True, "sol_options": " schedules=cooperative "}) + "\"")
# CHECK: bad sol_options: eager: sol could not compile it: {{.*}}no-such-option
run("bad_options", oproj, x, r,
    options={**OPTIONS, "sol_options": "no-such-option=1"})
print("bad sol_options:", backend.history[-1].partitions[0].status)

# SOL_REPORT-style option: the table goes to stdout.
# CHECK: sol cost report:
# CHECK-NEXT: kernel intensity bound
run("report", oproj, x, r, options={**OPTIONS, "report": True})

# The default target is the current CUDA device's preset (its peaks and
# bandwidth price the plans): by the device name's marker, "h200" without
# CUDA and, logged, for a card with no preset.
# CHECK: targets: H100 80GB HBM3 -> h100-sxm, H100 PCIe -> h100-pcie, H200 -> h200, A100-SXM4-80GB -> a100-80gb, B200 -> b200, L40S -> l40s, Tesla T4 -> None
names = ["NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA H200",
         "NVIDIA A100-SXM4-80GB", "NVIDIA B200", "NVIDIA L40S", "Tesla T4"]
print("targets: " + ", ".join(
    f"{n.replace('NVIDIA ', '')} -> {backend.target_for_device_name(n)}"
    for n in names))
# CHECK: default target without CUDA: h200
print("default target without CUDA:", backend.default_target())
real = (torch.cuda.is_available, torch.cuda.get_device_name,
        torch.cuda.current_device)
try:
    torch.cuda.is_available = lambda: True
    torch.cuda.current_device = lambda: 0
    torch.cuda.get_device_name = lambda device=None: "NVIDIA H100 80GB HBM3"
    # CHECK: default target on an H100: h100-sxm, options h100-sxm, named h200
    print("default target on an H100:", backend.default_target()
          + ", options " + backend._options({})["target"] + ", named "
          + backend._options({"target": "h200"})["target"])
    torch.cuda.get_device_name = lambda device=None: "Tesla T4"
    # CHECK: sol: no target preset for 'Tesla T4'; plans are priced as an h200's
    # CHECK: default target on a T4: h200
    print("default target on a T4:", backend.default_target(), flush=True)
finally:
    (torch.cuda.is_available, torch.cuda.get_device_name,
     torch.cuda.current_device) = real
