#include "sources/usfws/usfws_detail.h"

#include <chrono>
#include <regex>
#include <vector>

#include "common/ascii.h"
#include "common/utf8.h"
#include "sources/usfws/html.h"
#include "sources/usfws/python_text.h"
#include "sources/usfws/usfws_card.h"
#include "sources/usfws/usfws_html.h"

namespace databox::source {
namespace {

constexpr int64_t kMaxFallbackWidth = 992;

std::optional<std::string> NonEmpty(std::optional<std::string> text) {
  if (text && text->empty()) return std::nullopt;
  return text;
}

//! Every element below `scope` whose class list holds `class_name`, in document order.
std::vector<HtmlElement> AllWithClass(const HtmlElement& scope, std::string_view class_name) {
  std::vector<HtmlElement> out;
  for (const HtmlElement& e : scope.Descendants()) {
    if (e.HasClass(class_name)) out.push_back(e);
  }
  return out;
}

std::vector<HtmlElement> AllTags(const HtmlElement& scope, std::string_view tag) {
  std::vector<HtmlElement> out;
  for (const HtmlElement& e : scope.Descendants()) {
    if (e.name() == tag) out.push_back(e);
  }
  return out;
}

void ReadOriginal(const HtmlElement& scope, DetailFields& out) {
  const auto original = FirstWithClass(scope, "photoswipe");
  if (!original) return;
  out.original_url = UrlAttribute(*original, "href");
  out.original_width = IntegerAttribute(*original, "data-pswp-width");
  out.original_height = IntegerAttribute(*original, "data-pswp-height");
}

//! The widest <source> that is not WebP and at most 992 wide, else the first <img>.
void ReadMediumFallback(const HtmlElement& scope, DetailFields& out) {
  std::optional<HtmlElement> widest;
  int64_t widest_width = -1;
  for (const HtmlElement& source : AllTags(scope, "source")) {
    if (!source.Attribute("srcset") || source.Attribute("type") == "image/webp") continue;
    const int64_t width = IntegerAttribute(source, "width").value_or(0);
    if (width > kMaxFallbackWidth || width <= widest_width) continue;
    widest = source;
    widest_width = width;
  }
  if (widest) {
    const std::string srcset = CollapseWhitespace(*widest->Attribute("srcset"));
    if (!srcset.empty()) out.medium_url = ResolveUrl(kFwsBase, srcset.substr(0, srcset.find(' ')));
    out.medium_width = IntegerAttribute(*widest, "width");
    out.medium_height = IntegerAttribute(*widest, "height");
    return;
  }
  if (const auto image = FirstTag(scope, "img")) {
    out.medium_url = UrlAttribute(*image, "src");
    out.medium_width = IntegerAttribute(*image, "width");
    out.medium_height = IntegerAttribute(*image, "height");
  }
}

void ReadMedium(const HtmlElement& scope, DetailFields& out) {
  const auto link = scope.FirstDescendant([](const HtmlElement& e) {
    return e.name() == "a" && e.Attribute("download").value_or("").ends_with("-medium");
  });
  if (!link) {
    ReadMediumFallback(scope, out);
  } else {
    out.medium_url = UrlAttribute(*link, "href");
    static const std::regex kSize(R"(\((\d+)\s*x\s*(\d+)\))");
    const std::string text = ElementText(*link);
    if (std::smatch m; std::regex_search(text, m, kSize)) {
      out.medium_width = std::stoll(m[1].str());
      out.medium_height = std::stoll(m[2].str());
    }
  }
  if (out.medium_url) out.mime_type = MimeTypeOfUrl(*out.medium_url);
}

void ReadRights(const HtmlElement& scope, DetailFields& out) {
  out.status = DetailStatus::kMissingRights;
  const auto field = FirstWithClass(scope, "field--name-field-creative-commons-license");
  if (!field) return;
  const std::vector<HtmlElement> items = AllWithClass(*field, "field--item");
  std::vector<std::string> values, urls;
  for (const HtmlElement& item : items) {
    if (std::string text = ElementText(item); !text.empty()) values.push_back(std::move(text));
    for (const HtmlElement& link : AllTags(item, "a")) {
      if (auto url = UrlAttribute(link, "href")) urls.push_back(std::move(*url));
    }
  }
  if (items.size() == 1 && values.size() == 1 && urls.size() <= 1) {
    out.status = DetailStatus::kOk;
    out.license = values.front();
    if (!urls.empty()) out.license_url = urls.front();
  } else if (!values.empty() || !urls.empty()) {
    out.status = DetailStatus::kAmbiguousRights;
    out.license = AsciiJsonArray(values);
    out.license_url = AsciiJsonArray(urls);
  }
}

void ReadCreator(const HtmlElement& scope, DetailFields& out) {
  const auto credit = FirstWithClass(scope, "image-credit");
  if (!credit) return;
  std::string text;
  if (const auto paragraph = FirstTag(*credit, "p")) {
    text = ElementText(*paragraph);
  } else {
    text = ElementText(*credit);
    constexpr std::string_view kLabel = "Photo By/Credit";
    if (AsciiEqualsIgnoreCase(std::string_view(text).substr(0, kLabel.size()), kLabel)) {
      text = CollapseWhitespace(text.substr(kLabel.size()));
    }
  }
  out.creator = NonEmpty(text);
}

void ReadTitleAndTexts(const HtmlElement& scope, DetailFields& out) {
  std::optional<std::string> overlay;
  if (const auto original = FirstWithClass(scope, "photoswipe")) {
    if (auto title = original->Attribute("data-overlay-title")) {
      overlay = NonEmpty(CollapseWhitespace(*title));
    }
  }
  out.title = overlay;
  if (!out.title) out.title = NonEmpty(TextOfClass(scope, "field--name-name"));
  if (!out.title) {
    if (const auto h1 = FirstTag(scope, "h1")) out.title = NonEmpty(ElementText(*h1));
  }
  out.caption = TextOfClass(scope, "field--name-field-media-caption");
  out.media_type = TextOfClass(scope, "media-type");
  out.created_text = TextOfClass(scope, "date-shot-created");
  if (out.created_text) out.published_at = CreatedDate(*out.created_text);

  const auto field = FirstWithClass(scope, "field--name-field-media-image");
  const auto image = field ? FirstTag(*field, "img") : std::nullopt;
  const auto alt_image = image ? image : FirstTag(scope, "img");
  if (alt_image) {
    if (auto alt = alt_image->Attribute("alt")) out.alt_text = CollapseWhitespace(*alt);
  }
}

//! The texts (and, with `urls`, each item's first link) of the items of field `class_name`.
void ReadTags(const HtmlElement& scope, std::string_view class_name, std::string& texts_json,
              std::string* urls_json) {
  std::vector<std::string> texts, urls;
  if (const auto field = FirstWithClass(scope, class_name)) {
    for (const HtmlElement& item : AllWithClass(*field, "field--item")) {
      if (std::string text = ElementText(item); !text.empty()) texts.push_back(std::move(text));
      const auto link = item.FirstDescendant(
          [](const HtmlElement& e) { return e.name() == "a" && e.Attribute("href"); });
      if (link) urls.push_back(*UrlAttribute(*link, "href"));
    }
  }
  texts_json = AsciiJsonArray(texts);
  if (urls_json != nullptr) *urls_json = AsciiJsonArray(urls);
}

}  // namespace

std::string_view DetailStatusName(DetailStatus status) {
  switch (status) {
    case DetailStatus::kOk:
      return "ok";
    case DetailStatus::kMissingRights:
      return "missing_rights";
    case DetailStatus::kAmbiguousRights:
      return "ambiguous_rights";
    case DetailStatus::kSkippedUnsafeUrl:
      return "skipped_unsafe_url";
    case DetailStatus::kUnavailableAfterRetries:
      return "unavailable_after_retries";
  }
  return "unknown";
}

bool IsSafeDetailUrl(std::string_view url) {
  static const std::regex kSafe("^https://www\\.fws\\.gov/media/[a-z0-9][a-z0-9-]*$",
                                std::regex::icase);
  static const std::regex kPath("^/media/[a-z0-9][a-z0-9-]*$");
  // The scheme and host compare case-insensitively, the path exactly.
  return std::regex_match(url.begin(), url.end(), kSafe) &&
         std::regex_match(url.begin() + static_cast<std::ptrdiff_t>(url.find("/media/")), url.end(),
                          kPath);
}

std::optional<std::string> CreatedDate(std::string_view text) {
  static const std::regex kDate(R"(\b(\d{2})/(\d{2})/(\d{4})\b)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(text.begin(), text.end(), m, kDate)) return std::nullopt;
  const int month = std::stoi(m[1].str()), day = std::stoi(m[2].str());
  const int year = std::stoi(m[3].str());
  const std::chrono::year_month_day date{std::chrono::year(year),
                                         std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || year < 1) return std::nullopt;
  // The digits as matched: two, two and four of them.
  return m[3].str() + "-" + m[1].str() + "-" + m[2].str();
}

std::optional<std::string> MimeTypeOfUrl(std::string_view url) {
  const std::string_view path = UrlPath(url);
  const std::string_view name =
      path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string extension = AsciiLower(name.substr(dot + 1));
  if (extension == "jpg" || extension == "jpeg") return "image/jpeg";
  if (extension == "png" || extension == "gif" || extension == "webp" || extension == "bmp") {
    return "image/" + extension;
  }
  if (extension == "tif" || extension == "tiff") return "image/tiff";
  if (extension == "svg") return "image/svg+xml";
  return std::nullopt;
}

Result<DetailFields> ParseDetailPage(std::string_view body) {
  if (body.starts_with(kUtf8ByteOrderMark)) body.remove_prefix(kUtf8ByteOrderMark.size());
  if (!IsValidUtf8(body)) {
    return MakeError(ErrorKind::kData, "a media page is not UTF-8 text");
  }
  DATABOX_ASSIGN_OR_RETURN(HtmlDocument doc, HtmlDocument::Parse(body, "media page"));
  DetailFields out;
  const auto root = doc.root();
  if (!root) return out;
  const HtmlElement scope = FirstWithClass(*root, "media-full-content").value_or(*root);
  ReadOriginal(scope, out);
  ReadMedium(scope, out);
  ReadRights(scope, out);
  ReadCreator(scope, out);
  ReadTitleAndTexts(scope, out);
  ReadTags(scope, "field--name-field-species-ref", out.scientific_name_tags_json,
           &out.species_tag_urls_json);
  ReadTags(scope, "field--name-field-subject-tags", out.subject_tags_json, nullptr);
  return out;
}

}  // namespace databox::source
