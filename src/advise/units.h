#pragma once

#include <string>

namespace dlenv::advise {

// How advice spells its numbers. GB are 10^9 bytes, as GPU memory is sold and as
// gpus.json records it.
constexpr double k_gb = 1e9;

// 7e9 -> "7B", 25557032 -> "25.6M", 1234 -> "1234".
std::string count_text(double count);
// Bytes as GB with two decimals: 1.12e11 -> "112.00".
std::string gb_text(double bytes);
// A factor without trailing zeros: 2 -> "2", 0.515875 -> "0.515875".
std::string factor_text(double value);

} // namespace dlenv::advise
