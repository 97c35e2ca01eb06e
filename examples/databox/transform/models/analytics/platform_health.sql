-- The latest load of every routine source. Databox builds the view databox.platform_loads in the
-- raw views file from its registry: one row per load status row (raw_<source>._dlt_load_status)
-- of every routine source, and one row with NULLs for a routine source that never loaded, so it
-- stays visible here. Latest = greatest inserted_at, then greatest load_id.
MODEL (
  name analytics.platform_health,
  kind FULL,
  grain source,
  description 'Latest load per routine source (from databox.platform_loads, built by databox over raw_<source>._dlt_load_status); age_seconds is measured when the model runs.'
);

WITH ranked AS (
  SELECT
    source,
    load_id,
    status,
    rows_loaded,
    inserted_at,
    row_number() OVER (PARTITION BY source ORDER BY inserted_at DESC, load_id DESC) AS load_rank
  FROM polaris_aws.databox.platform_loads
)
SELECT
  CAST(source AS VARCHAR) AS source,
  CAST(load_id AS VARCHAR) AS load_id,
  CAST(status AS BIGINT) AS status,
  CAST(rows_loaded AS BIGINT) AS rows_loaded,
  inserted_at AS completed_at,
  CAST(epoch(now()) - epoch(inserted_at) AS BIGINT) AS age_seconds
FROM ranked
WHERE load_rank = 1
ORDER BY source
