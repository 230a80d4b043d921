"""Fuzzes the playground's JSON API with POST bodies of every shape: objects of the endpoint's
parameters with values of every JSON type, nesting up to the parser's limit and past it,
sizes up to the 64 KiB limit and past it, numbers past Python's int/str digit limit, escapes
(lone surrogates, NUL), and bytes that are not JSON at all.

Every body goes to a real server on 127.0.0.1 (the same process, a keep-alive connection).
Each answer must arrive (never a dropped connection), be 200 or a 4xx other than 413 when
the body was under the limit, carry a JSON ``{"error": message}`` when not 200, and no
request may reach the server's error handler (a traceback).

    python fuzz/fuzz_web.py -atheris_runs=100000
"""

import http.client
import json
import sys

import atheris

with atheris.instrument_imports(include=["nimbers.web"]):
    from nimbers.web import ENDPOINTS, make_server, serve_in_thread
    from nimbers.web.server import MAX_BODY

SERVER = make_server("127.0.0.1", 0, workers=2, time_limit=1.0)
CRASHES = []
SERVER.handle_error = lambda request, address: CRASHES.append(sys.exc_info())
serve_in_thread(SERVER)
PORT = SERVER.server_address[1]
PATHS = [e.path for e in ENDPOINTS] + ["/api", "/", "/nowhere"]
NAMES = sorted({name for e in ENDPOINTS for name in e.parameters} | {"x", ""})
SCALARS = [None, True, False, 0, 1, -1, 3, 255, 2**64, -(2**70), 1.5, -0.0, 1e308, "", "0",
           "3,5,7", "0x1F", "0b101", "HTHHT", "2:3,3:3", "kayles", "0.77", "ruler",
           "turning-corners", "mul", "add", "pow", "log", "\u0000", "١٢", "H" * 70, "9" * 50]
_connection = None


def connection():
    global _connection
    if _connection is None:
        _connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    return _connection


def value(fdp, depth):
    """A JSON value: a scalar from the table, a fuzzed one, or a list or object nesting."""
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind <= 3 or depth <= 0:
        return SCALARS[fdp.ConsumeIntInRange(0, len(SCALARS) - 1)]
    if kind == 4:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 64))
    if kind == 5:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 40))
    if kind == 6:
        return fdp.ConsumeFloat()
    if kind == 7:
        return {NAMES[fdp.ConsumeIntInRange(0, len(NAMES) - 1)]: value(fdp, depth - 1)
                for _ in range(fdp.ConsumeIntInRange(0, 3))}
    return [value(fdp, depth - 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]


def text_of(fdp, params):
    """The body's text: the parameters as JSON, perhaps altered past what json.dumps makes."""
    text = json.dumps(params, allow_nan=True)
    change = fdp.ConsumeIntInRange(0, 11)
    if change == 0:   # nesting up to and past the parser's limit
        depth = fdp.ConsumeIntInRange(1, 40000)
        return '{"a": ' + "[" * depth + "]" * depth + "}"
    if change == 1:   # an integer past the 4300-digit limit, perhaps negative
        digits = "7" * fdp.ConsumeIntInRange(4000, 30000)
        return text[:-1] + (", " if len(text) > 2 else "") + f'"a": {"-" * fdp.ConsumeBool()}{digits}}}'
    if change == 2:   # a lone surrogate or another escape in a string
        return text[:-1] + (", " if len(text) > 2 else "") + '"op": "\\ud8%02x"}' % fdp.ConsumeIntInRange(0, 255)
    if change == 3:   # cut short
        return text[:fdp.ConsumeIntInRange(0, len(text))]
    if change == 4:   # a long string, up to past the size limit
        return text[:-1] + (", " if len(text) > 2 else "") + '"game": "' + "x" * fdp.ConsumeIntInRange(0, 70000) + '"}'
    if change == 5:   # not an object
        return json.dumps(list(params.values()))
    return text


def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    path = PATHS[fdp.ConsumeIntInRange(0, len(PATHS) - 1)]
    endpoint = next((e for e in ENDPOINTS if e.path == path), None)
    names = list(endpoint.parameters) if endpoint else NAMES
    params = {}
    for name in names:
        if fdp.ConsumeIntInRange(0, 3):
            params[name] = value(fdp, fdp.ConsumeIntInRange(0, 3))
    if fdp.ConsumeIntInRange(0, 15) == 0:
        body = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 300))  # any bytes at all
    else:
        body = text_of(fdp, params).encode("utf-8", "surrogatepass")
    conn = connection()
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        answer = resp.read()
    except (http.client.HTTPException, OSError) as exc:
        raise AssertionError(f"no answer to {body[:200]!r} on {path}: {exc!r}") from None
    if resp.will_close:
        conn.close()
        globals()["_connection"] = None
    status = resp.status
    assert not CRASHES, (path, body[:200], CRASHES)
    assert status < 500, (path, body[:200], status, answer[:300])
    assert status != 413 or len(body) > MAX_BODY, (path, len(body))
    if status != 200:
        data = json.loads(answer)
        assert data["error"] and data["status"] == status, (path, body[:200], data)


if __name__ == "__main__":
    # inputs of a few hundred bytes from the start: each consumes dozens of choices
    defaults = [f for f in ("-max_len=1024", "-len_control=0")
                if not any(a.startswith(f.split("=")[0] + "=") for a in sys.argv)]
    atheris.Setup(sys.argv + defaults, TestOneInput)
    atheris.Fuzz()
