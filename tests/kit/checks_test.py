"""The gpu tier's decisions without a GPU: the driver against the lock's floor, the
arch-list coverage rule, FP16/BF16 conversion, the CPU references the GEMM and
convolution are checked against, and the cuBLAS and cuDNN bindings loading the real
libraries when this machine has them."""
import os

import support

from dlenv_kit import blas, dnn, driver_checks, framework, halfs, libraries
from dlenv_kit import lock as locks
from dlenv_kit.report import Failed, Skipped

stack = locks.load(os.path.join(support.LOCKS, "pytorch-2.7-cu128.lock.json"))


def outcome(function, *args):
    try:
        return ("pass", function(*args))
    except Failed as e:
        return ("fail", str(e))
    except Skipped as e:
        return ("skip", str(e))


support.expect_eq("the lock's stack", (stack.cuda, stack.cudnn, stack.toolkit_driver, stack.minor_version_driver,
                                       stack.framework, stack.arch_list),
                  ((12, 8, 0), (9, 7, 1, 26), (570, 26), (525, 60, 13), "torch",
                   [(7, 5), (8, 0), (8, 6), (9, 0), (10, 0), (12, 0)]))

support.expect_eq("a driver at the toolkit floor", outcome(driver_checks.driver_verdict, stack, "570.26", (12, 8)),
                  ("pass", "driver 570.26 (CUDA 12.8) meets the lock's floor 570.26 for CUDA 12.8.0"))
support.expect_eq("a driver under minor-version compatibility",
                  outcome(driver_checks.driver_verdict, stack, "535.104.05", (12, 2)),
                  ("pass", "driver 535.104.05 (CUDA 12.2) is below the toolkit floor 570.26 but at or above the "
                           "minor-version floor 525.60.13: CUDA 12.8.0 runs under minor-version compatibility (PTX "
                           "from the newer toolkit cannot be JIT-compiled); upgrade to 570.26 for all of it"))
support.expect_eq("a driver below every floor", outcome(driver_checks.driver_verdict, stack, "470.82.01", (11, 4)),
                  ("fail", "driver 470.82.01 (CUDA 11.4) is below the lock's floor 525.60.13 for CUDA 12.8.0: the "
                           "image's CUDA will not start; upgrade the host's driver to 570.26 or later"))
support.expect_eq("an unknown driver version that supports the lock's CUDA",
                  outcome(driver_checks.driver_verdict, stack, None, (12, 9)),
                  ("pass", "the driver supports CUDA 12.9, the lock's CUDA is 12.8.0 (its version could not be read: "
                           "no NVML, no /proc/driver/nvidia/version)"))
support.expect_eq("an unknown driver version of an older CUDA major",
                  outcome(driver_checks.driver_verdict, stack, None, (11, 8)),
                  ("fail", "the driver supports CUDA 11.8, the lock's CUDA 12.8.0 needs a driver >= 570.26: upgrade "
                           "the host's driver"))

support.expect_eq("the arch rule", [driver_checks.arch_coverage(stack, cc) for cc in
                                    [(9, 0), (8, 9), (8, 7), (12, 1), (10, 3), (11, 0), (7, 0)]],
                  ["cubin sm_90", "cubin sm_86", "cubin sm_86", "cubin sm_120", "cubin sm_100", None, None])
stack.ptx = [(9, 0)]
support.expect_eq("PTX covers what is newer", [driver_checks.arch_coverage(stack, cc) for cc in [(11, 0), (8, 9)]],
                  ["PTX compute_90 (JIT-compiled by the driver)", "cubin sm_86"])
stack.ptx = []
device = {"index": 1, "name": "Tesla V100-SXM2-16GB", "compute_capability": "7.0", "multiprocessors": 80,
          "memory_bytes": 16 << 30}
support.expect_eq("an uncovered device", outcome(driver_checks.check_arch, stack, device),
                  ("fail", "GPU 1 (Tesla V100-SXM2-16GB) has compute capability 7.0, which the lock's arch list (7.5, "
                           "8.0, 8.6, 9.0, 10.0, 12.0; PTX: none) does not cover: its kernels will not run there; lock "
                           "for a framework build that includes 7.0"))
tf = locks.load(os.path.join(support.LOCKS, "tensorflow-2.15-cu122.lock.json"))
support.expect_eq("a lock without an arch list", outcome(driver_checks.check_arch, tf, device),
                  ("skip", "the lock lists no compiled architectures for tensorflow: dlenv does not know which it "
                           "ships"))

pair = locks.load(os.path.join(support.LOCKS, "pytorch-2.4-jax-0.4-cu121.lock.json"))
support.expect_eq("each framework's GPU code", [(view.framework, view.framework_version, view.arch_list,
                                                 view.min_compute_capability) for view in pair.frameworks()],
                  [("torch", "2.4.1+cu121", [(5, 0), (6, 0), (7, 0), (7, 5), (8, 0), (8, 6), (9, 0)], None),
                   ("jax", "0.4.31", [], (5, 2))])
h100 = {"index": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}
support.expect_eq("a device both frameworks run on", outcome(driver_checks.check_arch, pair, h100),
                  ("pass", "torch 2.4.1+cu121: GPU 0 (NVIDIA H100 80GB HBM3, compute capability 9.0) runs the lock's "
                           "cubin sm_90; GPU 0 (NVIDIA H100 80GB HBM3, compute capability 9.0) is at or above 5.2, "
                           "the minimum of jax 0.4.31 (its arch list is not on record)"))
maxwell = {"index": 2, "name": "Quadro K2200", "compute_capability": "5.0"}
support.expect_eq("a device torch runs on and JAX beside it does not", outcome(driver_checks.check_arch, pair, maxwell),
                  ("fail", "GPU 2 (Quadro K2200) has compute capability 5.0, below 5.2, the minimum of jax 0.4.31: its "
                           "kernels will not run there; use a GPU of compute capability 5.2 or newer"))
jax = locks.load(os.path.join(support.LOCKS, "jax-0.6-cu12.lock.json"))
support.expect_eq("a JAX lock is held to its build's minimum", outcome(driver_checks.check_arch, jax, h100),
                  ("pass", "GPU 0 (NVIDIA H100 80GB HBM3, compute capability 9.0) is at or above 5.2, the minimum of "
                           "jax 0.6.2 (its arch list is not on record)"))

unknown_own = locks.load(os.path.join(support.LOCKS, "pytorch-2.4-jax-0.4-cu121.lock.json"))
unknown_own.arch_list = []
support.expect_eq("the lock's framework with no code on record skips though JAX beside it passes",
                  outcome(driver_checks.check_arch, unknown_own, h100),
                  ("skip", "torch 2.4.1+cu121: the lock lists no compiled architectures for torch: dlenv does not "
                           "know which it ships; GPU 0 (NVIDIA H100 80GB HBM3, compute capability 9.0) is at or above "
                           "5.2, the minimum of jax 0.4.31 (its arch list is not on record)"))

support.expect_eq("FP16 bits", [halfs.half_bits(v) for v in (1.0, -2.0, 0.5, 65504.0)],
                  [0x3C00, 0xC000, 0x3800, 0x7BFF])
support.expect_eq("BF16 bits, rounded to nearest even", [halfs.bf16_bits(v) for v in (1.0, -2.0, 1.00390625,
                                                                                      1.01171875)],
                  [0x3F80, 0xC000, 0x3F80, 0x3F82])
support.expect_eq("BF16 back", halfs.decode(halfs.encode([3.0, -0.5], "bf16"), "bf16"), [3.0, -0.5])

support.expect_eq("the GEMM reference, column-major", blas._reference([1, 2, 3, 4], [5, 6, 7, 8], 2, 2, 2),
                  [1 * 5 + 3 * 6, 2 * 5 + 4 * 6, 1 * 7 + 3 * 8, 2 * 7 + 4 * 8])
ones = [1.0] * (3 * 3)
support.expect_eq("the convolution reference counts a 3x3 window with zero padding",
                  dnn._reference(ones, [1.0] * 9, 1, 1, 3, 3, 1), [4.0, 6.0, 4.0, 6.0, 9.0, 6.0, 4.0, 6.0, 4.0])
support.expect_eq("cuDNN's integer versions, before and from cuDNN 9",
                  [framework.cudnn_version_from_int(v) for v in (8902, 90701, None)], [(8, 9, 2), (9, 7, 1), None])

for major in (13, 12, 11):
    try:
        cublas = blas.Cublas(major)
    except libraries.LibraryMissing:
        continue
    version = blas.version_text(cublas)
    support.expect_eq("cuBLAS %d loads and reports its version (%s, %s)" % (major, version, cublas.path),
                      version.split(".")[0], str(major))
    break
for major in (9, 8):
    try:
        cudnn = dnn.Cudnn(major)
    except libraries.LibraryMissing:
        continue
    support.expect_eq("cuDNN %d loads and reports its version (%s)" % (major, cudnn.path), cudnn.version()[0], major)
    # Descriptors need no GPU: the real cuDNN accepts the kit's enums and argument order.
    for shape, out_dims, flops in [((32, 256, 56, 56, 256), [32, 256, 56, 56], 2.0 * 32 * 256 * 256 * 9 * 56 * 56),
                                   ((1, 8, 8, 8, 8), [1, 8, 8, 8], 2.0 * 8 * 8 * 9 * 8 * 8)]:
        conv = dnn.Convolution(cudnn, None, *shape)
        support.expect_eq("cuDNN's NHWC FP16 3x3 pad-1 convolution of %s keeps the size" % (shape,),
                          (conv.out_dims, conv.flops), (out_dims, flops))
        conv.close()
    break

support.again_with_oldest(__file__)
