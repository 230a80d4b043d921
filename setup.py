"""Build of the one C extension, nimbers._core (metadata lives in pyproject.toml).

Environment switches:
  NIMBERS_SANITIZE=1   compile with AddressSanitizer and UndefinedBehaviorSanitizer
                       (run Python with LD_PRELOAD of libasan; see tools/sanitize.sh)
  NIMBERS_PORTABLE_BUILD=1   leave out the carry-less-multiplication kernel entirely
"""

import os
import platform
import sys

import numpy
from setuptools import Extension, setup

SOURCES = ["module.c", "ufuncs.c", "kernel64.c", "tower.c", "linalg.c", "heap.c", "turning.c", "dlog.c"]


def compile_args():
    if sys.platform == "win32":
        return ["/O2"]
    args = ["-O2", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter",
            "-Wno-missing-field-initializers", "-Wno-cast-function-type"]
    machine = platform.machine().lower()
    # -mpclmul only makes the carry-less intrinsics available: the compiler never emits
    # them on its own, and the kernel checks the CPU at run time before using them.
    if machine in ("x86_64", "amd64") and not os.environ.get("NIMBERS_PORTABLE_BUILD"):
        args.append("-mpclmul")
    if os.environ.get("NIMBERS_SANITIZE"):
        args += ["-O1", "-g", "-fno-omit-frame-pointer",
                 "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    return args


def link_args():
    if os.environ.get("NIMBERS_SANITIZE"):
        return ["-fsanitize=address,undefined"]
    return []


setup(
    ext_modules=[
        Extension(
            "nimbers._core",
            sources=[os.path.join("csrc", s) for s in SOURCES],
            depends=[os.path.join("csrc", h) for h in
                     ("nimcore.h", "kernel_inline.h", "pyglue.h")],
            include_dirs=["csrc", numpy.get_include()],
            extra_compile_args=compile_args(),
            extra_link_args=link_args(),
        )
    ]
)
