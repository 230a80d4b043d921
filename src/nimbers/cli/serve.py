"""serve: the web playground."""

from __future__ import annotations

import argparse

from .options import Commands, UsageError, count_type


# ---- the web playground -------------------------------------------------------------------------


def web_commands(commands: Commands) -> None:
    """serve: the web playground."""
    p = commands.add("serve", "the web playground: calculator, tables, games, sequences and a "
                              "JSON API", "nimbers serve --open", _serve)
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=count_type(0, 65535), default=8000,
                   help="port (default 8000; 0: any free one)")
    p.add_argument("--open", action="store_true", help="open the playground in a browser")


def _serve(args: argparse.Namespace) -> None:
    from ..web import serve
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, got {args.port}")
    serve(args.host, args.port, open_browser=args.open)
    return None
