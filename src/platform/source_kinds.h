// The kinds of source this program knows: the one place that lists them (docs/architecture.md,
// "Source kinds"). Adding a kind is its folder under src/sources/ and one line here.
#pragma once

#include <vector>

#include "source/kind.h"

namespace databox::platform {

//! Registers every kind with source::RegisterKind, once (later calls do nothing). OpenWorkspace
//! and the command line call it before anything asks for a source's kind.
void RegisterSourceKinds();

//! RegisterSourceKinds, then the registered kinds in registration order.
std::vector<const source::Kind*> SourceKinds();

}  // namespace databox::platform
