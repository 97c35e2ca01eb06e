#include "cli/args.h"

#include <algorithm>

namespace databox::cli {

std::optional<std::string> ParsedArgs::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedArgs::GetAll(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

namespace {

const OptionSpec* FindOption(const CommandSpec& spec, const std::string& name) {
  auto it = std::find_if(spec.options.begin(), spec.options.end(),
                         [&](const OptionSpec& o) { return o.name == name; });
  return it == spec.options.end() ? nullptr : &*it;
}

Error UsageError(const CommandSpec& spec, const std::string& problem) {
  return Error{ErrorKind::kConfig, problem + " (see `databox " + spec.name + " --help`)"};
}

}  // namespace

Result<ParsedArgs> ParseArgs(const CommandSpec& spec, const std::vector<std::string>& args) {
  ParsedArgs parsed;
  bool only_positionals = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (only_positionals || arg.size() < 2 || arg.rfind("--", 0) != 0) {
      if (!only_positionals && arg.size() > 1 && arg[0] == '-') {
        return std::unexpected(UsageError(spec, "unknown option '" + arg + "'"));
      }
      parsed.positionals_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positionals = true;
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (name == "help") {
      parsed.values_["help"].push_back("");
      continue;
    }
    const OptionSpec* option = FindOption(spec, name);
    if (option == nullptr) {
      return std::unexpected(UsageError(spec, "unknown option '--" + name + "'"));
    }
    auto& slot = parsed.values_[name];
    if (!option->repeatable && !slot.empty()) {
      return std::unexpected(UsageError(spec, "option '--" + name + "' given twice"));
    }
    if (option->value_name.empty()) {
      if (inline_value) {
        return std::unexpected(UsageError(spec, "option '--" + name + "' takes no value"));
      }
      slot.push_back("");
      continue;
    }
    if (inline_value) {
      slot.push_back(*inline_value);
    } else if (i + 1 < args.size()) {
      slot.push_back(args[++i]);
    } else {
      return std::unexpected(
          UsageError(spec, "option '--" + name + "' needs a value " + option->value_name));
    }
  }
  if (parsed.Has("help")) return parsed;
  const auto count = parsed.positionals_.size();
  if (count < spec.min_positionals) {
    return std::unexpected(UsageError(spec, "missing argument; usage: " + spec.usage));
  }
  if (count > spec.max_positionals) {
    return std::unexpected(UsageError(spec, "unexpected argument '" +
                                                parsed.positionals_[spec.max_positionals] +
                                                "'; usage: " + spec.usage));
  }
  return parsed;
}

std::string FormatCommandHelp(const CommandSpec& spec) {
  std::string out = "Usage: " + spec.usage + "\n\n" + spec.summary + "\n";
  if (!spec.description.empty()) out += "\n" + spec.description + "\n";
  out += "\nOptions:\n";
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& o : spec.options) {
    std::string left = "--" + o.name + (o.value_name.empty() ? "" : " " + o.value_name);
    rows.emplace_back(left, o.help + (o.repeatable ? " (repeatable)" : ""));
  }
  rows.emplace_back("--help", "show this help");
  std::size_t width = 0;
  for (const auto& [left, _] : rows) width = std::max(width, left.size());
  for (const auto& [left, help] : rows) {
    out += "  " + left + std::string(width - left.size() + 2, ' ') + help + "\n";
  }
  return out;
}

}  // namespace databox::cli
