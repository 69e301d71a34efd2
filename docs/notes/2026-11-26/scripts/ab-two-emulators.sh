#!/bin/bash
# abfull.sh N DIR: interleaved runs of the plan child, before (bld-b + its emulator) and after (bld-a + its emulator)
N=$1; DIR=$2
for i in $(seq $N); do
  for x in b a; do
    ( . /tmp/emu-$x.env; /usr/bin/time -f "%e %U %S %M" node /tmp/bld-$x/bench/children/plan.js $DIR 2>/tmp/t.$x >/tmp/o.$x; echo "$x $(tail -1 /tmp/t.$x) $(python3 -c "import json;d=json.loads(open('/tmp/o.$x').read().strip().splitlines()[-1]);print(round(d['inProcessMs']))")" )
  done
done
