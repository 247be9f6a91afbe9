pragma circom 2.0.0;
include "circomlib/circuits/sha256/sha256.circom";
// circomlib SHA-256 of a 2048-bit message: five blocks, 156 k constraints, domain 2^18 (benchmark only).
component main = Sha256(2048);
