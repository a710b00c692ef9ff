#include "core/io/inflate.h"

#include "core/io/text.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <climits>
#include <new>

namespace ridgepoint {

namespace {

// Ends the zlib stream however the function returns.
struct InflateStream {
    z_stream z {};
    bool open = false;
    // 15 window bits: zlib's header; 15 + 16: gzip's (RFC 1952).
    explicit InflateStream(int windowBits = 15) { open = inflateInit2(&z, windowBits) == Z_OK; }
    ~InflateStream()
    {
        if (open)
            inflateEnd(&z);
    }
    InflateStream(const InflateStream &) = delete;
    InflateStream &operator=(const InflateStream &) = delete;
};

constexpr int kZlibWindow = 15;
constexpr int kGzipWindow = 15 + 16;

// Inflates `deflated` with `windowBits` (zlib or gzip framing). `partial`: return what came out
// when the output reaches maxBytes or the data fails or ends, instead of an error.
Expected<std::string, std::string> inflateWith(
    std::string_view deflated, std::size_t maxBytes, int windowBits, bool partial);

} // namespace

bool isGzip(std::string_view bytes)
{
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f
        && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Expected<std::string, std::string> inflateCapped(std::string_view deflated, std::size_t maxBytes)
{
    return inflateWith(deflated, maxBytes, kZlibWindow, false);
}

Expected<std::string, std::string> gunzipCapped(std::string_view gzipped, std::size_t maxBytes)
{
    return inflateWith(gzipped, maxBytes, kGzipWindow, false);
}

std::string gunzipHead(std::string_view gzipped, std::size_t maxBytes)
{
    auto head = inflateWith(gzipped, maxBytes, kGzipWindow, true);
    return head ? std::move(*head) : std::string();
}

namespace {

Expected<std::string, std::string> inflateWith(
    std::string_view deflated, std::size_t maxBytes, int windowBits, bool partial)
{
    InflateStream stream(windowBits);
    if (!stream.open)
        return Unexpected(std::string("cannot start zlib"));
    // zlib's lengths are unsigned int: a larger input is fed in pieces.
    std::size_t fed = 0;
    std::array<unsigned char, 1 << 16> chunk {};
    std::string out;
    try {
        for (;;) {
            if (stream.z.avail_in == 0 && fed < deflated.size()) {
                const std::size_t piece = std::min<std::size_t>(deflated.size() - fed, UINT_MAX);
                // zlib takes a non-const pointer but does not write through next_in.
                stream.z.next_in
                    = reinterpret_cast<Bytef *>(const_cast<char *>(deflated.data() + fed));
                stream.z.avail_in = static_cast<uInt>(piece);
                fed += piece;
            }
            stream.z.next_out = chunk.data();
            stream.z.avail_out = static_cast<uInt>(chunk.size());
            const int status = inflate(&stream.z, Z_NO_FLUSH);
            const std::size_t produced = chunk.size() - stream.z.avail_out;
            if (out.size() + produced > maxBytes) {
                if (partial) {
                    out.append(reinterpret_cast<const char *>(chunk.data()), maxBytes - out.size());
                    return out;
                }
                return Unexpected("inflates to more than " + std::to_string(maxBytes) + " bytes");
            }
            // Grown by doubling as append would, keeping kTextPadding free past the end.
            if (out.capacity() < out.size() + produced + kTextPadding)
                out.reserve(std::max(2 * out.capacity(), out.size() + produced + kTextPadding));
            out.append(reinterpret_cast<const char *>(chunk.data()), produced);
            if (status == Z_STREAM_END)
                return out;
            if (partial && status != Z_OK)
                return out;
            if (status == Z_NEED_DICT || status == Z_DATA_ERROR || status == Z_MEM_ERROR
                || status == Z_STREAM_ERROR)
                return Unexpected(std::string("corrupt compressed data (zlib: ")
                    + (stream.z.msg != nullptr ? stream.z.msg : "error " + std::to_string(status))
                    + ")");
            const bool stuck = status == Z_BUF_ERROR || (produced == 0 && stream.z.avail_in == 0);
            if (stuck && fed >= deflated.size()) {
                if (partial)
                    return out;
                return Unexpected(std::string("the compressed data ends early"));
            }
        }
    } catch (const std::bad_alloc &) {
        return Unexpected(std::string("out of memory while inflating"));
    }
}

} // namespace

} // namespace ridgepoint
