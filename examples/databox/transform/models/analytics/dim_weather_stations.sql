-- One row per NOAA GHCND station of the location (CDO /stations, merged by id across runs). The
-- station ids are those of fct_daily_weather.station; mindate/maxdate bound the station's data.
MODEL (
  name analytics.dim_weather_stations,
  kind FULL,
  grain station,
  audits (
    not_null(columns := (station)),
    unique_values(columns := (station)),
    forall(criteria := (latitude BETWEEN -90 AND 90, longitude BETWEEN -180 AND 180)),
    accepted_range(column := data_coverage, min_v := 0, max_v := 1)
  ),
  description 'NOAA GHCND weather stations (from raw_noaa.stations): name, coordinates, elevation, first and last date of data and data coverage (0..1).'
);

SELECT
  s.id AS station,
  s.name AS station_name,
  s.latitude,
  s.longitude,
  s.elevation,
  s.elevation_unit,
  TRY_CAST(s.mindate AS DATE) AS first_date,
  TRY_CAST(s.maxdate AS DATE) AS last_date,
  s.datacoverage AS data_coverage,
  s._location_id AS location_id,
  s._loaded_at AS loaded_at
FROM polaris_aws.raw_noaa.stations AS s
WHERE s.id IS NOT NULL
