// The generated SQLMesh model analytics.platform_health: the latest load of every routine
// source, read from each source's raw_<source>._dlt_load_status through the catalog alias.
//
// It is generated from the registry (not written by hand) because the set of sources lives
// there; the transform runner regenerates it before every run. Columns: source, load_id,
// status, rows_loaded, completed_at (the load status row's inserted_at), age_seconds (seconds
// from completed_at to the model's run). A routine source that never loaded has one row with
// NULLs, so a missing source is visible rather than absent.
#pragma once

#include <filesystem>
#include <string>

#include "common/error.h"
#include "registry/model.h"

namespace databox::refresh {

//! Path of the generated model inside a SQLMesh project.
std::filesystem::path PlatformHealthModelPath(const std::filesystem::path& project_dir);

//! The model's text (MODEL block and query) for the registry's routine sources.
std::string PlatformHealthModelSql(const registry::Registry& registry);

//! Writes the model into the registry's transform project (creating models/analytics/), and
//! leaves the file untouched when its content is already current (no spurious SQLMesh change).
Status WritePlatformHealthModel(const registry::Registry& registry);

}  // namespace databox::refresh
