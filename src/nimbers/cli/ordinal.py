"""ordinal and lexicode: nim arithmetic on ordinals, and lexicographic codes."""

from __future__ import annotations

import argparse
import re
from typing import Any, Sequence

from .._digits import no_digit_limit
from ..notation import NotationError, read_integer
from .options import Commands, UsageError, parse_count, parse_int


# ---- ordinal nimbers and lexicodes ---------------------------------------------------------

ORDINAL_OPS = {
    # op: (number of operands or "+" for one or more, what it does)
    "mul": ("+", "nim-product"),
    "add": ("+", "nim-sum"),
    "div": (2, "nim-quotient a / b"),
    "inv": (1, "nim-inverse"),
    "pow": (2, "a to an integer power k (may be negative)"),
    "sqrt": (1, "nim square root"),
    "degree": (1, "degree over GF(2) of the field the ordinal generates"),
    "minpoly": (1, "minimal polynomial over GF(2)"),
    "conjugates": (1, "the roots of the minimal polynomial"),
    "artin-schreier": (1, "both roots x of x^2 + x = a"),
    "explain": (2, "why a ⊗ b is what it is (Lenstra's κ's and α's)"),
    "lenstra": (1, "Lenstra's constants for a prime p: f(p), Q-set, excess, α_p"),
    "nim": ("+", "value and a winning move of a sum of Nim heaps of ordinal sizes"),
}


def _ordinal_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("op", choices=list(ORDINAL_OPS), metavar="OP",
                   help="; ".join(f"{k}: {v[1]}" for k, v in ORDINAL_OPS.items()))
    p.add_argument("values", nargs="+", metavar="X",
                   help="ordinals in Cantor normal form, e.g. 'w^(w^2+3)*5 + w + 2' or "
                        "'ω^ω·3' (quote them for the shell)")
    p.add_argument("--ascii", action="store_true", help="print w and * instead of ω and ·")


#: The longest run of digits in a typed ordinal: its coefficients and exponents are read by
#: the ordinal's own parser, with ``int``, within Python's int/str digit limit.
MAX_ORDINAL_DIGITS = 4000


def ordinal_command(op: str, values: Sequence[str], ascii: bool = False) -> str:
    """The text printed by ``nimbers ordinal OP X...`` (a plain function of strings).

    Numbers inside an ordinal have at most :data:`MAX_ORDINAL_DIGITS` digits; the results,
    whose numbers are nim-products of those (at most twice as many bits), are written
    whatever their length.
    """
    for text in values:
        longest = max((len(run) for run in re.findall(r"[0-9]+", text)), default=0)
        if longest > MAX_ORDINAL_DIGITS:
            raise UsageError(f"numbers in an ordinal have at most "
                             f"{MAX_ORDINAL_DIGITS:,} digits, got one of {longest:,}")
    with no_digit_limit():  # bounded above: results of at most about 2 x 4,000 digits
        return _ordinal_text(op, values, ascii)


def _ordinal_text(op: str, values: Sequence[str], ascii: bool) -> str:
    from .. import ordinal as o
    arity, _ = ORDINAL_OPS[op]
    if arity != "+" and len(values) != arity:
        raise UsageError(f"ordinal {op} takes {arity} argument{'s' if arity != 1 else ''}, "
                         f"got {len(values)}")

    def show(x: Any) -> str:
        return x.ascii() if ascii else str(x)

    if op == "lenstra":
        try:
            p = read_integer(values[0], signed=True)
        except NotationError:
            raise UsageError(f"lenstra takes a prime, got {values[0]!r}") from None
        qs = o.q_set(p)  # first: it checks that p is a prime in range
        lines = [f"f({p}) = {o.order_of_two(p) if p > 2 else 1}",
                 f"Q({p}) = {{{', '.join(str(q) for q in qs)}}}",
                 f"excess({p}) = {o.excess(p)}"]
        if p > 2:
            lines.append(f"α_{p} = κ_{p}^{p} = {show(o.alpha(p))}   (κ_{p} = {show(o.kappa(p))})")
        return "\n".join(lines)
    if op == "pow":
        return show(o.Ordinal(values[0]) ** parse_int(values[1]))
    xs = [o.Ordinal(v) for v in values]
    if op == "mul":
        result = xs[0]
        for x in xs[1:]:
            result = result * x
        return show(result)
    if op == "add":
        return show(o.nim_heap_value(xs))
    if op == "div":
        return show(xs[0] / xs[1])
    if op == "inv":
        return show(xs[0].inverse())
    if op == "sqrt":
        return show(xs[0].sqrt())
    if op == "degree":
        return str(xs[0].degree())
    if op == "minpoly":
        coeffs = xs[0].minimal_polynomial()
        d = len(coeffs) - 1
        terms = ["1" if d - i == 0 else "x" if d - i == 1 else f"x^{d - i}"
                 for i, c in enumerate(coeffs) if c]
        return " + ".join(terms)
    if op == "conjugates":
        return "\n".join(show(c) for c in xs[0].conjugates())
    if op == "artin-schreier":
        return "\n".join(show(r) for r in o.solve_artin_schreier(xs[0]))
    if op == "explain":
        text = o.explain_mul(xs[0], xs[1])
        return text.replace("ω", "w").replace("·", "*") if ascii else text
    # op == "nim"
    value = o.nim_heap_value(xs)
    move = o.winning_move(xs)
    if move is None:
        return f"value: {show(value)}\nP-position: every move loses"
    i, new = move
    return (f"value: {show(value)}\nwinning move: heap {i + 1} ({show(xs[i])}) down to "
            f"{show(new)}")


def _lexicode_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", type=parse_count, help="length")
    p.add_argument("d", type=parse_count, help="minimum distance")
    p.add_argument("--base", type=parse_count, default=2,
                   help="alphabet size, a power of 2 (default 2)")
    p.add_argument("--method", choices=["game", "greedy"], default="game",
                   help="Conway and Sloane's game shortcut (default) or the greedy definition")
    p.add_argument("--words", action="store_true", help="print every codeword")


def lexicode_command(n: int, d: int, base: int = 2, method: str = "game",
                     words: bool = False) -> str:
    """The text printed by ``nimbers lexicode N D`` (a plain function)."""
    from ..lexicode import lexicode
    code = lexicode(n, d, base, method=method)
    lines = [f"lexicode n={n} d={d} base={base}: {code.size} words, dimension "
             f"{code.dimension}, minimum distance {code.min_distance() if code.size > 1 else '-'}"]
    sep = "" if base <= 10 else " "
    if words:
        lines += [sep.join(str(v) for v in w) for w in code.words.tolist()]
    elif base.bit_length() - 1 and ((base.bit_length() - 1) & (base.bit_length() - 2)) == 0:
        lines.append("generator matrix over the nim field GF(%d):" % base)
        lines += [sep.join(str(v) for v in row) for row in code.generator_matrix().tolist()]
    return "\n".join(lines)


def ordinal_commands(commands: Commands) -> None:
    """ordinal and lexicode."""
    _ordinal_args(commands.add("ordinal", "nim arithmetic on ordinals below ω^ω^ω (Conway, Lenstra)",
                               "nimbers ordinal mul w w^2   ->  2", _ordinal))
    _lexicode_args(commands.add("lexicode", "lexicographic codes (Conway and Sloane): size and "
                                            "generator matrix", "nimbers lexicode 24 8", _lexicode))


def _ordinal(args: argparse.Namespace) -> str:
    return ordinal_command(args.op, args.values, ascii=args.ascii)


def _lexicode(args: argparse.Namespace) -> str:
    return lexicode_command(args.n, args.d, args.base, args.method, args.words)
