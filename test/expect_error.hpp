// cuzk tests — expect_error: the call must throw cuzk::error with one of the
// given codes and a message containing every given part (the readers' tests,
// test_io among them).
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <utility>

#include "cuzk/error.hpp"

namespace cuzk::test {

template <class F>
void expect_error(F&& f, std::initializer_list<errc> codes, std::initializer_list<std::string> parts = {})
{
    try {
        f();
    } catch (const cuzk::error& e) {
        INFO("message: " << e.what());
        bool ok = false;
        for (errc c : codes) ok |= e.code() == c;
        CHECK(ok);
        for (const auto& p : parts) CHECK(std::string(e.what()).find(p) != std::string::npos);
        return;
    }
    FAIL("no cuzk::error thrown");
}
template <class F>
void expect_error(F&& f, errc code, std::initializer_list<std::string> parts = {})
{
    expect_error(std::forward<F>(f), {code}, parts);
}

} // namespace cuzk::test
