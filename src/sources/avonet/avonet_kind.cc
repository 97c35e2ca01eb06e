#include "sources/avonet/avonet_kind.h"

#include <filesystem>
#include <optional>

#include "sources/avonet/avonet.h"
#include "sources/avonet/pinned_file_source.h"

namespace databox::source {

Result<std::unique_ptr<Source>> AvonetKind::Make(const registry::Source& source,
                                                 const SourceInput& input, Network network) const {
  std::optional<std::filesystem::path> file;
  if (auto given = input.options.find(kLocalFileOption); given != input.options.end()) {
    file = given->second;
  }
  return std::make_unique<PinnedFileSource>(source, std::move(file),
                                            std::move(network.direct_client));
}

registry::Resource AvonetKind::DeclaredResource(const registry::Resource& declared) const {
  return AvonetResource(declared);
}

std::vector<RunOption> AvonetKind::RunOptions() const {
  return {{.name = kLocalFileOption,
           .value_name = "PATH",
           .help = "avonet: validate and publish this workbook instead of downloading",
           .range = std::nullopt}};
}

std::string AvonetKind::ForeignOptionsMessage() const {
  return "--file applies to file sources (e.g. avonet) only";
}

}  // namespace databox::source
