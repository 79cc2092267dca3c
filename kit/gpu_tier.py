"""dlenv verify's gpu tier, run in the container with the GPUs injected:
    python3 /opt/dlenv/kit/gpu_tier.py [--lock PATH]
Checks the driver against the lock's floor, the devices' architectures against its arch
list, then, on each GPU, kernels compiled by the image's NVRTC (SAXPY and a reduction
against the CPU, copy bandwidth, FP32 FMA), cuBLAS FP16/BF16 GEMM and a cuDNN
convolution, all from the image's own libraries. Prints one JSON object (the kit
contract) and exits 0, whatever the checks found."""
import os
import sys

sys.dont_write_bytecode = True  # the image's kit directory may be read-only
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dlenv_kit import blas, cuda, dnn, driver_checks, kernel_checks, libraries  # noqa: E402
from dlenv_kit import lock as locks  # noqa: E402
from dlenv_kit.nvrtc import Nvrtc  # noqa: E402
from dlenv_kit.report import Failed, Skipped, run_tier  # noqa: E402

KERNEL_CODES = ["saxpy", "reduction", "memory-bandwidth", "fp32-fma"]
DEVICE_CODES = ["device-arch", "nvrtc-compile"] + KERNEL_CODES + ["cublas-gemm-fp16", "cublas-gemm-bf16", "cudnn-conv"]


class Libraries(object):
    """The image's NVRTC, cuBLAS and cuDNN, each loaded once, on first use; a library
    the image lacks is a Failed naming it (a Skipped for a cuDNN the lock does not pin)."""

    def __init__(self, stack):
        self.stack = stack
        self.loaded = {}
        self.images = {}  # the kernels NVRTC compiled, by target ("sm_90"), shared by same-SM devices

    def get(self, name):
        if name not in self.loaded:
            self.loaded[name] = self._load(name)
        if isinstance(self.loaded[name], Exception):
            raise self.loaded[name]
        return self.loaded[name]

    def _load(self, name):
        major = self.stack.cuda[0]
        what = {"nvrtc": "NVRTC", "cublas": "cuBLAS", "cudnn": "cuDNN"}[name]
        if name == "cudnn" and not self.stack.cudnn:
            return Skipped("the lock pins no cuDNN")
        try:
            if name == "nvrtc":
                return Nvrtc(major)
            if name == "cublas":
                return blas.Cublas(major)
            return dnn.Cudnn(self.stack.cudnn[0])
        except libraries.LibraryMissing as e:
            return Failed("the image has no %s for the lock's CUDA %s (%s): base it on a CUDA -runtime image or "
                          "install the framework's nvidia-* wheels" % (what, locks.dotted(self.stack.cuda), e))
        except AttributeError as e:  # a library older than the calls the kit makes
            return Failed("the image's %s lacks a function the kit calls (%s): it is older than the lock's CUDA %s; "
                          "rebuild the image from its lock" % (what, e, locks.dotted(self.stack.cuda)))


def check_driver(stack, state, report):
    """Loads the driver and lists the devices, then judges the driver's version: the
    devices are checked even under a driver below the floor, to say what does run."""
    driver = driver_checks.load_driver(cuda)
    for index in range(driver.device_count()):
        report.devices.append(driver.describe(index))
        state["contexts"].append(cuda.Context(driver, index))
    state["driver"] = driver
    return driver_checks.driver_verdict(stack, driver_checks.driver_release(), driver.version())


def check_device(stack, libs, context, device, report):
    index = device["index"]
    report.check("device-arch", lambda: driver_checks.check_arch(stack, device), 10)
    compiled = {}

    def compile_kernels():
        compiled["kernels"], message = kernel_checks.compile_and_load(libs.get("nvrtc"), libs.images, context, device)
        return message

    if report.check("nvrtc-compile", compile_kernels, 120):
        k = compiled["kernels"]
        report.check("saxpy", lambda: kernel_checks.check_saxpy(k), 60)
        report.check("reduction", lambda: kernel_checks.check_reduction(k), 60)
        report.check("memory-bandwidth", lambda: kernel_checks.measure_bandwidth(k, report), 60)
        report.check("fp32-fma", lambda: kernel_checks.measure_fma(k, report), 60)
    else:
        report.skip_all(KERNEL_CODES, "not run: the kit's kernels did not compile or load on GPU %d" % index)
    for kind in ("fp16", "bf16"):
        report.check("cublas-gemm-" + kind,
                     lambda: blas.check_gemm(libs.get("cublas"), context, device, kind, report), 180)
    report.check("cudnn-conv", lambda: dnn.check_conv(libs.get("cudnn"), stack, context, device, report), 180)


def run(stack, report):
    state = {"contexts": []}
    report.check("cuda-driver", lambda: check_driver(stack, state, report), 60)
    if "driver" not in state:
        report.skip_all(DEVICE_CODES, "not run: the container has no working CUDA driver")
        return
    libs = Libraries(stack)
    for context, device in zip(state["contexts"], report.devices):
        check_device(stack, libs, context, device, report)


if __name__ == "__main__":
    run_tier("gpu", run, ["cuda-driver"] + DEVICE_CODES)
