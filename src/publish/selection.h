// Which relations a publish takes: the raw tables of the catalog's raw_* namespaces and the
// models of the analytics database, narrowed by the registry's [publish] lists or by --only.
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "iceberg/commit/catalog.h"
#include "iceberg/spec/table_identifier.h"

namespace databox::publish {

struct Selection;

struct Chosen {
  std::vector<iceberg::TableIdentifier> tables;
  std::vector<std::string> models;  //!< schema.name
};

//! Every table of the catalog's top-level namespaces named raw_*, sorted.
Result<std::vector<iceberg::TableIdentifier>> RawTables(iceberg::Catalog& catalog);

//! The relations of `available_tables` and `available_models` that `selection` names. kConfig
//! naming every name of --only or of the [publish] lists that matches nothing available.
Result<Chosen> Choose(const Selection& selection,
                      const std::vector<iceberg::TableIdentifier>& available_tables,
                      const std::vector<std::string>& available_models);

}  // namespace databox::publish
