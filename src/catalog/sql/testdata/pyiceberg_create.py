# Independent writer: pyiceberg's SqlCatalog creates a namespace and a table with one
# appended row. argv: catalog name, sqlite file, warehouse location, namespace, table.
# Prints one JSON line describing what it created.
import json
import sys

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField, StringType

name, db, warehouse, namespace, table = sys.argv[1:6]
catalog = SqlCatalog(name, uri=f"sqlite:///{db}", warehouse=warehouse)
catalog.create_namespace(namespace)
schema = Schema(
    NestedField(1, "id", LongType(), required=True),
    NestedField(2, "species", StringType(), required=False),
    identifier_field_ids=[1],
)
created = catalog.create_table((namespace, table), schema=schema, properties={"owner": "pyiceberg"})
created.append(pa.table({"id": pa.array([7], pa.int64()), "species": ["wren"]},
                        schema=pa.schema([pa.field("id", pa.int64(), nullable=False),
                                          pa.field("species", pa.string())])))
loaded = catalog.load_table((namespace, table))
print(json.dumps({
    "metadata_location": loaded.metadata_location,
    "table_uuid": str(loaded.metadata.table_uuid),
    "snapshot_id": loaded.current_snapshot().snapshot_id,
}))
