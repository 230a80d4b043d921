import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

import nimbers  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data"

KERNELS = list(nimbers.arith._core.available_kernels())  # every path this CPU can run


@pytest.fixture(params=KERNELS)
def kernel(request):
    """Runs a test once per 64-bit kernel the CPU has, restoring the default after."""
    nimbers.set_kernel(request.param)
    yield request.param
    nimbers.set_kernel("auto")

# The typing tests are checked by mypy (test_typing.py), never run: some lines are errors
# on purpose.
collect_ignore = ["typing"]
