"""The gpu tier's own kernels: compiled by the image's NVRTC for each device's
architecture, launched through the driver API, checked against the CPU or timed."""
import array
import ctypes

from . import kernels
from . import lock as locks
from .nvrtc import CompileError
from .report import Failed

_BLOCK = 256


class Kernels(object):
    """The kit's kernels loaded on one device (see `compile_and_load`)."""

    def __init__(self, context, device, functions):
        self.context = context
        self.device = device
        self.functions = functions

    def label(self):
        return "GPU %d (%s)" % (self.device["index"], self.device["name"])


def compile_and_load(nvrtc, images, context, device):
    """Compiles the kernels for the device (once per architecture, kept in `images`),
    loads them and returns (Kernels, message); Failed says what NVRTC or the driver refused."""
    sm = int(device["compute_capability"].replace(".", ""))
    version = locks.dotted(nvrtc.version())
    target = nvrtc.target_for(sm)
    if target is None:
        raise Failed("NVRTC %s (%s) compiles for none of the architectures at or below sm_%d: the image's "
                     "CUDA is too new for GPU %d (%s); lock an older CUDA for it"
                     % (version, nvrtc.path, sm, device["index"], device["name"]))
    what = "%s_%d" % target
    try:
        if what not in images:
            images[what] = nvrtc.compile(kernels.SOURCE, "dlenv_kit.cu", target)
    except CompileError as e:
        raise Failed("NVRTC %s (%s) could not compile the kit's kernels for %s: %s" % (version, nvrtc.path, what, e))
    context.activate()
    try:
        module = context.load_module(images[what])
        functions = dict((name, context.function(module, name)) for name in kernels.NAMES)
    except Exception as e:
        raise Failed("the driver could not load the kernels NVRTC %s compiled for %s on GPU %d (%s): %s; a driver "
                     "older than the image's CUDA cannot load its PTX: upgrade the host's driver"
                     % (version, what, device["index"], device["name"], e))
    kind = "cubin" if target[0] == "sm" else "PTX, JIT-compiled by the driver"
    message = "saxpy, reduce, bandwidth and fma kernels compiled by NVRTC %s for %s (%s) and loaded on GPU %d" % (
        version, what, kind, device["index"])
    return Kernels(context, device, functions), message


def check_saxpy(k):
    """y = 2x + y on 1M floats whose results are exact, compared with the CPU's."""
    n = 1 << 20
    x = array.array("f", [float(i % 1024) * 0.5 for i in range(n)])
    y = array.array("f", [float(i % 7) for i in range(n)])
    expected = array.array("f", [2.0 * a + b for a, b in zip(x, y)])
    k.context.activate()
    dx, dy = k.context.upload(x), k.context.upload(y)
    try:
        args = [ctypes.c_int(n), ctypes.c_float(2.0), ctypes.c_uint64(dx.ptr.value), ctypes.c_uint64(dy.ptr.value)]
        k.context.launch(k.functions["saxpy"], (n + _BLOCK - 1) // _BLOCK, _BLOCK, args)
        k.context.synchronize()
        got = k.context.download(dy, array.array("f", bytes(4 * n)))
    finally:
        dx.free()
        dy.free()
    wrong = [i for i in range(n) if got[i] != expected[i]]
    if wrong:
        i = wrong[0]
        raise Failed("%s: saxpy differs from the CPU at %d of %d elements (first at %d: %r, expected %r): the GPU "
                     "computes wrong results; check it with nvidia-smi -q and the vendor's diagnostics"
                     % (k.label(), len(wrong), n, i, got[i], expected[i]))
    return "%s: saxpy on %d floats equals the CPU's result" % (k.label(), n)


def check_reduction(k):
    """The sum of 1M floats 0..15 against the CPU's: every partial sum is an integer
    below 2**24, so float32 holds it exactly in whatever order the blocks add up."""
    n = 1 << 20
    x = array.array("f", [float(i % 16) for i in range(n)])
    expected = float(sum(i % 16 for i in range(16))) * (n // 16)
    k.context.activate()
    dx = k.context.upload(x)
    out = k.context.upload(array.array("f", [0.0]))
    try:
        blocks = k.device["multiprocessors"] * 4
        args = [ctypes.c_int(n), ctypes.c_uint64(dx.ptr.value), ctypes.c_uint64(out.ptr.value)]
        k.context.launch(k.functions["reduce_sum"], blocks, _BLOCK, args)
        k.context.synchronize()
        got = k.context.download(out, array.array("f", [0.0]))[0]
    finally:
        dx.free()
        out.free()
    if got != expected:
        raise Failed("%s: the reduction of %d floats gave %r, the CPU %r: the GPU computes wrong results; check "
                     "it with nvidia-smi -q and the vendor's diagnostics" % (k.label(), n, got, expected))
    return "%s: the sum of %d floats equals the CPU's (%r)" % (k.label(), n, expected)


def measure_bandwidth(k, report):
    """GB/s (1e9 bytes/s) of a device-to-device copy, counting bytes read and written."""
    per_buffer = min(512 << 20, k.device["memory_bytes"] // 8) // 16 * 16
    n = per_buffer // 16
    k.context.activate()
    src, dst = k.context.alloc(per_buffer), k.context.alloc(per_buffer)
    try:
        k.context.driver.call("cuMemsetD8_v2", src.ptr.value, 1, per_buffer)
        args = [ctypes.c_ulonglong(n), ctypes.c_uint64(src.ptr.value), ctypes.c_uint64(dst.ptr.value)]
        grid = (n + _BLOCK - 1) // _BLOCK

        def copy():
            k.context.launch(k.functions["copy_bandwidth"], grid, _BLOCK, args)

        gb_s = k.context.rate(copy, 2.0 * per_buffer) / 1e9
    finally:
        src.free()
        dst.free()
    report.figure("memory_bandwidth", k.device["index"], gb_s, "GB/s")
    return "%s: a copy of %d MiB ran at %.1f GB/s (read + write)" % (k.label(), per_buffer >> 20, gb_s)


def measure_fma(k, report):
    """FP32 FMA TFLOPS: enough resident threads per SM, eight chains each."""
    iterations = 4096
    blocks = k.device["multiprocessors"] * 8
    k.context.activate()
    out = k.context.alloc(blocks * _BLOCK * 4)
    try:
        args = [ctypes.c_int(iterations), ctypes.c_float(0.9999), ctypes.c_float(1e-4), ctypes.c_uint64(out.ptr.value)]

        def fma():
            k.context.launch(k.functions["fma_throughput"], blocks, _BLOCK, args)

        flops = float(blocks * _BLOCK) * iterations * kernels.FMA_FLOPS_PER_ITERATION
        tflops = k.context.rate(fma, flops) / 1e12
    finally:
        out.free()
    report.figure("fp32_fma", k.device["index"], tflops, "TFLOPS")
    return "%s: FP32 FMA throughput %.2f TFLOPS" % (k.label(), tflops)
