"""pyiceberg side of the reverse interop test.

create <catalog.db> <warehouse uri>: creates interop.from_pyiceberg (id long required,
  identifier; name string), appends rows 1..3 with pyiceberg and records a statistics file for
  that snapshot (a Puffin path in the metadata; the file itself is not needed for this check).
statistics <catalog.db> <warehouse uri>: prints the statistics paths pyiceberg sees, one per line.
"""
import sys

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.table.statistics import BlobMetadata, StatisticsFile
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
        snapshot = table.current_snapshot()
        stats = StatisticsFile(
            snapshot_id=snapshot.snapshot_id,
            statistics_path=f"{table.location()}/metadata/stats-{snapshot.snapshot_id}.puffin",
            file_size_in_bytes=100, file_footer_size_in_bytes=20, blob_metadata=[
                BlobMetadata(type="apache-datasketches-theta-v1", snapshot_id=snapshot.snapshot_id,
                             sequence_number=snapshot.sequence_number, fields=[1],
                             properties={"ndv": "3"})])
        with table.update_statistics() as update:
            update.set_statistics(stats)
        print("created", table.metadata_location)
    elif command == "statistics":
        for stats in catalog.load_table("interop.from_pyiceberg").metadata.statistics:
            print(stats.statistics_path, stats.blob_metadata[0].properties.get("ndv"))


if __name__ == "__main__":
    main()
