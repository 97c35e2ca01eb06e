#include "table_checks.h"

namespace databox::reliability {

using nlohmann::json;

const std::vector<std::string> kRoutineSources = {
    "ebird", "gbif", "noaa", "usgs", "usgs_earthquakes", "xeno_canto"};

json ContentRequest(const std::filesystem::path& state_dir, const std::vector<std::string>& sources,
                    bool files) {
  json request = {{"state_dir", state_dir.string()},
                  {"namespaces", json::array()},
                  {"keys", json::object()},
                  {"content", true},
                  {"files", files}};
  for (const auto& s : sources) {
    request["namespaces"].push_back(Ns(s));
    request["keys"][Ns(s) + "._dlt_loads"] = {"load_id"};
    request["keys"][Ns(s) + "._dlt_load_status"] = {"load_id"};
  }
  return request;
}

std::vector<std::string> ContentProblems(const std::string& source, const json& tables,
                                         const json& reference, bool complete) {
  std::vector<std::string> problems;
  const std::string ns = Ns(source);
  for (const auto& [name, expected] : reference.items()) {
    if (name.starts_with("_dlt_")) continue;
    if (!tables.contains(name)) {
      if (complete) problems.push_back(ns + "." + name + " is missing");
      continue;
    }
    const json& entry = tables[name];
    if (entry["content_digest"] != expected["content_digest"]) {
      problems.push_back(ns + "." + name + " has " + entry["rows"].dump() +
                         " rows that differ from the clean load's " + expected["rows"].dump() +
                         " rows (lost, duplicated or changed rows)");
    }
  }
  for (const auto& [name, entry] : tables.items()) {
    if (!reference.contains(name)) problems.push_back("unexpected table " + ns + "." + name);
  }
  auto rows = [&](const char* t) { return tables.contains(t) ? tables[t]["rows"].get<int>() : 0; };
  for (const char* t : {"_dlt_loads", "_dlt_load_status"}) {
    if (tables.contains(t) && tables[t]["duplicate_keys"] != 0) {
      problems.push_back(ns + "." + t + " holds a load id " + tables[t]["duplicate_keys"].dump() +
                         " time(s) more than once");
    }
  }
  if (rows("_dlt_loads") != rows("_dlt_load_status")) {
    problems.push_back(ns + "._dlt_loads has " + std::to_string(rows("_dlt_loads")) +
                       " rows but _dlt_load_status " + std::to_string(rows("_dlt_load_status")));
  }
  if (complete && rows("_dlt_load_status") == 0) {
    problems.push_back("a successful run left no " + ns + "._dlt_load_status row");
  }
  return problems;
}

}  // namespace databox::reliability
