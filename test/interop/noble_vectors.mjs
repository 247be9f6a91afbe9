// Reference vectors from @noble/curves for cuzk's BLS12-381 encodings and pairing.
//
//   node noble_vectors.mjs <seed> <n_g1> <n_g2> <n_pair>
//
// Prints one vector per line (hex, lower case; scalars as 64 hex digits, big-endian):
//   g1 <k> <compressed 48 B> <uncompressed 96 B>       for [k]G1
//   g2 <k> <compressed 96 B> <uncompressed 192 B>      for [k]G2
//   pair <k1> <k2> <Fp12.toBytes 576 B>                for e([k1]G1, [k2]G2)
//   end <count g1> <count g2> <count pair>
// Besides n random scalars per kind, the g1/g2 lists start with k = 0 (the
// identity), 1, 2 and r − 1 (−G, whose compressed form has the sort flag set).
// Scalars come from splitmix64 seeded with <seed>, so a run is reproducible.
import { bls12_381 } from '@noble/curves/bls12-381';

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
// Uniform enough in [1, r − 1]: 320 random bits reduced mod r − 1, plus one.
function scalar() {
  let v = 0n;
  for (let i = 0; i < 5; ++i) v = (v << 64n) | next64();
  return (v % (r - 1n)) + 1n;
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
out.push(`end ${c1} ${c2} ${cp}`);
process.stdout.write(out.join('\n') + '\n');
