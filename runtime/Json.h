//===- Json.h - minimal JSON values, parser and writer ----------*- C++ -*-===//
//
// The runtime reads kernel manifests and writes result rows on a GPU machine
// that has no LLVM, so it cannot use llvm::json. This is the small subset it
// needs: objects (key order kept, so output reads like the input), arrays,
// numbers (doubles), strings, bools and null. Errors are returned, never
// thrown: the runtime builds without exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_JSON_H
#define SOL_RUNTIME_JSON_H

#include <string>
#include <utility>
#include <vector>

namespace sol {
namespace runtime {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  JsonValue() = default;
  static JsonValue makeBool(bool value);
  static JsonValue makeNumber(double value);
  static JsonValue makeString(std::string value);
  static JsonValue makeArray();
  static JsonValue makeObject();

  Kind getKind() const { return kind; }
  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }

  bool getBool() const { return boolValue; }
  double getNumber() const { return numberValue; }
  const std::string &getString() const { return stringValue; }
  const std::vector<JsonValue> &getArray() const { return elements; }
  std::vector<JsonValue> &getArray() { return elements; }
  const std::vector<std::pair<std::string, JsonValue>> &getMembers() const {
    return members;
  }

  /// Returns the member named `key` of an object, or null when this is not an
  /// object or has no such member.
  const JsonValue *get(const std::string &key) const;
  /// Sets (replacing) the member `key` of an object.
  void set(const std::string &key, JsonValue value);
  /// Appends to an array.
  void push(JsonValue value) { elements.push_back(std::move(value)); }

private:
  Kind kind = Kind::Null;
  bool boolValue = false;
  double numberValue = 0;
  std::string stringValue;
  std::vector<JsonValue> elements;
  std::vector<std::pair<std::string, JsonValue>> members;
};

/// Parses `text` into `result`. On failure returns false and sets `error` to
/// "line L, column C: what was expected".
bool parseJson(const std::string &text, JsonValue &result, std::string &error);

/// Serializes `value`. With `indent` < 0 everything is on one line; otherwise
/// nested containers are indented by `indent` spaces per level. Integral
/// numbers print without a fraction or exponent so that byte and FLOP counts
/// stay readable.
std::string writeJson(const JsonValue &value, int indent = -1);

/// Reads a whole file; returns false and sets `error` when it cannot.
bool readFile(const std::string &path, std::string &contents,
              std::string &error);

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_JSON_H
