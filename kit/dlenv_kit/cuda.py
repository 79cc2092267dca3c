"""The CUDA driver API (libcuda.so.1, from the host driver the runtime injects): only the
calls the kit makes, declared with the signatures of cuda.h. Versioned names (_v2) are
the ones cuda.h maps its macros to; cuEventElapsedTime is the original, which every
driver exports."""
import ctypes

from .report import Failed

CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76

CUDA_ERROR_STUB_LIBRARY = 34
CUDA_ERROR_NO_DEVICE = 100

_u64 = ctypes.c_uint64
_vp = ctypes.c_void_p
_int = ctypes.c_int
_uint = ctypes.c_uint
_size = ctypes.c_size_t

_SIGNATURES = {
    "cuInit": [_uint],
    "cuDriverGetVersion": [ctypes.POINTER(_int)],
    "cuDeviceGetCount": [ctypes.POINTER(_int)],
    "cuDeviceGet": [ctypes.POINTER(_int), _int],
    "cuDeviceGetName": [ctypes.c_char_p, _int, _int],
    "cuDeviceGetAttribute": [ctypes.POINTER(_int), _int, _int],
    "cuDeviceTotalMem_v2": [ctypes.POINTER(_size), _int],
    "cuDevicePrimaryCtxRetain": [ctypes.POINTER(_vp), _int],
    "cuCtxSetCurrent": [_vp],
    "cuCtxSynchronize": [],
    "cuModuleLoadData": [ctypes.POINTER(_vp), _vp],
    "cuModuleGetFunction": [ctypes.POINTER(_vp), _vp, ctypes.c_char_p],
    "cuLaunchKernel": [_vp, _uint, _uint, _uint, _uint, _uint, _uint, _uint, _vp, ctypes.POINTER(_vp), _vp],
    "cuMemAlloc_v2": [ctypes.POINTER(_u64), _size],
    "cuMemFree_v2": [_u64],
    "cuMemcpyHtoD_v2": [_u64, _vp, _size],
    "cuMemcpyDtoH_v2": [_vp, _u64, _size],
    "cuMemsetD8_v2": [_u64, ctypes.c_ubyte, _size],
    "cuEventCreate": [ctypes.POINTER(_vp), _uint],
    "cuEventRecord": [_vp, _vp],
    "cuEventSynchronize": [_vp],
    "cuEventElapsedTime": [ctypes.POINTER(ctypes.c_float), _vp, _vp],
    "cuEventDestroy_v2": [_vp],
    "cuGetErrorName": [_int, ctypes.POINTER(ctypes.c_char_p)],
    "cuGetErrorString": [_int, ctypes.POINTER(ctypes.c_char_p)],
}


class CudaError(Failed):
    """A driver call failed; `code` is its CUresult."""

    def __init__(self, message, code):
        Failed.__init__(self, message)
        self.code = code


def _declare(lib, signatures):
    for name, argtypes in signatures.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = _int


class Driver(object):
    """libcuda.so.1. Loading raises OSError when the container has no driver."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        _declare(self.lib, _SIGNATURES)

    def error_text(self, code):
        name = ctypes.c_char_p()
        text = ctypes.c_char_p()
        if self.lib.cuGetErrorName(code, ctypes.byref(name)) or not name.value:
            return "CUresult %d" % code
        self.lib.cuGetErrorString(code, ctypes.byref(text))
        return "%s (%s)" % (name.value.decode(), (text.value or b"").decode())

    def call(self, name, *args):
        code = getattr(self.lib, name)(*args)
        if code:
            raise CudaError("%s failed: %s" % (name, self.error_text(code)), code)

    def init(self):
        self.call("cuInit", 0)

    def version(self):
        """The CUDA version the driver supports, as (major, minor)."""
        value = _int()
        self.call("cuDriverGetVersion", ctypes.byref(value))
        return value.value // 1000, (value.value % 1000) // 10

    def device_count(self):
        count = _int()
        self.call("cuDeviceGetCount", ctypes.byref(count))
        return count.value

    def attribute(self, device, attribute):
        value = _int()
        self.call("cuDeviceGetAttribute", ctypes.byref(value), attribute, device)
        return value.value

    def describe(self, index):
        """The contract's device object for device `index`."""
        device = _int()
        self.call("cuDeviceGet", ctypes.byref(device), index)
        name = ctypes.create_string_buffer(256)
        self.call("cuDeviceGetName", name, 256, device.value)
        memory = _size()
        self.call("cuDeviceTotalMem_v2", ctypes.byref(memory), device.value)
        major = self.attribute(device.value, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
        minor = self.attribute(device.value, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
        return {
            "index": index,
            "name": name.value.decode(errors="replace"),
            "compute_capability": "%d.%d" % (major, minor),
            "multiprocessors": self.attribute(device.value, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
            "memory_bytes": memory.value,
        }


class DeviceBuffer(object):
    """Device memory from cuMemAlloc; `free` releases it (the context's end does too)."""

    def __init__(self, context, nbytes):
        self.context = context
        self.nbytes = nbytes
        self.ptr = _u64()
        context.driver.call("cuMemAlloc_v2", ctypes.byref(self.ptr), nbytes)

    def write(self, address, nbytes, offset=0):
        self.context.driver.call("cuMemcpyHtoD_v2", self.ptr.value + offset, address, nbytes)

    def read(self, address, nbytes):
        self.context.driver.call("cuMemcpyDtoH_v2", address, self.ptr.value, nbytes)

    def free(self):
        if self.ptr.value:
            self.context.driver.call("cuMemFree_v2", self.ptr.value)
            self.ptr = _u64()


class Context(object):
    """The primary context of one device. Each thread that uses it calls `activate`
    first: a CUDA context is current per thread, and cuBLAS and cuDNN run in the one
    current when they are called."""

    def __init__(self, driver, index):
        self.driver = driver
        self.index = index
        self.handle = _vp()
        device = _int()
        driver.call("cuDeviceGet", ctypes.byref(device), index)
        driver.call("cuDevicePrimaryCtxRetain", ctypes.byref(self.handle), device.value)

    def activate(self):
        self.driver.call("cuCtxSetCurrent", self.handle)

    def synchronize(self):
        self.driver.call("cuCtxSynchronize")

    def alloc(self, nbytes):
        return DeviceBuffer(self, nbytes)

    def upload(self, array):
        """A device copy of a Python array.array."""
        nbytes = len(array) * array.itemsize
        buffer = self.alloc(nbytes)
        buffer.write(array.buffer_info()[0], nbytes)
        return buffer

    def download(self, buffer, array):
        """Fills the array.array `array` from the start of `buffer`."""
        buffer.read(array.buffer_info()[0], len(array) * array.itemsize)
        return array

    def load_module(self, image):
        """Loads a cubin or NUL-terminated PTX; returns the CUmodule handle."""
        module = _vp()
        data = ctypes.create_string_buffer(image, len(image) + 1)
        self.driver.call("cuModuleLoadData", ctypes.byref(module), data)
        return module

    def function(self, module, name):
        function = _vp()
        self.driver.call("cuModuleGetFunction", ctypes.byref(function), module, name.encode())
        return function

    def launch(self, function, grid, block, args, shared_bytes=0):
        """Launches on the default stream; `args` are ctypes values in the kernel's order."""
        pointers = (_vp * len(args))(*[ctypes.cast(ctypes.pointer(a), _vp) for a in args])
        self.driver.call("cuLaunchKernel", function, grid, 1, 1, block, 1, 1, shared_bytes, None, pointers, None)

    def time_ms(self, work, repeat):
        """Milliseconds that `repeat` calls of `work()` take on the default stream,
        measured by events around them."""
        start, end = _vp(), _vp()
        self.driver.call("cuEventCreate", ctypes.byref(start), 0)
        self.driver.call("cuEventCreate", ctypes.byref(end), 0)
        try:
            self.driver.call("cuEventRecord", start, None)
            for _ in range(repeat):
                work()
            self.driver.call("cuEventRecord", end, None)
            self.driver.call("cuEventSynchronize", end)
            elapsed = ctypes.c_float()
            self.driver.call("cuEventElapsedTime", ctypes.byref(elapsed), start, end)
            return elapsed.value
        finally:
            self.driver.call("cuEventDestroy_v2", start)
            self.driver.call("cuEventDestroy_v2", end)

    def rate(self, work, amount, target_s=0.3):
        """The best sustained rate of `work()` in `amount` units per second: one warm-up
        call, one to size the run, then enough calls to last about `target_s`."""
        work()
        single_ms = max(self.time_ms(work, 1), 1e-3)
        repeat = int(max(3, min(200, target_s * 1000.0 / single_ms)))
        return amount * repeat / (self.time_ms(work, repeat) / 1000.0)
