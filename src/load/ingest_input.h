// The input files of `databox ingest`: their format (NDJSON, CSV, Parquet) and compression
// (gzip, zstd), told by the file name or given, and the plain NDJSON the normalizer reads.
// Compressed files are decompressed (zlib, libzstd) into a scratch folder. CSV and Parquet files
// mostly go straight from DuckDB into data files (direct_ingest.h); those that do not (nested
// Parquet, a column the table has with another type, merge) are read by DuckDB (read_csv with
// type detection, read_parquet) and written there as NDJSON, one JSON object per row, for the
// normalizer.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace databox::load {

enum class IngestFormat { kNdjson, kCsv, kParquet };
enum class Compression { kNone, kGzip, kZstd };

std::string_view IngestFormatName(IngestFormat format);
//! "ndjson" (also "jsonl", "json"), "csv", "parquet"; nullopt for anything else.
std::optional<IngestFormat> ParseIngestFormat(std::string_view name);

//! What a file holds.
struct InputKind {
  IngestFormat format = IngestFormat::kNdjson;
  Compression compression = Compression::kNone;
};

//! The kind of `path` by its name: .ndjson/.jsonl/.json, .csv, .parquet, each optionally
//! followed by .gz or .zst. `format` overrides the format (the compression is still told by a
//! .gz/.zst ending). kUsage naming the file when neither tells the format.
Result<InputKind> InputKindOf(const std::filesystem::path& path,
                              std::optional<IngestFormat> format = std::nullopt);

//! Writes the decompressed bytes of `from` to `to`. kData naming `from` when it is not valid
//! gzip / zstd data (or ends early).
Status Decompress(const std::filesystem::path& from, Compression compression,
                  const std::filesystem::path& to);

//! The plain bytes of `path`: `path` itself when it is not compressed, else a file decompressed
//! into `scratch` (which must exist), named after `index`. Errors name `path`.
Result<std::filesystem::path> PlainOf(const std::filesystem::path& path, const InputKind& kind,
                                      const std::filesystem::path& scratch, std::size_t index);

//! An NDJSON file with the records of `path`: `path` itself for plain NDJSON, else a file
//! written into `scratch` (which must exist), named after `index`. Errors name `path`.
Result<std::filesystem::path> NdjsonOf(const std::filesystem::path& path, const InputKind& kind,
                                       const std::filesystem::path& scratch, std::size_t index);

}  // namespace databox::load
