//===- Runner.h - load, run, check and time one kernel ----------*- C++ -*-===//
//
// The runner turns a manifest into a verdict: fresh seeded inputs, poisoned
// outputs, one checked launch against the float64 reference, then (CUDA only)
// event-timed launches rotating among input sets so that a memory-bound
// kernel is measured from HBM rather than L2, reported beside the compiler's
// predicted speed of light.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_RUNNER_H
#define SOL_RUNTIME_RUNNER_H

#include "runtime/Compare.h"
#include "runtime/CudaDriver.h"
#include "runtime/Manifest.h"

#include "third_party/nlohmann/json.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sol {
namespace runtime {

enum class Backend { Cuda, Host };

struct RunOptions {
  Backend backend = Backend::Cuda;
  /// Host backend: the shared library; "" means the manifest's `lib` field,
  /// else <manifest dir>/<kernel>.so.
  std::string libraryOverride;
  bool preferPtx = false;
  bool checkOnly = false;
  uint64_t seed = 1;
  int iters = 50;
  int reps = 7;
  int warmupLaunches = 5;
  /// Negative: the output dtype's default (getDefaultTolerance).
  double atol = -1, rtol = -1;
  /// Multiply-adds the reference may spend (over all outputs) before it
  /// checks a sample of rows instead of every row.
  double referenceBudget = 3e8;
  int maxInputSets = 32;
  /// The driver library to dlopen; tests point it at a missing file.
  std::string cudaLibrary = "libcuda.so.1";
  /// The most host memory the arguments' buffers may take (a kernel's args,
  /// twice over for the CUDA backend's upload); 0 means
  /// getDefaultHostByteCap(). A manifest over it fails with a message
  /// instead of an allocation failure.
  uint64_t maxHostBytes = 0;
};

/// Three quarters of the machine's physical memory (64 GiB when it cannot be
/// read).
uint64_t getDefaultHostByteCap();

/// The host bytes `manifest`'s argument buffers take under `backend`.
uint64_t getHostArgBytes(const Manifest &manifest, Backend backend);

struct OutputCheck {
  std::string name;
  Tolerance tolerance;
  CompareStats stats;
  int64_t numRows = 0;
  int64_t rowsChecked = 0;
  bool isSampled() const { return rowsChecked < numRows; }
};

struct RunResult {
  std::string kernel;
  /// A dynamic kernel's M (else -1).
  int64_t dim = -1;
  std::string manifestPath;
  std::string backend;    // "cuda" or "host"
  std::string deviceName; // GPU name, or "host CPU"
  std::string binaryPath; // the cubin, PTX or shared library that ran
  std::string note;       // e.g. a chip mismatch warning
  /// Set when the kernel could not be loaded, launched or checked.
  std::string error;
  bool pass = false;
  std::vector<OutputCheck> outputs;
  /// Worst over outputs.
  double share = 0, maxRelError = 0, cosine = 0;

  bool timed = false;
  int inputSets = 0, iters = 0, reps = 0;
  double us = 0, tflops = 0, gbps = 0;
  double solMeasured = 0, solPred = 0, tPredUs = 0, tIdealUs = 0;
  /// Host backend: wall time of the one checked call (not a GPU time).
  double hostWallUs = -1;
};

/// One result row for --json (keys in the order they print).
nlohmann::ordered_json toJson(const RunResult &result);
/// The readable block printed per kernel.
std::string formatResultBlock(const Manifest &manifest,
                              const RunResult &result);
std::string formatTableHeader();
std::string formatTableRow(const RunResult &result);

//===----------------------------------------------------------------------===//
// Pieces exposed for tests
//===----------------------------------------------------------------------===//

/// Median of `values` (mean of the middle two for an even count; 0 if empty).
double getMedian(std::vector<double> values);

/// Input sets to rotate among so that one pass over all sets spans at least
/// twice the L2: max(1, ceil(2 * l2Bytes / bytesPerSet)), at most `cap`, and
/// at most what fits in 80% of `freeBytes` (ignored when 0).
int getInputSetCount(double l2Bytes, double bytesPerSet, int cap,
                     double freeBytes);

/// For each arg, whether it feeds a `div` denominator or an fp8 matmul's
/// scale_out directly (its inputs are then drawn away from zero).
std::vector<bool> findDivisorArgs(const Manifest &manifest);

/// Host buffers for every arg of input set `setIndex`: inputs seeded random
/// values of their dtype (never zero), outputs poisoned with all-ones bytes
/// (NaN in f16, bf16 and f32) so unwritten elements fail.
std::vector<std::vector<uint8_t>>
makeArgBuffers(const Manifest &manifest, uint64_t seed, int setIndex = 0);

/// Compares the outputs in `buffers` (laid out as makeArgBuffers) with the
/// reference computed from its inputs.
std::vector<OutputCheck>
checkOutputs(const Manifest &manifest,
             const std::vector<std::vector<uint8_t>> &buffers,
             const RunOptions &options);

/// Number of `.param`s of PTX entry `kernel`, or -1 when there is no such
/// entry in `ptx`.
int countPtxEntryParams(const std::string &ptx, const std::string &kernel);

class Runner {
public:
  explicit Runner(RunOptions options) : options(std::move(options)) {}

  RunResult run(const Manifest &manifest);

private:
  bool initCuda(std::string &error);
  void runCuda(const Manifest &manifest, RunResult &result);
  void runHost(const Manifest &manifest, RunResult &result);
  void finishCheck(RunResult &result);

  RunOptions options;
  cuda::CudaDriver driver;
  bool cudaInitialized = false;
  std::string cudaInitError;
  cuda::CUdevice device = 0;
  cuda::CUcontext context = nullptr;
  std::string deviceName;
  int computeCapability = 0; // 10 * major + minor
  int l2CacheBytes = 0;
  int maxDynamicSharedBytes = 0;
};

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_RUNNER_H
