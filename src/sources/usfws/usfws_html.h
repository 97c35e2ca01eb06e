// Reading the fields of fws.gov HTML (search result cards and media pages) over the DOM that
// common/html.h parses: the "text rule" of the USFWS spec and the element lookups the card and
// detail parsers share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sources/usfws/html.h"

namespace databox::source {

//! The site every relative link of a card or page is resolved against.
inline constexpr std::string_view kFwsBase = "https://www.fws.gov/";

//! The text rule: the element's own text nodes, followed by the text of each child element (by
//! this same rule), in order, joined by spaces and whitespace-collapsed (CollapseWhitespace).
//! So <div><div>Date Shot/Created</div> 08/29/2021</div> reads "08/29/2021 Date Shot/Created".
std::string ElementText(const HtmlElement& element);

//! The first element below `scope` (document order) whose class list holds `class_name`.
std::optional<HtmlElement> FirstWithClass(const HtmlElement& scope, std::string_view class_name);
//! The first element below `scope` with tag `tag` (lower case).
std::optional<HtmlElement> FirstTag(const HtmlElement& scope, std::string_view tag);
//! ElementText of FirstWithClass, or nullopt when there is no such element.
std::optional<std::string> TextOfClass(const HtmlElement& scope, std::string_view class_name);

//! An attribute as a whole number (Python's int(): surrounding whitespace and a sign allowed),
//! or nullopt when it is absent or anything else.
std::optional<int64_t> IntegerAttribute(const HtmlElement& element, std::string_view name);

//! An attribute resolved against kFwsBase, or nullopt when absent.
std::optional<std::string> UrlAttribute(const HtmlElement& element, std::string_view name);

}  // namespace databox::source
