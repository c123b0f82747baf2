#!/usr/bin/env bash
# Checks many kernels at once: sol-run --check-only over the manifests listed
# in LIST (one path per line), in 12 processes, every log concatenated into
# LOG; prints "LABEL: N passed, M failed (options)" (so the seed shows) and
# the first failures. Lists shorter than 12 leave chunks empty; xargs -r
# runs nothing for them.
#
#   scripts/check-parallel.sh SOL_RUN LIST LOG LABEL [sol-run options...]
#
# e.g. scripts/check-parallel.sh "$work/bin/sol-run" "$work/list" "$out/check.log" \
#        "TMA check" --seed=9
set -uo pipefail
[ $# -ge 4 ] || { echo "usage: $0 SOL_RUN LIST LOG LABEL [sol-run options...]" >&2; exit 2; }
run="$1" list="$2" log="$3" label="$4"; shift 4
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
split -n r/12 "$list" "$work/chunk."
for c in "$work"/chunk.*; do
  xargs -r "$run" --check-only "$@" < "$c" > "$c.log" 2>&1 &
done
wait
cat "$work"/chunk.*.log > "$log"
summary="$(grep -h "^sol-run:" "$log" | awk -v l="$label" -v o="$*" \
  '{p+=$2; f+=$4} END {print l ": " p+0 " passed, " f+0 " failed (" o ")"}')"
echo "$summary"
grep -h "FAIL\|error" "$log" | head -5
# Exit status: 0 when every listed kernel passed, 1 otherwise.
total=$(grep -c . "$list")
case "$summary" in *": $total passed, 0 failed"*) exit 0 ;; *) exit 1 ;; esac
