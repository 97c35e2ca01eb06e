#include "common/xml.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <climits>

namespace databox {
namespace {

constexpr int kParseOptions = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;

struct ParserFree {
  void operator()(xmlParserCtxt* parser) const { xmlFreeParserCtxt(parser); }
};

//! libxml2 reports every problem; the first error says where the document went wrong (later
//! ones, such as "premature end of data", follow from it).
void KeepFirstError(void* parser, xmlError* error) {
  auto* first = static_cast<std::string*>(static_cast<xmlParserCtxt*>(parser)->_private);
  if (!first->empty() || error == nullptr || error->level < XML_ERR_ERROR) return;
  std::string message = error->message == nullptr ? "unknown error" : error->message;
  while (!message.empty() && message.back() == '\n') message.pop_back();
  *first = "line " + std::to_string(error->line) + ": " + message;
}

//! A string libxml2 allocated, copied and freed ("" for none).
std::string Take(xmlChar* text) {
  std::string out = text == nullptr ? "" : reinterpret_cast<const char*>(text);
  xmlFree(text);
  return out;
}

}  // namespace

void XmlElement::Collect(const xmlNode* first, std::string_view name,
                         std::vector<XmlElement>& out) {
  for (const xmlNode* node = first; node != nullptr; node = node->next) {
    if (node->type != XML_ELEMENT_NODE) continue;
    if (name == reinterpret_cast<const char*>(node->name)) {
      out.push_back(XmlElement(node));  // same-named elements do not nest: not searched below
    } else {
      Collect(node->children, name, out);
    }
  }
}

std::string_view XmlElement::name() const { return reinterpret_cast<const char*>(node_->name); }

std::string XmlElement::Text() const { return Take(xmlNodeGetContent(node_)); }

std::optional<std::string> XmlElement::Attribute(std::string_view name) const {
  xmlChar* value =
      xmlGetNoNsProp(node_, reinterpret_cast<const xmlChar*>(std::string(name).c_str()));
  if (value == nullptr) return std::nullopt;
  return Take(value);
}

std::vector<XmlElement> XmlElement::Find(std::string_view name) const {
  std::vector<XmlElement> out;
  Collect(node_->children, name, out);
  return out;
}

std::optional<std::string> XmlElement::FindText(std::string_view name) const {
  std::vector<XmlElement> found = Find(name);
  if (found.empty()) return std::nullopt;
  return found.front().Text();
}

void XmlDocument::Free::operator()(_xmlDoc* doc) const { xmlFreeDoc(doc); }

XmlDocument::XmlDocument(XmlDocument&&) noexcept = default;
XmlDocument& XmlDocument::operator=(XmlDocument&&) noexcept = default;
XmlDocument::~XmlDocument() = default;

Result<XmlDocument> XmlDocument::Parse(std::string_view xml, std::string_view what) {
  static const bool initialized = (xmlInitParser(), true);  // once, before threads parse
  (void)initialized;
  const auto malformed = [&](const std::string& reason) {
    return MakeError(ErrorKind::kData,
                     std::string(what) + " is not well-formed XML (" + reason + ")");
  };
  if (xml.size() > static_cast<std::size_t>(INT_MAX)) return malformed("too large to parse");
  std::unique_ptr<xmlParserCtxt, ParserFree> parser(xmlNewParserCtxt());
  if (parser == nullptr) return MakeError(ErrorKind::kInternal, "libxml2 could not start a parser");
  std::string first_error;
  parser->_private = &first_error;
  parser->sax->serror = KeepFirstError;
  xmlDoc* doc = xmlCtxtReadMemory(parser.get(), xml.data(), static_cast<int>(xml.size()), nullptr,
                                  nullptr, kParseOptions);
  if (doc == nullptr || xmlDocGetRootElement(doc) == nullptr) {
    xmlFreeDoc(doc);
    return malformed(first_error.empty() ? "no root element" : first_error);
  }
  return XmlDocument(doc);
}

XmlElement XmlDocument::root() const { return XmlElement(xmlDocGetRootElement(doc_.get())); }

std::vector<XmlElement> XmlDocument::Find(std::string_view name) const {
  std::vector<XmlElement> out;
  XmlElement::Collect(xmlDocGetRootElement(doc_.get()), name, out);
  return out;
}

}  // namespace databox
