#include "report/lineage.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/ascii.h"

namespace databox::report {
namespace {

//! `sql` with every `--` comment blanked out (string literals are not told apart: a `--` inside
//! one hides the rest of its line, which only loses a reference, never invents one).
std::string WithoutLineComments(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  bool comment = false;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] == '\n') comment = false;
    if (!comment && sql[i] == '-' && i + 1 < sql.size() && sql[i + 1] == '-') comment = true;
    out += comment ? ' ' : sql[i];
  }
  return out;
}

std::string EscapeRegex(std::string_view text) {
  static const std::regex kSpecial(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(std::string(text), kSpecial, R"(\$&)");
}

Result<std::string> ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    return MakeError(ErrorKind::kIo, "cannot read model file " + path.string() +
                                         ": check that it exists and is readable");
  }
  return text.str();
}

}  // namespace

std::vector<std::string> RawTablesRead(std::string_view sql, std::string_view alias) {
  const std::regex reference(
      "\\b" + EscapeRegex(alias) + R"(\s*\.\s*(raw_[a-z0-9_]+)\s*\.\s*([a-z0-9_]+))",
      std::regex::icase);
  const std::string text = WithoutLineComments(sql);
  std::set<std::string> tables;
  for (std::sregex_iterator it(text.begin(), text.end(), reference), end; it != end; ++it) {
    tables.insert(AsciiLower((*it)[1].str()) + "." + AsciiLower((*it)[2].str()));
  }
  return {tables.begin(), tables.end()};
}

std::vector<std::string> ModelsRead(std::string_view sql, const std::vector<std::string>& models,
                                    const std::string& self) {
  const std::string text = AsciiLower(WithoutLineComments(sql));
  std::vector<std::string> read;
  for (const auto& model : models) {
    if (model == self || model.find('.') == std::string::npos) continue;
    const std::regex name(R"((^|[^A-Za-z0-9_."]))" + EscapeRegex(AsciiLower(model)) +
                          R"(($|[^A-Za-z0-9_."]))");
    if (std::regex_search(text, name)) read.push_back(model);
  }
  std::sort(read.begin(), read.end());
  return read;
}

std::string DeclaredModelName(std::string_view sql) {
  static const std::regex kHeader(R"(\bMODEL\s*\(\s*name\s+([A-Za-z0-9_."]+))", std::regex::icase);
  const std::string text = WithoutLineComments(sql);
  std::smatch match;
  if (!std::regex_search(text, match, kHeader)) return "";
  std::string name = match[1].str();
  std::erase(name, '"');
  return name;
}

Result<std::vector<ModelReads>> ScanModels(const std::filesystem::path& project_dir,
                                           std::string_view alias) {
  const auto models_dir = project_dir / "models";
  std::error_code error;
  std::vector<ModelReads> models;
  std::vector<std::string> texts;
  std::filesystem::recursive_directory_iterator it(models_dir, error), end;
  for (; !error && it != end; it.increment(error)) {
    if (!it->is_regular_file() || it->path().extension() != ".sql") continue;
    auto text = ReadText(it->path());
    if (!text) return std::unexpected(text.error());
    ModelReads model;
    model.file = std::filesystem::relative(it->path(), project_dir).string();
    model.model = DeclaredModelName(*text);
    if (model.model.empty()) model.model = model.file;
    model.reads = RawTablesRead(*text, alias);
    models.push_back(std::move(model));
    texts.push_back(std::move(*text));
  }
  if (error) {
    return MakeError(ErrorKind::kIo, "cannot list the transform models in " + models_dir.string() +
                                         ": " + error.message() +
                                         " (check [project.transform] project_dir)");
  }
  std::vector<std::string> names;
  for (const auto& model : models) names.push_back(model.model);
  for (std::size_t i = 0; i < models.size(); ++i) {
    models[i].models_read = ModelsRead(texts[i], names, models[i].model);
  }
  std::sort(models.begin(), models.end(),
            [](const ModelReads& a, const ModelReads& b) { return a.model < b.model; });
  return models;
}

}  // namespace databox::report
