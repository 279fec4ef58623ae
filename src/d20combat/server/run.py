"""Serve the app with uvicorn so that it stops promptly: on SIGTERM (or Ctrl-C) the simulations are cancelled at
once (their requests answer 503 "the server is stopping"), the other requests still running get
``GRACEFUL_SECONDS`` to finish, then they are cancelled too, and the lifespan's end stops the workers.

``d20combat serve`` calls :func:`serve`; ``python -m d20combat.server.run --db FILE --port N`` does the same
without the CLI (tests start the server this way).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path
from types import FrameType

from fastapi import FastAPI

from d20combat.server.jobs import WORKERS, Lab

GRACEFUL_SECONDS = 2
"""Seconds the requests still running get to finish once the server is told to stop."""


def serve(app: FastAPI, host: str = "127.0.0.1", port: int = 8000, *, log_level: str = "info") -> None:
    """Run ``app`` (from :func:`d20combat.server.app.create_app`) until SIGTERM or Ctrl-C."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            lab = getattr(getattr(app.state, "service", None), "lab", None)
            if isinstance(lab, Lab):  # the simulations answer at once ("the server is stopping")
                threading.Thread(target=lab.stop, daemon=True).start()  # not in the signal handler itself

    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            timeout_graceful_shutdown=GRACEFUL_SECONDS)
    server = Server(config)
    server.run()
    if not server.started:
        sys.exit(3)  # as uvicorn.run: the server could not start (the port is taken…)


def main(argv: list[str] | None = None) -> None:
    from d20combat.server.app import create_app

    parser = argparse.ArgumentParser(prog="python -m d20combat.server.run",
                                     description="serve the game master's table (d20combat serve, without the demo)")
    parser.add_argument("--db", type=Path, default=Path("d20combat.db"))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--workers", type=int, default=WORKERS, help="simulation worker processes")
    parser.add_argument("--token", default=os.environ.get("D20COMBAT_TOKEN"), help="the GM's key")
    parser.add_argument("--allow-host", action="append", default=[], help="another name the server answers to")
    args = parser.parse_args(argv)
    serve(create_app(args.db, lab=Lab(args.workers), token=args.token or None, hosts=[args.host, *args.allow_host]),
          args.host, args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()
