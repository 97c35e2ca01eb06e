#include "sources/usfws/usfws_card.h"

#include "common/sha256.h"
#include "sources/usfws/html.h"
#include "sources/usfws/python_text.h"
#include "sources/usfws/usfws_html.h"

namespace databox::source {
namespace {

constexpr std::string_view kMediaPrefix = "/media/";

//! The href of the first <a> in the first element of class `class_name`, if it has one.
std::optional<std::string> LinkIn(const HtmlElement& scope, std::string_view class_name) {
  const auto field = FirstWithClass(scope, class_name);
  if (!field) return std::nullopt;
  const auto link = FirstTag(*field, "a");
  if (!link) return std::nullopt;
  auto href = link->Attribute("href");
  if (!href || href->empty()) return std::nullopt;
  return href;
}

void ReadImage(const HtmlElement& scope, Card& card) {
  const auto field = FirstWithClass(scope, "field--name-field-media-image");
  if (!field) return;
  const auto image = FirstTag(*field, "img");
  if (!image) return;
  card.image_url = UrlAttribute(*image, "src");
  if (auto alt = image->Attribute("alt")) card.alt_text = CollapseWhitespace(*alt);
  card.width = IntegerAttribute(*image, "width");
  card.height = IntegerAttribute(*image, "height");
}

}  // namespace

std::string_view UrlPath(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  const std::size_t authority = url.find("://");
  if (authority == std::string_view::npos) return url;
  const std::size_t path = url.find('/', authority + 3);
  return path == std::string_view::npos ? std::string_view() : url.substr(path);
}

Result<Card> ParseCard(std::string_view html) {
  DATABOX_ASSIGN_OR_RETURN(HtmlDocument doc, HtmlDocument::Parse(html, "search result card"));
  Card card;
  if (const auto root = doc.root()) {
    card.href = LinkIn(*root, "field--name-name")
                    .value_or(LinkIn(*root, "field--name-field-media-image").value_or(""));
    card.title = TextOfClass(*root, "field--name-name");
    card.caption = TextOfClass(*root, "field--name-field-media-caption");
    card.credit = TextOfClass(*root, "field--name-field-media-credit");
    card.mime_label = TextOfClass(*root, "field--name-field-mime-type");
    ReadImage(*root, card);
    if (const auto time = FirstTag(*root, "time")) card.published_at = time->Attribute("datetime");
  }
  card.source_page_url = ResolveUrl(kFwsBase, card.href);
  const std::string_view path = UrlPath(card.source_page_url);
  card.media_id = path.starts_with(kMediaPrefix)
                      ? std::string(path.substr(kMediaPrefix.size()))
                      : Sha256Hex(card.href + "|" + card.title.value_or("None"));
  return card;
}

}  // namespace databox::source
