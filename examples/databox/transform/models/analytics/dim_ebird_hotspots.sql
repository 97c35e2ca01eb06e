-- One row per eBird hotspot of the region (the hotspot reference list, merged by location id
-- across runs). latest_observed_at is eBird's latest observation time: local time at the
-- hotspot, which the load stores as if it were UTC, read back here as that wall-clock time.
MODEL (
  name analytics.dim_ebird_hotspots,
  kind FULL,
  grain location_id,
  audits (
    not_null(columns := (location_id, latitude, longitude)),
    unique_values(columns := (location_id)),
    forall(criteria := (latitude BETWEEN -90 AND 90, longitude BETWEEN -180 AND 180)),
    accepted_range(column := species_all_time, min_v := 0),
    accepted_range(column := checklists_all_time, min_v := 0)
  ),
  description 'eBird hotspots (from raw_ebird.hotspots): name, place codes, coordinates, latest observation and all-time species and checklist counts.'
);

SELECT
  h.loc_id AS location_id,
  h.loc_name AS location_name,
  h.country_code,
  h.subnational1_code,
  h.subnational2_code,
  h.lat AS latitude,
  h.lng AS longitude,
  CAST(h.latest_obs_dt AT TIME ZONE 'UTC' AS TIMESTAMP) AS latest_observed_at,
  h.num_species_all_time AS species_all_time,
  h.num_checklists_all_time AS checklists_all_time,
  h._region_code AS region_code,
  h._loaded_at AS loaded_at
FROM polaris_aws.raw_ebird.hotspots AS h
WHERE h.loc_id IS NOT NULL
