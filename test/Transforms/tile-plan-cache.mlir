// RUN: rm -rf %t && mkdir -p %t
// RUN: sol-opt %s --sol-tile=rank=2 --sol-annotate --sol-write-manifests=dir=%t/m -o /dev/null
// RUN: python3 -c "import json; m = json.load(open('%t/m/oproj_residual.json')); json.dump({'plans': [{'key': m['plan_key'], 'plan': m['plan_attr'], 'measured_us': 15.0}]}, open('%t/cache.json', 'w')); json.dump({'plans': [{'key': m['plan_key'], 'plan': '#sol.plan<path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>'}]}, open('%t/stale.json', 'w'))"
// RUN: sol-opt %s "--sol-tile=remarks=true plan-cache=%t/cache.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: sol-opt %s "--sol-to-ptx=out-dir=%t/p plan-cache=%t/cache.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/p/oproj_residual.json
// RUN: sol-opt %s "--sol-tile=remarks=true plan-cache=%t/stale.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: not sol-opt %s --sol-tile=plan-cache=%t/missing.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo '{"plans": [{"key": "h200:0", "plan": "#sol.cost<bound = memory>"}]}' > %t/bad-plan.json
// RUN: not sol-opt %s --sol-tile=plan-cache=%t/bad-plan.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADPLAN
// RUN: echo '{"plans": [' > %t/bad-json.json
// RUN: not sol-opt %s --sol-tile=plan-cache=%t/bad-json.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADJSON
// RUN: echo '{"plans": [{"plan": "#sol.plan<path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1>"}]}' > %t/no-key.json
// RUN: not sol-opt %s --sol-tile=plan-cache=%t/no-key.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOKEY

// A plan cache (include/SolDialect/PlanCache.h) pins a static kernel to a
// measured plan: here the cost model's third choice, filed under the key the
// manifest names (`plan_key`, with the plan as sol prints it, `plan_attr`),
// as a tuner that measured it faster would. The choice says where the plan
// came from and names the model's own best against it, and the pipeline
// compiles that plan.
// CHECK: remark: plan from the plan cache: wgmma_tma: 128x128x64 tile, TMA producer + 2 consumer warpgroups, 6 stages, persistent, K split over 2 units, predicted 14.494 us; best wgmma_tma: 64x128x64 tile, {{.*}} at 12.677 us (
// MANIFEST: "plan_attr": "#sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 2>"
// MANIFEST: "plan_key": "h200:{{[0-9a-f]+}}"

// A cached plan that is not among the kernel's candidates (the kernel or the
// paths changed since it was measured: gemv takes at most 16 rows) leaves
// the choice to the cost model, and the remark says so.
// STALE: remark: plan wgmma_tma: 64x128x64 tile, {{.*}}; the plan cache's #sol.plan<path = gemv, tile = [1, 4, 8], warps = [1, 4], stages = 1, split_k = 1> is not a candidate here (the kernel or the paths changed since it was measured), so the cost model chose (

// A file sol-tile cannot use is an error that says why.
// MISSING: error: sol-tile: plan-cache: cannot read '{{.*}}missing.json': {{.*}}
// BADPLAN: error: sol-tile: plan-cache: '{{.*}}bad-plan.json' entry 0: "#sol.cost<bound = memory>" is not a #sol.plan
// BADJSON: error: sol-tile: plan-cache: '{{.*}}bad-json.json' is not JSON: {{.*}}
// NOKEY: error: sol-tile: plan-cache: '{{.*}}no-key.json' entry 0 needs a "key" and a "plan" string
module attributes {sol.target = #sol.target<"h200">} {
func.func @oproj(%x: tensor<256x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<256x2560xf16>) -> tensor<256x2560xf16> {
  %0 = sol.kernel @oproj_residual ins(%x, %w, %r : tensor<256x2560xf16>, tensor<2560x2560xf16>, tensor<256x2560xf16>) -> tensor<256x2560xf16> {
  ^bb0(%a: tensor<256x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<256x2560xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<256x2560xf16>, tensor<2560x2560xf16> -> tensor<256x2560xf16>
    %s = sol.add %m, %c : tensor<256x2560xf16>, tensor<256x2560xf16> -> tensor<256x2560xf16>
    sol.yield %s : tensor<256x2560xf16>
  }
  return %0 : tensor<256x2560xf16>
}
}
