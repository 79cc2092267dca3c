"""The gpu tier's kernel checks, run against a context that executes the kit's kernels
in Python on host memory: what they launch, how they compare with the CPU, the exact
findings when the results are right and when one element is wrong, and the figures
they report for a fixed kernel time."""
import ctypes

import support

from dlenv_kit import cuda, kernel_checks
from dlenv_kit.report import Failed, Report

DEVICE = {"index": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0", "multiprocessors": 132,
          "memory_bytes": 64 << 20}


class HostBuffer(object):
    def __init__(self, nbytes):
        self.nbytes = nbytes
        self.raw = ctypes.create_string_buffer(nbytes)
        self.ptr = ctypes.c_uint64(ctypes.addressof(self.raw))

    def write(self, address, nbytes, offset=0):
        ctypes.memmove(self.ptr.value + offset, address, nbytes)

    def read(self, address, nbytes):
        ctypes.memmove(address, self.ptr.value, nbytes)

    def free(self):
        pass


class HostDriver(object):
    def call(self, name, *args):
        assert name == "cuMemsetD8_v2", name
        ctypes.memset(args[0], args[1], args[2])


class HostContext(cuda.Context):
    """Runs saxpy, reduce_sum and copy_bandwidth as the CUDA C would; every launch takes 1 ms."""

    def __init__(self, break_at=None):
        self.driver = HostDriver()
        self.break_at = break_at
        self.launches = []

    def activate(self):
        pass

    def synchronize(self):
        pass

    def alloc(self, nbytes):
        return HostBuffer(nbytes)

    def time_ms(self, work, repeat):
        for _ in range(repeat):
            work()
        return 1.0 * repeat

    def launch(self, function, grid, block, args, shared_bytes=0):
        values = [a.value for a in args]
        self.launches.append((function, grid, block, values[0]))
        if function == "saxpy":
            n, a = values[0], values[1]
            x, y = (ctypes.c_float * n).from_address(values[2]), (ctypes.c_float * n).from_address(values[3])
            for i in range(n):
                y[i] = a * x[i] + y[i]
            if self.break_at is not None:
                y[self.break_at] += 1.0
        elif function == "reduce_sum":
            n = values[0]
            total = ctypes.c_float.from_address(values[2])
            total.value += sum((ctypes.c_float * n).from_address(values[1])) + (64.0 if self.break_at else 0.0)
        elif function == "copy_bandwidth":
            ctypes.memmove(values[2], values[1], values[0] * 16)


def kernels(context):
    return kernel_checks.Kernels(context, DEVICE, dict((n, n) for n in ("saxpy", "reduce_sum", "copy_bandwidth",
                                                                        "fma_throughput")))


def failure(function, *args):
    try:
        function(*args)
    except Failed as e:
        return str(e)
    return "passed"


context = HostContext()
k = kernels(context)
support.expect_eq("saxpy matches", kernel_checks.check_saxpy(k),
                  "GPU 0 (NVIDIA H100 80GB HBM3): saxpy on 1048576 floats equals the CPU's result")
support.expect_eq("saxpy's launch", context.launches[-1], ("saxpy", 4096, 256, 1048576))
support.expect_eq("the reduction matches", kernel_checks.check_reduction(k),
                  "GPU 0 (NVIDIA H100 80GB HBM3): the sum of 1048576 floats equals the CPU's (7864320.0)")
support.expect_eq("the reduction's launch: four blocks per SM", context.launches[-1],
                  ("reduce_sum", 528, 256, 1048576))

report = Report("gpu")
support.expect_eq("bandwidth", kernel_checks.measure_bandwidth(k, report),
                  "GPU 0 (NVIDIA H100 80GB HBM3): a copy of 8 MiB ran at 16.8 GB/s (read + write)")
support.expect_eq("the copy's launch: 16 bytes a thread", context.launches[-1],
                  ("copy_bandwidth", 2048, 256, 524288))
support.expect_eq("fma", kernel_checks.measure_fma(k, report),
                  "GPU 0 (NVIDIA H100 80GB HBM3): FP32 FMA throughput 283.47 TFLOPS")
support.expect_eq("the figures", report.figures, [
    {"name": "memory_bandwidth", "device": 0, "value": 16.777, "unit": "GB/s"},
    {"name": "fp32_fma", "device": 0, "value": 283.468, "unit": "TFLOPS"}])

broken = kernels(HostContext(break_at=1000))
support.expect_eq("one wrong saxpy element", failure(kernel_checks.check_saxpy, broken),
                  "GPU 0 (NVIDIA H100 80GB HBM3): saxpy differs from the CPU at 1 of 1048576 elements (first at "
                  "1000: 1007.0, expected 1006.0): the GPU computes wrong results; check it with nvidia-smi -q and "
                  "the vendor's diagnostics")
support.expect_eq("a wrong sum", failure(kernel_checks.check_reduction, broken),
                  "GPU 0 (NVIDIA H100 80GB HBM3): the reduction of 1048576 floats gave 7864384.0, the CPU "
                  "7864320.0: the GPU computes wrong results; check it with nvidia-smi -q and the vendor's "
                  "diagnostics")

support.again_with_oldest(__file__)
