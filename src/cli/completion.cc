#include "cli/completion.h"

#include <vector>

namespace databox::cli {
namespace {

//! The case branches of the script's lookup functions, one line each, gathered over the tree.
struct Branches {
  std::string subcommands;   //!< path) echo 'names' ;;
  std::string options;       //!< path) echo 'names' ;;
  std::string option_kinds;  //!< 'path|--name') echo kind ;;
  std::string positionals;   //!< path) echo 'kinds' ;;
};

//! `text` as one single-quoted bash word.
std::string Quote(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string Join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

//! What a value named `name` (an option's value text or a positional's name) is: "dir", "file"
//! or "value" (anything else, not completed).
std::string ValueKind(std::string_view name) {
  if (name.ends_with("DIR")) return "dir";
  if (name.ends_with("FILE") || name.ends_with("PATH")) return "file";
  return "value";
}

std::string Branch(const std::string& pattern, const std::string& words) {
  return "    " + Quote(pattern) + ") echo " + Quote(words) + " ;;\n";
}

//! Adds the branches of `app`, whose command words are `path` ("" for the root), and of every
//! visible subcommand below it.
void Describe(const CLI::App& app, const std::string& path, Branches& out) {
  std::vector<const CLI::App*> subcommands;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (!sub->get_group().empty()) subcommands.push_back(sub);  // an empty group hides it
  }
  std::vector<std::string> names;
  for (const CLI::App* sub : subcommands) names.push_back(sub->get_name());
  if (!names.empty()) out.subcommands += Branch(path, Join(names));

  std::vector<std::string> options;
  std::vector<std::string> positionals;
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) continue;  // hidden
    if (!option->nonpositional()) {
      positionals.push_back(ValueKind(option->get_name(true)));
      continue;
    }
    const bool flag = option->get_expected_max() == 0 || option->get_type_size_max() == 0;
    const std::string kind = flag ? "flag" : ValueKind(option->get_option_text());
    std::vector<std::string> spellings;
    for (const std::string& name : option->get_snames()) spellings.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) spellings.push_back("--" + name);
    for (const std::string& spelling : spellings) {
      options.push_back(spelling);
      out.option_kinds += "    " + Quote(path + "|" + spelling) + ") echo " + kind + " ;;\n";
    }
  }
  if (!options.empty()) out.options += Branch(path, Join(options));
  if (!positionals.empty()) out.positionals += Branch(path, Join(positionals));

  for (const CLI::App* sub : subcommands) {
    Describe(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
  }
}

//! The lookup functions (NAME, then the case branches) the completion function calls.
std::string Lookup(const std::string& function, const std::string& comment,
                   const std::string& subject, const std::string& branches) {
  return "# " + comment + "\n" + function + "() {\n  case \"" + subject + "\" in\n" + branches +
         "  esac\n}\n\n";
}

// The completion function; "PROGRAM" stands for the program's name. It walks the words before
// the cursor: a subcommand of the command so far extends the path, an option that takes a value
// skips it (also as --option = value, bash splitting at '='), anything else is a positional.
// `help` completes the command names after it.
constexpr std::string_view kCompleteFunction =
    R"bash(# Completes file names (dir: folders only) for the word $2.
_PROGRAM_files() {
  local IFS=$'\n'
  if [[ $1 == dir ]]; then
    COMPREPLY=($(compgen -d -- "$2"))
  else
    COMPREPLY=($(compgen -f -- "$2"))
  fi
  compopt -o filenames 2>/dev/null
  return 0
}

# Completes the word $2 from the space-separated words $1.
_PROGRAM_words() {
  local IFS=$' \t\n'
  COMPREPLY=($(compgen -W "$1" -- "$2"))
  return 0
}

_PROGRAM() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="" word kind opt="" option_path
  local -i i npos=0 dashdash=0 help=0
  local -a kinds
  COMPREPLY=()
  ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD - 1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if ((dashdash == 0)) && [[ $word == -?* ]]; then
      if [[ $word == -- ]]; then
        dashdash=1
      elif [[ $word != *=* ]]; then
        kind="$(_PROGRAM_option_kind "$path" "$word")"
        if [[ -n $kind && $kind != flag ]]; then
          if [[ ${COMP_WORDS[i + 1]-} == = ]]; then i+=2; else i+=1; fi
        fi
      fi
    elif ((npos == 0 && dashdash == 0)) &&
      [[ " $(_PROGRAM_subcommands "$path") " == *" $word "* ]]; then
      path="${path:+$path }$word"
      if ((help == 0)) && [[ $path == help ]]; then
        help=1
        path=""
      fi
    else
      npos+=1
    fi
  done
  option_path="$path"
  ((help)) && option_path="help"

  # The value of an option: --option VALUE, --option=VALUE.
  if [[ $cur == = && $prev == -?* ]]; then
    opt="$prev"
    cur=""
  elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
    opt="${COMP_WORDS[COMP_CWORD - 2]}"
  elif [[ $prev == -?* ]]; then
    opt="$prev"
  fi
  if [[ -n $opt ]] && ((dashdash == 0)); then
    kind="$(_PROGRAM_option_kind "$option_path" "$opt")"
    case "$kind" in
      file | dir) _PROGRAM_files "$kind" "$cur"; return 0 ;;
      value) return 0 ;;
    esac
  fi

  if ((dashdash == 0)) && [[ $cur == -* ]]; then
    _PROGRAM_words "$(_PROGRAM_options "$option_path")" "$cur"
    return 0
  fi
  word="$(_PROGRAM_subcommands "$path")"
  if ((npos == 0)) && [[ -n $word ]]; then
    _PROGRAM_words "$word" "$cur"
    return 0
  fi
  ((help)) && return 0
  kinds=($(_PROGRAM_positionals "$path"))
  kind="${kinds[npos]-}"
  case "$kind" in
    file | dir) _PROGRAM_files "$kind" "$cur" ;;
    value) ;;
    *) ((dashdash)) || _PROGRAM_words "$(_PROGRAM_options "$option_path")" "$cur" ;;
  esac
  return 0
}

complete -F _PROGRAM PROGRAM
)bash";

std::string ReplaceAll(std::string text, std::string_view from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

std::string BashCompletionScript(const CLI::App& root) {
  const std::string program = root.get_name();
  Branches branches;
  Describe(root, "", branches);
  const std::string prefix = "_" + program;
  std::string script = "# bash completion for " + program + ", made by `" + program +
                       " completion bash` from the command line's own declarations.\n"
                       "# Use it with: source <(" +
                       program + " completion bash), or save it as\n" +
                       "# ~/.local/share/bash-completion/completions/" + program + ".\n\n";
  script += Lookup(prefix + "_subcommands", "The subcommands of the command words $1.", "$1",
                   branches.subcommands);
  script +=
      Lookup(prefix + "_options", "The options of the command words $1.", "$1", branches.options);
  script += Lookup(prefix + "_option_kind",
                   "What option $2 of the command words $1 takes: flag, file, dir or value.",
                   "$1|$2", branches.option_kinds);
  script += Lookup(prefix + "_positionals",
                   "What each positional of the command words $1 takes: file, dir or value.", "$1",
                   branches.positionals);
  return script + ReplaceAll(std::string(kCompleteFunction), "PROGRAM", program);
}

}  // namespace databox::cli
