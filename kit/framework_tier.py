"""dlenv verify's framework tier, run in the container with the GPUs injected:
    python3 /opt/dlenv/kit/framework_tier.py [--lock PATH]
For each framework the lock names (torch, tensorflow or jax; its own, then those of
stack.also): it sees the GPUs, its CUDA
and cuDNN are the lock's, a small mixed-precision training step works, and an all-reduce
across every visible GPU sums right. Prints one JSON object (the kit contract) and exits
0, whatever the checks found."""
import os
import sys

sys.dont_write_bytecode = True  # the image's kit directory may be read-only
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dlenv_kit import jax_checks, tensorflow_checks, torch_checks  # noqa: E402
from dlenv_kit.report import run_tier  # noqa: E402

CHECKS = {"torch": torch_checks, "tensorflow": tensorflow_checks, "jax": jax_checks}


def run(stack, report):
    for view in stack.frameworks():
        checks = CHECKS.get(view.framework)
        if checks is None:
            report.add("framework", "skip", "the lock's framework %r has no checks in the kit (it knows %s)"
                       % (view.framework, ", ".join(sorted(CHECKS))))
            continue
        checks.run(view, report)


if __name__ == "__main__":
    run_tier("framework", run, [])
