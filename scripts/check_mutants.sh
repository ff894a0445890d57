#!/usr/bin/env bash
# check_mutants.sh DIR [numeric args...] — every mutant of DIR/list
# (scripts/mutants.sh) must make the numeric suite fail on its kernels.
# Prints one line per mutant and "N/M passed" (a mutant caught is a pass).
set -uo pipefail
dir=$1; shift
numeric=${NUMERIC:-build/numeric}
caught=0 total=0
while read -r name glob; do
  total=$((total + 1))
  log="$dir/$name.log"
  t0=$SECONDS
  "$numeric" --no-huge --source dir --path "$dir/$name" --filter "$glob" "$@" > "$log" 2>&1
  rc=$? fails=$(grep -c '^FAIL' "$log") took="$((SECONDS - t0)) s"
  name="$name, $took"
  if missing=$(grep -m1 -o "finding kernel '[^']*'" "$log"); then # a harness error, not a catch
    echo "BROKEN  $name ($glob): the mutated module lacks a kernel the run needs ($missing): add it to the mutant's keep globs in scripts/mutants.sh"
  elif [ $rc -ne 0 ] && [ "$fails" -gt 0 ]; then
    caught=$((caught + 1)); echo "caught  $name ($glob): $fails FAIL lines; $(grep -m1 '^FAIL' "$log" | cut -c1-110)"
  else
    echo "MISSED  $name ($glob): exit $rc, $fails FAIL lines; $(tail -1 "$log")"
  fi
done < "$dir/list"
echo "mutants: $caught/$total passed (caught)"
[ "$caught" -eq "$total" ] && [ "$total" -gt 0 ]
