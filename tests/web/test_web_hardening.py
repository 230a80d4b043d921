"""The playground's server against hostile requests and a Ctrl-C mid-request, through a real
server on 127.0.0.1 (issue 29, item 4): JSON bodies the parser refuses in unusual ways, every
method other than GET, HEAD and POST, Host headers that are not this machine, and a clean
stop while a computation is in progress."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from nimbers.web import ENDPOINTS, make_server, serve_in_thread
from nimbers.web.server import loopback_host


@pytest.fixture(scope="module")
def server():
    s = make_server("127.0.0.1", 0, workers=1, time_limit=3.0)
    serve_in_thread(s)
    yield s
    s.shutdown()
    s.server_close()


def raw_request(port, head: bytes, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """Sends bytes as they are (http.client would correct them) and reads one answer:
    (status, headers with lowercase names, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head + body)
        reader = sock.makefile("rb")
        status = int(reader.readline().split()[1])
        headers = {}
        while (line := reader.readline().strip()):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers, reader.read(int(headers.get("content-length", 0)))


def post(server, body: bytes, path="/api/calc"):
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


# ---- bodies -------------------------------------------------------------------------------

@pytest.mark.parametrize("body, message", [
    (b'{"op": "mul", "a": -' + b"7" * 5000 + b', "b": 3}', "a: must be non-negative, got -(a"),
    (b'{"op": "mul", "a": ' + b"7" * 30000 + b', "b": 3}', "a: a number of 30000 characters"),
    (b'{"op": "pow", "a": 3, "b": ' + b"7" * 5000 + b"}", "b: must be between"),
    (b'{"op": "mul", "a": 5, "b": 11, "x": ' + b"[" * 1000 + b"]" * 1000 + b"}", "deep"),
    (b"[" * 30000 + b"]" * 30000, "deep"),                                 # inside 64 KiB
    (b'{"a": ' * 20 + b"1" + b"}" * 20, "deep"),
    (b'{"op": "mul", "a": 1e999999, "b": 3}', "a:"),
    (b'{"op": "mul", "a": NaN, "b": 3}', "a:"),
    (b'{"op": "\\ud800", "a": 1, "b": 3}', "op"),
    (b'{"op": "mul", "a": "\\u0000", "b": 3}', "a:"),
    (b"\xff\xfe{}", "not JSON"),
], ids=lambda v: repr(v[:40]) if isinstance(v, bytes) else None)
def test_hostile_bodies_are_a_400_with_a_message(server, body, message):
    status, data = post(server, body)
    assert status == 400, data
    assert message.lower() in data["error"].lower(), data


def test_an_integer_past_the_digit_limit_is_a_number(server):
    """4301 digits in a JSON body (past Python's int/str limit) are read as the number."""
    a = b"7" * 4301
    status, data = post(server, b'{"op": "add", "a": ' + a + b', "b": 0}')
    assert status == 200 and data["result"]["dec"] == a.decode()


def test_a_deep_body_then_a_good_one_on_the_same_server(server):
    assert post(server, b"[" * 5000 + b"]" * 5000)[0] == 400
    status, data = post(server, json.dumps({"op": "mul", "a": 5, "b": 11}).encode())
    assert status == 200 and data["result"]["dec"] == "12"


# ---- methods ------------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "PROPFIND", "PUT", "DELETE", "PATCH",
                                    "OPTIONS", "get", "post", "BREW", "X" * 200])
def test_other_methods_are_a_405_with_allow(server, method):
    target = b"127.0.0.1:443" if method == "CONNECT" else b"/api/calc?op=mul&a=5&b=11"
    status, headers, body = raw_request(
        server.server_address[1],
        method.encode() + b" " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Length: 0\r\n\r\n")
    assert status == 405, body
    assert headers["allow"] == "GET, HEAD, POST"
    assert headers["connection"] == "close"  # the server closes it: a client must know
    assert "not supported" in json.loads(body)["error"]


# ---- the Host header ----------------------------------------------------------------------

@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST",
                                  "127.0.0.1", "[::1]", "localhost:"])
def test_loopback_hosts_are_answered(server, host):
    status, _, body = raw_request(server.server_address[1],
                                  b"GET /api/calc?op=mul&a=5&b=11 HTTP/1.1\r\nHost: "
                                  + host.encode() + b"\r\n\r\n")
    assert status == 200 and json.loads(body)["result"]["dec"] == "12"


@pytest.mark.parametrize("hosts, status", [
    (["[::1].evil.com"], 400), (["127.0.0.1:99@evil.com"], 400), (["localhost:abc"], 400),
    (["localhost", "evil.com"], 400), (["localhost", "localhost"], 400),
    (["localhost:99999"], 400), (["::1"], 400), (["[127.0.0.1]"], 400), ([""], 400),
    (["localhost.evil.com"], 403), (["evil.com:8000"], 403), (["127.0.0.1.nip.io"], 403),
    (["10.0.0.1"], 403), (["[::2]"], 403), ([], 403),
])
def test_other_hosts_are_refused(server, hosts, status):
    head = b"GET /api/calc?op=mul&a=5&b=11 HTTP/1.1\r\n"
    head += b"".join(b"Host: " + h.encode() + b"\r\n" for h in hosts)
    answer, _, body = raw_request(server.server_address[1], head + b"\r\n")
    assert answer == status, body
    assert json.loads(body)["error"]


def test_loopback_host_parses_the_header():
    assert loopback_host("127.0.0.2:80") is True  # all of 127/8 is this machine
    assert loopback_host("[0:0:0:0:0:0:0:1]:8000") is True
    assert loopback_host("localhost:65536") is None
    assert loopback_host("local host") is None


# ---- Ctrl-C while a computation runs ------------------------------------------------------

@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_answers_the_requests_in_progress_and_stops_quietly():
    """A computation that would run to the time limit (4 s) is in progress when the server
    gets SIGINT: its request is answered 503 at once, stderr has one line after the banner
    and no traceback (none from a worker either), and the process exits 0."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with subprocess.Popen([sys.executable, "-m", "nimbers", "serve", "--port", "0"],
                          stderr=subprocess.PIPE, text=True, env=env) as proc:
        try:
            line = proc.stderr.readline()
            port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
            answers = []

            def slow():
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", "/api/turning/hint?game=1-20S&row=" + "H" * 40)
                resp = conn.getresponse()
                answers.append((resp.status, json.loads(resp.read())))
                conn.close()

            clients = [threading.Thread(target=slow) for _ in range(3)]  # 2 workers, 1 waits
            for c in clients:
                c.start()
            time.sleep(1.0)
            start = time.monotonic()
            proc.send_signal(signal.SIGINT)
            for c in clients:
                c.join(30)
            assert proc.wait(timeout=30) == 0
            assert time.monotonic() - start < 3  # before the 4 s time limit
            rest = proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
    assert [a[0] for a in answers] == [503, 503, 503], answers
    assert all("stopping" in a[1]["error"] for a in answers)
    assert "Traceback" not in rest and "Error" not in rest, rest
    assert len(rest.splitlines()) == 1 and rest.startswith("stopped"), rest


def test_a_closed_pool_starts_no_replacement(capfd):
    """The pool closes while a computation runs past the time limit: no replacement worker is
    started afterwards (one started then would print a BrokenPipeError at its first write)."""
    s = make_server("127.0.0.1", 0, workers=1, time_limit=0.5)
    serve_in_thread(s)
    try:
        done = []
        t = threading.Thread(target=lambda: done.append(post(
            s, json.dumps({"game": "1-20S", "row": "H" * 40}).encode(), "/api/turning/hint")))
        t.start()
        time.sleep(0.2)
        s.stop_work()
        t.join(30)
        assert done and done[0][0] in (422, 503), done
    finally:
        s.shutdown()
        s.server_close()
    time.sleep(1.5)  # a replacement would have started and written by now
    assert "Traceback" not in capfd.readouterr().err


# ---- the API's functions in this process ----------------------------------------------------

@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.path)
def test_each_example_runs_in_process_without_a_warning(endpoint):
    """The workers run the api functions in other processes, where a warning (a deprecated
    name, say) goes unseen: here the suite's warnings-are-errors rule sees it."""
    from urllib.parse import parse_qsl, urlsplit

    from nimbers.web import api

    query = dict(parse_qsl(urlsplit(endpoint.example).query))
    assert getattr(api, endpoint.function)(**endpoint.arguments(query)) is not None
