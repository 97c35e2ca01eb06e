// A secret value resolved from an ${ENV_VAR} reference. It can be used (Reveal) but never printed:
// every formatting path yields "***", so a secret cannot leak into logs or error messages.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace databox::registry {

//! The masked rendering used wherever a secret would be printed.
inline constexpr std::string_view kMaskedSecret = "***";

class Secret {
 public:
  Secret() = default;
  //! A secret named by `env_var` with its resolved value (empty when unresolved).
  Secret(std::string env_var, std::string value, bool resolved)
      : env_var_(std::move(env_var)), value_(std::move(value)), resolved_(resolved) {}

  //! The referenced environment variable name ("EBIRD_API_TOKEN"); safe to print.
  const std::string& env_var() const { return env_var_; }
  //! True when the variable was found in the environment or the .env file.
  bool resolved() const { return resolved_; }
  //! True when no reference was configured at all.
  bool empty() const { return env_var_.empty(); }
  //! The plain value, for the one place that sends it (an HTTP header, a signer). Never log it.
  const std::string& Reveal() const { return value_; }
  //! Always "***" (or "" when no secret is configured).
  std::string ToString() const { return empty() ? std::string() : std::string(kMaskedSecret); }

 private:
  std::string env_var_;  //!< variable name from the ${...} reference
  std::string value_;    //!< resolved value; never formatted
  bool resolved_ = false;
};

inline std::ostream& operator<<(std::ostream& os, const Secret& secret) {
  return os << secret.ToString();
}

}  // namespace databox::registry
