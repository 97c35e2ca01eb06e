-- AVONET species traits (eBird taxonomy), one row per Avibase id. AVONET is explicit-only:
-- until it is loaded the raw view is an empty placeholder with the table's full column layout
-- (the same names and types a load writes), so this model binds and builds empty.
MODEL (
  name analytics.dim_species_traits,
  kind FULL,
  grain avibase_id,
  audits (
    not_null(columns := (avibase_id, scientific_name, family, order_name)),
    unique_values(columns := (avibase_id, scientific_name)),
    accepted_range(column := mass_g, min_v := 0, inclusive := false),
    accepted_range(column := hand_wing_index, min_v := 0, max_v := 100),
    accepted_values(column := habitat_density_code, is_in := (1, 2, 3)),
    accepted_values(column := migration_code, is_in := (1, 2, 3))
  ),
  description 'AVONET species traits (from raw_avonet.species_traits): taxonomy, specimen counts, morphology in mm and g, ecology codes and the snapshot they came from.'
);

SELECT
  t.avibase_id,
  t.source_scientific_name AS scientific_name,
  t.family,
  t.order_name,
  t.total_individuals,
  t.female_individuals,
  t.male_individuals,
  t.unknown_sex_individuals,
  t.complete_measures,
  t.beak_length_culmen_mm,
  t.beak_length_nares_mm,
  t.beak_width_mm,
  t.beak_depth_mm,
  t.tarsus_length_mm,
  t.wing_length_mm,
  t.kipps_distance_mm,
  t.secondary_length_mm,
  t.hand_wing_index,
  t.tail_length_mm,
  t.mass_g,
  t.mass_source,
  t.inference AS is_inferred,
  t.traits_inferred,
  t.reference_species,
  t.habitat,
  t.habitat_density_code,
  CASE t.habitat_density_code
    WHEN 1 THEN 'dense'
    WHEN 2 THEN 'semi-open'
    WHEN 3 THEN 'open'
  END AS habitat_density,
  t.migration_code,
  CASE t.migration_code
    WHEN 1 THEN 'sedentary'
    WHEN 2 THEN 'partially migratory'
    WHEN 3 THEN 'migratory'
  END AS migration,
  t.trophic_level,
  t.trophic_niche,
  t.primary_lifestyle,
  t.dataset_doi,
  t.dataset_version,
  t.dataset_license,
  t.source_file_md5,
  t.loaded_at,
  t._dlt_load_id AS load_id
FROM polaris_aws.raw_avonet.species_traits AS t
WHERE t.avibase_id IS NOT NULL
