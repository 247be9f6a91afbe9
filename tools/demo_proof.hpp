#pragma once
namespace cuzk::cli {
// Sets up, proves and verifies the SHA-256 preimage circuit of `blocks`
// compressions, the proof on the GPU when `gpu`; prints what it did and
// returns the number of failed checks.
int demo_proof(unsigned blocks, bool gpu);
}
