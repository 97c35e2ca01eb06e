// One fws.gov search result card (an HTML fragment from a search response's `list`) read into
// the fields of an image candidate (docs/sources.md, "usfws": card fields).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::source {

struct Card {
  std::string href;             //!< the link as written ("" when the card has none)
  std::string source_page_url;  //!< href resolved against https://www.fws.gov/
  std::string media_id;  //!< path after /media/, else SHA-256 hex of "{href}|{title or None}"
  std::optional<std::string> title;         //!< absent: null; present but empty: ""
  std::optional<std::string> caption;       //!< as title
  std::optional<std::string> credit;        //!< as title
  std::optional<std::string> mime_label;    //!< as title
  std::optional<std::string> image_url;     //!< the image's src, absolute
  std::optional<std::string> alt_text;      //!< the image's alt, whitespace-collapsed
  std::optional<int64_t> width;             //!< the image's width attribute when an integer
  std::optional<int64_t> height;            //!< the image's height attribute when an integer
  std::optional<std::string> published_at;  //!< datetime of the first <time>
};

//! Reads a card. The link is the first <a> in the first element of class field--name-name,
//! failing that in field--name-field-media-image; title, caption, credit and mime label are the
//! texts (text rule) of field--name-name, field--name-field-media-caption,
//! field--name-field-media-credit and field--name-field-mime-type; the image is the first <img>
//! under field--name-field-media-image. kData only for input libxml2 cannot take.
Result<Card> ParseCard(std::string_view html);

//! The path of an absolute URL ("" when it has none): what lies between the authority and the
//! query or fragment.
std::string_view UrlPath(std::string_view url);

}  // namespace databox::source
