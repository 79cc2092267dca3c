"""Shared by the kit's tests: where the kit is, the interpreters to run it with, and a
skip that ctest reports as skipped (exit 77, SKIP_RETURN_CODE)."""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KIT = os.path.join(ROOT, "kit")
LOCKS = os.path.join(ROOT, "lockfiles")
SKIP = 77

sys.dont_write_bytecode = True  # no __pycache__ in the source tree the kit is embedded from
sys.path.insert(0, KIT)


def skip(why):
    print("SKIP: " + why)
    sys.exit(SKIP)


def kit_files():
    return sorted(glob.glob(os.path.join(KIT, "*.py")) + glob.glob(os.path.join(KIT, "dlenv_kit", "*.py")))


def _runs(python):
    try:
        return subprocess.call([python, "-c", "pass"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0
    except OSError:
        return False


def oldest_python():
    """The oldest CPython 3.6-3.8 on this machine (PATH, then pyenv's versions), or None:
    the kit must run on UBI 8's python 3.6. $KIT_OLD_PYTHON overrides."""
    if os.environ.get("KIT_OLD_PYTHON"):
        return os.environ["KIT_OLD_PYTHON"]
    pyenv = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    for minor in (6, 7, 8):
        name = "python3.%d" % minor
        for candidate in [name] + sorted(glob.glob(os.path.join(pyenv, "versions", "3.%d.*" % minor, "bin", name))):
            if _runs(candidate):
                return candidate
    return None


def interpreters():
    """This python3 and, when there is one, the oldest to run the kit with."""
    old = oldest_python()
    return [sys.executable] + ([old] if old else [])


def run_tier(python, script, lock, env=None):
    """Runs a tier like the host does; returns (exit code, parsed stdout, stderr)."""
    process = subprocess.Popen([python, os.path.join(KIT, script), "--lock", lock], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    out, err = process.communicate(timeout=300)
    return process.returncode, json.loads(out.decode()), err.decode()


def clean_env(**extra):
    """The environment without anything that would let the kit find a driver or a framework."""
    env = dict((k, v) for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "PYTHONPATH"))
    env.update(extra)
    return env


def expect_eq(what, actual, expected):
    if actual != expected:
        print("FAIL: %s:\n  got      %r\n  expected %r" % (what, actual, expected))
        sys.exit(1)
    print("ok: " + what)


def again_with_oldest(script):
    """Runs `script` once more with the oldest python found (not again from there), so
    the kit's bindings are exercised on the interpreter UBI 8 ships; exits with its status."""
    old = oldest_python()
    if old is None or os.environ.get("KIT_TEST_NESTED"):
        return
    print("== again with " + old)
    env = dict(os.environ, KIT_TEST_NESTED="1")
    sys.stdout.flush()
    sys.exit(subprocess.call([old, script], env=env))
