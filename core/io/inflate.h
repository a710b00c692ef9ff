// zlib streams inflated a piece at a time, stopping as soon as the output passes a limit: a
// picture's few hundred compressed bytes can claim a gigabyte (a "decompression bomb").
#pragma once

#include "core/model/expected.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace ridgepoint {

// The inflated bytes of a zlib stream (RFC 1950, as in PNG zTXt/iTXt chunks and PDF
// FlateDecode streams), or why not: "inflates to more than N bytes" once the output passes
// maxBytes (never more than maxBytes + one step held), "corrupt compressed data (...)", "the
// compressed data ends early". Bytes after the end of the stream are ignored.
Expected<std::string, std::string> inflateCapped(std::string_view deflated, std::size_t maxBytes);

// A gzip file (RFC 1952: `.json.gz` as torch.profiler writes it) starts with these two bytes.
bool isGzip(std::string_view bytes);

// The inflated bytes of a gzip stream, with inflateCapped's limit and messages; a stream that
// ends before its trailer is "the compressed data ends early".
Expected<std::string, std::string> gunzipCapped(std::string_view gzipped, std::size_t maxBytes);

// At most the first `maxBytes` inflated bytes of a gzip stream, as much as could be had: for
// recognising a compressed file by its beginning. Corrupt or cut data ends it early, silently.
std::string gunzipHead(std::string_view gzipped, std::size_t maxBytes);

} // namespace ridgepoint
