#include "source/page_index.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fileio/durable.h"

namespace databox::source {
namespace {

using Json = nlohmann::ordered_json;

Json ChunkToJson(const std::map<std::string, std::string>& chunk) {
  Json out = Json::object();
  for (const auto& [k, v] : chunk) out[k] = v;
  return out;
}

std::map<std::string, std::string> ChunkFromJson(const Json& json) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : json.items()) out[k] = v.get<std::string>();
  return out;
}

}  // namespace

Status WriteFileBytes(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    return MakeError(ErrorKind::kIo, "cannot write " + path.string() +
                                         "; check the load package folder's space and permissions");
  }
  return Ok();
}

Result<std::string> ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    return MakeError(exists ? ErrorKind::kIo : ErrorKind::kNotFound,
                     "cannot read " + path.string() + (exists ? "" : ": no such file"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Status WritePageIndex(const std::filesystem::path& folder, const PageIndex& index) {
  Json json = {{"source", index.source},
               {"resource", index.resource},
               {"format", index.format},
               {"load_id", index.load_id},
               {"loaded_at_us", std::chrono::duration_cast<std::chrono::microseconds>(
                                    index.loaded_at.time_since_epoch())
                                    .count()},
               {"requests", index.requests},
               {"pages", Json::array()},
               {"skipped", Json::array()}};
  for (const PageEntry& p : index.pages) {
    json["pages"].push_back({{"file", p.file},
                             {"url", p.url},
                             {"status", p.status},
                             {"page", p.page},
                             {"chunk", ChunkToJson(p.chunk)},
                             {"records", p.records},
                             {"query", p.query}});
  }
  for (const SkippedRequest& s : index.skipped) {
    json["skipped"].push_back(
        {{"url", s.url}, {"status", s.status}, {"chunk", ChunkToJson(s.chunk)}});
  }
  // The index (and the package state after it) vouches for the pages: they reach the disk first.
  for (const PageEntry& p : index.pages) {
    DATABOX_RETURN_IF_ERROR(fileio::SyncFile((folder / p.file).native()));
  }
  return fileio::WriteFileDurably(folder / kIndexFileName, json.dump(1) + "\n");
}

Result<PageIndex> ReadPageIndex(const std::filesystem::path& folder) {
  const std::filesystem::path path = folder / kIndexFileName;
  DATABOX_ASSIGN_OR_RETURN(std::string text, ReadFileBytes(path));
  const Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  try {
    if (json.is_discarded()) throw std::runtime_error("not JSON");
    PageIndex index;
    index.source = json.at("source").get<std::string>();
    index.resource = json.at("resource").get<std::string>();
    index.format = json.at("format").get<std::string>();
    index.load_id = json.at("load_id").get<std::string>();
    index.loaded_at = std::chrono::system_clock::time_point(
        std::chrono::microseconds(json.at("loaded_at_us").get<int64_t>()));
    index.requests = json.at("requests").get<int64_t>();
    for (const Json& p : json.at("pages")) {
      index.pages.push_back({p.at("file").get<std::string>(), p.at("url").get<std::string>(),
                             p.at("status").get<long>(), p.at("page").get<int64_t>(),
                             ChunkFromJson(p.at("chunk")), p.at("records").get<int64_t>(),
                             p.value("query", int64_t{0})});
    }
    for (const Json& s : json.at("skipped")) {
      index.skipped.push_back({s.at("url").get<std::string>(), s.at("status").get<long>(),
                               ChunkFromJson(s.at("chunk"))});
    }
    return index;
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kData, path.string() + " is not a valid page index (" + e.what() +
                                           "); extract the resource again");
  }
}

}  // namespace databox::source
