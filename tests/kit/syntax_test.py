"""Every kit file is Python 3.6: parsed with feature_version (3, 6) by this python3
(which refuses the walrus and other later grammar), and byte-compiled by the oldest
CPython 3.6-3.8 found on this machine, which also refuses f-string `=` and the like."""
import ast
import os
import subprocess
import sys

import support

files = support.kit_files()
support.expect_eq("the kit has its entry points", [os.path.basename(f) for f in files if "dlenv_kit" not in f],
                  ["acceptance_tier.py", "framework_tier.py", "gpu_tier.py"])
if sys.version_info >= (3, 8):
    for path in files:
        with open(path) as f:
            ast.parse(f.read(), path, feature_version=(3, 6))
    print("ok: %d files parse as Python 3.6 grammar" % len(files))
offenders = []
for path in files:
    with open(path) as f:
        text = f.read()
    offenders += [(os.path.basename(path), m) for m in ("import dataclasses", "import numpy") if m in text]
support.expect_eq("no kit file imports dataclasses or numpy", offenders, [])

old = support.oldest_python()
if old is None:
    support.skip("no CPython 3.6-3.8 on this machine to byte-compile the kit with (set KIT_OLD_PYTHON)")
version = subprocess.check_output([old, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).decode().strip()
code = ("import py_compile, sys\n"
        "for path in sys.argv[1:]:\n"
        "    py_compile.compile(path, cfile=path + '.check', doraise=True)\n")
try:
    subprocess.check_call([old, "-c", code] + files)
finally:
    for path in files:
        if os.path.exists(path + ".check"):
            os.remove(path + ".check")
print("ok: %d files byte-compile with python %s (%s)" % (len(files), version, old))
