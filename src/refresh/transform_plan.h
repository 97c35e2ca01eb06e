// `databox transform --plan`: what the next transform would do, applying nothing.
//   models       SQLMesh's own preview (PreviewTransform: `sqlmesh -p <project> diff prod`),
//                which changes no SQLMesh state; only with the registry's default command (a
//                custom command cannot be previewed: ModelPreview::skipped says so).
//   raw columns  the catalog's current raw columns against those the last successful transform
//                saw (raw_columns.h).
// Writes nothing but the raw views file when it is not current (as the transform would) and
// the preview's run folder, removed again when the preview succeeded.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "load/workspace.h"
#include "refresh/raw_columns.h"
#include "refresh/transform_runner.h"

namespace databox::refresh {

struct ModelPreview {
  std::vector<std::string> command;  //!< PreviewCommand; empty when skipped
  std::string skipped;               //!< why it did not run (a custom transform command)
  bool ok = false;                   //!< ran and answered (no model differs, or `changes`)
  bool changes = false;              //!< SQLMesh listed models that differ from prod
  bool interrupted = false;          //!< SIGINT or SIGTERM stopped it
  int exit_code = -1;
  std::string output;              //!< SQLMesh's output (redacted), without databox's own log lines
  std::string error;               //!< why it could not start
  std::filesystem::path log_path;  //!< the full log, kept when the preview did not succeed
};

struct RawColumnsPreview {
  std::string problem;                       //!< why nothing was compared (empty: compared)
  std::optional<std::string> compared_with;  //!< saved_at of the snapshot; nullopt: none yet
  std::vector<RawTableChange> changes;
};

struct TransformPlan {
  ModelPreview models;
  RawColumnsPreview raw_columns;

  //! The preview ran (or was skipped for a custom command) and the columns were compared.
  bool ok() const { return (models.ok || !models.skipped.empty()) && raw_columns.problem.empty(); }
};

//! Computes both parts; errors are reported inside the plan.
TransformPlan PlanTransform(load::Workspace& workspace, const TransformOptions& options = {});

}  // namespace databox::refresh
