// Text made safe to place in HTML: element content and quoted attribute values alike.
#pragma once

#include <string>
#include <string_view>

namespace databox::report {

//! `text` with & < > " ' replaced by their character references, so no text (a name, an
//! error, a log tail) can open a tag, close an attribute or start an entity.
std::string EscapeHtml(std::string_view text);

}  // namespace databox::report
