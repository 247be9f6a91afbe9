#!/usr/bin/env bash
# Every cuzk command's --help: exit status 0, its usage on stdout ("usage:
# cuzk <command>"), nothing on stderr; and every command refuses an unknown
# flag with exit status 2 and a message naming it. Prints nothing on success.
# usage: help.sh <cuzk binary>
set -u
CUZK=$1
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

forms=(demo info setup prove verify bench waterfall porep
       "setup sha256" "prove sha256" "verify sha256"
       "porep seal" "porep c1" "porep check" "porep circuit" "porep setup" "porep c2" "porep verify"
       "porep labels" "porep parents" "porep poseidon" "porep inputs"
       post "post challenges" "post vanilla" "post circuit" "post setup" "post prove" "post verify")

# help <form>: `cuzk <form> --help` and `-h`
check_help() {
  local form=$1 flag out err rc
  for flag in --help -h; do
    out=$(timeout 20 "$CUZK" $form $flag 2>/tmp/cuzk-help-err.$$ </dev/null)
    rc=$?
    err=$(cat /tmp/cuzk-help-err.$$)
    ((rc == 0)) || fail "cuzk $form $flag: exit $rc: $err"
    [[ $out == "usage: cuzk $form"* ]] || fail "cuzk $form $flag: stdout does not start with 'usage: cuzk $form': ${out:0:80}"
    [[ -z $err ]] || fail "cuzk $form $flag: wrote to stderr: ${err:0:80}"
  done
}

check_unknown_flag() {
  local form=$1 out rc
  out=$(timeout 20 "$CUZK" $form --no-such-flag 2>&1 </dev/null)
  rc=$?
  ((rc == 2)) || fail "cuzk $form --no-such-flag: exit $rc, expected 2: ${out:0:120}"
  [[ $out == *--no-such-flag* ]] || fail "cuzk $form --no-such-flag: the message does not name the flag: ${out:0:120}"
}

for form in "${forms[@]}"; do
  check_help "$form"
  [[ $form == porep || $form == post ]] || check_unknown_flag "$form"
done
rm -f /tmp/cuzk-help-err.$$

# The program's own usage: every command listed, with exit 0.
out=$("$CUZK" --help 2>&1) || fail "cuzk --help: exit $?"
for c in demo info setup prove verify bench waterfall porep post; do
  [[ $out == *"cuzk $c "* ]] || fail "cuzk --help does not list '$c'"
done
# The sha256 forms as --help lists them are the forms the commands accept.
[[ $out == *"cuzk setup sha256 [--blocks B] [--threads N] <out.params> <out.vk>"* ]] || fail "cuzk --help: setup sha256 form"
[[ $out == *"cuzk prove sha256 <in.params> <proof.bin> <public.json>"* ]] || fail "cuzk --help: prove sha256 form"
[[ $out == *"cuzk verify sha256 <in.vk> <public.json> <proof.bin>"* ]] || fail "cuzk --help: verify sha256 form"

if ((fails)); then echo "$fails check(s) failed"; exit 1; fi
exit 0
