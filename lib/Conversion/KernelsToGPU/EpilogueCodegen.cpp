//===- EpilogueCodegen.cpp - indices, epilogues and tile copies -----------===//
//
// The pieces every path uses: index arithmetic over row-major buffers, the
// fused epilogue (the linalg.generic body cloned onto accumulator values,
// its inputs loaded in batches before their stores), matmul geometry and
// grid checks, and the zero-filling cp.async tile copier.
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

/// Clones one op of a kernel's elementwise body (a matmul epilogue or an
/// elementwise kernel). With fast-math, f32 tanh becomes one
/// tanh.approx.f32 (one MUFU op; libdevice's tanhf takes ex2 and rcp): the
/// GELU epilogue is MUFU-bound on the MMA warps (H200, 2026-11-30,
/// bench/NOTES.md section 17).
void cloneEpilogueOp(OpBuilder &b, Operation &op, IRMapping &mapping,
                     const GpuKernel &kernel) {
  auto tanh = dyn_cast<math::TanhOp>(op);
  if (!kernel.fastMath || !tanh || !tanh.getType().isF32()) {
    b.clone(op, mapping);
    return;
  }
  Value approx =
      LLVM::InlineAsmOp::create(
          b, op.getLoc(), b.getF32Type(),
          ValueRange{mapping.lookupOrDefault(tanh.getOperand())},
          "tanh.approx.f32 $0, $1;", "=f,f", /*has_side_effects=*/false,
          /*is_align_stack=*/false, LLVM::TailCallKind::None,
          LLVM::AsmDialectAttr(), ArrayAttr())
          .getResult(0);
  mapping.map(tanh.getResult(), approx);
}

/// Runs the epilogue's scalar body at output element `ivs` (one index per
/// output dim) with `acc` standing for the contraction's value there, and
/// stores each result. The caller guards `ivs` to be in bounds.
void emitEpilogueAt(OpBuilder &b, Location loc, GpuKernel &kernel,
                    ArrayRef<Value> ivs, Value acc) {
  IndexBuilder ib(b, loc);
  linalg::GenericOp epilogue = kernel.spec.epilogue;
  Block &body = epilogue.getRegion().front();
  IRMapping mapping;
  for (auto [i, in] : llvm::enumerate(epilogue.getDpsInputOperands())) {
    int source = kernel.spec.epilogueSources[i];
    if (source < 0) {
      assert(source == -1 && "the scalar paths take one contraction");
      mapping.map(body.getArgument(i), acc);
      continue;
    }
    AffineMap map = epilogue.getMatchingIndexingMap(in);
    SmallVector<Value> index;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        index.push_back(ivs[dim.getPosition()]);
      else
        index.push_back(ib.c(0));
    }
    Value offset = linearize(ib, index, kernel.argShapes[source]);
    Value loaded =
        memref::LoadOp::create(b, loc, kernel.args[source], ValueRange{offset});
    mapping.map(body.getArgument(i), loaded);
  }
  for (Operation &op : body.without_terminator())
    cloneEpilogueOp(b, op, mapping, kernel);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Value outOffset = linearize(ib, ivs, kernel.spec.outShape);
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    Value out = kernel.args[kernel.spec.numInputs + i];
    memref::StoreOp::create(b, loc, mapping.lookupOrDefault(value), out,
                            ValueRange{outOffset});
  }
}

/// The output-space index of element (row, col) of the matmul: rows run over
/// the folded batch dims and M (rank-2 B), or over M within grid slice z.
SmallVector<Value> matmulOutputIndex(IndexBuilder &ib, const KernelSpec &spec,
                                     Value batchSlice, Value row, Value col) {
  ArrayRef<int64_t> shape = spec.outShape;
  size_t rank = shape.size();
  SmallVector<int64_t> leading(shape.begin(), shape.end() - 1);
  SmallVector<Value> ivs;
  if (spec.batchedB) {
    SmallVector<int64_t> batchShape(shape.begin(), shape.end() - 2);
    ivs = delinearize(ib, batchSlice, batchShape);
    ivs.push_back(row);
  } else {
    ivs = delinearize(ib, row, leading);
  }
  ivs.push_back(col);
  assert(ivs.size() == rank && "one index per output dim");
  (void)rank;
  return ivs;
}

/// Guards `body` by `cond` when it may be false.
void emitIf(OpBuilder &b, Location loc, Value cond,
            function_ref<void(OpBuilder &)> body) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body(b);
}

/// The epilogue inputs read from memory at output element `ivs`, `vector`
/// consecutive elements of the innermost output dim: per input of the
/// linalg.generic body, one 128-bit (or narrower) load of an input that runs
/// along that dim, one scalar load of an input broadcast across it (copied
/// `vector` times); the accumulator's inputs stay empty. With `guard`, the
/// loads happen only where it holds (zeros elsewhere), so a caller can issue
/// the loads of many elements before any of their stores: a store the
/// compiler cannot prove disjoint from a later load would otherwise
/// serialise each load's full latency.
using EpilogueInputs = SmallVector<SmallVector<Value>>;
EpilogueInputs loadEpilogueInputs(OpBuilder &b, Location loc, GpuKernel &kernel,
                                  ArrayRef<Value> ivs, int64_t vector,
                                  Value guard) {
  IndexBuilder ib(b, loc);
  linalg::GenericOp epilogue = kernel.spec.epilogue;
  unsigned innerDim = kernel.spec.outShape.size() - 1;
  EpilogueInputs lanes;
  for (auto [i, in] : llvm::enumerate(epilogue.getDpsInputOperands())) {
    int source = kernel.spec.epilogueSources[i];
    if (source < 0) {
      lanes.emplace_back();
      continue;
    }
    Value memref = kernel.args[source];
    AffineMap map = epilogue.getMatchingIndexingMap(in);
    SmallVector<Value> index;
    bool alongInner = false;
    for (AffineExpr expr : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      index.push_back(dim ? ivs[dim.getPosition()] : ib.c(0));
    }
    if (map.getNumResults() > 0)
      if (auto last = dyn_cast<AffineDimExpr>(map.getResults().back()))
        alongInner = last.getPosition() == innerDim;
    Value offset = linearize(ib, index, kernel.argShapes[source]);
    Type elemType = cast<MemRefType>(memref.getType()).getElementType();
    bool vectorLoad = alongInner && vector > 1;
    Type loadType =
        vectorLoad ? Type(VectorType::get({vector}, elemType)) : elemType;
    auto emitLoad = [&](OpBuilder &b) -> Value {
      if (!vectorLoad)
        return memref::LoadOp::create(b, loc, memref, ValueRange{offset});
      int64_t bytes = vector * elemType.getIntOrFloatBitWidth() / 8;
      return vector::LoadOp::create(b, loc, cast<VectorType>(loadType), memref,
                                    ValueRange{offset}, false,
                                    llvm::MaybeAlign(bytes));
    };
    Value loaded;
    if (!guard) {
      loaded = emitLoad(b);
    } else {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{loadType}, guard,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard insertionGuard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc, emitLoad(b));
      b.setInsertionPointToStart(ifOp.elseBlock());
      Value zero = arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(b.getZeroAttr(loadType)));
      scf::YieldOp::create(b, loc, zero);
      loaded = ifOp.getResult(0);
    }
    SmallVector<Value> values;
    if (vectorLoad) {
      for (int64_t e = 0; e < vector; ++e)
        values.push_back(
            vector::ExtractOp::create(b, loc, loaded, ArrayRef<int64_t>{e}));
    } else {
      values.assign(vector, loaded);
    }
    lanes.push_back(std::move(values));
  }
  return lanes;
}

/// Runs the epilogue body on the `vector` elements at `ivs` whose memory
/// inputs `inputs` loaded (contraction c's accumulator at lane e:
/// `accLanes[c * vector + e]`) and stores each result with one
/// `vector`-wide store.
void storeEpilogueResults(OpBuilder &b, Location loc, GpuKernel &kernel,
                          ArrayRef<Value> ivs, int64_t vector,
                          const EpilogueInputs &inputs,
                          ArrayRef<Value> accLanes) {
  IndexBuilder ib(b, loc);
  linalg::GenericOp epilogue = kernel.spec.epilogue;
  Block &body = epilogue.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  SmallVector<SmallVector<Value>> results(yield.getValues().size());
  for (int64_t e = 0; e < vector; ++e) {
    IRMapping mapping;
    for (unsigned i = 0; i < inputs.size(); ++i) {
      int source = kernel.spec.epilogueSources[i];
      mapping.map(body.getArgument(i),
                  source < 0 ? accLanes[(-1 - source) * vector + e]
                             : inputs[i][e]);
    }
    for (Operation &op : body.without_terminator())
      cloneEpilogueOp(b, op, mapping, kernel);
    for (auto [r, value] : llvm::enumerate(yield.getValues()))
      results[r].push_back(mapping.lookupOrDefault(value));
  }
  Value outOffset = linearize(ib, ivs, kernel.spec.outShape);
  for (auto [r, values] : llvm::enumerate(results)) {
    Value out = kernel.args[kernel.spec.numInputs + r];
    if (vector == 1) {
      memref::StoreOp::create(b, loc, values.front(), out,
                              ValueRange{outOffset});
      continue;
    }
    Type elemType = cast<MemRefType>(out.getType()).getElementType();
    auto vecType = VectorType::get({vector}, elemType);
    Value packed = vector::FromElementsOp::create(b, loc, vecType, values);
    int64_t bytes = vector * elemType.getIntOrFloatBitWidth() / 8;
    vector::StoreOp::create(b, loc, packed, out, ValueRange{outOffset}, false,
                            llvm::MaybeAlign(bytes));
  }
}

/// Runs the epilogue body on `vector` consecutive elements of the innermost
/// output dim starting at `ivs`: 128-bit loads of inputs that run along that
/// dim, one scalar load of inputs broadcast across it, `vector` copies of the
/// scalar body, 128-bit stores.
void emitEpilogueVectorAt(OpBuilder &b, Location loc, GpuKernel &kernel,
                          ArrayRef<Value> ivs, int64_t vector,
                          ArrayRef<Value> accLanes) {
  EpilogueInputs inputs = loadEpilogueInputs(b, loc, kernel, ivs, vector);
  storeEpilogueResults(b, loc, kernel, ivs, vector, inputs, accLanes);
}

Value extendToF32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
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
  }
  return g;
}

Value isRowInBounds(IndexBuilder &ib, Value row, const MatmulGeometry &g) {
  return g.dynamicRows ? ib.lt(row, g.dynamicRows) : ib.lt(row, g.rows);
}

/// A grid that does not cover the output would leave it partly unwritten:
/// the plan must match the shapes it is applied to. A dynamic kernel's
/// plan is checked at its row's m_max, the shapes it was built for (the
/// launch computes the grid for the actual M, never larger).
LogicalResult checkGrid(GpuKernel &kernel, const MatmulGeometry &g,
                        int64_t tileM, int64_t tileN, int64_t kSplits) {
  ArrayRef<int64_t> grid = kernel.spec.plan.getGrid();
  int64_t slices = 1;
  if (kernel.spec.batchedB)
    for (size_t d = 0; d + 2 < kernel.spec.outShape.size(); ++d)
      slices *= kernel.spec.outShape[d];
  if (grid.size() != 3 || grid[0] != llvm::divideCeilSigned(g.n, tileN) ||
      grid[1] != llvm::divideCeilSigned(g.rows, tileM) ||
      grid[2] != slices * kSplits)
    return kernel.spec.func.emitError("sol kernel: the plan's grid does not "
                                      "cover the output with its tiles");
  return success();
}

/// The epilogue over m16n8-style accumulator fragments: for n8 block nb,
/// element e sits at (row + 8 * (e / 2), col + 8 * nb + e % 2). Where N is
/// even, the two columns of a pair go together: one 2-wide load of each
/// input along N and one 2-wide store per output, half the memory
/// instructions of scalar accesses. The inputs of `kEpilogueBatch`
/// fragment pairs are loaded before any of them is stored, so their
/// latencies overlap.
static constexpr int64_t kEpilogueBatch = 16;
void emitFragmentEpilogue(
    OpBuilder &b, Location loc, GpuKernel &kernel, const MatmulGeometry &g,
    Value batchSlice, Value row0, Value col0, int64_t blocksN,
    function_ref<Value(OpBuilder &, unsigned, int64_t, int64_t)> accAt) {
  IndexBuilder ib(b, loc);
  int64_t vector = g.n % 2 == 0 ? 2 : 1;
  struct Pending {
    SmallVector<Value> ivs, acc;
    Value inBounds;
    EpilogueInputs inputs;
  };
  SmallVector<Pending> batch;
  auto flush = [&]() {
    for (Pending &p : batch)
      emitIf(b, loc, p.inBounds, [&](OpBuilder &b) {
        storeEpilogueResults(b, loc, kernel, p.ivs, vector, p.inputs, p.acc);
      });
    batch.clear();
  };
  for (int64_t nb = 0; nb < blocksN; ++nb) {
    for (int64_t e = 0; e < 4; e += vector) {
      Pending p;
      Value row = ib.add(row0, (e / 2) * 8);
      Value col = ib.add(col0, nb * 8 + (e % 2));
      for (unsigned c = 0; c < kernel.spec.getNumContractions(); ++c)
        for (int64_t v = 0; v < vector; ++v)
          p.acc.push_back(accAt(b, c, nb, e + v));
      p.inBounds = ib.land(isRowInBounds(ib, row, g), ib.lt(col, g.n));
      p.ivs = matmulOutputIndex(ib, kernel.spec, batchSlice, row, col);
      p.inputs = loadEpilogueInputs(b, loc, kernel, p.ivs, vector, p.inBounds);
      batch.push_back(std::move(p));
      if (static_cast<int64_t>(batch.size()) == kEpilogueBatch)
        flush();
    }
  }
  flush();
}

/// Copies one tile of a row-major global matrix into stage `stage` of a
/// shared-memory buffer with 16-byte cp.async copies spread over `threads`
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
  int64_t chunksPerRow = tileCols / 8;
  int64_t chunks = tileRows * chunksPerRow;
  for (int64_t first = 0; first < chunks; first += threads) {
    auto body = [&](OpBuilder &b) {
      IndexBuilder ib(b, loc);
      Value chunk = ib.add(tid, first);
      Value r = ib.div(chunk, chunksPerRow);
      Value c = ib.rem(chunk, chunksPerRow);
      Value gRow = ib.add(rowStart, r);
      Value gCol = ib.add(colStart, ib.mul(c, 8));
      // The column test first: the order the static kernels' IR has
      // always had (kept so their code does not change).
      Value colValid = ib.lt(gCol, colLimit);
      Value rowValid = dynamicRowLimit ? ib.lt(gRow, dynamicRowLimit)
                                       : ib.lt(gRow, rowLimit);
      Value valid = ib.land(rowValid, colValid);
      Value offset = ib.add(base, ib.add(ib.mul(gRow, colLimit), gCol));
      Value safe = ib.select(valid, offset, ib.c(0));
      Value srcElems = ib.select(valid, ib.c(8), ib.c(0));
      Value dstChunk =
          swizzle128
              ? arith::XOrIOp::create(b, loc, c, ib.rem(r, 8)).getResult()
              : c;
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), dst,
          ValueRange{stage, r, ib.mul(dstChunk, 8)}, global, ValueRange{safe},
          b.getIndexAttr(8), srcElems, b.getUnitAttr());
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
