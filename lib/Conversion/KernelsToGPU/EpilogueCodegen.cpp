//===- EpilogueCodegen.cpp - the fused epilogue ---------------------------===//
//
// The linalg.generic body of a kernel cloned onto accumulator values (or,
// for an elementwise kernel, onto loaded elements): scalar, vectorised
// along the innermost output dim, and over mma/wgmma accumulator fragments
// with the inputs of a batch of fragments loaded before any of their
// stores.
//
//===----------------------------------------------------------------------===//

#include "KernelCodegen.h"
#include "SolDialect/KernelPath.h"

namespace mlir::sol::codegen {

static bool isFp8(Type type) { return MatmulOp::isFp8(type); }

/// `x` (f32, clamped to `fp8Type`'s finite range by the linalg body:
/// emitRoundToElementType) as an `fp8Type` value: one
/// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 with `x` in the low byte (sm_89+;
/// round to nearest even, NaN kept). LLVM's arith lowering has no fp8
/// truncation; the satfinite form would saturate even unclamped.
static Value emitFp8Truncation(OpBuilder &b, Location loc, Value x,
                               Type fp8Type) {
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  auto pair = NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, b.getI16Type(), zero, x, NVVM::FPRoundingMode::RN,
      NVVM::SaturationMode::SATFINITE, /*relu=*/false, fp8Type);
  requirePtxVersion(pair, kFp8ConversionPtxVersion);
  Value code = arith::TruncIOp::create(b, loc, b.getI8Type(), pair);
  return arith::BitcastOp::create(b, loc, fp8Type, code);
}

/// An fp8 value `x` as `type` (exact in f16, bf16 and f32): its code,
/// paired with a zero code, through cvt.rn.f16x2.{e4m3,e5m2}x2
/// (convertFp8PairToF16), then f32 (and bf16 from it).
static Value emitFp8Extension(OpBuilder &b, Location loc, Value x, Type type) {
  Type i8 = b.getI8Type();
  Value code = arith::BitcastOp::create(b, loc, i8, x);
  Value zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  Value codes = vector::FromElementsOp::create(b, loc, VectorType::get({2}, i8),
                                               ValueRange{code, zero});
  Value halves = convertFp8PairToF16(b, loc, codes, 0, x.getType());
  Value half = vector::ExtractOp::create(b, loc, halves, ArrayRef<int64_t>{0});
  if (type.isF16())
    return half;
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), half);
  if (type.isF32())
    return wide;
  return arith::TruncFOp::create(b, loc, type, wide);
}

/// Clones one op of a kernel's elementwise body (a matmul epilogue or an
/// elementwise kernel). fp8 conversions, which LLVM's arith lowering does
/// not take, become cvt instructions (emitFp8Truncation, emitFp8Extension).
/// With fast-math, f32 tanh becomes one tanh.approx.f32 (one MUFU op;
/// libdevice's tanhf takes ex2 and rcp): the GELU epilogue is MUFU-bound on
/// the MMA warps (H200, 2026-11-30, bench/NOTES.md section 17).
void cloneEpilogueOp(OpBuilder &b, Operation &op, IRMapping &mapping,
                     const GpuKernel &kernel) {
  if (auto trunc = dyn_cast<arith::TruncFOp>(op);
      trunc && isFp8(trunc.getType()) && trunc.getIn().getType().isF32()) {
    mapping.map(trunc.getResult(),
                emitFp8Truncation(b, op.getLoc(),
                                  mapping.lookupOrDefault(trunc.getIn()),
                                  trunc.getType()));
    return;
  }
  if (auto ext = dyn_cast<arith::ExtFOp>(op);
      ext && isFp8(ext.getIn().getType())) {
    mapping.map(ext.getResult(),
                emitFp8Extension(b, op.getLoc(),
                                 mapping.lookupOrDefault(ext.getIn()),
                                 ext.getType()));
    return;
  }
  auto tanh = dyn_cast<math::TanhOp>(op);
  if (!kernel.options.fastMath || !tanh || !tanh.getType().isF32()) {
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

/// The epilogue body on the `vector` elements whose memory inputs `inputs`
/// loaded (contraction c's accumulator at lane e: `accLanes[c * vector +
/// e]`): per output, its `vector` values.
static SmallVector<SmallVector<Value>>
computeEpilogueResults(OpBuilder &b, GpuKernel &kernel, int64_t vector,
                       const EpilogueInputs &inputs, ArrayRef<Value> accLanes) {
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
  return results;
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
  SmallVector<SmallVector<Value>> results =
      computeEpilogueResults(b, kernel, vector, inputs, accLanes);
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

/// Whether every output of `kernel` stores 16-bit elements (f16, bf16):
/// a fragment's column pair is then one 32-bit word, and four of them are
/// eight consecutive columns.
static bool hasHalfWidthOutputs(const GpuKernel &kernel) {
  for (unsigned r = kernel.spec.numInputs; r < kernel.args.size(); ++r)
    if (cast<MemRefType>(kernel.args[r].getType())
            .getElementType()
            .getIntOrFloatBitWidth() != 16)
      return false;
  return kernel.args.size() > kernel.spec.numInputs;
}

/// Whether n8 blocks of a fragment epilogue over `g` can be stored four at
/// a time through a quad transpose (emitQuadTranspose).
static bool canStoreQuads(const GpuKernel &kernel, const MatmulGeometry &g) {
  return canStoreFragmentQuads(hasHalfWidthOutputs(kernel), g.n);
}

/// Transposes, across the four lanes of a quad (lane % 4 = `quadLane`), the
/// 4 x 4 matrix whose row q is lane q's `words`: afterwards lane q holds
/// word q of every lane, in lane order. Two butterfly stages (lanes q ^ 2,
/// then q ^ 1), each swapping the two words the partner needs: 4 shuffles
/// for 4 words. Every lane of the warp must run it.
static void emitQuadTranspose(OpBuilder &b, Location loc, Value quadLane,
                              MutableArrayRef<Value> words) {
  IndexBuilder ib(b, loc);
  auto i32 = b.getI32Type();
  auto constant = [&](int32_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value fullMask = constant(-1);
  for (int64_t bit : {2, 1}) {
    Value high =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                              ib.rem(ib.div(quadLane, bit), 2), ib.c(0));
    for (int64_t s = 0; s < 4; ++s) {
      if (s & bit)
        continue;
      // Lane q sends the word its partner q ^ bit lacks and takes that
      // partner's word in exchange.
      Value send =
          arith::SelectOp::create(b, loc, high, words[s], words[s | bit]);
      Value received =
          NVVM::ShflOp::create(b, loc, i32, fullMask, send, constant(bit),
                               constant(0x1f), NVVM::ShflKind::bfly, UnitAttr())
              .getResult();
      Value low = words[s];
      words[s] = arith::SelectOp::create(b, loc, high, received, low);
      words[s | bit] =
          arith::SelectOp::create(b, loc, high, words[s | bit], received);
    }
  }
}

/// The epilogue over m16n8-style accumulator fragments: for n8 block nb,
/// element e sits at (row + 8 * (e / 2), col + 8 * nb + e % 2). Where N is
/// even, the two columns of a pair go together: one 2-wide load of each
/// input along N and one 2-wide store per output, half the memory
/// instructions of scalar accesses. The inputs of `kEpilogueBatch`
/// fragment pairs are loaded before any of them is stored, so their
/// latencies overlap.
///
/// With `quadLane` (lane % 4, the caller's warps all running this code)
/// and 16-bit outputs (canStoreQuads), each four n8 blocks of a row are
/// stored by one 16-byte store per lane: the quad's lanes hold a block's
/// eight columns two each, so a quad transpose of their packed pairs gives
/// lane q block q's eight columns. A warp's store then writes 64
/// consecutive bytes in each of its 8 rows instead of 16, a quarter of the
/// store instructions.
static constexpr int64_t kEpilogueBatch = 16;
void emitFragmentEpilogue(
    OpBuilder &b, Location loc, GpuKernel &kernel, const MatmulGeometry &g,
    Value batchSlice, Value row0, Value col0, int64_t blocksN,
    function_ref<Value(OpBuilder &, unsigned, int64_t, int64_t)> accAt,
    Value quadLane) {
  IndexBuilder ib(b, loc);
  int64_t vector = g.n % 2 == 0 ? 2 : 1;
  struct Pending {
    SmallVector<Value> ivs, acc;
    Value inBounds;
    EpilogueInputs inputs;
  };
  auto load = [&](int64_t nb, int64_t e) {
    Pending p;
    Value row = ib.add(row0, (e / 2) * 8);
    Value col = ib.add(col0, nb * 8 + (e % 2));
    for (unsigned c = 0; c < kernel.spec.getNumContractions(); ++c)
      for (int64_t v = 0; v < vector; ++v)
        p.acc.push_back(accAt(b, c, nb, e + v));
    p.inBounds = ib.land(isRowInBounds(ib, row, g), ib.lt(col, g.n));
    p.ivs = matmulOutputIndex(ib, kernel.spec, batchSlice, row, col);
    p.inputs = loadEpilogueInputs(b, loc, kernel, p.ivs, vector, p.inBounds);
    return p;
  };
  int64_t quadBlocks =
      quadLane && canStoreQuads(kernel, g) ? getQuadStoredBlocks(blocksN) : 0;

  // Quads: four n8 blocks at one row half (e / 2) per group.
  struct QuadGroup {
    int64_t firstBlock, half;
    SmallVector<Pending> pairs;
  };
  SmallVector<QuadGroup> groups;
  auto flushGroups = [&]() {
    for (QuadGroup &group : groups) {
      SmallVector<SmallVector<SmallVector<Value>>> results;
      for (Pending &p : group.pairs)
        results.push_back(
            computeEpilogueResults(b, kernel, vector, p.inputs, p.acc));
      Value row = ib.add(row0, group.half * 8);
      // Lane q stores block firstBlock + q: col0 is the block's column plus
      // 2q, the lane's pair within it.
      Value col =
          ib.add(ib.add(col0, group.firstBlock * 8), ib.mul(quadLane, 6));
      Value inBounds = ib.land(isRowInBounds(ib, row, g), ib.lt(col, g.n));
      SmallVector<Value> ivs =
          matmulOutputIndex(ib, kernel.spec, batchSlice, row, col);
      Value offset = linearize(ib, ivs, kernel.spec.outShape);
      for (unsigned r = 0; r < results.front().size(); ++r) {
        Value out = kernel.args[kernel.spec.numInputs + r];
        Type elemType = cast<MemRefType>(out.getType()).getElementType();
        SmallVector<Value> words;
        for (auto &pair : results) {
          Value packed = vector::FromElementsOp::create(
              b, loc, VectorType::get({2}, elemType), pair[r]);
          words.push_back(vector::ExtractOp::create(
              b, loc,
              vector::BitCastOp::create(
                  b, loc, VectorType::get({1}, b.getI32Type()), packed),
              ArrayRef<int64_t>{0}));
        }
        emitQuadTranspose(b, loc, quadLane, words);
        Value line = vector::BitCastOp::create(
            b, loc, VectorType::get({8}, elemType),
            vector::FromElementsOp::create(
                b, loc, VectorType::get({4}, b.getI32Type()), words));
        emitIf(b, loc, inBounds, [&](OpBuilder &b) {
          vector::StoreOp::create(b, loc, line, out, ValueRange{offset}, false,
                                  llvm::MaybeAlign(16));
        });
      }
    }
    groups.clear();
  };
  for (int64_t first = 0; first < quadBlocks; first += 4) {
    for (int64_t half = 0; half < 2; ++half) {
      QuadGroup group{first, half, {}};
      for (int64_t nb = first; nb < first + 4; ++nb)
        group.pairs.push_back(load(nb, half * 2));
      groups.push_back(std::move(group));
      if (static_cast<int64_t>(groups.size()) * 4 == kEpilogueBatch)
        flushGroups();
    }
  }
  flushGroups();

  SmallVector<Pending> batch;
  auto flush = [&]() {
    for (Pending &p : batch)
      emitIf(b, loc, p.inBounds, [&](OpBuilder &b) {
        storeEpilogueResults(b, loc, kernel, p.ivs, vector, p.inputs, p.acc);
      });
    batch.clear();
  };
  for (int64_t nb = quadBlocks; nb < blocksN; ++nb) {
    for (int64_t e = 0; e < 4; e += vector) {
      batch.push_back(load(nb, e));
      if (static_cast<int64_t>(batch.size()) == kEpilogueBatch)
        flush();
    }
  }
  flush();
}

} // namespace mlir::sol::codegen
