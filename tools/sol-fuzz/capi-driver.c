/*===- capi-driver.c - sol-fuzz's target for the C API --------------------===*\
|*                                                                            *|
|* sol-fuzz.py compiles this file with cc against include/sol-c/sol.h and    *|
|* build/lib/libsol_capi.so into its work directory (no CMake target: the    *|
|* fuzzer is the only user). Two modes:                                       *|
|*                                                                            *|
|*   capi-driver compile <in.mlir> <target|-> <options|-> <outdir>            *|
|*       sol_compile_with_options on the file's text ("-" is NULL), then      *|
|*       every accessor of every kernel, one past the end, the cost report    *|
|*       and the host program; writes <outdir>/manifest-<i>.json,             *|
|*       <outdir>/cost.json and <outdir>/host.json for the fuzzer to parse.   *|
|*   capi-driver load <manifest.json> <kernel name>                           *|
|*       sol_module_load of a dummy image with that manifest (it parses the   *|
|*       manifest before it looks for a CUDA driver).                         *|
|*                                                                            *|
|* Exit status: 0 success, 1 an ordinary error (a message came back), 3 the  *|
|* API broke its contract (failure without a message, a compilation on      *|
|* failure, success without one, a NULL accessor in range); the fuzzer       *|
|* reports status 3 and every signal. Progress goes to stderr ("capi: ..."),  *|
|* so a crash names the call it happened in.                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "sol-c/sol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *readFile(const char *path, size_t *sizeOut) {
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
  if (sizeOut)
    *sizeOut = (size_t)size;
  return text;
}

static void step(const char *what) {
  fprintf(stderr, "capi: %s\n", what);
  fflush(stderr);
}

static int writeText(const char *dir, const char *name, const char *text) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *file = fopen(path, "wb");
  if (!file)
    return 1;
  fputs(text ? text : "", file);
  fclose(file);
  return 0;
}

static const char *orNull(const char *argument) {
  return strcmp(argument, "-") == 0 ? NULL : argument;
}

static int compileMode(const char *path, const char *target,
                       const char *options, const char *outDir) {
  char *text = readFile(path, NULL);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", path);
    return 2;
  }
  sol_compilation *compilation = NULL;
  char *error = NULL;
  step("sol_compile_with_options");
  int status =
      sol_compile_with_options(text, target, options, &compilation, &error);
  free(text);
  if (status != 0) {
    if (!error) {
      printf("contract: failure without an error message\n");
      return 3;
    }
    printf("error: %s\n", error);
    sol_string_free(error);
    if (compilation) {
      printf("contract: a compilation came back with the failure\n");
      return 3;
    }
    return 1;
  }
  if (!compilation) {
    printf("contract: success without a compilation\n");
    return 3;
  }
  sol_string_free(error); /* NULL on success; must be harmless either way */
  int contract = 0;
  step("sol_compilation_num_kernels");
  size_t count = sol_compilation_num_kernels(compilation);
  printf("kernels: %zu\n", count);
  for (size_t i = 0; i <= count; ++i) {
    char label[64];
    snprintf(label, sizeof(label), "kernel %zu accessors", i);
    step(label);
    const char *name = sol_kernel_name(compilation, i);
    const char *ptx = sol_kernel_ptx(compilation, i);
    size_t size = 12345;
    const void *cubin = sol_kernel_cubin(compilation, i, &size);
    const char *manifest = sol_kernel_manifest_json(compilation, i);
    if (i == count) {
      if (name || ptx || cubin || manifest || size != 0) {
        printf("contract: accessor one past the end is not NULL/0\n");
        contract = 1;
      }
      break;
    }
    if (!name || !ptx || !manifest) {
      printf("contract: NULL accessor for kernel %zu\n", i);
      contract = 1;
      continue;
    }
    /* Touch every byte, as a caller would. */
    volatile size_t total = strlen(name) + strlen(ptx) + strlen(manifest);
    (void)total;
    char file[64];
    snprintf(file, sizeof(file), "manifest-%zu.json", i);
    writeText(outDir, file, manifest);
    if (cubin && size) {
      step("sol_module_load");
      sol_loaded_kernel *loaded = NULL;
      char *loadError = NULL;
      if (sol_module_load(cubin, size, name, manifest, &loaded, &loadError) ==
          0) {
        sol_loaded_kernel_free(loaded);
      } else {
        if (!loadError) {
          printf("contract: sol_module_load failed without a message\n");
          contract = 1;
        }
        sol_string_free(loadError);
      }
    }
  }
  step("sol_compilation_cost_report_json");
  char *cost = sol_compilation_cost_report_json(compilation);
  writeText(outDir, "cost.json", cost);
  sol_string_free(cost);
  step("sol_compilation_host_program_json");
  writeText(outDir, "host.json",
            sol_compilation_host_program_json(compilation));
  step("sol_compilation_free");
  sol_compilation_free(compilation);
  step("done");
  return contract ? 3 : 0;
}

static int loadMode(const char *path, const char *kernelName) {
  char *manifest = readFile(path, NULL);
  if (!manifest) {
    fprintf(stderr, "cannot read %s\n", path);
    return 2;
  }
  static const unsigned char image[] = "// not a cubin\n";
  sol_loaded_kernel *loaded = NULL;
  char *error = NULL;
  step("sol_module_load");
  int status = sol_module_load(image, sizeof(image), kernelName, manifest,
                               &loaded, &error);
  free(manifest);
  if (status == 0) {
    step("sol_loaded_kernel_num_args");
    printf("loaded: %zu args\n", sol_loaded_kernel_num_args(loaded));
    sol_loaded_kernel_free(loaded);
    return 0;
  }
  if (!error) {
    printf("contract: sol_module_load failed without a message\n");
    return 3;
  }
  printf("error: %s\n", error);
  sol_string_free(error);
  return loaded ? 3 : 1;
}

int main(int argc, char **argv) {
  if (argc == 6 && strcmp(argv[1], "compile") == 0)
    return compileMode(argv[2], orNull(argv[3]), orNull(argv[4]), argv[5]);
  if (argc == 4 && strcmp(argv[1], "load") == 0)
    return loadMode(argv[2], argv[3]);
  fprintf(stderr, "usage: capi-driver compile <in.mlir> <target|-> "
                  "<options|-> <outdir>\n"
                  "       capi-driver load <manifest.json> <kernel>\n");
  return 2;
}
