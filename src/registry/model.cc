#include "registry/model.h"

#include <algorithm>

namespace databox::registry {

std::vector<std::string> Source::Tables() const {
  std::vector<std::string> tables;
  for (const Resource& resource : resources) {
    tables.push_back(resource.name);
    tables.insert(tables.end(), resource.child_tables.begin(), resource.child_tables.end());
  }
  return tables;
}

const Source* Registry::FindSource(std::string_view name) const {
  auto it = std::ranges::find(sources, name, &Source::name);
  return it == sources.end() ? nullptr : &*it;
}

std::vector<std::string> Registry::SourceNames() const {
  std::vector<std::string> names;
  for (const Source& source : sources) names.push_back(source.name);
  return names;
}

std::vector<const Source*> Registry::RoutineSources() const {
  std::vector<const Source*> routine;
  for (const Source& source : sources) {
    if (source.eligibility == Eligibility::kRoutine) routine.push_back(&source);
  }
  return routine;
}

std::string_view ToString(CatalogType v) {
  switch (v) {
    case CatalogType::kSql:
      return "sql";
    case CatalogType::kRest:
      return "rest";
  }
  return "?";
}

std::string_view ToString(Eligibility v) {
  switch (v) {
    case Eligibility::kRoutine:
      return "routine";
    case Eligibility::kExplicit:
      return "explicit";
  }
  return "?";
}

std::string_view ToString(SourceKind v) {
  switch (v) {
    case SourceKind::kRestJson:
      return "rest_json";
    case SourceKind::kFile:
      return "file";
    case SourceKind::kTargeted:
      return "targeted";
  }
  return "?";
}

std::string_view ToString(AuthType v) {
  switch (v) {
    case AuthType::kNone:
      return "none";
    case AuthType::kHeader:
      return "header";
    case AuthType::kQuery:
      return "query";
    case AuthType::kBearer:
      return "bearer";
  }
  return "?";
}

std::string_view ToString(PaginationType v) {
  switch (v) {
    case PaginationType::kNone:
      return "none";
    case PaginationType::kOffsetLimit:
      return "offset_limit";
    case PaginationType::kPageNumber:
      return "page_number";
    case PaginationType::kCursor:
      return "cursor";
  }
  return "?";
}

std::string_view ToString(WriteDisposition v) {
  switch (v) {
    case WriteDisposition::kAppend:
      return "append";
    case WriteDisposition::kReplace:
      return "replace";
    case WriteDisposition::kMerge:
      return "merge";
  }
  return "?";
}

std::string_view ToString(DuplicatePolicy v) {
  switch (v) {
    case DuplicatePolicy::kLastWins:
      return "last_wins";
    case DuplicatePolicy::kFirstWins:
      return "first_wins";
    case DuplicatePolicy::kReject:
      return "reject";
  }
  return "?";
}

std::string_view ToString(ResponseFormat v) {
  switch (v) {
    case ResponseFormat::kJson:
      return "json";
    case ResponseFormat::kNdjson:
      return "ndjson";
    case ResponseFormat::kRdb:
      return "rdb";
    case ResponseFormat::kCsv:
      return "csv";
    case ResponseFormat::kTsv:
      return "tsv";
    case ResponseFormat::kXlsx:
      return "xlsx";
  }
  return "?";
}

}  // namespace databox::registry
