#include "core/io/inflate.h"

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
    InflateStream() { open = inflateInit(&z) == Z_OK; }
    ~InflateStream()
    {
        if (open)
            inflateEnd(&z);
    }
    InflateStream(const InflateStream &) = delete;
    InflateStream &operator=(const InflateStream &) = delete;
};

} // namespace

Expected<std::string, std::string> inflateCapped(std::string_view deflated, std::size_t maxBytes)
{
    InflateStream stream;
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
            if (out.size() + produced > maxBytes)
                return Unexpected("inflates to more than " + std::to_string(maxBytes) + " bytes");
            out.append(reinterpret_cast<const char *>(chunk.data()), produced);
            if (status == Z_STREAM_END)
                return out;
            if (status == Z_NEED_DICT || status == Z_DATA_ERROR || status == Z_MEM_ERROR
                || status == Z_STREAM_ERROR)
                return Unexpected(std::string("corrupt compressed data (zlib: ")
                    + (stream.z.msg != nullptr ? stream.z.msg : "error " + std::to_string(status))
                    + ")");
            if (status == Z_BUF_ERROR || (produced == 0 && stream.z.avail_in == 0))
                if (fed >= deflated.size())
                    return Unexpected(std::string("the compressed data ends early"));
        }
    } catch (const std::bad_alloc &) {
        return Unexpected(std::string("out of memory while inflating"));
    }
}

} // namespace ridgepoint
