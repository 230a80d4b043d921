"""The public namespace: an explicit __all__, submodules imported on first use, public
objects that say they live in nimbers, signatures that inspect can read, help() that
reads well."""

import inspect
import pickle
import pydoc
import subprocess
import sys

import pytest

import nimbers

SUBMODULES = ["arith", "cli", "explain", "field", "games", "linalg", "tables", "typing"]


def test_all_names_exist_and_are_public():
    assert sorted(nimbers.__all__) == nimbers.__all__ or len(set(nimbers.__all__)) == len(nimbers.__all__)
    for name in nimbers.__all__:
        assert hasattr(nimbers, name), name
    assert "NimOp" not in nimbers.__all__ and "_core" not in nimbers.__all__


def test_star_import_gives_all():
    namespace: dict = {}
    exec("from nimbers import *", namespace)
    assert set(nimbers.__all__) <= set(namespace)


def test_submodules_load_on_first_use():
    # A fresh interpreter: nothing but `import nimbers` has run.
    code = ("import sys, nimbers\n"
            "print('nimbers.linalg' in sys.modules)\n"
            f"for name in {SUBMODULES!r}:\n"
            "    m = getattr(nimbers, name)\n"
            "    assert m is sys.modules['nimbers.' + name]\n"
            "    print(m.__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False"] + [f"nimbers.{name}" for name in SUBMODULES]


def test_dir_lists_submodules():
    assert set(SUBMODULES) <= set(dir(nimbers))
    assert nimbers.linalg.det([[2, 1], [1, 2]]) == 2
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        nimbers.nope  # noqa: B018


def test_public_objects_say_where_they_live():
    for name in ["Nimber", "available_kernels", "nim_add", "nim_mul", "nim_div", "nim_pow", "nim_inv", "nim_sqrt",
                 "nim_square", "field_bits", "set_kernel", "get_kernel"]:
        obj = getattr(nimbers, name)
        assert obj.__module__ == "nimbers", name
        assert getattr(obj, "__qualname__", name) == name


def test_signatures():
    assert str(inspect.signature(nimbers.nim_mul)) == "(a, b, /, **kwargs)"
    assert str(inspect.signature(nimbers.nim_pow)) == "(a, k, /, **kwargs)"
    assert str(inspect.signature(nimbers.nim_inv)) == "(a, /, **kwargs)"
    assert "value" in str(inspect.signature(nimbers.Nimber))


def test_version():
    from importlib.metadata import version
    assert nimbers.__version__ == version("nimbers")
    assert nimbers.__version__.count(".") >= 2


def test_help_is_readable():
    text = pydoc.render_doc(nimbers, renderer=pydoc.plaintext)
    assert "nimbers.linalg" in text and "Nimber" in text
    assert "__getattribute__" not in text  # the internals of the C operation type stay hidden
    assert "nim-product" in pydoc.render_doc(nimbers.nim_mul, renderer=pydoc.plaintext)


def test_nimber_pickles_by_public_name():
    assert b"nimbers\n" in pickle.dumps(nimbers.Nimber(3), 0) or b"nimbers" in pickle.dumps(nimbers.Nimber(3))
