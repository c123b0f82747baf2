//===- DType.h - element types a kernel argument can have -------*- C++ -*-===//

#ifndef SOL_RUNTIME_DTYPE_H
#define SOL_RUNTIME_DTYPE_H

#include <cstddef>
#include <string>

namespace sol {
namespace runtime {

/// The fp8 types are storage types (docs/fp8.md): a buffer holds their
/// codes, one byte each, and every value the runtime reads from one is the
/// code's exact value (runtime/Fp8.h).
enum class DType { F16, BF16, F32, F8E4M3FN, F8E5M2 };

/// Parses the manifest spelling ("f16", "bf16", "f32", "f8e4m3fn",
/// "f8e5m2").
inline bool parseDType(const std::string &name, DType &dtype) {
  if (name == "f16")
    dtype = DType::F16;
  else if (name == "bf16")
    dtype = DType::BF16;
  else if (name == "f32")
    dtype = DType::F32;
  else if (name == "f8e4m3fn")
    dtype = DType::F8E4M3FN;
  else if (name == "f8e5m2")
    dtype = DType::F8E5M2;
  else
    return false;
  return true;
}

inline const char *getDTypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F8E4M3FN:
    return "f8e4m3fn";
  case DType::F8E5M2:
    return "f8e5m2";
  }
  return "?";
}

inline bool isFp8DType(DType dtype) {
  return dtype == DType::F8E4M3FN || dtype == DType::F8E5M2;
}

inline size_t getDTypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return 4;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return 1;
  }
  return 0;
}

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_DTYPE_H
