#include "sources/usfws/html.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/uri.h>

#include <cctype>
#include <climits>

namespace databox {
namespace {

constexpr int kParseOptions =
    HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_RECOVER;

const xmlChar* Xml(const std::string& text) {
  return reinterpret_cast<const xmlChar*>(text.c_str());
}

std::string_view View(const xmlChar* text) {
  return text == nullptr ? std::string_view() : reinterpret_cast<const char*>(text);
}

bool IsAsciiSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

//! Calls `add` for every element at or below `first` and its following siblings, in pre-order.
void VisitElements(const xmlNode* first, const std::function<void(const xmlNode*)>& add) {
  for (const xmlNode* node = first; node != nullptr; node = node->next) {
    if (node->type != XML_ELEMENT_NODE) continue;
    add(node);
    VisitElements(node->children, add);
  }
}

//! The first element at or below `first` and its following siblings, in pre-order, that
//! `match` accepts.
const xmlNode* FindFirst(const xmlNode* first, const std::function<bool(const xmlNode*)>& match) {
  for (const xmlNode* node = first; node != nullptr; node = node->next) {
    if (node->type != XML_ELEMENT_NODE) continue;
    if (match(node)) return node;
    if (const xmlNode* found = FindFirst(node->children, match)) return found;
  }
  return nullptr;
}

bool HasScheme(std::string_view reference) {
  std::size_t i = 0;
  while (i < reference.size() &&
         (std::isalnum(static_cast<unsigned char>(reference[i])) || reference[i] == '+' ||
          reference[i] == '-' || reference[i] == '.')) {
    ++i;
  }
  return i > 0 && i < reference.size() && reference[i] == ':' &&
         std::isalpha(static_cast<unsigned char>(reference[0]));
}

//! The text join of a reference libxml2 cannot parse (see ResolveUrl).
std::string JoinAsText(std::string_view base, std::string_view reference) {
  if (HasScheme(reference)) return std::string(reference);
  const std::size_t authority = base.find("://");
  const std::size_t path =
      authority == std::string_view::npos ? std::string_view::npos : base.find('/', authority + 3);
  if (reference.starts_with('/')) {
    return std::string(base.substr(0, path)) + std::string(reference);
  }
  const std::size_t last_slash = base.rfind('/');
  const bool has_path = path != std::string_view::npos && last_slash >= path;
  return std::string(has_path ? base.substr(0, last_slash + 1) : std::string(base) + "/") +
         std::string(reference);
}

}  // namespace

std::string_view HtmlElement::name() const { return View(node_->name); }

std::optional<std::string> HtmlElement::Attribute(std::string_view name) const {
  xmlChar* value = xmlGetNoNsProp(node_, Xml(std::string(name)));
  if (value == nullptr) return std::nullopt;
  std::string out(View(value));
  xmlFree(value);
  return out;
}

bool HtmlElement::HasClass(std::string_view name) const {
  const std::optional<std::string> classes = Attribute("class");
  if (!classes || name.empty()) return false;
  std::string_view rest = *classes;
  while (!rest.empty()) {
    while (!rest.empty() && IsAsciiSpace(rest.front())) rest.remove_prefix(1);
    std::size_t end = 0;
    while (end < rest.size() && !IsAsciiSpace(rest[end])) ++end;
    if (rest.substr(0, end) == name) return true;
    rest.remove_prefix(end);
  }
  return false;
}

std::vector<HtmlElement> HtmlElement::Children() const {
  std::vector<HtmlElement> out;
  for (const xmlNode* node = node_->children; node != nullptr; node = node->next) {
    if (node->type == XML_ELEMENT_NODE) out.push_back(HtmlElement(node));
  }
  return out;
}

std::vector<std::string> HtmlElement::OwnTexts() const {
  std::vector<std::string> out;
  for (const xmlNode* node = node_->children; node != nullptr; node = node->next) {
    if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) {
      out.emplace_back(View(node->content));
    }
  }
  return out;
}

std::vector<HtmlElement> HtmlElement::Descendants() const {
  std::vector<HtmlElement> out;
  VisitElements(node_->children, [&](const xmlNode* node) { out.push_back(HtmlElement(node)); });
  return out;
}

std::optional<HtmlElement> HtmlElement::FirstDescendant(
    const std::function<bool(const HtmlElement&)>& match) const {
  const xmlNode* found =
      FindFirst(node_->children, [&](const xmlNode* node) { return match(HtmlElement(node)); });
  if (found == nullptr) return std::nullopt;
  return HtmlElement(found);
}

void HtmlDocument::Free::operator()(_xmlDoc* doc) const { xmlFreeDoc(doc); }

HtmlDocument::HtmlDocument(HtmlDocument&&) noexcept = default;
HtmlDocument& HtmlDocument::operator=(HtmlDocument&&) noexcept = default;
HtmlDocument::~HtmlDocument() = default;

Result<HtmlDocument> HtmlDocument::Parse(std::string_view html, std::string_view what) {
  static const bool initialized = (xmlInitParser(), true);  // once, before threads parse
  (void)initialized;
  if (html.size() > static_cast<std::size_t>(INT_MAX)) {
    return MakeError(ErrorKind::kData, std::string(what) + " is too large to parse as HTML (" +
                                           std::to_string(html.size()) + " bytes)");
  }
  if (html.empty()) return HtmlDocument(nullptr);
  return HtmlDocument(
      htmlReadMemory(html.data(), static_cast<int>(html.size()), nullptr, "UTF-8", kParseOptions));
}

std::optional<HtmlElement> HtmlDocument::root() const {
  const xmlNode* root = doc_ == nullptr ? nullptr : xmlDocGetRootElement(doc_.get());
  if (root == nullptr) return std::nullopt;
  return HtmlElement(root);
}

std::string ResolveUrl(std::string_view base, std::string_view reference) {
  while (!reference.empty() && IsAsciiSpace(reference.front())) reference.remove_prefix(1);
  while (!reference.empty() && IsAsciiSpace(reference.back())) reference.remove_suffix(1);
  const std::string ref(reference);
  const std::string base_text(base);
  xmlChar* resolved = xmlBuildURI(Xml(ref), Xml(base_text));
  if (resolved == nullptr) return JoinAsText(base, reference);
  std::string out(View(resolved));
  xmlFree(resolved);
  return out;
}

}  // namespace databox
