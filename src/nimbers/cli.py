"""The ``nimbers`` command (also ``python -m nimbers``).

Each subcommand is one function registered with :func:`command`; adding a subcommand is a
local change: write the function, decorate it, declare its arguments.  Bad input prints one
line on stderr and exits with status 2; nothing ends in a traceback.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, NoReturn, Sequence

__all__ = ["main", "command", "parse_nimber"]

EXIT_USAGE = 2


class UsageError(Exception):
    """A problem with what the user typed: one line on stderr, exit status 2."""


def parse_nimber(text: str) -> int:
    """A non-negative integer in decimal, 0x... or 0b... form (any size).

    >>> parse_nimber("0x1F"), parse_nimber("0b101"), parse_nimber("12")
    (31, 5, 12)
    """
    s = text.strip().lower().replace("_", "")
    try:
        if s.startswith(("0x", "0b", "0o")):
            value = int(s, 0)
        else:
            value = int(s, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"nimbers are non-negative, got {text}")
    return value


def parse_int(text: str) -> int:
    """Any integer (exponents may be negative)."""
    try:
        return int(text.strip().replace("_", ""), 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line: the problem and where to get help."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (try: {self.prog} --help)\n")
        raise SystemExit(EXIT_USAGE)


_COMMANDS: list[tuple[str, str, str, Callable, Callable]] = []


def command(name: str, help: str, example: str) -> Callable:
    """Registers a subcommand.  The decorated function takes the parsed arguments and
    returns the text to print (or None); its ``arguments`` attribute (set with
    :func:`arguments`) declares its arguments."""

    def register(fn: Callable) -> Callable:
        _COMMANDS.append((name, help, example, getattr(fn, "_arguments", lambda p: None), fn))
        return fn

    return register


def arguments(declare: Callable[[argparse.ArgumentParser], object]) -> Callable:
    def attach(fn: Callable) -> Callable:
        setattr(fn, "_arguments", declare)
        return fn

    return attach


def _format(value: int, args: argparse.Namespace) -> str:
    if getattr(args, "hex", False):
        return hex(value)
    if getattr(args, "bin", False):
        return bin(value)
    return str(value)


def _output_options(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--hex", action="store_true", help="print the result in hexadecimal")
    g.add_argument("--bin", action="store_true", help="print the result in binary")


def _operands(n: str | int, what: str = "nimbers") -> Callable:
    def declare(p: argparse.ArgumentParser) -> None:
        if n == "+":
            p.add_argument("values", nargs="+", type=parse_nimber, metavar="N",
                           help=f"{what} (decimal, 0x.. or 0b..)")
        else:
            p.add_argument("values", nargs=n, type=parse_nimber, metavar="N",
                           help=f"{what} (decimal, 0x.. or 0b..)")
        _output_options(p)
    return declare


# ---- arithmetic ---------------------------------------------------------------------------

@command("mul", "nim-product of the numbers", "nimbers mul 5 11    ->  12")
@arguments(_operands("+"))
def _mul(args: argparse.Namespace) -> str:
    from .arith import nim_mul
    result = 1
    for v in args.values:
        result = nim_mul(result, v)
    return _format(result, args)


@command("add", "nim-sum (XOR) of the numbers", "nimbers add 3 5 7    ->  1")
@arguments(_operands("+"))
def _add(args: argparse.Namespace) -> str:
    result = 0
    for v in args.values:
        result ^= v
    return _format(result, args)


@command("inv", "nim-inverse", "nimbers inv 2        ->  3")
@arguments(_operands(1))
def _inv(args: argparse.Namespace) -> str:
    from .arith import nim_inv
    return _format(nim_inv(args.values[0]), args)


@command("div", "nim-quotient a / b", "nimbers div 1 3      ->  2")
@arguments(_operands(2))
def _div(args: argparse.Namespace) -> str:
    from .arith import nim_div
    return _format(nim_div(*args.values), args)


def _pow_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("base", type=parse_nimber, help="the nimber")
    p.add_argument("exponent", type=parse_int, help="an ordinary integer, may be negative")
    _output_options(p)


@command("pow", "nim-power: base nim-multiplied by itself exponent times",
         "nimbers pow 2 10     ->  2")
@arguments(_pow_args)
def _pow(args: argparse.Namespace) -> str:
    from .arith import nim_pow
    return _format(nim_pow(args.base, args.exponent), args)


@command("sqrt", "nim square root", "nimbers sqrt 2       ->  3")
@arguments(_operands(1))
def _sqrt(args: argparse.Namespace) -> str:
    from .arith import nim_sqrt
    return _format(nim_sqrt(args.values[0]), args)


@command("explain", "the derivation of a nim-product (or of a nim-sum with --sum)",
         "nimbers explain 5 11")
@arguments(lambda p: (p.add_argument("values", nargs="+", type=parse_nimber, metavar="N"),
                      p.add_argument("--sum", action="store_true",
                                     help="explain the nim-sum of the numbers instead")))
def _explain(args: argparse.Namespace) -> str:
    from .explain import explain_mul, explain_sum
    if args.sum:
        return str(explain_sum(*args.values))
    if len(args.values) != 2:
        raise UsageError("explain takes two numbers (or --sum and any count)")
    return str(explain_mul(*args.values))


def _table_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("size", type=parse_nimber, help="the table covers 0 .. size-1")
    p.add_argument("--op", choices=["mul", "add", "mex"], default="mul",
                   help="mul (default), add, or mex: the product table built from the mex "
                        "definition alone")
    p.add_argument("--format", choices=["text", "csv"], default="text", dest="fmt")
    p.add_argument("--png", metavar="FILE", help="also write a PNG picture of the table")


@command("table", "addition or multiplication table", "nimbers table 16 --op mul --png t.png")
@arguments(_table_args)
def _table(args: argparse.Namespace) -> str | None:
    from . import tables
    builders = {"mul": tables.mul_table, "add": tables.add_table,
                "mex": lambda n: tables.mex_table(n, progress=None)}
    t = builders[args.op](args.size)
    if args.png:
        tables.table_image(t, args.png, scale=max(1, 512 // max(args.size, 1)))
    sign = {"mul": "⊗", "add": "⊕", "mex": "⊗"}[args.op]
    if args.fmt == "csv":
        return tables.to_csv(t, op=args.op)
    if args.png and args.size > 64:
        return f"wrote {args.png}"
    return tables.format_table(t, op=sign)


# ---- linear algebra ------------------------------------------------------------------------

def read_matrix(path: str) -> list[list[int]]:
    """A matrix file: whitespace-separated non-negative integers (decimal or 0x..), one row a
    line; '-' reads standard input.  Blank lines and lines starting with # are skipped."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a text file") from None
    rows: list[list[int]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        row = []
        for col, word in enumerate(line.split(), 1):
            try:
                row.append(parse_nimber(word))
            except argparse.ArgumentTypeError as exc:
                raise UsageError(f"{path}: row {lineno}, column {col}: {exc}") from None
        if rows and len(row) != len(rows[0]):
            raise UsageError(f"{path}: row {lineno} has {len(row)} entries, "
                             f"the first row has {len(rows[0])}")
        rows.append(row)
    if not rows:
        raise UsageError(f"{path}: empty matrix")
    return rows


def _matrix_file(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="matrix file: integers separated by spaces, one row a line "
                                "('-' for standard input)")


@command("det", "determinant (= permanent) of a matrix over the nim field", "nimbers det m.txt")
@arguments(_matrix_file)
def _det(args: argparse.Namespace) -> str:
    from .linalg import det
    return str(det(read_matrix(args.file)))


@command("rank", "rank of a matrix over the nim field", "nimbers rank m.txt")
@arguments(_matrix_file)
def _rank(args: argparse.Namespace) -> str:
    from .linalg import rank
    return str(rank(read_matrix(args.file)))


def _solve_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("a_file", help="coefficient matrix file ('-' for standard input)")
    p.add_argument("b_file", help="right-hand side: one column, or a matrix")


@command("solve", "the x with A x = B over the nim field", "nimbers solve A.txt B.txt")
@arguments(_solve_args)
def _solve(args: argparse.Namespace) -> str:
    from .linalg import solve
    if args.a_file == "-" and args.b_file == "-":
        raise UsageError("only one of the files can be standard input")
    x = solve(read_matrix(args.a_file), read_matrix(args.b_file))
    return "\n".join(" ".join(str(v) for v in row) for row in x.tolist())


# ---- the nim field ---------------------------------------------------------------------------

@command("log", "discrete logarithm: the least x with base^x = a", "nimbers log 3 2     ->  2")
@arguments(lambda p: (p.add_argument("a", type=parse_nimber), p.add_argument("base", type=parse_nimber)))
def _log(args: argparse.Namespace) -> str:
    from .field import nim_log
    return str(nim_log(args.a, args.base))


@command("order", "multiplicative order of a nimber", "nimbers order 256   ->  21845")
@arguments(_operands(1))
def _order(args: argparse.Namespace) -> str:
    from .field import nim_order
    return str(nim_order(args.values[0]))


@command("minpoly", "minimal polynomial over GF(2), highest degree first", "nimbers minpoly 8")
@arguments(_operands(1))
def _minpoly(args: argparse.Namespace) -> str:
    from .field import minimal_polynomial
    coeffs = minimal_polynomial(args.values[0])
    degree = len(coeffs) - 1
    terms = []
    for i, c in enumerate(coeffs):
        if c:
            d = degree - i
            terms.append("1" if d == 0 else "x" if d == 1 else f"x^{d}")
    return " + ".join(terms)


@command("solve-quadratic", "all x with x*x + b*x = c (nim operations)",
         "nimbers solve-quadratic 1 7")
@arguments(lambda p: (p.add_argument("b", type=parse_nimber), p.add_argument("c", type=parse_nimber),
                      p.add_argument("--bits", type=parse_nimber,
                                     help="only roots in GF(2^bits) (a power of two)")))
def _solve_quadratic(args: argparse.Namespace) -> str:
    from .field import solve_quadratic
    roots = solve_quadratic(args.b, args.c, bits=args.bits)
    return " ".join(str(r) for r in roots) if roots else "no root"


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


def ordinal_command(op: str, values: Sequence[str], ascii: bool = False) -> str:
    """The text printed by ``nimbers ordinal OP X...`` (a plain function of strings)."""
    from . import ordinal as o
    arity, _ = ORDINAL_OPS[op]
    if arity != "+" and len(values) != arity:
        raise UsageError(f"ordinal {op} takes {arity} argument{'s' if arity != 1 else ''}, "
                         f"got {len(values)}")

    def show(x: Any) -> str:
        return x.ascii() if ascii else str(x)

    if op == "lenstra":
        p = parse_int(values[0]) if values[0].strip().lstrip("-").isdigit() else None
        if p is None:
            raise UsageError(f"lenstra takes a prime, got {values[0]!r}")
        lines = [f"f({p}) = {o.order_of_two(p) if p > 2 else 1}",
                 f"Q({p}) = {{{', '.join(str(q) for q in o.q_set(p))}}}",
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


@command("ordinal", "nim arithmetic on ordinals below ω^ω^ω (Conway, Lenstra)",
         "nimbers ordinal mul w w^2   ->  2")
@arguments(_ordinal_args)
def _ordinal(args: argparse.Namespace) -> str:
    return ordinal_command(args.op, args.values, ascii=args.ascii)


def _lexicode_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", type=parse_nimber, help="length")
    p.add_argument("d", type=parse_nimber, help="minimum distance")
    p.add_argument("--base", type=parse_nimber, default=2,
                   help="alphabet size, a power of 2 (default 2)")
    p.add_argument("--method", choices=["game", "greedy"], default="game",
                   help="Conway and Sloane's game shortcut (default) or the greedy definition")
    p.add_argument("--words", action="store_true", help="print every codeword")


def lexicode_command(n: int, d: int, base: int = 2, method: str = "game",
                     words: bool = False) -> str:
    """The text printed by ``nimbers lexicode N D`` (a plain function)."""
    from .lexicode import lexicode
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


@command("lexicode", "lexicographic codes (Conway and Sloane): size and generator matrix",
         "nimbers lexicode 24 8")
@arguments(_lexicode_args)
def _lexicode(args: argparse.Namespace) -> str:
    return lexicode_command(args.n, args.d, args.base, args.method, args.words)


# ---- games ---------------------------------------------------------------------------------

def _piles_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("piles", nargs="+", type=parse_nimber, metavar="PILE", help="pile sizes")
    p.add_argument("--misere", action="store_true", help="whoever takes the last stone loses")


@command("nim", "the nim-sum, the verdict and every winning move of a Nim position",
         "nimbers nim 3 5 7")
@arguments(_piles_args)
def _nim(args: argparse.Namespace) -> str:
    from .games.nim import is_losing, nim_sum, winning_moves
    lines = [f"nim-sum: {nim_sum(args.piles)}"]
    if is_losing(args.piles, misere=args.misere):
        lines.append("P-position: the player to move loses (safe for the player who just moved)")
    else:
        lines.append("N-position: the player to move wins; winning moves:")
        for m in winning_moves(args.piles, misere=args.misere):
            lines.append(f"  take {m.take} from pile {m.pile + 1} (leaving {m.new_size})")
    return "\n".join(lines)


def _heap_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("code", help="octal or take-and-break code such as 0.77 (Kayles), or "
                                "'grundy' for Grundy's game")
    p.add_argument("count", type=parse_nimber, nargs="?", default=30,
                   help="how many Grundy values to compute (default 30)")
    p.add_argument("--period", action="store_true",
                   help="also find the period (proved by the octal periodicity theorem)")
    p.add_argument("--stats", action="store_true",
                   help="print statistics instead of the values: the largest value, the rare "
                        "mask and the rare heap sizes with their values")
    p.add_argument("--save", metavar="FILE.npy",
                   help="save the values (and the state to resume from, FILE.npy.json)")
    p.add_argument("--resume", metavar="FILE.npy",
                   help="start from the values saved there (by --save) instead of from 0")


@command("heap", "Grundy values (and period, statistics) of a heap game",
         "nimbers heap 0.77 20 --period;  nimbers heap 0.16 100000 --stats")
@arguments(_heap_args)
def _heap(args: argparse.Namespace) -> str:
    from .games.heap import HeapGame, heap_game_from_code
    if args.resume:
        game = HeapGame.load(args.resume)
        if game.code != heap_game_from_code(args.code).code:
            raise UsageError(f"{args.resume} holds {game.code}, not {args.code}")
    else:
        game = heap_game_from_code(args.code)
    values = game.nim_values(args.count)
    lines = [str(game.stats(args.count))] if args.stats else \
        [" ".join(str(v) for v in values.tolist())]
    if args.period:
        lines.append(str(game.period()))
    if args.save:
        game.save(args.save)
    return "\n".join(lines)


def _turning_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="a family (turning-turtles, mocking-turtles, moebius, mogul, "
                                "gold-moidores, at-most-T, motley, twins, triplets, ruler, "
                                "progression, turnips, grunt) or a turning code like 1-3C(5)")
    p.add_argument("count", type=parse_nimber, nargs="?", default=20,
                   help="how many values G(0..count-1) to print (default 20)")
    p.add_argument("--heads", metavar="COINS",
                   help="a position: head coins '0,3,7' (numbered from 0) or a row like HTHHT; "
                        "prints its value and a winning move")


def _parse_heads(text: str):
    t = text.strip()
    if t and set(t.upper()) <= {"H", "T"}:
        return t
    try:
        return [int(v) for v in t.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"heads are coin numbers like 0,3,7 or a row like HTHHT, got {text!r}") from None


@command("turning", "values and winning moves of a coin-turning game (coins from 0)",
         "nimbers turning ruler --heads 0,3,7")
@arguments(_turning_args)
def _turning(args: argparse.Namespace) -> str:
    from .games.turning import named_game
    game = named_game(args.game)
    if args.heads is None:
        return " ".join(str(v) for v in game.nim_values(args.count).tolist())
    heads = _parse_heads(args.heads)
    value = game.nim_value(heads)
    move = game.winning_move(heads)
    verdict = "no winning move: every move loses" if move is None else \
        "winning move: turn coins " + ",".join(str(c) for c in move)
    return f"value: {value}\n{verdict}"


def _tartan_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("games", nargs="+", help="two or more 1-D games (names or codes), or one "
                                            "of turning-corners, rugs, acrostic-twins")
    p.add_argument("--heads", metavar="HEADS",
                   help="heads as row:column pairs, e.g. 3:5,2:2 (numbered from 0)")
    p.add_argument("--size", type=parse_nimber, default=8, help="board side for the table")


@command("tartan", "values and winning moves of 2-D coin-turning games (Tartan theorem)",
         "nimbers tartan twins twins --heads 3:5,2:2")
@arguments(_tartan_args)
def _tartan(args: argparse.Namespace) -> str:
    from .games.tartan import acrostic_twins, rugs, tartan, turning_corners
    from .tables import format_table
    special = {"turning-corners": turning_corners, "rugs": rugs, "acrostic-twins": acrostic_twins}
    game: Any
    if len(args.games) == 1:
        if args.games[0] not in special:
            raise UsageError("give two or more games, or turning-corners, rugs or acrostic-twins")
        game = special[args.games[0]]()
    else:
        game = tartan(*args.games)
    if args.heads is None:
        if args.size > 64:
            raise UsageError("--size is at most 64 for a printed table")
        shape = [args.size] * (len(getattr(game, "factors", (0, 0))))
        if len(shape) != 2:
            raise UsageError("a table is printed for two games only; use --heads")
        return format_table(game.nim_values(*shape), op="G")
    value = game.nim_value(args.heads)
    move = game.winning_move(args.heads)
    verdict = "no winning move: every move loses" if move is None else \
        "winning move: turn " + ",".join(":".join(str(v) for v in c) for c in move)
    return f"value: {value}\n{verdict}"


def _play_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=["nim", "octal", "turning"],
                   help="nim (then pile sizes), octal (then a code and heap sizes) or turning "
                        "(then a game and a row like HTHHT)")
    p.add_argument("setup", nargs="+", help="nim: pile sizes; octal: a code, then heap sizes; "
                                            "turning: a game, then a row of H and T")
    p.add_argument("--misere", action="store_true", help="Nim only: the last mover loses")
    p.add_argument("--first", choices=["human", "computer"], default="human",
                   help="who moves first (default: you)")


@command("play", "play a game against a perfect opponent", "nimbers play nim 3 5 7")
@arguments(_play_args)
def _play(args: argparse.Namespace) -> None:
    from .games.play import HeapPlay, NimPlay, play
    game: Any
    if args.game == "nim":
        game = NimPlay(misere=args.misere)
        position = [_setup_number(v) for v in args.setup]
    elif args.game == "turning":
        from .games.play import TurningPlay
        from .games.turning import heads_of, named_game
        if len(args.setup) != 2:
            raise UsageError("play turning needs a game and a row of coins, e.g. ruler HTHHT")
        game = TurningPlay(named_game(args.setup[0]), len(args.setup[1]))
        position = heads_of(args.setup[1])
    else:
        from .games.heap import heap_game_from_code
        if len(args.setup) < 2:
            raise UsageError("play octal needs a code and at least one heap size")
        game = HeapPlay(heap_game_from_code(args.setup[0]))
        position = [_setup_number(v) for v in args.setup[1:]]
    play(game, position, first=args.first)
    return None


def _setup_number(text: str) -> int:
    try:
        return parse_nimber(text)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(str(exc)) from None


# ---- the web playground ----------------------------------------------------------------

def _serve_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free one)")
    p.add_argument("--open", action="store_true", help="open the playground in a browser")


@command("serve", "the web playground: calculator, tables, games, sequences and a JSON API",
         "nimbers serve --open")
@arguments(_serve_args)
def _serve(args: argparse.Namespace) -> None:
    from .web import serve
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, got {args.port}")
    serve(args.host, args.port, open_browser=args.open)
    return None


# ---- the parser and the entry point ------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="nimbers",
        description="Nimber arithmetic, impartial games and linear algebra over the nim field. "
                    "Numbers may be decimal, 0x.. or 0b.., of any size.",
        epilog="Examples:\n" + "\n".join(f"  {ex}" for _, _, ex, _, _ in _COMMANDS)
               + "\n\nEach command has its own --help.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_text, example, declare, fn in _COMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text,
                           epilog=f"Example:\n  {example}",
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        declare(p)
        p.set_defaults(func=fn)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        out = args.func(args)
    except (UsageError, ValueError, TypeError, ZeroDivisionError, OverflowError,
            MemoryError, ImportError, OSError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        sys.stderr.write(f"nimbers {args.command}: {message}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("nimbers: interrupted\n")
        return 130
    if out is not None:
        try:
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            return 0
    return 0


def run() -> NoReturn:
    """Console-script entry point."""
    raise SystemExit(main())
