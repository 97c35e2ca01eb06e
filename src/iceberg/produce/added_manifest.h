// AddedManifest: the manifest of one content's added files (data files, or position delete
// files) of a SnapshotProducer. It is encoded at the first attempt and, once that attempt's
// files are written, kept: later attempts on newer bases list the same manifest again instead
// of writing the files' entries anew.
#pragma once

#include <optional>
#include <vector>

#include "common/error.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/produce/produce_attempt.h"

namespace databox::iceberg {

class AddedManifest {
 public:
  explicit AddedManifest(ManifestContent content) : content_(content) {}

  //! The manifest listing `files` (ADDED entries) for `attempt`: the kept one, else one newly
  //! encoded into the attempt. nullopt when there are no files.
  Result<std::optional<ManifestFile>> For(const std::vector<DataFile>& files,
                                          ProduceAttempt& attempt);
  //! Keeps the manifest the last For encoded; call once its attempt's files are written.
  void Keep();

  //! The kept manifest, once an attempt was written.
  const std::optional<ManifestFile>& kept() const { return kept_; }

 private:
  ManifestContent content_;
  std::optional<ManifestFile> kept_;
  std::optional<ManifestFile> fresh_;  //!< encoded by the current attempt, not yet written
};

}  // namespace databox::iceberg
