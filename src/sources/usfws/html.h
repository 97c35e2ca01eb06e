// HTML documents we read but do not own (pages and fragments of public web sites), parsed with
// libxml2's HTML parser, which recovers from broken markup the way browsers are expected to
// (implied <html>/<body>, unclosed elements). Safe on untrusted input: no network, nothing
// printed, entity and character references decoded. The input is read as UTF-8. Read-only; one
// thread per document (different documents may be parsed and read by different threads at once).
//
// Also here: resolving a link found in a page against the page's URL (RFC 3986 reference
// resolution, libxml2's URI module).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

struct _xmlDoc;   // libxml2's xmlDoc
struct _xmlNode;  // libxml2's xmlNode

namespace databox {

//! One element of a parsed document: a view, valid while its HtmlDocument lives.
class HtmlElement {
 public:
  //! The tag name, lower case ("a", "img").
  std::string_view name() const;
  //! The decoded value of the attribute `name` (lower case), if present ("" for `<a download>`).
  std::optional<std::string> Attribute(std::string_view name) const;
  //! Whether the class attribute lists `name` as one of its whitespace-separated tokens.
  bool HasClass(std::string_view name) const;
  //! The child elements, in document order.
  std::vector<HtmlElement> Children() const;
  //! The text nodes directly below this element (not those of child elements), decoded, in
  //! document order; comments are not text.
  std::vector<std::string> OwnTexts() const;
  //! Every element below this one in document (pre-)order, this one excluded.
  std::vector<HtmlElement> Descendants() const;
  //! The first of Descendants() for which `match` is true.
  std::optional<HtmlElement> FirstDescendant(
      const std::function<bool(const HtmlElement&)>& match) const;

 private:
  friend class HtmlDocument;
  explicit HtmlElement(const _xmlNode* node) : node_(node) {}

  const _xmlNode* node_;  //!< owned by the document
};

//! A parsed HTML document or fragment. Move-only value.
class HtmlDocument {
 public:
  //! Parses `html` (UTF-8). Broken markup is repaired, not refused; `what` names the document in
  //! the only error, kData for input larger than libxml2 can take.
  static Result<HtmlDocument> Parse(std::string_view html, std::string_view what);

  HtmlDocument(HtmlDocument&&) noexcept;
  HtmlDocument& operator=(HtmlDocument&&) noexcept;
  ~HtmlDocument();

  //! The outermost element (<html>, implied for a fragment); none for input without markup or
  //! text (such as "").
  std::optional<HtmlElement> root() const;

 private:
  struct Free {
    void operator()(_xmlDoc* doc) const;
  };
  explicit HtmlDocument(_xmlDoc* doc) : doc_(doc) {}

  std::unique_ptr<_xmlDoc, Free> doc_;  //!< may be null (nothing to parse)
};

//! `reference` (an href or src as written in a page) resolved against the absolute URL `base`,
//! as RFC 3986 section 5 says ("/media/x" against "https://www.fws.gov/" is
//! "https://www.fws.gov/media/x"; an absolute reference stays as it is). A reference libxml2
//! cannot parse (spaces, non-ASCII characters) is joined as text: kept when it has a scheme,
//! else appended to the base's origin (a leading "/") or to the base.
std::string ResolveUrl(std::string_view base, std::string_view reference);

}  // namespace databox
