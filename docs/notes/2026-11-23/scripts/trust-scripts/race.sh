#!/bin/bash
# Issue 12 acceptance by hand, with real processes: two `dqform apply PLANFILE` of conflicting
# plans (the same 107 addresses of every kind, different values), planned against the same live
# state, started together; RUNS times. Prints each side's exit code and what a plan of each
# side's code says about live state afterwards (the winner's must be 0 changes).
# usage: REPO=/work/main race.sh [RUNS]
REPO=${REPO:-/work/main}; RUNS=${1:-10}; W=$(mktemp -d); T=$REPO/node_modules/.bin/tsx; HERE=$(cd "$(dirname "$0")" && pwd)
dq() { node $REPO/bin/dqform.js "$@"; }
node $REPO/bin/dqform.js emulator --port 0 --seed empty > $W/emu.log 2>&1 & EMU=$!
for i in $(seq 1 100); do grep -q 'Press Ctrl-C' $W/emu.log && break; sleep 0.1; done
export DQ_BASE_URL=$(grep -o 'DQ_BASE_URL=[^ ]*' $W/emu.log | cut -d= -f2) DQ_GRPC_ENDPOINT=$(grep -o 'DQ_GRPC_ENDPOINT=[^ ]*' $W/emu.log | cut -d= -f2) DQ_CLIENT_ID=demo-admin DQ_CLIENT_SECRET=demo-secret
for run in $(seq 1 $RUNS); do
  ns=race-$run; A=$W/a$run; B=$W/b$run
  $T $HERE/mk.ts $A $ns 107; $T $HERE/mk.ts $B $ns 107 changed
  (cd $A && dq plan --out plan.json >/dev/null 2>&1) || echo "plan A failed"
  (cd $B && dq plan --out plan.json >/dev/null 2>&1) || echo "plan B failed"
  (cd $A && dq apply plan.json > apply.out 2> apply.err; echo $? > rc) & PA=$!
  (cd $B && dq apply plan.json > apply.out 2> apply.err; echo $? > rc) & PB=$!
  wait $PA $PB
  echo "run $run: A exit $(cat $A/rc), B exit $(cat $B/rc) | A's code now: $(cd $A && dq plan 2>/dev/null | grep '^Plan:') | B's code now: $(cd $B && dq plan 2>/dev/null | grep '^Plan:')"
  for s in A B; do d=$([ $s = A ] && echo $A || echo $B); echo "  $s: $(grep -c "FAILED: conflict" $d/apply.err) write conflict(s) named; $(tail -1 $d/apply.out) $(grep -m1 "^Error" $d/apply.err | cut -c1-120)"; done
done
kill $EMU; rm -rf $W
