// The few S3 XML documents we read and write. Responses are parsed by common/xml.h (libxml2);
// elements are found by local name at any depth, so namespaces and unknown elements, attributes
// and comments do not matter. A body that is not well-formed XML is a kData error naming the
// response, libxml2's first complaint and its line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace databox::fileio::s3 {

//! The decoded text (entities, character references and CDATA resolved) of every element
//! named `name` in the XML document `xml` (`<name/>` gives ""), in document order. Elements of
//! the same name must not nest. kData when `xml` is not well-formed XML.
Result<std::vector<std::string>> XmlTexts(std::string_view xml, std::string_view name);

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

//! Parses a ListObjectsV2 result; kData when it is not well-formed XML or not a
//! ListBucketResult, when a size is not a number, or when it claims truncation without a
//! continuation token (we would loop forever).
Result<ListPage> ParseListObjectsV2(std::string_view xml);

//! The UploadId of an InitiateMultipartUploadResult; kData when absent or not well-formed XML.
Result<std::string> ParseUploadId(std::string_view xml);

//! The Code and Message of an S3 <Error> document.
struct S3ErrorBody {
  std::string code;     //!< "NoSuchKey", "SlowDown", ... (empty when the body is not an Error)
  std::string message;  //!< the server's explanation
};
//! The error document in `xml`, if the body is one (nullopt for any other body, well-formed or
//! not: error responses may come from proxies, in HTML or plain text).
std::optional<S3ErrorBody> ParseS3Error(std::string_view xml);

//! One uploaded part, for CompleteMultipartUpload.
struct CompletedPart {
  int number = 0;    //!< 1-based
  std::string etag;  //!< as the server returned it, quotes included
};
//! The CompleteMultipartUpload request body (parts must be in ascending order).
std::string CompleteMultipartUploadXml(const std::vector<CompletedPart>& parts);

}  // namespace databox::fileio::s3
