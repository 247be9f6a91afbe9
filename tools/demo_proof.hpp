#pragma once
namespace cuzk::cli {
// Sets up, proves and verifies the SHA-256 preimage circuit of `blocks`
// compressions; prints what it did; returns the number of failed checks.
int demo_proof(unsigned blocks);
}
