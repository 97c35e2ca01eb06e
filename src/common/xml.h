// XML documents we read but do not own (S3 responses, the parts of an XLSX package), parsed with
// libxml2. Safe on untrusted input: no network, no DTD loading, no external entities, libxml2's
// limits on entity expansion, nothing printed. A document that is not well-formed XML is a kData
// error naming the document, the first problem libxml2 found and its line. Elements are matched
// by local name, so namespace prefixes and declarations do not matter. Read-only; one thread per
// document (different documents may be parsed and read by different threads at once).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

struct _xmlDoc;   // libxml2's xmlDoc
struct _xmlNode;  // libxml2's xmlNode

namespace databox {

//! One element of a parsed document: a view, valid while its XmlDocument lives.
class XmlElement {
 public:
  //! The local name ("Key" for <s3:Key>).
  std::string_view name() const;
  //! The text of the element and its descendants, with entity and character references and
  //! CDATA sections decoded ("" for <name/>).
  std::string Text() const;
  //! The decoded value of the attribute `name` that has no namespace prefix, if present.
  std::optional<std::string> Attribute(std::string_view name) const;
  //! The elements named `name` below this one, in document order. The descendants of a match
  //! are not searched: in the formats we read, same-named elements do not nest.
  std::vector<XmlElement> Find(std::string_view name) const;
  //! The text of the first element Find(name) gives, if there is one.
  std::optional<std::string> FindText(std::string_view name) const;

 private:
  friend class XmlDocument;
  explicit XmlElement(const _xmlNode* node) : node_(node) {}
  //! Appends the elements named `name` among `first`, its siblings and their descendants.
  static void Collect(const _xmlNode* first, std::string_view name, std::vector<XmlElement>& out);

  const _xmlNode* node_;  //!< owned by the document
};

//! A parsed XML document. Move-only value.
class XmlDocument {
 public:
  //! Parses `xml`; `what` names it in the error ("S3 listing response", "package part
  //! xl/workbook.xml"): kData "<what> is not well-formed XML (line N: <reason>)".
  static Result<XmlDocument> Parse(std::string_view xml, std::string_view what);

  XmlDocument(XmlDocument&&) noexcept;
  XmlDocument& operator=(XmlDocument&&) noexcept;
  ~XmlDocument();

  XmlElement root() const;
  //! The elements named `name` in the whole document, the root included (as XmlElement::Find).
  std::vector<XmlElement> Find(std::string_view name) const;

 private:
  struct Free {
    void operator()(_xmlDoc* doc) const;
  };
  explicit XmlDocument(_xmlDoc* doc) : doc_(doc) {}

  std::unique_ptr<_xmlDoc, Free> doc_;
};

}  // namespace databox
