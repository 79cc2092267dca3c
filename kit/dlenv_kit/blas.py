"""cuBLAS GEMM in FP16 and BF16 with FP32 accumulation (cublasGemmEx, CUBLAS_COMPUTE_32F),
from the image's libcublas.so.<CUDA major>; declared as in cublas_api.h."""
import array
import ctypes

from . import halfs
from . import libraries
from .report import Failed, Skipped

CUDA_R_16F = 2
CUDA_R_16BF = 14
CUBLAS_OP_N = 0
CUBLAS_COMPUTE_32F = 68
CUBLAS_GEMM_DEFAULT = -1

DATA_TYPE = {"fp16": CUDA_R_16F, "bf16": CUDA_R_16BF}

_STATUS = {1: "NOT_INITIALIZED", 3: "ALLOC_FAILED", 7: "INVALID_VALUE", 8: "ARCH_MISMATCH", 11: "MAPPING_ERROR",
           13: "EXECUTION_FAILED", 14: "INTERNAL_ERROR", 15: "NOT_SUPPORTED", 16: "LICENSE_ERROR"}

_vp = ctypes.c_void_p
_int = ctypes.c_int


class Cublas(object):
    def __init__(self, cuda_major):
        self.lib, self.path = libraries.load(libraries.cuda_sonames("libcublas", cuda_major), ["cublas"])
        self.lib.cublasCreate_v2.argtypes = [ctypes.POINTER(_vp)]
        self.lib.cublasDestroy_v2.argtypes = [_vp]
        self.lib.cublasGetProperty.argtypes = [_int, ctypes.POINTER(_int)]
        self.lib.cublasGemmEx.argtypes = [_vp, _int, _int, _int, _int, _int, _vp, ctypes.c_uint64, _int, _int,
                                          ctypes.c_uint64, _int, _int, _vp, ctypes.c_uint64, _int, _int, _int, _int]

    def call(self, name, *args):
        status = getattr(self.lib, name)(*args)
        if status:
            raise Failed("%s failed: CUBLAS_STATUS_%s" % (name, _STATUS.get(status, str(status))))


class Handle(object):
    """A cuBLAS handle in the calling thread's current context."""

    def __init__(self, cublas):
        self.cublas = cublas
        self.handle = _vp()
        cublas.call("cublasCreate_v2", ctypes.byref(self.handle))

    def gemm(self, kind, m, n, k, a, b, c):
        """C = A B, column-major, no transposes, all of type `kind`, FP32 accumulation."""
        alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
        t = DATA_TYPE[kind]
        self.cublas.call("cublasGemmEx", self.handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, ctypes.byref(alpha),
                         a.ptr.value, t, m, b.ptr.value, t, k, ctypes.byref(beta), c.ptr.value, t, m,
                         CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)

    def close(self):
        self.cublas.lib.cublasDestroy_v2(self.handle)


def _small_operand(rows, cols, salt):
    """Entries in {-1, 0, 1}: every product and sum is exact in FP16 and BF16."""
    return [float((r * 7 + c * 3 + salt) % 3 - 1) for c in range(cols) for r in range(rows)]


def _reference(a, b, m, n, k):
    out = []
    for j in range(n):
        column = b[j * k:(j + 1) * k]
        for i in range(m):
            out.append(sum(a[p * m + i] * column[p] for p in range(k) if column[p]))
    return out


def fill(context, buffer, kind):
    """Fills a device buffer with random values from a repeated 1 MiB tile."""
    tile = halfs.random_tile(kind, 1 << 19)
    tile_bytes = len(tile) * 2
    for offset in range(0, buffer.nbytes, tile_bytes):
        buffer.write(tile.buffer_info()[0], min(tile_bytes, buffer.nbytes - offset), offset)


def check_gemm(cublas, context, device, kind, report):
    """Correctness on a 64x64x64 case against the CPU, then TFLOPS of a large square GEMM."""
    label = "GPU %d (%s)" % (device["index"], device["name"])
    cc = tuple(int(p) for p in device["compute_capability"].split("."))
    if kind == "bf16" and cc < (8, 0):
        raise Skipped("%s: BF16 GEMM needs compute capability 8.0 or later, this GPU has %s"
                      % (label, device["compute_capability"]))
    context.activate()
    handle = Handle(cublas)
    buffers = []
    try:
        s = 64
        a, b = _small_operand(s, s, 0), _small_operand(s, s, 1)
        da, db = context.upload(halfs.encode(a, kind)), context.upload(halfs.encode(b, kind))
        dc = context.alloc(2 * s * s)
        buffers += [da, db, dc]
        handle.gemm(kind, s, s, s, da, db, dc)
        context.synchronize()
        got = halfs.decode(context.download(dc, array.array("H", bytes(2 * s * s))), kind)
        expected = _reference(a, b, s, s, s)
        wrong = [i for i in range(s * s) if got[i] != expected[i]]
        if wrong:
            raise Failed("%s: cuBLAS %s %s GEMM differs from the CPU at %d of %d entries (first %r, expected %r): "
                         "the library or the GPU computes wrong results" % (label, version_text(cublas), kind.upper(),
                                                                          len(wrong), s * s, got[wrong[0]],
                                                                          expected[wrong[0]]))
        size = 8192 if device["memory_bytes"] >= (8 << 30) else 4096
        big = [context.alloc(2 * size * size) for _ in range(3)]
        buffers += big
        fill(context, big[0], kind)
        fill(context, big[1], kind)
        tflops = context.rate(lambda: handle.gemm(kind, size, size, size, big[0], big[1], big[2]),
                              2.0 * size ** 3) / 1e12
    finally:
        for buffer in buffers:
            buffer.free()
        handle.close()
    report.figure("gemm_" + kind, device["index"], tflops, "TFLOPS")
    return "%s: cuBLAS %s (%s) %s GEMM matches the CPU on 64x64x64; %dx%dx%d runs at %.1f TFLOPS" % (
        label, version_text(cublas), cublas.path, kind.upper(), size, size, size, tflops)


def version_text(cublas):
    """cuBLAS's version without a handle (cublasGetProperty), as MAJOR.MINOR.PATCH."""
    value = _int()
    parts = []
    for prop in (0, 1, 2):  # MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL in library_types.h
        if cublas.lib.cublasGetProperty(prop, ctypes.byref(value)):
            return "unknown version"
        parts.append(str(value.value))
    return ".".join(parts)
