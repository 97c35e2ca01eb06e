"""pyiceberg side of the reverse interop test.

create <catalog.db> <warehouse uri>: creates interop.from_pyiceberg (id long required,
  identifier; name string) and appends rows 1..3 with pyiceberg.
"""
import sys

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField, StringType


def main():
    command, db, warehouse = sys.argv[1:4]
    catalog = SqlCatalog("databox", uri=f"sqlite:///{db}", warehouse=warehouse)
    if command == "create":
        catalog.create_namespace_if_not_exists("interop")
        schema = Schema(NestedField(1, "id", LongType(), required=True),
                        NestedField(2, "name", StringType(), required=False),
                        identifier_field_ids=[1])
        table = catalog.create_table("interop.from_pyiceberg", schema=schema)
        table.append(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "name": ["wren", "owl", "kite"]},
                              schema=schema.as_arrow()))
        print("created", table.metadata_location)


if __name__ == "__main__":
    main()
