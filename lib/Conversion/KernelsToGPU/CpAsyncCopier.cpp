//===- CpAsyncCopier.cpp - zero-filling cp.async copies -------------------===//
//
// The tile copier of the cp.async-fed paths (mma_sync, wgmma): 16-byte
// copies from global memory into a stage of shared memory, zero-filling
// past the matrix's edges, optionally in the 128-byte swizzle of wgmma
// descriptors.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

/// Copies one tile of a row-major global matrix into stage `stage` of a
/// shared-memory buffer with 16-byte cp.async copies (8 16-bit elements or
/// 16 fp8 codes each) spread over `threads`
/// threads: `tileRows` x `tileCols` elements from (rowStart, colStart) of a
/// [rowLimit, colLimit] matrix that starts at element `base` of `global`.
/// Copies past either limit read nothing and zero-fill (source size 0), so
/// edge tiles need no other masking. With `swizzle128`, 16-byte chunk c of
/// row r lands at chunk c ^ (r % 8): the 128-byte swizzle wgmma descriptors
/// name.
/// `dynamicRowLimit`, when set, replaces `rowLimit` in the row mask (the
/// copy's offsets never use the row limit).
static void emitAsyncTileCopyImpl(OpBuilder &b, Location loc, Value tid,
                                  int64_t threads, Value global, Value base,
                                  Value rowStart, int64_t rowLimit,
                                  Value dynamicRowLimit, Value colStart,
                                  int64_t colLimit, Value dst, Value stage,
                                  int64_t tileRows, int64_t tileCols,
                                  bool swizzle128) {
  MLIRContext *ctx = b.getContext();
  // A 16-byte chunk holds 8 16-bit elements, or 16 fp8 codes.
  int64_t chunkElems =
      128 / cast<MemRefType>(dst.getType()).getElementTypeBitWidth();
  int64_t chunksPerRow = tileCols / chunkElems;
  int64_t chunks = tileRows * chunksPerRow;
  for (int64_t first = 0; first < chunks; first += threads) {
    auto body = [&](OpBuilder &b) {
      IndexBuilder ib(b, loc);
      Value chunk = ib.add(tid, first);
      Value r = ib.div(chunk, chunksPerRow);
      Value c = ib.rem(chunk, chunksPerRow);
      Value gRow = ib.add(rowStart, r);
      Value gCol = ib.add(colStart, ib.mul(c, chunkElems));
      // The column test first: the order the static kernels' IR has
      // always had (kept so their code does not change).
      Value colValid = ib.lt(gCol, colLimit);
      Value rowValid = dynamicRowLimit ? ib.lt(gRow, dynamicRowLimit)
                                       : ib.lt(gRow, rowLimit);
      Value valid = ib.land(rowValid, colValid);
      Value offset = ib.add(base, ib.add(ib.mul(gRow, colLimit), gCol));
      Value safe = ib.select(valid, offset, ib.c(0));
      Value srcElems = ib.select(valid, ib.c(chunkElems), ib.c(0));
      Value dstChunk =
          swizzle128
              ? arith::XOrIOp::create(b, loc, c, ib.rem(r, 8)).getResult()
              : c;
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), dst,
          ValueRange{stage, r, ib.mul(dstChunk, chunkElems)}, global,
          ValueRange{safe}, b.getIndexAttr(chunkElems), srcElems,
          b.getUnitAttr());
    };
    IndexBuilder ib(b, loc);
    if (first + threads <= chunks)
      body(b);
    else
      emitIf(b, loc, ib.lt(ib.add(tid, first), chunks), body);
  }
}

void emitAsyncTileCopy(OpBuilder &b, Location loc, Value tid, int64_t threads,
                       Value global, Value base, Value rowStart,
                       int64_t rowLimit, Value colStart, int64_t colLimit,
                       Value dst, Value stage, int64_t tileRows,
                       int64_t tileCols, bool swizzle128) {
  emitAsyncTileCopyImpl(b, loc, tid, threads, global, base, rowStart, rowLimit,
                        Value(), colStart, colLimit, dst, stage, tileRows,
                        tileCols, swizzle128);
}

void emitAsyncTileCopy(OpBuilder &b, Location loc, Value tid, int64_t threads,
                       Value global, Value base, Value rowStart, Value rowLimit,
                       Value colStart, int64_t colLimit, Value dst, Value stage,
                       int64_t tileRows, int64_t tileCols, bool swizzle128) {
  emitAsyncTileCopyImpl(b, loc, tid, threads, global, base, rowStart,
                        /*rowLimit=*/0, rowLimit, colStart, colLimit, dst,
                        stage, tileRows, tileCols, swizzle128);
}

void emitAsyncRowTileCopy(OpBuilder &b, Location loc, Value tid,
                          int64_t threads, Value global, Value base,
                          Value rowStart, const MatmulGeometry &g,
                          Value colStart, int64_t colLimit, Value dst,
                          Value stage, int64_t tileRows, int64_t tileCols,
                          bool swizzle128) {
  emitAsyncTileCopyImpl(b, loc, tid, threads, global, base, rowStart, g.rows,
                        g.dynamicRows, colStart, colLimit, dst, stage, tileRows,
                        tileCols, swizzle128);
}

} // namespace mlir::sol::codegen
