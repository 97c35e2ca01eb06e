// One fws.gov media page (`/media/{slug}`) read into the detail fields of an image record
// (docs/sources.md, "usfws": detail fields), and the rule for which URLs may be fetched at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::source {

//! What became of a candidate's detail page; the names are stored in detail_fetch_status.
enum class DetailStatus {
  kOk,                       //!< fetched; exactly one licence value
  kMissingRights,            //!< fetched; no licence field, or one without values and links
  kAmbiguousRights,          //!< fetched; several licence values or links (stored as JSON arrays)
  kSkippedUnsafeUrl,         //!< not fetched: not a https://www.fws.gov/media/<slug> URL
  kUnavailableAfterRetries,  //!< every attempt failed transiently
};

std::string_view DetailStatusName(DetailStatus status);

struct DetailFields {
  DetailStatus status = DetailStatus::kMissingRights;  //!< the rights status of the page
  std::optional<std::string> title;
  std::optional<std::string> caption;
  std::optional<std::string> alt_text;
  std::optional<std::string> creator;
  std::optional<std::string> license;       //!< one value, or a JSON array when ambiguous
  std::optional<std::string> license_url;   //!< one URL, or a JSON array when ambiguous
  std::optional<std::string> published_at;  //!< YYYY-MM-DD from the created text
  std::optional<std::string> created_text;
  std::optional<std::string> media_type;
  std::optional<std::string> mime_type;  //!< from the medium image's file extension
  std::optional<std::string> medium_url;
  std::optional<int64_t> medium_width;
  std::optional<int64_t> medium_height;
  std::optional<std::string> original_url;
  std::optional<int64_t> original_width;
  std::optional<int64_t> original_height;
  std::string scientific_name_tags_json = "[]";  //!< texts of the species-reference items
  std::string species_tag_urls_json = "[]";      //!< each species item's first link
  std::string subject_tags_json = "[]";          //!< texts of the subject-tag items
};

//! Whether `url` may be fetched: https, host www.fws.gov, no port, user, query or fragment, and
//! a path matching ^/media/[a-z0-9][a-z0-9-]*$.
bool IsSafeDetailUrl(std::string_view url);

//! Reads a media page. kData when the body is not UTF-8 (a byte order mark is allowed).
Result<DetailFields> ParseDetailPage(std::string_view body);

//! "YYYY-MM-DD" for the first dd/dd/dddd in `text` read as MM/DD/YYYY, or nullopt when there is
//! none or it is not a calendar date.
std::optional<std::string> CreatedDate(std::string_view text);

//! The IANA media type of an image URL's file extension (jpg and jpeg: image/jpeg, png, gif,
//! webp, tif and tiff, svg, bmp), or nullopt for any other.
std::optional<std::string> MimeTypeOfUrl(std::string_view url);

}  // namespace databox::source
