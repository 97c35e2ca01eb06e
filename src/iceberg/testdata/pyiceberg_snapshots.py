# Independent reader for the maintenance tests: pyiceberg's SqlCatalog loads a table and reads
# every snapshot the metadata still lists (each scan opens that snapshot's manifest list,
# manifests and data files, so a file removed too eagerly fails here).
# argv: sqlite file, warehouse location, namespace, table. Prints one JSON line:
# {"current": id, "snapshots": {"<id>": [sorted ids of the rows], ...}}
import json
import sys

from pyiceberg.catalog.sql import SqlCatalog

db, warehouse, namespace, table = sys.argv[1:5]
catalog = SqlCatalog("databox", uri=f"sqlite:///{db}", warehouse=warehouse)
loaded = catalog.load_table((namespace, table))
snapshots = {}
for snapshot in loaded.metadata.snapshots:
    rows = loaded.scan(snapshot_id=snapshot.snapshot_id).to_arrow()
    snapshots[str(snapshot.snapshot_id)] = sorted(rows.column("id").to_pylist())
print(json.dumps({"current": loaded.metadata.current_snapshot_id, "snapshots": snapshots}))
