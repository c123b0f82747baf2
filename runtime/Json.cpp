//===- Json.cpp - minimal JSON values, parser and writer ------------------===//

#include "runtime/Json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace sol::runtime;

JsonValue JsonValue::makeBool(bool value) {
  JsonValue result;
  result.kind = Kind::Bool;
  result.boolValue = value;
  return result;
}

JsonValue JsonValue::makeNumber(double value) {
  JsonValue result;
  result.kind = Kind::Number;
  result.numberValue = value;
  return result;
}

JsonValue JsonValue::makeString(std::string value) {
  JsonValue result;
  result.kind = Kind::String;
  result.stringValue = std::move(value);
  return result;
}

JsonValue JsonValue::makeArray() {
  JsonValue result;
  result.kind = Kind::Array;
  return result;
}

JsonValue JsonValue::makeObject() {
  JsonValue result;
  result.kind = Kind::Object;
  return result;
}

const JsonValue *JsonValue::get(const std::string &key) const {
  if (kind != Kind::Object)
    return nullptr;
  for (const auto &member : members)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

void JsonValue::set(const std::string &key, JsonValue value) {
  for (auto &member : members) {
    if (member.first == key) {
      member.second = std::move(value);
      return;
    }
  }
  members.emplace_back(key, std::move(value));
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

/// A recursive-descent parser over the whole text. The depth limit keeps a
/// hostile or corrupt file from overflowing the stack.
class Parser {
public:
  explicit Parser(const std::string &text) : text(text) {}

  bool parseDocument(JsonValue &result) {
    skipWhitespace();
    if (!parseValue(result, /*depth=*/0))
      return false;
    skipWhitespace();
    if (pos != text.size())
      return fail("unexpected text after the JSON value");
    return true;
  }

  std::string error;

private:
  static constexpr int maxDepth = 256;

  bool fail(const std::string &message) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error = "line " + std::to_string(line) + ", column " +
            std::to_string(column) + ": " + message;
    return false;
  }

  void skipWhitespace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consumeWord(const char *word) {
    size_t length = std::char_traits<char>::length(word);
    if (text.compare(pos, length, word) != 0)
      return false;
    pos += length;
    return true;
  }

  bool parseValue(JsonValue &result, int depth) {
    if (depth > maxDepth)
      return fail("nesting deeper than " + std::to_string(maxDepth));
    if (pos >= text.size())
      return fail("expected a value, found the end of the text");
    char c = text[pos];
    if (c == '{')
      return parseObject(result, depth);
    if (c == '[')
      return parseArray(result, depth);
    if (c == '"') {
      std::string value;
      if (!parseString(value))
        return false;
      result = JsonValue::makeString(std::move(value));
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(result);
    if (consumeWord("true")) {
      result = JsonValue::makeBool(true);
      return true;
    }
    if (consumeWord("false")) {
      result = JsonValue::makeBool(false);
      return true;
    }
    if (consumeWord("null")) {
      result = JsonValue();
      return true;
    }
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool parseObject(JsonValue &result, int depth) {
    result = JsonValue::makeObject();
    ++pos; // '{'
    skipWhitespace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipWhitespace();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a string key in the object");
      std::string key;
      if (!parseString(key))
        return false;
      skipWhitespace();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':' after the key \"" + key + "\"");
      ++pos;
      skipWhitespace();
      JsonValue value;
      if (!parseValue(value, depth + 1))
        return false;
      if (result.get(key))
        return fail("duplicate key \"" + key + "\"");
      result.set(key, std::move(value));
      skipWhitespace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in the object");
    }
  }

  bool parseArray(JsonValue &result, int depth) {
    result = JsonValue::makeArray();
    ++pos; // '['
    skipWhitespace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipWhitespace();
      JsonValue element;
      if (!parseValue(element, depth + 1))
        return false;
      result.push(std::move(element));
      skipWhitespace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in the array");
    }
  }

  static void appendUtf8(std::string &out, unsigned codePoint) {
    if (codePoint < 0x80) {
      out += static_cast<char>(codePoint);
    } else if (codePoint < 0x800) {
      out += static_cast<char>(0xC0 | (codePoint >> 6));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
      out += static_cast<char>(0xE0 | (codePoint >> 12));
      out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (codePoint >> 18));
      out += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    }
  }

  bool parseHex4(unsigned &value) {
    if (pos + 4 > text.size())
      return fail("truncated \\u escape");
    value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= c - '0';
      else if (c >= 'a' && c <= 'f')
        value |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        value |= c - 'A' + 10;
      else
        return fail("bad hex digit in \\u escape");
    }
    return true;
  }

  bool parseString(std::string &result) {
    ++pos; // '"'
    while (pos < text.size()) {
      char c = text[pos++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string");
      if (c != '\\') {
        result += c;
        continue;
      }
      if (pos >= text.size())
        break;
      char escape = text[pos++];
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        result += escape;
        break;
      case 'b':
        result += '\b';
        break;
      case 'f':
        result += '\f';
        break;
      case 'n':
        result += '\n';
        break;
      case 'r':
        result += '\r';
        break;
      case 't':
        result += '\t';
        break;
      case 'u': {
        unsigned codePoint = 0;
        if (!parseHex4(codePoint))
          return false;
        // A high surrogate must pair with a low one for characters outside
        // the basic plane.
        if (codePoint >= 0xD800 && codePoint < 0xDC00 &&
            text.compare(pos, 2, "\\u") == 0) {
          pos += 2;
          unsigned low = 0;
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail("unpaired surrogate in \\u escape");
          codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(result, codePoint);
        break;
      }
      default:
        --pos;
        return fail(std::string("unknown escape '\\") + escape + "'");
      }
    }
    return fail("unterminated string");
  }

  bool parseNumber(JsonValue &result) {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    auto digits = [&] {
      size_t first = pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos > first;
    };
    if (!digits())
      return fail("expected digits in a number");
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      if (!digits())
        return fail("expected digits after '.'");
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (!digits())
        return fail("expected digits in the exponent");
    }
    std::string literal = text.substr(start, pos - start);
    double value = std::strtod(literal.c_str(), nullptr);
    // 1e999 would read as infinity, which JSON cannot hold (and which
    // compares as an integer): refuse it rather than hand it on.
    if (!std::isfinite(value)) {
      pos = start;
      return fail(
          "number " +
          (literal.size() > 32 ? literal.substr(0, 29) + "..." : literal) +
          " is out of range of a double");
    }
    result = JsonValue::makeNumber(value);
    return true;
  }

  const std::string &text;
  size_t pos = 0;
};

} // namespace

bool sol::runtime::parseJson(const std::string &text, JsonValue &result,
                             std::string &error) {
  Parser parser(text);
  if (parser.parseDocument(result))
    return true;
  error = parser.error;
  return false;
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

static void writeString(std::string &out, const std::string &value) {
  out += '"';
  for (char c : value) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
        out += buffer;
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

static void writeNumber(std::string &out, double value) {
  // JSON has no NaN or infinity; null says "no value" to any reader.
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buffer[32];
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
    std::snprintf(buffer, sizeof(buffer), "%.0f", value);
  else
    // The shortest precision that reads back as the same double.
    for (int precision = 15; precision <= 17; ++precision) {
      std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
      if (std::strtod(buffer, nullptr) == value)
        break;
    }
  out += buffer;
}

static void writeValue(std::string &out, const JsonValue &value, int indent,
                       int depth) {
  auto newline = [&](int level) {
    if (indent < 0)
      return;
    out += '\n';
    out.append(static_cast<size_t>(indent * level), ' ');
  };
  switch (value.getKind()) {
  case JsonValue::Kind::Null:
    out += "null";
    return;
  case JsonValue::Kind::Bool:
    out += value.getBool() ? "true" : "false";
    return;
  case JsonValue::Kind::Number:
    writeNumber(out, value.getNumber());
    return;
  case JsonValue::Kind::String:
    writeString(out, value.getString());
    return;
  case JsonValue::Kind::Array: {
    const auto &elements = value.getArray();
    out += '[';
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i)
        out += indent < 0 ? ", " : ",";
      newline(depth + 1);
      writeValue(out, elements[i], indent, depth + 1);
    }
    if (!elements.empty())
      newline(depth);
    out += ']';
    return;
  }
  case JsonValue::Kind::Object: {
    const auto &members = value.getMembers();
    out += '{';
    for (size_t i = 0; i < members.size(); ++i) {
      if (i)
        out += indent < 0 ? ", " : ",";
      newline(depth + 1);
      writeString(out, members[i].first);
      out += ": ";
      writeValue(out, members[i].second, indent, depth + 1);
    }
    if (!members.empty())
      newline(depth);
    out += '}';
    return;
  }
  }
}

std::string sol::runtime::writeJson(const JsonValue &value, int indent) {
  std::string out;
  writeValue(out, value, indent, 0);
  return out;
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
