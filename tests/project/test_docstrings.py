"""The examples in the docstrings of the operations (instances, which doctest's module
finder does not visit) run and give what they show."""

import doctest

import pytest

import nimbers

OPERATIONS = [nimbers.nim_add, nimbers.nim_mul, nimbers.nim_div, nimbers.nim_pow,
              nimbers.nim_square, nimbers.nim_sqrt, nimbers.nim_inv]


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda f: f.__name__)
def test_operation_docstring_examples(op):
    test = doctest.DocTestParser().get_doctest(op.__doc__, vars(nimbers), op.__name__, None, 0)
    assert test.examples, f"{op.__name__} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def _public_callables():
    import inspect

    from nimbers import explain, field, linalg, tables
    for module in (explain, field, linalg, tables):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                yield f"{module.__name__}.{name}", obj
    for name in nimbers.__all__:
        obj = getattr(nimbers, name)
        if callable(obj) and not isinstance(obj, type):
            yield f"nimbers.{name}", obj


@pytest.mark.parametrize("name,obj", list(_public_callables()), ids=lambda x: x if isinstance(x, str) else "")
def test_public_functions_have_numpydoc_sections(name, obj):
    doc = obj.__doc__ or ""
    assert "Examples\n    --------" in doc or ">>>" in doc, f"{name} has no example"
    sections = [s for s in ("Parameters", "Returns") if f"{s}\n    ----" in doc]
    assert sections, f"{name} has no Parameters or Returns section"


VAGUE = ["the J reference", "the lecture", "the notes", "turning-games reference",
         "the reference's"]


def test_docstrings_cite_the_literature_by_name():
    import pathlib
    root = pathlib.Path(nimbers.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for phrase in VAGUE:
            assert phrase not in text, f"{path.name} cites {phrase!r}: name the work instead"
