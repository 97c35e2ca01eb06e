-- One row per USGS site, parameter, statistic and day (NWIS daily values). Discharge is
-- parameter 00060 (cubic feet per second); qualifier "P" marks provisional data.
MODEL (
  name analytics.fct_daily_streamflow,
  kind FULL,
  grain (site_no, parameter_cd, statistic_cd, observation_date),
  audits (
    not_null(columns := (site_no, parameter_cd, observation_date)),
    unique_combination_of_columns(columns := (site_no, parameter_cd, statistic_cd, observation_date)),
    forall(criteria := (latitude BETWEEN -90 AND 90, longitude BETWEEN -180 AND 180))
  ),
  description 'Daily values per USGS site and parameter (from raw_usgs.daily_values).'
);

SELECT
  site_no,
  site_name,
  latitude,
  longitude,
  parameter_cd,
  parameter_name,
  statistic_cd,
  TRY_CAST(observation_date AS DATE) AS observation_date,
  value,
  unit_cd,
  qualifier,
  parameter_cd = '00060' AS is_discharge,
  COALESCE(list_contains(string_split(qualifier, ','), 'P'), FALSE) AS is_provisional,
  _state_cd AS state_cd,
  _loaded_at AS loaded_at
FROM polaris_aws.raw_usgs.daily_values
WHERE site_no IS NOT NULL AND TRY_CAST(observation_date AS DATE) IS NOT NULL
