-- One row per eBird checklist and species (recent observations of the region), flagged when
-- the same checklist/species also appears among the notable observations.
MODEL (
  name analytics.fct_bird_observations,
  kind FULL,
  grain (checklist_id, species_code),
  audits (
    not_null(columns := (checklist_id, species_code)),
    unique_combination_of_columns(columns := (checklist_id, species_code)),
    forall(criteria := (latitude BETWEEN -90 AND 90, longitude BETWEEN -180 AND 180)),
    accepted_range(column := individual_count, min_v := 0)
  ),
  description 'eBird observations (from raw_ebird.recent_observations and notable_observations).'
);

SELECT
  o.sub_id AS checklist_id,
  o.species_code,
  o.com_name AS common_name,
  o.sci_name AS scientific_name,
  o._observation_date AS observed_at,
  CAST(o._observation_date AS DATE) AS observation_date,
  o.how_many AS individual_count,
  o.loc_id AS location_id,
  o.loc_name AS location_name,
  o.lat AS latitude,
  o.lng AS longitude,
  o.location_private AS is_private_location,
  o.obs_valid AS is_valid,
  o.obs_reviewed AS is_reviewed,
  o.exotic_category,
  o._region_code AS region_code,
  EXISTS (
    SELECT 1
    FROM polaris_aws.raw_ebird.notable_observations AS n
    WHERE n.sub_id = o.sub_id AND n.species_code = o.species_code
  ) AS is_notable,
  o._loaded_at AS loaded_at
FROM polaris_aws.raw_ebird.recent_observations AS o
WHERE o.sub_id IS NOT NULL AND o.species_code IS NOT NULL
