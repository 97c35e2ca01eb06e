// `partition` and `sort` of [[source.resource]]: the root table's Iceberg layout.
#include <set>
#include <utility>

#include "common/edit_distance.h"
#include "registry/parse_internal.h"

namespace databox::registry::internal {
namespace {

//! The declared type of `column`, or nullopt after reporting why it cannot be used.
std::optional<std::string> DeclaredType(const Resource& res, TableReader& r, std::string_view key,
                                        const std::string& column, const std::string& term) {
  auto it = res.columns.find(column);
  if (it != res.columns.end() && !it->second.type.empty()) return it->second.type;
  if (it != res.columns.end()) {
    r.Report(key,
             std::string(key) + " term '" + term + "': column '" + column +
                 "' is declared in 'columns' without a type",
             "give it one, e.g. " + column + " = \"timestamp\"");
    return std::nullopt;
  }
  std::vector<std::string> declared;
  for (const auto& [name, hint] : res.columns) declared.push_back(name);
  const std::optional<std::string> meant = LikelyMeant(column, declared);
  r.Report(key,
           std::string(key) + " term '" + term + "': column '" + column +
               "' is not declared in 'columns'",
           meant ? "did you mean '" + *meant + "'?"
                 : "declare it with its type in 'columns', e.g. " + column + " = \"timestamp\"");
  return std::nullopt;
}

void ParsePartition(Resource& res, TableReader& r) {
  const auto terms = r.StringList("partition");
  if (!terms) return;
  std::set<std::pair<std::string, LayoutTransform>> seen;
  for (const std::string& text : *terms) {
    auto term = ParsePartitionTerm(text);
    if (!term) {
      r.Report("partition", term.error().message);
      continue;
    }
    if (!seen.insert({term->column, term->transform}).second) {
      r.Report("partition",
               "partition term '" + text + "' repeats a transform of column '" + term->column + "'",
               "partition by each transform of a column once");
      continue;
    }
    const auto type = DeclaredType(res, r, "partition", term->column, text);
    if (!type) continue;
    if (auto refusal = TransformRefusal(term->transform, *type)) {
      r.Report("partition", "partition term '" + text + "': " + term->IcebergTransform() + " " +
                                *refusal + ", and column '" + term->column + "' is " + *type);
      continue;
    }
    res.partition.push_back(std::move(*term));
  }
}

void ParseSort(Resource& res, TableReader& r) {
  const auto terms = r.StringList("sort");
  if (!terms) return;
  std::set<std::string> seen;
  for (const std::string& text : *terms) {
    auto term = ParseSortTerm(text);
    if (!term) {
      r.Report("sort", term.error().message);
      continue;
    }
    if (!seen.insert(term->column).second) {
      r.Report("sort", "sort term '" + text + "' repeats column '" + term->column + "'");
      continue;
    }
    if (!DeclaredType(res, r, "sort", term->column, text)) continue;
    res.sort.push_back(std::move(*term));
  }
}

}  // namespace

void ParseTableLayout(Resource& res, TableReader& r) {
  ParsePartition(res, r);
  ParseSort(res, r);
}

}  // namespace databox::registry::internal
