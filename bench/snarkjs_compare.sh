#!/usr/bin/env bash
# cuzk prove vs snarkjs groth16 prove on the same .zkey and .wtns (circomlib
# Sha256, key from `cuzk setup`), side by side: A B A B …
# usage: [PRIME=bls12381|bn128] [REPS=n] bench/snarkjs_compare.sh <build-dir> [circuit ...]
#        (default: sha256_1 sha256_9 on bls12381)
# Prints one line per run and the median ratio per circuit; both proofs are
# checked with `snarkjs groth16 verify`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "${1:?build dir}" && pwd)
shift
circuits=("$@")
((${#circuits[@]})) || circuits=(sha256_1 sha256_9)
reps=${REPS:-2}
prime=${PRIME:-bls12381}
cuzk=$bdir/bin/cuzk
work=$bdir/bench-snarkjs
here=$root/test/interop/snarkjs
mkdir -p "$work"
cp "$here/package.json" "$here/package-lock.json" "$work/"
[[ -d $work/node_modules/snarkjs ]] || (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
cd "$work"
rm -rf circuits && cp -r "$here/circuits" circuits
snarkjs() { node node_modules/snarkjs/build/cli.cjs "$@"; }
now() { date +%s.%N; }

for c in "${circuits[@]}"; do
  d=$c
  [[ $prime == bls12381 ]] || d=${prime}_$c
  mkdir -p "$d"
  [[ -f $d/$c.r1cs ]] || node node_modules/circom2/cli.js "circuits/$c.circom" --r1cs --wasm --prime "$prime" -l node_modules -l circuits -o "$d" >/dev/null
  [[ -f $d/witness.wtns ]] || node "$d/${c}_js/generate_witness.js" "$d/${c}_js/$c.wasm" "circuits/input_$c.json" "$d/witness.wtns"
  [[ -f $d/$c.zkey ]] || "$cuzk" setup "$d/$c.r1cs" "$d/$c.zkey"
  [[ -f $d/vk.json ]] || snarkjs zkey export verificationkey "$d/$c.zkey" "$d/vk.json" >/dev/null
  "$cuzk" info "$d/$c.zkey"
  ratios=()
  for ((i = 0; i < reps; i++)); do
    t0=$(now); "$cuzk" prove "$d/$c.zkey" "$d/witness.wtns" "$d/cuzk_proof.json" "$d/cuzk_public.json" 2>"$d/cuzk_prove.log"; t1=$(now)
    snarkjs groth16 prove "$d/$c.zkey" "$d/witness.wtns" "$d/sj_proof.json" "$d/sj_public.json"; t2=$(now)
    a=$(awk -v x="$t0" -v y="$t1" 'BEGIN{print y-x}'); b=$(awk -v x="$t1" -v y="$t2" 'BEGIN{print y-x}')
    r=$(awk -v a="$a" -v b="$b" 'BEGIN{print b/a}')
    printf '%s run %d: cuzk %.3f s, snarkjs %.3f s, ratio %.2f  (%s)\n' "$d" "$i" "$a" "$b" "$r" "$(tail -1 "$d/cuzk_prove.log")"
    ratios+=("$r")
  done
  snarkjs groth16 verify "$d/vk.json" "$d/cuzk_public.json" "$d/cuzk_proof.json" >/dev/null && echo "$d: cuzk proof passes snarkjs groth16 verify"
  snarkjs groth16 verify "$d/vk.json" "$d/sj_public.json" "$d/sj_proof.json" >/dev/null && echo "$d: snarkjs proof passes snarkjs groth16 verify"
  printf '%s: median ratio snarkjs/cuzk %.2f over %d runs\n' "$d" "$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')" "$reps"
done
