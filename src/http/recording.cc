#include "http/recording.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <system_error>

#include "common/ascii.h"
#include "common/redact.h"
#include "common/utf8.h"

namespace databox::http {
namespace {

//! What a masked credential header holds in a cassette (as in the shared recordings).
constexpr std::string_view kMaskedHeader = "REDACTED";

//! Headers with credential values masked and every other value redacted; `drop` names fields
//! that describe the transfer rather than the stored body.
std::vector<std::pair<std::string, std::string>> RedactHeaders(
    const Headers& headers, std::initializer_list<std::string_view> drop = {}) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, value] : headers.fields()) {
    bool dropped = false;
    for (std::string_view d : drop) dropped = dropped || AsciiEqualsIgnoreCase(name, d);
    if (dropped) continue;
    out.emplace_back(name,
                     IsCredentialHeaderName(name) ? std::string(kMaskedHeader) : Redact(value));
  }
  return out;
}

void EmitHeaders(YAML::Emitter& out,
                 const std::vector<std::pair<std::string, std::string>>& headers) {
  out << YAML::Key << "headers" << YAML::Value << YAML::BeginMap;
  for (const auto& [name, value] : headers) {
    out << YAML::Key << name << YAML::Value << YAML::BeginSeq << value << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

}  // namespace

Result<Response> RecordingTransport::Send(const Request& request, const AttemptLimits& limits) {
  auto response = inner_->Send(request, limits);
  if (!response) return response;
  Interaction interaction{
      .method = request.method,
      .uri = RedactUrl(request.url),
      .request_headers = RedactHeaders(request.headers),
      .status = response->status,
      .response_headers = RedactHeaders(response->headers, {"Content-Encoding", "Content-Length",
                                                            "Transfer-Encoding", "Set-Cookie"}),
      .body = Redact(response->body)};
  std::lock_guard lock(mutex_);
  interactions_.push_back(std::move(interaction));
  if (Status written = Write(); !written) return std::unexpected(written.error());
  return response;
}

Status RecordingTransport::Write() const {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "interactions" << YAML::Value << YAML::BeginSeq;
  for (const Interaction& i : interactions_) {
    out << YAML::BeginMap << YAML::Key << "request" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "body" << YAML::Value << YAML::Null;
    EmitHeaders(out, i.request_headers);
    out << YAML::Key << "method" << YAML::Value << std::string(MethodName(i.method));
    out << YAML::Key << "uri" << YAML::Value << i.uri << YAML::EndMap;
    out << YAML::Key << "response" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "body" << YAML::Value << YAML::BeginMap << YAML::Key << "string"
        << YAML::Value;
    if (IsValidUtf8(i.body)) {
      out << YAML::DoubleQuoted << i.body;
    } else {
      out << YAML::Binary(reinterpret_cast<const unsigned char*>(i.body.data()), i.body.size());
    }
    out << YAML::EndMap;
    EmitHeaders(out, i.response_headers);
    out << YAML::Key << "status" << YAML::Value << YAML::BeginMap << YAML::Key << "code"
        << YAML::Value << i.status << YAML::EndMap;
    out << YAML::EndMap << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::Key << "version" << YAML::Value << 1 << YAML::EndMap;
  if (!out.good()) {
    return MakeError(ErrorKind::kInternal,
                     "cannot write the cassette " + cassette_.string() + ": " + out.GetLastError());
  }
  std::error_code ec;
  std::filesystem::create_directories(cassette_.parent_path(), ec);
  const std::filesystem::path partial = cassette_.string() + ".partial";
  {
    std::ofstream file(partial, std::ios::binary | std::ios::trunc);
    file << out.c_str() << "\n";
    if (!file.flush()) {
      return MakeError(ErrorKind::kIo, "cannot write the cassette " + partial.string() +
                                           ": check the folder's permissions and free space");
    }
  }
  std::filesystem::rename(partial, cassette_, ec);
  if (ec) {
    return MakeError(ErrorKind::kIo, "cannot move the cassette into place at " +
                                         cassette_.string() + ": " + ec.message());
  }
  return Ok();
}

}  // namespace databox::http
