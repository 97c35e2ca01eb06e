#include "sources/usfws/usfws_html.h"

#include <charconv>

#include "sources/usfws/python_text.h"

namespace databox::source {

std::string ElementText(const HtmlElement& element) {
  std::string joined;
  auto add = [&](const std::string& part) {
    if (!joined.empty()) joined += ' ';
    joined += part;
  };
  for (const std::string& text : element.OwnTexts()) add(text);
  for (const HtmlElement& child : element.Children()) add(ElementText(child));
  return CollapseWhitespace(joined);
}

std::optional<HtmlElement> FirstWithClass(const HtmlElement& scope, std::string_view class_name) {
  return scope.FirstDescendant([&](const HtmlElement& e) { return e.HasClass(class_name); });
}

std::optional<HtmlElement> FirstTag(const HtmlElement& scope, std::string_view tag) {
  return scope.FirstDescendant([&](const HtmlElement& e) { return e.name() == tag; });
}

std::optional<std::string> TextOfClass(const HtmlElement& scope, std::string_view class_name) {
  const auto element = FirstWithClass(scope, class_name);
  if (!element) return std::nullopt;
  return ElementText(*element);
}

std::optional<int64_t> IntegerAttribute(const HtmlElement& element, std::string_view name) {
  const std::optional<std::string> value = element.Attribute(name);
  if (!value) return std::nullopt;
  std::string_view text = *value;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  if (text.starts_with('+')) text.remove_prefix(1);
  int64_t number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return number;
}

std::optional<std::string> UrlAttribute(const HtmlElement& element, std::string_view name) {
  const std::optional<std::string> value = element.Attribute(name);
  if (!value) return std::nullopt;
  return ResolveUrl(kFwsBase, *value);
}

}  // namespace databox::source
