"""The synthetic REST source of benchmark (f): serves the pages bench/gen_pages.py wrote as a
GBIF-style offset/limit API on 127.0.0.1. Not product code.

  page_server.py PAGES_DIR PORT_FILE

GET /occurrence/search?offset=N&limit=L answers page N / L from PAGES_DIR (L must be the pages'
page size and N a multiple of it; past the last page: an empty page with endOfRecords true).
Listens on a free port, written to PORT_FILE once it listens; runs until SIGTERM. Keep-alive
(HTTP/1.1) and one thread per connection, so clients that pipeline or fetch in parallel can.
"""
import http.server
import json
import os
import signal
import sys
import urllib.parse

PATH = "/occurrence/search"


def make_handler(folder: str, meta: dict):
    size, pages, count = meta["page_size"], meta["pages"], meta["count"]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # no line per request
            pass

        def reply(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_HEAD(self) -> None:  # DuckDB's httpfs asks for the size first
            self.do_GET()

        def do_GET(self) -> None:
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            if url.path != PATH:
                return self.reply(404, b'{"error": "not found"}')
            try:
                offset = int(query.get("offset", ["0"])[0])
                limit = int(query.get("limit", [str(size)])[0])
            except ValueError:
                return self.reply(400, b'{"error": "offset and limit must be integers"}')
            if limit != size or offset % size or offset < 0:
                return self.reply(400, json.dumps(
                    {"error": f"limit must be {size} and offset a multiple of it"}).encode())
            page = offset // size
            if page >= pages:
                return self.reply(200, json.dumps(
                    {"offset": offset, "limit": size, "endOfRecords": True, "count": count,
                     "results": []}).encode())
            with open(os.path.join(folder, "page_%06d.json" % page), "rb") as f:
                self.reply(200, f.read())

    return Handler


def main() -> None:
    folder, port_file = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "pages.json")) as f:
        meta = json.load(f)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(folder, meta))
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
