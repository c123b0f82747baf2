#!/usr/bin/env bash
# Compiles the benchmark's workloads (bench/workloads/*.mlir, fp16 and bf16)
# here, where MLIR is, into one tarball the device tool carries to the GPU
# machine (which has no MLIR):
#
#   scripts/bench-bundle.sh [BUNDLE_DIR]      (default: bench-bundle, git-ignored)
#
#   BUNDLE_DIR/bench-kernels.tgz   kernels/<function>/ per workload file: each
#                                  kernel's manifest (.json), PTX and cubin,
#                                  and kernels/bundle.json (sol commit, date,
#                                  workload -> manifests)
#
# Then, in one device call:  scripts/bench.sh BUNDLE_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="${1:-$root/bench-bundle}"
sol_opt="${SOL_OPT:-$root/build/bin/sol-opt}"
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
[ -x "$sol_opt" ] || { echo "bench-bundle: $sol_opt not built (scripts/build.sh)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$bundle" "$work/kernels"

# One folder per workload function, so that the runner never has to guess
# which manifests belong to which workload from file-name prefixes.
for f in "$root"/bench/workloads/*.mlir; do
  name="$(basename "$f" .mlir)"
  "$sol_opt" "$f" --sol-to-ptx=out-dir="$work/kernels/$name" -o /dev/null
  n=$(ls "$work/kernels/$name" | grep -c '\.json$' || true)
  [ "$n" -ge 1 ] || { echo "bench-bundle: $name produced no kernel" >&2; exit 1; }
  for m in "$work/kernels/$name"/*.json; do
    k="$(basename "$m" .json)"
    [ -s "$work/kernels/$name/$k.cubin" ] || [ -s "$work/kernels/$name/$k.ptx" ] ||
      { echo "bench-bundle: $name/$k has no cubin nor PTX" >&2; exit 1; }
  done
done

commit="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
dirty="$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo true || echo false)"
python3 - "$work/kernels" "$commit" "$dirty" <<'PY'
import datetime, json, os, sys
kernels, commit, dirty = sys.argv[1], sys.argv[2], sys.argv[3] == "true"
workloads = {}
for name in sorted(os.listdir(kernels)):
    d = os.path.join(kernels, name)
    if os.path.isdir(d):
        workloads[name] = sorted(f for f in os.listdir(d) if f.endswith(".json"))
json.dump({"sol_commit": commit, "sol_dirty": dirty,
           "built": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "workloads": workloads},
          open(os.path.join(kernels, "bundle.json"), "w"), indent=1)
PY
tar -C "$work" -czf "$bundle/bench-kernels.tgz" kernels
echo "$bundle/bench-kernels.tgz: $(ls "$work/kernels" | grep -vc bundle.json) workloads," \
  "$(find "$work/kernels" -name '*.json' ! -name bundle.json | wc -l) kernels," \
  "$(du -sh "$bundle/bench-kernels.tgz" | cut -f1), sol $commit$([ "$dirty" = true ] && echo ' (dirty)')"
