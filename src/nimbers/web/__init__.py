"""The nimbers playground: a local web application to explore the arithmetic and play the
games in a browser (``nimbers serve``).

Pages: Calculator, Tables, Play, Sequences and the API's own description, served from
files shipped in the package (plain HTML, CSS and JavaScript, no build step, nothing
fetched from the network), over a JSON API (:mod:`.server`) whose work is done by the
library through one adapter module (:mod:`.api`).

Why the standard library's ``http.server.ThreadingHTTPServer`` and no framework: the
playground is a local tool for one user (or a classroom's projector) on 127.0.0.1, with a
few dozen small JSON endpoints and no sessions, templates, database or websockets.  The
standard library gives all of that with nothing to install (``pip install nimbers`` is
enough, no ``[web]`` extra), and the parts a framework would add do not touch the real risk
of such a server, a request that computes for too long: that is bounded by running each
computation in a worker process under a time limit (:mod:`.worker`), which no WSGI/ASGI
framework does for us either.  Request parsing and validation are short and explicit
(:mod:`.params`).  The price is a server that is not meant for the open internet: it binds
to localhost by default and answers only requests addressed to localhost.

>>> server = make_server(port=0, workers=1)
>>> server.url.startswith("http://127.0.0.1:")
True
>>> server.server_close()
"""

from __future__ import annotations

import sys
import webbrowser

from .server import ENDPOINTS, PlaygroundServer, make_server, serve_in_thread

__all__ = ["serve", "make_server", "serve_in_thread", "PlaygroundServer", "ENDPOINTS"]


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False,
          workers: int = 2, time_limit: float = 4.0) -> None:
    """Serves the playground until Ctrl-C.

    Parameters
    ----------
    host, port : where to listen; 127.0.0.1 (this machine only) by default.
    open_browser : open the playground in the default browser once it listens.
    workers : how many computations may run at once (each in its own process).
    time_limit : seconds one computation may take before it is stopped (answered 422).

    Raises
    ------
    OSError
        When the address cannot be bound (the port is taken, say).
    """
    server = make_server(host, port, workers=workers, time_limit=time_limit)
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.stderr.write(f"warning: listening on {host}: other machines can reach the "
                         "playground (it is meant for localhost)\n")
    sys.stderr.write(f"nimbers playground on {server.url}  (Ctrl-C stops it)\n")
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        # requests still computing are answered 503 before the process ends
        stopped = server.stop_work()
        sys.stderr.write(f"stopped ({stopped} request{'s' * (stopped != 1)} in progress "
                         "answered 503)\n" if stopped else "stopped\n")
    finally:
        server.server_close()
