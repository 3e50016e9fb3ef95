#!/bin/sh
# Re-records the benchmark replays (real play, 2000 frames each) into this directory:
# the corpus's homebrew games played by player.py (a seeded button-masher that first taps
# Start through the title and menus), the demo carts played by their own plug-ins, and the
# MMC3 workload cart by player.py. Needs a built nesmind (NESMIND, default target/release).
#   benches/replays/record.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
nesmind=${NESMIND:-$repo/target/release/nesmind}
corpus=${NES_TEST_ROMS:-$repo/../shared/test-roms}
frames=2000
record() { # ROM NAME PLUGIN [PLUGIN-OPTIONS...]
    rom=$1 name=$2 plugin=$3
    shift 3
    "$nesmind" run "$rom" --headless --frames $frames --plugin "$plugin" "$@" \
        --record "$here/$name.replay" >/dev/null
    echo "recorded $name"
}
player="ext:python3 $here/player.py --seed=1"
for game in kubo lawn_mower megamountain melojellos2 nesert-golfing yun; do
    record "$corpus/homebrew/$game/$game.nes" "$game" "$player"
done
record "$corpus/homebrew/nes15/nes15-NTSC.nes" nes15-NTSC "$player"
record "$corpus/homebrew/lala/lala.nes" lala "$player --starts=60,200,350,500,650"
record "$repo/plugins/spot/cart/dots.nes" dots spot
record "$repo/plugins/hatris/cart/hatris-like.nes" hatris-like hatris
record "$repo/benches/carts/mmc3/mmc3-workload.nes" mmc3-workload "$player --starts="
