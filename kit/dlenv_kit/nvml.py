"""GPU utilisation from NVML (libnvidia-ml.so.1, injected with the driver), sampled on a
thread every 100 ms while a training job runs. Signatures from nvml.h."""
import ctypes
import threading

SAMPLE_SECONDS = 0.1


class NvmlMissing(Exception):
    """NVML cannot be loaded or initialised; the message says why."""


class _Utilization(ctypes.Structure):
    _fields_ = [("gpu", ctypes.c_uint), ("memory", ctypes.c_uint)]


class Nvml(object):
    def __init__(self):
        try:
            self.lib = ctypes.CDLL("libnvidia-ml.so.1")
        except OSError as e:
            raise NvmlMissing("cannot load libnvidia-ml.so.1 (%s)" % e)
        self._call("nvmlInit_v2")

    def _call(self, name, *args):
        status = getattr(self.lib, name)(*args)
        if status != 0:
            raise NvmlMissing("%s returned NVML error %d" % (name, status))

    def handle(self, index):
        handle = ctypes.c_void_p()
        self._call("nvmlDeviceGetHandleByIndex_v2", ctypes.c_uint(index), ctypes.byref(handle))
        return handle

    def utilization(self, handle):
        """The percentage of the last sample period in which a kernel ran on the GPU."""
        rates = _Utilization()
        self._call("nvmlDeviceGetUtilizationRates", handle, ctypes.byref(rates))
        return rates.gpu

    def shutdown(self):
        self.lib.nvmlShutdown()


class Sampler(object):
    """Samples the utilisation of the GPUs `indices` every SAMPLE_SECONDS between start()
    and stop(); mean(index) is the average as a fraction (0..1)."""

    def __init__(self, nvml, indices):
        self.nvml = nvml
        self.handles = dict((index, nvml.handle(index)) for index in indices)
        self.samples = dict((index, []) for index in indices)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run)
        self.thread.daemon = True

    def _run(self):
        while not self.done.wait(SAMPLE_SECONDS):
            for index, handle in self.handles.items():
                self.samples[index].append(self.nvml.utilization(handle))

    def start(self):
        self.thread.start()

    def stop(self):
        self.done.set()
        self.thread.join()

    def mean(self, index):
        values = self.samples[index]
        return sum(values) / (100.0 * len(values)) if values else 0.0
