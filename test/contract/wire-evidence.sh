#!/usr/bin/env bash
# Runs a command through an independent wire checker (the team's wire-check.mjs, not part of
# dqform: its path in WIRE_CHECK) in front of a fresh `dqform emulator` (extra emulator flags in
# EMU_FLAGS), then prints how many requests the emulator served (so the run provably went through
# it; none served fails). Run from the repository root:
#   WIRE_CHECK=/path/to/wire-check.mjs EMU_FLAGS="--marshal emit-unpopulated --enums numbers" bash test/contract/wire-evidence.sh demo
#   WIRE_CHECK=/path/to/wire-check.mjs bash test/contract/wire-evidence.sh e2e
set -u
what=$1
checker=${WIRE_CHECK:-}
if [ -z "$checker" ] || [ ! -f "$checker" ]; then echo "wire-evidence.sh: set WIRE_CHECK to the wire checker's path (wire-check.mjs)" >&2; exit 2; fi
log=$(mktemp)
node bin/dqform.js emulator --port 0 ${EMU_FLAGS:-} > "$log" 2>&1 &
emu=$!
for _ in $(seq 1 60); do grep -q 'DQ_GRPC_ENDPOINT=' "$log" && break; sleep 0.5; done
url=$(grep -o 'DQ_BASE_URL=[^ ]*' "$log" | cut -d= -f2)
grpc=$(grep -o 'DQ_GRPC_ENDPOINT=[^ ]*' "$log" | cut -d= -f2)
grep 'responses:' "$log"
case $what in
  demo) cmd=(npx tsx src/cli/demo.ts); export DQFORM_DEMO_USE_BASE_URL=1 ;;
  e2e) cmd=(npx jest test/e2e/lifecycle.test.ts --maxWorkers=1); export DQFORM_E2E_USE_BASE_URL=1 ;;
  *) echo "usage: wire-evidence.sh demo|e2e"; kill $emu; exit 2 ;;
esac
DQ_GRPC_ENDPOINT=$grpc node "$checker" --target "$url" -- "${cmd[@]}"
rc=$?
echo "command + wire-check exit: $rc"
# A run that never reached this emulator proves nothing: zero requests served fails the script.
curl -s "$url/__emulator/requests" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const n=JSON.parse(s).total;console.log("emulator served", n, "requests");if(!(n>0))process.exit(3)})'
served=$?
if [ "$rc" -eq 0 ] && [ "$served" -ne 0 ]; then echo "the command never reached the emulator: no evidence"; rc=3; fi
kill $emu
rm -f "$log"
exit $rc
