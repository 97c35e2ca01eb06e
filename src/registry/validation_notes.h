// What a valid registry relies on that `databox validate` should say (not problems).
#pragma once

#include <string>
#include <vector>

#include "registry/model.h"

namespace databox::registry {

//! One line each; empty when there is nothing to say.
std::vector<std::string> ValidationNotes(const Registry& registry);

}  // namespace databox::registry
