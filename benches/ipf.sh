#!/bin/bash
# Instructions per emulated frame, nesmind beside Nestopia, as a Markdown table:
# callgrind's instruction count over a 400-frame run minus a 100-frame run, divided by 300,
# with the scripted input of benches/nestopia.rs. Unlike fps, the figure is repeatable on a
# shared machine.
#
#   benches/ipf.sh [ROM...]        (default: the README's workloads: cpu_timing_test6, the
#                                   corpus's homebrew games, holy-mapperel M4, the demo carts
#                                   and the MMC3 cart)
#   PROFILE=quick benches/ipf.sh   (a faster build to compare changes; figures differ a little)
#   REPLAYS=benches/replays benches/ipf.sh
#                                  (both play DIR/<ROM stem>.replay where there is one)
#   SPEEDUPS=-skip_wait_loops benches/ipf.sh
#                                  (nesmind with shortcuts switched off; see `Speedups::parse`)
#   SOUND=1 benches/ipf.sh         (nesmind synthesises sound too; Nestopia always does)
#
# Needs valgrind; Nestopia's column needs Debian's libretro-nestopia (else it says "-").
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-bench}
# The corpus where the tests look: $NES_TEST_ROMS, ../shared/test-roms, test-roms/.
corpus=${NES_TEST_ROMS:-../shared/test-roms}
[ -n "${NES_TEST_ROMS:-}" ] || [ -f "$corpus/MANIFEST.tsv" ] || corpus=test-roms
if [ $# -eq 0 ]; then
  set -- "$corpus"/blargg/cpu_timing_test6/cpu_timing_test.nes \
    "$corpus"/homebrew/*/*.nes "$corpus"/holy-mapperel/M4_P128K_CR8K.nes \
    plugins/spot/cart/dots.nes plugins/hatris/cart/hatris-like.nes \
    benches/carts/mmc3/mmc3-workload.nes
fi
extra=()
[ -z "${REPLAYS:-}" ] || extra+=(--replays "$REPLAYS")
mine_extra=()
[ -z "${SPEEDUPS:-}" ] || mine_extra+=(--speedups "$SPEEDUPS")
[ -z "${SOUND:-}" ] || mine_extra+=(--sound)
command -v valgrind >/dev/null || { echo "ipf.sh: valgrind is not installed (apt-get install -y valgrind)" >&2; exit 1; }
bin=$(cargo bench --profile "$profile" --bench nestopia --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m=json.loads(l)
    if m.get("reason")=="compiler-artifact" and m["target"]["name"]=="nestopia" and m.get("executable"): print(m["executable"])' | tail -1)
[ -x "$bin" ] || { echo "ipf.sh: could not build benches/nestopia.rs" >&2; exit 1; }
core=${NESTOPIA_CORE:-/usr/lib/x86_64-linux-gnu/libretro/nestopia_libretro.so}

ir() { # emulator frames rom
  local more=()
  [ "$1" = nestopia ] || more=("${mine_extra[@]}")
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --only "$1" --frames "$2" \
    "${extra[@]}" "${more[@]}" "$3" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
ipf() { local a b; a=$(ir "$1" 100 "$2"); b=$(ir "$1" 400 "$2"); echo $(( (b - a) / 300 )); }

echo "| ROM | nesmind | Nestopia | nesmind / Nestopia |"
echo "|---|---|---|---|"
for rom in "$@"; do
  mine=$(ipf nesmind "$rom")
  if [ -f "$core" ]; then
    theirs=$(ipf nestopia "$rom")
    ratio=$(python3 -c "print(f'{$mine/$theirs:.2f}')")
    theirs=$(python3 -c "print(f'{$theirs/1e6:.2f} M')")
  else
    theirs=-; ratio=-
  fi
  printf '| %s | %s | %s | %s |\n' "$(basename "$rom")" "$(python3 -c "print(f'{$mine/1e6:.2f} M')")" "$theirs" "$ratio"
done
