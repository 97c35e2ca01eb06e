#include "fileio/s3/s3_xml.h"

#include <charconv>
#include <chrono>

namespace databox::fileio::s3 {
namespace {

//! Whether `xml[pos]` starts the tag `<name` followed by a delimiter (not a longer name).
bool IsOpenTag(std::string_view xml, std::size_t pos, std::string_view name) {
  std::size_t end = pos + 1 + name.size();
  if (end >= xml.size() || xml.compare(pos + 1, name.size(), name) != 0) return false;
  char next = xml[end];
  return next == '>' || next == '/' || next == ' ' || next == '\t' || next == '\r' || next == '\n';
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

//! Decodes one entity body ("amp", "#38", "#x26"); nullopt when unknown.
std::optional<std::string> DecodeEntity(std::string_view entity) {
  if (entity == "amp") return "&";
  if (entity == "lt") return "<";
  if (entity == "gt") return ">";
  if (entity == "quot") return "\"";
  if (entity == "apos") return "'";
  if (entity.size() < 2 || entity[0] != '#') return std::nullopt;
  int base = 10;
  std::string_view digits = entity.substr(1);
  if (digits[0] == 'x' || digits[0] == 'X') {
    base = 16;
    digits.remove_prefix(1);
  }
  uint32_t cp = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, base);
  if (ec != std::errc() || end != digits.data() + digits.size() || cp > 0x10FFFF) {
    return std::nullopt;
  }
  std::string out;
  AppendUtf8(out, cp);
  return out;
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

std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view name) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while ((pos = xml.find('<', pos)) != std::string_view::npos) {
    if (!IsOpenTag(xml, pos, name)) {
      ++pos;
      continue;
    }
    std::size_t tag_end = xml.find('>', pos);
    if (tag_end == std::string_view::npos) break;
    if (xml[tag_end - 1] == '/') {  // <name/>
      out.emplace_back();
      pos = tag_end + 1;
      continue;
    }
    std::string close = "</" + std::string(name) + ">";
    std::size_t close_pos = xml.find(close, tag_end + 1);
    if (close_pos == std::string_view::npos) break;
    out.push_back(xml.substr(tag_end + 1, close_pos - tag_end - 1));
    pos = close_pos + close.size();
  }
  return out;
}

std::optional<std::string> XmlText(std::string_view xml, std::string_view name) {
  std::vector<std::string_view> found = XmlElements(xml, name);
  if (found.empty()) return std::nullopt;
  return XmlUnescape(found.front());
}

std::string XmlUnescape(std::string_view text) {
  constexpr std::string_view kCdataOpen = "<![CDATA[";
  constexpr std::string_view kCdataClose = "]]>";
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.substr(i).starts_with(kCdataOpen)) {
      std::size_t end = text.find(kCdataClose, i + kCdataOpen.size());
      if (end == std::string_view::npos) end = text.size();
      out += text.substr(i + kCdataOpen.size(), end - i - kCdataOpen.size());
      i = std::min(text.size(), end + kCdataClose.size());
      continue;
    }
    if (text[i] == '&') {
      std::size_t semi = text.find(';', i);
      if (semi != std::string_view::npos) {
        if (auto decoded = DecodeEntity(text.substr(i + 1, semi - i - 1))) {
          out += *decoded;
          i = semi + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
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
  if (XmlElements(xml, "ListBucketResult").empty()) {
    return MakeError(ErrorKind::kData,
                     "S3 listing response is not a ListBucketResult document; check that the "
                     "endpoint is an S3-compatible service");
  }
  ListPage page;
  for (std::string_view contents : XmlElements(xml, "Contents")) {
    ListedObject object;
    std::optional<std::string> key = XmlText(contents, "Key");
    if (!key) {
      return MakeError(ErrorKind::kData, "S3 listing has an entry without a Key");
    }
    object.key = std::move(*key);
    if (std::optional<std::string> size = XmlText(contents, "Size")) {
      DATABOX_ASSIGN_OR_RETURN(object.size, ParseSize(*size, object.key));
    }
    if (std::optional<std::string> modified = XmlText(contents, "LastModified")) {
      object.modified_ms = ParseS3Timestamp(*modified);
    }
    page.objects.push_back(std::move(object));
  }
  page.truncated = XmlText(xml, "IsTruncated").value_or("false") == "true";
  page.next_continuation_token = XmlText(xml, "NextContinuationToken").value_or("");
  if (page.truncated && page.next_continuation_token.empty()) {
    return MakeError(ErrorKind::kData,
                     "S3 listing says it is truncated but gives no NextContinuationToken");
  }
  return page;
}

Result<std::string> ParseUploadId(std::string_view xml) {
  std::optional<std::string> id = XmlText(xml, "UploadId");
  if (!id || id->empty()) {
    return MakeError(ErrorKind::kData,
                     "S3 answered CreateMultipartUpload without an UploadId; the server's "
                     "response is malformed");
  }
  return *id;
}

std::optional<S3ErrorBody> ParseS3Error(std::string_view xml) {
  std::vector<std::string_view> errors = XmlElements(xml, "Error");
  if (errors.empty()) return std::nullopt;
  return S3ErrorBody{.code = XmlText(errors.front(), "Code").value_or(""),
                     .message = XmlText(errors.front(), "Message").value_or("")};
}

std::string CompleteMultipartUploadXml(const std::vector<CompletedPart>& parts) {
  std::string out = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
  for (const CompletedPart& part : parts) {
    out += "<Part><PartNumber>" + std::to_string(part.number) + "</PartNumber><ETag>" +
           XmlEscape(part.etag) + "</ETag></Part>";
  }
  out += "</CompleteMultipartUpload>";
  return out;
}

}  // namespace databox::fileio::s3
