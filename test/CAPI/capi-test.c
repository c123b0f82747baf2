/*===- capi-test.c - the sol C API, end to end, from plain C --------------===*\
|*                                                                            *|
|* Compiles the seed example through include/sol-c/sol.h, inspects kernels,  *|
|* PTX, cubin, manifest and cost report, checks that bad input comes back as *|
|* an error string with a location, and that loading or launching on a       *|
|* machine without a GPU fails cleanly. Plain C so that the header is proven *|
|* to need no C++.                                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

// RUN: sol-capi-test %sol_src_root/examples/oproj_residual.mlir | FileCheck %s

/* setenv and unsetenv, for the fault-injection cases. */
#define _POSIX_C_SOURCE 200809L

#include "sol-c/sol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, file) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(file);
  return text;
}

/* Compiles `text` and prints what came back under `label`, success or not:
 * for inputs whose outcome other fixes may change, where what matters is
 * that the call returns (the process survives) with a coherent answer. */
static int expectSurvives(const char *label, const char *text,
                          const char *target) {
  sol_compilation *compilation = NULL;
  char *error = NULL;
  int status = sol_compile(text, target, &compilation, &error);
  int bad = status == 0 ? compilation == NULL || error != NULL
                        : compilation != NULL || error == NULL || !*error;
  printf("%s: survived (%s)\n", label, status == 0 ? "compiled" : "error");
  if (status != 0)
    printf("  %s\n", error ? error : "(no message)");
  sol_compilation_free(compilation);
  sol_string_free(error);
  return bad;
}

/* Compiles `text` expecting failure; prints the error under `label`. */
static int expectCompileError(const char *label, const char *text,
                              const char *target) {
  sol_compilation *compilation = NULL;
  char *error = NULL;
  if (sol_compile(text, target, &compilation, &error) == 0) {
    printf("%s: unexpectedly compiled\n", label);
    sol_compilation_free(compilation);
    return 1;
  }
  printf("%s: %s\n", label, error ? error : "(no message)");
  sol_string_free(error);
  return compilation != NULL;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: sol-capi-test <sol module .mlir>\n");
    return 2;
  }
  char *text = readFile(argv[1]);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  int failures = 0;

  // CHECK: version: {{[0-9]+\.[0-9]+\.[0-9]+}}
  printf("version: %s\n", sol_version());

  sol_compilation *compilation = NULL;
  char *error = NULL;
  if (sol_compile(text, NULL, &compilation, &error) != 0) {
    printf("compile failed: %s\n", error);
    return 1;
  }
  // CHECK: kernels: 1
  size_t numKernels = sol_compilation_num_kernels(compilation);
  printf("kernels: %zu\n", numKernels);
  for (size_t i = 0; i < numKernels; ++i) {
    const char *name = sol_kernel_name(compilation, i);
    const char *ptx = sol_kernel_ptx(compilation, i);
    size_t cubinSize = 0;
    const unsigned char *cubin = sol_kernel_cubin(compilation, i, &cubinSize);
    const char *manifest = sol_kernel_manifest_json(compilation, i);
    // CHECK: kernel 0: [[NAME:[a-z_0-9]+]]
    printf("kernel %zu: %s\n", i, name);
    // CHECK-NEXT: ptx entry: yes
    char entry[256];
    snprintf(entry, sizeof(entry), ".entry %s(", name);
    printf("ptx entry: %s\n", strstr(ptx, entry) ? "yes" : "no");
    // CHECK-NEXT: cubin: ELF
    int isElf = cubinSize > 4 && memcmp(cubin, "\177ELF", 4) == 0;
    printf("cubin: %s\n", isElf ? "ELF" : "not an ELF");
    // CHECK-NEXT: manifest: {{.*}}"kernel": "[[NAME]]"
    const char *key = strstr(manifest, "\"kernel\"");
    const char *end = key ? strchr(key, ',') : NULL;
    printf("manifest: %.*s\n", end ? (int)(end - key) : 0, key ? key : "");
  }
  // Out-of-range accessors answer NULL, not a crash.
  // CHECK-NEXT: out of range: null
  size_t size = 1;
  printf("out of range: %s\n",
         !sol_kernel_name(compilation, numKernels) &&
                 !sol_kernel_cubin(compilation, numKernels, &size) && size == 0
             ? "null"
             : "not null");

  // CHECK: cost: [{"bound":"compute"{{.*}}"kernel":"[[NAME]]"{{.*}}"sol_pred":
  char *cost = sol_compilation_cost_report_json(compilation);
  printf("cost: %s\n", cost);
  sol_string_free(cost);

  // The host side: one launch reading the function's three arguments.
  // CHECK: host:
  // [{"host_ops":[],"launches":[{"inputs":[{"arg":0},{"arg":1},{"arg":2}],"kernel":"[[NAME]]"}],"name":"oproj_residual","num_args":3,"results":[{"kernel":0,"result":0}]}]
  printf("host: %s\n", sol_compilation_host_program_json(compilation));

  // A machine without a GPU (or driver) fails to load, with a message; one
  // with a GPU loads the kernel, and a launch with the wrong argument count
  // is refused before it reaches the driver.
  // CHECK: load: {{ok|error: sol_module_load: .+}}
  sol_loaded_kernel *loaded = NULL;
  size_t cubinSize = 0;
  const void *cubin = sol_kernel_cubin(compilation, 0, &cubinSize);
  if (sol_module_load(cubin, cubinSize, sol_kernel_name(compilation, 0),
                      sol_kernel_manifest_json(compilation, 0), &loaded,
                      &error) == 0) {
    printf("load: ok\n");
  } else {
    printf("load: error: %s\n", error);
    sol_string_free(error);
    failures += loaded != NULL;
  }
  // CHECK: launch: error: sol_kernel_launch: {{.+}}
  void *pointers[1] = {NULL};
  if (sol_kernel_launch(loaded, pointers, 1, NULL, &error) == 0) {
    printf("launch: unexpectedly launched\n");
    ++failures;
  } else {
    printf("launch: error: %s\n", error);
    sol_string_free(error);
  }
  sol_loaded_kernel_free(loaded);
  // CHECK: bad manifest: error: sol_module_load: {{.+}}
  if (sol_module_load(cubin, cubinSize, "k", "{}", &loaded, &error) == 0) {
    printf("bad manifest: unexpectedly loaded\n");
    ++failures;
  } else {
    printf("bad manifest: error: %s\n", error);
    sol_string_free(error);
  }
  // The same reader without a GPU: the compiler's manifest passes, malformed
  // text names where it broke.
  // CHECK: manifest check: ok
  if (sol_manifest_check(sol_kernel_manifest_json(compilation, 0), &error)) {
    printf("manifest check: error: %s\n", error);
    sol_string_free(error);
    ++failures;
  } else {
    printf("manifest check: ok\n");
  }
  // CHECK: manifest check: error: sol_manifest_check: malformed JSON: parse error at line 1, column 12
  if (sol_manifest_check("{\"kernel\": }", &error) == 0) {
    printf("manifest check: unexpectedly ok\n");
    ++failures;
  } else {
    printf("manifest check: error: %s\n", error);
    sol_string_free(error);
  }
  // Manifests are range-checked before use: an arg index of 2^31 was a
  // negative int (SIGSEGV in sol-run), 2^32 silently 0.
  // CHECK: manifest index: error: sol_module_load: program[2] (arg): "index"
  // = 2147483648 out of range (0 to 2147483647)
  {
    const char *manifest = sol_kernel_manifest_json(compilation, 0);
    const char *index = strstr(manifest, "\"index\": 2");
    if (!index) {
      printf("manifest index: no \"index\": 2 in the manifest\n");
      ++failures;
    } else {
      size_t prefix = (size_t)(index - manifest) + strlen("\"index\": ");
      char *edited = malloc(strlen(manifest) + 16);
      memcpy(edited, manifest, prefix);
      strcpy(edited + prefix, "2147483648");
      strcat(edited, index + strlen("\"index\": 2"));
      if (sol_module_load(cubin, cubinSize, sol_kernel_name(compilation, 0),
                          edited, &loaded, &error) == 0) {
        printf("manifest index: unexpectedly loaded\n");
        ++failures;
      } else {
        printf("manifest index: error: %s\n", error);
        sol_string_free(error);
      }
      free(edited);
    }
  }
  sol_compilation_free(compilation);
  free(text);

  // Bad input: every diagnostic, with its location.
  // CHECK: syntax: <input>:2:{{[0-9]+}}: error: {{.+}}
  failures +=
      expectCompileError("syntax", "module {\n  func.func @f( {\n}\n", NULL);
  // CHECK: verifier: <input>:3:{{[0-9]+}}: error: 'sol.add' op {{.+}}
  failures += expectCompileError(
      "verifier",
      "func.func @f(%a: tensor<4x8xf16>, %b: tensor<4x9xf16>) -> "
      "tensor<4x8xf16> {\n"
      "  %x = sol.relu %a : tensor<4x8xf16>\n"
      "  %y = sol.add %x, %b : tensor<4x8xf16>, tensor<4x9xf16> -> "
      "tensor<4x8xf16>\n"
      "  return %y : tensor<4x8xf16>\n}\n",
      "h200");
  // CHECK: target: <input>:1:1: error: unknown target 'no-such-gpu': neither a
  // preset (known: {{.*}}h200{{.*}}) nor an existing target JSON file
  failures += expectCompileError("target", "module {}\n", "no-such-gpu");
  // CHECK: no target: <input>:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}needs a
  // target
  failures += expectCompileError(
      "no target",
      "func.func @f(%a: tensor<4x8xf16>) -> tensor<4x8xf16> {\n"
      "  %x = sol.relu %a : tensor<4x8xf16>\n"
      "  return %x : tensor<4x8xf16>\n}\n",
      NULL);
  // CHECK: null input: sol_compile: mlir_text and out must not be NULL
  failures += expectCompileError("null input", NULL, NULL);

  // Issue 15: text without sol ops and a preset target crashed in
  // getTargetPreset (the sol dialect was not loaded yet). Empty text is an
  // error of its own; a module without a sol op is one at its location.
  // CHECK: empty: sol_compile: the input is empty (expected a module of sol
  // ops in func.funcs)
  failures += expectCompileError("empty", "", "h200");
  // CHECK: blank: sol_compile: the input is empty
  failures += expectCompileError("blank", " \n\t\n", "h200");
  // CHECK: empty module: <input>:1:1: error: the input has no sol op:
  // nothing to compile (sol_compile takes func.funcs of sol ops)
  failures += expectCompileError("empty module", "module {}", "h200");
  // CHECK: no sol op: <input>:1:1: error: the input has no sol op
  failures +=
      expectCompileError("no sol op",
                         "func.func @f(%a: tensor<4xf16>) -> tensor<4xf16> {\n"
                         "  return %a : tensor<4xf16>\n}\n",
                         "h200");
  // CHECK: no sol op, no target: <input>:1:1: error: the input has no sol op
  failures += expectCompileError("no sol op, no target", "module {}", NULL);
  // Only the dialects a sol input uses are parsed (builtin, func, sol, arith,
  // tensor): upstream's linalg.generic parser crashes on iterator_types =
  // [0] (an unchecked cast to StringAttr), and other dialects are refused
  // before their parsers run.
  // CHECK: linalg: <input>:3:{{[0-9]+}}: error: Dialect `linalg' not found
  // for custom op 'linalg.generic'
  failures += expectCompileError(
      "linalg",
      "#map = affine_map<(d0) -> (d0)>\n"
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = "
      "[0]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {\n"
      "  ^bb0(%x: f32, %y: f32):\n"
      "    linalg.yield %x : f32\n"
      "  } -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n}\n",
      "h200");
  // CHECK: memref: <input>:2:{{[0-9]+}}: error: Dialect `memref' not found
  // for custom op 'memref.alloc'
  failures += expectCompileError(
      "memref",
      "func.func @main(%x: memref<8xf32>) -> memref<8xf32> {\n"
      "  %a = memref.alloc() : memref<8xf32>\n"
      "  return %a : memref<8xf32>\n}\n",
      "h200");
  // CHECK: generic form: <input>:1:{{[0-9]+}}: error: operation being parsed
  // with an unregistered dialect
  failures += expectCompileError("generic form",
                                 "\"linalg.yield\"() : () -> ()", "h200");
  // Nesting deep enough to exhaust the parser's stack is refused unparsed.
  {
    enum { Depth = 100000 };
    char *deep = malloc(2 * Depth + 1);
    for (int i = 0; i < Depth; ++i) {
      deep[i] = '[';
      deep[Depth + i] = ']';
    }
    deep[2 * Depth] = '\0';
    // CHECK: deep: sol_compile: the input nests brackets 100000 deep (at
    // most 256)
    failures += expectCompileError("deep", deep, "h200");
    free(deep);
  }
  // CHECK: truncated: <input>:2:{{[0-9]+}}: error: {{.+}}
  failures += expectCompileError(
      "truncated",
      "func.func @f(%a: tensor<4x8xf16>) -> tensor<4x8xf16> {\n"
      "  %x = sol.relu %a : tensor<4x8",
      "h200");

  // Options as sol-opt spells them: fast-math puts tanh.approx.f32 in the
  // GELU epilogue's PTX; an unknown option is an error naming it.
  const char *gelu =
      "module attributes {sol.target = #sol.target<\"h200\">} {\n"
      "func.func @g(%x: tensor<64x128xf16>, %w: tensor<256x128xf16>) -> "
      "tensor<64x256xf16> {\n"
      "  %m = sol.matmul %x, %w transpose_b : tensor<64x128xf16>, "
      "tensor<256x128xf16> -> tensor<64x256xf16>\n"
      "  %g = sol.gelu tanh %m : tensor<64x256xf16>\n"
      "  return %g : tensor<64x256xf16>\n}\n}\n";
  for (int fast = 0; fast < 2; ++fast) {
    sol_compilation *compiled = NULL;
    char *error = NULL;
    if (sol_compile_with_options(gelu, NULL, fast ? "fast-math=true" : "",
                                 &compiled, &error) != 0) {
      printf("options: %s\n", error);
      sol_string_free(error);
      ++failures;
      continue;
    }
    // CHECK: fast-math=0: tanh.approx 0
    // CHECK: fast-math=1: tanh.approx 1
    printf("fast-math=%d: tanh.approx %d\n", fast,
           strstr(sol_kernel_ptx(compiled, 0), "tanh.approx.f32") != NULL);
    sol_compilation_free(compiled);
  }
  // The options are sol-to-ptx's, parsed by its own parser: an unknown key
  // is refused with the known ones, a value reaches its pass (max-split-k=0
  // is sol-tile's error), and where the outputs go is the library's.
  // CHECK: bad option: sol_compile: bad options 'fast-math=true no-such=1':
  // CHECK-SAME: no such option no-such (sol-to-ptx's options, with their
  // CHECK-SAME: defaults: {{.*}}max-split-k=16{{.*}})
  // CHECK: bad option: {{.*}}error: sol-tile: min-cluster, max-cluster and
  // CHECK-SAME: max-split-k must be at least 1 (got 1, 1 and 0)
  // CHECK: bad option: sol_compile: option 'out-dir' is the library's own
  const char *badOptions[] = {"fast-math=true no-such=1", "max-split-k=0",
                              "out-dir=/tmp"};
  for (size_t i = 0; i < sizeof(badOptions) / sizeof(badOptions[0]); ++i) {
    sol_compilation *compiled = NULL;
    char *error = NULL;
    if (sol_compile_with_options(gelu, NULL, badOptions[i], &compiled,
                                 &error) == 0) {
      ++failures;
      sol_compilation_free(compiled);
    } else {
      printf("bad option: %s\n", error);
      sol_string_free(error);
    }
  }

  // Inputs that crashed the compiler itself (being fixed in the compiler):
  // whatever each gives now, the call returns and the process lives on.
  // CHECK: b200: survived
  failures += expectSurvives(
      "b200",
      "func.func @silu(%a: tensor<64x64xf16>) -> tensor<64x64xf16> {\n"
      "  %v = sol.silu %a : tensor<64x64xf16>\n"
      "  return %v : tensor<64x64xf16>\n}\n",
      "b200");
  // CHECK: sm_0: survived
  failures += expectSurvives(
      "sm_0",
      "module attributes {sol.target = #sol.target<name = \"fuzz\", chip = "
      "\"sm_0\", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.0, "
      "bf16_tflops = 989.0, tf32_tflops = 494.7, fp8_tflops = 1978.9, "
      "f32_simt_tflops = 66.9, hbm_gbps = 4800.0, l2_gbps = 2000.0, l2_bytes "
      "= 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, "
      "launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {\n"
      "func.func @k(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> "
      "tensor<64x64xf16> {\n"
      "  %c = sol.add %a, %b : tensor<64x64xf16>, tensor<64x64xf16> -> "
      "tensor<64x64xf16>\n"
      "  return %c : tensor<64x64xf16>\n}\n}\n",
      NULL);
  // CHECK: m = 0: survived
  failures += expectSurvives(
      "m = 0",
      "func.func @m_zero(%a: tensor<0x40xbf16>, %b: tensor<77x40xbf16>) -> "
      "tensor<0x77xbf16> {\n"
      "  %m = sol.matmul %a, %b transpose_b : tensor<0x40xbf16>, "
      "tensor<77x40xbf16> -> tensor<0x77xbf16>\n"
      "  return %m : tensor<0x77xbf16>\n}\n",
      "h200");
  // CHECK: symbol: survived
  failures += expectSurvives(
      "symbol",
      "func.func @\"/\"(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> "
      "tensor<64x64xf16> {\n"
      "  %c = sol.add %a, %b : tensor<64x64xf16>, tensor<64x64xf16> -> "
      "tensor<64x64xf16>\n"
      "  return %c : tensor<64x64xf16>\n}\n",
      "h200");

  // Upstream's affine-expression parser recurses once per unary minus: a
  // long run of them overflows any stack (brackets do not show it). The
  // crash handler runs on an alternate signal stack and the call returns.
  {
    enum { Minuses = 200000 };
    const char *head = "#m = affine_map<(d0) -> (";
    const char *tail =
        "d0)>\nfunc.func @f(%a: tensor<4xf16>) -> tensor<4xf16> attributes "
        "{m = #m} {\n  %x = sol.relu %a : tensor<4xf16>\n"
        "  return %x : tensor<4xf16>\n}\n";
    char *deep = malloc(strlen(head) + Minuses + strlen(tail) + 1);
    strcpy(deep, head);
    memset(deep + strlen(head), '-', Minuses);
    strcpy(deep + strlen(head) + Minuses, tail);
    // CHECK: overflow: survived (error)
    // CHECK-NEXT: sol_compile: internal error: the compiler crashed (signal
    // 11
    failures += expectSurvives("overflow", deep, "h200");
    free(deep);
  }

  // The last line of defence, driven by SOL_CAPI_TEST_FAULT: a signal, an
  // abort, an LLVM fatal error (which would exit(1)), an allocation failure
  // and a stray exception inside the compile each come back as an error;
  // then a normal compile in the same process still works.
  // CHECK: fault segv: sol_compile: internal error: the compiler crashed
  // (signal 11 ({{.+}})); this is a sol bug: please report it with the input
  // CHECK: fault abort: sol_compile: internal error: the compiler crashed
  // (signal 6 ({{.+}}))
  // CHECK: fault fatal: sol_compile: internal error: the compiler stopped on
  // an LLVM fatal error: SOL_CAPI_TEST_FAULT=fatal
  // CHECK: fault oom: sol_compile: out of memory while compiling (the
  // compile was abandoned)
  // CHECK: fault llvm-oom: sol_compile: out of memory while compiling
  // CHECK: fault throw: sol_compile: internal error: the compiler threw an
  // unexpected C++ exception
  const char *faults[] = {"segv", "abort", "fatal", "oom", "llvm-oom", "throw"};
  for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); ++i) {
    char label[64];
    snprintf(label, sizeof(label), "fault %s", faults[i]);
    setenv("SOL_CAPI_TEST_FAULT", faults[i], 1);
    failures += expectCompileError(label, gelu, NULL);
  }
  unsetenv("SOL_CAPI_TEST_FAULT");
  {
    sol_compilation *compiled = NULL;
    char *error = NULL;
    // CHECK: after faults: 1 kernel
    if (sol_compile(gelu, NULL, &compiled, &error) != 0) {
      printf("after faults: %s\n", error);
      sol_string_free(error);
      ++failures;
    } else {
      printf("after faults: %zu kernel\n",
             sol_compilation_num_kernels(compiled));
      sol_compilation_free(compiled);
    }
  }

  // A dynamic kernel (docs/dynamic-shapes.md): its binaries come per row of
  // its plan table, named as its manifest's "plans" rows name them; it loads
  // through sol_module_load_plans (one image per row) and launches through
  // sol_kernel_launch_dim with its M.
  {
    const char *dynamic =
        "module attributes {sol.target = #sol.target<\"h200\">} {\n"
        "func.func @d(%x: tensor<?x256xf16>, %w: tensor<256x256xf16>) -> "
        "tensor<?x256xf16> attributes {sol.dim_range = #sol.dim_range<min = "
        "1, max = 8192>} {\n"
        "  %m = sol.matmul %x, %w transpose_b : tensor<?x256xf16>, "
        "tensor<256x256xf16> -> tensor<?x256xf16>\n"
        "  return %m : tensor<?x256xf16>\n"
        "}\n"
        "}\n";
    sol_compilation *compiled = NULL;
    char *error = NULL;
    if (sol_compile(dynamic, NULL, &compiled, &error) != 0) {
      printf("dynamic: %s\n", error);
      sol_string_free(error);
      ++failures;
    } else {
      size_t rows = sol_kernel_num_plans(compiled, 0);
      const char *manifest = sol_kernel_manifest_json(compiled, 0);
      size_t size = 0;
      sol_kernel_cubin(compiled, 0, &size);
      // CHECK: dynamic: rows {{[1-9][0-9]*}}, no top-level binaries 1, dynamic_dim 1
      printf("dynamic: rows %zu, no top-level binaries %d, dynamic_dim %d\n",
             rows, size == 0 && !*sol_kernel_ptx(compiled, 0),
             strstr(manifest, "\"dynamic_dim\"") != NULL);
      int named = 1, binaries = 1;
      const void *images[64];
      size_t sizes[64];
      for (size_t row = 0; row < rows && row < 64; ++row) {
        const char *name = sol_kernel_plan_name(compiled, 0, row);
        char quoted[256];
        snprintf(quoted, sizeof(quoted), "\"kernel\": \"%s\"", name);
        named &= strncmp(name, "d_matmul_0__m", 13) == 0 &&
                 strstr(manifest, quoted) != NULL;
        char entry[256];
        snprintf(entry, sizeof(entry), ".entry %s(", name);
        images[row] = sol_kernel_plan_cubin(compiled, 0, row, &sizes[row]);
        binaries &= strstr(sol_kernel_plan_ptx(compiled, 0, row), entry) !=
                        NULL &&
                    sizes[row] > 4 && memcmp(images[row], "\x7f" "ELF", 4) == 0;
      }
      // CHECK-NEXT: rows named in the manifest 1, their PTX entries and cubins 1
      printf("rows named in the manifest %d, their PTX entries and cubins "
             "%d\n",
             named, binaries);
      // CHECK-NEXT: row out of range: null
      printf("row out of range: %s\n",
             sol_kernel_plan_name(compiled, 0, rows) ? "non-null" : "null");
      sol_loaded_kernel *loaded = NULL;
      // CHECK-NEXT: one image: error: sol_module_load: kernel 'd_matmul_0' is dynamic (M in [1, 8192]): load its {{[0-9]+}} plan rows' images with sol_module_load_plans
      if (sol_module_load(images[0], sizes[0], "d_matmul_0", manifest,
                          &loaded, &error) == 0) {
        printf("one image: unexpectedly loaded\n");
        ++failures;
      } else {
        printf("one image: error: %s\n", error);
        sol_string_free(error);
      }
      // CHECK-NEXT: too few images: error: sol_module_load_plans: kernel 'd_matmul_0' takes {{[0-9]+}} images (one per plans row), got 0
      if (sol_module_load_plans(images, sizes, 0, "d_matmul_0", manifest, 0,
                                &loaded, &error) == 0) {
        printf("too few images: unexpectedly loaded\n");
        ++failures;
      } else {
        printf("too few images: error: %s\n", error);
        sol_string_free(error);
      }
      // CHECK-NEXT: load plans: {{ok|error: sol_module_load_plans: .+}}
      if (sol_module_load_plans(images, sizes, rows, "d_matmul_0", manifest, 0,
                                &loaded, &error) == 0) {
        printf("load plans: ok\n");
      } else {
        printf("load plans: error: %s\n", error);
        sol_string_free(error);
        failures += loaded != NULL;
      }
      // CHECK-NEXT: launch dim: error: sol_kernel_launch_dim: {{.+}}
      void *pointers[1] = {NULL};
      if (sol_kernel_launch_dim(loaded, pointers, 1, 7, NULL, &error) == 0) {
        printf("launch dim: unexpectedly launched\n");
        ++failures;
      } else {
        printf("launch dim: error: %s\n", error);
        sol_string_free(error);
      }
      // CHECK-NEXT: dim range of nothing: 0
      printf("dim range of nothing: %d\n",
             sol_loaded_kernel_dim_range(NULL, NULL, NULL));
      sol_loaded_kernel_free(loaded);
      sol_compilation_free(compiled);
    }
  }

  // CHECK: failures: 0
  printf("failures: %d\n", failures);
  return failures != 0;
}
