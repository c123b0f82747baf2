//===- SimtPath.cpp - the SIMT matmul path --------------------------------===//
//
// f32 matmuls and operands the 16-byte loads cannot reach: one thread per
// output element, an f32 multiply-add over K, then the epilogue.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

LogicalResult emitSimtMatmulKernel(OpBuilder &b, Location loc,
                                   GpuKernel &kernel) {
  IndexBuilder ib(b, loc);
  MatmulGeometry g = getGeometry(kernel);
  ArrayRef<int64_t> tile = kernel.spec.plan.getTile();
  // One thread per output element of the block tile (its block, derived).
  if (tile.size() != 3)
    return kernel.spec.func.emitError("sol kernel: a simt plan needs tile = "
                                      "[m, n, 1]");
  Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value col = ib.add(ib.mul(bx, tile[1]), tx);
  Value row = ib.add(ib.mul(by, tile[0]), ty);
  Value inBounds = ib.land(isRowInBounds(ib, row, g), ib.lt(col, g.n));
  emitIf(b, loc, inBounds, [&](OpBuilder &b) {
    IndexBuilder ib(b, loc);
    Value aRow = ib.add(ib.mul(bz, g.aSliceStride), ib.mul(row, g.k));
    Value bBase = ib.mul(bz, g.bSliceStride);
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
    auto loop = scf::ForOp::create(b, loc, ib.c(0), ib.c(g.k), ib.c(1),
                                   ValueRange{zero});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      IndexBuilder lb(b, loc);
      Value k = loop.getInductionVar();
      Value aOff = lb.add(aRow, k);
      Value bOff = kernel.spec.transposeB
                       ? lb.add(bBase, lb.add(lb.mul(col, g.k), k))
                       : lb.add(bBase, lb.add(lb.mul(k, g.n), col));
      Value a = memref::LoadOp::create(b, loc, kernel.args[kernel.spec.lhsArg],
                                       ValueRange{aOff});
      Value bv = memref::LoadOp::create(b, loc, kernel.args[kernel.spec.rhsArg],
                                        ValueRange{bOff});
      Value prod = arith::MulFOp::create(b, loc, extendToF32(b, loc, a),
                                         extendToF32(b, loc, bv));
      Value sum =
          arith::AddFOp::create(b, loc, loop.getRegionIterArgs()[0], prod);
      scf::YieldOp::create(b, loc, sum);
    }
    SmallVector<Value> ivs = matmulOutputIndex(ib, kernel.spec, bz, row, col);
    emitEpilogueAt(b, loc, kernel, ivs, loop.getResult(0));
  });
  return success();
}

} // namespace mlir::sol::codegen
