// Replays the C ABI fuzz harness (fuzz/fuzz_capi.cpp) over a folder of
// inputs without libFuzzer: each file, in name order, is one call of its
// LLVMFuzzerTestOneInput, whose own checks abort on a broken promise. Built
// with the project's compiler (and, in the sanitized build, its sanitizers),
// so that CI checks the harness's seeds there; libFuzzer campaigns run with
// `scripts/fuzz.sh --time S capi`.
//
//   test_capi_fuzz_replay DIR
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: test_capi_fuzz_replay DIR\n");
        return 2;
    }
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(argv[1], ec))
        if (e.is_regular_file()) files.push_back(e.path());
    if (ec || files.empty()) {
        std::fprintf(stderr, "test_capi_fuzz_replay: %s: no inputs (%s)\n", argv[1],
                     ec ? ec.message().c_str() : "empty folder");
        return 1;
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        std::fprintf(stderr, "%s (%zu bytes)\n", f.filename().c_str(), bytes.size());
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    }
    std::printf("replayed %zu inputs\n", files.size());
    return 0;
}
