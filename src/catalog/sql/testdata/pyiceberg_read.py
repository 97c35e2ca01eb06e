# Independent reader: pyiceberg's SqlCatalog lists and loads what our SqlCatalog wrote.
# argv: catalog name, sqlite file, warehouse location, namespace, table. Prints one JSON line.
import json
import sys

from pyiceberg.catalog.sql import SqlCatalog

name, db, warehouse, namespace, table = sys.argv[1:6]
catalog = SqlCatalog(name, uri=f"sqlite:///{db}", warehouse=warehouse)
loaded = catalog.load_table((namespace, table))
print(json.dumps({
    "namespaces": sorted(".".join(ns) for ns in catalog.list_namespaces()),  # a set in pyiceberg
    "tables": sorted(".".join(t) for t in catalog.list_tables(namespace)),
    "metadata_location": loaded.metadata_location,
    "table_uuid": str(loaded.metadata.table_uuid),
    "fields": [[f.field_id, f.name, f.required, str(f.field_type)] for f in loaded.schema().fields],
    "properties": dict(loaded.properties),
    "rows": loaded.scan().to_arrow().num_rows,
}))
