# -*- Python -*-
# lit configuration of the sol regression tests: FileCheck tests of sol-opt
# (test/Dialect, test/Transforms, ...) and the gtest unit tests (test/Unit).

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "SOL"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sol_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%sol_src_root", config.sol_src_root))
config.substitutions.append(("%sol_tools_dir", config.sol_tools_dir))
# The MLIR runtime libraries mlir-runner loads (libmlir_c_runner_utils.so, ...)
# sit next to the LLVM tools: /usr/lib/llvm-22/{bin,lib}.
config.substitutions.append(
    ("%mlir_lib_dir", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# `not` at the start of a RUN line is not substituted (only `| not` is): find
# it, like upstream MLIR, on PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.sol_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["sol-opt", "sol-capi-test"], tool_dirs)
