-- One row per active USGS stream-gauge site with daily values (NWIS site service, merged by
-- site number across runs). The site numbers are those of fct_daily_streamflow.site_no.
MODEL (
  name analytics.dim_stream_sites,
  kind FULL,
  grain site_no,
  audits (
    not_null(columns := (site_no)),
    unique_values(columns := (site_no)),
    forall(criteria := (latitude BETWEEN -90 AND 90, longitude BETWEEN -180 AND 180)),
    accepted_range(column := drainage_area_sq_mi, min_v := 0)
  ),
  description 'USGS stream-gauge sites (from raw_usgs.sites): name, site type, coordinates, county/state/HUC codes, drainage area in square miles and the period of daily values.'
);

SELECT
  s.site_no,
  s.site_name,
  s.site_type,
  s.latitude,
  s.longitude,
  s.county_cd,
  s.state_cd,
  s.huc_cd,
  s.drain_area_va AS drainage_area_sq_mi,
  TRY_CAST(s.begin_date AS DATE) AS begin_date,
  TRY_CAST(s.end_date AS DATE) AS end_date,
  s._loaded_at AS loaded_at
FROM polaris_aws.raw_usgs.sites AS s
WHERE s.site_no IS NOT NULL
