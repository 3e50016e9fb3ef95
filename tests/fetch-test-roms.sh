#!/usr/bin/env bash
# Downloads the public test-ROM corpus at pinned commits into DIR (default: test-roms/ at
# the top of the checkout, git-ignored, where the suite looks), checks every file's sha256,
# and writes DIR/MANIFEST.tsv:
#   tests/fetch-test-roms.sh && cargo test
#   tests/fetch-test-roms.sh /some/dir && NES_TEST_ROMS=/some/dir cargo test
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-$here/../test-roms}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Full commit ids for the short ids in corpus-sources.tsv.
declare -A full=(
  [christopherpow/nes-test-roms@95d8f621ae55]=95d8f621ae55cee0d09b91519a8989ae0e64753b
  [Amjad50/plastic@ef0cc319a982]=ef0cc319a9821e6d694d89413fb7df0a9e2de5ab
  [nes-open-db/nes-open-db@87ebc489a478]=87ebc489a478dd2b1e1958dfcf7ab38bafef77fd
  [sehugg/lawn-mower-nes@557e9529e0d5]=557e9529e0d53331a894d4f2251843bb5290a1cc
)

fetch_repo() { # repo@short -> extracted directory
  local key=$1 repo=${1%@*} commit=${full[$1]}
  local out="$work/${repo//\//_}"
  if [ ! -d "$out" ]; then
    mkdir -p "$out"
    curl -fsSL "https://codeload.github.com/$repo/tar.gz/$commit" | tar -xz -C "$out" --strip-components=1
  fi
  echo "$out"
}

printf 'path\tsha256\tsource\n' > "$dest/MANIFEST.tsv"
tail -n +2 "$here/corpus-sources.tsv" | while IFS=$'\t' read -r path sha source; do
  key=${source%%:*}
  src_path=${source#*:}
  repo_dir=$(fetch_repo "$key")
  mkdir -p "$dest/$(dirname "$path")"
  cp "$repo_dir/$src_path" "$dest/$path"
  got=$(sha256sum "$dest/$path" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    echo "sha256 mismatch for $path: got $got, expected $sha" >&2
    exit 1
  fi
  printf '%s\t%s\t%s\n' "$path" "$sha" "$source" >> "$dest/MANIFEST.tsv"
done
echo "corpus ready in $dest; run: NES_TEST_ROMS=$dest cargo test"
