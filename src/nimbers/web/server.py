"""The playground's HTTP server: the pages, and the JSON API under them.

Each API endpoint is one :class:`Endpoint`: its path, what it does, its parameters (read and
checked by a function of :mod:`.params` before any work starts) and the :mod:`.api` function
that does the work in a worker process (:mod:`.worker`).  ``GET /api`` lists them all, with
an example each; the same table is the API's documentation in docs/guide.md.

Answers: 200 with JSON (or a PNG for the table picture); 400 with ``{"error": message}`` for
a missing, malformed or out-of-range parameter or an input the library refuses; 404 for an
unknown path; 405 (with an Allow header) for any method other than GET, HEAD or POST; 413 for
a body over 64 KiB; 422 when the computation ran past the time limit; 503 when every worker
stayed busy, or when the server is stopping.  Bound to a loopback address, the server answers
only requests whose one Host header names a loopback host (400 for a malformed or repeated
Host, 403 for another name).

Under load every request gets an answer, 503 when the server is saturated, from a fixed set
of threads (:mod:`.connections`).
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import sys
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Callable
from urllib.parse import parse_qsl, urlsplit

from . import params as P
from .connections import BoundedConnections
from .worker import Busy, Stopping, TooMuchWork, WorkerPool, WorkFailed

__all__ = ["Endpoint", "ENDPOINTS", "PlaygroundServer", "make_server", "loopback_host"]

MAX_BODY = 64 * 1024
#: Nesting deeper than this in a JSON body is refused (parameters are at most lists of lists).
MAX_BODY_DEPTH = 8
LOOPBACK = ("127.0.0.1", "localhost", "::1")
ALLOWED_METHODS = "GET, HEAD, POST"
#: A Host header: a bracketed IPv6 literal or a name (letters, digits, dots, hyphens), then
#: an optional port of digits (RFC 9110, section 7.2; RFC 3986, section 3.2.2).
_HOST = re.compile(r"(?:\[(?P<ip6>[0-9a-f:.]+)\]|(?P<name>[a-z0-9.-]+))(?::(?P<port>[0-9]{0,5}))?")

# Limits on what one request may ask for (each keeps a request well under the time limit).
MAX_TABLE = 256          # a table sent as JSON
MAX_PICTURE = 4096       # a table drawn as a PNG
MAX_MEX = 32             # the mex construction, stepped through
MAX_PILES = 16
MAX_PILE = 2**32 - 1
MAX_HEAP = 10_000
MAX_COINS = 64
MAX_GRID = 24
MAX_SEQUENCE = 5000
#: the most values a period search may look at (the library's default search for codes with
#: two-heap splits, as the command line's: cheap proofs such as 0.16's, 509,622 values in
#: 0.2 s, are found; a longer search is stopped by the workers' time limit)
MAX_SEARCH = 1 << 20
MAX_TURNING_SEQUENCE = 512


@dataclass(frozen=True)
class Endpoint:
    """An API path, what it answers, its parameters in words, an example query, and how a
    request's parameters become the api function's arguments."""

    path: str
    summary: str
    parameters: dict[str, str]
    example: str
    function: str
    arguments: Callable[[dict[str, Any]], dict[str, Any]]
    content_type: str = "application/json"


def _game(q: dict[str, Any]) -> str:
    return P.game_name(q, "game")


def _tartan_shape(q: dict[str, Any]) -> dict[str, Any]:
    return {"rows_game": P.game_name(q, "rows_game"),
            "cols_game": P.game_name(q, "cols_game", default="")}


def _grid(q: dict[str, Any]) -> tuple[int, int]:
    return P.integer(q, "rows", 1, MAX_GRID), P.integer(q, "cols", 1, MAX_GRID)


def _heads_on_grid(q: dict[str, Any]) -> dict[str, Any]:
    rows, cols = _grid(q)
    return {**_tartan_shape(q), "heads": P.cells(q, "heads", rows, cols, default=[])}


def _calc(q: dict[str, Any]) -> dict[str, Any]:
    op = P.choice(q, "op", ("add", "mul", "div", "inv", "pow", "sqrt", "log"))
    a = P.nimber(q, "a")
    if op in ("inv", "sqrt"):
        return {"op": op, "a": a}
    if op == "pow":
        return {"op": op, "a": a, "b": P.integer(q, "b", -(2**4096), 2**4096)}
    return {"op": op, "a": a, "b": P.nimber(q, "b")}


def _heaps(q: dict[str, Any]) -> list[int]:
    return P.int_list(q, "heaps", most=MAX_PILES, top=MAX_HEAP, least=1)


def _piles(q: dict[str, Any]) -> list[int]:
    return P.int_list(q, "piles", most=MAX_PILES, top=MAX_PILE, least=1)


def _row(q: dict[str, Any]) -> str:
    return P.coin_row(q, "row", MAX_COINS)


ENDPOINTS: list[Endpoint] = [
    Endpoint("/api/calc", "one operation of the calculator: the result in decimal, hex and "
             "binary, a check, and the derivation (nim-sum in binary columns, nim-product by "
             "explain_mul for operands up to 64 bits)",
             {"op": "add, mul, div, inv, pow, sqrt or log (log: the x with b^x = a)",
              "a": "a nimber: decimal, 0x.. or 0b.., up to 65536 bits",
              "b": "the second operand (pow: any integer, may be negative)"},
             "/api/calc?op=mul&a=5&b=11", "calculate", _calc),
    Endpoint("/api/explain", "explain_mul's derivation of a ⊗ b (operands up to 64 bits)",
             {"a": "a nimber", "b": "a nimber"}, "/api/explain?a=8&b=8", "derivation",
             lambda q: {"a": P.nimber(q, "a", max_bits=64), "b": P.nimber(q, "b", max_bits=64)}),
    Endpoint("/api/table", "the addition or multiplication table of 0..n-1",
             {"op": "add or mul", "n": f"1 to {MAX_TABLE}"}, "/api/table?op=mul&n=16", "table",
             lambda q: {"op": P.choice(q, "op", ("add", "mul")),
                        "n": P.integer(q, "n", 1, MAX_TABLE)}),
    Endpoint("/api/table.png", "a PNG heat map of the table, one pixel a cell",
             {"op": "add or mul", "n": f"1 to {MAX_PICTURE}"}, "/api/table.png?op=mul&n=256",
             "table_picture",
             lambda q: {"op": P.choice(q, "op", ("add", "mul")),
                        "n": P.integer(q, "n", 1, MAX_PICTURE)}, "image/png"),
    Endpoint("/api/mex", "the multiplication table built by the mex rule alone, and for cell "
             "(a, b) the values it excludes and their mex",
             {"n": f"1 to {MAX_MEX}", "a": "row, below n", "b": "column, below n"},
             "/api/mex?n=8&a=2&b=3", "mex_step",
             lambda q: {"n": P.integer(q, "n", 1, MAX_MEX), "a": P.integer(q, "a", 0, MAX_MEX),
                        "b": P.integer(q, "b", 0, MAX_MEX)}),
    Endpoint("/api/catalogue", "the game names the pages offer", {}, "/api/catalogue",
             "catalogue", lambda q: {}),
    Endpoint("/api/nim/hint", "Nim: the nim-sum in binary columns, the verdict, every winning "
             "move and why it wins",
             {"piles": f"1 to {MAX_PILES} pile sizes, e.g. 3,5,7", "misere": "true: the last "
              "mover loses"}, "/api/nim/hint?piles=3,5,7", "nim_hint",
             lambda q: {"piles": _piles(q), "misere": P.flag(q, "misere")}),
    Endpoint("/api/nim/move", "Nim: the player's move, checked; the position after it and "
             "whether the game is over (winner: human or computer)",
             {"piles": "pile sizes", "misere": "true or false", "pile": "the pile, from 0",
              "take": "how many stones"}, "/api/nim/move?piles=3,5,7&pile=0&take=1", "nim_move",
             lambda q: {"piles": _piles(q), "misere": P.flag(q, "misere"),
                        "pile": P.integer(q, "pile", 0, MAX_PILES - 1),
                        "take": P.integer(q, "take", 1, MAX_PILE)}),
    Endpoint("/api/nim/reply", "Nim: the computer's move (a winning one when there is one)",
             {"piles": "pile sizes", "misere": "true or false"}, "/api/nim/reply?piles=3,5,7",
             "nim_reply", lambda q: {"piles": _piles(q), "misere": P.flag(q, "misere")}),
    Endpoint("/api/heap/hint", "a heap game: each heap's Grundy value, the nim-sum, a winning "
             "move and why",
             {"game": "kayles, dawsons-kayles, dawsons-chess, guiles, treblecross, grundy, a "
              "code (0.77, 4.07, 0.3F) or a subtraction set S(1,3,4)",
              "heaps": f"1 to {MAX_PILES} heap sizes up to {MAX_HEAP}"},
             "/api/heap/hint?game=kayles&heaps=3,4", "heap_hint",
             lambda q: {"spec": _game(q), "heaps": _heaps(q)}),
    Endpoint("/api/heap/options", "a heap game: every move from one heap, with the value "
             "each leaves", {"game": "as above", "heaps": "heap sizes", "heap": "which, from 0"},
             "/api/heap/options?game=kayles&heaps=3,4&heap=0", "heap_options",
             lambda q: {"spec": _game(q), "heaps": _heaps(q),
                        "index": P.integer(q, "heap", 0, MAX_PILES - 1)}),
    Endpoint("/api/heap/move", "a heap game: the player's move, checked",
             {"game": "as above", "heaps": "heap sizes", "heap": "which, from 0",
              "take": "tokens removed", "leave": "the heaps left, e.g. 1,1 (may be empty)"},
             "/api/heap/move?game=kayles&heaps=3,4&heap=0&take=2&leave=1", "heap_move",
             lambda q: {"spec": _game(q), "heaps": _heaps(q),
                        "index": P.integer(q, "heap", 0, MAX_PILES - 1),
                        "take": P.integer(q, "take", 0, MAX_HEAP),
                        "leave": P.int_list(q, "leave", most=3, top=MAX_HEAP, default=[])}),
    Endpoint("/api/heap/reply", "a heap game: the computer's move",
             {"game": "as above", "heaps": "heap sizes"}, "/api/heap/reply?game=kayles&heaps=3,4",
             "heap_reply", lambda q: {"spec": _game(q), "heaps": _heaps(q)}),
    Endpoint("/api/turning/hint", "a coin-turning game: G(x) of every coin, the nim-sum over "
             "the heads, a winning move and why",
             {"game": "a family (ruler, mocking-turtles, turning-turtles, ...) or a turning "
              "code (1-3, 1+C, 3E, 4FS, ...)", "row": f"up to {MAX_COINS} coins, H or T, coin "
              "0 first"}, "/api/turning/hint?game=ruler&row=HTHHT", "turning_hint",
             lambda q: {"spec": _game(q), "row": _row(q)}),
    Endpoint("/api/turning/move", "a coin-turning game: the player's move, checked",
             {"game": "as above", "row": "the coins", "coins": "the coins to turn, from 0; the "
              "rightmost must be a head"}, "/api/turning/move?game=ruler&row=HTHHT&coins=3",
             "turning_move",
             lambda q: {"spec": _game(q), "row": _row(q),
                        "coins": P.int_list(q, "coins", most=MAX_COINS, top=MAX_COINS - 1,
                                            least=1)}),
    Endpoint("/api/turning/reply", "a coin-turning game: the computer's move",
             {"game": "as above", "row": "the coins"}, "/api/turning/reply?game=ruler&row=HTHHT",
             "turning_reply", lambda q: {"spec": _game(q), "row": _row(q)}),
    Endpoint("/api/tartan/hint", "a Tartan product on a grid: every coin's value "
             "G_rows(a) ⊗ G_columns(b), the nim-sum over the heads, a winning move and why",
             {"rows_game": "turning-corners, rugs, acrostic-twins or 'A x B' (then no "
              "cols_game), or a 1-D game",
              "cols_game": "the 1-D game along the columns", "rows": f"1 to {MAX_GRID}",
              "cols": f"1 to {MAX_GRID}", "heads": "row:column cells, e.g. 2:3,3:3"},
             "/api/tartan/hint?rows_game=turning-corners&rows=4&cols=4&heads=2:3,3:3",
             "tartan_hint",
             lambda q: {**_heads_on_grid(q), "shape": _grid(q)}),
    Endpoint("/api/tartan/move", "a Tartan product: the player's move, checked",
             {"rows_game": "as above", "cols_game": "as above", "rows": "grid rows",
              "cols": "grid columns", "heads": "the heads", "coins": "the coins to turn "
              "(row:column), a product of a row move and a column move"},
             "/api/tartan/move?rows_game=turning-corners&rows=4&cols=4&heads=2:3,3:3"
             "&coins=0:2,0:3,3:2,3:3", "tartan_move",
             lambda q: {**_heads_on_grid(q), "coins": P.cells(q, "coins", *_grid(q))}),
    Endpoint("/api/tartan/reply", "a Tartan product: the computer's move",
             {"rows_game": "as above", "cols_game": "as above", "rows": "grid rows",
              "cols": "grid columns", "heads": "the heads"},
             "/api/tartan/reply?rows_game=turning-corners&rows=4&cols=4&heads=2:3,3:3",
             "tartan_reply", _heads_on_grid),
    Endpoint("/api/sequence/heap", "the Grundy values g(0..n-1) of a heap game and its period "
             "(proven by the octal periodicity theorem where it applies)",
             {"game": "as for /api/heap/hint", "n": f"1 to {MAX_SEQUENCE} values",
              "search": f"look for the period with values up to this (at most {MAX_SEARCH}; "
                        "default: the library's, 2^20 or 2^11 with three-heap splits)"},
             "/api/sequence/heap?game=kayles&n=200", "heap_sequence",
             lambda q: {"spec": _game(q), "n": P.integer(q, "n", 1, MAX_SEQUENCE),
                        "search": None if q.get("search") in (None, "")
                        else P.integer(q, "search", 1, MAX_SEARCH)}),
    Endpoint("/api/sequence/turning", "the values G(0..n-1) of a coin-turning game beside its "
             "closed form, when the family has one",
             {"game": "as for /api/turning/hint", "n": f"1 to {MAX_TURNING_SEQUENCE}"},
             "/api/sequence/turning?game=mocking-turtles&n=32", "turning_sequence",
             lambda q: {"spec": _game(q), "n": P.integer(q, "n", 1, MAX_TURNING_SEQUENCE)}),
]

_BY_PATH = {e.path: e for e in ENDPOINTS}

_STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
           "/index.html": ("index.html", "text/html; charset=utf-8"),
           "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
           "/static/style.css": ("style.css", "text/css; charset=utf-8"),
           "/favicon.ico": ("favicon.svg", "image/svg+xml")}


def api_index() -> dict[str, Any]:
    """The API's self-description (GET /api)."""
    return {"endpoints": [{"path": e.path, "summary": e.summary, "parameters": e.parameters,
                           "example": e.example, "answers": e.content_type}
                          for e in ENDPOINTS],
            "methods": "GET with a query string, or POST with a JSON object of the same "
                       "parameters",
            "errors": "4xx with {\"error\": message}: 400 bad parameter, 403 not addressed to "
                      "localhost, 404 unknown path, "
                      "405 method, 413 body too large, 422 over the time limit, 503 busy"}


def loopback_host(value: str) -> bool | None:
    """Whether a Host header's value names this machine: True for ``localhost``, a loopback
    IP address (``127.0.0.1``, ``[::1]``), each with an optional port; False for another
    well-formed host; None for a value that is no host at all.

    >>> [loopback_host(h) for h in ("localhost:8000", "127.0.0.1", "[::1]:8000")]
    [True, True, True]
    >>> [loopback_host(h) for h in ("[::1].evil.com", "127.0.0.1:99@evil.com", "localhost:abc")]
    [None, None, None]
    >>> loopback_host("evil.example:8000")
    False
    """
    match = _HOST.fullmatch(value.strip().lower())
    if match is None or (match["port"] and int(match["port"]) > 65535):
        return None
    name = match["ip6"] or match["name"]
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        if match["ip6"]:
            return None  # brackets hold an IPv6 address or nothing
        return False
    if isinstance(address, ipaddress.IPv6Address) != bool(match["ip6"]):
        return None  # an IPv6 address needs its brackets, and only it may have them
    return address.is_loopback


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (iteratively: the value may be
    as deep as the parser allows)."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (list, dict)):
            level += 1
            deepest = max(deepest, level)
            todo.extend((v, level) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _json_int(digits: str) -> int | str:
    """An integer of a JSON body; one past Python's int/str conversion limit stays text, for
    the parameter's reader to parse or refuse with its own message."""
    try:
        return int(digits)
    except ValueError:
        return digits


def parse_body(raw: bytes) -> dict[str, Any]:
    """The parameters in a POST body: a JSON object, or {} for an empty body.  Raises
    ValueError with a message for anything else (bad UTF-8, not JSON, nested too deeply,
    not an object).

    >>> parse_body(b'{"op": "mul", "a": 5, "b": 11}')
    {'op': 'mul', 'a': 5, 'b': 11}
    >>> parse_body(b"[" * 500 + b"]" * 500)
    Traceback (most recent call last):
    ...
    ValueError: the body nests lists or objects 500 deep (at most 8)
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"the body is not JSON: {exc}") from None
    if not text.strip():
        return {}
    try:
        body = json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the body is not JSON: {exc}") from None
    except RecursionError:
        raise ValueError("the body nests lists or objects too deeply "
                         f"(at most {MAX_BODY_DEPTH})") from None
    depth = _depth(body)
    if depth > MAX_BODY_DEPTH:
        raise ValueError(f"the body nests lists or objects {depth} deep (at most {MAX_BODY_DEPTH})")
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object of parameters")
    return body


class PlaygroundServer(BoundedConnections, ThreadingHTTPServer):
    """An HTTP server with a fixed set of threads for the connections (see
    :mod:`.connections`) and a worker pool for the computations."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], pool: WorkerPool, quiet: bool = True) -> None:
        self.pool = pool
        self.quiet = quiet
        self._answering = 0  # API requests between their parsing and their answer's last byte
        self._answered = threading.Condition()
        self.loopback_only = address[0] in LOOPBACK
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)
        self.start_handlers()

    def server_close(self) -> None:
        super().server_close()
        self.stop_handlers()
        self.pool.close()

    def stop_work(self, wait: float = 5.0) -> int:
        """Stops the computations in progress (their requests are answered 503) and waits at
        most ``wait`` seconds for those answers to be sent; returns how many were stopped.
        For a clean stop after serve_forever: the listening socket stays open until
        server_close()."""
        with self._answered:
            in_progress = self._answering
        self.pool.close()
        with self._answered:
            self._answered.wait_for(lambda: self._answering == 0, timeout=wait)
        return in_progress

    def answering(self, change: int) -> None:
        with self._answered:
            self._answering += change
            self._answered.notify_all()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-answer is no error worth a traceback."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), self.server_address[1]
        return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


class _Handler(BaseHTTPRequestHandler):
    server: PlaygroundServer
    protocol_version = "HTTP/1.1"
    server_version = "nimbers-playground"
    # headers and body leave in two writes: without this, Nagle's algorithm holds the body
    # until the client's delayed ACK, 40 ms later, on every keep-alive request
    disable_nagle_algorithm = True
    timeout = 10  # seconds an idle keep-alive connection may hold its thread
    _extra_headers: dict[str, str] = {}

    # -- answers --
    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in self._extra_headers.items():
            self.send_header(name, value)
        if self.server.crowded():  # others wait for this thread
            self.close_connection = True
        if self.close_connection:  # say so: a keep-alive client would send its next request
            self.send_header("Connection", "close")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; "
                         "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        try:
            body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from a body's "\ud800", echoed back
            body = json.dumps(data).encode("ascii")
        self._send(status, body, "application/json; charset=utf-8")

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": message, "status": status})

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        if not self.server.quiet:
            super().log_message(format, *args)

    # -- requests --
    def parse_request(self) -> bool:
        """The base's parsing, then 405 for every method without a do_ method (TRACE,
        CONNECT, PROPFIND, lowercase and made-up ones), where the base would answer 501."""
        if not super().parse_request():
            return False
        if not hasattr(self, "do_" + self.command):
            self._method_not_allowed()
            return False
        return True

    def _refuse_host(self) -> bool:
        """Bound to localhost, answer only requests addressed to localhost: a page from
        another site cannot reach the server through a DNS name rebound to 127.0.0.1.
        Answers 400 or 403 and returns True for a request to refuse."""
        if not self.server.loopback_only:
            return False
        hosts = self.headers.get_all("Host") or []
        if len(hosts) > 1:
            self._error(400, "a request has one Host header")
            return True
        verdict = loopback_host(hosts[0]) if hosts else False
        if verdict is None:
            self._error(400, "the Host header is not a host name with an optional port")
            return True
        if not verdict:
            self._error(403, "the playground answers requests to localhost only")
            return True
        return False

    def do_GET(self) -> None:  # noqa: N802 (the base's naming)
        self._handle(None)

    def do_HEAD(self) -> None:  # noqa: N802
        self._handle(None)

    def do_POST(self) -> None:  # noqa: N802
        length = self.headers.get("Content-Length", "0")
        try:
            size = int(length)
        except ValueError:
            return self._error(400, "Content-Length is not a number")
        if size > MAX_BODY:
            self.close_connection = True
            return self._error(413, f"the body is {size} bytes; at most {MAX_BODY}")
        raw = self.rfile.read(size) if size > 0 else b""
        try:
            body = parse_body(raw)
        except ValueError as exc:
            return self._error(400, str(exc))
        self._handle(body)

    def _method_not_allowed(self) -> None:
        self.close_connection = True
        self._extra_headers = {"Allow": ALLOWED_METHODS}
        self._error(405, f"{self.command[:40]!r} is not supported: use GET or POST")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _method_not_allowed  # noqa: N815

    def _handle(self, body: dict[str, Any] | None) -> None:
        if self._refuse_host():
            return None
        url = urlsplit(self.path)
        path = url.path.rstrip("/") or "/"
        if body is None:
            try:
                query: dict[str, Any] = dict(parse_qsl(url.query, keep_blank_values=True,
                                                       strict_parsing=False, max_num_fields=64))
            except ValueError as exc:
                return self._error(400, f"bad query string: {exc}")
        else:
            query = body
        if path in _STATIC and body is None:
            return self._static(*_STATIC[path])
        if path == "/api":
            return self._json(200, api_index())
        endpoint = _BY_PATH.get(path)
        if endpoint is None:
            return self._error(404, f"no such page or endpoint: {path} (GET /api lists them)")
        self.server.answering(+1)
        try:
            self._compute(endpoint, query)
        finally:
            self.server.answering(-1)

    def _compute(self, endpoint: Endpoint, query: dict[str, Any]) -> None:
        try:
            kwargs = endpoint.arguments(query)
            result = self.server.pool.call(endpoint.function, kwargs, self.server.crowded)
        except (ValueError, TypeError, ZeroDivisionError) as exc:
            return self._error(400, str(exc))
        except TooMuchWork as exc:
            return self._error(422, str(exc))
        except Stopping as exc:
            self.close_connection = True
            return self._error(503, str(exc))
        except Busy as exc:
            return self._error(503, f"{exc}: try again")
        except WorkFailed as exc:
            sys.stderr.write(f"nimbers serve: internal error on {self.path!r}\n{exc}\n")
            return self._error(500, "internal error (a bug in nimbers: please report it)")
        if endpoint.content_type == "application/json":
            return self._json(200, result)
        self._send(200, result, endpoint.content_type)

    def _static(self, name: str, content_type: str) -> None:
        body = resources.files("nimbers.web").joinpath("static", name).read_bytes()
        self._send(200, body, content_type)


def make_server(host: str = "127.0.0.1", port: int = 8000, workers: int = 2,
                time_limit: float = 4.0, quiet: bool = True) -> PlaygroundServer:
    """A playground server bound to (host, port), not yet serving (call serve_forever, or
    start it in a thread); port 0 picks a free port.  Close it with server_close()."""
    pool = WorkerPool(workers=workers, time_limit=time_limit)
    try:
        return PlaygroundServer((host, port), pool, quiet=quiet)
    except BaseException:
        pool.close()
        raise


def serve_in_thread(server: PlaygroundServer) -> threading.Thread:
    """Serves in a daemon thread (for tests and benchmarks); stop with server.shutdown()."""
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    return t
