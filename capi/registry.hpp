// cuzk C ABI — internal: the handle registry, the exception boundary and the
// helpers every entry point shares (struct_size rules, output buffers,
// scalar arrays). Not installed; included by the capi/*.cpp files only.
//
// Handles. A handle given to the host is a token from a process-wide
// counter (never reused), not an address. The registry maps live tokens to
// their objects (shared_ptr) under a shared mutex; every entry point looks
// its handle up there and holds a reference for the duration of the call,
// so a destroyed, foreign or garbage handle is reported without ever being
// dereferenced, and a destroy racing with a call on another thread only ends
// the object when that call returns. Tokens start at 0x10000 and grow by 16:
// they look like aligned pointers (Go's runtime rejects pointer values below
// 4096 on its stacks) and stay far below any Go heap arena. There is one
// registry per process (reg() is an inline function: one static shared by
// every translation unit of libcuzk.so).
//
// Errors. Library failures arrive as cuzk::error, whose errc has the same
// value as the cuzk_status (static_asserts in cuzk.cpp); failures of the ABI
// contract itself (NULL, buffer sizes, struct_size) are raised as abi_error.
// Every entry point runs inside guard(), which turns any exception into a
// status and the message into the handle's last error (or the caller's err
// buffer for create functions).
#pragma once

#include "cuzk.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::capi {

// ---- errors -------------------------------------------------------------------------------
struct abi_error {
    cuzk_status code;
    std::string msg;
};

[[noreturn]] inline void fail(cuzk_status code, std::string msg) { throw abi_error{code, std::move(msg)}; }

// The start of every *_init: false for NULL, else the struct zeroed with
// its struct_size set.
template <class T>
bool clear_struct(T* out) noexcept
{
    if (!out) return false;
    std::memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    return true;
}

template <class P>
void need(const P* p, const char* fn, const char* name)
{
    if (!p) fail(CUZK_ERR_NULL, fmt::format("{}: {} is NULL", fn, name));
}

inline void copy_text(char* out, size_t out_len, const std::string& s) noexcept
{
    if (!out || out_len == 0) return;
    const size_t n = std::min(s.size(), out_len - 1);
    std::memcpy(out, s.data(), n);
    out[n] = '\0';
}

// Runs f, turning any exception into a status; report(msg) records the text.
template <class F, class R>
cuzk_status guard(F&& f, R&& report) noexcept
{
    try {
        return f();
    } catch (const abi_error& e) {
        report(e.msg);
        return e.code;
    } catch (const cuzk::error& e) {
        report(e.what());
        return cuzk_status(int(e.code()));
    } catch (const std::bad_alloc&) {
        report("out of memory");
        return CUZK_ERR_OUT_OF_MEMORY;
    } catch (const std::length_error&) {
        report("out of memory (a requested size exceeds what can be allocated)");
        return CUZK_ERR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        report(std::string("internal error: ") + e.what());
        return CUZK_ERR_INTERNAL;
    } catch (...) {
        report("internal error: an unknown exception");
        return CUZK_ERR_INTERNAL;
    }
}

// ---- objects and the registry ----------------------------------------------------------------
enum class kind : uint8_t { key, pce, recorder, engine, job, timeline_buffer };

inline const char* kind_name(kind k)
{
    switch (k) {
    case kind::key: return "cuzk_key";
    case kind::pce: return "cuzk_pce";
    case kind::recorder: return "cuzk_recorder";
    case kind::engine: return "cuzk_engine";
    case kind::job: return "cuzk_job";
    case kind::timeline_buffer: return "cuzk_timeline_buffer";
    }
    return "handle";
}

struct object {
    virtual ~object() = default;
    virtual kind get_kind() const noexcept = 0;

    void set_error(const std::string& m) noexcept
    {
        try {
            std::lock_guard lk(err_mu_);
            err_ = m;
        } catch (...) {
        }
    }
    std::string error_text() const
    {
        std::lock_guard lk(err_mu_);
        return err_;
    }

private:
    mutable std::mutex err_mu_;
    std::string err_;
};

struct registry {
    std::shared_mutex mu;
    std::unordered_map<uintptr_t, std::shared_ptr<object>> live;
    uintptr_t next = 0x10000;
};

// Never destroyed: handles may be released from atexit handlers or static
// destructors of the host.
inline registry& reg()
{
    static registry* r = new registry;
    return *r;
}

inline uintptr_t token(const void* h) { return reinterpret_cast<uintptr_t>(h); }

template <class H>
H* add_handle(std::shared_ptr<object> o)
{
    registry& r = reg();
    std::unique_lock lk(r.mu);
    const uintptr_t t = r.next;
    r.next += 16;
    r.live.emplace(t, std::move(o));
    return reinterpret_cast<H*>(t);
}

template <class T>
std::shared_ptr<T> find(const void* h)
{
    registry& r = reg();
    std::shared_lock lk(r.mu);
    auto it = r.live.find(token(h));
    if (it == r.live.end() || it->second->get_kind() != T::static_kind) return nullptr;
    return std::static_pointer_cast<T>(it->second);
}

// Removes the handle; the object dies when the last call using it returns
// (outside the registry lock: an engine's destructor joins threads whose
// callbacks may call into the registry).
inline void remove_handle(const void* h, kind k) noexcept
{
    if (!h) return;
    std::shared_ptr<object> victim;
    try {
        registry& r = reg();
        std::unique_lock lk(r.mu);
        auto it = r.live.find(token(h));
        if (it == r.live.end() || it->second->get_kind() != k) return;
        victim = std::move(it->second);
        r.live.erase(it);
    } catch (...) {
        return;
    }
    try {
        victim.reset();
    } catch (...) {
    }
}

// Looks up the handle and runs f(object&) under guard(). (fn names the
// entry point at the call site; the messages carry it.)
template <class T, class F>
cuzk_status call(const void* h, [[maybe_unused]] const char* fn, F&& f) noexcept
{
    if (!h) return CUZK_ERR_NULL;
    std::shared_ptr<T> o;
    try {
        o = find<T>(h);
    } catch (...) {
        return CUZK_ERR_INTERNAL;
    }
    if (!o) return CUZK_ERR_INVALID_HANDLE;
    return guard([&]() -> cuzk_status { return f(*o); },
                 [&](const std::string& m) { o->set_error(m); });
}

// Runs f() for a function without a handle, reporting into (err, err_len).
template <class F>
cuzk_status call_create(char* err, size_t err_len, F&& f) noexcept
{
    if (err && err_len) err[0] = '\0';
    return guard(std::forward<F>(f), [&](const std::string& m) { copy_text(err, err_len, m); });
}

template <class T>
size_t last_error(char* out, size_t out_len, const void* h) noexcept
{
    std::string m;
    try {
        if (!h) m = fmt::format("{} is NULL", kind_name(T::static_kind));
        else if (auto o = find<T>(h)) m = o->error_text();
        else m = fmt::format("not a live {} handle (destroyed, or not a handle)", kind_name(T::static_kind));
    } catch (...) {
        m = "out of memory";
    }
    copy_text(out, out_len, m);
    return m.size();
}

// ---- struct_size rules -----------------------------------------------------------------------
// struct_size is read from host memory; past CUZK_STRUCT_SIZE_MAX it cannot be
// a real struct of any version, and honouring it would read or zero memory
// beyond the host's object.
inline void check_struct_size_max(uint32_t n, const char* fn, const char* name)
{
    if (n > CUZK_STRUCT_SIZE_MAX)
        fail(CUZK_ERR_STRUCT_SIZE, fmt::format("{}: {}.struct_size is {}, at most {} accepted", fn, name, n,
                                               CUZK_STRUCT_SIZE_MAX));
}

// Input structs: the host's struct_size must cover the first version; a
// larger struct may only carry zeros past what this library knows.
template <class S>
S read_struct(const S* in, size_t first_version_size, const char* fn, const char* name)
{
    need(in, fn, name);
    const uint32_t n = in->struct_size;
    if (n < first_version_size)
        fail(CUZK_ERR_STRUCT_SIZE, fmt::format("{}: {}.struct_size is {}, at least {} expected (call {}_init)", fn,
                                               name, n, first_version_size, name));
    check_struct_size_max(n, fn, name);
    const auto* bytes = reinterpret_cast<const unsigned char*>(in);
    for (size_t i = sizeof(S); i < n; ++i)
        if (bytes[i] != 0)
            fail(CUZK_ERR_STRUCT_SIZE,
                 fmt::format("{}: {}.struct_size is {}; this library knows {} bytes and the rest is not zero (byte {})",
                             fn, name, n, sizeof(S), i));
    S s{};
    std::memcpy(&s, in, std::min<size_t>(n, sizeof(S)));
    return s;
}

// Output structs: fills up to the host's struct_size (zeroing a tail this
// library does not know), keeping struct_size.
template <class S>
void write_struct(S* out, const S& value, size_t first_version_size, const char* fn)
{
    need(out, fn, "out");
    const uint32_t n = out->struct_size;
    if (n < first_version_size)
        fail(CUZK_ERR_STRUCT_SIZE, fmt::format("{}: out->struct_size is {}, at least {} expected (set it to sizeof)", fn,
                                               n, first_version_size));
    check_struct_size_max(n, fn, "out");
    auto* bytes = reinterpret_cast<unsigned char*>(out);
    std::memcpy(bytes, &value, std::min<size_t>(n, sizeof(S)));
    if (n > sizeof(S)) std::memset(bytes + sizeof(S), 0, n - sizeof(S));
    out->struct_size = n;
}

// ---- output buffers ------------------------------------------------------------------------
inline cuzk_status write_bytes(uint8_t* out, size_t out_len, size_t* out_size, const void* src, size_t n, const char* fn)
{
    need(out_size, fn, "out_size");
    *out_size = n;
    if (!out && out_len == 0) return CUZK_OK;
    need(out, fn, "out");
    if (out_len < n)
        fail(CUZK_ERR_BUFFER_TOO_SMALL, fmt::format("{}: the buffer holds {} bytes, {} are needed", fn, out_len, n));
    if (n) std::memcpy(out, src, n);
    return CUZK_OK;
}

// ---- scalars ---------------------------------------------------------------------------------
// The modulus named in messages: "r" for BLS12-381's Fr, "BN254's r" for BN254's.
template <class F>
constexpr const char* modulus_name()
{
    return std::is_same_v<F, bn254::fr> ? "BN254's r" : "r";
}

// `count` packed scalars of F (BLS12-381's Fr by default); `what` names the
// array in messages ("partition 1 aux").
template <class F = fr>
std::vector<F> scalars(const uint8_t* p, size_t count, const std::string& what, const char* fn)
{
    std::vector<F> v;
    if (count == 0) return v;
    if (!p) fail(CUZK_ERR_NULL, fmt::format("{}: {} is NULL but its count is {}", fn, what, count));
    v.resize(count);
    for (size_t i = 0; i < count; ++i) {
        if (!F::from_bytes_le(p + 32 * i, v[i]))
            throw error(errc::non_canonical, fmt::format("{}: {}[{}] is not a canonical scalar (the integer is >= {})",
                                                         fn, what, i, modulus_name<F>()));
    }
    return v;
}

template <class F>
void put_scalars(uint8_t* out, std::span<const F> v)
{
    for (size_t i = 0; i < v.size(); ++i) v[i].to_bytes_le(out + 32 * i);
}
template <class F>
void put_scalars(uint8_t* out, const std::vector<F>& v)
{
    put_scalars(out, std::span<const F>(v));
}

} // namespace cuzk::capi
