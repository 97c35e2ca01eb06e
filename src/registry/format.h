// Renderings of the registry for `databox sources [--json]`. They never print secret values.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "registry/model.h"

namespace databox::registry {

//! Tables the catalog holds in a source's namespace that the registry does not declare (e.g.
//! child tables the normalizer made of nested lists), by source name; dlt's `_dlt_*` excluded.
using UndeclaredTables = std::map<std::string, std::vector<std::string>>;

//! A fixed-width text table: name, eligibility, kind, namespace, tables (comma-separated; the
//! tables of a disabled resource marked "(disabled)", then the undeclared ones marked
//! "(undeclared)").
std::string FormatSourcesTable(const Registry& registry, const UndeclaredTables& undeclared = {});

//! [{"name", "eligibility", "kind", "namespace", "tables": [...], "resources": [{"name",
//! "enabled", "child_tables": [...]}], "undeclared_tables": [...]}], in declaration order;
//! "tables" lists every declared table, enabled or not.
nlohmann::json SourcesToJson(const Registry& registry, const UndeclaredTables& undeclared = {});

}  // namespace databox::registry
