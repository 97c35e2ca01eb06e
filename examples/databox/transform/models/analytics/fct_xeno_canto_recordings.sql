-- One row per xeno-canto sound recording of the query (the source merges by recording id across
-- runs). xeno-canto gives most fields as text: coordinates are typed by the source, the length
-- ("m:ss" or "h:mm:ss") becomes seconds here, and dates with an unknown day or month ("-00")
-- leave recording_date NULL while recording_date_text keeps them.
MODEL (
  name analytics.fct_xeno_canto_recordings,
  kind FULL,
  grain recording_id,
  audits (
    not_null(columns := (recording_id)),
    unique_values(columns := (recording_id)),
    forall(criteria := (latitude BETWEEN -90 AND 90, longitude BETWEEN -180 AND 180)),
    accepted_range(column := length_seconds, min_v := 0),
    accepted_values(column := quality, is_in := ('A', 'B', 'C', 'D', 'E', 'no score'))
  ),
  description 'xeno-canto bird sound recordings (from raw_xeno_canto.recordings): species, recordist, place and coordinates, sound type, quality rating (A best .. E), length in seconds, dates, license and links.'
);

SELECT
  r.id AS recording_id,
  CASE
    WHEN r.species IS NULL OR r.species = '' THEN r.genus
    ELSE r.genus || ' ' || r.species
  END AS scientific_name,
  r.genus,
  r.species AS specific_epithet,
  NULLIF(r.subspecies, '') AS subspecies,
  r.english_name AS common_name,
  r.group_name,
  r.recordist,
  r.country,
  r.locality,
  r.latitude,
  r.longitude,
  TRY_CAST(r.altitude AS DOUBLE) AS altitude_m,
  r.recording_type,
  NULLIF(r.sex, '') AS sex,
  NULLIF(r.stage, '') AS stage,
  NULLIF(r.method, '') AS method,
  NULLIF(r.quality, '') AS quality,
  CASE length(r.length) - length(replace(r.length, ':', ''))
    WHEN 1 THEN
      TRY_CAST(split_part(r.length, ':', 1) AS BIGINT) * 60
      + TRY_CAST(split_part(r.length, ':', 2) AS BIGINT)
    WHEN 2 THEN
      TRY_CAST(split_part(r.length, ':', 1) AS BIGINT) * 3600
      + TRY_CAST(split_part(r.length, ':', 2) AS BIGINT) * 60
      + TRY_CAST(split_part(r.length, ':', 3) AS BIGINT)
  END AS length_seconds,
  TRY_CAST(r.recording_date AS DATE) AS recording_date,
  r.recording_date AS recording_date_text,
  r.recording_time,
  TRY_CAST(r.uploaded_at AS DATE) AS uploaded_date,
  NULLIF(r.also_species, '') AS also_species,
  r.animal_seen,
  r.playback_used,
  r.remarks,
  r.license,
  r.recording_url,
  r.audio_file_url,
  r.sonogram AS sonogram_url,
  r._loaded_at AS loaded_at
FROM polaris_aws.raw_xeno_canto.recordings AS r
WHERE r.id IS NOT NULL
