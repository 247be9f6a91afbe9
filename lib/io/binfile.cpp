// The iden3 binary container (see include/cuzk/io/binfile.hpp).
#include "cuzk/io/binfile.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::io {

namespace {

std::string printable_magic(std::span<const uint8_t> m)
{
    std::string s;
    for (uint8_t c : m) {
        if (c >= 0x20 && c < 0x7f) s.push_back(char(c));
        else s += fmt::format("\\x{:02x}", c);
    }
    return s;
}

} // namespace

binfile::binfile(std::span<const uint8_t> data, std::string name, std::string_view magic, uint32_t min_version,
                 uint32_t max_version)
    : data_(data), name_(std::move(name))
{
    byte_reader r(data, name_);
    if (data.size() < 12)
        throw error(errc::bad_format, fmt::format("{}: {} bytes is too short for a '{}' file (header is 12 bytes)",
                                                  name_, data.size(), magic));
    const auto m = r.bytes(4, "magic");
    if (std::string_view(reinterpret_cast<const char*>(m.data()), 4) != magic)
        throw error(errc::bad_format,
                    fmt::format("{}: wrong magic '{}', expected '{}'", name_, printable_magic(m), magic));
    version_ = r.u32_le("version");
    if (version_ < min_version || version_ > max_version)
        throw error(errc::bad_format, fmt::format("{}: '{}' version {} is not supported (expected {}..{})", name_,
                                                  magic, version_, min_version, max_version));
    const uint32_t n = r.u32_le("number of sections");
    // Each section needs at least its 12-byte header.
    if (n > r.remaining() / 12)
        throw error(errc::bad_format, fmt::format("{}: header announces {} sections but only {} bytes follow", name_,
                                                  n, r.remaining()));
    sections_.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
        if (r.remaining() < 12)
            throw error(errc::bad_length,
                        fmt::format("{}: section header {} of {} at offset {} runs past the end of the file", name_,
                                    i + 1, n, r.pos()));
        const uint32_t id = r.u32_le("section id");
        const uint64_t size = r.u64_le("section size");
        const uint64_t off = r.pos();
        if (size > r.remaining())
            throw error(errc::bad_length,
                        fmt::format("{}: section {} at offset {} has size {} but only {} bytes are left in the file",
                                    name_, id, off, size, r.remaining()));
        if (find(id))
            throw error(errc::bad_format, fmt::format("{}: section {} appears twice", name_, id));
        sections_.push_back({id, off, size});
        r.skip(size_t(size), "section body");
    }
    if (r.remaining() != 0)
        throw error(errc::bad_format,
                    fmt::format("{}: {} unexpected bytes after the last section", name_, r.remaining()));
}

const binfile_section* binfile::find(uint32_t id) const noexcept
{
    for (const auto& s : sections_)
        if (s.id == id) return &s;
    return nullptr;
}

bool binfile::has(uint32_t id) const noexcept { return find(id) != nullptr; }

std::span<const uint8_t> binfile::section(uint32_t id, std::string_view what) const
{
    const auto* s = find(id);
    if (!s) throw error(errc::bad_format, fmt::format("{}: missing section {} ({})", name_, id, what));
    return data_.subspan(size_t(s->offset), size_t(s->size));
}

byte_reader binfile::reader(uint32_t id, std::string_view what) const
{
    const auto body = section(id, what);
    return byte_reader(body, fmt::format("{} section {} ({})", name_, id, what), find(id)->offset);
}

void binfile::expect_size(uint32_t id, std::string_view what, uint64_t expected) const
{
    const auto body = section(id, what);
    if (body.size() != expected)
        throw error(errc::bad_length, fmt::format("{}: section {} ({}) has {} bytes, expected {}", name_, id, what,
                                                  body.size(), expected));
}

// ---- writer ---------------------------------------------------------------------

binfile_writer::binfile_writer(std::string path, std::string_view magic, uint32_t version, uint32_t n_sections)
    : out_(std::move(path)), n_sections_(n_sections)
{
    if (magic.size() != 4) throw error(errc::invalid_argument, "binfile magic must be 4 bytes");
    out_.write(magic.data(), 4);
    out_.write_u32_le(version);
    out_.write_u32_le(n_sections);
}

void binfile_writer::begin_section(uint32_t id)
{
    if (in_section_) throw error(errc::internal, fmt::format("{}: nested binfile section", out_.path()));
    if (written_ == n_sections_)
        throw error(errc::internal, fmt::format("{}: more sections than announced ({})", out_.path(), n_sections_));
    out_.write_u32_le(id);
    size_pos_ = out_.tell();
    out_.write_u64_le(0);
    in_section_ = true;
}

void binfile_writer::end_section()
{
    if (!in_section_) throw error(errc::internal, fmt::format("{}: end_section without begin", out_.path()));
    const uint64_t size = out_.tell() - size_pos_ - 8;
    uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = uint8_t(size >> (8 * i));
    out_.write_at(size_pos_, b, 8);
    in_section_ = false;
    ++written_;
}

void binfile_writer::close()
{
    if (in_section_ || written_ != n_sections_)
        throw error(errc::internal, fmt::format("{}: {} of {} sections written", out_.path(), written_, n_sections_));
    out_.close();
}

} // namespace cuzk::io
