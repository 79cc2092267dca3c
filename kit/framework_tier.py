"""dlenv verify's framework tier, run in the container with the GPUs injected:
    python3 /opt/dlenv/kit/framework_tier.py [--lock PATH]
For the framework the lock names (torch, tensorflow or jax): it sees the GPUs, its CUDA
and cuDNN are the lock's, a small mixed-precision training step works, and an all-reduce
across every visible GPU sums right. Prints one JSON object (the kit contract) and exits
0, whatever the checks found."""
import os
import sys

sys.dont_write_bytecode = True  # the image's kit directory may be read-only
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dlenv_kit import jax_checks, tensorflow_checks, torch_checks  # noqa: E402
from dlenv_kit import lock as locks  # noqa: E402
from dlenv_kit.report import Output, Report, finish  # noqa: E402

CHECKS = {"torch": torch_checks, "tensorflow": tensorflow_checks, "jax": jax_checks}


def main():
    arguments = locks.parse_arguments("framework")
    output = Output()
    report = Report("framework")
    try:
        stack = locks.load(arguments.lock)
    except ValueError as e:
        report.add("kit-lock", "fail", "%s: run the kit in an image dlenv built, or pass --lock" % e)
        finish(output, report)
    checks = CHECKS.get(stack.framework)
    if checks is None:
        report.add("framework", "skip", "the lock's framework %r has no checks in the kit (it knows %s)"
                   % (stack.framework, ", ".join(sorted(CHECKS))))
    else:
        checks.run(stack, report)
    finish(output, report)


if __name__ == "__main__":
    main()
