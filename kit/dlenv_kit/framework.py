"""What the framework checks share: importing the framework, comparing its versions
with the lock's, and all-reduce results."""
import socket
import sys

from . import lock as locks
from .report import Failed, Skipped


def import_framework(module, stack):
    """Imports `module` ("torch", "tensorflow", "jax"); Failed says the image's Python cannot."""
    try:
        return __import__(module)
    except Exception as e:  # an ImportError or whatever the framework's import raises
        raise Failed("cannot import %s (%s: %s) with %s: the image's Python does not have the lock's %s %s; "
                     "install the lock's packages for this interpreter (dlenv build does)"
                     % (module, type(e).__name__, e, sys.executable, stack.framework, stack.framework_version))


def compare_version(what, reported, locked, source):
    """Passes when `reported` (a version tuple, None when unknown) equals `locked` in the
    components both give; `source` names where the reported one came from."""
    if reported is None:
        raise Skipped("%s does not report its %s version" % (source, what))
    if locked is None:
        raise Skipped("the lock pins no %s version; %s reports %s" % (what, source, locks.dotted(reported)))
    n = min(len(reported), len(locked))
    if reported[:n] != locked[:n]:
        raise Failed("%s reports %s %s, the lock pins %s: the image does not hold the stack it was locked for; "
                     "rebuild it from its lock" % (source, what, locks.dotted(reported), locks.dotted(locked)))
    return "%s reports %s %s, as the lock pins (%s)" % (source, what, locks.dotted(reported), locks.dotted(locked))


def cudnn_version_from_int(value):
    """cuDNN's integer version: M*10000+m*100+p from cuDNN 9, M*1000+m*100+p before."""
    if value is None:
        return None
    if value >= 90000:
        return value // 10000, value % 10000 // 100, value % 100
    return value // 1000, value % 1000 // 100, value % 100


def free_port():
    """A TCP port on 127.0.0.1 nobody listens on now, for a rendezvous."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
    finally:
        probe.close()


def check_sums(values, world, what):
    """Each rank's all-reduced value must be 1 + 2 + ... + world."""
    expected = world * (world + 1) / 2.0
    wrong = dict((rank, value) for rank, value in values.items() if value != expected)
    if wrong:
        raise Failed("%s across %d GPUs gave %r, expected %r on every rank: the GPUs' interconnect or NCCL is "
                     "broken; run nvidia-smi topo -m and NCCL's all_reduce_perf" % (what, world, wrong, expected))
    return "%s across %d GPUs gave %r on every rank" % (what, world, expected)


def need_several(count):
    if count < 2:
        raise Skipped("%d GPU visible: there is nothing to all-reduce across" % count)


def run_checks(report, stack, codes, names, sees_gpu, version_checks, gpu_checks):
    """A framework's five findings `codes`, in order. codes[0] imports the module
    names[0] and asks `sees_gpu(module)`; codes[1:3] run `version_checks` on the module
    whenever it imports; codes[3:] run `gpu_checks` on it only where it sees a GPU.
    names[1] is how messages spell the framework. Each check function takes the module."""
    module_name, shown = names
    state = {}

    def first():
        state["module"] = import_framework(module_name, stack)
        return sees_gpu(state["module"])

    sees = report.check(codes[0], first, 180)
    module = state.get("module")
    if module is None:
        report.skip_all(codes[1:], "not run: %s cannot be imported" % module_name)
        return
    for code, check in zip(codes[1:3], version_checks):
        report.check(code, lambda check=check: check(module), 30)
    if not sees:
        report.skip_all(codes[3:], "not run: %s sees no GPU" % shown)
        return
    for code, (check, limit_s) in zip(codes[3:], gpu_checks):
        report.check(code, lambda check=check: check(module), limit_s)
