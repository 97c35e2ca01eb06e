#include "refresh/transform_plan.h"

#include <sstream>
#include <system_error>

#include "common/process.h"
#include "common/redact.h"

namespace databox::refresh {
namespace {

//! Bytes of the preview's log kept as its output.
constexpr size_t kPreviewOutputBytes = 64 * 1024;

//! The log without the lines databox writes into it ("== databox ...").
std::string WithoutDataboxLines(const std::string& log) {
  std::istringstream in(log);
  std::string line, out;
  while (std::getline(in, line)) {
    if (!line.starts_with("== databox")) out += line + "\n";
  }
  return out;
}

ModelPreview PreviewModels(load::Workspace& workspace, const TransformOptions& options) {
  ModelPreview preview;
  const registry::Registry& registry = workspace.registry();
  if (!IsDefaultTransformCommand(registry)) {
    preview.skipped =
        "the model preview needs the default SQLMesh command; [project.transform] command is "
        "custom";
    return preview;
  }
  preview.command = PreviewCommand(registry);
  auto result = PreviewTransform(workspace, options);
  if (!result) {
    preview.error = result.error().message;
    return preview;
  }
  preview.interrupted = result->interrupted;
  preview.exit_code = result->exit_code();
  preview.output = WithoutDataboxLines(Redact(FileTail(result->log_path, kPreviewOutputBytes)));
  preview.changes = !result->interrupted && !result->timed_out() &&
                    PreviewFoundChanges(preview.exit_code, preview.output);
  preview.ok = result->ok || preview.changes;
  if (preview.ok) {
    std::error_code ec;
    std::filesystem::remove_all(result->log_path.parent_path(), ec);
  } else {
    preview.log_path = result->log_path;
  }
  return preview;
}

RawColumnsPreview CompareRawColumns(load::Workspace& workspace) {
  RawColumnsPreview preview;
  auto saved = LoadRawColumnsSnapshot(RawColumnsSnapshotPath(workspace.registry()));
  if (!saved) {
    preview.problem = saved.error().message;
    return preview;
  }
  auto now = ReadRawColumns(workspace);
  if (!now) {
    preview.problem = "cannot read the raw tables' columns: " + now.error().message;
    return preview;
  }
  if (!*saved) return preview;
  preview.compared_with = (*saved)->saved_at;
  preview.changes = DiffRawColumns((*saved)->tables, *now);
  return preview;
}

}  // namespace

TransformPlan PlanTransform(load::Workspace& workspace, const TransformOptions& options) {
  TransformPlan plan;
  plan.raw_columns = CompareRawColumns(workspace);
  plan.models = PreviewModels(workspace, options);
  return plan;
}

}  // namespace databox::refresh
