#!/usr/bin/env bash
# The Accel-Sim importer's reading time against xz's own decoding (bench/RESULTS.md, "Accel-Sim
# reading against xz (issue 32, speed)"). DIR holds kernel-1.traceg.xz and kernel-1.trace.xz
# (python3 bench/gen_raw_accelsim.py DIR, then xz -3 -T2 -k on both files).
# Usage: bench/accelsim_xz_speed.sh DIR RUNS GPUMEMSIM...
# MODE=cached replays in cached mode instead of cold (run's default threads either way).
# FILES="a b" reads those files of DIR instead (any trace the program reads, e.g. an NVBit log
# made by bench/gen_nvbit_log.py, or a .wtrace.zst); a .zst file's baseline is zstd -dc.
# Several binaries (e.g. a base build and a new one) are run alternately, command by command, so
# that a shared machine's load falls on all of them alike. Prints one line per command and run:
# binary (its position in the list), command, file, CPU s (user+sys), wall s, peak RSS KiB; then,
# per file and command, the median CPU and wall seconds and the median wall against the
# decompressor's (xz -dc or zstd -dc piped to wc -l) of the same file.
set -euo pipefail
dir=$1
runs=$2
shift 2
bins=("$@")
t=$(mktemp)
lines=$(mktemp)
trap 'rm -f "$t" "$lines"' EXIT
measure() {  # label file command...
  local label=$1 file=$2
  shift 2
  /usr/bin/time -o "$t" -f "%U %S %e %M" "$@" >/dev/null 2>&1
  read -r u s e m <"$t"
  printf '%-7s %-22s cpu %5.2f wall %5.2f rss %7d\n' "$label" "$file" \
    "$(echo "$u + $s" | bc)" "$e" "$m" | tee -a "$lines"
}
read -r -a files <<<"${FILES:-kernel-1.traceg.xz kernel-1.trace.xz}"
for f in "${files[@]}"; do
  decompress=xz
  [[ $f == *.zst ]] && decompress=zstd
  for _ in $(seq "$runs"); do
    measure "$decompress" "$f" sh -c "$decompress -dc '$dir/$f' | wc -l"
    for i in "${!bins[@]}"; do measure "$i:info" "$f" "${bins[$i]}" info --no-progress "$dir/$f"; done
    for i in "${!bins[@]}"; do
      measure "$i:run" "$f" "${bins[$i]}" run "$dir/$f" --mode "${MODE:-cold}" --format csv -o /dev/null
    done
  done
done
python3 - "$lines" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, file, _, cpu, _, wall, *_ = line.split()
    runs.setdefault((file, label), []).append((float(cpu), float(wall)))
print("\n| file | command | runs | median CPU s | median wall s | wall / decompressor's |")
print("|---|---|---|---|---|---|")
for (file, label), r in runs.items():
    base = statistics.median(w for (f, l), rr in runs.items() if f == file and ":" not in l
                             for _, w in rr)
    wall = statistics.median(w for _, w in r)
    print(f"| {file} | {label} | {len(r)} | {statistics.median(c for c, _ in r):.2f} | "
          f"{wall:.2f} | {wall / base:.2f} |")
PY
