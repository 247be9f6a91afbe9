pragma circom 2.0.0;
include "circomlib/circuits/sha256/sha256.circom";
// circomlib SHA-256 of a 4096-bit message: nine blocks, ~281 k constraints (>= 2^18; benchmark only).
component main = Sha256(4096);
