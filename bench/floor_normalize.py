"""The same-work floor for the nested NDJSON of the file-ingest benchmark: DuckDB alone (the
engine our library embeds, same version) doing what databox does with bench/gen_inputs.py's
NDJSON: read it, flatten the nested objects into `__` columns with snake_case names, unnest the
two lists into child tables, and write the three tables of dlt's model as Parquet (the settings
databox writes with), with the same id columns: `_dlt_load_id` and a random 14-character
`_dlt_id` on every root row, `_dlt_parent_id`, `_dlt_list_idx` and a `_dlt_id` digested from the
parent id and the position on every child row. No Iceberg, no catalog. The column list is this
input's (gen_inputs.py), not inferred. Not product code.

  floor_normalize.py INPUT OUT_DIR
"""
import os
import sys
import time

import duckdb

from floor_parquet import PARQUET_SETTINGS

# 14 base64 characters, as databox's and dlt's ids: 84 bits of an MD5 (random input for root
# rows, parent id + list + position for child rows).
ROOT_ID = "substr(to_base64(unhex(md5(random()::VARCHAR))), 1, 14)"


def child_id(list_name: str) -> str:
    return (f"substr(to_base64(unhex(md5(_dlt_parent_id || '{list_name}' || "
            "_dlt_list_idx::VARCHAR))), 1, 14)")


def main() -> None:
    path, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    con = duckdb.connect()
    load_id = f"{time.time():.6f}"
    start = time.monotonic()
    # Read once: the root rows with their ids and the two lists, kept for the three writes.
    con.execute(f"""
        CREATE TEMP TABLE records AS
        SELECT id, eventId AS event_id, station.code AS station__code,
               station.name AS station__name, station.geo.lat AS station__geo__lat,
               station.geo.lon AS station__geo__lon,
               station.geo.elevationM AS station__geo__elevation_m,
               observedAt::TIMESTAMPTZ AS observed_at, temperature, pressure, verified, remarks,
               '{load_id}' AS _dlt_load_id, {ROOT_ID} AS _dlt_id, flags, readings
        FROM read_json('{path}', format = 'newline_delimited')""")
    rows = {}
    rows["events"] = con.execute(
        f"COPY (SELECT * EXCLUDE (flags, readings) FROM records) TO '{out}/events.parquet' "
        f"(FORMAT parquet, {PARQUET_SETTINGS})").fetchone()[0]
    rows["events__flags"] = con.execute(f"""
        COPY (SELECT value, _dlt_parent_id, _dlt_list_idx, {child_id('flags')} AS _dlt_id
              FROM (SELECT unnest(flags) AS value, _dlt_id AS _dlt_parent_id,
                           unnest(range(len(flags))) AS _dlt_list_idx FROM records))
        TO '{out}/events__flags.parquet' (FORMAT parquet, {PARQUET_SETTINGS})""").fetchone()[0]
    rows["events__readings"] = con.execute(f"""
        COPY (SELECT r.kind, r.value, r.unit, _dlt_parent_id, _dlt_list_idx,
                     {child_id('readings')} AS _dlt_id
              FROM (SELECT unnest(readings) AS r, _dlt_id AS _dlt_parent_id,
                           unnest(range(len(readings))) AS _dlt_list_idx FROM records))
        TO '{out}/events__readings.parquet' (FORMAT parquet, {PARQUET_SETTINGS})""").fetchone()[0]
    seconds = time.monotonic() - start
    size_mb = os.path.getsize(path) / (1024 * 1024)
    out_mb = sum(os.path.getsize(os.path.join(out, f"{t}.parquet")) for t in rows) / (1024 * 1024)
    records = rows["events"]
    print(f"result: format=ndjson input_mb={size_mb:.1f} records={records} seconds={seconds:.3f} "
          f"records_per_s={records / seconds:.0f} mb_per_s={size_mb / seconds:.1f} "
          f"rows_all_tables={sum(rows.values())} output_mb={out_mb:.1f} duckdb={duckdb.__version__}")


if __name__ == "__main__":
    main()
