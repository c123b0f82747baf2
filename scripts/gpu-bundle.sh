#!/usr/bin/env bash
# Compiles everything the GPU check needs, here (the GPU machine has no
# MLIR), into one folder the device tool carries:
#
#   scripts/gpu-bundle.sh [BUNDLE_DIR]        (default: gpu-bundle, git-ignored)
#
#   BUNDLE_DIR/matrix.tgz   the correctness matrix (gen-matrix.py --profile=gpu):
#                           per kernel a manifest, its PTX and its cubin; and
#                           in dynamic/ the same cases with a dynamic M
#                           (--dynamic): per kernel a dynamic manifest and
#                           one PTX and cubin per row of its plan table
#   BUNDLE_DIR/bench.tgz    the seed workloads (examples/*.mlir, and bf16 and
#                           16-token variants of o_proj + residual), for timing
#
# Then, in one device call:  scripts/gpu-check.sh BUNDLE_DIR
#
# CUBIN=false leaves the cubins out: no ptxas here, which is most of the
# bundle's time on a small machine; gpu-check.sh assembles the PTX on the
# device, in parallel, and the manifests are the same either way.
#
# ONLY=REGEX builds only the parts whose names match: each variant's suffix
# (_ow, _owfp8, _blocksk, ...) and base (the matrix as generated), fp8,
# dyn (the dynamic matrix), fp8dyn, _sabdyn, _owdyn and bench. The whole
# bundle is too large to carry beside the wheel; a part of it is not, e.g.
#   ONLY='^(_ow.*|_blocksk.?)$' CUBIN=false scripts/gpu-bundle.sh /tmp/ow
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="${1:-$root/gpu-bundle}"
sol_opt="${SOL_OPT:-$root/build/bin/sol-opt}"
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ "${CUBIN:-true}" = false ]; then
  cat > "$work/sol-opt" <<WRAP
#!/usr/bin/env bash
args=()
for a in "\$@"; do
  case "\$a" in --sol-to-ptx=*) a="\$a cubin=false" ;; esac
  args+=("\$a")
done
exec "$sol_opt" "\${args[@]}"
WRAP
  chmod +x "$work/sol-opt"
  sol_opt="$work/sol-opt"
fi
mkdir -p "$bundle" "$work/matrix" "$work/bench" "$work/dynamic"

# Whether the part named $1 is built (ONLY, above).
wanted() { [ -z "${ONLY:-}" ] || [[ "$1" =~ $ONLY ]]; }

# The matrix's cases that match a gen-matrix.py --only pattern, compiled
# again once per variant SUFFIX:OPTIONS (the cases' names get SUFFIX;
# --sol-to-ptx gets COMMON and the variant's OPTIONS):
#   variants "GEN_FLAGS" 'ONLY' "COMMON" SUFFIX:OPTIONS...
variants() {
  local gen_flags=$1 only=$2 common=$3 variant
  shift 3
  for variant in "$@"; do
    wanted "${variant%%:*}" || continue
    # shellcheck disable=SC2086  # gen_flags is a list of flags
    python3 "$root/scripts/gen-matrix.py" --profile=gpu $gen_flags \
      --suffix="${variant%%:*}" --only="$only" "$work/matrix${variant%%:*}.mlir"
    "$sol_opt" "$work/matrix${variant%%:*}.mlir" -o /dev/null \
      --sol-to-ptx="out-dir=$work/matrix $common ${variant#*:}"
  done
}

# One generated part compiled as it is, into OUT (matrix or dynamic), when
# ONLY wants NAME; ONLY_CASES, when given, is gen-matrix.py's --only:
#   part NAME OUT "GEN_FLAGS" ['ONLY_CASES' ["OPTIONS"]]
part() {
  local name=$1 out=$2 gen_flags=$3 only=${4:-} options=${5:-}
  wanted "$name" || return 0
  # shellcheck disable=SC2086  # gen_flags is a list of flags
  python3 "$root/scripts/gen-matrix.py" --profile=gpu $gen_flags \
    ${only:+--only="$only"} "$work/part$name.mlir"
  "$sol_opt" "$work/part$name.mlir" -o /dev/null \
    --sol-to-ptx="out-dir=$work/$out${options:+ $options}"
}

part base matrix ""
# sol-tile sends the large f16/bf16 matmuls to TMA without a cluster; the
# matmul patterns TMA can take are compiled again as TMA kernels with 2-CTA
# clusters multicasting B, down to 7 rows and 77 columns (single partial
# tiles; the second block of a cluster reading only zero-filled rows).
tma_able='(mm|mm_residual|mm_bias_gelu_tanh|mm_rowscale_relu|mm_to_f32|mm_two_outputs)_(f16|bf16)_(7|64|4097)'
tma_shapes='(77x200|1000x1000|2560x2560)'
variants "" "^${tma_able}x${tma_shapes}\$" "paths=wgmma_tma" \
  "_tma2:max-cluster=2 schedules=cooperative"
# The same patterns with ping-pong consumers: 128x128 tiles without (_pp)
# and with (_pp2) a 2-CTA cluster, and each wider ping-pong tile (_pp144,
# _pp160, _pp192), and cooperative 256-row tiles (_tall: the model's pick
# of 256x128/160/192). Sibling matmuls (mm_swiglu from 129 rows) at each
# width too but _pp2's, and on cooperative 128x256 tiles (_sib256); they
# take no cluster.
siblings='mm_swiglu(_bias|_two_outputs)?_(f16|bf16)_(129|4097)'
variants "" "^(${tma_able}|${siblings})x${tma_shapes}\$" \
  "paths=wgmma_tma schedules=pingpong" \
  "_pp:tiles=128x128" "_pp144:tiles=128x144" "_pp160:tiles=128x160" \
  "_pp192:tiles=128x192"
variants "" "^${tma_able}x${tma_shapes}\$" "paths=wgmma_tma schedules=pingpong" \
  "_pp2:tiles=128x128 max-cluster=2 min-cluster=2"
variants "" "^(${tma_able}|${siblings})x${tma_shapes}\$" \
  "paths=wgmma_tma schedules=cooperative" "_tall:tiles=256x128,256x160,256x192"
variants "" "^${siblings}x(77x200|1000x1000)\$" "paths=wgmma_tma" \
  "_sib256:tiles=128x256"
# Wide stores (convert-sol-kernels-to-gpu's wide-stores, on by default
# since these passed on an H100, 2026-12-07, NOTES section 52): 16-bit
# results stored 16 bytes per lane after a quad transpose,
# on ping-pong tiles whose n8 blocks are a multiple of 4 (128, 192) and
# not (144: two blocks left to the pair stores), cooperative and 256-row
# tiles, split K (the last arrival's epilogue), the cp.async-fed wgmma
# path and sibling pairs; N = 77 keeps the pair stores, N = 1000 ends in a
# partial tile whose last blocks are out of bounds. (The matrix above and
# the dynamic one below take the default, wide stores, everywhere.)
wide_cases="(${tma_able}|mm_residual_batched_lhs_(f16|bf16)_(7|64|4097)|${siblings})x${tma_shapes}"
variants "" "^${wide_cases}\$" "wide-stores=true paths=wgmma_tma" \
  "_ws:schedules=pingpong tiles=128x128,128x144,128x192" \
  "_wsc:schedules=cooperative" "_wstall:schedules=cooperative tiles=256x128"
variants "" "^${tma_able}x${tma_shapes}\$" "wide-stores=true" "_wscp:paths=wgmma"
variants "" '^(mm_residual|mm_two_outputs)_(f16|bf16)_(7|64|129)x(1000x1000|2560x2560)$' \
  "wide-stores=true small-m-tma=true paths=wgmma_tma" "_wssk:split-k=3"
# overwrite-first-k (convert-sol-kernels-to-gpu, off until these pass): each
# wgmma_tma unit's first K tile peeled, its first wgmma per accumulator
# with scale-d = 0 on poison registers, on ping-pong tiles of each width,
# cooperative and 256-row tiles, split K (every split's first K tile; the
# last split's partly past K), 64-row tiles, sibling pairs and [K, N]
# weights; block-wise fp8 (every K tile's partials overwrite theirs) below.
variants "" "^(${wide_cases}|mm_kn_bias_gelu_erf_(f16|bf16)_(7|64|4097)x(1000x1000|2560x2560))\$" \
  "overwrite-first-k=true paths=wgmma_tma" \
  "_ow:schedules=pingpong tiles=128x128,128x144,128x192" \
  "_owc:schedules=cooperative" "_owtall:schedules=cooperative tiles=256x128,256x160"
variants "" '^(mm_residual|mm_two_outputs)_(f16|bf16)_(7|64|129)x(1000x1000|2560x2560|256x7168)$' \
  "overwrite-first-k=true small-m-tma=true paths=wgmma_tma" \
  "_owsk:split-k=3" "_owm64:schedules=pingpong tiles=64x128,64x192"
# [K, N] weights (GPT-2's Conv1D) read N-major by the TMA kernels (on by
# default since this matrix passed them on 2026-12-01): each schedule at
# each offered tile width (the multiples of 64), down to 7 rows and N = 1000
# (a partial last box of 40 columns).
variants "" '^mm_kn_bias_gelu_erf_(f16|bf16)_(7|64|4097)x(1000x1000|2560x2560)$' \
  "paths=wgmma_tma" \
  "_kn128:schedules=pingpong tiles=128x128" \
  "_kn192:schedules=pingpong tiles=128x192" \
  "_kn256:schedules=cooperative tiles=128x256" \
  "_kntall:schedules=cooperative tiles=256x128,256x192"
# Small M against a wide or deep weight (issue 19) on the TMA kernels'
# small-M plans (small-m-tma, on by default since 2026-12-03; this matrix
# passed them on 2026-12-01): 64-row ping-pong tiles at each width (_m64; the model splits
# K where it pays), and split K forced by sol-tile's test-only split-k over
# the model's tiles and schedules (_sk: 3 splits, the last one's K tiles
# partly past K) and cooperative ones (_skc: 4, both consumers' warps
# counting on the tile), at 7, 64 and 129 rows (a 64-row tile's partial
# third row of tiles).
variants "" '^(mm_residual|mm_bias_gelu_tanh|mm_two_outputs|mm_to_f32)_(f16|bf16)_(7|64|129)x(1000x1000|2560x2560|256x7168)$' \
  "small-m-tma=true paths=wgmma_tma" \
  "_m64:schedules=pingpong tiles=64x128,64x192,64x256" \
  "_sk:split-k=3" \
  "_skc:split-k=4 schedules=cooperative"
# Sibling pairs on those 64-row tiles (_sib64), which sol-tile offers a
# pair only with small-m-siblings until this matrix has passed them: the
# pair's epilogue on one m64 accumulator per ping-pong consumer.
variants "" "^${siblings}x${tma_shapes}\$" \
  "small-m-siblings=true paths=wgmma_tma schedules=pingpong" \
  "_sib64:tiles=64x128,64x192,64x256"

# fp8 (issue 20, docs/fp8.md): e4m3 x e4m3 matmuls (and e5m2 x e4m3,
# e4m3 x e5m2) on the paths that generate fp8 (wgmma_tma, gemv), with
# per-tensor and per-token/per-channel scales, plain, with bias + tanh GELU
# and as a SwiGLU sibling pair, bf16 results, at 1, 7, 16, 64, 129 and 4097
# rows (up to 16 mostly the gemv path's fp8 conversions) by
# 1000 x 1024, 2560 x 2560 and 77 x 208 (K a multiple of 16, not always of
# the 128-deep fp8 K tile; N odd). The inputs are random fp8 codes and the
# reference is the float64 product of the dequantised stored codes, so the
# bf16 default tolerance (1e-2) holds only the f32 accumulation and the
# output's rounding (2^-9): each product of two codes is exact in f32. (The
# H200's fp8 wgmma accumulates with fewer bits than f32, docs/fp8.md
# section 6: a deep case failing by a small margin is that, not the
# scales.) fp8 results (114 cases: the matmul's own over scale_out, e4m3
# and e5m2, a GELU epilogue cast to e4m3, and quantise / dequantise
# elementwise kernels, some past the largest code) are checked at half an
# fp8 ulp with slack (runtime/Compare.cpp). Then the small-M plans (_fp8m64: 64-row ping-pong tiles; _fp8sk:
# K split over 3 units) and, in dynamic/, the same cases with a dynamic M.
# swap_ab at every row count it serves (1-32: one to four n8 token tiles),
# static and as the decode rows of dynamic sets (mma.sync above 32 rows).
swap_ab_cases='(mm|mm_residual|mm_bias_gelu_tanh|mm_rowscale_relu|mm_to_f32|mm_two_outputs)_(f16|bf16)'
variants "" "^${swap_ab_cases}_(1|3|7|16|29)x(77x200|1000x1000|2560x2560|256x7168|130x129)\$" \
  "paths=swap_ab" "_sab:"
part _sabdyn dynamic "--dynamic --suffix=_sab" \
  '^(mm_residual|mm_bias_gelu_tanh|mm_two_outputs)_(f16|bf16)_dynx(77x200|1000x1000|256x7168)$' \
  "paths=swap_ab,mma_sync"

part fp8 matrix "--fp8"
# Weight-only fp8 on swap_ab at the rows gemv takes too (the planner's
# pick there may be either path).
variants "--fp8" '^wmm(_bias_residual)?_(bf16e4m3|f16e5m2)_(tensor|channel)_(1|7|16)x(1000x1024|77x208)$' \
  "paths=swap_ab" "_wsab:"
# mma.sync's fp8 form (m16n8k32; sm_89's fp8 path, on Hopper only with
# hopper-mma-sync-fp8): every fp8 kind pair, both scale kinds, odd shapes,
# with and without split K.
variants "--fp8" '^qmm(_bias_gelu_tanh)?_(e4m3|e5m2e4m3|e4m3e5m2)_(tensor|token)_(1|7|16|64|129)x(1000x1024|2560x2560|77x208)$' \
  "hopper-mma-sync-fp8=true paths=mma_sync" "_fp8ms:" "_fp8mssk:split-k=4"
variants "--fp8" '^qmm(_bias_gelu_tanh)?_e4m3_(tensor|token)_(7|64|129)x(1000x1024|2560x2560)$' \
  "small-m-tma=true paths=wgmma_tma" \
  "_fp8m64:schedules=pingpong tiles=64x128,64x192,64x256" \
  "_fp8sk:split-k=3"
# Block-wise scales with split K (sol-tile's block-split-k, off until these
# pass): each split promotes its own K tiles, the last split's tiles partly
# past K (8 and 20 K tiles over 3 splits; 4 cooperative).
variants "--fp8" '^qmm(_bias_gelu_tanh)?_e4m3_block_(7|64|129)x(1000x1024|2560x2560)$' \
  "block-split-k=true paths=wgmma_tma" \
  "_blocksk:split-k=3 schedules=pingpong" "_blockskc:split-k=4 schedules=cooperative"
variants "--fp8" '^qmm(_bias_gelu_tanh)?_e4m3_(block|token)_(7|64|129|4097)x(1000x1024|2560x2560)$' \
  "overwrite-first-k=true paths=wgmma_tma" "_owfp8:"
part fp8dyn dynamic "--fp8 --dynamic"

# Dynamic M (docs/dynamic-shapes.md): the matrix's cases with ? for M, one
# kernel set per group of cases that differ only in M; gpu-check.sh runs
# each at the Ms its range hints (the static cases' Ms) and its ends.
part dyn dynamic "--dynamic"
# overwrite-first-k on dynamic-M kernel sets (what the torch backend
# launches): every row of their plan tables, 64-row and 128-row tiles,
# split K where the rows choose it.
part _owdyn dynamic "--dynamic --suffix=_owdyn" \
  '^(mm_residual|mm_bias_gelu_tanh|mm_two_outputs)_(f16|bf16)_dynx(77x200|1000x1000|2560x2560)$' \
  "overwrite-first-k=true"

# Timed workloads: the examples as written (fp16), plus bf16 and 16-token
# decode variants of the seed o_proj + residual.
if wanted bench; then
  mkdir -p "$work/bench-src"
  cp "$root"/examples/*.mlir "$work/bench-src/"
  for f in oproj_residual oproj_residual_decode; do
    sed -e 's/xf16>/xbf16>/g' -e "s/func.func @$f(/func.func @${f}_bf16(/" \
      "$root/examples/$f.mlir" > "$work/bench-src/${f}_bf16.mlir"
  done
  sed -e 's/1x1x2560xf16/16x1x2560xf16/g' \
    -e 's/func.func @oproj_residual_decode(/func.func @oproj_residual_decode16(/' \
    "$root/examples/oproj_residual_decode.mlir" > "$work/bench-src/oproj_residual_decode16.mlir"
  for f in "$work"/bench-src/*.mlir; do
    "$sol_opt" "$f" --sol-to-ptx=out-dir="$work/bench" -o /dev/null
  done
  # A/B of the large matmuls' plans, each workload of bench/workloads in fp16
  # and bf16: the cooperative TMA kernel (128x256, sol-tile's usual choice),
  # ping-pong consumers on 128x128 tiles without and with 2-CTA clusters, the
  # cooperative kernel with clusters, and the cp.async-fed wgmma kernel.
  for w in oproj_prefill mlp_up_gelu; do
    for dtype in fp16 bf16; do
      for variant in "coop:paths=wgmma_tma schedules=cooperative" \
                     "pp:paths=wgmma_tma schedules=pingpong" \
                     "pp2:paths=wgmma_tma schedules=pingpong max-cluster=2" \
                     "coop2:paths=wgmma_tma schedules=cooperative max-cluster=2" \
                     "cpasync:paths=wgmma"; do
        name="${variant%%:*}"
        sed -e "s/func.func @${w}_$dtype(/func.func @${w}_${dtype}_$name(/" \
          "$root/bench/workloads/${w}_$dtype.mlir" > "$work/${w}_${dtype}_$name.mlir"
        "$sol_opt" "$work/${w}_${dtype}_$name.mlir" \
          --sol-to-ptx="out-dir=$work/bench ${variant#*:}" -o /dev/null
      done
    done
  done
fi

tar -C "$work" -czf "$bundle/matrix.tgz" matrix dynamic
tar -C "$work" -czf "$bundle/bench.tgz" bench
echo "$bundle: $(ls "$work/matrix" | grep -c '\.json$') matrix kernels," \
  "$(ls "$work/dynamic" | grep -c '\.json$') dynamic kernels," \
  "$(ls "$work/bench" | grep -c '\.json$') bench kernels," \
  "$(du -sh "$bundle" | cut -f1)"
