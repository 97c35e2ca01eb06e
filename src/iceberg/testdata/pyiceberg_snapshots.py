# Independent reader for the maintenance tests: pyiceberg opens a table from its metadata file
# (StaticTable: no catalog involved) and reads every snapshot the metadata still lists (each
# scan opens that snapshot's manifest list, manifests and data files, so a file removed too
# eagerly fails here).
# argv: the table's current metadata location. Prints one JSON line:
# {"current": id, "snapshots": {"<id>": [sorted ids of the rows], ...}}
import json
import sys

from pyiceberg.table import StaticTable

loaded = StaticTable.from_metadata(sys.argv[1])
snapshots = {}
for snapshot in loaded.metadata.snapshots:
    rows = loaded.scan(snapshot_id=snapshot.snapshot_id).to_arrow()
    snapshots[str(snapshot.snapshot_id)] = sorted(rows.column("id").to_pylist())
print(json.dumps({"current": loaded.metadata.current_snapshot_id, "snapshots": snapshots}))
