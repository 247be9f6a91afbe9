// cuzk — a bounds-checked cursor over untrusted bytes.
//
// Every read checks the remaining length first; running out raises
// errc::bad_length with a message "<context> at offset <n>: <what>: need k
// bytes, m left". The context names the file and the part being read (e.g.
// "c.zkey section 2 (header)"), so a truncated or corrupted file always gives
// an error that says where, never a read past the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/error.hpp"

namespace cuzk::io {

class byte_reader {
public:
    byte_reader(std::span<const uint8_t> data, std::string context, uint64_t base_offset = 0)
        : data_(data), ctx_(std::move(context)), base_(base_offset)
    {
    }

    size_t pos() const noexcept { return pos_; }
    size_t remaining() const noexcept { return data_.size() - pos_; }
    size_t size() const noexcept { return data_.size(); }
    const std::string& context() const noexcept { return ctx_; }

    std::span<const uint8_t> bytes(size_t n, std::string_view what)
    {
        need(n, what);
        auto r = data_.subspan(pos_, n);
        pos_ += n;
        return r;
    }
    void skip(size_t n, std::string_view what) { bytes(n, what); }
    uint32_t u32_le(std::string_view what)
    {
        auto b = bytes(4, what);
        return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    }
    uint64_t u64_le(std::string_view what)
    {
        auto b = bytes(8, what);
        uint64_t v = 0;
        for (int i = 7; i >= 0; --i) v = v << 8 | b[size_t(i)];
        return v;
    }
    uint32_t u32_be(std::string_view what)
    {
        auto b = bytes(4, what);
        return uint32_t(b[3]) | uint32_t(b[2]) << 8 | uint32_t(b[1]) << 16 | uint32_t(b[0]) << 24;
    }
    uint8_t u8(std::string_view what) { return bytes(1, what)[0]; }

    // Requires that count·elem_size bytes remain (overflow-safe); use before
    // allocating anything sized by an untrusted count.
    void need_array(uint64_t count, uint64_t elem_size, std::string_view what) const
    {
        if (elem_size != 0 && count > remaining() / elem_size)
            fail(errc::bad_length, std::string(what) + ": " + std::to_string(count) + " entries of " +
                                       std::to_string(elem_size) + " bytes do not fit in the " +
                                       std::to_string(remaining()) + " bytes left");
    }
    // Requires that everything was consumed.
    void expect_end(std::string_view what) const
    {
        if (remaining() != 0)
            fail(errc::bad_length, std::string(what) + ": " + std::to_string(remaining()) + " unexpected trailing bytes");
    }

    [[noreturn]] void fail(errc code, const std::string& msg) const
    {
        throw error(code, ctx_ + " at offset " + std::to_string(base_ + pos_) + ": " + msg);
    }

private:
    void need(size_t n, std::string_view what) const
    {
        if (n > remaining())
            fail(errc::bad_length, std::string(what) + ": need " + std::to_string(n) + " bytes, " +
                                       std::to_string(remaining()) + " left (truncated?)");
    }

    std::span<const uint8_t> data_;
    std::string ctx_;
    uint64_t base_;
    size_t pos_ = 0;
};

} // namespace cuzk::io
