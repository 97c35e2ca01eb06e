// The Kind of kind targeted, the USFWS image search (docs/sources.md, "usfws"): sources are
// TargetedSources, run only with a caller-supplied target list (`databox run usfws --targets
// FILE` and the run options below), over one transport per worker; their tables have the
// columns the source defines (UsfwsResources). `--limit` does not apply: the search has caps of
// its own.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "source/kind.h"

namespace databox::source {

class UsfwsKind final : public Kind {
 public:
  registry::SourceKind id() const override { return registry::SourceKind::kTargeted; }
  //! Without option `targets` the Source refuses to run (CanRun); with it, the request
  //! (TargetedRequestFrom) or its first problem.
  Result<std::unique_ptr<Source>> Make(const registry::Source& source, const SourceInput& input,
                                       Network network) const override;
  //! image_search_runs and image_records typed as the source writes them.
  registry::Resource DeclaredResource(const registry::Resource& declared) const override;
  //! --targets, --run-id, --loaded-at, --max-images-per-target, --request-max-attempts,
  //! --detail-workers.
  std::vector<RunOption> RunOptions() const override;
  std::string ForeignOptionsMessage() const override;
  //! Refuses --resume, then TargetedRequestFrom.
  Status CheckRun(const registry::Source& source, const KindOptions& options,
                  bool resume) const override;
  std::string RunHint() const override { return " --targets FILE"; }
  std::string ExampleSource() const override { return "usfws"; }
};

}  // namespace databox::source
