// Numbers as profilers write them (docs/FORMATS.md §7.2): plain, with commas between groups of
// three digits, or (ncu in some locales, §1.8) with a decimal comma and '.' between thousands.
// One parser each, shared by every reader.
#pragma once

#include "core/model/expected.h"

#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint {

// A plain number ("2085.756683", "1e3", "+4", blanks around allowed), the whole text, finite;
// nullopt otherwise.
std::optional<double> plainNumber(std::string_view text);
// The same as a bool and an out-parameter (`value` untouched when false), for the readers'
// inner loops: GCC returned the optional through a stack slot written in two parts and read as
// one, a stall on every number (plainNumber's share of analyze's CPU went from 9.8 % to 8.3 %).
bool plainNumber(std::string_view text, double &value);

bool positiveFinite(double value);

// "1,234,567.5" -> "1234567.5" when the commas group digits by three (1 to 3 leading digits,
// then groups of exactly three, no comma after the point); nullopt otherwise ("1,5", "12,34").
std::optional<std::string> withoutThousandsSeparators(std::string_view text);

// The markers profilers write for a value they do not have: empty, n/a, N/A, nan, no data, -.
bool isMissingValue(std::string_view text);

// A number in a profiler's report: plain, or with valid thousands separators; nullopt for a
// missing marker; an error ("\"1,5\" is not a number: ...") for anything else.
ridgepoint::Expected<std::optional<double>, std::string> parseReportNumber(std::string_view text);

// "27.595.520", "2.508.800", "1.234,5": '.' groups thousands and ',' is the decimal mark. With
// `needEvidence`, one '.' group alone ("1.500") does not count: it reads as 1.5 in the usual
// convention too.
bool isDotGrouped(std::string_view text, bool needEvidence);

// "53,261,312.5" or "55,150,962,625": ',' groups thousands, '.' is the decimal mark (two groups,
// or one and a fraction: what only the usual convention can read).
bool isCommaGrouped(std::string_view text);

// The same number in the usual convention: "27.595.520" -> "27595520", "65,77" -> "65.77"; the
// text unchanged when it is not written with a decimal comma.
std::string fromDecimalComma(std::string_view text);

} // namespace ridgepoint
