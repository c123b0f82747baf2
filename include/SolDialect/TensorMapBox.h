//===- TensorMapBox.h - the boxes a wgmma_tma kernel loads ------*- C++ -*-===//
//
// A wgmma_tma kernel loads each K tile of its operands as TMA boxes: one of
// A and one per weight. The launcher encodes the tensor maps with the boxes
// the manifest names (sol-write-manifests), and the generator issues its
// loads, places each block's share of B and counts the bytes its barriers
// expect by the same boxes (convert-sol-kernels-to-gpu): they must agree to
// the element, so the formula lives here and both ask it.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_TENSORMAPBOX_H
#define SOLDIALECT_TENSORMAPBOX_H

#include "SolDialect/SolDialect.h"

namespace mlir::sol {

/// One TMA box, in elements: `k` along K (the map's inner dim: tile_k, 64
/// 16-bit elements = the 128 bytes of the swizzle) by `rows` rows of the
/// operand.
struct TensorMapBox {
  int64_t k;
  int64_t rows;
};

/// A's box of a wgmma_tma plan: the block tile's tile_m rows.
TensorMapBox getTensorMapBoxA(PlanAttr plan);

/// The box of each of a wgmma_tma plan's `numWeights` [N, K] weights: a
/// block's share of that weight's rows of the B tile. Sibling matmuls put
/// tile_n / 2 rows of each weight in a tile, and each block of a cluster
/// loads 1 / cluster of them and multicasts it to the others: tile_n /
/// numWeights / cluster rows.
TensorMapBox getTensorMapBoxB(PlanAttr plan, int64_t numWeights);

/// An N-major ([K, N]) weight's TMA box is this many columns wide: the 128
/// bytes of the swizzle span in 16-bit elements. Its B tiles are whole
/// multiples of it (fitsNMajorWeight in TilePlan.h).
constexpr int64_t kNMajorBoxColumns = 64;

/// The box of a wgmma_tma plan's one N-major ([K, N]) weight, in elements:
/// `columns` along N (the map's inner dim: kNMajorBoxColumns, the 128
/// bytes of the swizzle) by `k` rows of K (tile_k). A B tile of tile_n
/// columns is tile_n / columns boxes side by side, each stored as its own
/// `k` x 128-byte block of the stage.
struct NMajorTensorMapBox {
  int64_t columns;
  int64_t k;
};
NMajorTensorMapBox getNMajorTensorMapBoxB(PlanAttr plan);

} // namespace mlir::sol

#endif // SOLDIALECT_TENSORMAPBOX_H
