// Renderings of the registry for `databox sources [--json]`. They never print secret values.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "registry/model.h"

namespace databox::registry {

//! A fixed-width text table: name, eligibility, kind, namespace, tables (comma-separated).
std::string FormatSourcesTable(const Registry& registry);

//! [{"name", "eligibility", "kind", "namespace", "tables": [...]}], in declaration order.
nlohmann::json SourcesToJson(const Registry& registry);

}  // namespace databox::registry
