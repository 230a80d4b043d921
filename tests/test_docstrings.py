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
