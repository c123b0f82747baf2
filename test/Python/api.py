# The ctypes package without torch: compile the seed example, read kernels and
# the cost report, and get sol's diagnostics (with locations) as SolError.
# RUN: %sol_python %s %sol_src_root/examples/oproj_residual.mlir | FileCheck %s

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
# CHECK: error: sol_compile: bad option 'fast-math=maybe' (known: fast-math=true|false, fuse-siblings=true|false, paths=..., max-cluster=N, min-cluster=N, schedules=..., tiles=...)
try:
    sol.compile(GELU, options="fast-math=maybe")
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
