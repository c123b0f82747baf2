// Block-wise fp8 scales (docs/fp8.md, "Block-wise scales": DeepSeek-V3's
// 128 x 128 weight blocks and 1 x 128 activation groups) on the CPU build:
// a C driver (Inputs/cpu-fp8-block-scales-driver.c) fills A and B with fresh
// random e4m3 codes (the seed, new each run, is printed) and the scales with
// random values, calls each kernel and compares its f32 result with its own
// float64 sum over K blocks, decoded from the codes by its own decoder. The
// shapes are odd: K not a multiple of 128 (a last block of 44 or 72), N not
// a multiple of 128, folded batch rows, a per-token scale_a against
// block-wise B, and a dynamic M.
//
// RUN: env SOL_OPT=%sol_tools_dir/sol-opt %sol_src_root/scripts/build-cpu-kernels.sh %s %t > /dev/null
// RUN: cc -O2 -std=c11 %S/Inputs/cpu-fp8-block-scales-driver.c -o %t/driver -ldl -lm
// RUN: %t/driver %t/kernels.so $(od -An -N4 -tu4 /dev/urandom | tr -d " ") | FileCheck %s
// CHECK: seed
// CHECK: groups_and_blocks_matmul_0: 1400 elements, worst error {{.*}}, within bound: yes
// CHECK: batched_rows_matmul_0: 2570 elements, worst error {{.*}}, within bound: yes
// CHECK: token_and_blocks_matmul_0: 2112 elements, worst error {{.*}}, within bound: yes
// CHECK: dynamic_m_matmul_0 at M = 5: 1000 elements, worst error {{.*}}, within bound: yes
// CHECK: dynamic_m_matmul_0 at M = 131: 26200 elements, worst error {{.*}}, within bound: yes

// Groups of A ([M, ceil(K/128)]) and blocks of B ([ceil(N/128), ceil(K/128)]).
func.func @groups_and_blocks(%x: tensor<7x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>,
                             %sx: tensor<7x3xf32>, %sw: tensor<2x3xf32>) -> tensor<7x200xf32> {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<7x3xf32>) scale_b(%sw : tensor<2x3xf32>)
      : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<7x200xf32>
  return %y : tensor<7x200xf32>
}

// Batch dims fold into rows; A's groups keep them ([2, 5, 3]).
func.func @batched_rows(%x: tensor<2x5x260xf8E4M3FN>, %w: tensor<257x260xf8E4M3FN>,
                        %sx: tensor<2x5x3xf32>, %sw: tensor<3x3xf32>) -> tensor<2x5x257xf32> {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<2x5x3xf32>) scale_b(%sw : tensor<3x3xf32>)
      : tensor<2x5x260xf8E4M3FN>, tensor<257x260xf8E4M3FN> -> tensor<2x5x257xf32>
  return %y : tensor<2x5x257xf32>
}

// A per-token scale_a scales the accumulator; only B's blocks scale partials.
func.func @token_and_blocks(%x: tensor<33x200xf8E4M3FN>, %w: tensor<64x200xf8E4M3FN>,
                            %sx: tensor<33x1xf32>, %sw: tensor<1x2xf32>) -> tensor<33x64xf32> {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<33x1xf32>) scale_b(%sw : tensor<1x2xf32>)
      : tensor<33x200xf8E4M3FN>, tensor<64x200xf8E4M3FN> -> tensor<33x64xf32>
  return %y : tensor<33x64xf32>
}

// A dynamic M: A's groups follow it ([?, 2]).
func.func @dynamic_m(%x: tensor<?x136xf8E4M3FN>, %w: tensor<200x136xf8E4M3FN>,
                     %sx: tensor<?x2xf32>, %sw: tensor<2x2xf32>) -> tensor<?x200xf32> {
  %y = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<?x2xf32>) scale_b(%sw : tensor<2x2xf32>)
      : tensor<?x136xf8E4M3FN>, tensor<200x136xf8E4M3FN> -> tensor<?x200xf32>
  return %y : tensor<?x200xf32>
}
