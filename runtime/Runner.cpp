//===- Runner.cpp - load, run, check and time one kernel ------------------===//

#include "runtime/Runner.h"
#include "runtime/HostBackend.h"
#include "runtime/Launch.h"
#include "runtime/Random.h"
#include "runtime/Reference.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <unistd.h>

using namespace sol::runtime;
using namespace sol::runtime::cuda;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

double sol::runtime::getMedian(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  if (values.size() % 2)
    return values[middle];
  return 0.5 * (values[middle - 1] + values[middle]);
}

int sol::runtime::getInputSetCount(double l2Bytes, double bytesPerSet, int cap,
                                   double freeBytes) {
  if (bytesPerSet <= 0)
    return 1;
  double sets = std::max(1.0, std::ceil(2 * l2Bytes / bytesPerSet));
  sets = std::min(sets, static_cast<double>(std::max(cap, 1)));
  if (freeBytes > 0)
    sets = std::min(sets, std::floor(0.8 * freeBytes / bytesPerSet));
  return static_cast<int>(std::max(1.0, sets));
}

std::vector<bool> sol::runtime::findDivisorArgs(const Manifest &manifest) {
  std::vector<bool> divisors(manifest.args.size(), false);
  auto markArg = [&](int valueId) {
    const ProgramOp &denominator = manifest.program[valueId];
    if (denominator.kind == OpKind::Arg)
      divisors[denominator.argIndex] = true;
  };
  for (const ProgramOp &op : manifest.program) {
    if (op.kind == OpKind::Div)
      markArg(op.operands[1]);
    // An fp8 result is the accumulator over scale_out (docs/fp8.md).
    if (op.kind == OpKind::Matmul && op.scaleOut >= 0)
      markArg(op.scaleOut);
  }
  return divisors;
}

std::vector<std::vector<uint8_t>>
sol::runtime::makeArgBuffers(const Manifest &manifest, uint64_t seed,
                             int setIndex) {
  std::vector<bool> divisors = findDivisorArgs(manifest);
  std::vector<std::vector<uint8_t>> buffers(manifest.args.size());
  uint64_t setSeed = deriveSeed(seed, static_cast<uint64_t>(setIndex));
  for (size_t i = 0; i < manifest.args.size(); ++i) {
    const ArgSpec &arg = manifest.args[i];
    buffers[i].resize(arg.getNumBytes());
    if (arg.isOutput) {
      std::memset(buffers[i].data(), 0xFF, buffers[i].size());
      continue;
    }
    Random random(deriveSeed(setSeed, i));
    void *data = buffers[i].data();
    for (int64_t e = 0, count = arg.getNumElements(); e < count; ++e) {
      double value = 0;
      // Zero would hide a missing term of a sum or product; redraw it.
      while (value == 0) {
        if (divisors[i]) {
          double magnitude = random.uniform(0.5, 1.5);
          value = random.next() & 1 ? magnitude : -magnitude;
        } else {
          value = random.uniform(-1.0, 1.0);
        }
        value = roundToDType(value, arg.dtype);
      }
      storeElement(data, arg.dtype, static_cast<size_t>(e), value);
    }
  }
  return buffers;
}

std::vector<OutputCheck>
sol::runtime::checkOutputs(const Manifest &manifest,
                           const std::vector<std::vector<uint8_t>> &buffers,
                           const RunOptions &options) {
  std::vector<const void *> inputs;
  for (const auto &buffer : buffers)
    inputs.push_back(buffer.data());
  ReferenceEvaluator evaluator(manifest, inputs);
  std::vector<OutputCheck> checks;
  double budgetPerOutput =
      options.referenceBudget / std::max<size_t>(manifest.outputs.size(), 1);
  std::vector<double> reference;
  for (size_t i = 0; i < manifest.outputs.size(); ++i) {
    int valueId = manifest.outputs[i];
    size_t argIndex = manifest.getOutputArgIndex(i);
    const ArgSpec &arg = manifest.args[argIndex];
    OutputCheck check;
    check.name = arg.name;
    check.tolerance = getDefaultTolerance(arg.dtype);
    if (options.atol >= 0)
      check.tolerance.atol = options.atol;
    if (options.rtol >= 0)
      check.tolerance.rtol = options.rtol;
    int64_t rowLength = getRowLength(arg.shape);
    check.numRows = getNumRows(arg.shape);
    int64_t rowsToCheck = getRowsWithinBudget(
        check.numRows, rowLength, getReferenceWorkPerElement(manifest, valueId),
        budgetPerOutput);
    std::vector<int64_t> rows = sampleRows(check.numRows, rowsToCheck,
                                           deriveSeed(options.seed, 1000 + i));
    check.rowsChecked = static_cast<int64_t>(rows.size());
    Comparator comparator(check.tolerance);
    for (int64_t row : rows) {
      evaluator.computeRow(valueId, row, reference);
      for (int64_t j = 0; j < rowLength; ++j)
        comparator.add(loadElement(buffers[argIndex].data(), arg.dtype,
                                   static_cast<size_t>(row * rowLength + j)),
                       reference[j]);
    }
    check.stats = comparator.finish();
    checks.push_back(check);
  }
  return checks;
}

int sol::runtime::countPtxEntryParams(const std::string &ptx,
                                      const std::string &kernel) {
  std::string marker = ".entry " + kernel;
  size_t position = 0;
  while ((position = ptx.find(marker, position)) != std::string::npos) {
    size_t after = position + marker.size();
    while (after < ptx.size() &&
           std::isspace(static_cast<unsigned char>(ptx[after])))
      ++after;
    position = after;
    if (after >= ptx.size() || ptx[after] != '(')
      continue; // a longer name that starts with `kernel`
    size_t close = ptx.find(')', after);
    if (close == std::string::npos)
      return -1;
    int count = 0;
    for (size_t p = ptx.find(".param", after); p < close;
         p = ptx.find(".param", p + 6))
      ++count;
    return count;
  }
  return -1;
}

//===----------------------------------------------------------------------===//
// Runner
//===----------------------------------------------------------------------===//

void Runner::finishCheck(RunResult &result) {
  result.pass = result.error.empty() && !result.outputs.empty();
  result.share = 1;
  result.cosine = 1;
  result.maxRelError = 0;
  for (const OutputCheck &check : result.outputs) {
    result.pass = result.pass && check.stats.pass;
    result.share = std::min(result.share, check.stats.share);
    result.cosine = std::min(result.cosine, check.stats.cosine);
    result.maxRelError = std::max(result.maxRelError, check.stats.maxRelError);
  }
}

uint64_t sol::runtime::getDefaultHostByteCap() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(64) << 30;
  return static_cast<uint64_t>(pages) / 4 * 3 * static_cast<uint64_t>(pageSize);
}

uint64_t sol::runtime::getHostArgBytes(const Manifest &manifest,
                                       Backend backend) {
  // Each arg is at most kMaxElements * 4 bytes (parseManifest): the sum of a
  // few thousand of them, doubled, cannot overflow.
  uint64_t bytes = 0;
  for (const ArgSpec &arg : manifest.args)
    bytes += arg.getNumBytes();
  // The CUDA backend keeps input set 0 on the host while it fills the next.
  return backend == Backend::Cuda ? 2 * bytes : bytes;
}

/// The name a result row carries: a dynamic kernel's at one M names the M.
static std::string getResultName(const Manifest &manifest) {
  if (!manifest.hasDimParam())
    return manifest.kernel;
  return manifest.getHostEntry() + "@M=" + std::to_string(manifest.dim);
}

RunResult Runner::run(const Manifest &manifest) {
  RunResult result;
  result.kernel = getResultName(manifest);
  result.dim = manifest.dim;
  result.manifestPath = manifest.path;
  result.solPred = manifest.cost.solPred;
  result.tPredUs = manifest.cost.tPredUs;
  result.tIdealUs = manifest.cost.tIdealUs;
  result.backend = options.backend == Backend::Host ? "host" : "cuda";
  uint64_t cap =
      options.maxHostBytes ? options.maxHostBytes : getDefaultHostByteCap();
  uint64_t bytes = getHostArgBytes(manifest, options.backend);
  if (manifest.isDynamic()) {
    result.error = "kernel '" + manifest.kernel + "' is dynamic (M in " +
                   formatDimRange(manifest.dynamicDim) +
                   "): it runs at one M (specializeManifest; sol-run --dim=M)";
  } else if (manifest.isEmptyLaunch()) {
    // M = 0: the outputs are empty and there is nothing to launch or check.
    result.note = "M = 0: nothing launched, the outputs are empty";
    result.pass = true;
    return result;
  } else if (bytes > cap) {
    result.error =
        "the arguments need " + std::to_string(bytes) +
        " B of host memory, more than the cap of " + std::to_string(cap) +
        " B (" +
        (options.maxHostBytes ? std::string("--max-host-bytes")
                              : std::string("3/4 of physical memory; "
                                            "--max-host-bytes=N changes it")) +
        ")";
  } else {
    // The cap keeps buffers within memory; an allocation may still fail (a
    // busy machine, an overcommit limit): one kernel's error, not a crash.
    try {
      if (options.backend == Backend::Host)
        runHost(manifest, result);
      else
        runCuda(manifest, result);
    } catch (const std::bad_alloc &) {
      result.outputs.clear();
      result.timed = false;
      result.error = "out of host memory (the arguments need " +
                     std::to_string(bytes) + " B)";
    }
  }
  finishCheck(result);
  return result;
}

void Runner::runHost(const Manifest &manifest, RunResult &result) {
  result.backend = "host";
  result.deviceName = "host CPU";
  std::string library = options.libraryOverride;
  if (library.empty())
    library = manifest.libPath;
  if (library.empty())
    library = manifest.directory + "/" + manifest.getHostEntry() + ".so";
  result.binaryPath = library;
  HostKernel kernel;
  if (!kernel.load(library, manifest.getHostEntry(), result.error))
    return;
  std::vector<std::vector<uint8_t>> buffers =
      makeArgBuffers(manifest, options.seed);
  std::vector<void *> args;
  for (auto &buffer : buffers)
    args.push_back(buffer.data());
  // A dynamic kernel's CPU function serves every M: a pointer to it last.
  auto start = std::chrono::steady_clock::now();
  if (manifest.hasDimParam()
          ? !kernel.callAtDim(args, manifest.dim, result.error)
          : !kernel.call(args, result.error))
    return;
  auto end = std::chrono::steady_clock::now();
  result.hostWallUs =
      std::chrono::duration<double, std::micro>(end - start).count();
  result.outputs = checkOutputs(manifest, buffers, options);
}

bool Runner::initCuda(std::string &error) {
  if (cudaInitialized)
    return true;
  if (!cudaInitError.empty()) {
    error = cudaInitError; // say it once per kernel, try it once per process
    return false;
  }
  auto fail = [&](const std::string &message) {
    cudaInitError = error = message;
    return false;
  };
  if (!driver.load(error, options.cudaLibrary.c_str()))
    return fail(error);
  CUresult status = driver.cuInit(0);
  if (status == CUDA_ERROR_NO_DEVICE)
    return fail("no CUDA device found (cuInit: " + driver.describe(status) +
                ")");
  if (!driver.check(status, "cuInit", error))
    return fail(error);
  int deviceCount = 0;
  if (!driver.check(driver.cuDeviceGetCount(&deviceCount), "cuDeviceGetCount",
                    error))
    return fail(error);
  if (deviceCount == 0)
    return fail("no CUDA device found");
  char name[256] = {0};
  int major = 0, minor = 0;
  if (!driver.check(driver.cuDeviceGet(&device, 0), "cuDeviceGet", error) ||
      !driver.check(driver.cuDeviceGetName(name, sizeof(name) - 1, device),
                    "cuDeviceGetName", error) ||
      !driver.check(
          driver.cuDeviceGetAttribute(
              &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
          "cuDeviceGetAttribute", error) ||
      !driver.check(
          driver.cuDeviceGetAttribute(
              &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
          "cuDeviceGetAttribute", error) ||
      !driver.check(
          driver.cuDeviceGetAttribute(
              &l2CacheBytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device),
          "cuDeviceGetAttribute", error) ||
      !driver.check(driver.cuDeviceGetAttribute(
                        &maxDynamicSharedBytes,
                        CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                        device),
                    "cuDeviceGetAttribute", error) ||
      !driver.check(driver.cuDevicePrimaryCtxRetain(&context, device),
                    "cuDevicePrimaryCtxRetain", error) ||
      !driver.check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent", error))
    return fail(error);
  deviceName = name;
  computeCapability = 10 * major + minor;
  cudaInitialized = true;
  return true;
}

namespace {

/// Frees what one kernel run allocated on the device, however it ends.
struct DeviceResources {
  const CudaDriver &driver;
  CUmodule module = nullptr;
  std::vector<CUdeviceptr> allocations;
  std::vector<CUevent> events;

  explicit DeviceResources(const CudaDriver &driver) : driver(driver) {}
  ~DeviceResources() {
    for (CUevent event : events)
      driver.cuEventDestroy(event);
    for (CUdeviceptr pointer : allocations)
      driver.cuMemFree(pointer);
    if (module)
      driver.cuModuleUnload(module);
  }
};

} // namespace

void Runner::runCuda(const Manifest &manifest, RunResult &result) {
  result.backend = "cuda";
  std::string &error = result.error;
  if (!initCuda(error))
    return;
  result.deviceName = deviceName;
  if (!checkLaunchSupport(driver, manifest, error))
    return;

  // Pick the binary: a cubin needs no JIT, so it wins unless told otherwise
  // or it is not there (`--sol-to-ptx` with cubin=false writes the PTX and a
  // manifest that names both).
  bool cubinPresent = access(manifest.cubinPath.c_str(), R_OK) == 0;
  bool useCubin = !manifest.cubinPath.empty() &&
                  (cubinPresent || manifest.ptxPath.empty()) &&
                  (!options.preferPtx || manifest.ptxPath.empty());
  result.binaryPath = useCubin ? manifest.cubinPath : manifest.ptxPath;
  if (result.binaryPath.empty()) {
    error = "manifest has neither \"ptx\" nor \"cubin\"";
    return;
  }
  std::string image;
  if (!readFile(result.binaryPath, image, error))
    return;
  if (!useCubin) {
    int params = countPtxEntryParams(image, manifest.kernel);
    if (params >= 0 &&
        params != static_cast<int>(manifest.getNumKernelParams())) {
      error = "argument count mismatch: PTX entry '" + manifest.kernel +
              "' takes " + std::to_string(params) +
              " parameters, manifest has " +
              std::to_string(manifest.args.size()) + " args";
      if (!manifest.tensorMaps.empty())
        error += " and " + std::to_string(manifest.tensorMaps.size()) +
                 " tensor maps";
      if (manifest.hasDimParam())
        error += " and the i64 dim";
      return;
    }
    image.push_back('\0'); // cuModuleLoadData reads PTX as a C string
  }

  // A chip mismatch is not fatal (PTX may JIT to a newer chip) but explains
  // odd failures and timings.
  if (!manifest.target.chip.empty()) {
    std::string deviceChip = "sm_" + std::to_string(computeCapability);
    if (manifest.target.chip.compare(0, deviceChip.size(), deviceChip) != 0)
      result.note =
          "compiled for " + manifest.target.chip + ", running on " + deviceChip;
  }

  const LaunchConfig &launch = manifest.launch;
  if (launch.dynamicSharedBytes > kDefaultDynamicSharedBytes &&
      maxDynamicSharedBytes > 0 &&
      launch.dynamicSharedBytes >
          static_cast<unsigned>(maxDynamicSharedBytes)) {
    error = "kernel asks for " + std::to_string(launch.dynamicSharedBytes) +
            " B of dynamic shared memory; the device allows " +
            std::to_string(maxDynamicSharedBytes);
    return;
  }
  DeviceResources resources(driver);
  CUfunction function = nullptr;
  if (!loadKernel(driver, image, manifest.kernel, launch.dynamicSharedBytes,
                  "module '" + result.binaryPath + "'", resources.module,
                  function, error))
    return;

  // Input sets: one for a check, enough to span twice the L2 for timing.
  double bytesPerSet = static_cast<double>(manifest.getTotalArgBytes());
  size_t freeBytes = 0, totalBytes = 0;
  if (!driver.check(driver.cuMemGetInfo(&freeBytes, &totalBytes),
                    "cuMemGetInfo", error))
    return;
  double l2Bytes = manifest.target.l2Bytes > 0
                       ? manifest.target.l2Bytes
                       : static_cast<double>(l2CacheBytes);
  int numSets =
      options.checkOnly
          ? 1
          : getInputSetCount(l2Bytes, bytesPerSet, options.maxInputSets,
                             static_cast<double>(freeBytes));
  if (bytesPerSet > 0.9 * static_cast<double>(freeBytes)) {
    error = "arguments need " + std::to_string(manifest.getTotalArgBytes()) +
            " B; the device has " + std::to_string(freeBytes) + " B free";
    return;
  }
  std::vector<std::vector<CUdeviceptr>> setPointers(numSets);
  std::vector<std::vector<uint8_t>> checkBuffers;
  for (int set = 0; set < numSets; ++set) {
    std::vector<std::vector<uint8_t>> buffers =
        makeArgBuffers(manifest, options.seed, set);
    for (size_t i = 0; i < manifest.args.size(); ++i) {
      CUdeviceptr pointer = 0;
      if (!driver.check(driver.cuMemAlloc(&pointer, buffers[i].size()),
                        "cuMemAlloc", error))
        return;
      resources.allocations.push_back(pointer);
      setPointers[set].push_back(pointer);
      if (!driver.check(driver.cuMemcpyHtoD(pointer, buffers[i].data(),
                                            buffers[i].size()),
                        "cuMemcpyHtoD", error))
        return;
    }
    if (set == 0)
      checkBuffers = std::move(buffers);
  }

  // Kernel parameters (Launch.h): the args' pointers, then the maps by
  // value. Each set's maps embed that set's buffers: one encoded host copy of
  // the maps per set (set 0's for the checked launch too), kept while timing.
  std::vector<KernelParams> setParams(numSets);
  for (int set = 0; set < numSets; ++set)
    if (!setParams[set].init(driver, manifest, setPointers[set].data(), error))
      return;
  auto launchSet = [&](int set) {
    return launchKernel(driver, function, launch, nullptr,
                        setParams[set].data());
  };

  // The checked launch; errors inside the kernel surface at the sync.
  CUresult status = launchSet(0);
  if (status != CUDA_SUCCESS) {
    error = "kernel launch failed: " + driver.describe(status);
    return;
  }
  status = driver.cuCtxSynchronize();
  if (status != CUDA_SUCCESS) {
    error = "kernel failed while running: " + driver.describe(status);
    return;
  }
  for (size_t i = manifest.getNumInputs(); i < manifest.args.size(); ++i)
    if (!driver.check(driver.cuMemcpyDtoH(checkBuffers[i].data(),
                                          setPointers[0][i],
                                          checkBuffers[i].size()),
                      "cuMemcpyDtoH", error))
      return;
  result.outputs = checkOutputs(manifest, checkBuffers, options);
  if (options.checkOnly)
    return;

  // Timing: warm up (module load, clocks, TLBs), then per rep one event pair
  // around `iters` back-to-back launches rotating among the sets.
  int warmups = std::max(options.warmupLaunches, numSets);
  for (int i = 0; i < warmups; ++i) {
    if (!driver.check(launchSet(i % numSets), "kernel launch (warm-up)", error))
      return;
  }
  CUevent start = nullptr, stop = nullptr;
  if (!driver.check(driver.cuEventCreate(&start, CU_EVENT_DEFAULT),
                    "cuEventCreate", error))
    return;
  resources.events.push_back(start);
  if (!driver.check(driver.cuEventCreate(&stop, CU_EVENT_DEFAULT),
                    "cuEventCreate", error))
    return;
  resources.events.push_back(stop);
  if (!driver.check(driver.cuCtxSynchronize(), "cuCtxSynchronize (warm-up)",
                    error))
    return;
  int iters = std::max(options.iters, 1), reps = std::max(options.reps, 1);
  std::vector<double> perLaunchUs;
  for (int rep = 0; rep < reps; ++rep) {
    if (!driver.check(driver.cuEventRecord(start, nullptr), "cuEventRecord",
                      error))
      return;
    for (int i = 0; i < iters; ++i)
      if (!driver.check(launchSet((rep * iters + i) % numSets),
                        "kernel launch (timed)", error))
        return;
    float milliseconds = 0;
    if (!driver.check(driver.cuEventRecord(stop, nullptr), "cuEventRecord",
                      error) ||
        !driver.check(driver.cuEventSynchronize(stop), "cuEventSynchronize",
                      error) ||
        !driver.check(driver.cuEventElapsedTime(&milliseconds, start, stop),
                      "cuEventElapsedTime", error))
      return;
    perLaunchUs.push_back(1000.0 * milliseconds / iters);
  }
  result.timed = true;
  result.inputSets = numSets;
  result.iters = iters;
  result.reps = reps;
  result.us = getMedian(perLaunchUs);
  if (result.us > 0) {
    const CostInfo &cost = manifest.cost;
    result.tflops = (cost.tcFlops + cost.ewFlops) / (result.us * 1e6);
    result.gbps = cost.bytes / (result.us * 1e3);
    result.solMeasured = cost.tIdealUs / result.us;
  }
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

static std::string format(const char *pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), pattern, value);
  return buffer;
}

nlohmann::ordered_json sol::runtime::toJson(const RunResult &result) {
  nlohmann::ordered_json row;
  row["kernel"] = result.kernel;
  if (result.dim >= 0)
    row["dim"] = result.dim;
  row["backend"] = result.backend;
  row["device"] = result.deviceName;
  row["pass"] = result.pass;
  if (!result.error.empty())
    row["error"] = result.error;
  row["share"] = result.share;
  row["max_rel_err"] = result.maxRelError;
  row["cosine"] = result.cosine;
  bool sampled = false;
  for (const OutputCheck &check : result.outputs)
    sampled = sampled || check.isSampled();
  row["sampled"] = sampled;
  // Untimed rows say null rather than a zero that reads like a measurement.
  auto timing = [&](auto value) {
    return result.timed ? nlohmann::ordered_json(value)
                        : nlohmann::ordered_json();
  };
  row["us"] = timing(result.us);
  row["tflops"] = timing(result.tflops);
  row["gbps"] = timing(result.gbps);
  row["sol_measured"] = timing(result.solMeasured);
  row["sol_pred"] = result.solPred;
  row["t_pred_us"] = result.tPredUs;
  row["t_ideal_us"] = result.tIdealUs;
  row["input_sets"] = timing(result.inputSets);
  if (result.hostWallUs >= 0)
    row["host_wall_us"] = result.hostWallUs;
  return row;
}

std::string sol::runtime::formatResultBlock(const Manifest &manifest,
                                            const RunResult &result) {
  std::string text = "== " + result.kernel + " [" + result.backend;
  if (!result.deviceName.empty())
    text += ": " + result.deviceName;
  text += "] " + std::string(result.pass ? "PASS" : "FAIL") + "\n";
  if (!manifest.path.empty())
    text += "  manifest: " + manifest.path + "\n";
  if (!result.binaryPath.empty())
    text += "  binary:   " + result.binaryPath + "\n";
  if (manifest.hasDimParam())
    text += "  dim:      M = " + std::to_string(manifest.dim) +
            ", plans row " + std::to_string(manifest.rowMin) + ".." +
            std::to_string(manifest.rowMax) + " (kernel " + manifest.kernel +
            ")\n";
  const LaunchConfig &launch = manifest.launch;
  text +=
      "  launch:   grid [" + std::to_string(launch.grid[0]) + ", " +
      std::to_string(launch.grid[1]) + ", " + std::to_string(launch.grid[2]) +
      "] block [" + std::to_string(launch.block[0]) + ", " +
      std::to_string(launch.block[1]) + ", " + std::to_string(launch.block[2]) +
      "] smem " + std::to_string(launch.dynamicSharedBytes) + " B";
  if (launch.hasCluster())
    text += " cluster [" + std::to_string(launch.cluster[0]) + ", " +
            std::to_string(launch.cluster[1]) + ", " +
            std::to_string(launch.cluster[2]) + "]";
  text += "\n";
  for (size_t i = 0; i < manifest.tensorMaps.size(); ++i) {
    const TensorMapSpec &map = manifest.tensorMaps[i];
    text += "  tma " + std::to_string(i) + ":    arg " +
            std::to_string(map.arg) + " dims " + formatShape(map.dims) +
            " box " + formatShape(map.box) + " swizzle " +
            (map.swizzleBytes ? std::to_string(map.swizzleBytes) + "B"
                              : std::string("none")) +
            "\n";
  }
  if (!manifest.plan.empty())
    text += "  plan:     " + manifest.plan + "\n";
  if (!result.note.empty())
    text += "  note:     " + result.note + "\n";
  if (!result.error.empty())
    text += "  error:    " + result.error + "\n";
  for (const OutputCheck &check : result.outputs) {
    const CompareStats &stats = check.stats;
    text += "  output " + check.name + ": " + (stats.pass ? "PASS" : "FAIL") +
            " within tolerance " + format("%.4f%%", 100 * stats.share) +
            " (atol " + format("%g", check.tolerance.atol) + ", rtol " +
            format("%g", check.tolerance.rtol) + "), max_abs " +
            format("%.3e", stats.maxAbsError) + ", max_rel " +
            format("%.3e", stats.maxRelError) + ", cosine " +
            format("%.6f", stats.cosine) + ", rel_l2 " +
            format("%.3e", stats.relL2Error) + ", nan/inf " +
            std::to_string(stats.nonFinite) + "\n";
    if (check.isSampled())
      text += "            sampled: checked " +
              std::to_string(check.rowsChecked) + " of " +
              std::to_string(check.numRows) +
              " rows (first, last and seeded random; --ref-budget raises "
              "it)\n";
  }
  if (result.timed) {
    text += "  time:     " + format("%.2f us", result.us) + " (median of " +
            std::to_string(result.reps) + " reps x " +
            std::to_string(result.iters) + " launches, " +
            std::to_string(result.inputSets) + " input set(s) rotated), " +
            format("%.1f TFLOP/s", result.tflops) + ", " +
            format("%.1f GB/s", result.gbps) + "\n";
    if (manifest.cost.present)
      text += "  SOL:      measured " + format("%.3f", result.solMeasured) +
              " (T_ideal " + format("%.2f us", result.tIdealUs) +
              "), predicted " + format("%.3f", result.solPred) + " (T_pred " +
              format("%.2f us", result.tPredUs) + ", T_pred/T_measured " +
              format("%.3f", result.us > 0 ? result.tPredUs / result.us : 0) +
              ", bound " + manifest.cost.bound + ")\n";
  } else if (result.hostWallUs >= 0) {
    text += "  host wall time: " + format("%.1f us", result.hostWallUs) +
            " (one call of the CPU kernel; not a GPU measurement)\n";
  }
  return text;
}

std::string sol::runtime::formatTableHeader() {
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer),
                "%-32s %-5s %-4s %9s %9s %9s %10s %8s %8s %8s %8s %8s",
                "kernel", "back", "res", "share", "max_rel", "cosine", "us",
                "TFLOP/s", "GB/s", "SOL_meas", "SOL_pred", "Tp/Tm");
  return buffer;
}

std::string sol::runtime::formatTableRow(const RunResult &result) {
  char buffer[512];
  auto timing = [&](const char *pattern, double value) {
    return result.timed ? format(pattern, value) : std::string("-");
  };
  std::snprintf(
      buffer, sizeof(buffer),
      "%-32s %-5s %-4s %9s %9s %9s %10s %8s %8s %8s %8s %8s",
      result.kernel.c_str(), result.backend.c_str(),
      result.pass ? "PASS" : (result.error.empty() ? "FAIL" : "ERR"),
      result.outputs.empty() ? "-" : format("%.4f", result.share).c_str(),
      result.outputs.empty() ? "-" : format("%.2e", result.maxRelError).c_str(),
      result.outputs.empty() ? "-" : format("%.6f", result.cosine).c_str(),
      timing("%.2f", result.us).c_str(), timing("%.1f", result.tflops).c_str(),
      timing("%.0f", result.gbps).c_str(),
      timing("%.3f", result.solMeasured).c_str(),
      format("%.3f", result.solPred).c_str(),
      timing("%.3f", result.us > 0 ? result.tPredUs / result.us : 0).c_str());
  return buffer;
}
