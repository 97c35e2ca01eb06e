"""Generates the benchmark inputs with DuckDB (deterministic: every value derives from the row
number). Not product code.

  gen_inputs.py ndjson OUT RECORDS   nested NDJSON, ~500 bytes a record (objects + two lists)
  gen_inputs.py csv OUT ROWS         flat CSV with a header, 8 columns
  gen_inputs.py dated OUT ROWS       the same CSV with observed_at spread evenly over the 90 days
                                     from 2026-01-01 (whatever ROWS is): ROWS / 90 rows a day,
                                     rows in time order
  gen_inputs.py dated-mixed OUT ROWS the same times in mixed order (row i has the time of row
                                     i * 7919 mod ROWS): every stretch of rows spans all days
"""
import sys

import duckdb

NDJSON_SELECT = """
SELECT
  i AS id,
  'evt-' || i AS eventId,
  {'code': 'ST' || lpad((i % 5000)::VARCHAR, 5, '0'),
   'name': 'Station number ' || (i % 5000),
   'geo': {'lat': round(-60 + (i % 12000) / 100.0, 4), 'lon': round(-170 + (i % 34000) / 100.0, 4),
           'elevationM': (i % 3000)}} AS station,
  strftime(TIMESTAMP '2020-01-01' + to_seconds(i * 17), '%Y-%m-%dT%H:%M:%SZ') AS observedAt,
  round(-20 + (i % 6000) / 100.0, 2) AS temperature,
  round(950 + (i % 1000) / 10.0, 1) AS pressure,
  (i % 3 = 0) AS verified,
  ['flag' || (i % 7), 'flag' || (i % 11)] AS flags,
  [{'kind': 'wind', 'value': round((i % 400) / 10.0, 1), 'unit': 'm/s'},
   {'kind': 'rain', 'value': round((i % 90) / 10.0, 1), 'unit': 'mm'}] AS readings,
  'observation ' || i || ' recorded by automatic station with routine quality control; '
    || repeat('x', 40 + (i % 40)) AS remarks
FROM range({n}) t(i)
"""

DATED_DAYS = 90  # the days a `dated` input spans

CSV_SELECT = """
SELECT
  i AS id,
  'ST' || lpad((i % 5000)::VARCHAR, 5, '0') AS station_code,
  strftime(TIMESTAMP '2020-01-01' + to_seconds(i * 17), '%Y-%m-%dT%H:%M:%SZ') AS observed_at,
  round(-20 + (i % 6000) / 100.0, 2) AS temperature,
  round(950 + (i % 1000) / 10.0, 1) AS pressure,
  CASE i % 3 WHEN 0 THEN 'good' WHEN 1 THEN 'suspect' ELSE 'estimated' END AS quality,
  (i % 97) AS count,
  'note ' || (i % 1000) AS note
FROM range({n}) t(i)
"""


def main() -> None:
    kind, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    con = duckdb.connect()
    con.execute("SET preserve_insertion_order = true")
    if kind == "ndjson":
        con.execute(f"COPY ({NDJSON_SELECT.replace('{n}', str(n))}) TO '{out}' (FORMAT json)")
    elif kind == "csv":
        con.execute(f"COPY ({CSV_SELECT.replace('{n}', str(n))}) TO '{out}' (FORMAT csv, HEADER true)")
    elif kind in ("dated", "dated-mixed"):
        step_us = DATED_DAYS * 86_400_000_000 // n
        if kind == "dated-mixed" and n % 7919 == 0:
            sys.exit("dated-mixed: ROWS must not be a multiple of 7919")
        slot = "i" if kind == "dated" else f"(i * 7919 % {n})"
        select = CSV_SELECT.replace("{n}", str(n)).replace(
            "TIMESTAMP '2020-01-01' + to_seconds(i * 17)",
            f"TIMESTAMP '2026-01-01' + to_microseconds({slot} * {step_us})")
        con.execute(f"COPY ({select}) TO '{out}' (FORMAT csv, HEADER true)")
    else:
        sys.exit(f"unknown kind {kind}")


if __name__ == "__main__":
    main()
