#!/usr/bin/env bash
# SASS of a cubin on this machine, which has ptxas but neither cuobjdump nor
# nvdisasm: fetches NVIDIA's nvdisasm wheel from PyPI once (into
# ${SOL_TOOLS_CACHE:-$HOME/.cache/sol-tools}) and disassembles.
#
#   scripts/sass.sh build/kernels/oproj_residual_matmul_0.cubin [nvdisasm options]
#
# Read the consumer loop before spending GPU time (device library, METHOD.md):
# e.g. `scripts/sass.sh k.cubin | grep -n 'HGMMA\|WARPGROUP\|SYNCS\|UTMALDG'`.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 <file.cubin> [nvdisasm options]" >&2; exit 2; }
cache="${SOL_TOOLS_CACHE:-$HOME/.cache/sol-tools}"
tool="$cache/nvidia/cu13/bin/nvdisasm"
if [ ! -x "$tool" ]; then
  mkdir -p "$cache"
  python3 -m pip download --quiet --no-deps nvidia-cuda-nvdisasm -d "$cache/wheel" >&2
  python3 -m zipfile -e "$(ls "$cache"/wheel/nvidia_cuda_nvdisasm-*.whl | head -1)" "$cache"
  chmod +x "$tool"
fi
cubin="$1"; shift
"$tool" -c "$@" "$cubin"
