# Kernels load on the CUDA device their tensors live on: Kernel.load(device)
# puts the module in that device's primary context (the C API's
# sol_module_load_on_device), once per device; an ordinal no device has is a
# SolError. Run against the fake driver of the unit tests with two devices.
# RUN: env SOL_FAKE_CUDA_DEVICES=2 %sol_python %s | FileCheck %s

import os

os.environ["SOL_CAPI_LIBCUDA"] = os.environ["SOL_FAKE_CUDA_DRIVER"]

import sol  # noqa: E402
from sol._capi import lib  # noqa: E402

# The fake driver's kernel add_f32 (unittests/FakeCudaDriver.c) with the
# unit tests' manifest for it.
arg = '{{"name": "{}", "role": "{}", "dtype": "f32", "shape": [3, 5]}}'
manifest = ('{"kernel": "add_f32", "launch": {"grid": [1, 1, 1], "block": '
            '[32, 1, 1]}, "args": [' + arg.format("a", "input") + ", " +
            arg.format("b", "input") + ", " + arg.format("out", "output") +
            '], "program": [{"op": "arg", "index": 0}, {"op": "arg", '
            '"index": 1}, {"op": "add", "operands": [0, 1], "dtype": "f32", '
            '"shape": [3, 5]}], "outputs": [2]}')
kernel = sol.Kernel("add_f32", "", b"fake cubin", manifest)
on1, on0 = kernel.load(1), kernel.load(0)
# CHECK: devices: 1 0, loaded once per device: True
print(f"devices: {lib().sol_loaded_kernel_device(on1)} "
      f"{lib().sol_loaded_kernel_device(on0)}, loaded once per device: "
      f"{kernel.load(1) is on1}")
# CHECK: device 2: SolError: sol_module_load: CUDA device 2 does not exist (2 devices)
try:
    kernel.load(2)
except sol.SolError as error:
    print("device 2: SolError:", error)

# Kernel.bind: the launch function of the hot path (one ctypes call), once
# per device; unload() drops it with the module. The fake add_f32 kernel
# adds its 15 floats: checked against the host's sum.
import ctypes  # noqa: E402
import random  # noqa: E402

a = [random.uniform(-1, 1) for _ in range(15)]
b = [random.uniform(-1, 1) for _ in range(15)]
buffers = [(ctypes.c_float * 15)(*a), (ctypes.c_float * 15)(*b),
           (ctypes.c_float * 15)()]
pointers = (ctypes.c_void_p * 3)(*[ctypes.addressof(x) for x in buffers])
launch = kernel.bind(1)
launch(pointers, 0)
# CHECK: bind: sum right True, bound once True, rebound after unload True
right = all(abs(buffers[2][i] - (a[i] + b[i])) < 1e-6 for i in range(15))
once = kernel.bind(1) is launch
kernel.unload()
print(f"bind: sum right {right}, bound once {once}, rebound after unload "
      f"{kernel.bind(1) is not launch}")
