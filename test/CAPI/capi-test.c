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
  {
    sol_compilation *compiled = NULL;
    char *error = NULL;
    // CHECK: bad option: sol_compile: bad option 'max-cluster=0' (known:
    // {{.*}})
    if (sol_compile_with_options(gelu, NULL, "fast-math=true max-cluster=0",
                                 &compiled, &error) == 0) {
      ++failures;
      sol_compilation_free(compiled);
    } else {
      printf("bad option: %s\n", error);
      sol_string_free(error);
    }
  }

  // CHECK: failures: 0
  printf("failures: %d\n", failures);
  return failures != 0;
}
