#!/usr/bin/env bash
# 2026-11-30, third session: sol's GEMM plans (pinned with tiles/schedules/
# min-cluster) against cuBLAS at the torch backend's shapes, interleaved on a
# heated card; then ncu (clocks left alone) on one launch of each MLP-shaped
# kernel: tensor-pipe activity, L2 and DRAM bytes, SM clock. Carry .capi.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}"
source bench/diag/capi-env.sh
python3 bench/diag/gemm_variants.py "$@" 2>&1 | grep -v "^sol: " | tee "$out/variants.txt"
[ "${NCU:-1}" = 0 ] && exit 0
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
wanted="gpu__time_duration.sum sm__cycles_elapsed.avg.per_second sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed sm__inst_executed_pipe_tensor_op_gmma.sum lts__t_bytes.sum lts__t_sectors_srcunit_tex_op_read.sum dram__bytes_read.sum sm__throughput.avg.pct_of_peak_sustained_elapsed lts__throughput.avg.pct_of_peak_sustained_elapsed l1tex__data_pipe_lsu_wavefronts_mem_shared.sum smsp__warps_issue_stalled_long_scoreboard.avg smsp__cycles_active.avg"
known=$("$ncu" --query-metrics --chip gh100 2>/dev/null | awk '{print $1}')
metrics=""
for m in $wanted; do base=${m%%.*}; echo "$known" | grep -qx "$base" && metrics="$metrics,$m"; done
echo "ncu metrics: ${metrics#,}"
timeout 300 "$ncu" --clock-control none --kernel-name regex:"g_matmul|nvjet" --metrics "${metrics#,}" \
  python3 bench/diag/gemm_variants.py --ncu --shapes mlp_plain,gate > "$out/ncu.txt" 2>&1
grep -E "g_matmul|nvjet|duration|per_second|pipe_tensor|lts__t_bytes|srcunit|dram__bytes|throughput|gmma" "$out/ncu.txt" | tail -120
