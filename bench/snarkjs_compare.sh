#!/usr/bin/env bash
# cuzk prove vs snarkjs groth16 prove on the same .zkey and .wtns (circomlib
# Sha256, curve bls12381, key from `cuzk setup`), side by side: A B A B …
# usage: bench/snarkjs_compare.sh <build-dir> [circuit ...] (default: sha256_1 sha256_9)
# Prints one line per run and the median ratio per circuit; both proofs are
# checked with `snarkjs groth16 verify`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$(cd "${1:?build dir}" && pwd)
shift
circuits=("$@")
((${#circuits[@]})) || circuits=(sha256_1 sha256_9)
reps=${REPS:-2}
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
  mkdir -p "$c"
  [[ -f $c/$c.r1cs ]] || node node_modules/circom2/cli.js "circuits/$c.circom" --r1cs --wasm --prime bls12381 -l node_modules -l circuits -o "$c" >/dev/null
  [[ -f $c/witness.wtns ]] || node "$c/${c}_js/generate_witness.js" "$c/${c}_js/$c.wasm" "circuits/input_$c.json" "$c/witness.wtns"
  [[ -f $c/$c.zkey ]] || "$cuzk" setup "$c/$c.r1cs" "$c/$c.zkey"
  [[ -f $c/vk.json ]] || snarkjs zkey export verificationkey "$c/$c.zkey" "$c/vk.json" >/dev/null
  "$cuzk" info "$c/$c.zkey"
  ratios=()
  for ((i = 0; i < reps; i++)); do
    t0=$(now); "$cuzk" prove "$c/$c.zkey" "$c/witness.wtns" "$c/cuzk_proof.json" "$c/cuzk_public.json" 2>"$c/cuzk_prove.log"; t1=$(now)
    snarkjs groth16 prove "$c/$c.zkey" "$c/witness.wtns" "$c/sj_proof.json" "$c/sj_public.json"; t2=$(now)
    a=$(awk -v x="$t0" -v y="$t1" 'BEGIN{print y-x}'); b=$(awk -v x="$t1" -v y="$t2" 'BEGIN{print y-x}')
    r=$(awk -v a="$a" -v b="$b" 'BEGIN{print b/a}')
    printf '%s run %d: cuzk %.3f s, snarkjs %.3f s, ratio %.2f  (%s)\n' "$c" "$i" "$a" "$b" "$r" "$(tail -1 "$c/cuzk_prove.log")"
    ratios+=("$r")
  done
  snarkjs groth16 verify "$c/vk.json" "$c/cuzk_public.json" "$c/cuzk_proof.json" >/dev/null && echo "$c: cuzk proof passes snarkjs groth16 verify"
  snarkjs groth16 verify "$c/vk.json" "$c/sj_public.json" "$c/sj_proof.json" >/dev/null && echo "$c: snarkjs proof passes snarkjs groth16 verify"
  printf '%s: median ratio snarkjs/cuzk %.2f over %d runs\n' "$c" "$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')" "$reps"
done
