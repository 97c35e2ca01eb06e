#include "fileio/s3/s3_xml.h"

#include <charconv>
#include <chrono>

#include "common/markup_escape.h"
#include "common/xml.h"

namespace databox::fileio::s3 {
namespace {

//! Parses the body of an S3 response; `what` names it in the error.
Result<XmlDocument> ParseResponse(std::string_view xml, std::string_view what) {
  Result<XmlDocument> doc = XmlDocument::Parse(xml, what);
  if (!doc) {
    return MakeError(ErrorKind::kData,
                     doc.error().message + "; check that the endpoint is an S3-compatible service");
  }
  return doc;
}

Result<uint64_t> ParseSize(std::string_view text, std::string_view key) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return MakeError(ErrorKind::kData, "S3 listing gave object '" + std::string(key) +
                                           "' a size that is not a number: '" + std::string(text) +
                                           "'; the server's response is malformed");
  }
  return value;
}

}  // namespace

Result<std::vector<std::string>> XmlTexts(std::string_view xml, std::string_view name) {
  DATABOX_ASSIGN_OR_RETURN(XmlDocument doc, ParseResponse(xml, "S3 XML document"));
  std::vector<std::string> out;
  for (const XmlElement& element : doc.Find(name)) out.push_back(element.Text());
  return out;
}

std::optional<int64_t> ParseS3Timestamp(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS[.f...]Z
  if (text.size() < 20 || text.back() != 'Z' || text[4] != '-' || text[7] != '-' ||
      text[10] != 'T' || text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  auto number = [&](size_t at, size_t length) -> std::optional<int> {
    int value = 0;
    const char* begin = text.data() + at;
    auto [end, ec] = std::from_chars(begin, begin + length, value);
    if (ec != std::errc() || end != begin + length) return std::nullopt;
    return value;
  };
  const auto year = number(0, 4), month = number(5, 2), day = number(8, 2);
  const auto hour = number(11, 2), minute = number(14, 2), second = number(17, 2);
  if (!year || !month || !day || !hour || !minute || !second || *hour > 23 || *minute > 59 ||
      *second > 60) {
    return std::nullopt;
  }
  int millis = 0;
  const std::string_view fraction = text.substr(19, text.size() - 20);
  if (!fraction.empty()) {
    if (fraction.front() != '.' || fraction.size() < 2) return std::nullopt;
    for (size_t i = 1; i < fraction.size(); ++i) {
      if (fraction[i] < '0' || fraction[i] > '9') return std::nullopt;
      if (i <= 3) millis = millis * 10 + (fraction[i] - '0');
    }
    for (size_t i = fraction.size(); i <= 3; ++i) millis *= 10;
  }
  const std::chrono::year_month_day date{std::chrono::year(*year),
                                         std::chrono::month(static_cast<unsigned>(*month)),
                                         std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  const auto days = std::chrono::sys_days(date).time_since_epoch().count();
  return ((static_cast<int64_t>(days) * 24 + *hour) * 60 + *minute) * 60000 +
         static_cast<int64_t>(*second) * 1000 + millis;
}

Result<ListPage> ParseListObjectsV2(std::string_view xml) {
  DATABOX_ASSIGN_OR_RETURN(XmlDocument doc, ParseResponse(xml, "S3 listing response"));
  const std::vector<XmlElement> results = doc.Find("ListBucketResult");
  if (results.empty()) {
    return MakeError(ErrorKind::kData,
                     "S3 listing response is not a ListBucketResult document; check that the "
                     "endpoint is an S3-compatible service");
  }
  const XmlElement& result = results.front();
  ListPage page;
  for (const XmlElement& contents : result.Find("Contents")) {
    ListedObject object;
    std::optional<std::string> key = contents.FindText("Key");
    if (!key) {
      return MakeError(ErrorKind::kData, "S3 listing has an entry without a Key");
    }
    object.key = std::move(*key);
    if (std::optional<std::string> size = contents.FindText("Size")) {
      DATABOX_ASSIGN_OR_RETURN(object.size, ParseSize(*size, object.key));
    }
    if (std::optional<std::string> modified = contents.FindText("LastModified")) {
      object.modified_ms = ParseS3Timestamp(*modified);
    }
    page.objects.push_back(std::move(object));
  }
  page.truncated = result.FindText("IsTruncated").value_or("false") == "true";
  page.next_continuation_token = result.FindText("NextContinuationToken").value_or("");
  if (page.truncated && page.next_continuation_token.empty()) {
    return MakeError(ErrorKind::kData,
                     "S3 listing says it is truncated but gives no NextContinuationToken");
  }
  return page;
}

Result<std::string> ParseUploadId(std::string_view xml) {
  DATABOX_ASSIGN_OR_RETURN(XmlDocument doc,
                           ParseResponse(xml, "S3's CreateMultipartUpload response"));
  const std::vector<XmlElement> ids = doc.Find("UploadId");
  std::string id = ids.empty() ? "" : ids.front().Text();
  if (id.empty()) {
    return MakeError(ErrorKind::kData,
                     "S3 answered CreateMultipartUpload without an UploadId; the server's "
                     "response is malformed");
  }
  return id;
}

std::optional<S3ErrorBody> ParseS3Error(std::string_view xml) {
  Result<XmlDocument> doc = XmlDocument::Parse(xml, "S3 error response");
  if (!doc) return std::nullopt;
  const std::vector<XmlElement> errors = doc->Find("Error");
  if (errors.empty()) return std::nullopt;
  return S3ErrorBody{.code = errors.front().FindText("Code").value_or(""),
                     .message = errors.front().FindText("Message").value_or("")};
}

std::string CompleteMultipartUploadXml(const std::vector<CompletedPart>& parts) {
  std::string out = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
  for (const CompletedPart& part : parts) {
    out += "<Part><PartNumber>" + std::to_string(part.number) + "</PartNumber><ETag>" +
           EscapeMarkup(part.etag) + "</ETag></Part>";
  }
  out += "</CompleteMultipartUpload>";
  return out;
}

}  // namespace databox::fileio::s3
