//===- ElementwisePath.cpp - the elementwise path -------------------------===//
//
// Kernels without a matmul: one thread per element, or per 16-byte vector
// of the innermost dim, running the epilogue body. A dynamic kernel bounds
// its threads by the dynamic dim it is launched with.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

/// Whether a vector of the innermost dim may cross the end of the output:
/// a dynamic kernel whose output is 1-D, so that its innermost dim is the
/// dynamic one (a static inner dim is a multiple of the vector).
static bool isVectorCutByDynamicDim(const GpuKernel &kernel) {
  return kernel.dim && kernel.spec.outShape.size() == 1;
}

LogicalResult emitElementwiseKernel(OpBuilder &b, Location loc,
                                    GpuKernel &kernel) {
  IndexBuilder ib(b, loc);
  int64_t total = 1;
  for (int64_t d : kernel.spec.outShape)
    total *= d;
  ArrayRef<int64_t> block = kernel.launch.block;
  ArrayRef<int64_t> tile = kernel.spec.plan.getTile();
  int64_t inner =
      kernel.spec.outShape.empty() ? 1 : kernel.spec.outShape.back();
  int64_t vector = tile[0] / block[0];
  if (vector < 1 || tile[0] != vector * block[0] || inner % vector != 0 ||
      !llvm::isPowerOf2_64(vector))
    return kernel.spec.func.emitError("sol kernel: the elementwise plan's "
                                      "tile must be block x a power-of-two "
                                      "vector dividing the innermost dim (")
           << inner << ")";
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value linear = ib.mul(ib.add(ib.mul(bid, block[0]), tid), vector);
  // A dynamic kernel's grid covers its row's m_max (the derived one); the
  // launch's grid covers the actual dim, and threads past its elements
  // (the dynamic dim times the static inner dims) do nothing.
  Value inBounds;
  if (kernel.dim) {
    int64_t innerElems = 1;
    for (int64_t d : ArrayRef<int64_t>(kernel.spec.outShape).drop_front())
      innerElems *= d;
    inBounds = ib.lt(linear, ib.mul(kernel.dim, innerElems));
  } else {
    inBounds = ib.lt(linear, total);
  }
  emitIf(b, loc, inBounds, [&](OpBuilder &b) {
    IndexBuilder ib(b, loc);
    SmallVector<Value> ivs = delinearize(ib, linear, kernel.spec.outShape);
    if (vector == 1) {
      emitEpilogueAt(b, loc, kernel, ivs, Value());
      return;
    }
    if (!isVectorCutByDynamicDim(kernel)) {
      emitEpilogueVectorAt(b, loc, kernel, ivs, vector);
      return;
    }
    // The plan's vector divides the row's m_max, not every M: the last
    // vector may cross the end, and runs its elements below it one by one.
    Value elems = kernel.dim;
    auto ifOp =
        scf::IfOp::create(b, loc, ib.lt(ib.add(linear, vector - 1), elems),
                          /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emitEpilogueVectorAt(b, loc, kernel, ivs, vector);
    b.setInsertionPointToStart(ifOp.elseBlock());
    IndexBuilder eb(b, loc);
    for (int64_t e = 0; e < vector; ++e) {
      Value element = eb.add(linear, e);
      emitIf(b, loc, eb.lt(element, elems), [&](OpBuilder &b) {
        emitEpilogueAt(b, loc, kernel, {element}, Value());
      });
    }
  });
  return success();
}

} // namespace mlir::sol::codegen
