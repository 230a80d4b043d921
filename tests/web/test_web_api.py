"""The playground's JSON API, through a real server on 127.0.0.1: every endpoint, answers
checked against the library and tests/oracle.py, bad inputs answered 4xx with a message
(never 500), the time limit, and a short burst of concurrent requests."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest

from oracle import fermat_mul as oracle_mul

from nimbers.web import ENDPOINTS, make_server, serve_in_thread


@pytest.fixture(scope="module")
def server():
    s = make_server("127.0.0.1", 0, workers=2, time_limit=3.0)
    serve_in_thread(s)
    yield s
    s.shutdown()
    s.server_close()


def request(server, path, params=None, method="GET", body=None, headers=None):
    """(status, decoded JSON or raw bytes, content type)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    if params:
        path = path + "?" + urlencode(params)
    conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    data = resp.read()
    kind = resp.getheader("Content-Type", "")
    conn.close()
    if kind.startswith("application/json"):
        return resp.status, json.loads(data), kind
    return resp.status, data, kind


def get(server, path, **params):
    status, data, _ = request(server, path, params)
    return status, data


def ok(server, path, **params):
    status, data = get(server, path, **params)
    assert status == 200, data
    return data


# ---- every endpoint ------------------------------------------------------------------------

def test_the_index_lists_every_endpoint_and_each_example_answers(server):
    index = ok(server, "/api")
    assert [e["path"] for e in index["endpoints"]] == [e.path for e in ENDPOINTS]
    for e in ENDPOINTS:
        status, data, kind = request(server, e.example)
        assert status == 200, (e.example, data)
        assert kind.startswith(e.content_type)


@pytest.mark.parametrize("a, b", [(5, 11), (8, 8), (0, 7), (255, 254), (2**64 + 3, 2**70 + 9)])
def test_calc_mul_agrees_with_the_oracle(server, a, b):
    r = ok(server, "/api/calc", op="mul", a=a, b=b)
    value = oracle_mul(a, b)
    assert r["result"] == {"dec": str(value), "hex": hex(value), "bin": bin(value)}
    if max(a, b).bit_length() <= 64:
        assert r["derivation"][-1] == f"= {value}"
    else:  # explain_mul is slow past 64 bits: the page says so instead
        assert r["derivation"] == [] and "64 bits" in r["notes"][0]


def test_calc_other_operations(server):
    assert ok(server, "/api/calc", op="add", a=3, b=5)["result"]["dec"] == "6"
    assert ok(server, "/api/calc", op="inv", a=2)["result"]["dec"] == "3"
    assert ok(server, "/api/calc", op="div", a=1, b=3)["result"]["dec"] == "2"
    assert ok(server, "/api/calc", op="pow", a=2, b=-1)["result"]["dec"] == "3"
    assert ok(server, "/api/calc", op="sqrt", a="0x2")["result"]["dec"] == "3"
    assert ok(server, "/api/calc", op="log", a=3, b=2)["result"]["dec"] == "2"
    big = ok(server, "/api/calc", op="mul", a=2**1024, b=2**1024)
    assert big["result"]["dec"] == str(3 * 2**1023)


def test_explain_and_tables(server):
    r = ok(server, "/api/explain", a=8, b=8)
    assert r["lines"][0] == "8 ⊗ 8" and r["lines"][-1] == "= 13"
    t = ok(server, "/api/table", op="mul", n=16)["rows"]
    assert all(t[a][b] == oracle_mul(a, b) for a in range(16) for b in range(16))
    t = ok(server, "/api/table", op="add", n=8)["rows"]
    assert t[3][5] == 6


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_table_picture_is_a_valid_png_of_the_table(server):
    status, data, kind = request(server, "/api/table.png?op=mul&n=16")
    assert status == 200 and kind == "image/png"
    assert _png_size(data) == (16, 16)
    # walk the chunks: every CRC is right, and the pixels are the table's values (n <= 256
    # gives one colour per value, so equal indices mean equal products)
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind_, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind_ + body) == crc
        if kind_ == b"IDAT":
            idat += body
        pos += 12 + length
    rows = zlib.decompress(idat)
    pixels = [list(rows[r * 17 + 1:(r + 1) * 17]) for r in range(16)]
    assert pixels == [[oracle_mul(a, b) for b in range(16)] for a in range(16)]


def test_mex_construction(server):
    r = ok(server, "/api/mex", n=8, a=5, b=3)
    assert r["mex"] == r["product"] == oracle_mul(5, 3)
    assert r["mex"] not in r["options"]
    assert r["rows"] == [[oracle_mul(a, b) for b in range(8)] for a in range(8)]


def test_nim_hint_move_and_reply(server):
    r = ok(server, "/api/nim/hint", piles="10,11,4")
    assert r["total"] == "5" and not r["losing"]
    assert [(m["pile"], m["take"]) for m in r["moves"]] == [(2, 3)]
    assert ok(server, "/api/nim/hint", piles="1,2,3")["losing"] is True
    m = ok(server, "/api/nim/move", piles="3,5,7", pile=0, take=1)
    assert m["position"] == [2, 5, 7] and m["over"] is False
    reply = ok(server, "/api/nim/reply", piles="3,5,7")
    assert sum(reply["position"]) == 14
    last = ok(server, "/api/nim/move", piles="0,2", pile=1, take=2)
    assert last["over"] and last["winner"] == "human"
    last = ok(server, "/api/nim/move", piles="0,2", pile=1, take=2, misere="true")
    assert last["over"] and last["winner"] == "computer"


def test_a_whole_nim_game_against_the_computer(server):
    piles = [3, 5, 7]
    while True:  # the human plays the hint's move, so the human wins
        move = ok(server, "/api/nim/hint", piles=",".join(map(str, piles)))["moves"][0]
        r = ok(server, "/api/nim/move", piles=",".join(map(str, piles)),
               pile=move["pile"], take=move["take"])
        if r["over"]:
            assert r["winner"] == "human"
            break
        r = ok(server, "/api/nim/reply", piles=",".join(map(str, r["position"])))
        assert not r["over"]
        piles = r["position"]


def test_heap_games(server):
    r = ok(server, "/api/heap/hint", game="kayles", heaps="3,4")
    assert r["values"] == [3, 1] and r["total"] == "2"
    assert r["moves"][0]["after_sum"] == 0
    opts = ok(server, "/api/heap/options", game="kayles", heaps="3,4", heap=0)["options"]
    assert {(o["take"], tuple(o["leave"])) for o in opts} == {(1, (2,)), (1, (1, 1)), (2, (1,))}
    m = ok(server, "/api/heap/move", game="kayles", heaps="3,4", heap=0, take=1, leave="1,1")
    assert m["position"] == [1, 1, 4]
    assert ok(server, "/api/heap/reply", game="dawsons-kayles", heaps="5")["position"] != [5]
    assert ok(server, "/api/heap/hint", game="grundy", heaps="7")["values"] == [0]
    assert ok(server, "/api/heap/hint", game="S(1,3,4)", heaps="7")["values"] == [0]


def test_moves_are_said_as_the_terminal_says_them_with_the_heaps_size(server):
    # one phrasing (nimbers.notation.say_heap_move) for hints, options, moves and replies
    hint = ok(server, "/api/heap/hint", game="kayles", heaps="3,4")["moves"][0]
    assert hint["text"] == "take 2 from heap 0 (3 tokens), leaving 1"
    opts = ok(server, "/api/heap/options", game="kayles", heaps="3,4", heap=0)["options"]
    assert hint["text"] in {o["text"] for o in opts}  # the page finds the hinted option by it
    assert "take 1 from heap 0 (3 tokens), leaving 1 and 1" in {o["text"] for o in opts}
    m = ok(server, "/api/heap/move", game="kayles", heaps="3,4", heap=1, take=1, leave="3")
    assert m["text"] == "take 1 from heap 1 (4 tokens), leaving 3"
    reply = ok(server, "/api/heap/reply", game="dawsons-kayles", heaps="1,5")
    left = reply["position"][1:]  # heap 0 (one token) cannot move in Dawson's Kayles
    assert reply["text"] == ("take 2 from heap 1 (5 tokens), leaving "
                             + (" and ".join(map(str, left)) or "nothing"))
    split = ok(server, "/api/heap/reply", game="grundy", heaps="7")
    assert split["text"] == "split heap 0 (7 tokens) into " + " and ".join(
        map(str, split["position"]))
    nim_hint = ok(server, "/api/nim/hint", piles="10,11,4")["moves"][0]
    assert nim_hint["text"] == "take 3 from pile 2 (4 stones), leaving 1"
    assert ok(server, "/api/nim/move", piles="3,5", pile=1, take=5)["text"] == \
        "take 5 from pile 1 (5 stones), leaving nothing"
    nim_reply = ok(server, "/api/nim/reply", piles="1,4")
    assert nim_reply["position"] == [1, 1]
    assert nim_reply["text"] == "take 3 from pile 1 (4 stones), leaving 1"


def test_turning_games(server):
    r = ok(server, "/api/turning/hint", game="mocking-turtles", row="THHTTHTH")
    assert r["values"][:4] == ["1", "2", "4", "7"]
    assert r["moves"][0]["after_sum"] == "0"
    m = ok(server, "/api/turning/move", game="ruler", row="HTHHT", coins="2,3")
    assert m["position"] == "HTTTT"
    assert ok(server, "/api/turning/reply", game="ruler", row="HTHHT")["position"] == "HTHTT"


def test_acrostic_twins_on_the_board_page(server):
    # checked by the same player as nimbers play acrostic-twins (AcrosticPlay.turn)
    board = {"rows_game": "acrostic-twins", "rows": 4, "cols": 6}
    hint = ok(server, "/api/tartan/hint", **board, heads="1:5,3:3")
    assert hint["total"] == str((1 ^ 5) ^ (3 ^ 3)) and hint["moves"][0]["after_sum"] == "0"
    m = ok(server, "/api/tartan/move", **board, heads="1:5,3:3", coins="1:2,1:5")
    assert m["position"] == [[1, 2], [3, 3]] and m["text"] == "turn 1:2 1:5"
    reply = ok(server, "/api/tartan/reply", **board, heads="1:5,3:3")
    assert ok(server, "/api/tartan/hint", **board, heads=",".join(
        f"{a}:{b}" for a, b in reply["position"]))["total"] == "0"


def test_turning_corners_move_and_reply(server):
    grid = {"rows_game": "turning-corners", "rows": 6, "cols": 6}
    r = ok(server, "/api/tartan/hint", **grid, heads="2:3,4:5")
    assert r["grid"][5][3] == str(oracle_mul(5, 3))
    assert r["total"] == str(oracle_mul(2, 3) ^ oracle_mul(4, 5))
    m = ok(server, "/api/tartan/move", **grid, heads="2:3,4:5", coins="1:1,1:5,4:1,4:5")
    assert sorted(map(tuple, m["position"])) == [(1, 1), (1, 5), (2, 3), (4, 1)]
    reply = ok(server, "/api/tartan/reply", **grid, heads="2:3,4:5")
    assert ok(server, "/api/tartan/hint", **grid,
              heads=",".join(f"{a}:{b}" for a, b in reply["position"]))["total"] == "0"
    rugs = ok(server, "/api/tartan/hint", rows_game="ruler", cols_game="ruler", rows=4, cols=6,
              heads="3:5")
    assert rugs["total"] == str(oracle_mul(4, 2))


def test_sequences(server):
    r = ok(server, "/api/sequence/heap", game="kayles", n=20)
    assert r["values"][:12] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]  # OEIS A002186
    assert (r["period"], r["preperiod"], r["proven"]) == (12, 71, True)
    r = ok(server, "/api/sequence/turning", game="ruler", n=16)
    assert r["agree"] is True and r["values"][7] == "8"
    assert ok(server, "/api/sequence/turning", game="1-4", n=5)["closed_form"] is None


def test_the_page_proves_what_the_command_line_proves_and_says_its_cap(server):
    # issue 53: 0.16 said "no period found up to n = 4096" where heap 0.16 --period proves it
    # in 0.2 s; the search goes as far as the command line's now, and a capped one says so
    r = ok(server, "/api/sequence/heap", game="0.16", n=50)
    assert (r["period"], r["preperiod"], r["proven"], r["note"]) == (149459, 105351, True, None)
    capped = ok(server, "/api/sequence/heap", game="0.6", n=50, search=4096)
    assert not capped["proven"] and capped["searched"] == 4096
    assert capped["note"] == ("searched up to n = 4096 here; nimbers heap 0.6 --period --max-n "
                              "2^24 searches further")


# ---- bad input: 4xx with a message, never 500 -------------------------------------------------

BAD = [
    ("/api/calc", {"op": "mul", "a": -5, "b": 3}, "non-negative"),
    ("/api/calc", {"op": "mul", "a": "12abc", "b": 3}, "not a number"),
    ("/api/calc", {"op": "mul", "a": "1" * 30000, "b": 3}, "too long"),
    ("/api/calc", {"op": "mul", "a": "0x" + "f" * 17000, "b": 3}, "too large"),
    ("/api/calc", {"op": "mul", "a": 3}, "b: missing"),
    ("/api/calc", {"op": "frobnicate", "a": 3, "b": 4}, "op: must be one of"),
    ("/api/calc", {"op": "inv", "a": 0}, "no nim-inverse"),
    ("/api/calc", {"op": "div", "a": 3, "b": 0}, ""),
    ("/api/calc", {"op": "log", "a": 0, "b": 2}, "0 has no logarithm"),
    ("/api/calc", {"op": "log", "a": 2**70, "b": 2}, "64"),
    ("/api/explain", {"a": 2**65, "b": 3}, "too large"),
    ("/api/table", {"op": "mul", "n": 257}, "between 1 and 256"),
    ("/api/table", {"op": "mul", "n": -1}, "between"),
    ("/api/table.png", {"op": "mul", "n": 4097}, "between 1 and 4096"),
    ("/api/mex", {"n": 8, "a": 9, "b": 0}, "outside"),
    ("/api/nim/hint", {"piles": "3,-5"}, ""),
    ("/api/nim/hint", {"piles": ",".join(["1"] * 40)}, "between 1 and 16"),
    ("/api/nim/move", {"piles": "3,5", "pile": 0, "take": 4}, "only 3"),
    ("/api/nim/move", {"piles": "3,5", "pile": 5, "take": 1}, "no pile"),
    ("/api/nim/reply", {"piles": "0,0"}, "over"),
    ("/api/heap/hint", {"game": "0.8x", "heaps": "3"}, "not a take-and-break code"),
    ("/api/heap/hint", {"game": "0.00", "heaps": "3"}, "no move"),
    ("/api/heap/hint", {"game": "kayles", "heaps": "99999999"}, "at most 10000"),
    ("/api/heap/hint", {"game": "S(1,x)", "heaps": "3"}, "subtraction set"),
    ("/api/heap/move", {"game": "kayles", "heaps": "3", "heap": 0, "take": 3, "leave": "1"},
     "not allowed"),
    ("/api/turning/hint", {"game": "1-3Q", "row": "HTH"}, "unknown game"),
    ("/api/turning/hint", {"game": "ruler", "row": "HTX"}, "H and T"),
    ("/api/turning/hint", {"game": "ruler", "row": "H" * 65}, "at most 64"),
    ("/api/turning/move", {"game": "ruler", "row": "HTHT", "coins": "1"}, "must be a head"),
    ("/api/turning/move", {"game": "twins", "row": "HTHT", "coins": "2"}, "does not allow"),
    ("/api/tartan/hint", {"rows_game": "nonsense", "rows": 4, "cols": 4, "heads": "1:1"},
     "unknown game"),
    ("/api/tartan/hint", {"rows_game": "rugs", "rows": 4, "cols": 4, "heads": "9:1"}, "outside"),
    ("/api/tartan/hint", {"rows_game": "rugs", "rows": 99, "cols": 4}, "between 1 and 24"),
    ("/api/tartan/move", {"rows_game": "turning-corners", "rows": 4, "cols": 4,
                          "heads": "3:3", "coins": "1:1,3:3"}, "crossings"),
    ("/api/tartan/move", {"rows_game": "turning-corners", "rows": 4, "cols": 4,
                          "heads": "3:3", "coins": "1:1,1:2,2:1,2:2"}, "must be a head"),
    ("/api/sequence/heap", {"game": "kayles", "n": 10**6}, "between 1 and 5000"),
    ("/api/sequence/turning", {"game": "ruler", "n": "ten"}, "not a number"),
]


@pytest.mark.parametrize("path, params, message", BAD)
def test_bad_input_is_a_400_with_a_message(server, path, params, message):
    status, data = get(server, path, **params)
    assert status == 400, data
    assert data["status"] == 400 and data["error"]
    assert message.lower() in data["error"].lower()


def test_protocol_errors(server):
    assert get(server, "/nowhere")[0] == 404
    assert request(server, "/api/calc", method="PUT")[0] == 405
    status, data, _ = request(server, "/api/calc", method="POST", body=b"{not json",
                              headers={"Content-Type": "application/json"})
    assert status == 400 and "not JSON" in data["error"]
    status, data, _ = request(server, "/api/calc", method="POST", body=b"[1, 2]")
    assert status == 400 and "JSON object" in data["error"]
    status, data, _ = request(server, "/api/calc", method="POST", body=b"x" * (65 * 1024))
    assert status == 413
    status, data, _ = request(server, "/api/calc", method="POST",
                              body=json.dumps({"op": "mul", "a": 5, "b": 11}).encode())
    assert status == 200 and data["result"]["dec"] == "12"
    status, data, _ = request(server, "/api/calc?op=mul&a=5&b=11",
                              headers={"Host": "evil.example:8000"})
    assert status == 403


def test_pages_are_served_with_their_files(server):
    status, page, kind = request(server, "/")
    assert status == 200 and kind.startswith("text/html")
    assert b"/static/app.js" in page and b"http" not in page.replace(b"http-equiv", b"")
    for path, kind_ in (("/static/app.js", "text/javascript"), ("/static/style.css", "text/css")):
        status, _, kind = request(server, path)
        assert status == 200 and kind.startswith(kind_)


def test_a_computation_past_the_time_limit_is_stopped():
    quick = make_server("127.0.0.1", 0, workers=1, time_limit=0.5)
    serve_in_thread(quick)
    try:
        status, data = get(quick, "/api/turning/hint", game="1-20S", row="H" * 40)
        assert status == 422 and "longer than 0.5 s" in data["error"]
        # the pool replaced the killed worker: the server still answers
        assert ok(quick, "/api/calc", op="mul", a=5, b=11)["result"]["dec"] == "12"
    finally:
        quick.shutdown()
        quick.server_close()


def test_concurrent_requests_all_answer(server):
    paths = ["/api/calc?op=mul&a=5&b=11", "/api/nim/hint?piles=3,5,7",
             "/api/table?op=mul&n=32", "/api/heap/hint?game=kayles&heaps=30,40"] * 10
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda p: request(server, p)[0], paths))
    assert statuses == [200] * len(paths)


# ---- the command ---------------------------------------------------------------------------

def test_ipv6_loopback():
    s = make_server("::1", 0, workers=1)
    try:
        serve_in_thread(s)
        assert s.url.startswith("http://[::1]:")
        conn = http.client.HTTPConnection("::1", s.server_address[1], timeout=30)
        conn.request("GET", "/api/calc?op=add&a=3&b=5")
        assert json.load(conn.getresponse())["result"]["dec"] == "6"
        conn.close()
    finally:
        s.shutdown()
        s.server_close()


def test_serve_refuses_a_bad_port(capsys):
    from nimbers.cli import main
    with pytest.raises(SystemExit) as stop:  # refused while the arguments are read
        main(["serve", "--port", "70000"])
    assert stop.value.code == 2
    assert "--port: at most 65535, got 70000" in capsys.readouterr().err


@pytest.mark.usefixtures("python_sigint")
def test_serve_starts_answers_and_stops_on_ctrl_c():
    proc = subprocess.Popen([sys.executable, "-m", "nimbers", "serve", "--port", "0"],
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()  # "nimbers playground on http://127.0.0.1:PORT/ ..."
        assert "http://127.0.0.1:" in line
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/calc?op=mul&a=8&b=8")
        assert json.load(conn.getresponse())["result"]["dec"] == "13"
        conn.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
        rest = proc.stderr.read()
        assert "stopped" in rest and "Traceback" not in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


WEIRD = [None, True, 1.5, -1, 2**70, "", "x", "0x", "1e5", "١٢", [], [1], [[1, 2]], {"a": 1},
         "3:3:3", "-0b1", " 7 ", "H" * 100]


def test_no_parameter_value_gets_a_500(server):
    """Every endpoint, each parameter replaced by odd values of every JSON type: the answer is
    200 or 4xx with a message, never a 5xx."""
    from urllib.parse import parse_qsl, urlsplit
    for e in ENDPOINTS:
        url = urlsplit(e.example)
        base = dict(parse_qsl(url.query))
        for name in e.parameters:
            for value in WEIRD:
                body = json.dumps({**base, name: value}).encode()
                status, data, kind = request(server, url.path, method="POST", body=body)
                assert status < 500, (e.path, name, value, data)
                if status != 200:
                    assert data["error"], (e.path, name, value)
