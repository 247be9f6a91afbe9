pragma circom 2.0.0;
include "circomlib/circuits/sha256/sha256.circom";
// circomlib SHA-256 of a 448-bit message: two compression blocks with the padding, 62.5 k constraints.
component main = Sha256(448);
