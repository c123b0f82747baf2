//===- DType.h - element types a kernel argument can have -------*- C++ -*-===//

#ifndef SOL_RUNTIME_DTYPE_H
#define SOL_RUNTIME_DTYPE_H

#include <cstddef>
#include <string>

namespace sol {
namespace runtime {

enum class DType { F16, BF16, F32 };

/// Parses the manifest spelling ("f16", "bf16", "f32").
inline bool parseDType(const std::string &name, DType &dtype) {
  if (name == "f16")
    dtype = DType::F16;
  else if (name == "bf16")
    dtype = DType::BF16;
  else if (name == "f32")
    dtype = DType::F32;
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
  }
  return "?";
}

inline size_t getDTypeSize(DType dtype) { return dtype == DType::F32 ? 4 : 2; }

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_DTYPE_H
