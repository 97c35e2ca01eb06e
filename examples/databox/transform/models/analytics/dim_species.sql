-- The eBird taxonomy as a species dimension, one row per eBird species code (every taxon the
-- taxonomy lists: species and the other categories eBird reports, e.g. slash, spuh, hybrid).
-- The taxonomy resource is disabled in the example registry (nothing recorded): its raw view is
-- then an empty placeholder with every declared column, so this model binds and builds empty.
MODEL (
  name analytics.dim_species,
  kind FULL,
  grain species_code,
  audits (
    not_null(columns := (species_code, scientific_name, category)),
    unique_values(columns := (species_code, scientific_name)),
    accepted_values(
      column := category,
      is_in := ('species', 'issf', 'slash', 'spuh', 'hybrid', 'intergrade', 'domestic', 'form')
    ),
    accepted_range(column := taxon_order, min_v := 0, inclusive := false),
    accepted_range(column := extinct_year, min_v := 1500, max_v := 2100)
  ),
  description 'eBird taxonomy, one row per species code (from raw_ebird.taxonomy): names, category, taxonomic order, family, the taxon it is reported as, extinction, banding codes (from taxonomy__banding_codes).'
);

SELECT
  t.species_code,
  t.sci_name AS scientific_name,
  t.com_name AS common_name,
  t.category,
  t.category = 'species' AS is_species,
  t.taxon_order,
  t."order" AS order_name,
  t.family_code,
  t.family_com_name AS family_common_name,
  t.family_sci_name AS family_scientific_name,
  t.report_as,
  COALESCE(t.extinct, FALSE) AS is_extinct,
  t.extinct_year,
  (
    SELECT list(b.value ORDER BY b._dlt_list_idx)
    FROM polaris_aws.raw_ebird.taxonomy__banding_codes AS b
    WHERE b._dlt_parent_id = t._dlt_id
  ) AS banding_codes,
  t._loaded_at AS loaded_at,
  t._dlt_load_id AS load_id
FROM polaris_aws.raw_ebird.taxonomy AS t
WHERE t.species_code IS NOT NULL AND t.sci_name IS NOT NULL
