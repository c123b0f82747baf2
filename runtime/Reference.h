//===- Reference.h - float64 reference for a manifest's program -*- C++ -*-===//
//
// The reference evaluates the manifest's program in double, independently of
// the kernel: no intermediate rounding except at `cast`, f32 or better
// accumulation everywhere. It works row by row (a row is every element along
// the last dim at one index of the leading dims) so that a matmul's A row is
// computed once per output row and B's rows are memoized across output rows;
// large kernels are checked on a seeded sample of output rows.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_REFERENCE_H
#define SOL_RUNTIME_REFERENCE_H

#include "runtime/Manifest.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace sol {
namespace runtime {

/// Maps `resultIndex` (a multi-index into `resultShape`) to the linear
/// row-major offset of the element of `operandShape` it reads under numpy
/// broadcasting: trailing dims align, size-1 and missing leading dims repeat.
int64_t getBroadcastOffset(const Shape &resultShape,
                           const std::vector<int64_t> &resultIndex,
                           const Shape &operandShape);

/// Number of rows of a value of `shape` (product of all dims but the last;
/// 1 for rank 0 and 1) and the row length (last dim; 1 for rank 0).
int64_t getNumRows(const Shape &shape);
int64_t getRowLength(const Shape &shape);

/// Multiply-adds (or elementwise steps) the reference spends per element of
/// value `valueId`: 1 plus the K of every matmul it depends on.
double getReferenceWorkPerElement(const Manifest &manifest, int valueId);

/// `count` distinct row indices in [0, numRows), sorted, always including the
/// first and the last row, chosen deterministically from `seed`. Returns all
/// rows when `count` >= numRows.
std::vector<int64_t> sampleRows(int64_t numRows, int64_t count, uint64_t seed);

/// How many rows of an output to check under a budget of multiply-adds.
/// Returns numRows when everything fits.
int64_t getRowsWithinBudget(int64_t numRows, int64_t rowLength,
                            double workPerElement, double budget);

class ReferenceEvaluator {
public:
  /// `inputs[i]` points at the host buffer of args[i] for every input arg
  /// (output entries are ignored). The buffers must outlive the evaluator.
  ReferenceEvaluator(const Manifest &manifest,
                     std::vector<const void *> inputs);

  /// Computes row `row` of value `valueId` (getRowLength(shape) elements).
  void computeRow(int valueId, int64_t row, std::vector<double> &result);

  /// Every element of `valueId`, row-major; for small values and tests.
  std::vector<double> computeAll(int valueId);

private:
  const std::vector<double> &getCachedRow(int valueId, int64_t row);
  double applyUnary(const ProgramOp &op, double x) const;
  static double applyBinary(OpKind kind, double lhs, double rhs);

  const Manifest &manifest;
  std::vector<const void *> inputs;
  /// Memoized rows of matmul B operands, (value id, row) -> row. Bounded so a
  /// batched B cannot exhaust memory; cleared when full.
  std::map<std::pair<int, int64_t>, std::vector<double>> rowCache;
  size_t cachedElements = 0;
};

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_REFERENCE_H
