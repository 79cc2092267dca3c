"""A cuDNN forward convolution in FP16 through the legacy API (cudnn.h of cuDNN 8 and 9:
cudnn_ops and cudnn_cnn), from the image's libcudnn.so.<the lock's cuDNN major>."""
import array
import ctypes

from . import blas
from . import halfs
from . import libraries
from . import lock as locks
from .report import Failed

CUDNN_DATA_FLOAT = 0
CUDNN_DATA_HALF = 2
CUDNN_TENSOR_NHWC = 1
CUDNN_CROSS_CORRELATION = 1
CUDNN_TENSOR_OP_MATH = 1
CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM = 0
CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM = 1

_vp = ctypes.c_void_p
_int = ctypes.c_int


class AlgoPerf(ctypes.Structure):
    """cudnnConvolutionFwdAlgoPerf_t."""
    _fields_ = [("algo", _int), ("status", _int), ("time", ctypes.c_float), ("memory", ctypes.c_size_t),
                ("determinism", _int), ("mathType", _int), ("reserved", _int * 3)]


class Cudnn(object):
    def __init__(self, cudnn_major):
        self.lib, self.path = libraries.load(["libcudnn.so.%d" % cudnn_major], ["cudnn"])
        self.lib.cudnnGetVersion.restype = ctypes.c_size_t
        self.lib.cudnnGetErrorString.restype = ctypes.c_char_p
        self.lib.cudnnGetErrorString.argtypes = [_int]
        for name, argtypes in {
            "cudnnCreate": [ctypes.POINTER(_vp)],
            "cudnnDestroy": [_vp],
            "cudnnCreateTensorDescriptor": [ctypes.POINTER(_vp)],
            "cudnnSetTensor4dDescriptor": [_vp, _int, _int, _int, _int, _int, _int],
            "cudnnDestroyTensorDescriptor": [_vp],
            "cudnnCreateFilterDescriptor": [ctypes.POINTER(_vp)],
            "cudnnSetFilter4dDescriptor": [_vp, _int, _int, _int, _int, _int, _int],
            "cudnnDestroyFilterDescriptor": [_vp],
            "cudnnCreateConvolutionDescriptor": [ctypes.POINTER(_vp)],
            "cudnnSetConvolution2dDescriptor": [_vp, _int, _int, _int, _int, _int, _int, _int, _int],
            "cudnnSetConvolutionMathType": [_vp, _int],
            "cudnnDestroyConvolutionDescriptor": [_vp],
            "cudnnGetConvolution2dForwardOutputDim": [_vp, _vp, _vp] + [ctypes.POINTER(_int)] * 4,
            "cudnnGetConvolutionForwardAlgorithm_v7": [_vp, _vp, _vp, _vp, _vp, _int, ctypes.POINTER(_int),
                                                       ctypes.POINTER(AlgoPerf)],
            "cudnnGetConvolutionForwardWorkspaceSize": [_vp, _vp, _vp, _vp, _vp, _int, ctypes.POINTER(ctypes.c_size_t)],
            "cudnnConvolutionForward": [_vp, _vp, _vp, ctypes.c_uint64, _vp, ctypes.c_uint64, _vp, _int,
                                        ctypes.c_uint64, ctypes.c_size_t, _vp, _vp, ctypes.c_uint64],
        }.items():
            getattr(self.lib, name).argtypes = argtypes
            getattr(self.lib, name).restype = _int

    def version(self):
        """(major, minor, patch): cuDNN 9 encodes it as M*10000+m*100+p, cuDNN 8 as M*1000+m*100+p."""
        value = self.lib.cudnnGetVersion()
        if value >= 90000:
            return value // 10000, value % 10000 // 100, value % 100
        return value // 1000, value % 1000 // 100, value % 100

    def call(self, name, *args):
        status = getattr(self.lib, name)(*args)
        if status:
            raise Failed("%s failed: %s" % (name, self.lib.cudnnGetErrorString(status).decode()))


class Convolution(object):
    """A 3x3, pad 1, stride 1 convolution of an NHWC FP16 batch, FP32 accumulation,
    tensor-op math allowed."""

    def __init__(self, cudnn, handle, n, c, h, w, k):
        self.cudnn = cudnn
        self.handle = handle
        self.descriptors = []
        self.x = self._tensor(n, c, h, w)
        self.w = self._descriptor("Filter")
        cudnn.call("cudnnSetFilter4dDescriptor", self.w, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC, k, c, 3, 3)
        self.conv = self._descriptor("Convolution")
        cudnn.call("cudnnSetConvolution2dDescriptor", self.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION,
                   CUDNN_DATA_FLOAT)
        cudnn.call("cudnnSetConvolutionMathType", self.conv, CUDNN_TENSOR_OP_MATH)
        dims = [_int() for _ in range(4)]
        cudnn.call("cudnnGetConvolution2dForwardOutputDim", self.conv, self.x, self.w, *[ctypes.byref(d) for d in dims])
        self.out_dims = [d.value for d in dims]
        self.y = self._tensor(*self.out_dims)
        self.flops = 2.0 * n * k * c * 9 * self.out_dims[2] * self.out_dims[3]

    def _descriptor(self, what):
        descriptor = _vp()
        self.cudnn.call("cudnnCreate%sDescriptor" % what, ctypes.byref(descriptor))
        self.descriptors.append((what, descriptor))
        return descriptor

    def _tensor(self, n, c, h, w):
        descriptor = self._descriptor("Tensor")
        self.cudnn.call("cudnnSetTensor4dDescriptor", descriptor, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, n, c, h, w)
        return descriptor

    def algorithms(self):
        """The heuristics' choices that cuDNN says it can run, then the implicit GEMMs."""
        perf = (AlgoPerf * 8)()
        count = _int()
        found = []
        if self.cudnn.lib.cudnnGetConvolutionForwardAlgorithm_v7(self.handle, self.x, self.w, self.conv, self.y, 8,
                                                                 ctypes.byref(count), perf) == 0:
            found = [perf[i].algo for i in range(count.value) if perf[i].status == 0]
        for algo in (CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM):
            if algo not in found:
                found.append(algo)
        return found

    def workspace(self, algo):
        size = ctypes.c_size_t()
        self.cudnn.call("cudnnGetConvolutionForwardWorkspaceSize", self.handle, self.x, self.w, self.conv, self.y,
                        algo, ctypes.byref(size))
        return size.value

    def forward(self, algo, x, w, y, workspace):
        alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
        self.cudnn.call("cudnnConvolutionForward", self.handle, ctypes.byref(alpha), self.x, x.ptr.value, self.w,
                        w.ptr.value, self.conv, algo, workspace.ptr.value if workspace else 0,
                        workspace.nbytes if workspace else 0, ctypes.byref(beta), self.y, y.ptr.value)

    def close(self):
        for what, descriptor in reversed(self.descriptors):
            getattr(self.cudnn.lib, "cudnnDestroy%sDescriptor" % what)(descriptor)


def _reference(x, w, n, c, h, wd, k):
    """NHWC x, KRSC w, 3x3, pad 1: the CPU's output in NHWC order."""
    out = []
    for b in range(n):
        for i in range(h):
            for j in range(wd):
                for o in range(k):
                    total = 0.0
                    for r in range(3):
                        for s in range(3):
                            y, z = i + r - 1, j + s - 1
                            if 0 <= y < h and 0 <= z < wd:
                                xi = ((b * h + y) * wd + z) * c
                                wi = ((o * 3 + r) * 3 + s) * c
                                total += sum(x[xi + q] * w[wi + q] for q in range(c))
                    out.append(total)
    return out


def _run(context, conv, algos, x, w, y):
    """Runs the first algorithm that works; returns (algo, workspace buffer or None)."""
    errors = []
    for algo in algos:
        workspace = None
        try:
            size = conv.workspace(algo)
            workspace = context.alloc(size) if size else None
            conv.forward(algo, x, w, y, workspace)
            context.synchronize()
            return algo, workspace
        except Failed as e:
            errors.append("algorithm %d: %s" % (algo, e))
            if workspace:
                workspace.free()
    raise Failed("; ".join(errors))


def check_conv(cudnn, stack, context, device, report):
    """An 8-channel 8x8 convolution against the CPU, then TFLOPS of a ResNet-like layer."""
    label = "GPU %d (%s)" % (device["index"], device["name"])
    version = cudnn.version()
    context.activate()
    handle = _vp()
    cudnn.call("cudnnCreate", ctypes.byref(handle))
    buffers = []
    convolutions = []
    try:
        n, c, h, wd, k = 1, 8, 8, 8, 8
        small = Convolution(cudnn, handle, n, c, h, wd, k)
        convolutions.append(small)
        x = [float((i * 5) % 3 - 1) for i in range(n * h * wd * c)]
        w = [float((i * 7) % 3 - 1) for i in range(k * 9 * c)]
        dx, dw = context.upload(halfs.encode(x, "fp16")), context.upload(halfs.encode(w, "fp16"))
        dy = context.alloc(2 * n * h * wd * k)
        buffers += [dx, dw, dy]
        try:
            algo, workspace = _run(context, small, small.algorithms(), dx, dw, dy)
        except Failed as e:
            raise Failed("%s: cuDNN %s (%s) ran no FP16 convolution: %s" % (label, locks.dotted(version), cudnn.path, e))
        buffers.append(workspace)
        got = halfs.decode(context.download(dy, array.array("H", bytes(2 * n * h * wd * k))), "fp16")
        expected = _reference(x, w, n, c, h, wd, k)
        # Winograd and FFT algorithms round even integer data; a wrong result is off by far more.
        wrong = [i for i in range(len(expected)) if abs(got[i] - expected[i]) > 0.02 * max(1.0, abs(expected[i]))]
        if wrong:
            raise Failed("%s: cuDNN %s FP16 convolution (algorithm %d) differs from the CPU at %d of %d outputs "
                         "(first %r, expected %r)" % (label, locks.dotted(version), algo, len(wrong), len(expected),
                                                     got[wrong[0]], expected[wrong[0]]))
        big = Convolution(cudnn, handle, 32, 256, 56, 56, 256)
        convolutions.append(big)
        bx, bw = context.alloc(2 * 32 * 56 * 56 * 256), context.alloc(2 * 256 * 9 * 256)
        by = context.alloc(2 * 32 * big.out_dims[2] * big.out_dims[3] * 256)
        buffers += [bx, bw, by]
        blas.fill(context, bx, "fp16")
        blas.fill(context, bw, "fp16")
        algo, workspace = _run(context, big, big.algorithms(), bx, bw, by)
        buffers.append(workspace)
        tflops = context.rate(lambda: big.forward(algo, bx, bw, by, workspace), big.flops) / 1e12
    finally:
        for buffer in buffers:
            if buffer:
                buffer.free()
        for conv in convolutions:
            conv.close()
        cudnn.lib.cudnnDestroy(handle)
    report.figure("conv_fp16", device["index"], tflops, "TFLOPS")
    message = "%s: cuDNN %s (%s) FP16 3x3 convolution matches the CPU; 32x256x56x56 runs at %.1f TFLOPS" % (
        label, locks.dotted(version), cudnn.path, tflops)
    if stack.cudnn and version[:len(stack.cudnn[:3])] != tuple(stack.cudnn[:3]):
        raise Failed("%s; but the image's cuDNN is %s and the lock pins %s: rebuild the image from its lock"
                     % (message, locks.dotted(version), locks.dotted(stack.cudnn)))
    return message
