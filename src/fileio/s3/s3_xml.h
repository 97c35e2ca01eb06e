// The few S3 XML documents we read and write, parsed minimally: S3 responses are flat,
// unprefixed elements, so we look for elements by name and decode their text. Unknown elements,
// attributes, namespaces, comments and the XML declaration are ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::fileio::s3 {

//! The inner text of every `<name>` element (with or without attributes; `<name/>` gives ""),
//! in document order, entities not yet decoded. Elements of the same name must not nest.
std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view name);
//! The decoded text of the first `<name>` element, if any.
std::optional<std::string> XmlText(std::string_view xml, std::string_view name);
//! Decodes &amp; &lt; &gt; &quot; &apos; and numeric character references (to UTF-8), and the
//! contents of CDATA sections. Unknown entities are kept as written.
std::string XmlUnescape(std::string_view text);
//! Escapes & < > " ' for element text.
std::string XmlEscape(std::string_view text);

//! One object of a ListObjectsV2 page.
struct ListedObject {
  std::string key;
  uint64_t size = 0;
  std::optional<int64_t> modified_ms;  //!< LastModified; nullopt when absent or not ISO 8601
};

//! "2009-10-12T17:50:30.000Z" (S3's LastModified: UTC, optional fraction) as ms since the
//! epoch; nullopt for anything else.
std::optional<int64_t> ParseS3Timestamp(std::string_view text);

//! One ListObjectsV2 response page.
struct ListPage {
  std::vector<ListedObject> objects;
  bool truncated = false;
  std::string next_continuation_token;  //!< set when truncated
};

//! Parses a ListObjectsV2 result; kData when it is not one or a size is not a number, or when
//! it claims truncation without a continuation token (we would loop forever).
Result<ListPage> ParseListObjectsV2(std::string_view xml);

//! The UploadId of an InitiateMultipartUploadResult; kData when absent.
Result<std::string> ParseUploadId(std::string_view xml);

//! The Code and Message of an S3 <Error> document.
struct S3ErrorBody {
  std::string code;     //!< "NoSuchKey", "SlowDown", ... (empty when the body is not an Error)
  std::string message;  //!< the server's explanation
};
//! The error document in `xml`, if the body is one.
std::optional<S3ErrorBody> ParseS3Error(std::string_view xml);

//! One uploaded part, for CompleteMultipartUpload.
struct CompletedPart {
  int number = 0;    //!< 1-based
  std::string etag;  //!< as the server returned it, quotes included
};
//! The CompleteMultipartUpload request body (parts must be in ascending order).
std::string CompleteMultipartUploadXml(const std::vector<CompletedPart>& parts);

}  // namespace databox::fileio::s3
