"""Cantor normal form as text: the printer and the parser of ordinals below ω^ω^ω.

The parser returns data, a dict {exponent: coefficient} (see
:mod:`nimbers.ordinal.exponents`), which :class:`~nimbers.ordinal.Ordinal` wraps; ``ω`` may be
typed ``w``, ``·`` as ``*`` or ``.``, and ``ω^ω^2`` means ω^(ω^2).

>>> terms = parse_terms("w^(w^2+3)*5 + w + 2")
>>> terms
{(3, 0, 1): 5, (1,): 1, (): 2}
>>> format_terms(sorted(terms.items(), key=lambda t: _exp_key(t[0]), reverse=True), "ω", "·", " + ")
'ω^(ω^2+3)·5 + ω + 2'
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from .exponents import Exponent, _exp_key, _strip

Terms = dict[Exponent, int]  # {exponent: finite coefficient}, the coefficients non-zero


def _format_exponent(e: Exponent, w: str, dot: str) -> str:
    parts = []
    for k in range(len(e) - 1, -1, -1):
        a = e[k]
        if not a:
            continue
        if k == 0:
            parts.append(str(a))
        else:
            base = w if k == 1 else f"{w}^{k}"
            parts.append(base if a == 1 else f"{base}{dot}{a}")
    return "+".join(parts) if parts else "0"


def format_terms(terms: Sequence[tuple[Exponent, int]], w: str, dot: str, plus: str) -> str:
    """Cantor normal form of (exponent, coefficient) pairs given largest first, with w for
    ω, dot for the product and plus between the terms."""
    if not terms:
        return "0"
    out = []
    for e, c in terms:
        if e == ():
            out.append(str(c))
            continue
        if e == (1,):
            power = w
        elif len(e) == 1:
            power = f"{w}^{e[0]}"
        elif e == (0, 1):
            power = f"{w}^{w}"
        else:
            power = f"{w}^({_format_exponent(e, w, dot)})"
        out.append(power if c == 1 else f"{power}{dot}{c}")
    return plus.join(out)


_TOKEN = re.compile(r"\s*(?:(\d+)|([ωwW])|(\^|\(|\)|\+|\*|·|\.))")


def _tokens(text: str) -> list[str]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read an ordinal at {text[pos:pos + 10]!r} in {text!r}")
        tok = m.group(1) or m.group(2) or m.group(3)
        out.append("w" if tok in "ωwW" and not tok.isdigit() else ("*" if tok in "·.*" else tok))
        pos = m.end()
    return out


def parse_terms(text: str) -> Terms:
    """The terms of the ordinal written in Cantor normal form (ValueError if it is not)."""
    return _Parser(text).parse()


def exponent_of(terms: Mapping[Exponent, int]) -> Exponent:
    """An ordinal below ω^ω, given by its terms, as the tuple of its coefficients
    (a_0, a_1, ...); ValueError for an ordinal at or past ω^ω."""
    e: dict[int, int] = {}
    for exp, c in terms.items():
        if len(exp) > 1:
            ordered = sorted(terms.items(), key=lambda t: _exp_key(t[0]), reverse=True)
            raise ValueError(f"the exponent {format_terms(ordered, 'ω', '·', ' + ')} is not "
                             "below ω^ω: this module handles the ordinals below ω^ω^ω")
        if c:
            e[exp[0] if exp else 0] = c
    return _strip(e.get(k, 0) for k in range(max(e) + 1)) if e else ()


class _Parser:
    """Cantor normal form: sum := term ('+' term)*; term := NUMBER | power [('*'|'·') NUMBER];
    power := 'ω' ['^' atom]; atom := NUMBER | power | '(' sum ')'."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            want = f"{expected!r}" if expected else "more"
            raise ValueError(f"expected {want} in the ordinal {self.text!r}")
        self.i += 1
        return tok

    def parse(self) -> Terms:
        if not self.toks:
            raise ValueError("empty ordinal")
        x = self.sum()
        if self.peek() is not None:
            raise ValueError(f"unexpected {self.peek()!r} in the ordinal {self.text!r}")
        return x

    def sum(self) -> Terms:
        terms = [self.term()]
        while self.peek() == "+":
            self.take("+")
            terms.append(self.term())
        acc: Terms = {}
        last = None
        for e, c in terms:
            if c == 0:
                continue
            if last is not None and _exp_key(e) >= _exp_key(last):
                raise ValueError(f"{self.text!r} is not in Cantor normal form: the exponents "
                                 "must decrease from left to right (write ω·2, not ω + ω)")
            acc[e] = c
            last = e
        return acc

    def term(self) -> tuple[Exponent, int]:
        tok = self.peek()
        if tok is not None and tok.isdigit():
            return (), int(self.take())
        e = self.power()
        c = 1
        if self.peek() == "*":
            self.take("*")
            tok = self.take()
            if not tok.isdigit():
                raise ValueError(f"a coefficient is a natural number, got {tok!r} in {self.text!r}")
            c = int(tok)
        return e, c

    def power(self) -> Exponent:
        self.take("w")
        if self.peek() != "^":
            return (1,)
        self.take("^")
        tok = self.peek()
        exponent: Terms
        if tok is not None and tok.isdigit():
            exponent = {(): int(self.take())}
        elif tok == "w":
            exponent = {self.power(): 1}
        elif tok == "(":
            self.take("(")
            exponent = self.sum()
            self.take(")")
        else:
            raise ValueError(f"expected an exponent after '^' in {self.text!r}")
        return exponent_of(exponent)
