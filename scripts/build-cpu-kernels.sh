#!/usr/bin/env bash
# Builds every kernel of a sol module into a shared library for numerics
# checks on the CPU:
#   scripts/build-cpu-kernels.sh <in.mlir> <outdir>   ->  <outdir>/kernels.so
# sol-annotate fuses (under the module's #sol.target; a module without one is
# fused with force=always), convert-sol-to-linalg outlines each kernel,
# sol-lower-to-cpu keeps only the kernels. Each kernel is exported as
#   void <kernel name>(void *in0, ..., void *out0, ...)
# on dense row-major buffers of the kernel's input and result types; a
# kernel whose outermost dim is dynamic (tensor<?x...>) takes the value of
# that dim through one more, trailing, argument (docs/dynamic-shapes.md, 4):
#   void <kernel name>(void *in0, ..., void *out0, ..., const int64_t *dim)
# and serves every M from the one library. The caller allocates each buffer
# at that M; the kernel writes its outs in place. The
# kernel names are listed in <outdir>/kernels.txt. Intermediates stay in
# <outdir> (kernels.linalg.mlir, kernels.llvm.mlir, kernels.ll, kernels.o).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 <in.mlir> <outdir>" >&2
  exit 2
fi
in=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
SOL_OPT=${SOL_OPT:-$root/build/bin/sol-opt}
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-22/bin}
CC=${CC:-cc}
mkdir -p "$out"

if grep -q 'sol.target' "$in"; then
  fuse=(--sol-annotate)
else
  fuse=(--canonicalize --sol-fuse=force=always)
fi
"$SOL_OPT" "$in" "${fuse[@]}" --convert-sol-to-linalg -o "$out/kernels.linalg.mlir"
grep -oE 'func\.func @[A-Za-z0-9_.$]+\(.*attributes \{.*sol\.kernel' \
  "$out/kernels.linalg.mlir" | sed -E 's/func\.func @([^(]+)\(.*/\1/' \
  > "$out/kernels.txt" || true
"$SOL_OPT" "$out/kernels.linalg.mlir" --sol-lower-to-cpu -o "$out/kernels.llvm.mlir"
"$LLVM_BIN/mlir-translate" --mlir-to-llvmir "$out/kernels.llvm.mlir" -o "$out/kernels.ll"
"$LLVM_BIN/llc" -O2 -filetype=obj -relocation-model=pic "$out/kernels.ll" -o "$out/kernels.o"
"$CC" -shared "$out/kernels.o" -o "$out/kernels.so" -lm
echo "$out/kernels.so: $(tr '\n' ' ' < "$out/kernels.txt")"
