"""The environment both dlt peers run in (bench/dlt_ingest.py, bench/dlt_rest.py): pyiceberg's
catalog "default" (dlt's iceberg_catalog_name default) as a SQLite catalog in WORK, dlt's data and
pipeline folders in WORK, warnings only. Call before importing dlt."""
import os


def use_work_folder(work: str) -> None:
    os.makedirs(work, exist_ok=True)
    os.environ["PYICEBERG_CATALOG__DEFAULT__TYPE"] = "sql"
    os.environ["PYICEBERG_CATALOG__DEFAULT__URI"] = f"sqlite:///{work}/catalog.db"
    os.environ["PYICEBERG_CATALOG__DEFAULT__WAREHOUSE"] = f"file://{work}/warehouse"
    os.environ["DLT_DATA_DIR"] = f"{work}/dlt_data"
    os.environ["DLT_PIPELINE_DIR"] = f"{work}/pipelines"
    os.environ.setdefault("RUNTIME__LOG_LEVEL", "WARNING")
