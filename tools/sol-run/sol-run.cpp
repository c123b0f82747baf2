//===- sol-run.cpp - run, check and time compiled sol kernels -------------===//
//
// sol-run [options] <manifest.json>...
//
// Loads each kernel its manifest describes, runs it on fresh seeded inputs,
// checks it against a float64 reference and (CUDA backend) times it, printing
// measured speed of light beside the compiler's prediction. Built from plain
// C++ (no LLVM) so that it runs on the GPU machine; see
// scripts/build-runner.sh.
//
//===----------------------------------------------------------------------===//

#include "runtime/Manifest.h"
#include "runtime/Runner.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <new>
#include <string>
#include <vector>

using namespace sol::runtime;

static const char *const usage =
    "usage: sol-run [options] <manifest.json>...\n"
    "\n"
    "Runs each kernel on seeded random inputs, checks it against a float64\n"
    "reference of the manifest's program and, with the CUDA backend, times "
    "it.\n"
    "\n"
    "options:\n"
    "  --backend=cuda|host  where to run (default cuda); host calls\n"
    "                       void kernel(void*, ...) from a shared library\n"
    "  --lib=<file.so>      host kernel library (default: the manifest's\n"
    "                       \"lib\", else <manifest dir>/<kernel>.so)\n"
    "  --prefer-ptx         load the PTX even when a cubin is present\n"
    "  --seed=N             input seed (default 1)\n"
    "  --check-only         check, do not time\n"
    "  --iters=N            launches per timed rep (default 50)\n"
    "  --reps=N             timed reps; the median is reported (default 7)\n"
    "  --atol=X --rtol=X    tolerances (default 1e-2 for f16/bf16 outputs,\n"
    "                       1e-4 for f32, 0.07 for f8e4m3fn and 0.13\n"
    "                       for f8e5m2)\n"
    "  --ref-budget=N       reference multiply-adds before checking a\n"
    "                       sample of rows (default 3e8)\n"
    "  --max-host-bytes=N   refuse a kernel whose argument buffers need more\n"
    "                       host memory (default 3/4 of physical memory)\n"
    "  --dim=M[,M...]       run a dynamic manifest (\"dynamic_dim\") at each\n"
    "                       M of its range, one checked result per M\n"
    "                       (required for one; an error for a static one)\n"
    "  --json=<out.json>    write a list of result rows\n"
    "  --help               this text\n"
    "\n"
    "Exit status: 0 when every kernel passes, 1 on any failure or error\n"
    "(a malformed manifest, one too large for memory, ...), 2 on bad usage.\n";

static bool startsWith(const std::string &text, const char *prefix,
                       std::string &rest) {
  size_t length = std::strlen(prefix);
  if (text.compare(0, length, prefix) != 0)
    return false;
  rest = text.substr(length);
  return true;
}

static bool parseNumber(const std::string &text, double &value) {
  char *end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0';
}

static bool parseCount(const std::string &text, int &value) {
  double number;
  if (!parseNumber(text, number) || number < 1 || number > 1e9 ||
      number != static_cast<int>(number))
    return false;
  value = static_cast<int>(number);
  return true;
}

/// "1,16,4097": the values of --dim, each an integer in 0..2^31-1.
static bool parseDims(const std::string &text, std::vector<int64_t> &dims) {
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos
                                              ? std::string::npos
                                              : comma - start);
    char *end = nullptr;
    long long value = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || item[0] == '-' || item[0] == '+' ||
        value < 0 || value > kMaxDynamicDim)
      return false;
    dims.push_back(value);
    if (comma == std::string::npos)
      return true;
    start = comma + 1;
  }
}

/// The manifests to run for the one at `path`: itself when static (without
/// --dim), else its specialization at each of `dims`; false with the error
/// when --dim does not fit the manifest.
static bool getRuns(const Manifest &manifest, const std::vector<int64_t> &dims,
                    std::vector<Manifest> &runs, std::string &error) {
  if (!manifest.isDynamic()) {
    if (!dims.empty()) {
      error = "--dim given, but kernel '" + manifest.kernel +
              "' is static (its manifest has no \"dynamic_dim\")";
      return false;
    }
    runs.push_back(manifest);
    return true;
  }
  if (dims.empty()) {
    error = "kernel '" + manifest.kernel + "' is dynamic: pass --dim=M[,M...]" +
            " with M in its range " + formatDimRange(manifest.dynamicDim);
    return false;
  }
  for (int64_t dim : dims) {
    Manifest specialized;
    if (!specializeManifest(manifest, dim, specialized, error))
      return false;
    runs.push_back(std::move(specialized));
  }
  return true;
}

static int runMain(int argc, char **argv) {
  RunOptions options;
  std::vector<int64_t> dims;
  std::string jsonPath;
  std::vector<std::string> manifestPaths;
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i], value;
    bool ok = true;
    if (argument == "--help" || argument == "-h") {
      std::fputs(usage, stdout);
      return 0;
    } else if (startsWith(argument, "--backend=", value)) {
      if (value == "cuda")
        options.backend = Backend::Cuda;
      else if (value == "host")
        options.backend = Backend::Host;
      else
        ok = false;
    } else if (startsWith(argument, "--lib=", value)) {
      options.libraryOverride = value;
    } else if (argument == "--prefer-ptx") {
      options.preferPtx = true;
    } else if (argument == "--check-only") {
      options.checkOnly = true;
    } else if (startsWith(argument, "--seed=", value)) {
      char *end = nullptr;
      options.seed = std::strtoull(value.c_str(), &end, 10);
      ok = !value.empty() && *end == '\0';
    } else if (startsWith(argument, "--iters=", value)) {
      ok = parseCount(value, options.iters);
    } else if (startsWith(argument, "--reps=", value)) {
      ok = parseCount(value, options.reps);
    } else if (startsWith(argument, "--atol=", value)) {
      ok = parseNumber(value, options.atol) && options.atol >= 0;
    } else if (startsWith(argument, "--rtol=", value)) {
      ok = parseNumber(value, options.rtol) && options.rtol >= 0;
    } else if (startsWith(argument, "--ref-budget=", value)) {
      ok = parseNumber(value, options.referenceBudget) &&
           options.referenceBudget > 0;
    } else if (startsWith(argument, "--max-host-bytes=", value)) {
      double bytes;
      ok = parseNumber(value, bytes) && bytes >= 1 && bytes < 0x1p64;
      if (ok)
        options.maxHostBytes = static_cast<uint64_t>(bytes);
    } else if (startsWith(argument, "--dim=", value)) {
      ok = parseDims(value, dims);
    } else if (startsWith(argument, "--json=", value)) {
      jsonPath = value;
      ok = !value.empty();
    } else if (argument.size() > 1 && argument[0] == '-') {
      std::fprintf(stderr, "sol-run: unknown option '%s'\n%s", argv[i], usage);
      return 2;
    } else {
      manifestPaths.push_back(argument);
    }
    if (!ok) {
      std::fprintf(stderr, "sol-run: bad value in '%s'\n", argv[i]);
      return 2;
    }
  }
  if (manifestPaths.empty()) {
    std::fputs(usage, stderr);
    return 2;
  }

  Runner runner(options);
  std::vector<RunResult> results;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  int passed = 0, failed = 0;
  for (const std::string &path : manifestPaths) {
    Manifest manifest;
    std::vector<Manifest> runs;
    std::string error;
    if (!loadManifest(path, manifest, error) ||
        !getRuns(manifest, dims, runs, error)) {
      RunResult result;
      result.kernel = path;
      result.manifestPath = path;
      result.backend = options.backend == Backend::Host ? "host" : "cuda";
      result.error = error;
      std::printf("== %s FAIL\n  error:    %s\n\n", path.c_str(),
                  error.c_str());
      std::fflush(stdout);
      ++failed;
      rows.push_back(toJson(result));
      results.push_back(std::move(result));
      continue;
    }
    for (const Manifest &run : runs) {
      RunResult result = runner.run(run);
      std::printf("%s\n", formatResultBlock(run, result).c_str());
      std::fflush(stdout);
      (result.pass ? passed : failed) += 1;
      rows.push_back(toJson(result));
      results.push_back(std::move(result));
    }
  }

  std::printf("%s\n", formatTableHeader().c_str());
  for (const RunResult &result : results)
    std::printf("%s\n", formatTableRow(result).c_str());
  // The seed makes a failure on fresh random inputs reproducible.
  std::printf("sol-run: %d passed, %d failed (seed %llu)\n", passed, failed,
              static_cast<unsigned long long>(options.seed));

  if (!jsonPath.empty()) {
    std::ofstream stream(jsonPath);
    // Error text may hold bytes from a file or a JIT log that are not UTF-8:
    // replaced, not thrown over.
    stream << rows.dump(2, ' ', /*ensure_ascii=*/false,
                        nlohmann::ordered_json::error_handler_t::replace)
           << "\n";
    if (!stream) {
      std::fprintf(stderr, "sol-run: cannot write '%s'\n", jsonPath.c_str());
      return 1;
    }
  }
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  // The runner checks sizes before it allocates (--max-host-bytes), so this
  // is the last line of defence: whatever a manifest holds, sol-run exits
  // with a message and status 1, never with an uncaught exception's abort.
  try {
    return runMain(argc, argv);
  } catch (const std::bad_alloc &) {
    std::fflush(stdout);
    std::fputs("sol-run: out of memory\n", stderr);
  } catch (const std::exception &error) {
    std::fflush(stdout);
    std::fprintf(stderr, "sol-run: internal error: %s\n", error.what());
  }
  return 1;
}
