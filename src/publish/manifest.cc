#include "publish/manifest.h"

#include <nlohmann/json.hpp>

#include "common/enum_names.h"
#include "common/json_integer.h"
#include "common/sha256.h"

namespace databox::publish {
namespace {

constexpr EnumNames<RelationKind, 2> kRelationKindNames{
    {{RelationKind::kIcebergTable, "iceberg_table"}, {RelationKind::kDuckDbTable, "duckdb_table"}}};
static_assert(DistinctNames(kRelationKindNames));

using nlohmann::json;

Error NotOurs(std::string_view where, std::string_view why) {
  return Error{ErrorKind::kData, std::string(where) + " is not a databox publish file (" +
                                     std::string(why) + "); it was not written by databox publish"};
}

Result<json> ParseOurs(std::string_view text, std::string_view where) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return std::unexpected(NotOurs(where, "not a JSON object"));
  if (doc.value("format", "") != kFormat) {
    return std::unexpected(NotOurs(where, "no \"format\": \"databox-publish\""));
  }
  if (doc.value("format_version", 0) != kFormatVersion) {
    return std::unexpected(Error{ErrorKind::kData, std::string(where) +
                                                       " has another format_version than " +
                                                       std::to_string(kFormatVersion) +
                                                       ": published by another databox version"});
  }
  return doc;
}

json RelationToJson(const Relation& r) {
  json schema = json::array();
  for (const auto& [name, type] : r.schema) schema.push_back({{"name", name}, {"type", type}});
  json out = {{"name", r.name},
              {"kind", RelationKindName(r.kind)},
              {"location", r.location},
              {"schema", std::move(schema)},
              {"schema_sha256", r.schema_sha256},
              {"rows", r.rows},
              {"load_ids", r.load_ids},
              {"files", r.files}};
  out["snapshot_id"] = r.snapshot_id ? JsonInteger(*r.snapshot_id) : json(nullptr);
  return out;
}

Result<Relation> RelationFromJson(const json& j) {
  Relation r;
  try {
    r.name = j.at("name").get<std::string>();
    const std::string kind = j.at("kind").get<std::string>();
    const auto parsed = ValueOf(kRelationKindNames, kind);
    if (!parsed)
      return MakeError(ErrorKind::kData, "relation " + r.name + " has unknown kind " + kind);
    r.kind = *parsed;
    r.location = j.at("location").get<std::string>();
    for (const json& column : j.at("schema")) {
      r.schema.emplace_back(column.at("name").get<std::string>(),
                            column.at("type").get<std::string>());
    }
    r.schema_sha256 = j.at("schema_sha256").get<std::string>();
    r.rows = j.at("rows").get<int64_t>();
    if (const json& id = j.at("snapshot_id"); !id.is_null()) {
      DATABOX_ASSIGN_OR_RETURN(r.snapshot_id, IntegerFromJson(id));
    }
    r.load_ids = j.at("load_ids").get<std::vector<std::string>>();
    r.files = j.at("files").get<std::vector<std::string>>();
  } catch (const json::exception& e) {
    return MakeError(ErrorKind::kData, std::string("a relation is malformed: ") + e.what());
  }
  return r;
}

}  // namespace

std::string_view RelationKindName(RelationKind kind) {
  return NameOf(kRelationKindNames, kind, "");
}

std::string SchemaSha256(const std::vector<Column>& columns) {
  std::string text;
  for (const auto& [name, type] : columns) text += name + "\t" + type + "\n";
  return Sha256Hex(text);
}

std::string Manifest::ToJson() const {
  json relations_json = json::array();
  for (const Relation& r : relations) relations_json.push_back(RelationToJson(r));
  json doc = {{"format", kFormat},
              {"format_version", kFormatVersion},
              {"version", version},
              {"published_at", published_at},
              {"databox_version", databox_version},
              {"relations", std::move(relations_json)}};
  return doc.dump(2) + "\n";
}

Result<Manifest> Manifest::FromJson(std::string_view text, std::string_view where) {
  DATABOX_ASSIGN_OR_RETURN(json doc, ParseOurs(text, where));
  Manifest m;
  try {
    m.version = doc.at("version").get<int64_t>();
    m.published_at = doc.at("published_at").get<std::string>();
    m.databox_version = doc.at("databox_version").get<std::string>();
    for (const json& r : doc.at("relations")) {
      auto relation = RelationFromJson(r);
      if (!relation) return std::unexpected(relation.error().WithContext(where));
      m.relations.push_back(std::move(*relation));
    }
  } catch (const json::exception& e) {
    return MakeError(ErrorKind::kData, std::string(where) + " is malformed: " + e.what());
  }
  return m;
}

std::string Pointer::ToJson() const {
  json doc = {{"format", kFormat},
              {"format_version", kFormatVersion},
              {"version", version},
              {"manifest", manifest},
              {"published_at", published_at}};
  return doc.dump(2) + "\n";
}

Result<Pointer> Pointer::FromJson(std::string_view text, std::string_view where) {
  DATABOX_ASSIGN_OR_RETURN(json doc, ParseOurs(text, where));
  Pointer p;
  try {
    p.version = doc.at("version").get<int64_t>();
    p.manifest = doc.at("manifest").get<std::string>();
    p.published_at = doc.at("published_at").get<std::string>();
  } catch (const json::exception& e) {
    return MakeError(ErrorKind::kData, std::string(where) + " is malformed: " + e.what());
  }
  if (p.version <= 0) return MakeError(ErrorKind::kData, std::string(where) + " names no version");
  return p;
}

}  // namespace databox::publish
