-- One row per eBird region and day (the day of the request, `date`, an ISO date): checklists,
-- contributors and species reported that day.
-- The region_stats resource is disabled in the example registry (nothing recorded): its raw view
-- is then an empty placeholder with every declared column, so this model binds and builds empty.
MODEL (
  name analytics.fct_ebird_region_daily_stats,
  kind FULL,
  grain (region_code, observation_date),
  audits (
    not_null(columns := (region_code, observation_date)),
    unique_combination_of_columns(columns := (region_code, observation_date)),
    accepted_range(column := checklists, min_v := 0),
    accepted_range(column := contributors, min_v := 0),
    accepted_range(column := species, min_v := 0)
  ),
  description 'eBird daily statistics per region (from raw_ebird.region_stats): checklists, contributors and species reported on the day.'
);

SELECT
  r.region_code,
  TRY_CAST(r.date AS DATE) AS observation_date,
  r.year,
  r.month,
  r.day,
  r.num_checklists AS checklists,
  r.num_contributors AS contributors,
  r.num_species AS species,
  r._loaded_at AS loaded_at
FROM polaris_aws.raw_ebird.region_stats AS r
WHERE r.region_code IS NOT NULL AND TRY_CAST(r.date AS DATE) IS NOT NULL
