#!/usr/bin/env bash
# Where a Fidelity test's time goes: runs tools/calibration/fidelity.py --quick on one curve
# through a wrapper around GPUMEMSIM that times each call, then prints, per subcommand (gen,
# run), the number of calls and their total wall milliseconds.
#   bash bench/fidelity_calls.sh CURVE GPUMEMSIM     (e.g. latency_a100_40 build/gpumemsim)
set -euo pipefail
cd "$(dirname "$0")/.."
curve=$1
bin=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/gms" <<WRAP
#!/usr/bin/env bash
s=\$(date +%s%N)
"$bin" "\$@"
rc=\$?
echo "\$1 \$(( (\$(date +%s%N) - s) / 1000000 ))" >>"$tmp/log"
exit \$rc
WRAP
chmod +x "$tmp/gms"
python3 tools/calibration/fidelity.py --quick --bin "$tmp/gms" --curve "$curve" >/dev/null
awk '{n[$1]++; ms[$1] += $2} END {for (c in n) printf "%-4s %4d calls %7d ms\n", c, n[c], ms[c]}' \
  "$tmp/log" | sort
