#include "report/lineage_svg.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/markup_escape.h"
#include "registry/model.h"
#include "report/model_health.h"

namespace databox::report {
namespace {

constexpr int kRowHeight = 28;
constexpr int kBoxHeight = 20;
constexpr int kTop = 30;
constexpr int kSourceX = 10, kSourceWidth = 200;
constexpr int kTableX = 300, kTableWidth = 330;
constexpr int kModelX = 720, kModelWidth = 330;
constexpr int kLoopReach = 60;  //!< how far a model-to-model curve bows right of the models
constexpr int kWidth = kModelX + kModelWidth + kLoopReach + 10;

struct Column {
  std::map<std::string, int> row;  //!< name -> row index
};

int CenterY(int row) { return kTop + row * kRowHeight + kBoxHeight / 2; }

std::string Box(const std::string& kind, const std::string& name, int x, int width, int row,
                bool disabled, const std::string& status) {
  const int y = kTop + row * kRowHeight;
  return "<g class=\"node " + kind + (disabled ? " disabled" : "") + " " + EscapeMarkup(status) +
         "\" data-name=\"" + EscapeMarkup(name) + "\" data-status=\"" + EscapeMarkup(status) +
         "\"><rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(kBoxHeight) +
         "\" rx=\"4\"></rect><text x=\"" + std::to_string(x + 6) + "\" y=\"" +
         std::to_string(y + 14) + "\">" + EscapeMarkup(name) + (disabled ? " (disabled)" : "") +
         "</text></g>\n";
}

//! A curve from (from_x, from_row) to (to_x, to_row) bending at `bend_x`, coloured by `status`
//! (the status of the node it leads to).
std::string Edge(const std::string& from, int from_x, int from_row, const std::string& to, int to_x,
                 int to_row, int bend_x, const std::string& status) {
  const int y1 = CenterY(from_row), y2 = CenterY(to_row);
  return "<path class=\"edge " + EscapeMarkup(status) + "\" data-from=\"" + EscapeMarkup(from) +
         "\" data-to=\"" + EscapeMarkup(to) + "\" data-status=\"" + EscapeMarkup(status) +
         "\" d=\"M" + std::to_string(from_x) + "," + std::to_string(y1) + " C" +
         std::to_string(bend_x) + "," + std::to_string(y1) + " " + std::to_string(bend_x) + "," +
         std::to_string(y2) + " " + std::to_string(to_x) + "," + std::to_string(y2) +
         "\"></path>\n";
}

//! A source's status on the drawing: "failed" when its newest load failed, else its freshness.
std::string SourceStatus(const SourceState& source) {
  return source.last_failure_at.empty() ? std::string(FreshnessName(source.freshness)) : "failed";
}

std::string Heading(int x, const std::string& text) {
  return "<text class=\"heading\" x=\"" + std::to_string(x) + "\" y=\"16\">" + text + "</text>\n";
}

}  // namespace

std::vector<LineageTable> LineageTables(const Report& report) {
  std::map<std::string, std::string> source_of_namespace;
  for (const auto& source : report.sources)
    source_of_namespace[registry::RawNamespace(source.name)] = source.name;
  std::map<std::string, LineageTable> tables;
  auto add = [&](const std::string& name, bool disabled) {
    const std::string ns = name.substr(0, name.find('.'));
    auto it = source_of_namespace.find(ns);
    auto [entry, inserted] = tables.try_emplace(
        name, LineageTable{name, it == source_of_namespace.end() ? "" : it->second, disabled});
    if (!inserted && !disabled) entry->second.disabled = false;
  };
  for (const auto& source : report.sources) {
    for (const auto& resource : source.resources) {
      add(registry::RawNamespace(source.name) + "." + resource.name, !resource.enabled);
    }
  }
  for (const auto& table : report.tables) {
    const auto dot = table.table.find('.');
    if (dot == std::string::npos || table.table.compare(dot + 1, 5, "_dlt_") == 0) continue;
    if (source_of_namespace.contains(table.table.substr(0, dot))) add(table.table, false);
  }
  for (const auto& model : report.models) {
    for (const auto& read : model.reads) add(read, false);
  }
  std::vector<LineageTable> ordered;
  for (const auto& source : report.sources) {
    for (const auto& [name, table] : tables) {
      if (table.source == source.name) ordered.push_back(table);
    }
  }
  for (const auto& [name, table] : tables) {
    if (table.source.empty()) ordered.push_back(table);
  }
  return ordered;
}

std::string LineageSvg(const Report& report) {
  const auto tables = LineageTables(report);
  Column sources, table_rows, models;
  for (const auto& source : report.sources)
    sources.row.emplace(source.name, static_cast<int>(sources.row.size()));
  for (const auto& table : tables)
    table_rows.row.emplace(table.name, static_cast<int>(table_rows.row.size()));
  for (const auto& model : report.models)
    models.row.emplace(model.model, static_cast<int>(models.row.size()));
  const std::size_t rows =
      std::max({sources.row.size(), table_rows.row.size(), models.row.size(), std::size_t{1}});
  const int height = kTop + static_cast<int>(rows) * kRowHeight + 10;

  std::string svg = "<svg id=\"lineage-graph\" width=\"" + std::to_string(kWidth) + "\" height=\"" +
                    std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(kWidth) + " " +
                    std::to_string(height) +
                    "\" role=\"img\" aria-label=\"lineage: sources, raw tables, models\">\n";
  svg += Heading(kSourceX, "sources") + Heading(kTableX, "raw tables") + Heading(kModelX, "models");
  std::map<std::string, std::string> source_status;
  for (const auto& source : report.sources) source_status[source.name] = SourceStatus(source);
  auto table_status = [&](const LineageTable& table) {
    return table.source.empty() ? std::string("unknown") : source_status[table.source];
  };
  for (const auto& table : tables) {
    if (table.source.empty()) continue;
    svg += Edge(table.source, kSourceX + kSourceWidth, sources.row[table.source], table.name,
                kTableX, table_rows.row[table.name], (kSourceX + kSourceWidth + kTableX) / 2,
                table_status(table));
  }
  const int model_right = kModelX + kModelWidth;
  for (const auto& model : report.models) {
    const std::string status = ModelStatusOf(report.model_health, model.model);
    for (const auto& read : model.reads) {
      svg += Edge(read, kTableX + kTableWidth, table_rows.row[read], model.model, kModelX,
                  models.row[model.model], (kTableX + kTableWidth + kModelX) / 2, status);
    }
    for (const auto& read : model.models_read) {
      if (!models.row.contains(read)) continue;
      svg += Edge(read, model_right, models.row[read], model.model, model_right,
                  models.row[model.model], model_right + kLoopReach, status);
    }
  }
  for (const auto& source : report.sources) {
    svg += Box("source", source.name, kSourceX, kSourceWidth, sources.row[source.name], false,
               source_status[source.name]);
  }
  for (const auto& table : tables) {
    svg += Box("table", table.name, kTableX, kTableWidth, table_rows.row[table.name],
               table.disabled, table_status(table));
  }
  for (const auto& model : report.models) {
    svg += Box("model", model.model, kModelX, kModelWidth, models.row[model.model], false,
               ModelStatusOf(report.model_health, model.model));
  }
  return svg + "</svg>\n";
}

}  // namespace databox::report
