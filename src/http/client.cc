#include "http/client.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "common/encoding.h"
#include "common/redact.h"

namespace databox::http {
namespace {

//! Longest excerpt of a response body quoted in an error message.
constexpr std::size_t kBodyExcerptChars = 300;

//! Registers the values of credential query parameters (key=..., token=...).
void RegisterQuerySecrets(std::string_view url) {
  std::size_t query = url.find('?');
  if (query == std::string_view::npos) return;
  std::string_view params = url.substr(query + 1);
  params = params.substr(0, params.find('#'));
  while (!params.empty()) {
    std::string_view param = params.substr(0, params.find('&'));
    params.remove_prefix(std::min(params.size(), param.size() + 1));
    std::size_t eq = param.find('=');
    if (eq == std::string_view::npos || !IsCredentialParamName(UrlDecode(param.substr(0, eq)))) {
      continue;
    }
    RegisterSecret(param.substr(eq + 1));
    RegisterSecret(UrlDecode(param.substr(eq + 1)));
  }
}

void RegisterRequestSecrets(const Request& request) {
  for (const auto& [name, value] : request.headers.fields()) {
    if (!IsCredentialHeaderName(name)) continue;
    RegisterSecret(value);
    // "Bearer <token>", "Basic <b64>", "AWS4-HMAC-SHA256 Credential=...": mask the credential
    // part on its own as well, since it may be quoted without the scheme.
    if (std::size_t space = value.find(' '); space != std::string::npos) {
      RegisterSecret(std::string_view(value).substr(space + 1));
    }
  }
  RegisterQuerySecrets(request.url);
}

bool IsRetryableStatus(long status) { return status == 429 || (status >= 500 && status != 501); }

//! The start of a response body, on one line, redacted.
std::string BodyExcerpt(std::string_view body) {
  std::string excerpt;
  for (char c : body.substr(0, kBodyExcerptChars)) {
    excerpt += std::iscntrl(static_cast<unsigned char>(c)) ? ' ' : c;
  }
  if (body.size() > kBodyExcerptChars) excerpt += "...";
  return Redact(excerpt);
}

std::string Attempts(int attempts) {
  return std::to_string(attempts) + (attempts == 1 ? " attempt" : " attempts");
}

Error StatusError(const Request& request, const Response& response, int attempts,
                  std::string_view stop_reason) {
  std::string where = std::string(MethodName(request.method)) + " " + RedactUrl(request.url);
  std::string status = "HTTP " + std::to_string(response.status);
  std::string excerpt = BodyExcerpt(response.body);
  std::string body_note = excerpt.empty() ? "" : " (body: " + excerpt + ")";
  if (response.status == 401 || response.status == 403) {
    return Error{ErrorKind::kAuth, where + " was refused with " + status + body_note +
                                       ": check the credentials configured for it"};
  }
  if (response.status == 404) {
    return Error{ErrorKind::kNotFound,
                 where + " returned " + status + body_note + ": check the URL and its parameters"};
  }
  if (IsRetryableStatus(response.status)) {
    return Error{ErrorKind::kNetwork, where + " failed after " + Attempts(attempts) +
                                          " (last status " + std::to_string(response.status) + ")" +
                                          std::string(stop_reason) + body_note +
                                          ": the service is failing or rate-limiting; retry later"};
  }
  return Error{ErrorKind::kData, where + " was rejected with " + status + body_note +
                                     ": check the request parameters"};
}

Error TransportError(const Request& request, const Error& error, int attempts,
                     std::string_view stop_reason) {
  std::string where = std::string(MethodName(request.method)) + " " + RedactUrl(request.url);
  if (error.kind != ErrorKind::kNetwork) return Error{error.kind, where + ": " + error.message};
  return Error{ErrorKind::kNetwork, where + " failed after " + Attempts(attempts) +
                                        std::string(stop_reason) + ": " + error.message};
}

}  // namespace

Result<HttpClient> HttpClient::Make(ClientOptions options, CurlOptions curl) {
  DATABOX_ASSIGN_OR_RETURN(std::unique_ptr<CurlTransport> transport,
                           CurlTransport::Make(std::move(curl)));
  return WithTransport(std::move(transport), std::move(options));
}

HttpClient HttpClient::WithTransport(std::shared_ptr<Transport> transport, ClientOptions options) {
  auto redirecting = std::make_shared<RedirectTransport>(std::move(transport), options.redirects);
  return HttpClient(std::move(redirecting), std::move(options));
}

Result<Response> HttpClient::Get(std::string url, Headers headers) {
  Request request;
  request.url = std::move(url);
  request.headers = std::move(headers);
  return Send(std::move(request));
}

Result<Response> HttpClient::Send(Request request) {
  RegisterRequestSecrets(request);
  RetryTiming& timing = options_.timing != nullptr ? *options_.timing : SystemRetryTiming();
  const AttemptLimits limits{
      .timeout = request.timeout.value_or(options_.timeout),
      .connect_timeout = request.connect_timeout.value_or(options_.connect_timeout),
      .max_response_bytes = request.max_response_bytes.value_or(options_.max_response_bytes),
  };
  const bool idempotent = request.idempotent.value_or(IsIdempotent(request.method));
  const int max_attempts = std::max(1, options_.retry.max_attempts);
  const auto start = timing.Now();

  Result<Response> outcome = MakeError(ErrorKind::kInternal, "no attempt was made");
  std::string stop_reason;
  int attempt = 0;
  while (true) {
    ++attempt;
    outcome = transport_->Send(request, limits);
    bool retryable =
        outcome ? (IsRetryableStatus(outcome->status) && (idempotent || outcome->status == 429))
                : (outcome.error().kind == ErrorKind::kNetwork && idempotent);
    if (!retryable || attempt >= max_attempts) break;

    std::chrono::milliseconds wait = BackoffDelay(options_.retry, attempt - 1, timing.Random());
    std::optional<std::string_view> retry_after =
        outcome ? outcome->headers.Get("Retry-After") : std::nullopt;
    if (retry_after) {
      if (auto asked = ParseRetryAfter(*retry_after, timing.WallNow())) wait = *asked;
    }
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(timing.Now() - start);
    if (elapsed + wait > options_.retry.total_budget) {
      stop_reason = ", stopped because the next wait of " + std::to_string(wait.count()) +
                    " ms would exceed the retry budget of " +
                    std::to_string(options_.retry.total_budget.count()) + " ms";
      break;
    }
    timing.SleepFor(wait);
  }

  if (!outcome)
    return std::unexpected(TransportError(request, outcome.error(), attempt, stop_reason));
  if (outcome->ok() || request.allow_error_status) return outcome;
  return std::unexpected(StatusError(request, *outcome, attempt, stop_reason));
}

}  // namespace databox::http
