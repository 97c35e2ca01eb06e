// The raw tables a load writes into, as the normalizer knows tables: so a second load of a
// resource meets the columns the first one made as a second file of one load does (dlt's
// variant column `<name>__v_<type>` for a value of another type, never a refused type change).
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "iceberg/catalog.h"
#include "normalize/table_schema.h"

namespace databox::load {

//! The normalizer's schema of every existing table of namespace `ns` that is `table` or one of
//! its child tables (`table__...`); none when the namespace does not exist yet. Columns of a
//! type the normalizer does not make are left out (a value for them adds a column as usual).
Result<std::vector<normalize::TableSchema>> ExistingTables(iceberg::Catalog& catalog,
                                                           const std::string& ns,
                                                           const std::string& table);

}  // namespace databox::load
