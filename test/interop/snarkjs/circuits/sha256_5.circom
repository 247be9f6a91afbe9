pragma circom 2.0.0;
include "circomlib/circuits/sha256/sha256.circom";
// circomlib SHA-256 of a 2048-bit message: five blocks, above 2^18 constraints (benchmark only).
component main = Sha256(2048);
