"""The lock the image was built from (/opt/dlenv/dlenv.lock.json): the stack fields the
tiers check against."""
import argparse
import copy
import json

DEFAULT_LOCK = "/opt/dlenv/dlenv.lock.json"


def version_tuple(text):
    """"12.8.0" -> (12, 8, 0); None for None or text that is not dotted numbers."""
    if text is None:
        return None
    try:
        return tuple(int(part) for part in str(text).split("."))
    except ValueError:
        return None


def dotted(version):
    return ".".join(str(part) for part in version)


class Stack(object):
    """The lock's `stack` section, parsed."""

    def __init__(self, path, document):
        stack = document["stack"]
        self.path = path
        self.cuda = version_tuple(stack["cuda"])
        self.cudnn = version_tuple(stack.get("cudnn"))
        self.arch_list = [version_tuple(cc) for cc in stack.get("arch_list") or []]
        self.ptx = [version_tuple(cc) for cc in stack.get("ptx") or []]
        driver = stack.get("driver") or {}
        # Driver versions keep their text for messages: 450.80.02 is not 450.80.2.
        self.toolkit_driver_text = driver.get("toolkit_min")
        self.toolkit_driver = version_tuple(self.toolkit_driver_text)
        self.minor_version_driver_text = driver.get("minor_version_min")
        self.minor_version_driver = version_tuple(self.minor_version_driver_text)
        self.forward_compat = bool(driver.get("forward_compat"))
        framework = stack.get("framework") or {}
        self.framework = framework.get("name")
        self.framework_version = framework.get("local_version") or framework.get("version")
        # JAX publishes no arch list, only the oldest compute capability its build supports.
        self.min_compute_capability = version_tuple(framework.get("min_compute_capability"))
        self.also = [(item.get("name"), item.get("local_version") or item.get("version"),
                      version_tuple(item.get("min_compute_capability")))
                     for item in stack.get("also") or []]
        if self.cuda is None:
            raise ValueError("stack.cuda is %r, not a version" % stack["cuda"])


    def frameworks(self):
        """The stack as each framework it installs sees it: its own, then each of `also`
        (whose GPU code the lock knows only by its minimum compute capability)."""
        views = [self]
        for name, version, minimum in self.also:
            view = copy.copy(self)
            view.framework, view.framework_version = name, version
            view.arch_list, view.ptx, view.min_compute_capability = [], [], minimum
            views.append(view)
        return views


def parse_arguments(tier, add_arguments=None):
    """--lock, and the tier's own arguments that `add_arguments(parser)` adds."""
    parser = argparse.ArgumentParser(description="dlenv validation kit: the %s tier" % tier)
    parser.add_argument("--lock", default=DEFAULT_LOCK, help="the lock to check against (default %(default)s)")
    if add_arguments:
        add_arguments(parser)
    return parser.parse_args()


def load(path):
    """The Stack of the lock at `path`; raises ValueError with a message naming it."""
    try:
        with open(path) as f:
            return Stack(path, json.load(f))
    except (IOError, OSError) as e:
        raise ValueError("cannot read the lock %s: %s" % (path, e.strerror or e))
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError("the lock %s has no usable stack: %s" % (path, e))
