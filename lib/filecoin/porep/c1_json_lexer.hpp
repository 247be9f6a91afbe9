// cuzk — internal to the C1 JSON reader: a strict, streaming JSON token
// reader that knows where it is. It keeps the JSON path of the value being
// read ("a.b[3].c") so that every error names the field; it never builds a
// document tree and never allocates by a count read from the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin::c1json {

class lexer {
public:
    lexer(std::string_view text, const std::string& source);

    // A path segment, dropped again when the scope ends.
    class scope {
    public:
        scope(lexer& l, size_t len) : l_(l), len_(len) {}
        scope(const scope&) = delete;
        scope& operator=(const scope&) = delete;
        ~scope() { l_.path_.resize(len_); }

    private:
        lexer& l_;
        size_t len_;
    };
    [[nodiscard]] scope at_key(std::string_view key);
    [[nodiscard]] scope at_index(size_t i);

    // Throws bad_format: "<source>: <path><suffix>: <msg> (byte N)".
    [[noreturn]] void fail_msg(const std::string& msg, std::string_view suffix = {}) const;
    // "expected <expected>, found <the token at the cursor>".
    [[noreturn]] void fail(std::string_view expected, std::string_view suffix = {}) const;

    void open_object() { expect('{'); }
    // The next member, which must be `name` (`first`: no comma before it);
    // the returned scope puts `name` on the path.
    [[nodiscard]] scope member(std::string_view name, bool first = false);
    // The object's end; a further member is reported as an extra key.
    void close_object();

    // An array of exactly `n` elements of `what`; `each(i)` reads element i
    // with "[i]" on the path.
    template <class F>
    void array(size_t n, std::string_view what, F&& each)
    {
        expect('[');
        for (size_t i = 0; i < n; ++i) {
            if (peek(']')) fail_short(n, i, what);
            if (i > 0) expect(',');
            scope s = at_index(i);
            each(i);
        }
        if (peek(',')) fail_long(n, what);
        expect(']');
    }

    // A plain decimal integer in 0..max ("expected <noun> in 0..max");
    // `index` >= 0 adds "[index]" to the path of an error; `shown_min` is
    // the lower bound the message states.
    uint64_t uint(uint64_t max, std::string_view noun, long index = -1, uint64_t shown_min = 0);
    // The same in min..max.
    uint64_t uint_in(uint64_t min, uint64_t max, std::string_view noun);
    // A string without escapes, at most `max_len` characters.
    std::string_view string(size_t max_len, std::string_view what);
    void null();
    // An array of 32 numbers 0..255.
    void bytes32(domain& out);
    // Only whitespace may remain.
    void end();

private:
    void ws();
    bool peek(char c);
    void expect(char c);
    std::string describe() const;
    [[noreturn]] void fail_short(size_t n, size_t got, std::string_view what) const;
    [[noreturn]] void fail_long(size_t n, std::string_view what) const;
    [[noreturn]] void fail_uint(uint64_t min, uint64_t max, std::string_view noun, std::string_view extra,
                                long index) const;

    const char* begin_;
    const char* p_;
    const char* end_;
    const std::string& source_;
    std::string path_;
};

} // namespace cuzk::filecoin::c1json
