-- AVONET species traits, keyed by Avibase id. AVONET is explicit-only: until it is loaded the
-- raw view is an empty placeholder with the registry's declared columns (avibase_id, _dlt_*),
-- so this model builds empty instead of failing. The trait columns are carried as one JSON
-- object (the raw row) so the model's schema does not depend on the workbook's columns:
-- query them as traits->>'mass' etc.
MODEL (
  name analytics.dim_species_traits,
  kind FULL,
  grain avibase_id,
  audits (
    unique_values(columns := (avibase_id))
  ),
  description 'AVONET species traits (from raw_avonet.species_traits), traits as JSON.'
);

SELECT
  t.avibase_id,
  CAST(to_json(t) AS JSON) AS traits,
  t._dlt_load_id AS load_id
FROM polaris_aws.raw_avonet.species_traits AS t
WHERE t.avibase_id IS NOT NULL
