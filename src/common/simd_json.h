// Reading simdjson's DOM the way nlohmann reads the same text, for the code that parses JSON
// with simdjson (records, response pages) and must give what the nlohmann reading gives. The
// header names no simdjson type beyond a declaration: simdjson's include folder stays with the
// modules that parse.
#pragma once

#include <nlohmann/json.hpp>

namespace simdjson::dom {
class element;
}  // namespace simdjson::dom

namespace databox {

//! nlohmann's value of a simdjson element (integers as signed, unsigned only beyond int64's
//! range), so values serialize exactly as from text parsed by nlohmann. A key repeated in an
//! object keeps its first position and its last value, as nlohmann's parser does.
nlohmann::ordered_json ToNlohmann(const simdjson::dom::element& element);

//! True if some object in `element` has a key twice. nlohmann keeps the first position and the
//! last value of a repeated key (as a Python dict does); a walk of the simdjson document would
//! see both, so such documents are read the nlohmann way.
bool HasDuplicateKeys(const simdjson::dom::element& element);

}  // namespace databox
