#include "platform/registry_sources.h"

#include "platform/source_clients.h"
#include "platform/source_kinds.h"
#include "source/kinds.h"

namespace databox::platform {

RegistrySources::RegistrySources(const registry::Registry& registry) : registry_(&registry) {
  RegisterSourceKinds();
}

Result<std::unique_ptr<source::Source>> RegistrySources::Make(
    const registry::Source& source, const source::SourceInput& input) const {
  const registry::Registry* registry = registry_;
  const registry::Source* spec = &source;
  source::Network network{
      .client = [registry, spec] { return MakeSourceClient(registry->project, *spec); },
      .direct_client = [registry, spec] { return MakeFileClient(registry->project, *spec); },
      .transports = MakeSourceTransports(registry->project, source),
      .replay = source.replay()};
  return source::KindOf(source).Make(source, input, std::move(network));
}

}  // namespace databox::platform
