#include "cli/load_list.h"

#include <array>
#include <cstdio>

#include "cli/table_format.h"

namespace databox::cli {
namespace {

//! Characters of an error the table shows.
constexpr std::size_t kMaxErrorWidth = 80;

}  // namespace

std::string FormatBytes(std::uintmax_t bytes) {
  constexpr std::array<const char*, 4> kUnits = {"B", "KiB", "MiB", "GiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return text;
}

std::string FormatLoadList(const std::vector<load::PackageSummary>& packages,
                           const std::string& empty) {
  if (packages.empty()) return empty;
  std::vector<std::vector<std::string>> rows = {
      {"SOURCE", "LOAD ID", "STATE", "CREATED", "CHANGED", "RESUME", "SIZE", "ERROR"}};
  for (const auto& p : packages) {
    rows.push_back({p.source, p.load_id, std::string(load::PackageStateName(p.state)), p.created_at,
                    p.changed_at.empty() ? "-" : p.changed_at, p.resumable ? "yes" : "-",
                    FormatBytes(p.bytes), p.error.empty() ? "-" : Fit(p.error, kMaxErrorWidth)});
  }
  return AlignRows(rows);
}

nlohmann::ordered_json LoadListJson(const std::vector<load::PackageSummary>& packages) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& p : packages) {
    out.push_back(
        {{"source", p.source},
         {"load_id", p.load_id},
         {"state", load::PackageStateName(p.state)},
         {"extracted", p.extracted},
         {"resumable", p.resumable},
         {"created_at", p.created_at},
         {"changed_at", p.changed_at},
         {"bytes", p.bytes},
         {"error", p.error.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(p.error)}});
  }
  return out;
}

}  // namespace databox::cli
