pragma circom 2.0.0;

// A chain of N multiplications with one public input `a` and a public output.
// N sets the constraint count (N constraints, 2 public signals).
template MulChain(N) {
    signal input a;
    signal input b;
    signal output c;
    signal t[N];
    t[0] <== a * b;
    for (var i = 1; i < N; i++) {
        t[i] <== t[i - 1] * b + i;
    }
    c <== t[N - 1];
}
