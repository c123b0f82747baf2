"""Prints a sol module holding one elementwise chain of N ops (argv[1]):
exp, tanh, then a multiply by the chain's input, repeated (or, with
argv[2] = gelu, N tanh-GELUs), over one tensor<1024xf16> in func @chain,
under the H200 target. No op folds, so canonicalization keeps all N. For
fuse-max-kernel-ops.mlir."""

import sys

n = int(sys.argv[1])
gelu = len(sys.argv) > 2 and sys.argv[2] == "gelu"
ty = "tensor<1024xf16>"
print('module attributes {sol.target = #sol.target<"h200">} {')
print(f"  func.func @chain(%x: {ty}) -> {ty} {{")
prev = "%x"
for i in range(n):
    if gelu:
        print(f"    %v{i} = sol.gelu tanh {prev} : {ty}")
    elif i % 3 == 0:
        print(f"    %v{i} = sol.exp {prev} : {ty}")
    elif i % 3 == 1:
        print(f"    %v{i} = sol.tanh {prev} : {ty}")
    else:
        print(f"    %v{i} = sol.mul {prev}, %x : {ty}, {ty} -> {ty}")
    prev = f"%v{i}"
print(f"    return {prev} : {ty}")
print("  }")
print("}")
