#include "http/replay.h"

#include <yaml-cpp/yaml.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <system_error>
#include <utility>

#include "common/ascii.h"
#include "common/edit_distance.h"
#include "common/encoding.h"
#include "common/redact.h"

namespace databox::http {
namespace {

//! How many recorded URLs an unmatched-request error suggests.
constexpr std::size_t kClosestShown = 3;

//! Inflates a gzip or zlib/raw-deflate body (windowBits 47 = auto-detect gzip or zlib).
Result<std::string> Inflate(const std::string& data, std::string_view file) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 32) != Z_OK) {
    return MakeError(ErrorKind::kInternal, "zlib could not start inflating a recorded body");
  }
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char chunk[16384];
  int code = Z_OK;
  while (code == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof(chunk);
    code = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk, sizeof(chunk) - stream.avail_out);
  }
  inflateEnd(&stream);
  if (code != Z_STREAM_END) {
    return MakeError(ErrorKind::kData, "recorded body in " + std::string(file) +
                                           " is marked compressed but does not inflate");
  }
  return out;
}

Result<std::string> ReadBody(const YAML::Node& body, const Headers& headers,
                             std::string_view file) {
  if (!body || body.IsNull()) return std::string();
  YAML::Node text = body.IsMap() ? body["string"] : body;
  if (!text || text.IsNull()) return std::string();
  if (text.Tag() != "tag:yaml.org,2002:binary") return text.as<std::string>();
  // yaml-cpp 0.7's base64 decoder indexes its table with a signed char, so a non-ASCII byte
  // reads out of bounds (found by replay_fuzz under ASan): only base64 text reaches it.
  const std::string encoded = text.Scalar();
  const bool is_base64 = std::all_of(encoded.begin(), encoded.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '+' || c == '/' || c == '=' || std::isspace(u);
  });
  if (!is_base64) {
    return MakeError(ErrorKind::kData, "recorded body in " + std::string(file) +
                                           " is marked !!binary but is not base64 text");
  }
  // Binary::data() of an empty body binds a reference to element 0 (UBSan, replay_fuzz).
  std::vector<unsigned char> bytes;
  text.as<YAML::Binary>().swap(bytes);
  std::string raw(bytes.begin(), bytes.end());
  std::string encoding = AsciiLower(headers.Get("Content-Encoding").value_or(""));
  if (encoding == "gzip" || encoding == "deflate") return Inflate(raw, file);
  return raw;
}

Headers ReadHeaders(const YAML::Node& node) {
  Headers headers;
  if (!node || !node.IsMap()) return headers;
  for (const auto& field : node) {
    std::string name = field.first.as<std::string>();
    if (field.second.IsSequence()) {
      for (const auto& value : field.second) headers.Add(name, value.as<std::string>());
    } else if (!field.second.IsNull()) {
      headers.Add(name, field.second.as<std::string>());
    }
  }
  return headers;
}

}  // namespace

std::string ReplayMatchKey(Method method, std::string_view url) {
  std::string_view without_fragment = url.substr(0, url.find('#'));
  std::size_t query_start = without_fragment.find('?');
  std::string_view base = without_fragment.substr(0, query_start);
  std::size_t authority = base.find("://");
  std::size_t path_start = authority == std::string_view::npos ? 0 : base.find('/', authority + 3);
  if (path_start == std::string_view::npos) path_start = base.size();
  std::string key = std::string(MethodName(method)) + " " + AsciiLower(base.substr(0, path_start));
  key += base.substr(path_start).empty() ? "/" : base.substr(path_start);

  std::vector<std::string> params;
  if (query_start != std::string_view::npos) {
    std::string_view query = without_fragment.substr(query_start + 1);
    while (!query.empty()) {
      std::string_view param = query.substr(0, query.find('&'));
      query.remove_prefix(std::min(query.size(), param.size() + 1));
      if (param.empty()) continue;
      std::size_t eq = param.find('=');
      std::string name = UrlDecode(param.substr(0, eq));
      if (IsCredentialParamName(name)) continue;
      std::string value = eq == std::string_view::npos ? "" : UrlDecode(param.substr(eq + 1));
      params.push_back(UrlEncode(name) + "=" + UrlEncode(value));
    }
  }
  std::sort(params.begin(), params.end());
  for (std::size_t i = 0; i < params.size(); ++i) key += (i == 0 ? "?" : "&") + params[i];
  return key;
}

Result<std::unique_ptr<ReplayTransport>> ReplayTransport::Load(const std::filesystem::path& path) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(path, error)) {
    for (const auto& item : std::filesystem::recursive_directory_iterator(path, error)) {
      if (item.is_regular_file() && item.path().extension() == ".yaml")
        files.push_back(item.path());
    }
    std::sort(files.begin(), files.end());
  } else if (std::filesystem::is_regular_file(path, error)) {
    files.push_back(path);
  } else {
    return MakeError(ErrorKind::kNotFound,
                     "recording " + path.string() + " does not exist: check the fixture path");
  }
  auto transport = std::unique_ptr<ReplayTransport>(new ReplayTransport(path.string()));
  for (const auto& file : files) DATABOX_RETURN_IF_ERROR(transport->LoadFile(file));
  if (transport->entries_.empty()) {
    return MakeError(ErrorKind::kNotFound, "recording " + path.string() +
                                               " holds no interactions: expected VCR YAML files");
  }
  return transport;
}

Status ReplayTransport::LoadFile(const std::filesystem::path& file) {
  const std::string name = file.string();
  try {
    YAML::Node root = YAML::LoadFile(name);
    YAML::Node interactions = root["interactions"];
    if (!interactions || !interactions.IsSequence()) {
      return MakeError(ErrorKind::kData,
                       "recording " + name + " has no 'interactions' list: not a VCR cassette");
    }
    for (const auto& interaction : interactions) {
      YAML::Node request = interaction["request"];
      YAML::Node response = interaction["response"];
      if (!request || !response) {
        return MakeError(ErrorKind::kData,
                         "recording " + name + " has an interaction without request or response");
      }
      DATABOX_ASSIGN_OR_RETURN(Method method, ParseMethod(request["method"].as<std::string>()));
      std::string uri = request["uri"].as<std::string>();
      Response recorded;
      recorded.status = response["status"]["code"].as<long>();
      recorded.headers = ReadHeaders(response["headers"]);
      DATABOX_ASSIGN_OR_RETURN(recorded.body, ReadBody(response["body"], recorded.headers, name));
      Add(ReplayMatchKey(method, uri), std::string(MethodName(method)) + " " + RedactUrl(uri),
          std::move(recorded), name);
    }
  } catch (const YAML::Exception& exception) {
    return MakeError(ErrorKind::kData,
                     "cannot read recording " + name + ": " + Redact(exception.what()));
  }
  return Ok();
}

void ReplayTransport::Add(std::string key, std::string display, Response response,
                          const std::string& file) {
  auto entry = std::find_if(entries_.begin(), entries_.end(),
                            [&](const Entry& candidate) { return candidate.key == key; });
  if (entry == entries_.end()) {
    entries_.push_back(Entry{.key = std::move(key),
                             .display = std::move(display),
                             .responses = {std::move(response)},
                             .files = {file},
                             .served = 0});
    return;
  }
  for (std::size_t i = 0; i < entry->responses.size(); ++i) {
    if (entry->files[i] != file && entry->responses[i].status == response.status &&
        entry->responses[i].body == response.body) {
      return;  // the same exchange from a copy of the cassette
    }
  }
  entry->responses.push_back(std::move(response));
  entry->files.push_back(file);
}

Result<Response> ReplayTransport::Send(const Request& request, const AttemptLimits& limits) {
  const std::string key = ReplayMatchKey(request.method, request.url);
  std::unique_lock lock(mutex_);
  auto entry = std::find_if(entries_.begin(), entries_.end(),
                            [&](const Entry& candidate) { return candidate.key == key; });
  if (entry == entries_.end()) {
    std::vector<std::pair<std::size_t, const Entry*>> ranked;
    for (const Entry& candidate : entries_) {
      ranked.emplace_back(EditDistance(key, candidate.key), &candidate);
    }
    std::sort(ranked.begin(), ranked.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string closest;
    for (std::size_t i = 0; i < std::min(kClosestShown, ranked.size()); ++i) {
      closest += "\n  " + ranked[i].second->display;
    }
    return MakeError(ErrorKind::kNotFound,
                     "no recorded response in " + source_ + " matches this request " +
                         "(replay never uses the network); closest recorded requests:" + closest);
  }
  std::size_t index = std::min(entry->served, entry->responses.size() - 1);
  ++entry->served;
  const Response& response = entry->responses[index];
  if (response.body.size() > limits.max_response_bytes) {
    return std::unexpected(ResponseTooLargeError(limits.max_response_bytes));
  }
  return response;
}

}  // namespace databox::http
