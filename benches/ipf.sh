#!/bin/bash
# Instructions per emulated frame, nesmind beside its peers (Nestopia and FCEUmm), as the
# README's Markdown table: callgrind's instruction count over a 400-frame run minus a
# 100-frame run, divided by 300, each emulator alone (benches/peers.rs --only). Unlike fps,
# the figure is repeatable on a shared machine.
#
# Each ROM gets a row with the scripted input (Start taps, then walking round with A) and,
# where benches/replays holds one, a row playing its recording of real play; every peer
# plays the same input. nesmind is measured with its shortcuts and with the wait-loop skip
# off ("skip off": every cycle of a game's idle loops emulated). The ratios are nesmind's
# instructions over the faster peer's (lower is better).
#
#   benches/ipf.sh [ROM...]        (default: the README's workloads: cpu_timing_test6, the
#                                   corpus's homebrew games, holy-mapperel M4, the demo carts
#                                   and the MMC3 cart)
#   PROFILE=quick benches/ipf.sh   (a faster build to compare changes; figures differ a little)
#   REPLAYS=DIR benches/ipf.sh     (replays from DIR instead of benches/replays; REPLAYS=
#                                   leaves the replay rows out)
#   SOUND=1 benches/ipf.sh         (nesmind synthesises sound too; the peers always do)
#
# Needs valgrind. Cores: see benches/peers.rs (Debian's libretro-nestopia; FCEUmm from
# $FCEUMM_CORE or stable-retro's wheel); a peer without a core shows "-".
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-bench}
replays=${REPLAYS-benches/replays}
# The corpus where the tests look: $NES_TEST_ROMS, ../shared/test-roms, test-roms/.
corpus=${NES_TEST_ROMS:-../shared/test-roms}
[ -n "${NES_TEST_ROMS:-}" ] || [ -f "$corpus/MANIFEST.tsv" ] || corpus=test-roms
if [ $# -eq 0 ]; then
  set -- "$corpus"/blargg/cpu_timing_test6/cpu_timing_test.nes \
    "$corpus"/homebrew/*/*.nes "$corpus"/holy-mapperel/M4_P128K_CR8K.nes \
    plugins/spot/cart/dots.nes plugins/hatris/cart/hatris-like.nes \
    benches/carts/mmc3/mmc3-workload.nes
fi
sound=()
[ -z "${SOUND:-}" ] || sound=(--sound)
command -v valgrind >/dev/null || { echo "ipf.sh: valgrind is not installed (apt-get install -y valgrind)" >&2; exit 1; }
bin=$(cargo bench --profile "$profile" --bench peers --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m=json.loads(l)
    if m.get("reason")=="compiler-artifact" and m["target"]["name"]=="peers" and m.get("executable"): print(m["executable"])' | tail -1)
[ -x "$bin" ] || { echo "ipf.sh: could not build benches/peers.rs" >&2; exit 1; }

ir() { # emulator frames rom [options...]
  local who=$1 frames=$2 rom=$3
  shift 3
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --only "$who" --frames "$frames" \
    "$@" "$rom" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# Prints the figure, or "-" when the emulator cannot run here (no core).
ipf() { # emulator rom [options...]
  local who=$1 rom=$2 a b
  shift 2
  "$bin" --only "$who" --frames 1 "$@" "$rom" >/dev/null 2>&1 || { echo -; return; }
  a=$(ir "$who" 100 "$rom" "$@")
  b=$(ir "$who" 400 "$rom" "$@")
  echo $(( (b - a) / 300 ))
}
m() { [ "$1" = - ] && echo - || python3 -c "print(f'{$1/1e6:.2f} M')"; }
ratio() { # mine nestopia fceumm
  python3 -c "
p=[float(x) for x in '$2 $3'.split() if x != '-']
print(f'{$1/min(p):.2f}' if p else '-')"
}

echo "| workload | input | Nestopia | FCEUmm | nesmind | ÷ faster | skip off | ÷ faster |"
echo "|---|---|---|---|---|---|---|---|"
for rom in "$@"; do
  stem=$(basename "$rom" .nes)
  inputs=(script)
  [ -z "$replays" ] || [ ! -f "$replays/$stem.replay" ] || inputs+=(replay)
  for input in "${inputs[@]}"; do
    opts=()
    [ "$input" = script ] || opts=(--replays "$replays")
    nestopia=$(ipf nestopia "$rom" "${opts[@]}")
    fceumm=$(ipf fceumm "$rom" "${opts[@]}")
    mine=$(ipf nesmind "$rom" "${opts[@]}" "${sound[@]}")
    off=$(ipf nesmind "$rom" "${opts[@]}" "${sound[@]}" --speedups -skip_wait_loops)
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$stem" "$input" "$(m "$nestopia")" \
      "$(m "$fceumm")" "$(m "$mine")" "$(ratio "$mine" "$nestopia" "$fceumm")" "$(m "$off")" \
      "$(ratio "$off" "$nestopia" "$fceumm")"
  done
done
