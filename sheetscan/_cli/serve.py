"""`sheetscan serve [--host H] [--port P] [--db PATH] [--no-sample]`: the review web app."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sheetscan.errors import InvalidInputError

HELP = "the web app: upload a photo, correct the reading, settle (SQLite under instance/ by default)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--host, --port, --db and --no-sample."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 for the "
                             "local network)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000; 0 picks a free one)")
    parser.add_argument("--db", metavar="PATH",
                        help="the SQLite file (default: instance/sheetscan.sqlite); made if missing")
    parser.add_argument("--no-sample", action="store_true",
                        help="do not import the sample photo into an empty database")


def run(args: argparse.Namespace) -> int:
    """Start the app and serve until interrupted."""
    # Imported here: Flask and the photo side load only for this command.
    from werkzeug.serving import make_server

    from webapp import create_app

    config: dict[str, object] = {}
    if args.db is not None:
        path = Path(args.db).expanduser().resolve()
        if not path.parent.is_dir():
            raise InvalidInputError(f"--db {args.db}: the folder {path.parent} does not exist")
        if path.is_dir():
            raise InvalidInputError(f"--db {args.db}: is a folder; give the SQLite file's path")
        config["DATABASE"] = str(path)
    if args.no_sample:
        config["SAMPLE_PHOTO"] = None
    if not 0 <= args.port <= 65535:
        raise InvalidInputError(f"--port {args.port}: a port is between 0 and 65535")
    app = create_app(config)
    server = make_server(args.host, args.port, app, threaded=True)
    print(f"sheetscan: serving http://{args.host}:{server.server_port}/ (database {app.config['DATABASE']});"
          " Ctrl+C stops", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
