//===- IndexMath.cpp - index arithmetic -----------------------------------===//
//
// The generators index every buffer as flat row-major memory: strides,
// (de)linearisation, the matmul's geometry (row count, grid-slice strides,
// a dynamic kernel's row count at launch) and the guard of a bound that may
// be false.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"

namespace mlir::sol::codegen {

/// Row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Splits a linear index over `shape` into one index per dim.
SmallVector<Value> delinearize(IndexBuilder &ib, Value linear,
                               ArrayRef<int64_t> shape) {
  SmallVector<Value> ivs(shape.size());
  SmallVector<int64_t> strides = getStrides(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    Value q = ib.div(linear, strides[d]);
    ivs[d] = d == 0 ? q : ib.rem(q, shape[d]);
  }
  return ivs;
}

/// Flat offset of element `ivs` of a row-major `shape`.
Value linearize(IndexBuilder &ib, ArrayRef<Value> ivs,
                ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = getStrides(shape);
  Value offset = ib.c(0);
  for (size_t d = 0; d < shape.size(); ++d)
    offset = ib.add(offset, ib.mul(ivs[d], strides[d]));
  return offset;
}

/// Guards `body` by `cond` when it may be false.
void emitIf(OpBuilder &b, Location loc, Value cond,
            function_ref<void(OpBuilder &)> body) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body(b);
}

MatmulGeometry getGeometry(const GpuKernel &kernel) {
  const KernelSpec &spec = kernel.spec;
  ArrayRef<int64_t> a = kernel.argShapes[spec.lhsArg];
  ArrayRef<int64_t> bShape = kernel.argShapes[spec.rhsArg];
  MatmulGeometry g;
  g.k = a.back();
  g.n = spec.transposeB ? bShape[bShape.size() - 2] : bShape.back();
  int64_t m = a[a.size() - 2];
  int64_t batch = 1;
  for (size_t d = 0; d + 2 < a.size(); ++d)
    batch *= a[d];
  g.rows = spec.batchedB ? m : batch * m;
  g.minRows = g.rows;
  g.aSliceStride = spec.batchedB ? m * g.k : 0;
  g.bSliceStride = spec.batchedB ? g.k * g.n : 0;
  // A dynamic kernel's rows: its dynamic dim (A's outermost) times A's
  // other leading dims (a batched B, whose batch would be the dynamic dim,
  // takes a static A: readKernel refuses the other).
  if (kernel.dim) {
    assert(!spec.batchedB && "a batched B takes a static A");
    OpBuilder b(kernel.dim.getContext());
    b.setInsertionPointAfterValue(kernel.dim);
    IndexBuilder ib(b, kernel.dim.getLoc());
    int64_t inner = 1;
    for (size_t d = 1; d + 1 < a.size(); ++d)
      inner *= a[d];
    g.dynamicRows = ib.mul(kernel.dim, inner);
    g.minRows = std::min(g.rows, kernel.minDim * inner);
  }
  return g;
}

Value isRowInBounds(IndexBuilder &ib, Value row, const MatmulGeometry &g) {
  return g.dynamicRows ? ib.lt(row, g.dynamicRows) : ib.lt(row, g.rows);
}

} // namespace mlir::sol::codegen
