// Synthetic AVONET rows for tests only (header-only; not part of the API).
#pragma once

#include <string>
#include <vector>

#include "sources/avonet/avonet.h"
#include "sources/avonet/xlsx_test_support.h"

namespace databox::source::testing {

inline std::vector<std::string> Header() {
  std::vector<std::string> header;
  for (const AvonetColumn& c : DefaultAvonetColumns()) header.push_back(c.header);
  return header;
}

//! A plausible row for species `i` (values modelled on the first rows of the real sheet).
inline Cells Row(int i) {
  return {"Genus species" + std::to_string(i),
          "Accipitridae",
          "Accipitriformes",
          "AVIBASE-0000000" + std::to_string(i),
          "5",
          "2",
          "3",
          "0",
          "4",
          "27.7",
          "17.8",
          "10.6",
          "14.7",
          "62",
          "235.2",
          "81.8",
          "159.5",
          "33.9",
          "169",
          "248.8",
          "Dunning",
          std::nullopt,
          "NO",
          "NA",
          "NA",
          "Forest",
          "1",
          "2",
          "Carnivore",
          "Vertivore",
          "Insessorial"};
}

inline std::vector<Cells> Rows(int n) {
  std::vector<Cells> rows;
  for (int i = 1; i <= n; ++i) rows.push_back(Row(i));
  return rows;
}

}  // namespace databox::source::testing
