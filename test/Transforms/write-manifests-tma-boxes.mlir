// The boxes a wgmma_tma manifest names are the ones the generator loads
// (TensorMapBox.h): A's box is the tile's rows, each weight's box a block's
// share of that weight's rows of the B tile, tile_n / weights / cluster.
// RUN: rm -rf %t && split-file %s %t
// RUN: sol-opt %t/plain.mlir --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=cooperative min-cluster=2 max-cluster=2 tiles=128x128" --sol-write-manifests=dir=%t/cluster -o /dev/null
// RUN: tr -d ' \n' < %t/cluster/plain_matmul_0.json | FileCheck %s --check-prefix=CLUSTER
// RUN: sol-opt %t/plain.mlir --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma tiles=256x128" --sol-write-manifests=dir=%t/tall -o /dev/null
// RUN: tr -d ' \n' < %t/tall/plain_matmul_0.json | FileCheck %s --check-prefix=TALL
// RUN: sol-opt %t/siblings.mlir --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=pingpong tiles=128x144" --sol-write-manifests=dir=%t/siblings -o /dev/null
// RUN: tr -d ' \n' < %t/siblings/siblings_matmul_0.json | FileCheck %s --check-prefix=SIBLINGS
// RUN: sol-opt %t/n_major.mlir --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma tiles=128x128" --sol-write-manifests=dir=%t/n_major -o /dev/null
// RUN: tr -d ' \n' < %t/n_major/n_major_matmul_0.json | FileCheck %s --check-prefix=NMAJOR

// A 2-block cluster: each block loads 64 of the tile's 128 weight rows and
// multicasts them.
// CLUSTER: "plan":{"cluster":2,"path":"wgmma_tma","schedule":"cooperative",{{.*}}"tile":[128,128,64]
// CLUSTER: "tensor_maps":[{"arg":0,"box":[64,128],"dims":[256,300],{{[^}]*}}},{"arg":1,"box":[64,64],"dims":[256,200],{{[^}]*}}}]

// A 256-row tile: A's box is 256 rows.
// TALL: "tile":[256,128,64]
// TALL: "tensor_maps":[{"arg":0,"box":[64,256],"dims":[256,300],{{[^}]*}}},{"arg":1,"box":[64,128],"dims":[256,200],{{[^}]*}}}]

// Sibling matmuls: a 144-column tile is 72 rows of each weight.
// SIBLINGS: "tile":[128,144,64]
// SIBLINGS: "tensor_maps":[{"arg":0,"box":[64,128],{{[^}]*}}},{"arg":1,"box":[64,72],{{[^}]*}}},{"arg":2,"box":[64,72],{{[^}]*}}}]

// A [K, N] weight, read N-major: its map's inner dim is N ([200, 256]:
// N, then K rows), its box 64 columns by tile_k rows, loaded twice per
// 128-column tile.
// NMAJOR: "tile":[128,128,64]
// NMAJOR: "tensor_maps":[{"arg":0,"box":[64,128],"dims":[256,300],{{[^}]*}}},{"arg":1,"box":[64,64],"dims":[200,256],{{[^}]*}}}]

//--- plain.mlir
module attributes {sol.target = #sol.target<"h200">} {
func.func @plain(%x: tensor<300x256xf16>, %w: tensor<200x256xf16>) -> tensor<300x200xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<300x256xf16>, tensor<200x256xf16> -> tensor<300x200xf16>
  return %m : tensor<300x200xf16>
}
}

//--- siblings.mlir
module attributes {sol.target = #sol.target<"h200">} {
func.func @siblings(%x: tensor<300x256xf16>, %wg: tensor<200x256xf16>, %wu: tensor<200x256xf16>) -> tensor<300x200xf16> {
  %g = sol.matmul %x, %wg transpose_b : tensor<300x256xf16>, tensor<200x256xf16> -> tensor<300x200xf16>
  %u = sol.matmul %x, %wu transpose_b : tensor<300x256xf16>, tensor<200x256xf16> -> tensor<300x200xf16>
  %s = sol.silu %g : tensor<300x200xf16>
  %p = sol.mul %s, %u : tensor<300x200xf16>, tensor<300x200xf16> -> tensor<300x200xf16>
  return %p : tensor<300x200xf16>
}
}

//--- n_major.mlir
module attributes {sol.target = #sol.target<"h200">} {
func.func @n_major(%x: tensor<300x256xf16>, %w: tensor<256x200xf16>) -> tensor<300x200xf16> {
  %m = sol.matmul %x, %w : tensor<300x256xf16>, tensor<256x200xf16> -> tensor<300x200xf16>
  return %m : tensor<300x200xf16>
}
}
