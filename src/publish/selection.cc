#include "publish/selection.h"

#include <algorithm>
#include <set>

#include "publish/publisher.h"

namespace databox::publish {
namespace {

std::string NamespaceOf(const iceberg::TableIdentifier& id) {
  return id.ns.empty() ? "" : id.ns.back();
}

std::string NameOf(const iceberg::TableIdentifier& id) { return NamespaceOf(id) + "." + id.name; }

}  // namespace

Result<std::vector<iceberg::TableIdentifier>> RawTables(iceberg::Catalog& catalog) {
  DATABOX_ASSIGN_OR_RETURN(std::vector<iceberg::Namespace> namespaces, catalog.ListNamespaces({}));
  std::vector<iceberg::TableIdentifier> tables;
  for (const iceberg::Namespace& ns : namespaces) {
    if (ns.size() != 1 || !ns.front().starts_with("raw_")) continue;
    DATABOX_ASSIGN_OR_RETURN(std::vector<iceberg::TableIdentifier> in_ns, catalog.ListTables(ns));
    tables.insert(tables.end(), in_ns.begin(), in_ns.end());
  }
  std::ranges::sort(tables);
  return tables;
}

Result<Chosen> Choose(const Selection& selection,
                      const std::vector<iceberg::TableIdentifier>& available_tables,
                      const std::vector<std::string>& available_models) {
  std::set<std::string> namespaces, tables, models;
  bool all_tables = false, all_models = false;
  if (!selection.only.empty()) {
    for (const std::string& name : selection.only) {
      (name.find('.') == std::string::npos ? namespaces : tables).insert(name);
    }
    models = tables;  // a dotted name may be a raw table or a model
  } else {
    namespaces.insert(selection.namespaces.begin(), selection.namespaces.end());
    tables.insert(selection.tables.begin(), selection.tables.end());
    all_tables = namespaces.empty() && tables.empty();
    if (selection.models) {
      models.insert(selection.models->begin(), selection.models->end());
    } else {
      all_models = true;
    }
  }
  Chosen chosen;
  std::set<std::string> matched;
  for (const iceberg::TableIdentifier& id : available_tables) {
    const std::string ns = NamespaceOf(id), name = NameOf(id);
    if (all_tables || namespaces.contains(ns) || tables.contains(name)) {
      chosen.tables.push_back(id);
      matched.insert(namespaces.contains(ns) ? ns : name);
      if (tables.contains(name)) matched.insert(name);
    }
  }
  for (const std::string& model : available_models) {
    if (all_models || models.contains(model)) {
      chosen.models.push_back(model);
      matched.insert(model);
    }
  }
  std::vector<std::string> unknown;
  std::set<std::string> asked = namespaces;
  asked.insert(tables.begin(), tables.end());
  asked.insert(models.begin(), models.end());
  for (const std::string& name : asked) {
    if (!matched.contains(name)) unknown.push_back(name);
  }
  if (!unknown.empty()) {
    std::string list;
    for (const std::string& name : unknown) list += (list.empty() ? "" : ", ") + name;
    return MakeError(ErrorKind::kConfig,
                     "nothing to publish is named " + list +
                         " (raw namespaces raw_<source>, raw tables raw_<source>.<table> and "
                         "models <schema>.<model> can be published; `databox catalog list` and "
                         "`databox query` show them)");
  }
  return chosen;
}

}  // namespace databox::publish
