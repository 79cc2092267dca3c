"""NVRTC, the image's runtime compiler (libnvrtc.so.<CUDA major>), declared as in nvrtc.h."""
import ctypes

from . import libraries

_vp = ctypes.c_void_p
_int = ctypes.c_int
_size = ctypes.c_size_t


class CompileError(Exception):
    """NVRTC refused the program or an option; the message carries its log."""


class Nvrtc(object):
    """Loads NVRTC for `cuda_major` (the lock's CUDA), from the framework's wheel or the
    loader's path; raises libraries.LibraryMissing when the image has none."""

    def __init__(self, cuda_major):
        self.lib, self.path = libraries.load(libraries.cuda_sonames("libnvrtc", cuda_major), ["cuda_nvrtc"])
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        self.lib.nvrtcGetErrorString.argtypes = [_int]
        for name, argtypes in {
            "nvrtcVersion": [ctypes.POINTER(_int), ctypes.POINTER(_int)],
            "nvrtcCreateProgram": [ctypes.POINTER(_vp), ctypes.c_char_p, ctypes.c_char_p, _int, _vp, _vp],
            "nvrtcCompileProgram": [_vp, _int, ctypes.POINTER(ctypes.c_char_p)],
            "nvrtcGetProgramLogSize": [_vp, ctypes.POINTER(_size)],
            "nvrtcGetProgramLog": [_vp, ctypes.c_char_p],
            "nvrtcGetPTXSize": [_vp, ctypes.POINTER(_size)],
            "nvrtcGetPTX": [_vp, ctypes.c_char_p],
            "nvrtcDestroyProgram": [ctypes.POINTER(_vp)],
        }.items():
            getattr(self.lib, name).argtypes = argtypes
            getattr(self.lib, name).restype = _int

    def call(self, name, *args):
        code = getattr(self.lib, name)(*args)
        if code:
            raise CompileError("%s failed: %s" % (name, self.lib.nvrtcGetErrorString(code).decode()))

    def version(self):
        major, minor = _int(), _int()
        self.call("nvrtcVersion", ctypes.byref(major), ctypes.byref(minor))
        return major.value, minor.value

    def supported_archs(self):
        """The SM versions NVRTC compiles for, as ints (75 for sm_75); None when this
        NVRTC is older than 11.2 and cannot say."""
        if not hasattr(self.lib, "nvrtcGetSupportedArchs"):
            return None
        count = _int()
        self.call("nvrtcGetNumSupportedArchs", ctypes.byref(count))
        archs = (_int * count.value)()
        self.call("nvrtcGetSupportedArchs", archs)
        return list(archs)

    def target_for(self, device_sm):
        """How to compile for a device of SM `device_sm` (90 for 9.0): ("sm", 90) for a
        cubin when NVRTC knows the SM, else ("compute", N) for PTX of the newest SM it
        knows at or below the device's, which the driver compiles on load; None when
        NVRTC knows no SM at or below the device's."""
        archs = self.supported_archs()
        if archs is None or device_sm in archs:
            return ("sm", device_sm)
        older = [a for a in archs if a <= device_sm]
        return ("compute", max(older)) if older else None

    def compile(self, source, name, target, options=()):
        """Compiles CUDA C++ `source` for `target` (from target_for): a cubin (ELF) for
        ("sm", N), NUL-free PTX text for ("compute", N). Raises CompileError with the log."""
        kind, sm = target
        program = _vp()
        self.call("nvrtcCreateProgram", ctypes.byref(program), source.encode(), name.encode(), 0, None, None)
        try:
            flags = ["--gpu-architecture=%s_%d" % (kind, sm)] + list(options)
            argv = (ctypes.c_char_p * len(flags))(*[f.encode() for f in flags])
            code = self.lib.nvrtcCompileProgram(program, len(flags), argv)
            if code:
                raise CompileError("%s_%d: %s: %s" % (kind, sm, self.lib.nvrtcGetErrorString(code).decode(),
                                                      self.log(program).strip() or "no log"))
            return self._image(program, "CUBIN" if kind == "sm" else "PTX")
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(program))

    def log(self, program):
        size = _size()
        self.call("nvrtcGetProgramLogSize", program, ctypes.byref(size))
        text = ctypes.create_string_buffer(size.value + 1)
        self.call("nvrtcGetProgramLog", program, text)
        return text.value.decode(errors="replace")

    def _image(self, program, what):
        get_size = getattr(self.lib, "nvrtcGet%sSize" % what)
        get = getattr(self.lib, "nvrtcGet%s" % what)
        get_size.argtypes = [_vp, ctypes.POINTER(_size)]
        get.argtypes = [_vp, ctypes.c_char_p]
        size = _size()
        self.call("nvrtcGet%sSize" % what, program, ctypes.byref(size))
        data = ctypes.create_string_buffer(size.value)
        self.call("nvrtcGet%s" % what, program, data)
        image = data.raw[: size.value]
        return image.rstrip(b"\0") if what == "PTX" else image
