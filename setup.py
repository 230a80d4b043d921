"""Build of the one C extension, nimbers._core (metadata lives in pyproject.toml).

Environment switches:
  NIMBERS_SANITIZE=1   compile with AddressSanitizer and UndefinedBehaviorSanitizer
                       (run Python with LD_PRELOAD of libasan; see tools/sanitize.sh)
  NIMBERS_PORTABLE_BUILD=1   leave out the carry-less-multiplication kernel entirely
  NIMBERS_DEBUG=1      keep the symbol table and debug information (release builds, the
                       default, link a stripped extension: 116 kB against 521 kB with
                       debug information on x86-64 Linux)
"""

import glob
import os
import sys

import numpy
from setuptools import Extension, setup

# The C core in two tiers: csrc/core/ is plain C (no Python.h; the frontier engine in its
# folder csrc/core/frontier/), csrc/python/ the bindings.  Every source and header there is
# built, so a new file needs no list here (tests/project/test_c_sources.py holds the tiers).
SOURCES = sorted(glob.glob(os.path.join("csrc", "core", "**", "*.c"), recursive=True)) + \
    sorted(glob.glob(os.path.join("csrc", "python", "*.c")))
HEADERS = sorted(glob.glob(os.path.join("csrc", "**", "*.h"), recursive=True))


def compile_args():
    if sys.platform == "win32":
        return ["/O2"]
    args = ["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
            "-Wno-missing-field-initializers", "-Wno-cast-function-type"]
    # No instruction-set flag: the carry-less code carries its own target attribute
    # (csrc/core/kernel_inline.h), so a build runs on any CPU of its architecture.
    if os.environ.get("NIMBERS_PORTABLE_BUILD"):
        args.append("-DNIMBERS_PORTABLE_BUILD")
    if os.environ.get("NIMBERS_SANITIZE"):
        args += ["-O1", "-g", "-fno-omit-frame-pointer",
                 "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    return args


def link_args():
    if os.environ.get("NIMBERS_SANITIZE"):
        return ["-fsanitize=address,undefined"]
    if os.environ.get("NIMBERS_DEBUG"):
        return []
    # A release build: no symbol table or debug sections in the shared object (MSVC writes
    # none without /DEBUG; Apple's linker strips with -S -x, GNU and LLVM with -s).
    if sys.platform == "darwin":
        return ["-Wl,-S,-x"]
    if sys.platform == "win32":
        return []
    return ["-Wl,-s"]


setup(
    ext_modules=[
        Extension(
            "nimbers._core",
            sources=SOURCES,
            depends=HEADERS,
            include_dirs=[os.path.join("csrc", "core"), os.path.join("csrc", "python"),
                          numpy.get_include()],
            extra_compile_args=compile_args(),
            extra_link_args=link_args(),
        )
    ]
)
