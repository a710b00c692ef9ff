// mohamed/roofline hw_db.csv: rows of name, peak GFLOP/s, peak GB/s, price, without a header.
// Format: docs/FORMATS.md §6.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// The first row (comments aside) is a name and two numbers, in four cells (the price is only a
// note: empty or N/A will do). The first row decides, so the reader can say what is wrong with
// a later one.
bool looksLikeHwDb(const Sniff &sniff);

// One machine per row (GFLOP/s, GB/s; the price is a note).
HardwareReadResult readHwDb(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
