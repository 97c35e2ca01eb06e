#include "platform/s3_settings.h"

#include "http/client.h"

namespace databox::platform {

using fileio::s3::Credentials;
using fileio::s3::CredentialsProvider;
using fileio::s3::EnvLookup;
using fileio::s3::S3Options;
using fileio::s3::StaticCredentialsProvider;

S3Options S3OptionsFromSettings(const registry::S3Settings& settings, const EnvLookup& env) {
  S3Options options;
  options.endpoint =
      settings.endpoint.empty() ? env("DATABOX_S3_ENDPOINT").value_or("") : settings.endpoint;
  options.region =
      settings.region.empty() ? env("DATABOX_AWS_REGION").value_or("us-east-1") : settings.region;
  options.path_style = settings.path_style;
  options.http = http::ClientOptionsFromSettings(settings.http);
  return options;
}

S3Options S3OptionsFromEnv(const EnvLookup& env) {
  S3Options options;
  options.endpoint = env("DATABOX_S3_ENDPOINT").value_or("");
  std::string region = env("DATABOX_AWS_REGION").value_or("");
  options.region = region.empty() ? "us-east-1" : region;
  options.path_style = !options.endpoint.empty();
  return options;
}

Result<std::shared_ptr<CredentialsProvider>> S3CredentialsFromSettings(
    const registry::S3Settings& settings, const EnvLookup& env) {
  const registry::Secret& id = settings.access_key_id;
  const registry::Secret& secret = settings.secret_access_key;
  if (id.empty() && secret.empty()) {
    DATABOX_ASSIGN_OR_RETURN(Credentials credentials, fileio::s3::CredentialsFromEnv(env));
    DATABOX_ASSIGN_OR_RETURN(auto provider, StaticCredentialsProvider::Make(credentials));
    return std::shared_ptr<CredentialsProvider>(std::move(provider));
  }
  for (const registry::Secret* s : {&id, &secret}) {
    if (s->empty() || !s->resolved() || s->Reveal().empty()) {
      std::string name = s->empty() ? "the other S3 credential" : "${" + s->env_var() + "}";
      return MakeError(ErrorKind::kConfig,
                       "S3 credentials in the registry are incomplete: " + name +
                           " is not set; set the variable (environment or .env) or remove "
                           "both keys to use DATABOX_AWS_ACCESS_KEY_ID/SECRET_ACCESS_KEY");
    }
  }
  Credentials credentials{.access_key_id = id.Reveal(),
                          .secret_access_key = secret.Reveal(),
                          .session_token = settings.session_token.Reveal(),
                          .expiration = std::nullopt};
  DATABOX_ASSIGN_OR_RETURN(auto provider, StaticCredentialsProvider::Make(credentials));
  return std::shared_ptr<CredentialsProvider>(std::move(provider));
}

}  // namespace databox::platform
