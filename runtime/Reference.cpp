//===- Reference.cpp - float64 reference for a manifest's program ---------===//

#include "runtime/Reference.h"
#include "runtime/Random.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace sol::runtime;

int64_t
sol::runtime::getBroadcastOffset(const Shape &resultShape,
                                 const std::vector<int64_t> &resultIndex,
                                 const Shape &operandShape) {
  size_t offsetDims = resultShape.size() - operandShape.size();
  int64_t offset = 0;
  for (size_t i = 0; i < operandShape.size(); ++i) {
    int64_t index = operandShape[i] == 1 ? 0 : resultIndex[offsetDims + i];
    offset = offset * operandShape[i] + index;
  }
  return offset;
}

int64_t sol::runtime::getNumRows(const Shape &shape) {
  if (shape.size() <= 1)
    return 1;
  return getNumElements(Shape(shape.begin(), shape.end() - 1));
}

int64_t sol::runtime::getRowLength(const Shape &shape) {
  return shape.empty() ? 1 : shape.back();
}

double sol::runtime::getReferenceWorkPerElement(const Manifest &manifest,
                                                int valueId) {
  std::set<int> visited;
  std::vector<int> worklist = {valueId};
  double work = 1;
  while (!worklist.empty()) {
    int id = worklist.back();
    worklist.pop_back();
    if (!visited.insert(id).second)
      continue;
    const ProgramOp &op = manifest.program[id];
    if (op.kind == OpKind::Matmul)
      work +=
          static_cast<double>(manifest.program[op.operands[0]].shape.back());
    worklist.insert(worklist.end(), op.operands.begin(), op.operands.end());
  }
  return work;
}

std::vector<int64_t> sol::runtime::sampleRows(int64_t numRows, int64_t count,
                                              uint64_t seed) {
  std::vector<int64_t> rows;
  if (count >= numRows) {
    for (int64_t row = 0; row < numRows; ++row)
      rows.push_back(row);
    return rows;
  }
  // First and last rows catch tile-edge bugs that a random sample may miss.
  std::set<int64_t> chosen = {0, numRows - 1};
  Random random(seed);
  while (static_cast<int64_t>(chosen.size()) < count)
    chosen.insert(static_cast<int64_t>(random.below(numRows)));
  return std::vector<int64_t>(chosen.begin(), chosen.end());
}

int64_t sol::runtime::getRowsWithinBudget(int64_t numRows, int64_t rowLength,
                                          double workPerElement,
                                          double budget) {
  double workPerRow = static_cast<double>(rowLength) * workPerElement;
  if (static_cast<double>(numRows) * workPerRow <= budget)
    return numRows;
  int64_t rows = static_cast<int64_t>(budget / workPerRow);
  return std::min(numRows, std::max<int64_t>(rows, 2));
}

//===----------------------------------------------------------------------===//
// ReferenceEvaluator
//===----------------------------------------------------------------------===//

/// About 256 MB of memoized rows.
static constexpr size_t maxCachedElements = size_t(32) << 20;

ReferenceEvaluator::ReferenceEvaluator(const Manifest &manifest,
                                       std::vector<const void *> inputs)
    : manifest(manifest), inputs(std::move(inputs)) {}

const std::vector<double> &ReferenceEvaluator::getCachedRow(int valueId,
                                                            int64_t row) {
  auto key = std::make_pair(valueId, row);
  auto found = rowCache.find(key);
  if (found != rowCache.end())
    return found->second;
  std::vector<double> values;
  computeRow(valueId, row, values);
  if (cachedElements + values.size() > maxCachedElements) {
    rowCache.clear();
    cachedElements = 0;
  }
  cachedElements += values.size();
  return rowCache.emplace(key, std::move(values)).first->second;
}

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

double ReferenceEvaluator::applyUnary(const ProgramOp &op, double x) const {
  switch (op.kind) {
  case OpKind::Neg:
    return -x;
  case OpKind::Abs:
    return std::fabs(x);
  case OpKind::Exp:
    return std::exp(x);
  case OpKind::Tanh:
    return std::tanh(x);
  case OpKind::Erf:
    return std::erf(x);
  case OpKind::Sigmoid:
    return sigmoid(x);
  case OpKind::Relu:
    return x > 0 ? x : 0.0;
  case OpKind::Silu:
    return x * sigmoid(x);
  case OpKind::Gelu:
    if (op.geluTanh) {
      const double sqrtTwoOverPi = std::sqrt(2.0 / M_PI);
      return 0.5 * x *
             (1 + std::tanh(sqrtTwoOverPi * (x + 0.044715 * x * x * x)));
    }
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case OpKind::Cast:
    return roundToDType(x, op.dtype);
  default:
    return NAN;
  }
}

double ReferenceEvaluator::applyBinary(OpKind kind, double lhs, double rhs) {
  switch (kind) {
  case OpKind::Add:
    return lhs + rhs;
  case OpKind::Sub:
    return lhs - rhs;
  case OpKind::Mul:
    return lhs * rhs;
  case OpKind::Div:
    return lhs / rhs;
  // NaN propagates, as in torch.maximum / minimum.
  case OpKind::Max:
    return std::isnan(lhs) || std::isnan(rhs) ? NAN : std::max(lhs, rhs);
  case OpKind::Min:
    return std::isnan(lhs) || std::isnan(rhs) ? NAN : std::min(lhs, rhs);
  default:
    return NAN;
  }
}

void ReferenceEvaluator::computeRow(int valueId, int64_t row,
                                    std::vector<double> &result) {
  const ProgramOp &op = manifest.program[valueId];
  const int64_t length = getRowLength(op.shape);
  result.assign(static_cast<size_t>(length), 0.0);

  switch (op.kind) {
  case OpKind::Arg: {
    const void *buffer = inputs[op.argIndex];
    for (int64_t j = 0; j < length; ++j)
      result[j] = loadElement(buffer, op.dtype, row * length + j);
    return;
  }
  case OpKind::Constant:
    result[0] = op.constantValue;
    return;
  case OpKind::Matmul: {
    const Shape &aShape = manifest.program[op.operands[0]].shape;
    const Shape &bShape = manifest.program[op.operands[1]].shape;
    const int64_t m = aShape[aShape.size() - 2], k = aShape.back();
    const int64_t n = length;
    // Result row (batch..., m) is A's row with the same linear index.
    std::vector<double> aRow;
    computeRow(op.operands[0], row, aRow);
    const int64_t bBatch = bShape.size() == 2 ? 0 : row / m;
    std::vector<double> scaleA = {1.0}, scaleB = {1.0}, scaleOut = {1.0};
    const bool blockA =
        op.scaleA >= 0 && isBlockScale(manifest.program[op.scaleA], false);
    const bool blockB =
        op.scaleB >= 0 && isBlockScale(manifest.program[op.scaleB], true);
    // A per-token scale_a has one row per row of A; a per-tensor scale has
    // one row.
    if (op.scaleA >= 0)
      computeRow(op.scaleA,
                 getNumRows(manifest.program[op.scaleA].shape) == 1 ? 0 : row,
                 scaleA);
    if (op.scaleB >= 0 && !blockB)
      computeRow(op.scaleB, 0, scaleB);
    if (op.scaleOut >= 0)
      computeRow(op.scaleOut, 0, scaleOut);
    // The scales apply to the exact accumulator before anything reads it;
    // an fp8 result stores it over scale_out, rounded as sol.cast rounds
    // (docs/fp8.md, "Scales").
    auto finish = [&]() {
      for (int64_t j = 0; j < n; ++j) {
        double value = result[j] * (blockA ? 1.0 : scaleA[0]) *
                       (blockB ? 1.0 : scaleB[scaleB.size() == 1 ? 0 : j]);
        result[j] = isFp8DType(op.dtype)
                        ? roundToDType(value / scaleOut[0], op.dtype)
                        : value;
      }
    };
    if (blockA || blockB) {
      // Block-wise scales (docs/fp8.md): each K block's exact partial sum
      // times its blocks' scales (fp8 B is always [N, K]). B's block row is
      // copied first: a cached row may be evicted by the next lookup.
      std::vector<double> bScales;
      for (int64_t j = 0; j < n; ++j) {
        if (blockB && j % kFp8ScaleBlock == 0)
          bScales = getCachedRow(op.scaleB, j / kFp8ScaleBlock);
        const std::vector<double> &bRow =
            getCachedRow(op.operands[1], bBatch * n + j);
        double sum = 0;
        for (int64_t k0 = 0, kb = 0; k0 < k; k0 += kFp8ScaleBlock, ++kb) {
          double partial = 0;
          for (int64_t i = k0; i < std::min(k, k0 + kFp8ScaleBlock); ++i)
            partial += aRow[i] * bRow[i];
          sum += partial * (blockA ? scaleA[kb] : 1.0) *
                 (blockB ? bScales[kb] : 1.0);
        }
        result[j] = sum;
      }
    } else if (op.transposeB) {
      for (int64_t j = 0; j < n; ++j) {
        const std::vector<double> &bRow =
            getCachedRow(op.operands[1], bBatch * n + j);
        double sum = 0;
        for (int64_t i = 0; i < k; ++i)
          sum += aRow[i] * bRow[i];
        result[j] = sum;
      }
    } else {
      for (int64_t i = 0; i < k; ++i) {
        const std::vector<double> &bRow =
            getCachedRow(op.operands[1], bBatch * k + i);
        const double a = aRow[i];
        for (int64_t j = 0; j < n; ++j)
          result[j] += a * bRow[j];
      }
    }
    finish();
    return;
  }
  default:
    break;
  }

  if (isUnaryOp(op.kind)) {
    computeRow(op.operands[0], row, result);
    for (double &x : result)
      x = applyUnary(op, x);
    return;
  }

  // Binary: find each operand's row under broadcasting from the result
  // row's leading index (last index 0 gives the operand row's start).
  std::vector<int64_t> index(op.shape.size(), 0);
  int64_t remaining = row;
  for (int d = static_cast<int>(op.shape.size()) - 2; d >= 0; --d) {
    index[d] = remaining % op.shape[d];
    remaining /= op.shape[d];
  }
  std::vector<double> operandRows[2];
  for (int i = 0; i < 2; ++i) {
    const Shape &shape = manifest.program[op.operands[i]].shape;
    int64_t operandLength = getRowLength(shape);
    int64_t offset = getBroadcastOffset(op.shape, index, shape);
    computeRow(op.operands[i], offset / operandLength, operandRows[i]);
  }
  for (int64_t j = 0; j < length; ++j) {
    double lhs =
        operandRows[0].size() == 1 ? operandRows[0][0] : operandRows[0][j];
    double rhs =
        operandRows[1].size() == 1 ? operandRows[1][0] : operandRows[1][j];
    result[j] = applyBinary(op.kind, lhs, rhs);
  }
}

std::vector<double> ReferenceEvaluator::computeAll(int valueId) {
  const Shape &shape = manifest.program[valueId].shape;
  std::vector<double> all, row;
  for (int64_t r = 0; r < getNumRows(shape); ++r) {
    computeRow(valueId, r, row);
    all.insert(all.end(), row.begin(), row.end());
  }
  return all;
}
