# The ctypes package without torch: compile the seed example, read kernels and
# the cost report, and get sol's diagnostics (with locations) as SolError.
# RUN: %sol_python %s %sol_src_root/examples/oproj_residual.mlir | FileCheck %s

import json
import sys

import sol

text = open(sys.argv[1]).read()
compilation = sol.compile(text)
# CHECK: kernels: 1
print("kernels:", len(compilation.kernels))
kernel = compilation.kernels[0]
# CHECK-NEXT: name: [[NAME:.+]]
print("name:", kernel.name)
# CHECK-NEXT: ptx entry: True
print("ptx entry:", f".entry {kernel.name}(" in kernel.ptx)
# CHECK-NEXT: cubin: b'\x7fELF'
print("cubin:", kernel.cubin[:4])
# CHECK-NEXT: args: [('input', 'f16', [16, 512, 2560]), ('input', 'f16', [2560, 2560]), ('input', 'f16', [16, 512, 2560]), ('output', 'f16', [16, 512, 2560])]
print("args:", [(a["role"], a["dtype"], a["shape"])
                for a in kernel.manifest["args"]])
# CHECK-NEXT: bound: compute
print("bound:", kernel.cost["bound"])

# CHECK:      kernel intensity bound t_ideal_us t_pred_us SOL_pred
# CHECK-NEXT: ---
# CHECK-NEXT: [[NAME]] {{[0-9.]+}} compute {{[0-9.]+ [0-9.]+ 0\.[0-9]+}}
print(compilation.cost_report())

# The same module for another target: the cost changes with the device.
# CHECK: a100 bound: compute
a100 = sol.compile(text, target="a100-80gb")
print("a100 bound:", a100.kernels[0].cost["bound"])

# CHECK: error: <input>:1:{{[0-9]+}}: error: {{.+}}
try:
    sol.compile("func.func @f(%a: tensor<4xf16>) -> tensor<4xf16> {\n")
except sol.SolError as error:
    print("error:", error)
# CHECK: error: <input>:1:1: error: unknown target 'tpu'{{.*}}
try:
    sol.compile("module {}", target="tpu")
except sol.SolError as error:
    print("error:", error)
# Compile options as sol-opt spells them; an unknown one is an error.
GELU = """module attributes {sol.target = #sol.target<"h200">} {
func.func @g(%x: tensor<64x128xf16>, %w: tensor<256x128xf16>) -> tensor<64x256xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<64x128xf16>, tensor<256x128xf16> -> tensor<64x256xf16>
  %g = sol.gelu tanh %m : tensor<64x256xf16>
  return %g : tensor<64x256xf16>
}
}"""
# CHECK: fast-math: False True
print("fast-math:",
      "tanh.approx.f32" in sol.compile(GELU).kernels[0].ptx,
      "tanh.approx.f32" in sol.compile(GELU, options="fast-math=true").kernels[0].ptx)
# The options are sol-to-ptx's, parsed by its own parser (llvm::cl writes
# which value it refused to stderr); a value reaches its pass.
# CHECK: error: sol_compile: bad options 'fast-math=maybe': a value is not of its option's type {{.*}} (sol-to-ptx's options, with their defaults: {{.*}}fast-math=false{{.*}})
try:
    sol.compile(GELU, options="fast-math=maybe")
except sol.SolError as error:
    print("error:", error)
# CHECK: error: {{.*}}sol-tile: min-cluster, max-cluster and max-split-k must be at least 1 (got 1, 1 and 0)
try:
    sol.compile(GELU, options="max-split-k=0")
except sol.SolError as error:
    print("error:", error)
# CHECK: error: {{.*}}sol-tile: unknown schedule 'zigzag'
try:
    sol.compile(GELU, options="schedules=zigzag")
except sol.SolError as error:
    print("error:", error)
# tiles and min-cluster reach sol-tile: the 64-row GELU matmul forced onto
# a 128x256 wgmma_tma tile on 2-CTA clusters.
# CHECK: forced plan: wgmma_tma [128, 256, 64] cluster 2
plan = sol.compile(GELU, options="paths=wgmma_tma tiles=128x256 min-cluster=2 "
                   "max-cluster=2").kernels[0].manifest["plan"]
print("forced plan:", plan["path"], plan["tile"], "cluster", plan["cluster"])
# CHECK: launch: SolError:
try:
    import torch  # noqa: F401
    kernel.launch()
except ImportError:
    print("launch: SolError: (no torch)")
except sol.SolError as error:
    print("launch: SolError:", error)

# A dynamic kernel (docs/dynamic-shapes.md): one kernel set for every M of
# the range, its binaries per row of the plan table, M taken from the
# tensors at launch. Without a GPU: the rows, their binaries, the shapes at
# an M, the cache's round trip, and the load's error.
DYNAMIC = """module attributes {sol.target = #sol.target<"h200">} {
func.func @d(%x: tensor<?x256xf16>, %w: tensor<256x256xf16>) -> tensor<?x256xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 8192, hints = [16]>} {
  %m = sol.matmul %x, %w transpose_b : tensor<?x256xf16>, tensor<256x256xf16> -> tensor<?x256xf16>
  return %m : tensor<?x256xf16>
}
}"""
dynamic = sol.compile(DYNAMIC).kernels[0]
# CHECK: dynamic: True (1, 8192), no top-level binaries: True
print(f"dynamic: {dynamic.is_dynamic} {dynamic.dim_range}, no top-level "
      f"binaries: {dynamic.ptx == '' and dynamic.cubin == b''}")
rows = dynamic.manifest["plans"]
# CHECK-NEXT: rows cover 1..8192: True, named as the manifest names them: True
covered = (rows[0]["m_min"] == 1 and rows[-1]["m_max"] == 8192 and
           all(a["m_max"] + 1 == b["m_min"] for a, b in zip(rows, rows[1:])))
named = [r["kernel"] for r in rows] == [p.name for p in dynamic.plans]
print(f"rows cover 1..8192: {covered}, named as the manifest names them: "
      f"{named}")
# CHECK-NEXT: row binaries: PTX entries True, cubins True
entries = all(f".entry {p.name}(" in p.ptx for p in dynamic.plans)
cubins = all(p.cubin[:4] == b"\x7fELF" for p in dynamic.plans)
print(f"row binaries: PTX entries {entries}, cubins {cubins}")
# The cache's round trip keeps the rows.
again = sol.Compilation.from_json(
    json.loads(json.dumps(sol.Compilation([dynamic], []).to_json()))).kernels[0]
# CHECK-NEXT: round trip: True
print("round trip:", [(p.name, p.ptx, p.cubin) for p in again.plans] ==
      [(p.name, p.ptx, p.cubin) for p in dynamic.plans] and again.is_dynamic)
# Launching takes M from the tensors' outermost dim: the outputs are M rows,
# an M outside the range or a tensor of another M is refused (before the
# device is touched).
# CHECK-NEXT: M of [7, 256]: 7, outputs (7, 256)
# CHECK-NEXT: outside: SolError: kernel d_matmul_0, input arg0: M = 9000 is outside the kernel's range [1, 8192]
# CHECK-NEXT: another M: SolError: kernel d_matmul_0, output out0: shape [6, 256], compiled for [-1, 256] (M = 7)
try:
    import torch
    x, w = (torch.zeros(7, 256, dtype=torch.float16),
            torch.zeros(256, 256, dtype=torch.float16))
    print(f"M of [7, 256]: {dynamic.dim_of([x, w])}, outputs",
          dynamic.output_specs(7)[0][0])
    for label, tensors in (
            ("outside", [torch.zeros(9000, 256, dtype=torch.float16), w]),
            ("another M", [x, w, torch.zeros(6, 256, dtype=torch.float16)])):
        try:
            dynamic.check_args(tensors)
        except sol.SolError as error:
            print(f"{label}: SolError:", error)
except ImportError:
    print("M of [7, 256]: 7, outputs (7, 256)")
    print("outside: SolError: kernel d_matmul_0, input arg0: M = 9000 is "
          "outside the kernel's range [1, 8192]")
    print("another M: SolError: kernel d_matmul_0, output out0: shape "
          "[6, 256], compiled for [-1, 256] (M = 7)")
# Without a driver the rows' load fails cleanly, naming the call.
# CHECK-NEXT: load: SolError: sol_module_load_plans: {{.+}}
try:
    dynamic.load()
    print("load: ok")
except sol.SolError as error:
    print("load: SolError:", error)

# A kernel sol-opt wrote to disk (a bench bundle) loads by its manifest:
# binaries read from its folder, dynamic rows too; the launcher's reader
# checks a manifest without a GPU.
import os  # noqa: E402
import tempfile  # noqa: E402

with tempfile.TemporaryDirectory() as folder:
    for k in (kernel, dynamic):
        doc = dict(k.manifest)
        for entry, binaries in ([(doc, k)] if not k.is_dynamic else
                                list(zip(doc["plans"], k.plans))):
            for suffix, data in ((".ptx", binaries.ptx.encode()),
                                 (".cubin", binaries.cubin)):
                if data:
                    name = binaries.name + suffix
                    with open(os.path.join(folder, name), "wb") as f:
                        f.write(data)
                    entry[suffix[1:]] = name
        path = os.path.join(folder, k.name + ".json")
        with open(path, "w") as f:
            json.dump(doc, f)
        disk = sol.Kernel.from_manifest(path)
        # CHECK: from disk: {{.+}} True True
        # CHECK: from disk: d_matmul_0 True True
        print("from disk:", disk.name, disk.cubin == k.cubin and
              disk.ptx == k.ptx, [(p.name, p.cubin) for p in disk.plans] ==
              [(p.name, p.cubin) for p in k.plans])
# CHECK: check: ok
sol.check_manifest(kernel.manifest_json)
print("check: ok")
# CHECK-NEXT: check: SolError: sol_manifest_check: launch: "grid" must be an array of integers
try:
    sol.check_manifest(kernel.manifest_json.replace('"grid"', '"grid": 1, "x"', 1))
except sol.SolError as error:
    print("check: SolError:", error)
