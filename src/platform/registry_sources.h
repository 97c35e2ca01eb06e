// The SourceFactory of a registry: the Source of each source made by its kind (source_kinds.h),
// with HTTP clients built from the registry (source_clients.h) when extraction needs one. The
// project's HTTP settings are read when a client is made, not when the factory is.
#pragma once

#include <memory>

#include "registry/model.h"
#include "source/source.h"

namespace databox::platform {

class RegistrySources final : public source::SourceFactory {
 public:
  //! `registry` must outlive the factory. Registers the kinds (RegisterSourceKinds).
  explicit RegistrySources(const registry::Registry& registry);

  //! The kind's Make, with the source's Network: MakeSourceClient, MakeFileClient (no redirect
  //! followed) and MakeSourceTransports, each called only when the Source asks.
  Result<std::unique_ptr<source::Source>> Make(const registry::Source& source,
                                               const source::SourceInput& input) const override;

 private:
  const registry::Registry* registry_;  //!< not owned
};

}  // namespace databox::platform
