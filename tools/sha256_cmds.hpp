#pragma once
#include "commands.hpp"
namespace cuzk::cli {
// The built-in SHA-256 circuit with bellperson-format keys and proofs.
int sha256_setup(args a);
int sha256_prove(args a);
int sha256_verify(args a);
} // namespace cuzk::cli
