// The expected layout of sheet AVONET2_eBird, the table it becomes (the reference's names, types
// and NOT NULL columns) and the options derived from the registry.
#include <algorithm>
#include <array>
#include <charconv>

#include "sources/avonet/avonet.h"

namespace databox::source {
namespace {

AvonetColumn Text(std::string header, std::string name, bool required = false) {
  return {std::move(header), std::move(name), CellType::kText, required,
          std::nullopt,      false,           std::nullopt};
}

//! A count of specimens: a whole number >= 0, required.
AvonetColumn Count(std::string header, std::string name) {
  return {std::move(header), std::move(name), CellType::kInteger, true, 0.0, false, std::nullopt};
}

//! A body measurement in mm (or g for mass): strictly positive.
AvonetColumn Positive(std::string header, std::string name) {
  return {std::move(header), std::move(name), CellType::kNumber, false, 0.0, true, std::nullopt};
}

//! A number within [min, max].
AvonetColumn Range(std::string header, std::string name, CellType type, double min,
                   std::optional<double> max, bool required = false) {
  return {std::move(header), std::move(name), type, required, min, false, max};
}

//! The data columns of species_traits in the reference's order (provenance follows).
constexpr std::array<std::string_view, 31> kTableOrder = {
    "source_scientific_name",
    "family",
    "order_name",
    "avibase_id",
    "total_individuals",
    "female_individuals",
    "male_individuals",
    "unknown_sex_individuals",
    "complete_measures",
    "beak_length_culmen_mm",
    "beak_length_nares_mm",
    "beak_width_mm",
    "beak_depth_mm",
    "tarsus_length_mm",
    "wing_length_mm",
    "kipps_distance_mm",
    "secondary_length_mm",
    "hand_wing_index",
    "tail_length_mm",
    "mass_g",
    "mass_source",
    "mass_reference_other",
    "traits_inferred",
    "reference_species",
    "habitat",
    "trophic_level",
    "trophic_niche",
    "primary_lifestyle",
    "inference",
    "habitat_density_code",
    "migration_code",
};

std::string DltType(CellType type) {
  switch (type) {
    case CellType::kText:
      return "text";
    case CellType::kInteger:
      return "bigint";
    case CellType::kNumber:
      return "double";
    case CellType::kYesNo:
      return "bool";
  }
  return "text";
}

//! Sets the provenance field `name` from a registry value; a problem text otherwise.
std::string SetProvenance(AvonetProvenance& provenance, const std::string& name,
                          const std::string& value) {
  if (name == "dataset_doi") {
    provenance.dataset_doi = value;
  } else if (name == "dataset_version") {
    provenance.dataset_version = value;
  } else if (name == "dataset_license") {
    provenance.dataset_license = value;
  } else if (name == "source_file_id") {
    int64_t id = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), id);
    if (ec != std::errc() || ptr != value.data() + value.size() || id < 0) {
      return "provenance source_file_id is '" + value + "', expected a whole number";
    }
    provenance.source_file_id = id;
  } else {
    return "unknown provenance key '" + name +
           "' (expected dataset_doi, dataset_version, dataset_license, source_file_id)";
  }
  if (value.empty()) return "provenance " + name + " is empty";
  return "";
}

}  // namespace

const std::vector<AvonetColumn>& DefaultAvonetColumns() {
  // Header texts of Supplementary dataset 1, sheet AVONET2_eBird (eBird taxonomy), in order.
  // Categorical codes: Habitat.Density 1 dense .. 3 open; Migration 1 sedentary .. 3 migratory.
  static const std::vector<AvonetColumn> kColumns = {
      Text("Species2", "source_scientific_name", true),
      Text("Family2", "family", true),
      Text("Order2", "order_name", true),
      Text("Avibase.ID2", "avibase_id", true),
      Count("Total.individuals", "total_individuals"),
      Count("Female", "female_individuals"),
      Count("Male", "male_individuals"),
      Count("Unknown", "unknown_sex_individuals"),
      Range("Complete.measures", "complete_measures", CellType::kInteger, 0, std::nullopt, true),
      Positive("Beak.Length_Culmen", "beak_length_culmen_mm"),
      Positive("Beak.Length_Nares", "beak_length_nares_mm"),
      Positive("Beak.Width", "beak_width_mm"),
      Positive("Beak.Depth", "beak_depth_mm"),
      Positive("Tarsus.Length", "tarsus_length_mm"),
      Positive("Wing.Length", "wing_length_mm"),
      Range("Kipps.Distance", "kipps_distance_mm", CellType::kNumber, 0, std::nullopt),
      Positive("Secondary1", "secondary_length_mm"),
      Range("Hand-Wing.Index", "hand_wing_index", CellType::kNumber, 0, 100),
      Range("Tail.Length", "tail_length_mm", CellType::kNumber, 0, std::nullopt),
      Positive("Mass", "mass_g"),
      Text("Mass.Source", "mass_source"),
      Text("Mass.Refs.Other", "mass_reference_other"),
      {"Inference", "inference", CellType::kYesNo, true, std::nullopt, false, std::nullopt},
      Text("Traits.inferred", "traits_inferred"),
      Text("Reference.species", "reference_species"),
      Text("Habitat", "habitat"),
      Range("Habitat.Density", "habitat_density_code", CellType::kInteger, 1, 3, true),
      Range("Migration", "migration_code", CellType::kInteger, 1, 3),
      Text("Trophic.Level", "trophic_level"),
      Text("Trophic.Niche", "trophic_niche"),
      Text("Primary.Lifestyle", "primary_lifestyle", true),
  };
  return kColumns;
}

const std::vector<AvonetTableColumn>& AvonetTableColumns() {
  static const std::vector<AvonetTableColumn> kTable = [] {
    std::vector<AvonetTableColumn> table;
    const std::vector<AvonetColumn>& sheet = DefaultAvonetColumns();
    for (std::string_view name : kTableOrder) {
      const auto column = std::ranges::find(sheet, name, &AvonetColumn::name);
      table.push_back({std::string(name), DltType(column->type), !column->required});
    }
    for (const char* text : {"dataset_doi", "dataset_version", "dataset_license"}) {
      table.push_back({text, "text", false});
    }
    table.push_back({"source_file_id", "bigint", false});
    table.push_back({"source_file_md5", "text", false});
    table.push_back({"source_url", "text", false});
    table.push_back({"loaded_at", "timestamp", false});
    return table;
  }();
  return kTable;
}

registry::Resource AvonetResource(const registry::Resource& declared) {
  registry::Resource resource = declared;
  resource.column_order.clear();
  for (const AvonetTableColumn& column : AvonetTableColumns()) {
    resource.columns[column.name] = registry::ColumnHint{column.type, column.nullable, 0};
    resource.column_order.push_back(column.name);
  }
  return resource;
}

Result<AvonetOptions> AvonetOptionsFor(const registry::Source& source) {
  if (source.kind != registry::SourceKind::kFile || !source.file) {
    return MakeError(ErrorKind::kConfig, "source " + source.name +
                                             ": the AVONET runner needs kind = \"file\" with a "
                                             "[source.file] table");
  }
  const registry::FileSettings& file = *source.file;
  AvonetOptions options;
  options.label = source.name;
  if (file.size_bytes) options.pinned.size_bytes = file.size_bytes;
  if (!file.md5.empty()) options.pinned.md5 = file.md5;
  if (!file.sheet.empty()) options.sheet = file.sheet;
  if (file.row_count) options.row_count = file.row_count;
  for (const auto& [name, value] : file.provenance) {
    if (std::string problem = SetProvenance(options.provenance, name, value); !problem.empty()) {
      return MakeError(ErrorKind::kConfig, "source " + source.name + ": [source.file] " + problem);
    }
  }
  return options;
}

}  // namespace databox::source
