#!/bin/bash
# Fail fast: `dqform apply PLANFILE` of 215 objects (owners, domains, data products, alerts: written
# one by one); the emulator process is killed (SIGKILL) after 40 writes have started. MODE=create
# (the plan creates them: creates are never retried) or MODE=update (they exist; the plan updates
# them: updates are retried). Prints the seconds from the kill to dqform's exit.
# usage: REPO=/work/main MODE=update gone.sh
REPO=${REPO:-/work/main}; MODE=${MODE:-update}; W=$(mktemp -d); T=$REPO/node_modules/.bin/tsx; HERE=$(cd "$(dirname "$0")" && pwd)
dq() { node $REPO/bin/dqform.js "$@"; }
node $REPO/bin/dqform.js emulator --port 0 --no-grpc --seed empty > $W/emu.log 2>&1 & EMU=$!
for i in $(seq 1 100); do grep -q 'Press Ctrl-C' $W/emu.log && break; sleep 0.1; done
export DQ_BASE_URL=$(grep -o 'DQ_BASE_URL=[^ ]*' $W/emu.log | cut -d= -f2) DQ_CLIENT_ID=demo-admin DQ_CLIENT_SECRET=demo-secret
cd $W; K=dq_owner,dq_domain,dq_data_product,dq_alert
if [ "$MODE" = update ]; then $T $HERE/mk.ts $W gone 215 orig $K; dq apply --auto-approve >/dev/null 2>&1 || echo "first apply failed"; $T $HERE/mk.ts $W gone 215 changed $K; else $T $HERE/mk.ts $W gone 215 orig $K; fi
dq plan --out plan.json >/dev/null 2>&1 || echo "plan failed"
curl -s -XPOST $DQ_BASE_URL/__emulator/faults -H 'content-type: application/json' -d '{"rules":[{"type":"latency","latencyMs":5,"pathPrefix":"/api/"}]}' >/dev/null
dq apply plan.json > apply.out 2> apply.err & P=$!
for i in $(seq 1 1000); do [ "$(cat apply.err 2>/dev/null | grep -c "^$MODE ")" -ge 40 ] && break; sleep 0.02; done
kill -9 $EMU; T0=$(date +%s.%N); wait $P; RC=$?; T1=$(date +%s.%N)
echo "MODE=$MODE: dqform apply exit $RC, $(echo "$T1 - $T0" | bc) s after the emulator was killed; ECONNREFUSED lines: $(grep -c ECONNREFUSED apply.err)"
grep 'not answering' apply.err; tail -1 apply.out
cd /; rm -rf $W
