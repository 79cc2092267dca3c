"""What a tier prints: exactly one JSON object on stdout (the kit contract), made of
devices, findings and figures. Checks run one at a time, each in a thread with its own
time limit, so a hung GPU call becomes a failed finding instead of a silent kill."""
import json
import os
import sys
import threading
import traceback

from . import lock as locks

KIT_FORMAT = 1


class Failed(Exception):
    """A check failed; the message says what failed and what to do."""


class Skipped(Exception):
    """A check cannot run here; the message says why."""


class Report(object):
    def __init__(self, tier):
        self.tier = tier
        self.devices = []
        self.findings = []
        self.figures = []
        self.hung = None  # the check that ran past its limit; nothing runs after it

    def add(self, code, outcome, message):
        self.findings.append({"code": code, "outcome": outcome, "message": message})

    def figure(self, name, device, value, unit):
        self.figures.append({"name": name, "device": device, "value": round(value, 3), "unit": unit})

    def check(self, code, function, limit_s):
        """Runs `function()` as finding `code`: a returned message passes, Failed fails,
        Skipped skips. Past `limit_s` seconds the finding fails and every later check
        is skipped, since the device may be stuck."""
        if self.hung:
            self.add(code, "skip", "not run: the %s check did not finish" % self.hung)
            return False
        box = {}

        def run():
            try:
                box["message"] = function()
            except BaseException as e:  # reported as the finding, whatever it is
                box["error"] = e
                box["trace"] = traceback.format_exc()

        thread = threading.Thread(target=run)
        thread.daemon = True
        thread.start()
        thread.join(limit_s)
        if thread.is_alive():
            self.hung = code
            self.add(code, "fail", "did not finish within %d s: the GPU or its driver may be hung; "
                     "look for Xid errors in the host's kernel log and at nvidia-smi" % limit_s)
            return False
        error = box.get("error")
        if error is None:
            self.add(code, "pass", box["message"])
            return True
        if isinstance(error, Skipped):
            self.add(code, "skip", str(error))
        elif isinstance(error, Failed):
            self.add(code, "fail", str(error))
        else:
            sys.stderr.write(box["trace"])
            self.add(code, "fail", "the kit's check raised %s: %s; this is a kit bug, report it with the "
                     "container's stderr" % (type(error).__name__, error))
        return False

    def skip_all(self, codes, message):
        for code in codes:
            self.add(code, "skip", message)

    def document(self):
        return {"kit": KIT_FORMAT, "tier": self.tier, "devices": self.devices, "findings": self.findings,
                "figures": self.figures}


class Output(object):
    """Keeps stdout for the one JSON object: from `capture()` on, anything else written
    to file descriptor 1 (CUDA libraries, NCCL, frameworks) goes to stderr."""

    def __init__(self):
        sys.stdout.flush()
        self.fd = os.dup(1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr

    def emit(self, report):
        text = json.dumps(report.document(), sort_keys=True) + "\n"
        os.write(self.fd, text.encode())
        sys.stderr.flush()


def finish(output, report):
    """Prints the report and exits 0 at once: threads left in a hung CUDA call must not
    keep the process alive."""
    output.emit(report)
    os._exit(0)


def run_tier(tier, body, codes_without_lock, add_arguments=None):
    """A tier's whole run: reads --lock, calls `body(stack, report)`, prints the report
    and exits 0. Without a lock, finding kit-lock fails and `codes_without_lock` are
    skipped; an error outside the checks is a kit-error finding, not a traceback on
    stdout (the traceback goes to stderr). A tier with arguments of its own adds them
    with `add_arguments(parser)` and gets them as `body(stack, report, arguments)`."""
    arguments = locks.parse_arguments(tier, add_arguments)
    output = Output()
    report = Report(tier)
    try:
        stack = locks.load(arguments.lock)
    except ValueError as e:
        report.add("kit-lock", "fail", "%s: run the kit in an image dlenv built, or pass --lock" % e)
        report.skip_all(codes_without_lock, "not run: no lock to check against")
        finish(output, report)
    try:
        if add_arguments:
            body(stack, report, arguments)
        else:
            body(stack, report)
    except Exception as e:  # whatever it is, the host gets a report
        traceback.print_exc()
        report.add("kit-error", "fail", "the kit raised %s: %s outside its checks; this is a kit bug, report it with "
                   "the container's stderr" % (type(e).__name__, e))
    finish(output, report)
