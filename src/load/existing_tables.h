// The raw tables of a resource that earlier loads made, as the normalizer knows tables
// (NormalizerOptions::known_tables): a load starts from them, so a value of another type meets
// the table's column as it would within one load (dlt's variant column `<name>__v_<type>`, or a
// conversion where dlt converts), never as a refused type change of the Iceberg column.
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "iceberg/commit/catalog.h"
#include "normalize/normalizer.h"
#include "normalize/table_schema.h"

namespace databox::load {

//! The tables of namespace `ns` that the resource `hints` describes has made (its root table and
//! its child tables `<root>__...`), as the normalizer made them: root first, then by name; none
//! when the namespace does not exist yet.
//! - Each Iceberg column keeps its name and gets the dlt type stored that way (Iceberg's narrower
//!   int and float are bigint and double, and widen when written); a column of a type the
//!   normalizer never makes (e.g. a struct another engine added) is left out.
//! - dlt's system columns get dlt's default hints (normalize::NewColumn); a
//!   `<column>__v_<type>` column beside `<column>` is a variant column of that type.
//! - Other columns are nullable unless the Iceberg column is required, and primary key when it
//!   is an identifier field; the root table's hints apply as Normalizer::Make applies them (a
//!   json hint types a string column json, a nullable hint sets nullability, a primary key).
//! - A child table's parent is the longest other table of the resource its name extends.
Result<std::vector<normalize::TableSchema>> ExistingTables(iceberg::Catalog& catalog,
                                                           const std::string& ns,
                                                           const normalize::ResourceHints& hints);

}  // namespace databox::load
