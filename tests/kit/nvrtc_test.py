"""The kit's kernels compile with the real NVRTC through the kit's own binding: a cubin
(ELF) for sm_80, sm_90 and the newest SM this NVRTC knows, PTX for compute_80, and the
target chosen for a device newer than NVRTC knows is PTX of the newest SM it does.
Finds libnvrtc of CUDA 13, 12 or 11 (as an image would for its lock's CUDA)."""
import re

import support

from dlenv_kit import kernels, libraries, nvrtc

compiler = None
for major in (13, 12, 11):
    try:
        compiler = nvrtc.Nvrtc(major)
        break
    except libraries.LibraryMissing:
        continue
if compiler is None:
    support.skip("no libnvrtc.so.13, .12 or .11.2 on this machine (install the CUDA toolkit's NVRTC)")

archs = compiler.supported_archs()
newest = max(archs)
print("NVRTC %d.%d at %s supports %s" % (compiler.version() + (compiler.path, archs)))
support.expect_eq("NVRTC knows sm_80 and sm_90", [sm for sm in (80, 90) if sm in archs], [80, 90])

for sm in sorted(set([80, 90, newest])):
    target = compiler.target_for(sm)
    support.expect_eq("a device of sm_%d gets a cubin" % sm, target, ("sm", sm))
    image = compiler.compile(kernels.SOURCE, "dlenv_kit.cu", target)
    support.expect_eq("sm_%d: the image is an ELF cubin" % sm, image[:4], b"\x7fELF")
    for name in kernels.NAMES:
        support.expect_eq("sm_%d: the cubin defines %s" % (sm, name), name.encode() in image, True)

ptx = compiler.compile(kernels.SOURCE, "dlenv_kit.cu", ("compute", 80)).decode()
support.expect_eq("compute_80 gives PTX for sm_80", re.search(r"^\.target (\S+)", ptx, re.M).group(1), "sm_80")
support.expect_eq("the PTX has every kernel", sorted(re.findall(r"^\.visible \.entry (\w+)", ptx, re.M)),
                  sorted(kernels.NAMES))
support.expect_eq("a device newer than NVRTC knows gets PTX of the newest SM it does",
                  compiler.target_for(newest + 1), ("compute", newest))
support.expect_eq("a device older than NVRTC knows gets nothing", compiler.target_for(min(archs) - 1), None)

try:
    compiler.compile("extern \"C\" __global__ void broken() { undeclared(); }", "broken.cu", ("sm", 90))
    support.expect_eq("a compile error raises", "no error", "CompileError")
except nvrtc.CompileError as e:
    support.expect_eq("a compile error names the target and carries NVRTC's log",
                      bool(re.match(r"sm_90: NVRTC_ERROR_COMPILATION: .*identifier \"undeclared\" is undefined",
                                    str(e), re.S)), True)


support.again_with_oldest(__file__)
