//===- PlanCache.h - measured plans kept across compilations ----*- C++ -*-===//
//
// A plan cache pins a static kernel's plan to one that was measured faster
// than the cost model's choice (issue 19's measured plan choice): sol-tile's
// `plan-cache=FILE` reads it, the manifest's `plan_key` names the entry a
// tuner writes. The file is JSON:
//
//   {"plans": [{"key": "h200:9f0c...", "plan": "#sol.plan<...>",
//               "measured_us": 41.2, "note": "..."}]}
//
// `plan` is the attribute as sol prints it; the other fields are for the
// reader. A key names the kernel's ops, types and target, not its symbol, so
// the same kernel in another module finds its entry.
//
//===----------------------------------------------------------------------===//

#ifndef SOLDIALECT_PLANCACHE_H
#define SOLDIALECT_PLANCACHE_H

#include "SolDialect/SolDialect.h"

#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::sol {

/// The cache's key of `kernel` on `target`: the target's name and a 64-bit
/// digest (xxh3) of the kernel's generic form without its symbol name and
/// its plan and cost annotations.
std::string getPlanCacheKey(KernelOp kernel, TargetAttr target);

/// The plans of a cache file by key.
using PlanCache = llvm::StringMap<PlanAttr>;

/// Reads the cache file at `path` into plans of `context`; on failure says
/// why in `error` (unreadable, not JSON, an entry without a key or with a
/// plan that does not parse as a #sol.plan).
FailureOr<PlanCache> loadPlanCache(StringRef path, MLIRContext *context,
                                   std::string &error);

} // namespace mlir::sol

#endif // SOLDIALECT_PLANCACHE_H
