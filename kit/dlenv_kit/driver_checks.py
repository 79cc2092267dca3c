"""The gpu tier's checks of the driver and of the devices' architectures against the lock."""
import ctypes
import re

from . import lock as locks
from .report import Failed, Skipped

_RUN_WITH_GPUS = ("run the container with the GPUs injected (docker run --gpus all, podman run --device "
                  "nvidia.com/gpu=all) on a host with the NVIDIA driver")


def driver_release():
    """The kernel driver's version ("570.86.15") from NVML, which the runtime injects
    with libcuda, or /proc/driver/nvidia/version; None when neither answers."""
    try:
        nvml = ctypes.CDLL("libnvidia-ml.so.1")
        if nvml.nvmlInit_v2() == 0:
            text = ctypes.create_string_buffer(96)
            ok = nvml.nvmlSystemGetDriverVersion(text, ctypes.c_uint(96)) == 0
            nvml.nvmlShutdown()
            if ok and locks.version_tuple(text.value.decode()):
                return text.value.decode()
    except (OSError, AttributeError):
        pass
    try:
        with open("/proc/driver/nvidia/version") as f:
            match = re.search(r"Kernel Module\s+(?:for\s+\S+\s+)?(\d+(?:\.\d+)+)", f.read())
            return match.group(1) if match else None
    except (IOError, OSError):
        return None


def load_driver(cuda):
    """Loads libcuda.so.1 and runs cuInit; Failed says why the container has no working driver."""
    try:
        driver = cuda.Driver()
    except OSError as e:
        raise Failed("cannot load libcuda.so.1 (%s): the container has no NVIDIA driver; %s" % (e, _RUN_WITH_GPUS))
    try:
        driver.init()
    except cuda.CudaError as e:
        if e.code == cuda.CUDA_ERROR_STUB_LIBRARY:
            raise Failed("%s: the CUDA toolkit's stub libcuda.so shadows the driver's; remove the stubs "
                         "directory from LD_LIBRARY_PATH and the loader's configuration" % e)
        if e.code == cuda.CUDA_ERROR_NO_DEVICE:
            raise Failed("%s: the driver sees no GPU in the container; check NVIDIA_VISIBLE_DEVICES and %s"
                         % (e, _RUN_WITH_GPUS))
        raise Failed("%s; %s" % (e, _RUN_WITH_GPUS))
    return driver


def driver_verdict(stack, release_text, supported):
    """The cuda-driver message for kernel driver `release_text` ("570.86.15", None when
    unknown) whose libcuda supports CUDA `supported` ((12, 8)); raises Failed below the
    lock's floor."""
    release = locks.version_tuple(release_text)
    cuda = locks.dotted(stack.cuda)
    said = "CUDA %s" % locks.dotted(supported)
    if release is None:
        if supported >= stack.cuda[:2]:
            return "the driver supports %s, the lock's CUDA is %s (its version could not be read: no NVML, " \
                   "no /proc/driver/nvidia/version)" % (said, cuda)
        if supported[0] == stack.cuda[0]:
            return "the driver supports %s, below the lock's CUDA %s: it runs under minor-version " \
                   "compatibility (PTX from the newer toolkit cannot be JIT-compiled)" % (said, cuda)
        raise Failed("the driver supports %s, the lock's CUDA %s needs a driver >= %s: upgrade the host's driver"
                     % (said, cuda, stack.toolkit_driver_text))
    driver = "driver %s (%s)" % (release_text, said)
    floor = stack.toolkit_driver_text
    if release >= stack.toolkit_driver:
        return "%s meets the lock's floor %s for CUDA %s" % (driver, floor, cuda)
    if stack.minor_version_driver and release >= stack.minor_version_driver:
        return "%s is below the toolkit floor %s but at or above the minor-version floor %s: CUDA %s runs under " \
               "minor-version compatibility (PTX from the newer toolkit cannot be JIT-compiled); upgrade to %s " \
               "for all of it" % (driver, floor, stack.minor_version_driver_text, cuda, floor)
    if stack.forward_compat and supported >= stack.cuda[:2]:
        return "%s is below the lock's floor %s and runs CUDA %s through the image's cuda-compat package" % (
            driver, floor, cuda)
    lowest = stack.minor_version_driver_text or stack.toolkit_driver_text
    raise Failed("%s is below the lock's floor %s for CUDA %s: the image's CUDA will not start; upgrade the "
                 "host's driver to %s or later" % (driver, lowest, cuda, floor))


def arch_coverage(stack, cc):
    """How the lock's compiled code runs on a device of compute capability `cc` ((8, 6)):
    a cubin of the same major and a minor at or below the device's, else PTX of an
    architecture at or below it (JIT-compiled by the driver); None when neither."""
    cubins = [a for a in stack.arch_list if a[0] == cc[0] and a[1] <= cc[1]]
    if cubins:
        return "cubin sm_%d%d" % max(cubins)
    ptx = [a for a in stack.ptx if a <= cc]
    if ptx:
        return "PTX compute_%d%d (JIT-compiled by the driver)" % max(ptx)
    return None


def framework_arch(view, device):
    """One framework's GPU code on `device`: ("pass" | "fail" | "skip", what was found)."""
    cc = locks.version_tuple(device["compute_capability"])
    gpu = "GPU %d (%s" % (device["index"], device["name"])
    if view.arch_list or view.ptx:
        how = arch_coverage(view, cc)
        listed = ", ".join(locks.dotted(a) for a in view.arch_list) or "none"
        ptx = ", ".join(locks.dotted(a) for a in view.ptx) or "none"
        if how is None:
            return "fail", ("%s) has compute capability %s, which the lock's arch list (%s; PTX: %s) does not cover: "
                            "its kernels will not run there; lock for a framework build that includes %s"
                            % (gpu, device["compute_capability"], listed, ptx, device["compute_capability"]))
        return "pass", "%s, compute capability %s) runs the lock's %s" % (gpu, device["compute_capability"], how)
    if view.min_compute_capability:
        minimum = "%s, the minimum of %s %s" % (locks.dotted(view.min_compute_capability), view.framework,
                                                view.framework_version)
        if cc < view.min_compute_capability:
            return "fail", ("%s) has compute capability %s, below %s: its kernels will not run there; use a GPU of "
                            "compute capability %s or newer"
                            % (gpu, device["compute_capability"], minimum, locks.dotted(view.min_compute_capability)))
        return "pass", ("%s, compute capability %s) is at or above %s (its arch list is not on record)"
                        % (gpu, device["compute_capability"], minimum))
    return "skip", ("the lock lists no compiled architectures for %s: dlenv does not know which it ships"
                    % (view.framework or "its framework"))


def check_arch(stack, device):
    """Every framework's GPU code on `device`: a failure of any fails; the lock's own
    framework with no code on record skips, whatever the others find, for the check cannot
    tell whether its kernels run. The arch list is the lock's framework's, named when
    others are beside it (theirs name themselves)."""
    views = stack.frameworks()
    found = [framework_arch(view, device) for view in views]
    if len(views) > 1:
        state, text = found[0]
        found[0] = (state, "%s %s: %s" % (stack.framework, stack.framework_version, text))
    states = [state for state, _ in found]
    if "fail" in states:
        raise Failed("; ".join(text for state, text in found if state == "fail"))
    if states[0] == "skip":
        raise Skipped("; ".join(text for _, text in found))
    return "; ".join(text for _, text in found)
