// cuzk — the iden3 binary container shared by .zkey, .wtns, .r1cs and .ptau
// (docs/FORMATS.md §2.1):
//
//   4 bytes  magic ("zkey", "wtns", "r1cs", "ptau")
//   u32 LE   version
//   u32 LE   number of sections
//   per section: u32 LE id, u64 LE byte size, then that many bytes
//
// Sections may come in any order (circom writes r1cs sections 2, 1, 3), so
// readers index them by id. binfile rejects: a wrong magic, a version outside
// [min_version, max_version], a section header or body running past the end
// of the data, the same id twice, and bytes after the last section. Errors are
// errc::bad_format (structure) or errc::bad_length (truncation) and name the
// file and, where there is one, the section.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/io/byte_reader.hpp"
#include "cuzk/io/mapped_file.hpp"

namespace cuzk::io {

struct binfile_section {
    uint32_t id;
    uint64_t offset;   // of the section body, from the start of the file
    uint64_t size;
};

class binfile {
public:
    // Parses the container header and section table of `data` (not owned:
    // it must outlive this object). `name` (usually the path) prefixes errors.
    binfile(std::span<const uint8_t> data, std::string name, std::string_view magic, uint32_t min_version,
            uint32_t max_version);

    const std::string& name() const noexcept { return name_; }
    uint32_t version() const noexcept { return version_; }
    const std::vector<binfile_section>& sections() const noexcept { return sections_; }
    bool has(uint32_t id) const noexcept;

    // The body of section `id`; `what` is its human name for messages
    // ("header", "IC"). A missing section raises errc::bad_format.
    std::span<const uint8_t> section(uint32_t id, std::string_view what) const;
    // A checked cursor over section `id`, whose errors read
    // "<name> section <id> (<what>) at offset <file offset>: …".
    byte_reader reader(uint32_t id, std::string_view what) const;
    // Requires the size of section `id` to be exactly `expected` bytes.
    void expect_size(uint32_t id, std::string_view what, uint64_t expected) const;

private:
    const binfile_section* find(uint32_t id) const noexcept;
    std::span<const uint8_t> data_;
    std::string name_;
    uint32_t version_ = 0;
    std::vector<binfile_section> sections_;
};

// Writes a container: the header at construction, then begin_section /
// write… / end_section per section (the u64 size is patched at the end of
// each section), then close(), which checks that the announced number of
// sections was written. If the writer is destroyed before close() the
// partial file is removed.
class binfile_writer {
public:
    binfile_writer(std::string path, std::string_view magic, uint32_t version, uint32_t n_sections);

    void begin_section(uint32_t id);
    void end_section();
    void write(const void* p, size_t n) { out_.write(p, n); }
    void write(std::span<const uint8_t> b) { out_.write(b); }
    void write_u32(uint32_t v) { out_.write_u32_le(v); }
    void write_u64(uint64_t v) { out_.write_u64_le(v); }
    void close();
    const std::string& path() const noexcept { return out_.path(); }

private:
    output_file out_;
    uint32_t n_sections_;
    uint32_t written_ = 0;
    bool in_section_ = false;
    uint64_t size_pos_ = 0;   // where the current section's u64 size goes
};

} // namespace cuzk::io
