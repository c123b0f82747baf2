// RUN: sol-opt %s --split-input-file --sol-cpu-kernel-abi -verify-diagnostics

// Only the outermost dim comes from the dim pointer.
// expected-error @+1 {{cannot give kernel function @inner_dynamic_dim the CPU ABI: argument #0 is 'memref<?x?xf16>': only the outermost dim of a kernel buffer may be dynamic}}
func.func @inner_dynamic_dim(%x: memref<?x?xf16>) {
  return
}

// -----

// The caller hands dense row-major buffers.
// expected-error @+1 {{cannot give kernel function @strided_buffer the CPU ABI: argument #1 is 'memref<4x8xf16, strided<[16, 1]>>': a kernel buffer must be dense row-major (identity layout)}}
func.func @strided_buffer(%x: memref<?x8xf16>, %y: memref<4x8xf16, strided<[16, 1]>>) {
  return
}

// -----

// Results would need the descriptor convention: sol-drop-kernel-results
// removes them first.
// expected-error @+1 {{dynamic kernel function @returns_a_buffer still returns values; run sol-drop-kernel-results first}}
func.func @returns_a_buffer(%x: memref<?x8xf16>) -> memref<?x8xf16> {
  return %x : memref<?x8xf16>
}
