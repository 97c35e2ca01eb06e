#include "normalize/iso_datetime.h"

#include "common/clock.h"

namespace databox::normalize {
namespace {

constexpr int64_t kSecondsPerDay = 86'400;

//! A cursor over the text with small digit readers.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ == text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  //! Reads exactly `count` digits.
  std::optional<int> Digits(std::size_t count) {
    if (pos_ + count > text_.size()) return std::nullopt;
    int value = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const char c = text_[pos_ + i];
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + (c - '0');
    }
    pos_ += count;
    return value;
  }
  std::size_t DigitRun() const {
    std::size_t n = 0;
    while (pos_ + n < text_.size() && text_[pos_ + n] >= '0' && text_[pos_ + n] <= '9') ++n;
    return n;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned DaysInMonth(int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

struct Date {
  int year = 0;
  unsigned month = 1;
  unsigned day = 1;
};

std::optional<Date> ParseDate(Scanner& s) {
  auto year = s.Digits(4);
  if (!year) return std::nullopt;
  Date d{*year, 1, 1};
  if (s.Consume('-')) {
    auto month = s.Digits(2);
    if (!month) return std::nullopt;
    d.month = static_cast<unsigned>(*month);
    if (s.Consume('-')) {
      auto day = s.Digits(2);
      if (!day) return std::nullopt;
      d.day = static_cast<unsigned>(*day);
    }
  } else if (s.DigitRun() == 4) {  // basic format YYYYMMDD
    d.month = static_cast<unsigned>(*s.Digits(2));
    d.day = static_cast<unsigned>(*s.Digits(2));
  }
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > DaysInMonth(d.year, d.month)) {
    return std::nullopt;
  }
  return d;
}

//! Parses a time of day and an optional offset; returns microseconds since midnight in UTC
//! (may fall outside one day after the offset is applied) and, separately, the local value.
struct Time {
  int64_t local_micros = 0;
  int64_t offset_seconds = 0;
};

std::optional<Time> ParseTime(Scanner& s) {
  auto hour = s.Digits(2);
  if (!hour || *hour > 23) return std::nullopt;
  int minute = 0;
  int second = 0;
  int64_t micros = 0;
  const bool extended = s.Peek() == ':';
  auto read_part = [&](int& out, int max) {
    if (extended && !s.Consume(':')) return true;  // absent part
    if (!extended && s.DigitRun() < 2) return true;
    auto v = s.Digits(2);
    if (!v || *v > max) return false;
    out = *v;
    return true;
  };
  if (!read_part(minute, 59)) return std::nullopt;
  if (!read_part(second, 59)) return std::nullopt;
  if (s.Peek() == '.' || s.Peek() == ',') {
    s.Consume(s.Peek());
    const std::size_t n = s.DigitRun();
    if (n == 0) return std::nullopt;
    int64_t scale = 100'000;
    for (std::size_t i = 0; i < n; ++i) {
      const int digit = *s.Digits(1);
      micros += digit * scale;
      scale /= 10;
    }
  }
  Time t;
  t.local_micros = ((*hour * 60 + minute) * 60 + second) * kMicrosPerSecond + micros;
  if (s.Consume('Z') || s.Consume('z')) return t;
  const char sign = s.Peek();
  if (sign == '+' || sign == '-') {
    s.Consume(sign);
    auto oh = s.Digits(2);
    if (!oh || *oh > 23) return std::nullopt;
    int om = 0;
    if (s.Consume(':') || s.DigitRun() == 2) {
      auto m = s.Digits(2);
      if (!m || *m > 59) return std::nullopt;
      om = *m;
    }
    t.offset_seconds = (sign == '+' ? 1 : -1) * (*oh * 3600 + om * 60);
  }
  return t;
}

}  // namespace

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  // Howard Hinnant's days_from_civil.
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

std::optional<IsoValue> ParseIsoLike(std::string_view text) {
  Scanner s(text);
  // A time of day alone: "HH:MM..." (a 4-digit start is a year).
  if (text.size() >= 3 && text[2] == ':') {
    auto t = ParseTime(s);
    if (!t || !s.AtEnd()) return std::nullopt;
    return IsoValue{IsoKind::kTime, t->local_micros};
  }
  auto date = ParseDate(s);
  if (!date) return std::nullopt;
  const int64_t days = DaysFromCivil(date->year, date->month, date->day);
  if (s.AtEnd()) return IsoValue{IsoKind::kDate, days};
  if (!(s.Consume('T') || s.Consume('t') || s.Consume(' '))) return std::nullopt;
  auto t = ParseTime(s);
  if (!t || !s.AtEnd()) return std::nullopt;
  const int64_t micros = days * kSecondsPerDay * kMicrosPerSecond + t->local_micros -
                         t->offset_seconds * kMicrosPerSecond;
  return IsoValue{IsoKind::kDateTime, micros};
}

bool IsIsoTimestamp(std::string_view text) {
  auto v = ParseIsoLike(text);
  return v && v->kind == IsoKind::kDateTime;
}

}  // namespace databox::normalize
