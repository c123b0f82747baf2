// RUN: sol-opt %s --split-input-file --sol-cpu-kernel-abi -allow-unregistered-dialect | FileCheck %s

// A dynamic kernel after bufferization and sol-drop-kernel-results: each
// dynamic buffer becomes a rank-0 memref (one pointer under the bare-pointer
// convention), a trailing memref<i64> brings the dim, and the body sees the
// buffers rebuilt at that dim, row-major. Static buffers are untouched.
// CHECK-LABEL: func.func @dynamic_buffers_become_pointers_and_a_dim(
//  CHECK-SAME:     %[[X:[^:]*]]: memref<f16>, %[[W:[^:]*]]: memref<64x64xf16>, %[[S:[^:]*]]: memref<f16>, %[[O:[^:]*]]: memref<f16>, %[[DIMPTR:[^:]*]]: memref<i64>) {
//       CHECK:   %[[D:.*]] = memref.load %[[DIMPTR]][] : memref<i64>
//       CHECK:   %[[M:.*]] = arith.index_cast %[[D]] : i64 to index
//       CHECK:   %[[XB:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%[[M]], 64], strides: [64, 1] : memref<f16> to memref<?x64xf16>
//       CHECK:   %[[SB:.*]] = memref.reinterpret_cast %[[S]] to offset: [0], sizes: [%[[M]], 1], strides: [1, 1] : memref<f16> to memref<?x1xf16>
//       CHECK:   %[[OB:.*]] = memref.reinterpret_cast %[[O]] to offset: [0], sizes: [%[[M]], 64], strides: [64, 1] : memref<f16> to memref<?x64xf16>
//       CHECK:   "test.use"(%[[XB]], %[[W]], %[[SB]], %[[OB]])
func.func @dynamic_buffers_become_pointers_and_a_dim(%x: memref<?x64xf16>, %w: memref<64x64xf16>, %s: memref<?x1xf16>, %o: memref<?x64xf16>) {
  "test.use"(%x, %w, %s, %o) : (memref<?x64xf16>, memref<64x64xf16>, memref<?x1xf16>, memref<?x64xf16>) -> ()
  return
}

// -----

// Rank 3: the strides are the static inner sizes; rank 1: stride 1.
// CHECK-LABEL: func.func @dynamic_strides_are_row_major(
//  CHECK-SAME:     %{{.*}}: memref<bf16>, %{{.*}}: memref<f32>, %{{.*}}: memref<i64>)
//       CHECK:   memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, 4, 16], strides: [64, 16, 1] : memref<bf16> to memref<?x4x16xbf16>
//       CHECK:   memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<f32> to memref<?xf32>
func.func @dynamic_strides_are_row_major(%x: memref<?x4x16xbf16>, %y: memref<?xf32>) {
  "test.use"(%x, %y) : (memref<?x4x16xbf16>, memref<?xf32>) -> ()
  return
}

// -----

// A static kernel keeps exactly its signature: no dim argument.
// CHECK-LABEL: func.func @static_kernel_is_untouched(
//  CHECK-SAME:     %{{.*}}: memref<4x8xf16>, %{{.*}}: memref<4x8xf16>) {
//  CHECK-NEXT:   "test.use"
func.func @static_kernel_is_untouched(%x: memref<4x8xf16>, %o: memref<4x8xf16>) {
  "test.use"(%x, %o) : (memref<4x8xf16>, memref<4x8xf16>) -> ()
  return
}
