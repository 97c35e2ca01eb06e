// The Source of kind file (AVONET, docs/avonet.md): the pinned workbook, downloaded into the
// package folder or given as `--file PATH`, validated in full by ExtractAvonet before any
// record is fed. The validated records are kept in memory, so a package cannot be resumed: a
// failed file load is run again.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "registry/model.h"
#include "source/source.h"
#include "sources/avonet/avonet.h"

namespace databox::source {

class PinnedFileSource final : public Source {
 public:
  //! `source` must outlive this. Without `local_file`, `make_client` is called once, when
  //! extraction starts; the client must not follow redirects (DownloadPinnedFile).
  PinnedFileSource(const registry::Source& source, std::optional<std::filesystem::path> local_file,
                   ClientMaker make_client)
      : source_(&source),
        local_file_(std::move(local_file)),
        make_client_(std::move(make_client)) {}

  Status CanRun() const override { return Ok(); }
  bool Resumable() const override { return false; }
  Result<StepReport> Extract(const Package& package, const ExtractProgress& progress) override;
  //! The enabled resource the workbook fills, every column typed (AvonetResource); none before
  //! Extract.
  std::vector<const registry::Resource*> Resources() const override;
  //! Hands over the validated records (once).
  Result<StepReport> Feed(const registry::Resource& resource, const Package& package,
                          const RecordSink& sink) override;

 private:
  const registry::Source* source_;  //!< not owned
  std::optional<std::filesystem::path> local_file_;
  ClientMaker make_client_;
  std::optional<AvonetExtract> extract_;     //!< the validated rows, after Extract
  std::optional<registry::Resource> table_;  //!< the declared resource with its typed columns
};

}  // namespace databox::source
