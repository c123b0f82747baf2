# Sourced by the diag scripts that run sol-run on the GPU machine (the
# scripts that carry gpu-bundle): sets $root (the repository), $work (a
# scratch folder), $out ($OUT, else $work/out) and $run (sol-run, built there
# by scripts/build-runner.sh: the GPU machine has no MLIR, and needs none).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
out="${OUT:-$work/out}"; mkdir -p "$out"
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
run="$work/bin/sol-run"
