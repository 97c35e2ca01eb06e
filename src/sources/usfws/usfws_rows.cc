#include "sources/usfws/usfws_rows.h"

#include <utility>

#include "sources/usfws/python_text.h"

namespace databox::source {
namespace {

struct Column {
  const char* name;
  const char* type;  //!< dlt type name
};

constexpr Column kRunColumns[] = {
    {"run_id", "text"},
    {"status", "text"},
    {"target_species_count", "bigint"},
    {"completed_target_species_count", "bigint"},
    {"record_count", "bigint"},
    {"started_at", "timestamp"},
    {"completed_at", "timestamp"},
    {"search_endpoint", "text"},
    {"page_size", "bigint"},
    {"max_images_per_target", "bigint"},
    {"request_max_attempts", "bigint"},
    {"detail_worker_count", "bigint"},
    {"_loaded_at", "timestamp"},
};

constexpr Column kRecordColumns[] = {
    {"run_id", "text"},
    {"species_code", "text"},
    {"target_common_name", "text"},
    {"target_scientific_name", "text"},
    {"media_id", "text"},
    {"discovery_method", "text"},
    {"source_page_url", "text"},
    {"search_result_page_href", "text"},
    {"search_result_title", "text"},
    {"search_result_caption", "text"},
    {"search_result_credit", "text"},
    {"search_result_image_url", "text"},
    {"search_result_alt_text", "text"},
    {"search_result_width", "bigint"},
    {"search_result_height", "bigint"},
    {"search_result_published_at", "text"},
    {"search_result_mime_label", "text"},
    {"detail_fetch_status", "text"},
    {"source_title", "text"},
    {"source_caption", "text"},
    {"source_alt_text", "text"},
    {"source_creator", "text"},
    {"source_license", "text"},
    {"source_license_url", "text"},
    {"source_published_at", "text"},
    {"source_created_text", "text"},
    {"source_media_type", "text"},
    {"source_mime_type", "text"},
    {"source_image_medium_url", "text"},
    {"source_image_medium_width", "bigint"},
    {"source_image_medium_height", "bigint"},
    {"source_image_original_url", "text"},
    {"source_image_original_width", "bigint"},
    {"source_image_original_height", "bigint"},
    {"scientific_name_tags_json", "text"},
    {"species_tag_urls_json", "text"},
    {"subject_tags_json", "text"},
    {"_search_endpoint", "text"},
    {"_loaded_at", "timestamp"},
};

template <std::size_t N>
registry::Resource Declare(std::string_view name, std::vector<std::string> key,
                           const Column (&columns)[N]) {
  registry::Resource resource;
  resource.name = std::string(name);
  resource.write_disposition = registry::WriteDisposition::kMerge;
  resource.merge_duplicates = registry::DuplicatePolicy::kReject;
  for (const Column& column : columns) {
    const bool is_key = std::ranges::find(key, column.name) != key.end();
    resource.columns[column.name] = registry::ColumnHint{column.type, !is_key, 0};
    resource.column_order.emplace_back(column.name);
  }
  resource.primary_key = std::move(key);
  return resource;
}

template <typename T>
Json OrNull(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

std::string Joined(const std::set<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "" : ",") + v;
  return out;
}

void AddCardFields(const Card& card, Json& row) {
  row["search_result_page_href"] = card.href;
  row["search_result_title"] = OrNull(card.title);
  row["search_result_caption"] = OrNull(card.caption);
  row["search_result_credit"] = OrNull(card.credit);
  row["search_result_image_url"] = OrNull(card.image_url);
  row["search_result_alt_text"] = OrNull(card.alt_text);
  row["search_result_width"] = OrNull(card.width);
  row["search_result_height"] = OrNull(card.height);
  row["search_result_published_at"] = OrNull(card.published_at);
  row["search_result_mime_label"] = OrNull(card.mime_label);
}

void AddDetailFields(const DetailOutcome& detail, Json& row) {
  static const DetailFields kNone{};
  const DetailFields& d = detail.fields ? *detail.fields : kNone;
  const bool read = detail.fields.has_value();
  row["detail_fetch_status"] = std::string(DetailStatusName(detail.status));
  row["source_title"] = OrNull(d.title);
  row["source_caption"] = OrNull(d.caption);
  row["source_alt_text"] = OrNull(d.alt_text);
  row["source_creator"] = OrNull(d.creator);
  row["source_license"] = OrNull(d.license);
  row["source_license_url"] = OrNull(d.license_url);
  row["source_published_at"] = OrNull(d.published_at);
  row["source_created_text"] = OrNull(d.created_text);
  row["source_media_type"] = OrNull(d.media_type);
  row["source_mime_type"] = OrNull(d.mime_type);
  row["source_image_medium_url"] = OrNull(d.medium_url);
  row["source_image_medium_width"] = OrNull(d.medium_width);
  row["source_image_medium_height"] = OrNull(d.medium_height);
  row["source_image_original_url"] = OrNull(d.original_url);
  row["source_image_original_width"] = OrNull(d.original_width);
  row["source_image_original_height"] = OrNull(d.original_height);
  row["scientific_name_tags_json"] = read ? d.scientific_name_tags_json : "[]";
  row["species_tag_urls_json"] = read ? d.species_tag_urls_json : "[]";
  row["subject_tags_json"] = read ? d.subject_tags_json : "[]";
}

}  // namespace

std::vector<registry::Resource> UsfwsResources() {
  return {Declare(kRunsTable, {"run_id"}, kRunColumns),
          Declare(kRecordsTable, {"run_id", "species_code", "source_page_url"}, kRecordColumns)};
}

Json RunRow(const RunFacts& facts) {
  Json row = Json::object();
  row["run_id"] = facts.run_id;
  row["status"] = "complete";
  row["target_species_count"] = facts.target_count;
  row["completed_target_species_count"] = facts.target_count;
  row["record_count"] = facts.record_count;
  row["started_at"] = facts.started_at;
  row["completed_at"] = facts.completed_at;
  row["search_endpoint"] =
      AsciiJsonArray({std::string(kSearchImagesEndpoint), std::string(kGlobalSearchEndpoint)});
  row["page_size"] = kSearchPageSize;
  row["max_images_per_target"] = facts.max_images_per_target;
  row["request_max_attempts"] = facts.request_max_attempts;
  row["detail_worker_count"] = facts.detail_workers;
  row["_loaded_at"] = facts.loaded_at;
  return row;
}

Json RecordRow(const std::string& run_id, const std::string& loaded_at, const Target& target,
               const Candidate& candidate, const DetailOutcome& detail) {
  Json row = Json::object();
  row["run_id"] = run_id;
  row["species_code"] = target.code;
  row["target_common_name"] = target.common_name;
  row["target_scientific_name"] = target.scientific_name;
  row["media_id"] = candidate.card.media_id;
  row["discovery_method"] = Joined(candidate.labels);
  row["source_page_url"] = candidate.card.source_page_url;
  AddCardFields(candidate.card, row);
  AddDetailFields(detail, row);
  row["_search_endpoint"] = Joined(candidate.endpoints);
  row["_loaded_at"] = loaded_at;
  return row;
}

}  // namespace databox::source
