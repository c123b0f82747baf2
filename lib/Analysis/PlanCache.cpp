//===- PlanCache.cpp - measured plans kept across compilations ------------===//
//
// The key of a static kernel in a plan cache, and the reading of a cache
// file (include/SolDialect/PlanCache.h says what the file holds and who
// writes it).
//
//===----------------------------------------------------------------------===//

#include "SolDialect/PlanCache.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/OperationSupport.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::sol;

std::string mlir::sol::getPlanCacheKey(KernelOp kernel, TargetAttr target) {
  // A copy without what is not the kernel's computation: its name (a
  // module's numbering) and the annotations sol-tile and sol-annotate add.
  OpBuilder builder(kernel.getContext());
  Operation *copy = builder.clone(*kernel.getOperation());
  auto stripped = cast<KernelOp>(copy);
  stripped.setSymName("k");
  for (StringRef name : {"plan", "cost", "plans", "costs"})
    copy->removeAttr(name);
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  copy->erase();
  std::string key = target.getName().str() + ":";
  llvm::raw_string_ostream keyStream(key);
  keyStream << llvm::format_hex_no_prefix(llvm::xxh3_64bits(text), 16);
  return key;
}

FailureOr<PlanCache> mlir::sol::loadPlanCache(StringRef path,
                                              MLIRContext *context,
                                              std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read '" + path.str() + "': " + buffer.getError().message();
    return failure();
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error =
        "'" + path.str() + "' is not JSON: " + llvm::toString(json.takeError());
    return failure();
  }
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *entries = root ? root->getArray("plans") : nullptr;
  if (!entries) {
    error = "'" + path.str() + "' has no \"plans\" list";
    return failure();
  }
  PlanCache cache;
  for (auto [i, value] : llvm::enumerate(*entries)) {
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<StringRef> key =
        entry ? entry->getString("key") : std::nullopt;
    std::optional<StringRef> text =
        entry ? entry->getString("plan") : std::nullopt;
    std::string where = "'" + path.str() + "' entry " + std::to_string(i);
    if (!key || !text) {
      error = where + " needs a \"key\" and a \"plan\" string";
      return failure();
    }
    size_t read = 0;
    Attribute attr = parseAttribute(*text, context, Type(), &read,
                                    /*isKnownNullTerminated=*/false);
    auto plan = dyn_cast_or_null<PlanAttr>(attr);
    if (!plan || read != text->size()) {
      error = where + ": \"" + text->str() + "\" is not a #sol.plan";
      return failure();
    }
    cache[*key] = plan;
  }
  return cache;
}
