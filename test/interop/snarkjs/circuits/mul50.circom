pragma circom 2.0.0;
include "mulchain.circom";
// 50 constraints + 3 input rows = 53 -> domain 2^6, equal to the ptau power 6.
component main {public [a]} = MulChain(50);
