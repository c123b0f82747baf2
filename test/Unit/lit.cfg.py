# -*- Python -*-
# Runs the gtest binaries under build/unittests as part of check-sol.

import os

import lit.formats

config.name = "SOL-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.sol_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
