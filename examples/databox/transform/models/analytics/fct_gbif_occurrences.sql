-- One row per GBIF occurrence of the query (birds of the configured state; the source merges by
-- the occurrence key across runs). event_date is GBIF's text (a date, a date-time or an ISO 8601
-- interval); observation_date is its day when it starts with a full date, else NULL.
MODEL (
  name analytics.fct_gbif_occurrences,
  kind FULL,
  grain occurrence_key,
  audits (
    not_null(columns := (occurrence_key)),
    unique_values(columns := (occurrence_key)),
    forall(criteria := (latitude BETWEEN -90 AND 90, longitude BETWEEN -180 AND 180)),
    accepted_range(column := coordinate_uncertainty_m, min_v := 0),
    accepted_range(column := month, min_v := 1, max_v := 12),
    accepted_range(column := day, min_v := 1, max_v := 31)
  ),
  description 'GBIF occurrences (from raw_gbif.occurrences): taxon names and keys, place and coordinates, event date, recorder, dataset, publisher and license.'
);

SELECT
  o.key AS occurrence_key,
  o.gbif_id,
  o.occurrence_id,
  o.basis_of_record,
  o.occurrence_status,
  o.scientific_name,
  o.accepted_scientific_name,
  o.accepted_taxon_key,
  o.taxon_key,
  o.taxon_rank,
  o.vernacular_name,
  o.species,
  o.species_key,
  o.genus,
  o.family,
  o.order_name,
  o.class_name,
  o.country_code,
  o.state_province,
  o.locality,
  o.decimal_latitude AS latitude,
  o.decimal_longitude AS longitude,
  o.coordinate_uncertainty_in_meters AS coordinate_uncertainty_m,
  o.event_date,
  TRY_CAST(LEFT(o.event_date, 10) AS DATE) AS observation_date,
  o.year,
  o.month,
  o.day,
  o.establishment_means,
  o.recorded_by,
  o.identified_by,
  o.institution_code,
  o.collection_code,
  o.catalog_number,
  o.dataset_key,
  o.dataset_title,
  o.publishing_org_key,
  o.license,
  o."references" AS reference_url,
  o._loaded_at AS loaded_at
FROM polaris_aws.raw_gbif.occurrences AS o
WHERE o.key IS NOT NULL
