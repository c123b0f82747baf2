// RUN: sol-opt %s --split-input-file --convert-sol-to-linalg --sol-lower-to-cpu | FileCheck %s

// Only the kernel survives, as `void name(void *x, void *w, void *r, void *out)`:
// bare pointers, no memref descriptors, no return value; the host function
// and every sol.* annotation are gone.
// CHECK-LABEL: module {
//   CHECK-NOT:   sol.
//   CHECK-NOT:   llvm.func @seed_oproj_residual(
//       CHECK:   llvm.func @seed_oproj_residual_matmul_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[OUT:.*]]: !llvm.ptr) {
// The f32 accumulator is the only allocation, and it is freed.
//       CHECK:     %[[ACC:.*]] = llvm.call @malloc
//   CHECK-NOT:     llvm.call @malloc
//   CHECK-NOT:     llvm.call @memcpy
// The epilogue stores straight into the caller's out buffer.
//       CHECK:     llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr
//       CHECK:     llvm.call @free(%[[ACC]])
//  CHECK-NEXT:     llvm.return{{$}}
//   CHECK-NOT:   llvm.func @seed_oproj_residual(
module attributes {sol.target = #sol.target<"h200">} {
  func.func @seed_oproj_residual(%x: tensor<2x3x8xf16>, %w: tensor<4x8xf16>, %r: tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
    %k = sol.kernel @seed_oproj_residual_matmul_0 ins(%x, %w, %r : tensor<2x3x8xf16>, tensor<4x8xf16>, tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
    ^bb0(%a: tensor<2x3x8xf16>, %b: tensor<4x8xf16>, %c: tensor<2x3x4xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<2x3x8xf16>, tensor<4x8xf16> -> tensor<2x3x4xf16>
      %s = sol.add %m, %c : tensor<2x3x4xf16>, tensor<2x3x4xf16> -> tensor<2x3x4xf16>
      sol.yield %s : tensor<2x3x4xf16>
    }
    return %k : tensor<2x3x4xf16>
  }
}

// -----

// Elementwise kernels allocate nothing; erf becomes a libm call, tanh the
// LLVM intrinsic. Every kernel of the module is kept (here three lone ops,
// wrapped one kernel each), each with its own signature.
// CHECK-LABEL: module {
//       CHECK:   llvm.func @erff(f32) -> f32
//       CHECK:   llvm.func @two_kernels_gelu_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
//   CHECK-NOT:     @malloc
//       CHECK:     llvm.call @erff
//       CHECK:     llvm.return{{$}}
//       CHECK:   llvm.func @two_kernels_gelu_1(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
//       CHECK:     llvm.intr.tanh
//       CHECK:     llvm.return{{$}}
//       CHECK:   llvm.func @two_kernels_add_2(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
//       CHECK:     llvm.return{{$}}
func.func @two_kernels(%x: tensor<4x8xbf16>, %b: tensor<8xbf16>) -> tensor<4x8xbf16> {
  %g = sol.gelu erf %x : tensor<4x8xbf16>
  %h = sol.gelu tanh %g : tensor<4x8xbf16>
  %s = sol.add %h, %b : tensor<4x8xbf16>, tensor<8xbf16> -> tensor<4x8xbf16>
  return %s : tensor<4x8xbf16>
}

// -----

// A dynamic kernel is `void name(void *x, void *w, void *r, void *out,
// const int64_t *dim)` (sol-cpu-kernel-abi): the same bare pointers plus the
// pointer to the dim, which it loads and sizes its accumulator by.
// CHECK-LABEL: module {
//   CHECK-NOT:   llvm.func @dyn_oproj(
//       CHECK:   llvm.func @dyn_oproj_matmul_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
//       CHECK:     %[[DIM:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
//       CHECK:     llvm.mul %[[DIM]], %{{.*}} : i64
//       CHECK:     %[[ACC:.*]] = llvm.call @malloc
//   CHECK-NOT:     llvm.call @malloc
//       CHECK:     llvm.call @free(%[[ACC]])
//  CHECK-NEXT:     llvm.return{{$}}
module attributes {sol.target = #sol.target<"h200">} {
  func.func @dyn_oproj(%x: tensor<?x8xf16>, %w: tensor<4x8xf16>, %r: tensor<?x4xf16>) -> tensor<?x4xf16> {
    %k = sol.kernel @dyn_oproj_matmul_0 ins(%x, %w, %r : tensor<?x8xf16>, tensor<4x8xf16>, tensor<?x4xf16>) -> tensor<?x4xf16> {
    ^bb0(%a: tensor<?x8xf16>, %b: tensor<4x8xf16>, %c: tensor<?x4xf16>):
      %m = sol.matmul %a, %b transpose_b : tensor<?x8xf16>, tensor<4x8xf16> -> tensor<?x4xf16>
      %s = sol.add %m, %c : tensor<?x4xf16>, tensor<?x4xf16> -> tensor<?x4xf16>
      sol.yield %s : tensor<?x4xf16>
    }
    return %k : tensor<?x4xf16>
  }
}
