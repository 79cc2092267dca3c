"""Finding the image's CUDA libraries: framework wheels put them under
site-packages/nvidia/<package>/lib, CUDA base images in the loader's path. The kit loads
the wheel's copy first, because that is the one the framework uses."""
import ctypes
import os
import sys


class LibraryMissing(Exception):
    """None of the names could be loaded; the message lists what was tried."""


def wheel_candidates(soname, wheel_dirs):
    """Paths where a framework's nvidia-* wheels would hold `soname`."""
    out = []
    for entry in sys.path:
        if not entry or not os.path.isdir(os.path.join(entry, "nvidia")):
            continue
        for wheel_dir in wheel_dirs:
            path = os.path.join(entry, "nvidia", wheel_dir, "lib", soname)
            if os.path.isfile(path):
                out.append(path)
    return out


def loaded_path(soname):
    """The file the process mapped for `soname` (from /proc/self/maps), or `soname`."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                if os.path.basename(path) == soname or os.path.basename(path).startswith(soname + "."):
                    return path
    except (IOError, OSError):
        pass
    return soname


def load(sonames, wheel_dirs=()):
    """The first of `sonames` that loads, wheel copies first: (CDLL, path)."""
    tried = []
    for soname in sonames:
        for candidate in wheel_candidates(soname, wheel_dirs) + [soname]:
            try:
                lib = ctypes.CDLL(candidate)
            except OSError as e:
                tried.append(str(e))
                continue
            return lib, candidate if os.path.isabs(candidate) else loaded_path(candidate)
    raise LibraryMissing("; ".join(tried))


def cuda_sonames(base, cuda_major):
    """The sonames a CUDA library has for a CUDA major version: libnvrtc.so.12, and
    libnvrtc.so.11.2 for all of CUDA 11.2-11.8."""
    if base == "libnvrtc" and cuda_major == 11:
        return ["libnvrtc.so.11.2", "libnvrtc.so.11.1", "libnvrtc.so.11.0"]
    return ["%s.so.%d" % (base, cuda_major)]
