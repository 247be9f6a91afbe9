// The smallest use of the cuzk C++ API: record the built-in SHA-256 circuit,
// make a development key (NOT a trusted ceremony), prove, verify.
#include <cstdio>
#include <vector>

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

int main()
{
    using namespace cuzk;
    using r1cs::gadgets::sha256_preimage_circuit;
    const r1cs::pce pce = r1cs::record(sha256_preimage_circuit::blank(1));
    groth16::query_density density;
    const groth16::proving_key pk = groth16::setup_bellperson(groth16::describe(pce), &density);

    const std::vector<uint8_t> secret(sha256_preimage_circuit::max_message_bytes(1), 'x');
    std::vector<fr> public_inputs;
    const groth16::proof proof =
        groth16::prove_circuit(pk, pce, density, sha256_preimage_circuit(secret), {}, nullptr, &public_inputs);
    const bool ok = groth16::verify(groth16::prepare_verifying_key(pk.vk), proof, public_inputs);
    std::printf("proof %s\n", ok ? "verifies" : "does NOT verify");
    return ok ? 0 : 1;
}
