// Where everything of a publication lives under its target root (docs/publish.md, "Layout"):
//
//   <root>/.databox-publish                          marker: the target belongs to databox publish
//   <root>/current.json                              the pointer to the newest complete version
//   <root>/data/<namespace>/<table>/<id>-<name>      data and delete files, shared by versions
//   <root>/versions/<NNNNNN>/manifest.json           one version's manifest
//   <root>/versions/<NNNNNN>/tables/<ns>/<table>/metadata/v1.metadata.json (+ manifests)
//   <root>/versions/<NNNNNN>/models.duckdb           the transform's models, read-only
//
// A data file's <id> is the first 16 hex digits of SHA-256("<source location>\n<size>"): Iceberg
// never rewrites a data file in place (every write has a new name), so the source location and
// size name one content, and a file already at its target location is not copied again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace databox::publish {

class Layout {
 public:
  //! `root`: s3://bucket/prefix or an absolute folder; a trailing slash is dropped.
  explicit Layout(std::string_view root);

  const std::string& root() const { return root_; }
  std::string Marker() const;
  std::string Pointer() const;
  std::string VersionsFolder() const;
  std::string DataFolder() const;
  //! "versions/000042" under the root.
  std::string VersionFolder(int64_t version) const;
  std::string Manifest(int64_t version) const;
  std::string ModelsDatabase(int64_t version) const;
  //! The Iceberg table location of one version's copy of a raw table.
  std::string TableLocation(int64_t version, std::string_view ns, std::string_view table) const;
  //! The shared location of a data or delete file (see the file comment for its <id>).
  std::string DataFile(std::string_view ns, std::string_view table,
                       std::string_view source_location, uint64_t size) const;
  //! `location` relative to the root ("data/raw_x/t/..."); nullopt when it is not under it.
  std::optional<std::string> Relative(std::string_view location) const;
  //! The root joined with a relative location.
  std::string Absolute(std::string_view relative) const;
  //! The version a location under versions/ belongs to; nullopt for other locations.
  std::optional<int64_t> VersionOf(std::string_view location) const;

 private:
  std::string root_;  //!< without a trailing slash
};

}  // namespace databox::publish
