-- One row per USGS earthquake event (the feed's rolling day, merged by id across runs).
-- Times arrive as ISO 8601 UTC text and are typed here (TIMESTAMP, UTC).
MODEL (
  name analytics.fct_earthquakes,
  kind FULL,
  grain event_id,
  audits (
    not_null(columns := (event_id)),
    unique_values(columns := (event_id)),
    forall(criteria := (latitude BETWEEN -90 AND 90, longitude BETWEEN -180 AND 180))
  ),
  description 'USGS earthquake events (from raw_usgs_earthquakes.events).'
);

SELECT
  id AS event_id,
  TRY_CAST(REPLACE(REPLACE(event_time, 'T', ' '), 'Z', '') AS TIMESTAMP) AS event_time_utc,
  TRY_CAST(REPLACE(REPLACE(event_updated_at, 'T', ' '), 'Z', '') AS TIMESTAMP) AS updated_at_utc,
  magnitude,
  magnitude_type,
  place,
  event_type,
  status,
  alert,
  tsunami_flag = 1 AS tsunami_possible,
  significance,
  longitude,
  latitude,
  depth_km,
  title,
  url,
  _loaded_at AS loaded_at
FROM polaris_aws.raw_usgs_earthquakes.events
WHERE id IS NOT NULL
