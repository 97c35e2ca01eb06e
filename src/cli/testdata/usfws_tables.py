# Independent reader for the USFWS acceptance test: pyiceberg's SqlCatalog opens the catalog our
# `databox run usfws` committed to and reads raw_usfws.image_search_runs and image_records.
# argv: catalog name, sqlite file, warehouse location. Prints one JSON line:
# {table: {"fields": [[name, type, required]], "identifier": [names], "rows": [{column: value}]}}
# with timestamps as ISO-8601 text.
import datetime
import json
import sys

from pyiceberg.catalog.sql import SqlCatalog


def plain(value):
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    return value


def main():
    name, db, warehouse = sys.argv[1:4]
    catalog = SqlCatalog(name, uri=f"sqlite:///{db}", warehouse=warehouse)
    out = {}
    for table_name in ("image_search_runs", "image_records", "_dlt_load_status"):
        table = catalog.load_table(("raw_usfws", table_name))
        schema = table.schema()
        rows = table.scan().to_arrow().to_pylist()
        out[table_name] = {
            "fields": [[f.name, str(f.field_type), f.required] for f in schema.fields],
            "identifier": sorted(schema.identifier_field_names()),
            "rows": [{k: plain(v) for k, v in row.items()} for row in rows],
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
