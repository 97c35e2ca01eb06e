#include "load/ingest_input.h"

#include <zlib.h>
#include <zstd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <vector>

#include "common/ascii.h"
#include "duck/connection.h"
#include "duck/database.h"
#include "duck/quote.h"
#include "load/csv_dialect.h"

namespace databox::load {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kChunkBytes = 1u << 20;  //!< bytes read and written per step

Status GunzipTo(const fs::path& from, std::ofstream& out) {
  gzFile in = gzopen(from.c_str(), "rb");
  if (in == nullptr) {
    return MakeError(ErrorKind::kNotFound, "cannot open " + from.string() + "; check the path");
  }
  std::vector<char> buffer(kChunkBytes);
  int read = 0;
  while ((read = gzread(in, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0) {
    out.write(buffer.data(), read);
  }
  int code = Z_OK;
  const std::string why = read < 0 ? gzerror(in, &code) : "";
  gzclose(in);
  if (read < 0) {
    return MakeError(ErrorKind::kData, from.string() + " is not valid gzip data (" + why + ")");
  }
  return Ok();
}

Status UnzstdTo(const fs::path& from, std::ofstream& out) {
  std::unique_ptr<FILE, int (*)(FILE*)> in(std::fopen(from.c_str(), "rb"), &std::fclose);
  if (!in) {
    return MakeError(ErrorKind::kNotFound, "cannot open " + from.string() + "; check the path");
  }
  std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(), &ZSTD_freeDCtx);
  std::vector<char> input(ZSTD_DStreamInSize());
  std::vector<char> output(ZSTD_DStreamOutSize());
  std::size_t last = 0;  // 0 once a frame is complete
  std::size_t read = 0;
  while ((read = std::fread(input.data(), 1, input.size(), in.get())) > 0) {
    ZSTD_inBuffer in_buf{input.data(), read, 0};
    while (in_buf.pos < in_buf.size) {
      ZSTD_outBuffer out_buf{output.data(), output.size(), 0};
      last = ZSTD_decompressStream(ctx.get(), &out_buf, &in_buf);
      if (ZSTD_isError(last)) {
        return MakeError(ErrorKind::kData, from.string() + " is not valid zstd data (" +
                                               ZSTD_getErrorName(last) + ")");
      }
      out.write(output.data(), static_cast<std::streamsize>(out_buf.pos));
    }
  }
  if (last != 0) {
    return MakeError(ErrorKind::kData, from.string() + " ends inside a zstd frame (truncated?)");
  }
  return Ok();
}

//! DuckDB reads `path` (CSV with type detection, or Parquet) and writes its rows to `to` as
//! NDJSON.
Status DuckDbToNdjson(const fs::path& file, const fs::path& path, IngestFormat format,
                      const fs::path& to) {
  DATABOX_ASSIGN_OR_RETURN(auto db, duck::Database::Open(""));
  DATABOX_ASSIGN_OR_RETURN(auto conn, duck::Connection::Open(db));
  // One thread keeps the rows in file order (errors name a row by its line) without the
  // parallel ordered COPY's buffering, which grows with the input (10 M CSV rows: 1.2 GB peak).
  DATABOX_RETURN_IF_ERROR(conn.Execute("SET threads = 1"));
  std::string reader = "read_parquet(" + duck::QuoteLiteral(path.string()) + ")";
  if (format == IngestFormat::kCsv) {
    DATABOX_ASSIGN_OR_RETURN(reader, StrictCsvReader(conn, file, path));
  }
  const std::string sql = "COPY (SELECT * FROM " + reader + ") TO " +
                          duck::QuoteLiteral(to.string()) + " (FORMAT json)";
  if (auto copied = conn.Execute(sql); !copied) {
    if (format == IngestFormat::kCsv) return std::unexpected(CsvReadError(copied.error(), file));
    return std::unexpected(copied.error().WithContext("reading " + file.string() + " as parquet"));
  }
  return Ok();
}

}  // namespace

std::string_view IngestFormatName(IngestFormat format) {
  switch (format) {
    case IngestFormat::kNdjson:
      return "ndjson";
    case IngestFormat::kCsv:
      return "csv";
    case IngestFormat::kParquet:
      return "parquet";
  }
  return "ndjson";
}

std::optional<IngestFormat> ParseIngestFormat(std::string_view name) {
  if (name == "ndjson" || name == "jsonl" || name == "json") return IngestFormat::kNdjson;
  if (name == "csv") return IngestFormat::kCsv;
  if (name == "parquet") return IngestFormat::kParquet;
  return std::nullopt;
}

Result<InputKind> InputKindOf(const fs::path& path, std::optional<IngestFormat> format) {
  InputKind kind;
  fs::path name = path.filename();
  const std::string outer = AsciiLower(name.extension().string());
  if (outer == ".gz") {
    kind.compression = Compression::kGzip;
  } else if (outer == ".zst") {
    kind.compression = Compression::kZstd;
  }
  if (kind.compression != Compression::kNone) name = name.stem();
  if (format) {
    kind.format = *format;
    return kind;
  }
  const std::string ext = AsciiLower(name.extension().string());
  const auto told = ParseIngestFormat(ext.empty() ? ext : ext.substr(1));
  if (!told) {
    return MakeError(ErrorKind::kConfig,
                     "cannot tell the format of " + path.string() +
                         " from its name (.ndjson, .jsonl, .json, .csv or .parquet, optionally "
                         "with .gz or .zst); give it with --format");
  }
  kind.format = *told;
  return kind;
}

Status Decompress(const fs::path& from, Compression compression, const fs::path& to) {
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  if (!out) return MakeError(ErrorKind::kIo, "cannot write " + to.string());
  DATABOX_RETURN_IF_ERROR(compression == Compression::kGzip ? GunzipTo(from, out)
                                                            : UnzstdTo(from, out));
  out.close();
  if (!out) return MakeError(ErrorKind::kIo, "cannot write " + to.string() + " (disk full?)");
  return Ok();
}

Result<fs::path> PlainOf(const fs::path& path, const InputKind& kind, const fs::path& scratch,
                         std::size_t index) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return MakeError(ErrorKind::kNotFound,
                     "input file " + path.string() + " does not exist or is not a file");
  }
  if (kind.compression == Compression::kNone) return path;
  fs::path plain = scratch / ("input-" + std::to_string(index) + ".decompressed");
  DATABOX_RETURN_IF_ERROR(Decompress(path, kind.compression, plain));
  return plain;
}

Result<fs::path> NdjsonOf(const fs::path& path, const InputKind& kind, const fs::path& scratch,
                          std::size_t index) {
  DATABOX_ASSIGN_OR_RETURN(fs::path plain, PlainOf(path, kind, scratch, index));
  if (kind.format == IngestFormat::kNdjson) return plain;
  const fs::path ndjson = scratch / ("input-" + std::to_string(index) + ".ndjson");
  DATABOX_RETURN_IF_ERROR(DuckDbToNdjson(path, plain, kind.format, ndjson));
  return ndjson;
}

}  // namespace databox::load
