// Reference vectors from @noble/curves for cuzk's BLS12-381 encodings and
// pairing, and for its BN254 points and pairing.
//
//   node noble_vectors.mjs <seed> <n_g1> <n_g2> <n_pair>
//
// Prints one vector per line (hex, lower case; scalars as 64 hex digits, big-endian):
//   g1 <k> <compressed 48 B> <uncompressed 96 B>       for [k]G1 (BLS12-381)
//   g2 <k> <compressed 96 B> <uncompressed 192 B>      for [k]G2
//   pair <k1> <k2> <Fp12.toBytes 576 B>                for e([k1]G1, [k2]G2)
//   bn_g1 <k> <x 32 B> <y 32 B>                        for [k]G1 (BN254), affine,
//   bn_g2 <k> <x.c0 x.c1 64 B> <y.c0 y.c1 64 B>        each Fp 32 B big-endian;
//   bn_pair <k1> <k2> <Fp12.toBytes 384 B>             the identity is (0, 0)
//   end <g1> <g2> <pair> <bn_g1> <bn_g2> <bn_pair>     (the counts)
// (noble has no byte encoding for BN254 points, hence the coordinates.)
// Besides n random scalars per kind, the point lists start with k = 0 (the
// identity), 1, 2 and r − 1 (−G, whose compressed form has the sort flag set).
// Scalars come from splitmix64 seeded with <seed>, so a run is reproducible.
import { bls12_381 } from '@noble/curves/bls12-381';
import { bn254 } from '@noble/curves/bn254';

const [seedArg = '1', n1Arg = '16', n2Arg = '16', npArg = '4'] = process.argv.slice(2);
const n1 = Number(n1Arg), n2 = Number(n2Arg), np = Number(npArg);

const G1 = bls12_381.G1.ProjectivePoint;
const G2 = bls12_381.G2.ProjectivePoint;
const { Fp12 } = bls12_381.fields;
const r = bls12_381.fields.Fr.ORDER;

const M64 = (1n << 64n) - 1n;
let state = BigInt(seedArg) & M64;
function next64() {
  state = (state + 0x9e3779b97f4a7c15n) & M64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
// Uniform enough in [1, n − 1]: 320 random bits reduced mod n − 1, plus one.
function scalar(n = r) {
  let v = 0n;
  for (let i = 0; i < 5; ++i) v = (v << 64n) | next64();
  return (v % (n - 1n)) + 1n;
}

const hex = (b) => Buffer.from(b).toString('hex');
const khex = (k) => k.toString(16).padStart(64, '0');
const mul = (P, k) => (k === 0n ? P.ZERO : P.BASE.multiply(k));

const out = [];
const fixed = [0n, 1n, 2n, r - 1n];
let c1 = 0, c2 = 0, cp = 0;
for (const k of [...fixed, ...Array.from({ length: n1 }, scalar)]) {
  const P = mul(G1, k);
  out.push(`g1 ${khex(k)} ${hex(P.toRawBytes(true))} ${hex(P.toRawBytes(false))}`);
  ++c1;
}
for (const k of [...fixed, ...Array.from({ length: n2 }, scalar)]) {
  const Q = mul(G2, k);
  out.push(`g2 ${khex(k)} ${hex(Q.toRawBytes(true))} ${hex(Q.toRawBytes(false))}`);
  ++c2;
}
for (let i = 0; i < np; ++i) {
  const k1 = i === 0 ? 1n : scalar();
  const k2 = i === 0 ? 1n : scalar();
  const e = bls12_381.pairing(G1.BASE.multiply(k1), G2.BASE.multiply(k2));
  out.push(`pair ${khex(k1)} ${khex(k2)} ${hex(Fp12.toBytes(e))}`);
  ++cp;
}

// BN254: affine coordinates of [k]G and pairing values.
const B1 = bn254.G1.ProjectivePoint;
const B2 = bn254.G2.ProjectivePoint;
const rb = bn254.fields.Fr.ORDER;
const fpHex = (v) => v.toString(16).padStart(64, '0');
const bnFixed = [0n, 1n, 2n, rb - 1n];
let b1 = 0, b2 = 0, bp = 0;
for (const k of [...bnFixed, ...Array.from({ length: n1 }, () => scalar(rb))]) {
  const P = mul(B1, k).toAffine();
  out.push(`bn_g1 ${khex(k)} ${fpHex(P.x)} ${fpHex(P.y)}`);
  ++b1;
}
for (const k of [...bnFixed, ...Array.from({ length: n2 }, () => scalar(rb))]) {
  const Q = mul(B2, k).toAffine();
  out.push(`bn_g2 ${khex(k)} ${fpHex(Q.x.c0)}${fpHex(Q.x.c1)} ${fpHex(Q.y.c0)}${fpHex(Q.y.c1)}`);
  ++b2;
}
for (let i = 0; i < np; ++i) {
  const k1 = i === 0 ? 1n : scalar(rb);
  const k2 = i === 0 ? 1n : scalar(rb);
  const e = bn254.pairing(B1.BASE.multiply(k1), B2.BASE.multiply(k2));
  out.push(`bn_pair ${khex(k1)} ${khex(k2)} ${hex(bn254.fields.Fp12.toBytes(e))}`);
  ++bp;
}
out.push(`end ${c1} ${c2} ${cp} ${b1} ${b2} ${bp}`);
process.stdout.write(out.join('\n') + '\n');
