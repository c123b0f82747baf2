#!/usr/bin/env bash
# The GPU check, in one device call (the machine has nvcc and the driver but
# no MLIR; scripts/gpu-bundle.sh compiled everything here first):
#
#   scripts/gpu-check.sh [BUNDLE_DIR]
#
# 1. builds sol-run with the machine's g++ (scripts/build-runner.sh), and
#    assembles with ptxas, in parallel, every PTX of the bundle that has no
#    cubin (a bundle built with cubin=false);
# 2. runs the whole correctness matrix (--check-only, fresh seed, several
#    processes at once), and its dynamic-M kernels (sol-run --dim) at each M
#    their range hints and at its ends;
# 3. runs compute-sanitizer memcheck and racecheck on a subset (one kernel of
#    each path and edge kind, small shapes);
# 4. times the seed workloads (sol-run's CUDA-event timing with rotated input
#    sets) and prints measured against predicted SOL (not with SKIP_TIMING=1).
# Logs and JSON go to $OUT (the device tool's return folder) when it is set:
# card.txt, matrix.log, matrix.json (dynamic rows included, each with its
# "dim"), sanitizer.txt, sanitizer.log, bench.log, bench.json (the tool
# returns at most 8 files).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="${1:-$root/gpu-bundle}"
out="${OUT:-$root/gpu-results}"
mkdir -p "$out"
work="$(mktemp -d)"
seed="${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader \
  | tee "$out/card.txt"
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
run="$work/bin/sol-run"
tar -C "$work" -xzf "$bundle/matrix.tgz"
tar -C "$work" -xzf "$bundle/bench.tgz"
# A bundle built with cubin=false (the quick build: no ptxas here for
# thousands of kernels) has PTX only; sol-run would JIT each one, serially.
# Assemble them here in parallel as sol-write-binaries does (-arch from the
# PTX's .target, -O3), so the matrix runs cubins either way.
ptxas="${CUDA_HOME:-/usr/local/cuda}/bin/ptxas"
find "$work" -name '*.ptx' -print0 | xargs -0 -r -P "$(nproc)" -n 16 sh -c '
  for ptx; do
    [ -e "${ptx%.ptx}.cubin" ] && continue
    arch=$(grep -m1 -o "^\.target sm_[0-9a-z]*" "$ptx" | cut -d" " -f2)
    "$0" -arch="$arch" -O3 "$ptx" -o "${ptx%.ptx}.cubin" 2>/dev/null ||
      echo "ptxas failed on $ptx (sol-run will JIT it)"
  done' "$ptxas"

echo "== correctness matrix (seed $seed)"
ls "$work"/matrix/*.json > "$work/list"
split -n r/12 "$work/list" "$work/chunk."
for c in "$work"/chunk.*; do
  xargs "$run" --check-only --seed="$seed" --json="$c.json" < "$c" > "$c.log" 2>&1 &
done
# Dynamic kernels: one sol-run per manifest, at the Ms of its range (its
# ends, its hints; 0 too when the range holds it), 4 at a time.
if [ -d "$work/dynamic" ]; then
  python3 - "$work/dynamic" > "$work/dynamic.list" <<'PY'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    dim = json.load(open(path)).get("dynamic_dim")
    if dim:
        ms = sorted({dim["min"], dim["max"], *dim.get("hints", [])})
        print(path, ",".join(map(str, ms)))
PY
  split -n r/4 "$work/dynamic.list" "$work/dynchunk."
  for c in "$work"/dynchunk.*; do
    i=0
    while read -r manifest dims; do
      "$run" --check-only --seed="$seed" --dim="$dims" \
        --json="$c.$i.chunk.json" "$manifest" >> "$c.chunk.log" 2>&1
      i=$((i + 1))
    done < "$c" &
  done
fi
wait
for f in "$work"/dynchunk.*.chunk.json; do
  [ -e "$f" ] && mv "$f" "$work/chunk.dyn.$(basename "$f")"
done
cat "$work"/chunk.*.log "$work"/dynchunk.*.chunk.log > "$out/matrix.log" 2>/dev/null
python3 - "$work" "$out" <<'PY'
import glob, json, sys
work, out = sys.argv[1], sys.argv[2]
rows = []
for f in glob.glob(work + "/chunk.*.json"):
    rows += json.load(open(f))
json.dump(rows, open(out + "/matrix.json", "w"), indent=1)
fails = [r for r in rows if not r.get("pass")]
print("matrix: {} kernels, {} passed, {} failed".format(len(rows), len(rows) - len(fails), len(fails)))
dynamic = [r for r in rows if "dim" in r]
print("  of which dynamic (one row per M): {}, {} failed".format(
    len(dynamic), sum(not r.get("pass") for r in dynamic)))
for r in fails[:40]:
    print("  FAIL", r.get("kernel"), r.get("error", ""), r.get("share"), r.get("max_rel_err"))
def worst(dtype):
    sel = [r for r in rows if r.get("pass") and "_{}_".format(dtype) in r["kernel"]]
    if sel:
        w = max(sel, key=lambda r: r.get("max_rel_err") or 0)
        print("  worst {} max_rel_err {:.3e} ({}), min share {:.4f}, min cosine {:.6f}".format(
            dtype, w.get("max_rel_err") or 0, w["kernel"],
            min(r.get("share", 0) for r in sel), min(r.get("cosine", 0) for r in sel)))
for d in ("f16", "bf16", "f32"):
    worst(d)
PY

echo "== compute-sanitizer"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# Each kernel named below (SANITIZE="NAME..." names others: a part of the
# bundle, scripts/gpu-bundle.sh's ONLY, holds few of these); a name the
# bundle does not hold is skipped.
default_sanitize="mm_residual_f16_7x77x200 mm_kn_bias_gelu_erf_bf16_64x1000x1000 \
  mm_two_outputs_f16_1x130x129 mm_to_f32_f32_7x77x200 bmm_residual_bf16_7x77x200 \
  swiglu_residual_f16_7x77 mm_bias_gelu_tanh_f16_7x2560x2560 mm_residual_f16_4097x1000x1000 \
  mm_residual_bf16_7x77x200_tma2 mm_bias_gelu_tanh_f16_64x2560x2560_tma2 \
  mm_residual_bf16_64x1000x1000_pp mm_bias_gelu_tanh_f16_64x1000x1000_pp2 \
  mm_residual_f16_64x1000x1000 mm_residual_bf16_7x77x200_pp144 \
  mm_bias_gelu_tanh_f16_64x1000x1000_pp160 mm_two_outputs_f16_64x1000x1000_pp192 \
  mm_swiglu_f16_129x77x200 mm_swiglu_bf16_129x1000x1000_pp144 \
  mm_swiglu_f16_129x77x200_sib256 mm_swiglu_bias_bf16_129x1000x1000_pp160 \
  mm_swiglu_two_outputs_f16_129x77x200_pp192 mm_bias_gelu_tanh_bf16_64x1000x1000_tall \
  mm_swiglu_f16_4097x1000x1000_tall mm_kn_bias_gelu_erf_bf16_64x1000x1000_kn128 \
  mm_kn_bias_gelu_erf_f16_7x1000x1000_kn256 mm_kn_bias_gelu_erf_bf16_7x1000x1000_kntall \
  mm_bias_gelu_tanh_f16_129x2560x2560_m64 mm_residual_bf16_7x256x7168_sk \
  mm_two_outputs_f16_129x1000x1000_skc qmm_e5m2e4m3_token_7x1000x1024 \
  qmm_bias_gelu_tanh_e4m3_token_16x77x208 mm_residual_bf16_29x1000x1000_sab \
  mm_two_outputs_f16_3x77x200_sab mm_rowscale_relu_f16_16x256x7168_sab"
for k in ${SANITIZE:-$default_sanitize}; do
  m=$(ls "$work"/matrix/${k}__*.json 2>/dev/null | head -1)
  [ -n "$m" ] || continue
  for tool in memcheck racecheck; do
    log="$work/san_${tool}_$k.log"
    timeout 120 "$san" --tool $tool --error-exitcode 3 "$run" --check-only \
      --seed="$seed" "$m" > "$log" 2>&1
    echo "$tool $k: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|sol-run:' "$log" | tr '\n' ' ')"
    { echo "==== $tool $k"; cat "$log"; } >> "$out/sanitizer.log"
  done
done | tee "$out/sanitizer.txt"
# Dynamic kernels under both tools at every row's ends (and 6 rows in):
# each row of the plan table, its masks at the row's first and last M.
if [ -d "$work/dynamic" ]; then
  for m in "$work"/dynamic/mm_residual_f16_dynx1000x1000__*.json \
           "$work"/dynamic/mm_bias_gelu_tanh_bf16_dynx2560x2560__*.json \
           "$work"/dynamic/mm_swiglu_f16_dynx1000x1000__*.json \
           "$work"/dynamic/mm_two_outputs_f16_dynx77x200__*.json \
           "$work"/dynamic/mm_residual_bf16_dynx1000x1000_sab__*.json; do
    [ -f "$m" ] || continue
    dims=$(python3 -c "import json,sys; rows=json.load(open(sys.argv[1])).get('plans', [])
print(','.join(map(str, sorted({x for r in rows for x in (r['m_min'], r['m_max'], min(r['m_min'] + 6, r['m_max']))} - {0}))))" "$m")
    k=$(basename "$m" .json)
    for tool in memcheck racecheck; do
      log="$work/san_${tool}_$k.log"
      timeout 300 "$san" --tool $tool --error-exitcode 3 "$run" --check-only \
        --seed="$seed" --dim="$dims" "$m" > "$log" 2>&1
      echo "$tool $k at M=$dims: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|sol-run:' "$log" | tr '\n' ' ')"
      { echo "==== $tool $k"; cat "$log"; } >> "$out/sanitizer.log"
    done
  done | tee -a "$out/sanitizer.txt"
fi

[ -n "${SKIP_TIMING:-}" ] && exit 0
echo "== timing (seed workloads)"
"$run" --seed="$seed" --json="$out/bench.json" "$work"/bench/*.json > "$out/bench.log" 2>&1
grep -A100 '^kernel ' "$out/bench.log"
