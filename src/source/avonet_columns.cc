// The expected layout of sheet AVONET2_eBird and the options derived from the registry.
#include <set>

#include "source/avonet.h"

namespace databox::source {
namespace {

AvonetColumn Text(std::string header, std::string name, bool required = false) {
  return {std::move(header), std::move(name), CellType::kText, required,
          std::nullopt,      false,           std::nullopt};
}

//! A count of specimens: a whole number >= 0.
AvonetColumn Count(std::string header, std::string name) {
  return {std::move(header), std::move(name), CellType::kInteger, false, 0.0, false, std::nullopt};
}

//! A body measurement in mm (or g for mass): strictly positive.
AvonetColumn Positive(std::string header, std::string name) {
  return {std::move(header), std::move(name), CellType::kNumber, false, 0.0, true, std::nullopt};
}

//! A number within [min, max].
AvonetColumn Range(std::string header, std::string name, CellType type, double min,
                   std::optional<double> max) {
  return {std::move(header), std::move(name), type, false, min, false, max};
}

}  // namespace

const std::vector<AvonetColumn>& DefaultAvonetColumns() {
  // Header texts of Supplementary dataset 1, sheet AVONET2_eBird (eBird taxonomy), in order.
  // Categorical codes: Habitat.Density 1 dense .. 3 open; Migration 1 sedentary .. 3 migratory.
  static const std::vector<AvonetColumn> kColumns = {
      Text("Species2", "scientific_name", true),
      Text("Family2", "family_name", true),
      Text("Order2", "order_name", true),
      Text("Avibase.ID2", "avibase_id", true),
      Count("Total.individuals", "total_individuals"),
      Count("Female", "female"),
      Count("Male", "male"),
      Count("Unknown", "unknown"),
      Range("Complete.measures", "complete_measures", CellType::kNumber, 0, std::nullopt),
      Positive("Beak.Length_Culmen", "beak_length_culmen"),
      Positive("Beak.Length_Nares", "beak_length_nares"),
      Positive("Beak.Width", "beak_width"),
      Positive("Beak.Depth", "beak_depth"),
      Positive("Tarsus.Length", "tarsus_length"),
      Positive("Wing.Length", "wing_length"),
      Range("Kipps.Distance", "kipps_distance", CellType::kNumber, 0, std::nullopt),
      Positive("Secondary1", "secondary1"),
      Range("Hand-Wing.Index", "hand_wing_index", CellType::kNumber, 0, 100),
      Range("Tail.Length", "tail_length", CellType::kNumber, 0, std::nullopt),
      Positive("Mass", "mass"),
      Text("Mass.Source", "mass_source"),
      Text("Mass.Refs.Other", "mass_refs_other"),
      Text("Inference", "inference"),
      Text("Traits.inferred", "traits_inferred"),
      Text("Reference.species", "reference_species"),
      Text("Habitat", "habitat"),
      Range("Habitat.Density", "habitat_density", CellType::kInteger, 1, 3),
      Range("Migration", "migration", CellType::kInteger, 1, 3),
      Text("Trophic.Level", "trophic_level"),
      Text("Trophic.Niche", "trophic_niche"),
      Text("Primary.Lifestyle", "primary_lifestyle"),
  };
  return kColumns;
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
  options.provenance = {{"dataset_doi", "10.6084/m9.figshare.16586228.v7"},
                        {"dataset_version", "v7"},
                        {"license", "CC BY 4.0"},
                        {"file_id", "34480856"}};
  for (const auto& [name, value] : file.provenance) options.provenance[name] = value;
  std::set<std::string> taken = {"file_md5", "source_url", "loaded_at"};
  for (const AvonetColumn& c : options.columns) taken.insert(c.name);
  for (const auto& [name, value] : options.provenance) {
    if (taken.contains(name)) {
      return MakeError(ErrorKind::kConfig, "source " + source.name + ": provenance column '" +
                                               name +
                                               "' collides with a data or provenance column; "
                                               "rename it in [source.file].provenance");
    }
  }
  return options;
}

}  // namespace databox::source
