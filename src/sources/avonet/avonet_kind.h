// The Kind of kind file, the AVONET workbook (docs/avonet.md): sources are PinnedFileSources,
// reading `databox run avonet --file PATH` or downloading through a client that follows no
// redirect (DownloadPinnedFile checks the one it allows); the declared table is typed with the
// AVONET layout (AvonetResource). `--limit` leaves the file whole.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "source/kind.h"

namespace databox::source {

class AvonetKind final : public Kind {
 public:
  registry::SourceKind id() const override { return registry::SourceKind::kFile; }
  //! Option `file`: publish that local file instead of downloading.
  Result<std::unique_ptr<Source>> Make(const registry::Source& source, const SourceInput& input,
                                       Network network) const override;
  registry::Resource DeclaredResource(const registry::Resource& declared) const override;
  //! --file PATH.
  std::vector<RunOption> RunOptions() const override;
  std::string ForeignOptionsMessage() const override;
  std::string RunHint() const override { return " [--file PATH]"; }
  std::string ExampleSource() const override { return "avonet"; }
};

}  // namespace databox::source
