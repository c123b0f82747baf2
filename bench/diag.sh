#!/usr/bin/env bash
# The diagnostic experiments behind bench/NOTES.md, one entry point with
# arguments instead of one script per device call (the per-call scripts of
# 2026-11-29..30 are in git history; bench/results/README.md names, for each
# result, the script and commit that produced it and the command here that
# redoes it).
#
#   bench/diag.sh EXPERIMENT [options...]      (from anywhere; OUT=dir for files)
#
# On the GPU machine (one device call; carry what the experiment names):
#   backend    [ARGS]     torch.compile(backend="sol") against eager, timed
#                         interleaved after heat (bench/torch_backend_gpu.py
#                         ARGS: --variants, --profile, --variant NAME=OPTIONS).
#                         Carry .capi. Writes torch_backend_gpu.log.
#   gemm       [--with-ncu SHAPES] [ARGS]
#                         sol's pinned GEMM plans against cuBLAS, interleaved
#                         on a heated card (bench/gemm_variants.py ARGS:
#                         --shapes, --variants); --with-ncu adds one ncu
#                         launch of each plan at SHAPES (clocks left alone:
#                         tensor pipe, L2, DRAM). Carry .capi. Writes
#                         variants.txt, ncu.txt.
#   plan-check [ARGS]     one pinned plan on odd shapes against float64
#                         (bench/plan_check.py ARGS: --options, --epilogues,
#                         --shapes, --seed). Carry .capi. Writes plan_check.txt.
#   fp8-codes             every fp8 weight code through the weight-only
#                         paths, exactly (bench/fp8_codes.py: one-hot A,
#                         NaN codes). Carry .capi. Writes fp8_codes.txt.
#   matrix     [--part P] [--select RE] [--exclude RE] [--plan KEY=VALUE]
#              [--seed N] [--sanitize NAME]... [--tools LIST]
#                         sol-run --check-only over a bundle's manifests
#                         (P: matrix, bench or diag, the .tgz in gpu-bundle/;
#                         RE on the file name; KEY=VALUE on the manifest's
#                         plan, e.g. schedule=pingpong, path=wgmma_tma), then
#                         compute-sanitizer (LIST, default memcheck,racecheck)
#                         on the kernels whose names start with NAME.
#                         Carry gpu-bundle. Writes check.log, sanitizer.txt.
#   time       [--part P] [--select RE] [--exclude RE] [--seed N]
#              [--iters N] [--reps N] [--ncu]
#                         sol-run's timing of the selected kernels (default
#                         part bench); --ncu adds ncu's speed-of-light, warp
#                         state, scheduler and memory sections per kernel.
#                         Carry gpu-bundle. Writes timing.json, time.txt.
#   clock      [--part P] [--iters N] KERNEL
#                         KERNEL looped for seconds under nvidia-smi sampling
#                         every 50 ms (SM clock, power, throttle reasons; the
#                         mean over samples above 300 W), then one launch
#                         under ncu with the clocks left alone.
#                         Carry gpu-bundle. Writes clocks_KERNEL.csv, ncu_KERNEL.txt.
#   grid       [--part P] KERNEL GRID...
#                         resident 2-CTA clusters of a 384-thread block
#                         (cudaOccupancyMaxActiveClusters, needs nvcc), then
#                         a persistent KERNEL timed at each grid size (the
#                         kernel reads gridDim at run time: only the
#                         manifest changes). Carry gpu-bundle.
#   models     [ARGS]     whole transformers models against Inductor
#                         (bench/models.py ARGS: --families, --impls,
#                         --budget-s, --prefill, --decode-batches; --out is
#                         this experiment's). Carry .capi. Writes
#                         models.json, its sol report, models.log.
#   pip-flow              the user's flow: pip install the package with the
#                         carried library, then torch.compile(model,
#                         backend="sol") without importing sol. Carry .capi.
# Here (needs build/bin/sol-opt):
#   bundle [--tag TAG] OPTIONS FILE.mlir...
#                         compile FILEs with --sol-to-ptx="OPTIONS" into
#                         gpu-bundle/diag.tgz (adding to what is there;
#                         --tag appends _TAG to every function name so
#                         variants of one workload do not collide; `bundle
#                         --clear` starts over). Matrix subsets come from
#                         scripts/gen-matrix.py --profile=gpu --only=RE.
#
# .capi is scripts/build-static-capi.sh's libsol_capi.so.xz copied into
# .capi/; gpu-bundle comes from scripts/gpu-bundle.sh (matrix.tgz,
# bench.tgz) plus this script's `bundle` (diag.tgz).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${OUT:-/tmp/diag-out}"
mkdir -p "$out"

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }
die() { echo "diag.sh: $*" >&2; exit 2; }

# The C API experiments: the carried self-contained library, the package on
# PYTHONPATH (bench/ too, for run_bench's and torch_backend_gpu's timers).
capi_env() {
  [ -f "$root/.capi/libsol_capi.so.xz" ] || die "no .capi/libsol_capi.so.xz (carry .capi)"
  xz -dc "$root/.capi/libsol_capi.so.xz" > /tmp/libsol_capi.so && chmod +x /tmp/libsol_capi.so
  export SOL_CAPI_LIB=/tmp/libsol_capi.so PYTHONPATH="$root/python:$root/bench"
  export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}" PYTHONUNBUFFERED=1
  export SOL_CACHE_DIR="${SOL_CACHE_DIR:-/tmp/solcache}"
}

# The sol-run experiments: sol-run built on the GPU machine (it has no MLIR
# and needs none) and one part of the carried bundle unpacked into $work.
runner_env() { # PART
  [ -f "$root/gpu-bundle/$1.tgz" ] || die "no gpu-bundle/$1.tgz (carry gpu-bundle)"
  work="$(mktemp -d)"
  "$root/scripts/build-runner.sh" "$work/bin" >/dev/null || die "build-runner.sh failed"
  run="$work/bin/sol-run"
  tar -C "$work" -xzf "$root/gpu-bundle/$1.tgz"
  dir="$work/$1"
  [ -d "$dir" ] || dir="$work/bench" # diag.tgz and bench.tgz hold bench/
}

tool() { command -v "$1" || echo "/usr/local/cuda/bin/$1"; }

# Manifests of $dir whose name matches $select and not $exclude and whose
# plan has $plan (KEY=VALUE), one path per line.
select_manifests() {
  python3 - "$dir" "$select" "$exclude" "$plan" <<'PY'
import glob, json, os, re, sys
folder, select, exclude, plan = sys.argv[1:]
key, _, value = plan.partition("=")
for f in sorted(glob.glob(folder + "/*.json")):
    name = os.path.basename(f)
    if select and not re.search(select, name):
        continue
    if exclude and re.search(exclude, name):
        continue
    if key and str(json.load(open(f)).get("plan", {}).get(key)) != value:
        continue
    print(f)
PY
}

experiment="${1:-}"
[ -n "$experiment" ] || usage
shift
part="" select="" exclude="" plan="" seed="" iters="" reps="" ncu=0 tools="memcheck,racecheck"
sanitize=()
case "$experiment" in
  matrix|time|clock|grid)
    while [ $# -gt 0 ]; do
      case "$1" in
        --part) part="$2"; shift 2 ;;
        --select) select="$2"; shift 2 ;;
        --exclude) exclude="$2"; shift 2 ;;
        --plan) plan="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --iters) iters="$2"; shift 2 ;;
        --reps) reps="$2"; shift 2 ;;
        --sanitize) sanitize+=("$2"); shift 2 ;;
        --tools) tools="$2"; shift 2 ;;
        --ncu) ncu=1; shift ;;
        -*) die "$experiment: unknown option $1" ;;
        *) break ;;
      esac
    done ;;
esac

case "$experiment" in
  -h|--help|help) usage 0 ;;

  backend)
    capi_env
    nvidia-smi --query-gpu=name,clocks.sm,power.draw,power.limit,temperature.gpu --format=csv
    python3 "$root/bench/torch_backend_gpu.py" "$@" 2>&1 | tee "$out/torch_backend_gpu.log" |
      grep -v "^sol: "
    exit "${PIPESTATUS[0]}" ;;

  gemm)
    ncu_shapes=""
    [ "${1:-}" = --with-ncu ] && { ncu_shapes="$2"; shift 2; }
    capi_env
    python3 "$root/bench/gemm_variants.py" "$@" 2>&1 | grep -v "^sol: " | tee "$out/variants.txt"
    [ -n "$ncu_shapes" ] || exit 0
    ncu=$(tool ncu)
    wanted="gpu__time_duration.sum sm__cycles_elapsed.avg.per_second sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed sm__inst_executed_pipe_tensor_op_gmma.sum lts__t_bytes.sum lts__t_sectors_srcunit_tex_op_read.sum dram__bytes_read.sum sm__throughput.avg.pct_of_peak_sustained_elapsed lts__throughput.avg.pct_of_peak_sustained_elapsed l1tex__data_pipe_lsu_wavefronts_mem_shared.sum smsp__warps_issue_stalled_long_scoreboard.avg smsp__cycles_active.avg"
    # Only the metrics this ncu knows for GH100 (names differ between versions).
    known=$("$ncu" --query-metrics --chip gh100 2>/dev/null | awk '{print $1}')
    metrics=""
    for m in $wanted; do echo "$known" | grep -qx "${m%%.*}" && metrics="$metrics,$m"; done
    echo "ncu metrics: ${metrics#,}"
    timeout 300 "$ncu" --clock-control none --kernel-name regex:"g_matmul|nvjet" --metrics "${metrics#,}" \
      python3 "$root/bench/gemm_variants.py" --ncu "$@" --shapes "$ncu_shapes" > "$out/ncu.txt" 2>&1
    grep -E "g_matmul|nvjet|duration|per_second|pipe_tensor|lts__t_bytes|srcunit|dram__bytes|throughput|gmma" \
      "$out/ncu.txt" | tail -120 ;;

  models)
    capi_env
    nvidia-smi --query-gpu=name,clocks.sm,power.draw,power.limit,temperature.gpu --format=csv
    python3 "$root/bench/models.py" --out "$out/models.json" "$@" 2>&1 |
      grep -v "^sol: " > "$out/models.log"
    status=${PIPESTATUS[0]}
    grep -v '^{' "$out/models.log" | tail -40
    exit "$status" ;;

  plan-check)
    capi_env
    python3 "$root/bench/plan_check.py" "$@" 2>&1 | grep -v "^sol: " | tee -a "$out/plan_check.txt" |
      grep -E "^FAIL|^plan_check"
    exit "${PIPESTATUS[0]}" ;;

  fp8-codes)
    capi_env
    python3 "$root/bench/fp8_codes.py" "$@" 2>&1 | tee -a "$out/fp8_codes.txt" |
      grep -E "^FAIL|^fp8_codes"
    exit "${PIPESTATUS[0]}" ;;

  matrix)
    runner_env "${part:-matrix}"
    select_manifests > "$work/list"
    [ -s "$work/list" ] || die "matrix: no manifest selected"
    seed="${seed:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
    echo "selected: $(wc -l < "$work/list") kernels, schedules:" \
      "$(xargs -d '\n' cat < "$work/list" | grep -o '"schedule": "[a-z]*"' | sort | uniq -c | tr '\n' ' ')"
    "$root/scripts/check-parallel.sh" "$run" "$work/list" "$out/check.log" "matrix" --seed="$seed"
    status=$?
    echo "split-K kernels: $(xargs -d '\n' grep -l '"split_k": [2-9]' < "$work/list" | wc -l)"
    san=$(tool compute-sanitizer)
    : > "$out/sanitizer.txt"
    for k in ${sanitize[@]+"${sanitize[@]}"}; do
      m=$(ls "$dir"/"$k"*.json 2>/dev/null | head -1)
      [ -n "$m" ] || { echo "no kernel $k" | tee -a "$out/sanitizer.txt"; status=1; continue; }
      for t in ${tools//,/ }; do
        timeout 150 "$san" --tool "$t" --error-exitcode 3 "$run" --check-only --seed="$seed" "$m" \
          > "$work/san.log" 2>&1
        rc=$?
        [ $rc = 0 ] || status=1
        echo "$t $k: rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|sol-run:' "$work/san.log" |
          tr '\n' ' ')" | tee -a "$out/sanitizer.txt"
      done
    done
    exit $status ;;

  time)
    runner_env "${part:-bench}"
    select_manifests > "$work/list"
    [ -s "$work/list" ] || die "time: no manifest selected"
    xargs "$run" --seed="${seed:-5}" ${iters:+--iters=$iters} ${reps:+--reps=$reps} \
      --json="$out/timing.json" < "$work/list" | tee "$out/time.txt" | grep -A80 "^kernel"
    [ $ncu = 1 ] || exit 0
    ncu=$(tool ncu)
    while read -r m; do
      k=$(basename "$m" .json)
      timeout 240 "$ncu" --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
        --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --launch-count 1 \
        "$run" --check-only --seed=7 "$m" > "$out/ncu_$k.txt" 2>&1 < /dev/null
      echo "== $k"
      grep -E "Duration|Throughput|Stall|Warp Cycles|Issued|Eligible|Active Warps|Hit Rate|SM Frequency" \
        "$out/ncu_$k.txt" | head -40
    done < "$work/list" ;;

  clock)
    [ $# = 1 ] || die "clock: one KERNEL (a manifest name without .json)"
    runner_env "${part:-bench}"
    k="$1"
    [ -f "$dir/$k.json" ] || die "clock: no $k.json in gpu-bundle/${part:-bench}.tgz"
    nvidia-smi --query-gpu=clocks.sm,power.draw,clocks.max.sm,power.limit,temperature.gpu,clocks_event_reasons.active \
      --format=csv,noheader,nounits -lms 50 > "$out/clocks_$k.csv" &
    smi=$!
    sleep 1
    "$run" --iters="${iters:-4000}" --reps="${reps:-3}" "$dir/$k.json" | grep -A1 "^kernel" | tail -1
    kill $smi; wait $smi 2>/dev/null
    awk -F', ' -v k="$k" '$2 > 300 {n++; c += $1; p += $2} END {
      if (n) printf "%s under load: %d samples, SM clock %.0f MHz, power %.0f W\n", k, n, c / n, p / n
      else print k ": no sample above 300 W (loop longer: --iters)" }' "$out/clocks_$k.csv"
    timeout 90 "$(tool ncu)" --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --launch-count 1 "$run" --check-only --seed=7 "$dir/$k.json" > "$out/ncu_$k.txt" 2>&1
    grep -E "SM Frequency|Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|L2 Hit Rate|L1/TEX Hit|Mem Busy|Max Bandwidth" \
      "$out/ncu_$k.txt" | head -12 ;;

  grid)
    [ $# -ge 2 ] || die "grid: KERNEL GRID..."
    runner_env "${part:-bench}"
    k="$1"; shift
    [ -f "$dir/$k.json" ] || die "grid: no $k.json"
    cat > "$work/occ.cu" <<'CU'
// How many clusters of sol's wgmma_tma block (384 threads, ~193 KiB of
// dynamic shared memory) the card keeps resident at once: a persistent grid
// larger than that runs its surplus clusters after the others finish.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void block384() {}
int main() {
  for (int bytes : {197696, 197728}) {
    cudaFuncSetAttribute(block384, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    cudaFuncSetAttribute(block384, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    for (int cluster : {1, 2, 4}) {
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(132, 1, 1);
      config.blockDim = dim3(384, 1, 1);
      config.dynamicSmemBytes = bytes;
      cudaLaunchAttribute attr;
      attr.id = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = cluster;
      attr.val.clusterDim.y = 1;
      attr.val.clusterDim.z = 1;
      config.attrs = &attr;
      config.numAttrs = 1;
      int clusters = -1;
      cudaError_t err = cudaOccupancyMaxActiveClusters(&clusters, block384, &config);
      printf("smem %d cluster %d: max active clusters %d (%d blocks) %s\n", bytes, cluster,
             clusters, clusters * cluster, cudaGetErrorString(err));
    }
  }
  return 0;
}
CU
    "$(tool nvcc)" -arch=sm_90a -o "$work/occ" "$work/occ.cu" && "$work/occ" | tee "$out/occupancy.txt"
    for g in "$@"; do
      python3 - "$dir/$k.json" "$dir/g$g.json" "$g" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["launch"]["grid"][0] = int(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"))
PY
      printf "grid %4s: " "$g"
      "$run" --seed=7 "$dir/g$g.json" | grep -A1 "^kernel" | tail -1
    done | tee "$out/grid.txt" ;;

  pip-flow)
    [ -f "$root/.capi/libsol_capi.so.xz" ] || die "no .capi/libsol_capi.so.xz (carry .capi)"
    pkg="$(mktemp -d)/solpkg"
    mkdir -p "$root/python/sol/_lib"
    xz -dc "$root/.capi/libsol_capi.so.xz" > "$root/python/sol/_lib/libsol_capi.so"
    python3 -m pip install --no-build-isolation --no-deps --target "$pkg" "$root/python" 2>&1 | tail -2
    cd /tmp && PYTHONPATH="$pkg" CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}" \
      SOL_CACHE_DIR="${SOL_CACHE_DIR:-/tmp/solcache}" python3 - <<'PY'
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2560, 10240), nn.GELU(approximate="tanh"))
model = model.cuda().half().eval()
x = torch.randn(4096, 2560, device="cuda", dtype=torch.half)
compiled = torch.compile(model, backend="sol")  # no `import sol` before this
with torch.no_grad():
    got, want = compiled(x), model(x)
err = (got.float() - want.float()).abs().max().item()
close = torch.allclose(got.float(), want.float(), atol=2e-2, rtol=2e-2)
import sol
import sol.torch_backend as backend
print(f"pip-installed sol {sol.version()} from {sol.__file__}: matches eager "
      f"{close} (max abs diff {err:.2e}); partitions "
      f"{[p.status for r in backend.history for p in r.partitions]}")
raise SystemExit(0 if close else 1)
PY
    ;;

  bundle)
    stage="${DIAG_STAGE:-/tmp/sol-diag-bundle}" # outside gpu-bundle: not carried twice
    tgz="${DIAG_BUNDLE:-$root/gpu-bundle/diag.tgz}"
    if [ "${1:-}" = --clear ]; then rm -rf "$stage" "$tgz"; exit 0; fi
    tag=""
    [ "${1:-}" = --tag ] && { tag="_$2"; shift 2; }
    [ $# -ge 2 ] || die "bundle: [--tag TAG] OPTIONS FILE.mlir..."
    options="$1"; shift
    sol_opt="${SOL_OPT:-$root/build/bin/sol-opt}"
    mkdir -p "$stage/bench"
    scratch="$(mktemp -d)"
    for f in "$@"; do
      sed -E "s/func\.func @([A-Za-z0-9_]+)\(/func.func @\1$tag(/" "$f" > "$scratch/in.mlir"
      "$sol_opt" "$scratch/in.mlir" -o /dev/null \
        --sol-to-ptx="out-dir=$stage/bench${options:+ $options}" || die "bundle: $f did not compile"
    done
    rm -rf "$scratch"
    mkdir -p "$(dirname "$tgz")"
    tar -C "$stage" -czf "$tgz" bench
    echo "$tgz: $(ls "$stage"/bench/*.json | wc -l) kernels" ;;

  *) echo "diag.sh: unknown experiment '$experiment'" >&2; usage ;;
esac
