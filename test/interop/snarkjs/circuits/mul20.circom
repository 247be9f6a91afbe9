pragma circom 2.0.0;
include "mulchain.circom";
// 20 constraints + 3 input rows -> domain 2^5, below the ptau power 6.
component main {public [a]} = MulChain(20);
