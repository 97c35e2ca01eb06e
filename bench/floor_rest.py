"""The floor of benchmark (f): DuckDB (the engine databox embeds, same version) reading the pages
of bench/page_server.py with `read_json` and writing their records to Parquet with databox's
settings (bench/floor_parquet.py), no Iceberg, no normalization (nested fields stay structs and
lists). Not product code.

  floor_rest.py http BASE_URL PAGES_DIR OUT_DIR   pages fetched from the server (httpfs)
  floor_rest.py files - PAGES_DIR OUT_DIR         the same page files read from disk

Every page URL is known from PAGES_DIR/pages.json, so DuckDB fetches them in parallel (databox
and dlt follow the pagination one page after another). httpfs is loaded from the project's
extension folder (.deps/duckdb/extensions, scripts/setup), never downloaded.
"""
import json
import os
import sys
import time

import duckdb

from floor_parquet import PARQUET_SETTINGS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTENSIONS = os.path.join(ROOT, ".deps", "duckdb", "extensions")


def main() -> None:
    mode, base_url, folder, out = sys.argv[1:5]
    with open(os.path.join(folder, "pages.json")) as f:
        meta = json.load(f)
    os.makedirs(out, exist_ok=True)
    con = duckdb.connect(config={"extension_directory": EXTENSIONS,
                                 "autoinstall_known_extensions": False,
                                 "autoload_known_extensions": False})
    size = meta["page_size"]
    if mode == "http":
        con.execute("LOAD httpfs")
        sources = [f"{base_url}/occurrence/search?offset={p * size}&limit={size}"
                   for p in range(meta["pages"])]
    else:
        sources = [os.path.join(folder, "page_%06d.json" % p) for p in range(meta["pages"])]
    listed = "[" + ", ".join("'" + s + "'" for s in sources) + "]"
    start = time.monotonic()
    rows = con.execute(
        f"COPY (SELECT r.* FROM (SELECT unnest(results) AS r FROM read_json({listed}))) "
        f"TO '{out}/data.parquet' (FORMAT parquet, {PARQUET_SETTINGS})").fetchone()[0]
    seconds = time.monotonic() - start
    size_mb = meta["bytes"] / (1024 * 1024)
    print(f"result: format=rest-{mode} input_mb={size_mb:.1f} records={rows} "
          f"seconds={seconds:.3f} records_per_s={rows / seconds:.0f} "
          f"mb_per_s={size_mb / seconds:.1f} duckdb={duckdb.__version__}")


if __name__ == "__main__":
    main()
