pragma circom 2.0.0;
include "circomlib/circuits/sha256/sha256.circom";
// circomlib SHA-256 of a 256-bit message: one compression block (~30 k constraints; benchmark only).
component main = Sha256(256);
