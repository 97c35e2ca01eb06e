-- One row per station and day: the GHCND daily values pivoted into columns (NOAA CDO,
-- units=standard: degrees Fahrenheit, inches, miles per hour). Datatypes the source was not
-- asked for stay NULL.
MODEL (
  name analytics.fct_daily_weather,
  kind FULL,
  grain (station, observation_date),
  audits (
    not_null(columns := (station, observation_date)),
    unique_combination_of_columns(columns := (station, observation_date))
  ),
  description 'Daily weather per NOAA GHCND station (from raw_noaa.daily_weather).'
);

SELECT
  station,
  CAST(LEFT(date, 10) AS DATE) AS observation_date,
  MAX(value) FILTER (WHERE datatype = 'TMAX') AS tmax_f,
  MAX(value) FILTER (WHERE datatype = 'TMIN') AS tmin_f,
  MAX(value) FILTER (WHERE datatype = 'PRCP') AS precipitation_in,
  MAX(value) FILTER (WHERE datatype = 'SNOW') AS snowfall_in,
  MAX(value) FILTER (WHERE datatype = 'AWND') AS avg_wind_mph,
  COUNT(*) AS measurement_count,
  MAX(_location_id) AS location_id,
  MAX(_loaded_at) AS loaded_at
FROM polaris_aws.raw_noaa.daily_weather
WHERE station IS NOT NULL AND date IS NOT NULL
GROUP BY station, CAST(LEFT(date, 10) AS DATE)
