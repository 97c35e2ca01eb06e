#include "publish/publisher.h"

#include <filesystem>
#include <map>
#include <system_error>

#include "common/clock.h"
#include "common/failpoint.h"
#include "duck/database.h"
#include "duck/extensions.h"
#include "iceberg/data/scan_sql.h"
#include "publish/delete_rewrite.h"
#include "publish/layout.h"
#include "publish/model_export.h"
#include "publish/readback.h"
#include "publish/relation_stats.h"
#include "publish/retention.h"
#include "publish/selection.h"
#include "publish/table_plan.h"
#include "publish/table_write.h"
#include "publish/target.h"
#include "refresh/analytics.h"

namespace databox::publish {
namespace {

//! One raw table on its way to the target.
struct TableJob {
  iceberg::Table table;
  TablePlan plan;
};

//! What one publish holds open while it runs.
struct Context {
  load::Workspace& workspace;
  const Target& target;
  const Request& request;
  Layout layout;
  std::filesystem::path scratch;  //!< local folder for staged files, removed at the end
  Outcome outcome;
};

//! The scratch folder under the state folder, emptied.
Result<std::filesystem::path> MakeScratch(const load::Workspace& workspace) {
  const std::filesystem::path scratch = workspace.state_dir() / "publish-scratch";
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
  std::filesystem::create_directories(scratch, ec);
  if (ec)
    return MakeError(ErrorKind::kIo, "cannot create " + scratch.string() + ": " + ec.message());
  return scratch;
}

Result<std::vector<TableJob>> PlanTables(Context& ctx,
                                         const std::vector<iceberg::TableIdentifier>& ids) {
  std::vector<TableJob> jobs;
  for (const iceberg::TableIdentifier& id : ids) {
    auto table = iceberg::Table::Load(ctx.workspace.catalog(), ctx.workspace.file_io(), id);
    if (!table) return std::unexpected(table.error().WithContext("loading " + id.ToString()));
    auto plan = PlanTable(id, table->metadata(), *ctx.workspace.file_io(), ctx.layout);
    if (!plan) return std::unexpected(plan.error().WithContext("reading " + id.ToString()));
    jobs.push_back({std::move(*table), std::move(*plan)});
  }
  return jobs;
}

//! The data files (not delete files) of every job, each once.
std::vector<FileCopy> DataCopies(const std::vector<TableJob>& jobs) {
  std::vector<FileCopy> copies;
  for (const TableJob& job : jobs) {
    for (const ManifestGroup& group : job.plan.groups) {
      for (const iceberg::ManifestEntry& entry : group.entries) {
        const iceberg::DataFile& file = entry.data_file;
        if (file.content != iceberg::DataFileContent::kData) continue;
        copies.push_back({file.file_path, job.plan.targets.at(file.file_path),
                          static_cast<uint64_t>(file.file_size_in_bytes)});
      }
    }
  }
  return copies;
}

//! Every delete file of `plan`, rewritten at the target (or found there from an earlier publish).
Result<std::map<std::string, iceberg::DataFile>> PublishDeletes(Context& ctx, const TablePlan& plan,
                                                                duck::Connection& conn) {
  std::map<std::string, iceberg::DataFile> deletes;
  for (const ManifestGroup& group : plan.groups) {
    for (const iceberg::ManifestEntry& entry : group.entries) {
      const iceberg::DataFile& file = entry.data_file;
      if (file.content != iceberg::DataFileContent::kPositionDeletes) continue;
      const std::string& target = plan.targets.at(file.file_path);
      auto size = ctx.target.io->Size(target);
      if (size) {
        deletes[file.file_path] = PublishedDeleteFile(file, target, *size, plan.targets);
        ctx.outcome.copied.files_present += 1;
        ctx.outcome.copied.bytes_present += *size;
        continue;
      }
      if (size.error().kind != ErrorKind::kNotFound) return std::unexpected(size.error());
      DATABOX_ASSIGN_OR_RETURN(
          iceberg::DataFile rewritten,
          RewritePositionDeletes(conn, file, target, plan.targets, *ctx.target.io, ctx.scratch));
      ctx.outcome.copied.files_copied += 1;
      ctx.outcome.copied.bytes_copied += static_cast<uint64_t>(rewritten.file_size_in_bytes);
      deletes[file.file_path] = std::move(rewritten);
      Failpoint("publish-after-file");
    }
  }
  return deletes;
}

//! The private locations no published metadata may name.
std::vector<std::string> PrivatePrefixes(const load::Workspace& workspace) {
  const registry::ProjectSettings& project = workspace.registry().project;
  return {project.warehouse.location, project.state_dir.string()};
}

//! The manifest's entry for a relation published at `location`, as `stats` describe it.
Relation Describe(const Context& ctx, std::string name, RelationKind kind,
                  const std::string& location, RelationStats stats) {
  Relation relation;
  relation.name = std::move(name);
  relation.kind = kind;
  relation.location = ctx.layout.Relative(location).value_or(location);
  relation.schema = std::move(stats.schema);
  relation.schema_sha256 = SchemaSha256(relation.schema);
  relation.rows = stats.rows;
  relation.load_ids = std::move(stats.load_ids);
  return relation;
}

Result<Relation> PublishTable(Context& ctx, TableJob& job, duck::Connection& conn,
                              int64_t version) {
  DATABOX_ASSIGN_OR_RETURN(auto deletes, PublishDeletes(ctx, job.plan, conn));
  DATABOX_ASSIGN_OR_RETURN(std::string metadata,
                           WriteTableMetadata(job.plan, deletes, PrivatePrefixes(ctx.workspace),
                                              *ctx.target.io, ctx.layout, version));
  DATABOX_ASSIGN_OR_RETURN(std::string read_sql, iceberg::ReadSql(job.table));
  DATABOX_ASSIGN_OR_RETURN(RelationStats stats, ReadRelationStats(conn, read_sql));
  Relation relation = Describe(ctx, job.plan.ns + "." + job.plan.table, RelationKind::kIcebergTable,
                               metadata, std::move(stats));
  relation.snapshot_id = job.plan.metadata.current_snapshot_id;
  for (const auto& [source, target] : job.plan.targets) {
    relation.files.push_back(ctx.layout.Relative(target).value_or(target));
  }
  Failpoint("publish-after-table");
  return relation;
}

Result<std::vector<Relation>> PublishModels(Context& ctx, duck::Connection& analytics,
                                            const std::vector<std::string>& models,
                                            int64_t version) {
  std::vector<Relation> relations;
  if (models.empty()) return relations;
  const std::string local = (ctx.scratch / "models.duckdb").string();
  DATABOX_RETURN_IF_ERROR(ExportModels(analytics, models, local));
  const std::string target = ctx.layout.ModelsDatabase(version);
  DATABOX_RETURN_IF_ERROR(ctx.target.io->UploadFile(local, target));
  for (const std::string& model : models) {
    DATABOX_ASSIGN_OR_RETURN(RelationStats stats, ReadRelationStats(analytics, RelationSql(model)));
    relations.push_back(Describe(ctx, model, RelationKind::kDuckDbTable, target, std::move(stats)));
  }
  return relations;
}

//! A connection that reads the published version as a consumer does.
Result<std::vector<std::string>> ReadBackVersion(Context& ctx, const Manifest& manifest) {
  DATABOX_ASSIGN_OR_RETURN(duck::Database db, duck::Database::Open(""));
  DATABOX_ASSIGN_OR_RETURN(duck::Connection conn, duck::Connection::Open(db));
  DATABOX_RETURN_IF_ERROR(duck::LoadExtension(conn, "iceberg"));
  if (ctx.target.duckdb_s3) {
    DATABOX_RETURN_IF_ERROR(duck::LoadExtension(conn, "httpfs"));
    DATABOX_RETURN_IF_ERROR(load::CreateDuckDbS3Secret(conn, *ctx.target.duckdb_s3));
  }
  return ReadBack(conn, manifest, ctx.layout);
}

//! Each relation as planned (rows by the manifests for a raw table; a model's once exported).
void ListPlanned(Context& ctx, const std::vector<TableJob>& jobs,
                 const std::vector<std::string>& models) {
  for (const TableJob& job : jobs) {
    RelationOutcome out;
    out.name = job.plan.ns + "." + job.plan.table;
    out.rows = job.plan.rows;
    out.files = job.plan.targets.size();
    out.snapshot_id = job.plan.metadata.current_snapshot_id;
    ctx.outcome.relations.push_back(std::move(out));
  }
  for (const std::string& model : models) {
    RelationOutcome out;
    out.name = model;
    out.kind = RelationKind::kDuckDbTable;
    ctx.outcome.relations.push_back(std::move(out));
  }
}

//! What a dry run reports: each table's files not yet at the target.
Status DryRun(Context& ctx, const std::vector<TableJob>& jobs) {
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TablePlan& plan = jobs[i].plan;
    RelationOutcome& out = ctx.outcome.relations[i];
    for (const ManifestGroup& group : plan.groups) {
      for (const iceberg::ManifestEntry& entry : group.entries) {
        const FileCopy copy{entry.data_file.file_path, plan.targets.at(entry.data_file.file_path),
                            static_cast<uint64_t>(entry.data_file.file_size_in_bytes)};
        bool present = false;
        if (entry.data_file.content == iceberg::DataFileContent::kData) {
          DATABOX_ASSIGN_OR_RETURN(present, AlreadyAtTarget(*ctx.target.io, copy));
        } else {
          DATABOX_ASSIGN_OR_RETURN(present, ctx.target.io->Exists(copy.target));
        }
        if (present) continue;
        ++out.files_to_copy;
        out.bytes_to_copy += copy.size;
      }
    }
  }
  return Ok();
}

//! Everything after the target was claimed, up to and including the pointer move.
Status WriteVersion(Context& ctx, std::vector<TableJob>& jobs, duck::Connection* analytics,
                    const std::vector<std::string>& models, const TargetState& state) {
  const int64_t version = ctx.outcome.version;
  DATABOX_RETURN_IF_ERROR(ClearVersionFolder(*ctx.target.io, ctx.layout, version));
  const std::vector<FileCopy> copies = DataCopies(jobs);
  DATABOX_ASSIGN_OR_RETURN(ctx.outcome.copied,
                           CopyFiles(*ctx.workspace.file_io(), *ctx.target.io, copies, ctx.scratch,
                                     ctx.request.copy_threads, ctx.request.progress));
  DATABOX_ASSIGN_OR_RETURN(duck::Database db, duck::Database::Open(""));
  DATABOX_ASSIGN_OR_RETURN(duck::Connection conn, duck::Connection::Open(db));
  DATABOX_RETURN_IF_ERROR(ctx.workspace.PrepareDuckDbReads(conn));
  Manifest manifest;
  manifest.version = version;
  manifest.published_at = NowIso();
  manifest.databox_version = ctx.request.databox_version;
  for (TableJob& job : jobs) {
    auto relation = PublishTable(ctx, job, conn, version);
    if (!relation) {
      return std::unexpected(relation.error().WithContext(job.plan.ns + "." + job.plan.table));
    }
    manifest.relations.push_back(std::move(*relation));
  }
  if (analytics != nullptr) {
    DATABOX_ASSIGN_OR_RETURN(std::vector<Relation> published,
                             PublishModels(ctx, *analytics, models, version));
    for (Relation& relation : published) manifest.relations.push_back(std::move(relation));
  }
  for (const Relation& relation : manifest.relations) {
    for (RelationOutcome& out : ctx.outcome.relations) {
      if (out.name == relation.name) out.rows = relation.rows;
    }
  }
  DATABOX_RETURN_IF_ERROR(ctx.target.io->Write(ctx.layout.Manifest(version), manifest.ToJson()));
  DATABOX_ASSIGN_OR_RETURN(ctx.outcome.problems, ReadBackVersion(ctx, manifest));
  if (!ctx.outcome.problems.empty()) {
    return MakeError(ErrorKind::kData,
                     "version " + std::to_string(version) +
                         " did not read back as its manifest says; the pointer was not moved");
  }
  Failpoint("publish-before-pointer");
  const Pointer next{version, ctx.layout.Relative(ctx.layout.Manifest(version)).value_or(""),
                     manifest.published_at};
  DATABOX_RETURN_IF_ERROR(MovePointer(*ctx.target.io, ctx.layout, state, next));
  ctx.outcome.current = true;
  Failpoint("publish-after-pointer");
  return Ok();
}

}  // namespace

Result<Outcome> Publish(load::Workspace& workspace, const Target& target, const Request& request) {
  Context ctx{workspace, target, request, Layout(target.root), {}, {}};
  DATABOX_ASSIGN_OR_RETURN(TargetState state, InspectTarget(*target.io, ctx.layout));
  DATABOX_ASSIGN_OR_RETURN(std::vector<iceberg::TableIdentifier> tables,
                           RawTables(workspace.catalog()));
  const bool wants_models = !request.selection.only.empty() || !request.selection.models ||
                            !request.selection.models->empty();
  std::optional<refresh::Analytics> analytics;
  std::vector<std::string> models;
  if (wants_models) {
    auto opened = refresh::OpenAnalytics(workspace);
    if (!opened) return std::unexpected(opened.error());
    analytics.emplace(std::move(*opened));
    DATABOX_ASSIGN_OR_RETURN(models, ListModels(analytics->connection));
  }
  DATABOX_ASSIGN_OR_RETURN(Chosen chosen, Choose(request.selection, tables, models));
  if (state.pointer) ctx.outcome.previous = state.pointer->version;
  ctx.outcome.version = (state.pointer ? state.pointer->version : 0) + 1;
  DATABOX_ASSIGN_OR_RETURN(std::vector<TableJob> jobs, PlanTables(ctx, chosen.tables));
  ListPlanned(ctx, jobs, chosen.models);
  if (request.dry_run) {
    DATABOX_RETURN_IF_ERROR(DryRun(ctx, jobs));
    return std::move(ctx.outcome);
  }
  if (!state.has_marker) DATABOX_RETURN_IF_ERROR(ClaimTarget(*target.io, ctx.layout));
  DATABOX_ASSIGN_OR_RETURN(ctx.scratch, MakeScratch(workspace));
  Status written =
      WriteVersion(ctx, jobs, analytics ? &analytics->connection : nullptr, chosen.models, state);
  std::error_code ignored;
  std::filesystem::remove_all(ctx.scratch, ignored);
  if (!written) {
    ctx.outcome.error = written.error().message;
    return std::move(ctx.outcome);
  }
  auto removed = ApplyRetention(*target.io, ctx.layout, ctx.outcome.version, request.keep);
  if (!removed) {
    ctx.outcome.error = "version " + std::to_string(ctx.outcome.version) +
                        " is current, but removing old versions failed: " + removed.error().message;
    return std::move(ctx.outcome);
  }
  ctx.outcome.versions_removed = removed->versions_removed;
  ctx.outcome.files_removed = removed->files_removed;
  return std::move(ctx.outcome);
}

}  // namespace databox::publish
