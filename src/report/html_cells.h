// The small HTML pieces every section of the status page is made of; every text escaped.
#pragma once

#include <string>
#include <string_view>

#include "common/markup_escape.h"

namespace databox::report {

//! A table cell; `cls` "nowrap" for names, ids and times (they never break mid-word).
inline std::string Cell(const std::string& text, const std::string& cls = "") {
  return (cls.empty() ? "<td>" : "<td class=\"" + cls + "\">") + EscapeMarkup(text) + "</td>";
}

//! A status word as a coloured badge (its class is the word).
inline std::string Badge(std::string_view word) {
  const std::string text = EscapeMarkup(word);
  return "<span class=\"badge " + text + "\">" + text + "</span>";
}

}  // namespace databox::report
