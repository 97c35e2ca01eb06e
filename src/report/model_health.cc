#include "report/model_health.h"

#include <algorithm>
#include <map>

namespace databox::report {
namespace {

constexpr const char* kUnknown = "unknown";

}  // namespace

std::vector<ModelHealth> ModelHealthOf(const std::vector<ModelReads>& scanned,
                                       const std::vector<refresh::RunRecord>& records) {
  std::map<std::string, ModelHealth> health;
  for (const auto& model : scanned) {
    ModelHealth& h = health[model.model];
    h.model = model.model;
    h.status = kUnknown;
  }
  for (const auto& record : records) {
    for (const auto& result : record.transform_models) {
      ModelHealth& h = health[result.name];
      const std::string built_at = result.built_at.empty() ? h.built_at : result.built_at;
      const std::optional<int64_t> rows = result.rows ? result.rows : h.rows;
      h = ModelHealth{.model = result.name,
                      .status = std::string(refresh::ModelStatusName(result.status)),
                      .built_at = built_at,
                      .rows = rows,
                      .audits = result.audits,
                      .error = result.error,
                      .run_id = record.run_id};
    }
  }
  std::vector<ModelHealth> out;
  for (auto& [name, h] : health) out.push_back(std::move(h));
  std::stable_sort(out.begin(), out.end(), [](const ModelHealth& a, const ModelHealth& b) {
    return (a.status == "failed") > (b.status == "failed");
  });
  return out;
}

std::string ModelStatusOf(const std::vector<ModelHealth>& health, const std::string& model) {
  const auto it = std::find_if(health.begin(), health.end(),
                               [&](const ModelHealth& h) { return h.model == model; });
  return it == health.end() ? kUnknown : it->status;
}

}  // namespace databox::report
