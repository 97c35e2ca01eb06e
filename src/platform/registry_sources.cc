#include "platform/registry_sources.h"

#include "platform/source_clients.h"
#include "source/pinned_file_source.h"
#include "source/rest_json_source.h"
#include "source/targeted_source.h"

namespace databox::platform {

Result<std::unique_ptr<source::Source>> RegistrySources::Make(
    const registry::Source& source, const source::SourceInput& input) const {
  const registry::Registry* registry = registry_;
  const registry::Source* spec = &source;
  switch (source.kind) {
    case registry::SourceKind::kRestJson:
      return std::make_unique<source::RestJsonSource>(
          source, [registry, spec] { return MakeSourceClient(registry->project, *spec); });
    case registry::SourceKind::kFile:
      return std::make_unique<source::PinnedFileSource>(source, input.file, [registry, spec] {
        return MakeFileClient(registry->project, *spec);
      });
    case registry::SourceKind::kTargeted:
      return std::make_unique<source::TargetedSource>(
          source, input.targeted, MakeSourceTransports(registry->project, source), source.replay());
  }
  return MakeError(ErrorKind::kInternal, "source " + source.name + " has an unknown kind");
}

}  // namespace databox::platform
