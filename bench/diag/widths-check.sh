#!/usr/bin/env bash
# 2026-11-30, third session: the GPU matrix's ping-pong kernels (128x128
# with and without clusters, 128x144, 128x160, 128x192; 7 to 4097 rows,
# odd columns, six epilogue patterns, f16 and bf16) and every default-matrix
# kernel the model now gives a wider ping-pong tile, checked with sol-run
# against float64 on a fresh seed; compute-sanitizer memcheck and racecheck
# on one kernel of each new width. Carry gpu-bundle.
set -uo pipefail
source "$(dirname "$0")/runner-env.sh"
tar -C "$work" -xzf "$root/gpu-bundle/matrix.tgz"
seed="${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
python3 - "$work/matrix" > "$work/list" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    if json.load(open(f)).get("plan", {}).get("schedule") == "pingpong":
        print(f)
PY
echo "ping-pong kernels: $(wc -l < "$work/list") (seed $seed)"
"$root/scripts/check-parallel.sh" "$run" "$work/list" "$out/widths-matrix.log" "ping-pong matrix" --seed="$seed"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for k in mm_residual_bf16_7x77x200_pp144 mm_bias_gelu_tanh_f16_64x1000x1000_pp160 \
         mm_two_outputs_f16_64x1000x1000_pp192; do
  m=$(ls "$work"/matrix/${k}__*.json | head -1)
  for tool in memcheck racecheck; do
    timeout 150 "$san" --tool $tool --error-exitcode 3 "$run" --check-only --seed="$seed" "$m" \
      > "$work/san.log" 2>&1
    echo "$tool $k: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|sol-run:' "$work/san.log" | tr '\n' ' ')"
  done
done | tee "$out/sanitizer.txt"
