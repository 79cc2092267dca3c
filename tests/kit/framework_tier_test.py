"""framework_tier.py's exact findings: a lock's framework that cannot be imported, a
torch whose versions answer but which sees no GPU (a stand-in on PYTHONPATH), a lock
naming a framework the kit has no checks for, a lock with a framework beside its own (each
is checked, its own first), and a missing lock. Exit 0 each time."""
import json
import os
import tempfile

import support

TORCH_LOCK = os.path.join(support.LOCKS, "pytorch-2.7-cu128.lock.json")
TF_LOCK = os.path.join(support.LOCKS, "tensorflow-2.15-cu122.lock.json")
FAKE_TORCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_torch")


def locked_version(lock):
    """The framework build a shipped lock pins, read from it: a regenerated lock moves it."""
    with open(lock) as f:
        return json.load(f)["stack"]["framework"]["local_version"]


TORCH_VERSION = locked_version(TORCH_LOCK)
TF_VERSION = locked_version(TF_LOCK)


def findings(python, lock, env):
    code, document, _ = support.run_tier(python, "framework_tier.py", lock, env)
    support.expect_eq("%s: the kit exits 0" % python, code, 0)
    support.expect_eq("%s: the document's frame" % python,
                      dict((k, v) for k, v in document.items() if k != "findings"),
                      {"kit": 1, "tier": "framework", "devices": [], "figures": []})
    return [(f["code"], f["outcome"], f["message"]) for f in document["findings"]]


def not_importable(python, module, framework, version):
    return ("cannot import %s (ModuleNotFoundError: No module named '%s') with %s: the image's Python does not "
            "have the lock's %s %s; install the lock's packages for this interpreter (dlenv build does)"
            % (module, module, python, framework, version))


for python in support.interpreters():
    support.expect_eq("%s: torch missing" % python, findings(python, TORCH_LOCK, support.clean_env()), [
        ("torch-cuda-available", "fail", not_importable(python, "torch", "torch", TORCH_VERSION)),
        ("torch-cuda-version", "skip", "not run: torch cannot be imported"),
        ("torch-cudnn-version", "skip", "not run: torch cannot be imported"),
        ("torch-amp-step", "skip", "not run: torch cannot be imported"),
        ("torch-nccl-allreduce", "skip", "not run: torch cannot be imported"),
    ])
    support.expect_eq("%s: torch without a GPU, its cuDNN newer than the lock's" % python,
                      findings(python, TORCH_LOCK, support.clean_env(PYTHONPATH=FAKE_TORCH)), [
        ("torch-cuda-available", "fail", "torch 2.7.1+cu128: torch.cuda.is_available() is False (built for CUDA "
         "12.8): the container sees no GPU or its driver is older than torch's CUDA; run the gpu tier for the "
         "cause"),
        ("torch-cuda-version", "pass", "torch.version.cuda reports CUDA 12.8, as the lock pins (12.8)"),
        ("torch-cudnn-version", "fail", "torch.backends.cudnn.version() reports cuDNN 9.8.0, the lock pins "
         "9.7.1.26: the image does not hold the stack it was locked for; rebuild it from its lock"),
        ("torch-amp-step", "skip", "not run: torch sees no GPU"),
        ("torch-nccl-allreduce", "skip", "not run: torch sees no GPU"),
    ])
    support.expect_eq("%s: tensorflow missing" % python, findings(python, TF_LOCK, support.clean_env()), [
        ("tensorflow-gpu", "fail", not_importable(python, "tensorflow", "tensorflow", TF_VERSION)),
        ("tensorflow-cuda-version", "skip", "not run: tensorflow cannot be imported"),
        ("tensorflow-cudnn-version", "skip", "not run: tensorflow cannot be imported"),
        ("tensorflow-amp-step", "skip", "not run: tensorflow cannot be imported"),
        ("tensorflow-nccl-allreduce", "skip", "not run: tensorflow cannot be imported"),
    ])

    with open(TORCH_LOCK) as f:
        lock = json.load(f)
    lock["stack"]["framework"]["name"] = "mxnet"
    with tempfile.NamedTemporaryFile("w", suffix=".json") as other:
        json.dump(lock, other)
        other.flush()
        support.expect_eq("%s: a framework without checks" % python, findings(python, other.name, support.clean_env()),
                          [("framework", "skip", "the lock's framework 'mxnet' has no checks in the kit (it knows "
                            "jax, tensorflow, torch)")])
    lock["stack"]["framework"]["name"] = "torch"
    lock["stack"]["also"] = [{"name": "jax", "version": "0.4.31", "local_version": "0.4.31", "variant": "cuda12",
                              "extra": "cuda12"}]
    with tempfile.NamedTemporaryFile("w", suffix=".json") as other:
        json.dump(lock, other)
        other.flush()
        support.expect_eq("%s: each framework of the stack, its own first" % python,
                          findings(python, other.name, support.clean_env()), [
            ("torch-cuda-available", "fail", not_importable(python, "torch", "torch", TORCH_VERSION)),
            ("torch-cuda-version", "skip", "not run: torch cannot be imported"),
            ("torch-cudnn-version", "skip", "not run: torch cannot be imported"),
            ("torch-amp-step", "skip", "not run: torch cannot be imported"),
            ("torch-nccl-allreduce", "skip", "not run: torch cannot be imported"),
            ("jax-gpu", "fail", not_importable(python, "jax", "jax", "0.4.31")),
            ("jax-cuda-version", "skip", "not run: jax cannot be imported"),
            ("jax-cudnn-version", "skip", "not run: jax cannot be imported"),
            ("jax-amp-step", "skip", "not run: jax cannot be imported"),
            ("jax-nccl-allreduce", "skip", "not run: jax cannot be imported"),
        ])
    support.expect_eq("%s: no lock" % python, findings(python, "/nonexistent.json", support.clean_env()), [
        ("kit-lock", "fail", "cannot read the lock /nonexistent.json: No such file or directory: run the kit in an "
         "image dlenv built, or pass --lock")])
