//===- Manifest.cpp - parse and validate kernel manifests -----------------===//

#include "runtime/Manifest.h"

#include "third_party/nlohmann/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <set>

using namespace sol::runtime;

/// Objects keep their key order, so that a plan prints as the compiler wrote
/// it.
using Json = nlohmann::ordered_json;

int64_t sol::runtime::getNumElements(const Shape &shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

int64_t sol::runtime::getCheckedNumElements(const Shape &shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || (dim > 0 && count > kMaxElements / dim))
      return -1;
    count *= dim;
  }
  return count;
}

std::string sol::runtime::formatShape(const Shape &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

bool sol::runtime::isBinaryOp(OpKind kind) {
  return kind >= OpKind::Add && kind <= OpKind::Min;
}

bool sol::runtime::isUnaryOp(OpKind kind) {
  return kind >= OpKind::Neg && kind <= OpKind::Cast;
}

namespace {
struct OpNameEntry {
  const char *name;
  OpKind kind;
};
} // namespace

static const OpNameEntry opNames[] = {
    {"arg", OpKind::Arg},         {"constant", OpKind::Constant},
    {"matmul", OpKind::Matmul},   {"add", OpKind::Add},
    {"sub", OpKind::Sub},         {"mul", OpKind::Mul},
    {"div", OpKind::Div},         {"max", OpKind::Max},
    {"min", OpKind::Min},         {"neg", OpKind::Neg},
    {"abs", OpKind::Abs},         {"exp", OpKind::Exp},
    {"tanh", OpKind::Tanh},       {"erf", OpKind::Erf},
    {"sigmoid", OpKind::Sigmoid}, {"relu", OpKind::Relu},
    {"silu", OpKind::Silu},       {"gelu", OpKind::Gelu},
    {"cast", OpKind::Cast},
};

const char *sol::runtime::getOpName(OpKind kind) {
  for (const OpNameEntry &entry : opNames)
    if (entry.kind == kind)
      return entry.name;
  return "?";
}

size_t Manifest::getNumInputs() const {
  size_t count = 0;
  for (const ArgSpec &arg : args)
    count += !arg.isOutput;
  return count;
}

size_t Manifest::getTotalArgBytes() const {
  size_t bytes = 0;
  for (const ArgSpec &arg : args)
    bytes += arg.getNumBytes();
  return bytes;
}

bool sol::runtime::broadcastShapes(const Shape &lhs, const Shape &rhs,
                                   Shape &result) {
  size_t rank = std::max(lhs.size(), rhs.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Align trailing dims; a missing leading dim acts as 1.
    int64_t lhsDim = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t rhsDim = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    if (lhsDim != rhsDim && lhsDim != 1 && rhsDim != 1)
      return false;
    result[rank - 1 - i] = lhsDim == 1 ? rhsDim : lhsDim;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// JSON text (nlohmann/json, third_party/nlohmann: the runner builds without
// LLVM, so llvm::json is not there)
//===----------------------------------------------------------------------===//

/// The member `key` of `object`, or null when it has none (or is no object).
static const Json *getMember(const Json &object, const std::string &key) {
  if (!object.is_object())
    return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

/// The deepest nesting a manifest may have (its real depth is 4): the parser
/// itself keeps its stack on the heap, but printing and comparing a value
/// recurse, so a fuzzer's 10^8 brackets must not get that far.
constexpr int kMaxJsonDepth = 256;

/// Parses `text` into `result`; false with nlohmann's "parse error at line L,
/// column C: ..." otherwise. A key twice in one object is refused too (the
/// library would keep the last silently, and a manifest then says two
/// things), and so is nesting deeper than kMaxJsonDepth.
static bool parseJsonText(const std::string &text, Json &result,
                          std::string &error) {
  // One set of keys per open container (arrays get an unused one).
  std::vector<std::set<std::string>> keys;
  std::string duplicate;
  bool tooDeep = false;
  auto callback = [&](int depth, Json::parse_event_t event, Json &parsed) {
    // Returning false drops what is too deep instead of storing it.
    if (depth > kMaxJsonDepth || tooDeep) {
      tooDeep = true;
      return false;
    }
    switch (event) {
    case Json::parse_event_t::object_start:
    case Json::parse_event_t::array_start:
      keys.emplace_back();
      break;
    case Json::parse_event_t::object_end:
    case Json::parse_event_t::array_end:
      if (!keys.empty())
        keys.pop_back();
      break;
    case Json::parse_event_t::key:
      if (!keys.empty() && duplicate.empty() &&
          !keys.back().insert(parsed.get<std::string>()).second)
        duplicate = parsed.get<std::string>();
      break;
    case Json::parse_event_t::value:
      break;
    }
    return true;
  };
  try {
    result = Json::parse(text, callback);
  } catch (const Json::exception &e) {
    // "[json.exception.parse_error.101] parse error at ...": the id is noise.
    error = e.what();
    size_t close = error.find("] ");
    if (error.compare(0, 16, "[json.exception.") == 0 &&
        close != std::string::npos)
      error = error.substr(close + 2);
    return false;
  }
  if (tooDeep) {
    error = "nesting deeper than " + std::to_string(kMaxJsonDepth);
    return false;
  }
  if (!duplicate.empty()) {
    error = "duplicate key \"" + duplicate + "\"";
    return false;
  }
  return true;
}

bool sol::runtime::readFile(const std::string &path, std::string &contents,
                            std::string &error) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    error = "cannot open '" + path + "'";
    return false;
  }
  // Manifests are kilobytes: a cap keeps a wrong path (/dev/zero, a huge
  // binary) from reading until memory runs out.
  constexpr size_t maxBytes = size_t(256) << 20;
  contents.clear();
  char chunk[65536];
  while (stream.read(chunk, sizeof(chunk)) || stream.gcount() > 0) {
    contents.append(chunk, static_cast<size_t>(stream.gcount()));
    if (contents.size() > maxBytes) {
      contents.clear();
      error = "'" + path + "' is larger than 256 MiB";
      return false;
    }
  }
  if (stream.bad()) {
    error = "cannot read '" + path + "'";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Field readers: each names the field it failed on.
//===----------------------------------------------------------------------===//

namespace {

class FieldReader {
public:
  explicit FieldReader(std::string &error) : error(error) {}

  bool fail(const std::string &message) {
    error = message;
    return false;
  }

  const Json *require(const Json &object, const std::string &key,
                      const std::string &where) {
    const Json *value = getMember(object, key);
    if (!value)
      fail(where + ": missing field \"" + key + "\"");
    return value;
  }

  bool readString(const Json &object, const std::string &key,
                  const std::string &where, std::string &result) {
    const Json *value = require(object, key, where);
    if (!value)
      return false;
    if (!value->is_string())
      return fail(where + ": \"" + key + "\" must be a string");
    result = value->get_ref<const std::string &>();
    return true;
  }

  bool readNumber(const Json &object, const std::string &key,
                  const std::string &where, double &result) {
    const Json *value = require(object, key, where);
    if (!value)
      return false;
    if (!value->is_number())
      return fail(where + ": \"" + key + "\" must be a number");
    result = value->get<double>();
    return true;
  }

  /// A constant's "value": a number, or "inf", "-inf" or "nan" (JSON has
  /// none of those; sol-write-manifests spells them so).
  bool readConstantValue(const Json &object, const std::string &where,
                         double &result) {
    const Json *value = require(object, "value", where);
    if (!value)
      return false;
    if (value->is_number()) {
      result = value->get<double>();
      return true;
    }
    if (value->is_string()) {
      const std::string &text = value->get_ref<const std::string &>();
      if (text == "inf" || text == "-inf" || text == "nan") {
        result = text == "nan"   ? std::numeric_limits<double>::quiet_NaN()
                 : text == "inf" ? std::numeric_limits<double>::infinity()
                                 : -std::numeric_limits<double>::infinity();
        return true;
      }
    }
    return fail(where + ": \"value\" must be a number, \"inf\", \"-inf\" or "
                        "\"nan\"");
  }

  /// Reads an integer in [minimum, maximum]; every integer a manifest holds
  /// goes through here, so none is truncated or wraps on the way to an int.
  /// JSON integers arrive as int64 or uint64, others (1e300, 2.0) as double.
  bool readInteger(const Json &value, const std::string &where, int64_t minimum,
                   int64_t maximum, int64_t &result) {
    auto outOfRange = [&] {
      return fail(where + " = " + value.dump() + " out of range (" +
                  std::to_string(minimum) + " to " + std::to_string(maximum) +
                  ")");
    };
    if (value.is_number_unsigned()) {
      uint64_t number = value.get<uint64_t>();
      if (number > static_cast<uint64_t>(maximum) ||
          static_cast<int64_t>(number) < minimum)
        return outOfRange();
      result = static_cast<int64_t>(number);
      return true;
    }
    if (value.is_number_integer()) {
      int64_t number = value.get<int64_t>();
      if (number < minimum || number > maximum)
        return outOfRange();
      result = number;
      return true;
    }
    if (!value.is_number_float() ||
        value.get<double>() != std::floor(value.get<double>()))
      return fail(where + " must be an integer, got " + describe(value));
    // Compared in double: both bounds are exact there (|bound| <= 2^53).
    double number = value.get<double>();
    if (number < static_cast<double>(minimum) ||
        number > static_cast<double>(maximum))
      return outOfRange();
    result = static_cast<int64_t>(number);
    return true;
  }

  bool readIntegerList(const Json &object, const std::string &key,
                       const std::string &where, int64_t minimum,
                       std::vector<int64_t> &result) {
    return readIntegerList(object, key, where, minimum, kMaxManifestInteger,
                           result);
  }

  bool readIntegerList(const Json &object, const std::string &key,
                       const std::string &where, int64_t minimum,
                       int64_t maximum, std::vector<int64_t> &result) {
    const Json *value = require(object, key, where);
    if (!value)
      return false;
    if (!value->is_array())
      return fail(where + ": \"" + key + "\" must be an array of integers");
    result.clear();
    for (size_t i = 0; i < value->size(); ++i) {
      int64_t element;
      if (!readInteger((*value)[i],
                       where + ": \"" + key + "\"[" + std::to_string(i) + "]",
                       minimum, maximum, element))
        return false;
      result.push_back(element);
    }
    return true;
  }

  bool readDType(const Json &object, const std::string &where, DType &dtype) {
    std::string name;
    if (!readString(object, "dtype", where, name))
      return false;
    if (!parseDType(name, dtype))
      return fail(where + ": unknown dtype \"" + name +
                  "\" (expected f16, bf16, f32, f8e4m3fn or f8e5m2)");
    return true;
  }

  /// A shape's element count, refusing one above kMaxElements (so that
  /// element and byte counts stay exact in int64, size_t and double); a
  /// dynamic shape at the range's max.
  bool checkShape(const Shape &shape, const std::string &where) {
    bool isDynamic = !shape.empty() && shape[0] == kDynamicDim;
    Shape largest = shape;
    if (isDynamic)
      largest[0] = std::max<int64_t>(dynamic.max, 1);
    if (getCheckedNumElements(largest) < 0)
      return fail(where + ": \"shape\" " + formatShape(shape) +
                  " has more than 2^" + std::to_string(kMaxElementsLog2) +
                  " elements" +
                  (isDynamic ? " at the range's max " +
                                   std::to_string(dynamic.max)
                             : std::string()));
    return true;
  }

  /// Reads "shape": integers >= 1, except that in a dynamic manifest dim 0
  /// may be kDynamicDim (-1), the dynamic dim; checked by checkShape.
  bool readShape(const Json &object, const std::string &where, Shape &shape) {
    const Json *value = require(object, "shape", where);
    if (!value)
      return false;
    if (!value->is_array())
      return fail(where + ": \"shape\" must be an array of integers");
    shape.clear();
    for (size_t i = 0; i < value->size(); ++i) {
      const Json &element = (*value)[i];
      std::string at = where + ": \"shape\"[" + std::to_string(i) + "]";
      if (element.is_number() &&
          element.get<double>() == static_cast<double>(kDynamicDim)) {
        if (!dynamic.present)
          return fail(at + " = -1 (a dynamic dim) but the manifest has no "
                           "\"dynamic_dim\"");
        if (i != 0)
          return fail(at + " = -1: only the outermost dim may be dynamic");
        shape.push_back(kDynamicDim);
        continue;
      }
      int64_t dim;
      if (!readInteger(element, at, 1, kMaxManifestInteger, dim))
        return false;
      shape.push_back(dim);
    }
    return checkShape(shape, where);
  }

  /// The range of a dynamic manifest (not present in a static one): shapes
  /// may hold kDynamicDim when it is.
  DynamicDimInfo dynamic;

  /// A short rendering of a JSON value for messages.
  static std::string describe(const Json &value) {
    if (value.is_array())
      return "an array";
    if (value.is_object())
      return "an object";
    std::string text = value.dump();
    if (value.is_string() && text.size() > 40)
      return text.substr(0, 37) + "...\"";
    return text;
  }

private:
  std::string &error;
};

} // namespace

static std::string joinPath(const std::string &directory,
                            const std::string &path) {
  if (path.empty() || path[0] == '/' || directory.empty())
    return path;
  return directory + "/" + path;
}

/// The most blocks a grid may have along dim `axis` (CUDA: x below 2^31, y
/// and z to 65535).
static int64_t getMaxGridDim(size_t axis) {
  return axis == 0 ? 0x7fffffff : 65535;
}

/// Reads the launch object `value`; messages start with `where` ("launch",
/// "plans[1].launch").
static bool parseLaunchObject(FieldReader &reader, const Json &value,
                              const std::string &where, LaunchConfig &launch) {
  std::vector<int64_t> grid, block;
  // The CUDA limits: grid.x below 2^31, grid.y and .z to 65535, blocks of at
  // most 1024 threads (checked again by the driver, with a vaguer message).
  if (!reader.readIntegerList(value, "grid", where, 1, 0x7fffffff, grid) ||
      !reader.readIntegerList(value, "block", where, 1, 1024, block))
    return false;
  if (grid.empty() || grid.size() > 3 || block.empty() || block.size() > 3)
    return reader.fail(where + ": \"grid\" and \"block\" need 1 to 3 entries");
  for (size_t i = 1; i < grid.size(); ++i)
    if (grid[i] > getMaxGridDim(i))
      return reader.fail(where + ": \"grid\"[" + std::to_string(i) +
                         "] = " + std::to_string(grid[i]) +
                         " out of range (1 to 65535)");
  int64_t threads = 1;
  for (int64_t dim : block)
    threads *= dim;
  if (threads > 1024)
    return reader.fail(where + ": \"block\" " + formatShape(block) + " has " +
                       std::to_string(threads) + " threads (at most 1024)");
  for (size_t i = 0; i < grid.size(); ++i)
    launch.grid[i] = static_cast<unsigned>(grid[i]);
  for (size_t i = 0; i < block.size(); ++i)
    launch.block[i] = static_cast<unsigned>(block[i]);
  launch.dynamicSharedBytes = 0;
  if (const Json *smem = getMember(value, "smem")) {
    int64_t bytes;
    if (!reader.readInteger(*smem, where + ": \"smem\"", 0, 0x7fffffff, bytes))
      return false;
    launch.dynamicSharedBytes = static_cast<unsigned>(bytes);
  }
  if (!getMember(value, "cluster"))
    return true;
  std::vector<int64_t> cluster;
  if (!reader.readIntegerList(value, "cluster", where, 1, 0x7fffffff, cluster))
    return false;
  if (cluster.empty() || cluster.size() > 3)
    return reader.fail(where + ": \"cluster\" needs 1 to 3 entries");
  for (size_t i = 0; i < cluster.size(); ++i)
    launch.cluster[i] = static_cast<unsigned>(
        std::min<int64_t>(cluster[i], kMaxPortableClusterSize + 1));
  auto formatDims = [](const unsigned dims[3]) {
    return formatShape({dims[0], dims[1], dims[2]});
  };
  // The driver rejects both at launch with a bare CUDA_ERROR_INVALID_VALUE
  // (or _CLUSTER_SIZE); say which numbers are wrong instead.
  unsigned size = 1;
  for (int i = 0; i < 3; ++i)
    size *= launch.cluster[i];
  if (size > kMaxPortableClusterSize)
    return reader.fail(where + ": \"cluster\" " + formatShape(cluster) +
                       " has more than " +
                       std::to_string(kMaxPortableClusterSize) +
                       " blocks (the portable cluster size)");
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] % launch.cluster[i] != 0)
      return reader.fail(where + ": \"cluster\" " +
                         formatDims(launch.cluster) + " does not divide \"grid\" " +
                         formatDims(launch.grid) + " (dim " +
                         std::to_string(i) + ")");
  return true;
}

static bool parseLaunch(FieldReader &reader, const Json &root,
                        LaunchConfig &launch) {
  const Json *value = reader.require(root, "launch", "manifest");
  if (!value)
    return false;
  if (!value->is_object())
    return reader.fail("manifest: \"launch\" must be an object");
  return parseLaunchObject(reader, *value, "launch", launch);
}

static bool parseArgs(FieldReader &reader, const Json &root,
                      std::vector<ArgSpec> &args) {
  const Json *value = reader.require(root, "args", "manifest");
  if (!value)
    return false;
  if (!value->is_array() || value->empty())
    return reader.fail("manifest: \"args\" must be a non-empty array");
  bool seenOutput = false;
  for (size_t i = 0; i < value->size(); ++i) {
    const Json &entry = (*value)[i];
    std::string where = "args[" + std::to_string(i) + "]";
    if (!entry.is_object())
      return reader.fail(where + " must be an object");
    ArgSpec arg;
    std::string role;
    if (!reader.readString(entry, "name", where, arg.name) ||
        !reader.readString(entry, "role", where, role) ||
        !reader.readDType(entry, where, arg.dtype) ||
        !reader.readShape(entry, where, arg.shape))
      return false;
    if (role != "input" && role != "output")
      return reader.fail(where + ": role \"" + role +
                         "\" must be \"input\" or \"output\"");
    arg.isOutput = role == "output";
    // The call ABI passes inputs first; a manifest that interleaves them
    // would have its arguments bound to the wrong buffers.
    if (!arg.isOutput && seenOutput)
      return reader.fail(where + ": input \"" + arg.name +
                         "\" follows an output (inputs come first)");
    seenOutput |= arg.isOutput;
    args.push_back(std::move(arg));
  }
  if (!seenOutput)
    return reader.fail("manifest: \"args\" has no output");
  return true;
}

bool sol::runtime::verifyTensorMapSpec(const TensorMapSpec &spec,
                                       const std::vector<ArgSpec> &args,
                                       std::string &error) {
  auto fail = [&](const std::string &message) {
    error = message;
    return false;
  };
  if (spec.arg < 0 || spec.arg >= static_cast<int>(args.size()))
    return fail("\"arg\" " + std::to_string(spec.arg) + " out of range (" +
                std::to_string(args.size()) + " args)");
  const ArgSpec &arg = args[spec.arg];
  std::string argName = "arg " + std::to_string(spec.arg) + " (\"" + arg.name +
                        "\", " + getDTypeName(arg.dtype) + " " +
                        formatShape(arg.shape) + ")";
  if (spec.dtype != arg.dtype)
    return fail(std::string("\"dtype\" ") + getDTypeName(spec.dtype) +
                " differs from " + argName);
  size_t rank = spec.dims.size();
  if (rank < 1 || rank > 5)
    return fail("\"dims\" needs 1 to 5 entries, got " + std::to_string(rank));
  if (spec.box.size() != rank)
    return fail("\"box\" has " + std::to_string(spec.box.size()) +
                " entries but \"dims\" has " + std::to_string(rank));
  // TMA limits (cuTensorMapEncodeTiled): dims up to 2^32, byte strides that
  // are multiples of 16 below 2^40, boxes of 1 to 256 elements whose inner
  // row is a multiple of 16 bytes and fits the swizzle span.
  int64_t elementBytes = static_cast<int64_t>(getDTypeSize(spec.dtype));
  int64_t stride = elementBytes;
  // In double: five dims of up to 2^32 overflow int64.
  double count = 1;
  for (size_t i = 0; i < rank; ++i) {
    int64_t dim = spec.dims[i];
    if (dim < 1 || dim > (int64_t(1) << 32))
      return fail("\"dims\"[" + std::to_string(i) +
                  "] = " + std::to_string(dim) + " out of range (1 to 2^32)");
    count *= static_cast<double>(dim);
    if (i + 1 == rank)
      break;
    // The byte stride of dim i + 1.
    if (static_cast<double>(stride) * static_cast<double>(dim) >= 0x1p40)
      return fail("\"dims\" " + formatShape(spec.dims) +
                  ": the stride of dim " + std::to_string(i + 1) +
                  " is 2^40 bytes or more");
    stride *= dim;
    if (stride % 16 != 0)
      return fail("\"dims\" " + formatShape(spec.dims) +
                  ": the stride of dim " + std::to_string(i + 1) + " is " +
                  std::to_string(stride) +
                  " bytes, not a multiple of 16 (TMA needs 16-byte strides)");
  }
  if (count != static_cast<double>(arg.getNumElements()))
    return fail("\"dims\" " + formatShape(spec.dims) + " hold " +
                (count < 0x1p62 ? std::to_string(static_cast<int64_t>(count))
                                : std::string("over 2^62")) +
                " elements but " + argName + " has " +
                std::to_string(arg.getNumElements()));
  for (size_t i = 0; i < rank; ++i)
    if (spec.box[i] < 1 || spec.box[i] > 256)
      return fail("\"box\"[" + std::to_string(i) + "] = " +
                  std::to_string(spec.box[i]) + " out of range (1 to 256)");
  int64_t innerBytes = spec.box[0] * elementBytes;
  if (innerBytes % 16 != 0)
    return fail("\"box\"[0] = " + std::to_string(spec.box[0]) + " spans " +
                std::to_string(innerBytes) +
                " bytes, not a multiple of 16 (TMA copies 16-byte units)");
  if (spec.swizzleBytes != 0 && spec.swizzleBytes != 32 &&
      spec.swizzleBytes != 64 && spec.swizzleBytes != 128)
    return fail("\"swizzle\" of " + std::to_string(spec.swizzleBytes) +
                " bytes (expected none, 32B, 64B or 128B)");
  if (spec.swizzleBytes != 0 && innerBytes > spec.swizzleBytes)
    return fail("\"box\"[0] = " + std::to_string(spec.box[0]) + " spans " +
                std::to_string(innerBytes) + " bytes, more than the " +
                std::to_string(spec.swizzleBytes) + "B \"swizzle\" span");
  if (spec.l2PromotionBytes != 0 && spec.l2PromotionBytes != 64 &&
      spec.l2PromotionBytes != 128 && spec.l2PromotionBytes != 256)
    return fail("\"l2_promotion\" of " + std::to_string(spec.l2PromotionBytes) +
                " bytes (expected none, 64B, 128B or 256B)");
  return true;
}

/// Reads optional string `key` of `entry` (else `fallback`) as one of
/// `names`, storing the matching entry of `values`.
static bool readChoice(FieldReader &reader, const Json &entry,
                       const std::string &key, const std::string &where,
                       const char *fallback,
                       std::initializer_list<const char *> names,
                       std::initializer_list<unsigned> values,
                       unsigned &result) {
  std::string name = fallback;
  if (getMember(entry, key) && !reader.readString(entry, key, where, name))
    return false;
  std::string expected;
  for (size_t i = 0; i < names.size(); ++i) {
    if (name == names.begin()[i]) {
      result = values.begin()[i];
      return true;
    }
    expected += std::string(i ? (i + 1 == names.size() ? " or " : ", ") : "") +
                "\"" + names.begin()[i] + "\"";
  }
  return reader.fail(where + ": \"" + key + "\" must be " + expected +
                     ", got \"" + name + "\"");
}

/// Reads the "dims" of a tensor map of a dynamic manifest's row: integers
/// >= 1 and at most one kDynamicDim, the dim that follows M.
static bool readDynamicMapDims(FieldReader &reader, const Json &entry,
                               const std::string &where,
                               std::vector<int64_t> &dims) {
  if (!reader.readIntegerList(entry, "dims", where, kDynamicDim, dims))
    return false;
  int dynamicCount = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0)
      return reader.fail(where + ": \"dims\"[" + std::to_string(i) +
                         "] = 0 out of range (1 to " +
                         std::to_string(kMaxManifestInteger) +
                         ", or -1 for the dim that follows M)");
    dynamicCount += dims[i] == kDynamicDim;
  }
  if (dynamicCount > 1)
    return reader.fail(where + ": \"dims\" " + formatShape(dims) +
                       " has more than one -1 (one dim follows M)");
  return true;
}

/// Reads the "tensor_maps" array `value` of `owner` ("manifest", or a row
/// "plans[i]"). In a dynamic manifest's row (`dynamicDims`) a map's dims may
/// hold kDynamicDim and are checked once the rows are read, at each row's
/// m_max; otherwise each map is checked against `args` here.
static bool parseTensorMapArray(FieldReader &reader, const Json *value,
                                const std::string &owner, bool dynamicDims,
                                const std::vector<ArgSpec> &args,
                                std::vector<TensorMapSpec> &maps) {
  if (!value || value->is_null())
    return true; // optional: the kernel takes only the args
  if (!value->is_array())
    return reader.fail(owner + ": \"tensor_maps\" must be an array");
  std::string key =
      owner == "manifest" ? "tensor_maps" : owner + ".tensor_maps";
  for (size_t i = 0; i < value->size(); ++i) {
    const Json &entry = (*value)[i];
    std::string where = key + "[" + std::to_string(i) + "]";
    if (!entry.is_object())
      return reader.fail(where + " must be an object");
    TensorMapSpec map;
    const Json *arg = reader.require(entry, "arg", where);
    int64_t argIndex;
    if (!arg ||
        !reader.readInteger(*arg, where + ": \"arg\"", 0, 0x7fffffff,
                            argIndex) ||
        !reader.readDType(entry, where, map.dtype) ||
        !(dynamicDims
              ? readDynamicMapDims(reader, entry, where, map.dims)
              : reader.readIntegerList(entry, "dims", where, 1, map.dims)) ||
        !reader.readIntegerList(entry, "box", where, 1, map.box))
      return false;
    map.arg = static_cast<int>(argIndex);
    unsigned oobFill = 0;
    if (!readChoice(reader, entry, "swizzle", where, "none",
                    {"none", "32B", "64B", "128B"}, {0, 32, 64, 128},
                    map.swizzleBytes) ||
        !readChoice(reader, entry, "l2_promotion", where, "none",
                    {"none", "64B", "128B", "256B"}, {0, 64, 128, 256},
                    map.l2PromotionBytes) ||
        !readChoice(reader, entry, "oob_fill", where, "zero", {"zero", "nan"},
                    {0, 1}, oobFill))
      return false;
    map.oobFillNan = oobFill == 1;
    std::string message;
    if (!dynamicDims && !verifyTensorMapSpec(map, args, message))
      return reader.fail(where + ": " + message);
    maps.push_back(std::move(map));
  }
  return true;
}

static bool parseTensorMaps(FieldReader &reader, const Json &root,
                            const std::vector<ArgSpec> &args,
                            std::vector<TensorMapSpec> &maps) {
  return parseTensorMapArray(reader, getMember(root, "tensor_maps"), "manifest",
                             /*dynamicDims=*/false, args, maps);
}

static bool parseOp(FieldReader &reader, const Json &entry, size_t id,
                    ProgramOp &op) {
  std::string where = "program[" + std::to_string(id) + "]";
  if (!entry.is_object())
    return reader.fail(where + " must be an object");
  std::string name;
  if (!reader.readString(entry, "op", where, name))
    return false;
  bool known = false;
  for (const OpNameEntry &nameEntry : opNames) {
    if (name == nameEntry.name) {
      op.kind = nameEntry.kind;
      known = true;
    }
  }
  if (!known)
    return reader.fail(where + ": unknown op \"" + name + "\"");
  where += " (" + name + ")";

  // Every op but arg carries its result type; arg takes it from the argument.
  if (op.kind != OpKind::Arg) {
    if (!reader.readDType(entry, where, op.dtype))
      return false;
    std::vector<int64_t> shape;
    if (op.kind == OpKind::Constant && !getMember(entry, "shape"))
      shape.clear(); // a constant is rank 0 unless it says otherwise
    else if (!reader.readShape(entry, where, shape))
      return false;
    op.shape = shape;
  }

  switch (op.kind) {
  case OpKind::Arg: {
    const Json *index = reader.require(entry, "index", where);
    int64_t value;
    if (!index || !reader.readInteger(*index, where + ": \"index\"", 0,
                                      0x7fffffff, value))
      return false;
    op.argIndex = static_cast<int>(value);
    return true;
  }
  case OpKind::Constant:
    if (!op.shape.empty())
      return reader.fail(where + ": a constant must be rank 0 (it broadcasts)");
    return reader.readConstantValue(entry, where, op.constantValue);
  default:
    break;
  }

  std::vector<int64_t> operands;
  if (!reader.readIntegerList(entry, "operands", where, 0, operands))
    return false;
  size_t expected = op.kind == OpKind::Matmul || isBinaryOp(op.kind) ? 2 : 1;
  if (operands.size() != expected)
    return reader.fail(where + ": expected " + std::to_string(expected) +
                       " operands, got " + std::to_string(operands.size()));
  for (int64_t operand : operands) {
    // Values are defined in order; pointing at itself or later is a cycle.
    if (operand >= static_cast<int64_t>(id))
      return reader.fail(where + ": operand " + std::to_string(operand) +
                         " out of range (must name an earlier value, < " +
                         std::to_string(id) + ")");
    op.operands.push_back(static_cast<int>(operand));
  }
  if (op.kind == OpKind::Matmul) {
    if (const Json *transpose = getMember(entry, "transpose_b")) {
      if (!transpose->is_boolean())
        return reader.fail(where + ": \"transpose_b\" must be a bool");
      op.transposeB = transpose->get<bool>();
    }
    struct {
      const char *key;
      int *field;
    } scales[] = {{"scale_a", &op.scaleA},
                  {"scale_b", &op.scaleB},
                  {"scale_out", &op.scaleOut}};
    for (auto &scale : scales) {
      const Json *value = getMember(entry, scale.key);
      if (!value)
        continue;
      int64_t scaleId;
      // Like an operand, a scale names an earlier value.
      if (!reader.readInteger(*value, where + ": \"" + scale.key + "\"", 0,
                              static_cast<int64_t>(id) - 1, scaleId))
        return false;
      *scale.field = static_cast<int>(scaleId);
    }
  }
  if (op.kind == OpKind::Gelu) {
    std::string approximate = "erf";
    if (getMember(entry, "approximate") &&
        !reader.readString(entry, "approximate", where, approximate))
      return false;
    if (approximate != "erf" && approximate != "tanh" && approximate != "none")
      return reader.fail(where +
                         ": \"approximate\" must be \"erf\" or "
                         "\"tanh\", got \"" +
                         approximate + "\"");
    op.geluTanh = approximate == "tanh";
  }
  return true;
}

/// The shapes docs/fp8.md gives an fp8 matmul's scales: f32 each; scale_a
/// one value ([] or [1]) or one per row of A (A's shape with K = 1);
/// scale_b one value or one per column ([N]); scale_out one value, and
/// only for an fp8 result. A weight-only fp8 matmul (16-bit A, fp8 B)
/// takes scale_b alone. The reference reads them by these shapes.
static bool verifyMatmulScales(FieldReader &reader, const Manifest &manifest,
                               const ProgramOp &op, const std::string &where) {
  auto isPerTensor = [](const Shape &shape) {
    return shape.empty() || shape == Shape{1};
  };
  const Shape &a = manifest.program[op.operands[0]].shape;
  bool fp8 = isFp8DType(manifest.program[op.operands[0]].dtype);
  bool weightOnly = !fp8 && isFp8DType(manifest.program[op.operands[1]].dtype);
  struct {
    const char *name;
    int id;
  } scales[] = {{"scale_a", op.scaleA},
                {"scale_b", op.scaleB},
                {"scale_out", op.scaleOut}};
  for (auto &scale : scales) {
    if (scale.id < 0)
      continue;
    const ProgramOp &value = manifest.program[scale.id];
    std::string prefix = where + ": \"" + scale.name + "\" ";
    if (weightOnly && scale.id != op.scaleB)
      return reader.fail(prefix + "on a weight-only fp8 matmul, which "
                                  "takes scale_b alone");
    if (!fp8 && !weightOnly)
      return reader.fail(prefix + "on a matmul of non-fp8 operands");
    if (value.dtype != DType::F32)
      return reader.fail(prefix + "is " + getDTypeName(value.dtype) +
                         ", not f32");
    Shape perRow(a.begin(), a.end() - 1);
    perRow.push_back(1);
    // Block-wise (docs/fp8.md, "Block-wise scales"): A per row and K
    // group, B per block; a scale_a of one group is per row.
    auto blocks = [](int64_t size) {
      return (size + kFp8ScaleBlock - 1) / kFp8ScaleBlock;
    };
    Shape perGroup(a.begin(), a.end() - 1);
    perGroup.push_back(blocks(a.back()));
    Shape perBlock = {blocks(op.shape.back()), blocks(a.back())};
    bool isA = scale.id == op.scaleA, isB = scale.id == op.scaleB;
    bool groupA = isA && value.shape == perGroup && value.shape != perRow;
    bool blockB = isB && value.shape == perBlock;
    bool fits = isPerTensor(value.shape) || (isA && value.shape == perRow) ||
                (isB && value.shape == Shape{op.shape.back()}) || groupA ||
                blockB;
    if (!fits)
      return reader.fail(prefix + "has shape " + formatShape(value.shape) +
                         ", not one the matmul's scales take");
  }
  if ((op.scaleOut >= 0) != isFp8DType(op.dtype))
    return reader.fail(where + ": an fp8 result takes \"scale_out\", and "
                               "only an fp8 result does");
  return true;
}

/// Checks that each op's declared result shape follows from its operands, so
/// a compiler bug in shape bookkeeping shows up here rather than as a wrong
/// reference.
static bool verifyOpShape(FieldReader &reader, const Manifest &manifest,
                          size_t id) {
  const ProgramOp &op = manifest.program[id];
  std::string where =
      "program[" + std::to_string(id) + "] (" + getOpName(op.kind) + ")";
  auto operandShape = [&](size_t i) -> const Shape & {
    return manifest.program[op.operands[i]].shape;
  };
  if (op.kind == OpKind::Matmul) {
    const Shape &a = operandShape(0), &b = operandShape(1);
    if (a.size() < 2 || b.size() < 2)
      return reader.fail(where + ": operands must have rank >= 2");
    int64_t k = a.back();
    int64_t bK = op.transposeB ? b.back() : b[b.size() - 2];
    int64_t n = op.transposeB ? b[b.size() - 2] : b.back();
    if (bK != k)
      return reader.fail(where + ": contraction mismatch, a " + formatShape(a) +
                         " and b " + formatShape(b) +
                         (op.transposeB ? " (transpose_b)" : ""));
    if (b.size() != 2 && b.size() != a.size())
      return reader.fail(where + ": b must be rank 2 or have a's batch dims");
    Shape expected(a.begin(), a.end() - 1);
    expected.push_back(n);
    if (b.size() == a.size() && !std::equal(a.begin(), a.end() - 2, b.begin()))
      return reader.fail(where + ": batch dims of a " + formatShape(a) +
                         " and b " + formatShape(b) + " differ");
    if (op.shape != expected)
      return reader.fail(where + ": result shape " + formatShape(op.shape) +
                         " should be " + formatShape(expected));
    return verifyMatmulScales(reader, manifest, op, where);
  }
  if (isBinaryOp(op.kind)) {
    Shape expected;
    if (!broadcastShapes(operandShape(0), operandShape(1), expected))
      return reader.fail(where + ": shapes " + formatShape(operandShape(0)) +
                         " and " + formatShape(operandShape(1)) +
                         " do not broadcast");
    if (op.shape != expected)
      return reader.fail(where + ": result shape " + formatShape(op.shape) +
                         " should be " + formatShape(expected));
    return true;
  }
  if (isUnaryOp(op.kind) && op.shape != operandShape(0))
    return reader.fail(where + ": result shape " + formatShape(op.shape) +
                       " differs from its operand's " +
                       formatShape(operandShape(0)));
  return true;
}

/// Reads the cost object `value`; messages start with `where` ("cost",
/// "plans[0].cost", "cost_at[2]").
static bool parseCostObject(FieldReader &reader, const Json &value,
                            const std::string &where, CostInfo &cost) {
  cost.present = true;
  struct {
    const char *key;
    double *field;
  } numbers[] = {{"tc_flops", &cost.tcFlops},  {"ew_flops", &cost.ewFlops},
                 {"bytes", &cost.bytes},       {"t_ideal_us", &cost.tIdealUs},
                 {"t_pred_us", &cost.tPredUs}, {"sol_pred", &cost.solPred}};
  for (auto &number : numbers)
    if (const Json *field = getMember(value, number.key)) {
      if (!field->is_number())
        return reader.fail(where + ": \"" + number.key + "\" must be a number");
      *number.field = field->get<double>();
    }
  if (const Json *bound = getMember(value, "bound"))
    if (bound->is_string())
      cost.bound = bound->get_ref<const std::string &>();
  return true;
}

static bool parseCost(FieldReader &reader, const Json &root, CostInfo &cost) {
  const Json *value = getMember(root, "cost");
  if (!value)
    return true; // optional: timing then reports no SOL
  if (!value->is_object())
    return reader.fail("manifest: \"cost\" must be an object");
  return parseCostObject(reader, *value, "cost", cost);
}

static bool parseTarget(FieldReader &reader, const Json &root,
                        TargetInfo &target) {
  const Json *value = getMember(root, "target");
  if (!value)
    return true;
  if (!value->is_object())
    return reader.fail("manifest: \"target\" must be an object");
  if (const Json *name = getMember(*value, "name"))
    if (name->is_string())
      target.name = name->get_ref<const std::string &>();
  if (const Json *chip = getMember(*value, "chip"))
    if (chip->is_string())
      target.chip = chip->get_ref<const std::string &>();
  struct {
    const char *key;
    double *field;
  } numbers[] = {{"l2_bytes", &target.l2Bytes},
                 {"peak_tflops", &target.peakTflops},
                 {"peak_gbps", &target.peakGbps}};
  for (auto &number : numbers)
    if (const Json *field = getMember(*value, number.key)) {
      if (!field->is_number())
        return reader.fail(std::string("target: \"") + number.key +
                           "\" must be a number");
      *number.field = field->get<double>();
    }
  return true;
}

//===----------------------------------------------------------------------===//
// Dynamic manifests
//===----------------------------------------------------------------------===//

std::string sol::runtime::formatDimRange(const DynamicDimInfo &range) {
  return "[" + std::to_string(range.min) + ", " + std::to_string(range.max) +
         "]";
}

int64_t sol::runtime::evaluateGridRule(const GridRule &rule, int64_t dim,
                                       int64_t cluster) {
  // In double: dim * elementsPerDim may pass 2^63 for a hostile rule; the
  // result is compared against CUDA's limits before it is used.
  double blocks = std::ceil(static_cast<double>(dim) *
                            static_cast<double>(rule.elementsPerDim) /
                            static_cast<double>(rule.elementsPerBlock)) *
                  static_cast<double>(rule.times);
  if (rule.max > 0)
    blocks = std::min(blocks, static_cast<double>(rule.max));
  if (cluster > 1)
    blocks = std::ceil(blocks / static_cast<double>(cluster)) *
             static_cast<double>(cluster);
  return blocks > 0x1p62 ? int64_t(1) << 62 : static_cast<int64_t>(blocks);
}

/// `shape` with its dynamic dim (dim 0 when kDynamicDim) set to `dim`.
static Shape getShapeAtDim(const Shape &shape, int64_t dim) {
  Shape result = shape;
  if (!result.empty() && result[0] == kDynamicDim)
    result[0] = dim;
  return result;
}

static std::vector<ArgSpec> getArgsAtDim(const std::vector<ArgSpec> &args,
                                         int64_t dim) {
  std::vector<ArgSpec> result = args;
  for (ArgSpec &arg : result)
    arg.shape = getShapeAtDim(arg.shape, dim);
  return result;
}

/// `spec` with its kDynamicDim dim resolved against `args` (already at the
/// launch's M): the value that makes the product of the dims the arg's
/// element count. False when no integer does.
static bool resolveTensorMapAtDim(const TensorMapSpec &spec,
                                  const std::vector<ArgSpec> &args,
                                  TensorMapSpec &result, std::string &error) {
  result = spec;
  auto dynamicDim =
      std::find(result.dims.begin(), result.dims.end(), kDynamicDim);
  if (dynamicDim == result.dims.end())
    return true;
  if (spec.arg < 0 || spec.arg >= static_cast<int>(args.size())) {
    error = "\"arg\" " + std::to_string(spec.arg) + " out of range (" +
            std::to_string(args.size()) + " args)";
    return false;
  }
  const ArgSpec &arg = args[spec.arg];
  // In double: the other dims are each below 2^53 (several overflow int64).
  double others = 1;
  for (int64_t dim : result.dims)
    if (dim != kDynamicDim)
      others *= static_cast<double>(dim);
  double count = static_cast<double>(arg.getNumElements());
  double resolved = count / others;
  if (resolved != std::floor(resolved) || resolved > 0x1p53) {
    error = "\"dims\" " + formatShape(spec.dims) + ": no value of the -1 makes " +
            "them hold the " + std::to_string(arg.getNumElements()) +
            " elements of arg " + std::to_string(spec.arg) + " (\"" +
            arg.name + "\", " + formatShape(arg.shape) + ")";
    return false;
  }
  *dynamicDim = static_cast<int64_t>(resolved);
  return true;
}

static bool parseDynamicDim(FieldReader &reader, const Json &root,
                            DynamicDimInfo &range) {
  const Json *value = getMember(root, "dynamic_dim");
  if (!value)
    return true; // a static manifest
  if (!value->is_object())
    return reader.fail("manifest: \"dynamic_dim\" must be an object");
  const Json *min = reader.require(*value, "min", "dynamic_dim");
  if (!min || !reader.readInteger(*min, "dynamic_dim: \"min\"", 0,
                                  kMaxDynamicDim, range.min))
    return false;
  const Json *max = reader.require(*value, "max", "dynamic_dim");
  if (!max || !reader.readInteger(*max, "dynamic_dim: \"max\"", range.min,
                                  kMaxDynamicDim, range.max))
    return false;
  if (getMember(*value, "hints") &&
      !reader.readIntegerList(*value, "hints", "dynamic_dim", range.min,
                              range.max, range.hints))
    return false;
  range.present = true;
  return true;
}

/// A dynamic manifest's launch lives in its rows: the top-level fields a
/// static manifest launches with would be ambiguous, so they are refused.
static bool checkNoStaticLaunchFields(FieldReader &reader, const Json &root) {
  for (const char *key : {"launch", "tensor_maps", "ptx", "cubin", "plan"})
    if (getMember(root, key))
      return reader.fail(std::string("manifest: a dynamic manifest has no "
                                     "top-level \"") +
                         key + "\" (each \"plans\" row has its own)");
  return true;
}

static bool parseGridRule(FieldReader &reader, const Json &launch,
                          const std::string &where, GridRule &rule) {
  const Json *value = reader.require(launch, "grid_rows", where);
  if (!value)
    return false;
  if (!value->is_object())
    return reader.fail(where + ": \"grid_rows\" must be an object");
  std::string at = where + ".grid_rows";
  struct {
    const char *key;
    int64_t minimum, maximum;
    int64_t *field;
  } fields[] = {
      {"elements_per_dim", 1, kMaxManifestInteger, &rule.elementsPerDim},
      {"elements_per_block", 1, kMaxManifestInteger, &rule.elementsPerBlock},
      {"times", 1, 0x7fffffff, &rule.times},
      {"max", 0, 0x7fffffff, &rule.max}};
  int64_t axis;
  const Json *axisValue = reader.require(*value, "axis", at);
  if (!axisValue ||
      !reader.readInteger(*axisValue, at + ": \"axis\"", 0, 2, axis))
    return false;
  rule.axis = static_cast<unsigned>(axis);
  for (auto &field : fields) {
    const Json *entry = reader.require(*value, field.key, at);
    if (!entry || !reader.readInteger(*entry, at + ": \"" + field.key + "\"",
                                      field.minimum, field.maximum,
                                      *field.field))
      return false;
  }
  return true;
}

/// Reads row `index` of "plans" and checks what it says at its m_max.
static bool parsePlanRow(FieldReader &reader, const Json &entry, size_t index,
                         const Manifest &manifest, const std::string &directory,
                         PlanRow &row) {
  std::string where = "plans[" + std::to_string(index) + "]";
  if (!entry.is_object())
    return reader.fail(where + " must be an object");
  const DynamicDimInfo &range = manifest.dynamicDim;
  const Json *mMin = reader.require(entry, "m_min", where);
  if (!mMin || !reader.readInteger(*mMin, where + ": \"m_min\"", 0,
                                   kMaxDynamicDim, row.mMin))
    return false;
  const Json *mMax = reader.require(entry, "m_max", where);
  if (!mMax || !reader.readInteger(*mMax, where + ": \"m_max\"", 0,
                                   kMaxDynamicDim, row.mMax))
    return false;
  if (row.mMax < row.mMin)
    return reader.fail(where + ": \"m_max\" = " + std::to_string(row.mMax) +
                       " is below \"m_min\" = " + std::to_string(row.mMin));
  // Disjoint, increasing, covering: each row starts where the last ended.
  int64_t expectedMin =
      index == 0 ? range.min : manifest.plans[index - 1].mMax + 1;
  if (row.mMin != expectedMin)
    return reader.fail(
        where + ": \"m_min\" = " + std::to_string(row.mMin) + " but " +
        (index == 0 ? "the range starts at " + std::to_string(expectedMin)
                    : "plans[" + std::to_string(index - 1) +
                          "] ends at " + std::to_string(expectedMin - 1)) +
        " (the rows must be disjoint, increasing and cover \"dynamic_dim\" " +
        formatDimRange(range) + ")");
  if (row.mMax > range.max)
    return reader.fail(where + ": \"m_max\" = " + std::to_string(row.mMax) +
                       " is past the range's max " + std::to_string(range.max) +
                       " (\"dynamic_dim\" " + formatDimRange(range) + ")");
  if (!reader.readString(entry, "kernel", where, row.kernel))
    return false;
  if (row.kernel.empty())
    return reader.fail(where + ": \"kernel\" is empty");
  struct {
    const char *key;
    std::string *path;
  } binaries[] = {{"ptx", &row.ptxPath}, {"cubin", &row.cubinPath}};
  for (auto &binary : binaries) {
    const Json *value = getMember(entry, binary.key);
    if (!value || value->is_null())
      continue;
    if (!value->is_string())
      return reader.fail(where + ": \"" + binary.key + "\" must be a string");
    *binary.path = joinPath(directory, value->get_ref<const std::string &>());
  }
  if (const Json *plan = getMember(entry, "plan"))
    row.plan = plan->dump();

  const Json *launch = reader.require(entry, "launch", where);
  if (!launch)
    return false;
  std::string launchWhere = where + ".launch";
  if (!launch->is_object())
    return reader.fail(where + ": \"launch\" must be an object");
  if (!parseLaunchObject(reader, *launch, launchWhere, row.launch) ||
      !parseGridRule(reader, *launch, launchWhere, row.gridRows))
    return false;
  // The row's grid is the one at its m_max: the rule must give it there, or
  // the launcher and the planner disagree about what the kernel covers.
  const GridRule &rule = row.gridRows;
  int64_t atMax =
      evaluateGridRule(rule, row.mMax, row.launch.cluster[rule.axis]);
  if (row.mMax > 0 && atMax != row.launch.grid[rule.axis])
    return reader.fail(launchWhere + ": \"grid_rows\" gives grid[" +
                       std::to_string(rule.axis) + "] = " +
                       std::to_string(atMax) + " at m_max = " +
                       std::to_string(row.mMax) + ", but \"grid\"[" +
                       std::to_string(rule.axis) + "] is " +
                       std::to_string(row.launch.grid[rule.axis]));

  if (!parseTensorMapArray(reader, getMember(entry, "tensor_maps"), where,
                           /*dynamicDims=*/true, manifest.args, row.tensorMaps))
    return false;
  // Each map as the launch at m_max encodes it.
  std::vector<ArgSpec> argsAtMax =
      getArgsAtDim(manifest.args, std::max<int64_t>(row.mMax, 1));
  for (size_t i = 0; i < row.tensorMaps.size(); ++i) {
    std::string mapWhere = where + ".tensor_maps[" + std::to_string(i) + "]";
    TensorMapSpec resolved;
    std::string message;
    if (!resolveTensorMapAtDim(row.tensorMaps[i], argsAtMax, resolved,
                               message) ||
        !verifyTensorMapSpec(resolved, argsAtMax, message))
      return reader.fail(mapWhere + " at m_max = " +
                         std::to_string(std::max<int64_t>(row.mMax, 1)) +
                         ": " + message);
  }
  if (const Json *cost = getMember(entry, "cost")) {
    if (!cost->is_object())
      return reader.fail(where + ": \"cost\" must be an object");
    if (!parseCostObject(reader, *cost, where + ".cost", row.cost))
      return false;
  }
  return true;
}

static bool parsePlans(FieldReader &reader, const Json &root,
                       const std::string &directory, Manifest &manifest) {
  const Json *value = reader.require(root, "plans", "manifest");
  if (!value)
    return false;
  if (!value->is_array() || value->empty())
    return reader.fail("manifest: \"plans\" must be a non-empty array");
  for (size_t i = 0; i < value->size(); ++i) {
    PlanRow row;
    if (!parsePlanRow(reader, (*value)[i], i, manifest, directory, row))
      return false;
    manifest.plans.push_back(std::move(row));
  }
  const DynamicDimInfo &range = manifest.dynamicDim;
  if (manifest.plans.back().mMax != range.max)
    return reader.fail("manifest: \"plans\" end at " +
                       std::to_string(manifest.plans.back().mMax) +
                       " but the range ends at " + std::to_string(range.max) +
                       " (the rows must cover \"dynamic_dim\" " +
                       formatDimRange(range) + ")");
  return true;
}

static bool parseCostAt(FieldReader &reader, const Json &root,
                        Manifest &manifest) {
  const Json *value = getMember(root, "cost_at");
  if (!value)
    return true;
  if (!value->is_array())
    return reader.fail("manifest: \"cost_at\" must be an array");
  const DynamicDimInfo &range = manifest.dynamicDim;
  for (size_t i = 0; i < value->size(); ++i) {
    const Json &entry = (*value)[i];
    std::string where = "cost_at[" + std::to_string(i) + "]";
    if (!entry.is_object())
      return reader.fail(where + " must be an object");
    CostPoint point;
    const Json *m = reader.require(entry, "m", where);
    if (!m || !reader.readInteger(*m, where + ": \"m\"", range.min, range.max,
                                  point.m))
      return false;
    if (!manifest.costAt.empty() && point.m <= manifest.costAt.back().m)
      return reader.fail(where + ": \"m\" = " + std::to_string(point.m) +
                         " does not follow cost_at[" + std::to_string(i - 1) +
                         "]'s " + std::to_string(manifest.costAt.back().m) +
                         " (the points increase)");
    if (!parseCostObject(reader, entry, where, point.cost))
      return false;
    manifest.costAt.push_back(std::move(point));
  }
  return true;
}

/// The dynamic dim is one value: a dynamic manifest's args hold it (else
/// there is nothing to resolve), every arg and value holding it holds it in
/// dim 0 (readShape), and the ops relate them (verifyOpShape).
static bool checkDynamicArgs(FieldReader &reader, const Manifest &manifest) {
  for (const ArgSpec &arg : manifest.args)
    if (!arg.isOutput && !arg.shape.empty() && arg.shape[0] == kDynamicDim)
      return true;
  return reader.fail("manifest: \"dynamic_dim\" is given but no input's "
                     "\"shape\" is dynamic (-1 in dim 0)");
}

bool sol::runtime::specializeManifest(const Manifest &manifest, int64_t dim,
                                      Manifest &out, std::string &error) {
  if (!manifest.isDynamic()) {
    error = "kernel '" + manifest.kernel +
            "' is static: it takes no value of a dynamic dim";
    return false;
  }
  const DynamicDimInfo &range = manifest.dynamicDim;
  if (dim < range.min || dim > range.max) {
    error = "M = " + std::to_string(dim) + " is outside the range " +
            formatDimRange(range) + " of kernel '" + manifest.kernel +
            "' (its \"dynamic_dim\")";
    return false;
  }
  const PlanRow *row = nullptr;
  for (const PlanRow &candidate : manifest.plans)
    if (candidate.mMin <= dim && dim <= candidate.mMax)
      row = &candidate;
  if (!row) { // parseManifest checked that the rows cover the range
    error = "kernel '" + manifest.kernel + "' has no plan row for M = " +
            std::to_string(dim);
    return false;
  }
  out = Manifest();
  out.path = manifest.path;
  out.directory = manifest.directory;
  out.kernel = row->kernel;
  out.hostKernel = manifest.kernel;
  out.ptxPath = row->ptxPath;
  out.cubinPath = row->cubinPath;
  out.libPath = manifest.libPath;
  out.target = manifest.target;
  out.launch = row->launch;
  out.args = getArgsAtDim(manifest.args, dim);
  for (ProgramOp op : manifest.program) {
    op.shape = getShapeAtDim(op.shape, dim);
    out.program.push_back(std::move(op));
  }
  out.outputs = manifest.outputs;
  out.plan = row->plan;
  out.dim = dim;
  out.rowMin = row->mMin;
  out.rowMax = row->mMax;
  // The cost model's numbers hold at the points it priced: the range's max
  // (the top-level cost) and the report points.
  if (dim == range.max)
    out.cost = manifest.cost;
  for (const CostPoint &point : manifest.costAt)
    if (point.m == dim)
      out.cost = point.cost;
  const GridRule &rule = row->gridRows;
  if (dim == 0) {
    out.launch.grid[rule.axis] = 0; // nothing launches: no grid, no maps
    return true;
  }
  out.launch.grid[rule.axis] = static_cast<unsigned>(
      evaluateGridRule(rule, dim, row->launch.cluster[rule.axis]));
  for (size_t i = 0; i < row->tensorMaps.size(); ++i) {
    TensorMapSpec map;
    if (!resolveTensorMapAtDim(row->tensorMaps[i], out.args, map, error) ||
        !verifyTensorMapSpec(map, out.args, error)) {
      error = "kernel '" + manifest.kernel + "' at M = " + std::to_string(dim) +
              ": plans row " + std::to_string(row->mMin) + ".." +
              std::to_string(row->mMax) + ": tensor_maps[" +
              std::to_string(i) + "]: " + error;
      return false;
    }
    out.tensorMaps.push_back(std::move(map));
  }
  return true;
}

bool sol::runtime::parseManifest(const std::string &text,
                                 const std::string &directory,
                                 Manifest &manifest, std::string &error) {
  manifest = Manifest();
  manifest.directory = directory;
  Json root;
  if (!parseJsonText(text, root, error)) {
    error = "malformed JSON: " + error;
    return false;
  }
  FieldReader reader(error);
  if (!root.is_object())
    return reader.fail("manifest: top level must be an object");
  if (!reader.readString(root, "kernel", "manifest", manifest.kernel))
    return false;
  if (manifest.kernel.empty())
    return reader.fail("manifest: \"kernel\" is empty");

  struct {
    const char *key;
    std::string *path;
  } binaries[] = {{"ptx", &manifest.ptxPath},
                  {"cubin", &manifest.cubinPath},
                  {"lib", &manifest.libPath}};
  for (auto &binary : binaries) {
    const Json *value = getMember(root, binary.key);
    if (!value || value->is_null())
      continue;
    if (!value->is_string())
      return reader.fail(std::string("manifest: \"") + binary.key +
                         "\" must be a string");
    *binary.path = joinPath(directory, value->get_ref<const std::string &>());
  }

  // A dynamic manifest (docs/dynamic-shapes.md): its range first, which
  // lets shapes hold -1, then its launch per row of "plans" instead of one.
  if (!parseDynamicDim(reader, root, manifest.dynamicDim))
    return false;
  reader.dynamic = manifest.dynamicDim;
  if (manifest.isDynamic()) {
    if (!checkNoStaticLaunchFields(reader, root) ||
        !parseTarget(reader, root, manifest.target) ||
        !parseArgs(reader, root, manifest.args) ||
        !checkDynamicArgs(reader, manifest) ||
        !parsePlans(reader, root, directory, manifest) ||
        !parseCost(reader, root, manifest.cost) ||
        !parseCostAt(reader, root, manifest))
      return false;
  } else if (!parseTarget(reader, root, manifest.target) ||
             !parseLaunch(reader, root, manifest.launch) ||
             !parseArgs(reader, root, manifest.args) ||
             !parseTensorMaps(reader, root, manifest.args,
                              manifest.tensorMaps) ||
             !parseCost(reader, root, manifest.cost)) {
    return false;
  }
  if (const Json *plan = getMember(root, "plan"))
    manifest.plan = plan->dump();

  const Json *program = reader.require(root, "program", "manifest");
  if (!program)
    return false;
  if (!program->is_array() || program->empty())
    return reader.fail("manifest: \"program\" must be a non-empty array");
  for (size_t id = 0; id < program->size(); ++id) {
    ProgramOp op;
    if (!parseOp(reader, (*program)[id], id, op))
      return false;
    if (op.kind == OpKind::Arg) {
      if (op.argIndex >= static_cast<int>(manifest.args.size()))
        return reader.fail("program[" + std::to_string(id) + "] (arg): index " +
                           std::to_string(op.argIndex) + " out of range (" +
                           std::to_string(manifest.args.size()) + " args)");
      const ArgSpec &arg = manifest.args[op.argIndex];
      if (arg.isOutput)
        return reader.fail("program[" + std::to_string(id) +
                           "] (arg): reads output \"" + arg.name + "\"");
      op.dtype = arg.dtype;
      op.shape = arg.shape;
    }
    manifest.program.push_back(std::move(op));
    if (!verifyOpShape(reader, manifest, id))
      return false;
  }

  std::vector<int64_t> outputs;
  if (!reader.readIntegerList(root, "outputs", "manifest", 0, outputs))
    return false;
  size_t numOutputs = manifest.args.size() - manifest.getNumInputs();
  if (outputs.size() != numOutputs)
    return reader.fail(
        "manifest: \"outputs\" lists " + std::to_string(outputs.size()) +
        " values but \"args\" has " + std::to_string(numOutputs) + " outputs");
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i] >= static_cast<int64_t>(manifest.program.size()))
      return reader.fail("manifest: outputs[" + std::to_string(i) +
                         "] = " + std::to_string(outputs[i]) +
                         " out of range (program has " +
                         std::to_string(manifest.program.size()) + " values)");
    const ProgramOp &value = manifest.program[outputs[i]];
    const ArgSpec &arg = manifest.args[manifest.getOutputArgIndex(i)];
    if (value.shape != arg.shape)
      return reader.fail("manifest: output \"" + arg.name + "\" has shape " +
                         formatShape(arg.shape) + " but value " +
                         std::to_string(outputs[i]) + " has shape " +
                         formatShape(value.shape));
    if (value.dtype != arg.dtype)
      return reader.fail("manifest: output \"" + arg.name + "\" is " +
                         getDTypeName(arg.dtype) + " but value " +
                         std::to_string(outputs[i]) + " is " +
                         getDTypeName(value.dtype));
    manifest.outputs.push_back(static_cast<int>(outputs[i]));
  }
  return true;
}

bool sol::runtime::loadManifest(const std::string &path, Manifest &manifest,
                                std::string &error) {
  std::string text;
  if (!readFile(path, text, error))
    return false;
  size_t slash = path.find_last_of('/');
  std::string directory =
      slash == std::string::npos ? "." : path.substr(0, slash);
  if (directory.empty())
    directory = "/";
  if (!parseManifest(text, directory, manifest, error)) {
    error = path + ": " + error;
    return false;
  }
  manifest.path = path;
  return true;
}
