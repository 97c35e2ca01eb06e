// The SourceFactory of a registry: the Source implementation of each kind, with HTTP clients
// built from the registry (source_clients.h) when extraction needs one. The project's HTTP
// settings are read when a client is made, not when the factory is.
#pragma once

#include <memory>

#include "registry/model.h"
#include "source/source.h"

namespace databox::platform {

class RegistrySources final : public source::SourceFactory {
 public:
  //! `registry` must outlive the factory.
  explicit RegistrySources(const registry::Registry& registry) : registry_(&registry) {}

  //! rest_json: RestJsonSource; file: PinnedFileSource (input.file, else a download through
  //! MakeFileClient); targeted: TargetedSource.
  Result<std::unique_ptr<source::Source>> Make(const registry::Source& source,
                                               const source::SourceInput& input) const override;

 private:
  const registry::Registry* registry_;  //!< not owned
};

}  // namespace databox::platform
