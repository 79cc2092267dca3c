"""gpu_tier.py on a machine without a GPU driver: one failed cuda-driver finding that
says what to do, every other check skipped, exit 0, one JSON object on stdout; and with
an unreadable lock, a kit-lock finding. Run with this python3 and the oldest found."""
import ctypes
import os

import support

try:
    ctypes.CDLL("libcuda.so.1")
    support.skip("this machine has libcuda.so.1: run tests/gpu/run_gpu_checks.sh instead")
except OSError:
    pass

LOCK = os.path.join(support.LOCKS, "pytorch-2.7-cu128.lock.json")
DEVICE_CODES = ["device-arch", "nvrtc-compile", "saxpy", "reduction", "memory-bandwidth", "fp32-fma",
                "cublas-gemm-fp16", "cublas-gemm-bf16", "cudnn-conv"]

for python in support.interpreters():
    code, document, _ = support.run_tier(python, "gpu_tier.py", LOCK, support.clean_env())
    support.expect_eq("%s: the kit exits 0 when checks fail" % python, code, 0)
    support.expect_eq("%s: the whole report" % python, document, {
        "kit": 1, "tier": "gpu", "devices": [], "figures": [],
        "findings": [{"code": "cuda-driver", "outcome": "fail",
                      "message": "cannot load libcuda.so.1 (libcuda.so.1: cannot open shared object file: No such "
                                 "file or directory): the container has no NVIDIA driver; run the container with the "
                                 "GPUs injected (docker run --gpus all, podman run --device nvidia.com/gpu=all) on a "
                                 "host with the NVIDIA driver"}] +
                    [{"code": c, "outcome": "skip", "message": "not run: the container has no working CUDA driver"}
                     for c in DEVICE_CODES]})

    code, document, _ = support.run_tier(python, "gpu_tier.py", "/nonexistent/dlenv.lock.json", support.clean_env())
    support.expect_eq("%s: a missing lock exits 0" % python, code, 0)
    support.expect_eq("%s: a missing lock is a kit-lock finding" % python, document["findings"][0], {
        "code": "kit-lock", "outcome": "fail",
        "message": "cannot read the lock /nonexistent/dlenv.lock.json: No such file or directory: run the kit in an "
                   "image dlenv built, or pass --lock"})
    support.expect_eq("%s: and skips the rest" % python, [(f["code"], f["outcome"]) for f in document["findings"][1:]],
                      [(c, "skip") for c in ["cuda-driver"] + DEVICE_CODES])
