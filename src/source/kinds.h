// The kinds a program knows: the composition root registers one Kind per registry kind
// (platform::RegisterSourceKinds) before anything asks for one, as Arrow registers its
// filesystems; generic code then asks KindOf(source). Registration and lookups are thread-safe.
#pragma once

#include <memory>
#include <vector>

#include "common/error.h"
#include "registry/model.h"
#include "source/kind.h"

namespace databox::source {

//! Registers `kind`. kInternal when a kind of the same registry kind is registered already.
Status RegisterKind(std::unique_ptr<const Kind> kind);

//! The registered kinds, in registration order.
std::vector<const Kind*> RegisteredKinds();

//! The Kind of `source`. For a registry kind nothing registered, a Kind that adds nothing and
//! whose Make fails (kInternal) naming the missing registration.
const Kind& KindOf(const registry::Source& source);

}  // namespace databox::source
