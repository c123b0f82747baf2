/*===- sol.h - the sol C API --------------------------------------*- C -*-===*\
|*                                                                            *|
|* A small, stable C interface to sol for frameworks that embed it (the      *|
|* Python package in python/sol, a torch.compile backend): compile sol MLIR  *|
|* text to per-kernel PTX, cubin and manifest JSON without running sol-opt,  *|
|* read the cost model's verdict, and load and launch a compiled kernel      *|
|* through the CUDA driver, which is dlopened so that the library loads on   *|
|* machines without a GPU.                                                   *|
|*                                                                            *|
|* Conventions: functions that can fail return 0 on success and nonzero on   *|
|* failure; on failure `*error` (when `error` is not NULL) receives a        *|
|* heap string the caller releases with sol_string_free (NULL only when even *|
|* that string cannot be allocated). Strings returned by accessors are owned *|
|* by the object they came from and live as long as it does.                 *|
|*                                                                            *|
|* Bad input never aborts: malformed or hostile text, manifests, options     *|
|* and targets are refused with an error, and allocation failure is an error *|
|* (never an uncaught exception). What the header guarantees, and where it   *|
|* stops, is spelled out at sol_compile.                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SOL_C_SOL_H
#define SOL_C_SOL_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define SOL_CAPI_EXPORT __declspec(dllexport)
#else
#define SOL_CAPI_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The result of one sol_compile: every kernel of the module. */
typedef struct sol_compilation sol_compilation;
/* A kernel loaded into the current CUDA device's primary context. */
typedef struct sol_loaded_kernel sol_loaded_kernel;

/* The library version, "MAJOR.MINOR.PATCH"; part of cache keys. */
SOL_CAPI_EXPORT const char *sol_version(void);

/* Releases a string this library returned through `char **error` (or from
 * sol_compilation_cost_report_json). NULL is ignored. */
SOL_CAPI_EXPORT void sol_string_free(char *string);

/*===--------------------------------------------------------------------===*
 * Compilation
 *===--------------------------------------------------------------------===*/

/* Compiles `mlir_text` (a module of sol ops in func.funcs) with the sol-to-ptx
 * pipeline: fuse, cost model, tile, lower through linalg, gpu and NVVM to PTX,
 * assemble cubins with ptxas (found through $CUDA_HOME, /usr/local/cuda, then
 * PATH).
 *
 * `target` is a preset name ("h200", "h100-sxm", ...), a path to a target JSON
 * file, or NULL to use the module's own `sol.target` attribute.
 *
 * On success `*out` owns the kernels; release it with sol_compilation_free.
 * On failure `*error` holds every diagnostic, each as
 * "<source>:<line>:<col>: error: <message>" (the source is "<input>";
 * notes, warnings and remarks come in the same form).
 *
 * What is accepted: text in the dialects a sol input uses (builtin, func,
 * sol, and arith and tensor ops left on the host); any other dialect is
 * refused by the parser ("Dialect `linalg' not found for custom op ..."), so
 * that no other dialect's parser or verifier sees the input. Empty (or blank)
 * text is an error ("the input is empty"), and so is a module without a sol
 * op ("<input>:1:1: error: the input has no sol op: nothing to compile"):
 * never an empty compilation. Text nesting brackets more than 256 deep is
 * refused before it is parsed.
 *
 * What is guaranteed: the call returns. Besides refusing bad input with
 * diagnostics, the compile runs on a thread of its own (64 MiB of stack, and
 * an alternate signal stack) inside an llvm::CrashRecoveryContext, so that a
 * crash of the compiler on an input that passed every check (a signal:
 * SIGSEGV, stack overflow included, SIGBUS, SIGFPE, SIGILL, SIGTRAP, or
 * SIGABRT from an assertion or std::terminate), an LLVM fatal
 * error (report_fatal_error, which would exit(1)), an allocation failure, or a
 * stray C++ exception comes back as an error: "sol_compile: internal error:
 * the compiler crashed (signal 11 (Segmentation fault)); this is a sol bug:
 * ..." (or "... stopped on an LLVM fatal error: <reason>; ...", or
 * "sol_compile: out of memory while compiling ..."), followed by the
 * diagnostics emitted until then. While a compile runs, the
 * process's handlers for those signals and libLLVM's fatal-error and
 * bad-alloc handlers are sol's (installed by the first of concurrent
 * compiles, the previous signal handlers restored by the last). A crash
 * signal on another thread meanwhile is not sol's: crash recovery is
 * switched off for the process (until the next compile) and the signal
 * raised again for the host's own handler; an LLVM fatal error outside a sol
 * compile exits as LLVM's default does.
 *
 * What is not: recovery is best effort, as upstream documents for crash
 * recovery. The crashed compile's memory is leaked, not freed (its state
 * cannot be trusted), and a crash that corrupted the heap or happened while
 * holding a process-wide lock (inside malloc, say) may still bring the
 * process down later; a host that sees an internal error should report it
 * and may prefer to restart. A host that installs its own libLLVM
 * fatal-error handler or uses llvm::CrashRecoveryContext itself (sharing
 * libLLVM with sol) has them replaced, then reset, by sol's while a compile
 * runs. A hang (an input that makes a pass loop) is not detected.
 *
 * The environment variable SOL_CAPI_TEST_FAULT (segv, abort, fatal, oom,
 * llvm-oom, throw) makes every compile fail that way after parsing, for
 * tests of the above; it must not be set otherwise. */
SOL_CAPI_EXPORT int sol_compile(const char *mlir_text, const char *target,
                                sol_compilation **out, char **error);

/* sol_compile with sol-to-ptx's options, space-separated `key=value` as
 * `sol-opt --sol-to-ptx="..."` takes them, parsed by the same parser
 * (SolToPTXPipelineOptions, SolDialect/Pipelines.h): e.g. `fast-math=true`
 * (every kernel's f32 tanh as one tanh.approx.f32, ~5e-4 absolute error),
 * `paths=...`, `max-split-k=N`, `max-cluster=N`, `min-cluster=N`,
 * `schedules=...`, `tiles=MxN,...` (sol-tile's constraints),
 * `fuse-siblings=true|false` (sol-fuse's sibling matmuls), `cuda-path=...`.
 * `out-dir`, `cubin`, `remarks` and `report` are the library's own and
 * refused. NULL or "" is sol_compile. An unknown key fails with a message
 * naming it and listing the options; a value its option's type refuses
 * fails too (llvm::cl names it on stderr); a value a pass refuses fails with
 * that pass's diagnostic. */
SOL_CAPI_EXPORT int sol_compile_with_options(const char *mlir_text,
                                             const char *target,
                                             const char *options,
                                             sol_compilation **out,
                                             char **error);

SOL_CAPI_EXPORT void sol_compilation_free(sol_compilation *compilation);

/* Kernels in the order the module defines them. */
SOL_CAPI_EXPORT size_t
sol_compilation_num_kernels(const sol_compilation *compilation);

/* Accessors of kernel `index`; NULL (size 0) when `index` is out of range. */
SOL_CAPI_EXPORT const char *sol_kernel_name(const sol_compilation *compilation,
                                            size_t index);
/* NUL-terminated PTX text. */
SOL_CAPI_EXPORT const char *sol_kernel_ptx(const sol_compilation *compilation,
                                           size_t index);
/* The cubin ptxas assembled for the target's chip; `*size` gets its bytes. */
SOL_CAPI_EXPORT const void *sol_kernel_cubin(const sol_compilation *compilation,
                                             size_t index, size_t *size);
/* The kernel's manifest (runtime/Manifest.h): kernel, target, launch (grid,
 * block, smem), args (name, role, dtype, shape; inputs then outputs),
 * program, outputs, plan and cost. The "ptx"/"cubin" file names in it refer
 * to the blobs above. */
SOL_CAPI_EXPORT const char *
sol_kernel_manifest_json(const sol_compilation *compilation, size_t index);

/* A dynamic kernel (docs/dynamic-shapes.md: its outermost dim is M, given at
 * launch) is a table of GPU kernels, one per range of M: its manifest has
 * "dynamic_dim" and "plans" (one row per range, naming its GPU kernel), and
 * its binaries are per row; sol_kernel_ptx and sol_kernel_cubin give "" (size
 * 0) for it. The rows' count (0 for a static kernel), and row `row`'s GPU
 * kernel name, PTX and cubin, in the manifest's "plans" order; NULL (size
 * 0) when `index` or `row` is out of range. */
SOL_CAPI_EXPORT size_t sol_kernel_num_plans(const sol_compilation *compilation,
                                            size_t index);
SOL_CAPI_EXPORT const char *
sol_kernel_plan_name(const sol_compilation *compilation, size_t index,
                     size_t row);
SOL_CAPI_EXPORT const char *
sol_kernel_plan_ptx(const sol_compilation *compilation, size_t index,
                    size_t row);
SOL_CAPI_EXPORT const void *
sol_kernel_plan_cubin(const sol_compilation *compilation, size_t index,
                      size_t row, size_t *size);

/* A JSON array with one object per kernel: {"kernel", "bound", "intensity",
 * "tc_flops", "ew_flops", "bytes", "t_ideal_us", "t_pred_us", "sol_pred",
 * "limiter"}: the manifests' cost objects. Release with sol_string_free. */
SOL_CAPI_EXPORT char *
sol_compilation_cost_report_json(const sol_compilation *compilation);

/* How the module's functions use the kernels, as JSON: one object per
 * func.func, {"name", "num_args", "launches": [{"kernel": name, "inputs":
 * [source...]}], "results": [source...], "host_ops": [op names left on the
 * host]}, where a source is {"arg": i} (function argument i) or {"kernel": k,
 * "result": j} (result j of launch k), or {"unsupported": op name}. A
 * kernel's manifest args are its inputs in this order, then its results.
 * Owned by the compilation. */
SOL_CAPI_EXPORT const char *
sol_compilation_host_program_json(const sol_compilation *compilation);

/*===--------------------------------------------------------------------===*
 * Loading and launching
 *===--------------------------------------------------------------------===*/

/* Loads `image` (a cubin, or PTX text, which the driver JIT-compiles; `size`
 * bytes, a trailing NUL is not needed) into the primary context of CUDA
 * device 0 (sol_module_load_on_device: any device) and looks up
 * `kernel_name`. `manifest_json` is the kernel's
 * manifest: it gives the launch configuration (with its thread-block
 * "cluster", if any), the argument count and the "tensor_maps" (TMA
 * descriptors) the kernel takes, and the dynamic shared memory attribute is
 * set from it. Fails with a clear error, never aborts, on machines without a
 * driver or device, or with a driver too old for the clusters or tensor maps
 * the manifest asks for. The driver is libcuda.so.1, or the library the
 * environment variable SOL_CAPI_LIBCUDA names (read once, for tests). */
SOL_CAPI_EXPORT int sol_module_load(const void *image, size_t size,
                                    const char *kernel_name,
                                    const char *manifest_json,
                                    sol_loaded_kernel **out, char **error);

/* sol_module_load on CUDA device `device` (an ordinal, as
 * torch.cuda.current_device() gives it): the module goes into that device's
 * primary context, and sol_kernel_launch makes that context current on the
 * calling thread before each launch (the stream must belong to that device).
 * Fails with a clear error for an ordinal no device has. */
SOL_CAPI_EXPORT int sol_module_load_on_device(const void *image, size_t size,
                                              const char *kernel_name,
                                              const char *manifest_json,
                                              int device,
                                              sol_loaded_kernel **out,
                                              char **error);

/* Loads a kernel from `num_images` images (`images[i]`, `sizes[i]` bytes):
 * for a dynamic manifest one per "plans" row, in order (the rows'
 * sol_kernel_plan_cubin), each looked up by its row's kernel name; for a
 * static one, one image (sol_module_load_on_device). `kernel_name` is the
 * manifest's "kernel". sol_module_load and sol_module_load_on_device refuse
 * a dynamic manifest (naming this function). */
SOL_CAPI_EXPORT int sol_module_load_plans(const void *const *images,
                                          const size_t *sizes,
                                          size_t num_images,
                                          const char *kernel_name,
                                          const char *manifest_json,
                                          int device, sol_loaded_kernel **out,
                                          char **error);

/* The device ordinal a loaded kernel lives on (-1 for NULL). */
SOL_CAPI_EXPORT int sol_loaded_kernel_device(const sol_loaded_kernel *kernel);

/* Launches the kernel asynchronously on `cuda_stream` (a CUstream; NULL is
 * the legacy default stream). `arg_device_pointers` holds one device pointer
 * (CUdeviceptr, cast to void *) per manifest arg: inputs, then outputs;
 * `num_args` must equal the manifest's count. For a kernel with tensor maps,
 * the maps are encoded on the host over these buffers (16-byte aligned ones)
 * at each call and passed by value after the args' pointers (one 128-byte
 * CUtensorMap parameter per "tensor_maps" entry): nothing is allocated on the
 * device and nothing synchronizes, so a launch may be captured in a CUDA
 * graph (the captured maps keep describing the buffers given here). */
SOL_CAPI_EXPORT int sol_kernel_launch(sol_loaded_kernel *kernel,
                                      void **arg_device_pointers,
                                      size_t num_args, void *cuda_stream,
                                      char **error);

/* sol_kernel_launch for a dynamic kernel at M = `dim`, the outermost dim of
 * its dynamic arguments (the buffers hold M rows of them): the row holding
 * M, its grid for M (the row's "grid_rows"), its tensor maps over M rows,
 * and M passed as the kernel's last (i64) parameter. M = 0 launches nothing
 * and succeeds (the outputs are empty); an M outside the manifest's
 * "dynamic_dim" is an error naming the range. sol_kernel_launch refuses a
 * dynamic kernel and this function a static one. */
SOL_CAPI_EXPORT int sol_kernel_launch_dim(sol_loaded_kernel *kernel,
                                          void **arg_device_pointers,
                                          size_t num_args, int64_t dim,
                                          void *cuda_stream, char **error);

/* 1 and the range of M (`*min`, `*max`, each when not NULL) for a dynamic
 * kernel, 0 for a static one or NULL. */
SOL_CAPI_EXPORT int sol_loaded_kernel_dim_range(const sol_loaded_kernel *kernel,
                                                int64_t *min, int64_t *max);

/* The manifest's argument count (inputs and outputs). */
SOL_CAPI_EXPORT size_t
sol_loaded_kernel_num_args(const sol_loaded_kernel *kernel);

/* A CUfunction_attribute of the loaded kernel's function (a dynamic
 * kernel's first plan row), e.g. 4 for its registers per thread
 * (CU_FUNC_ATTRIBUTE_NUM_REGS), 3 for its local (spill) bytes: cuda.h's
 * values. 0 and `*value` on success; non-zero and `*error` (when not NULL;
 * free it with sol_string_free) otherwise, also when the driver lacks
 * cuFuncGetAttribute. */
SOL_CAPI_EXPORT int sol_loaded_kernel_attribute(const sol_loaded_kernel *kernel,
                                                int attribute, int *value,
                                                char **error);

/* Whether `manifest_json` is a manifest the launcher takes, checked as
 * sol_module_load checks it (fields, ranges, tensor maps, clusters, the
 * program) without a GPU: 0, or non-zero and `*error` naming the field by
 * its JSON path. */
SOL_CAPI_EXPORT int sol_manifest_check(const char *manifest_json,
                                       char **error);

/* Unloads the module. NULL is ignored. */
SOL_CAPI_EXPORT void sol_loaded_kernel_free(sol_loaded_kernel *kernel);

#ifdef __cplusplus
}
#endif

#endif /* SOL_C_SOL_H */
