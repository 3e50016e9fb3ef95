#!/usr/bin/env bash
# Downloads the public test-ROM corpus at pinned commits into DIR (default: test-roms/ at
# the top of the checkout, git-ignored, where the suite looks), checks every file's sha256,
# and writes DIR/MANIFEST.tsv:
#   tests/fetch-test-roms.sh && cargo test
#   tests/fetch-test-roms.sh /some/dir && NES_TEST_ROMS=/some/dir cargo test
# Does nothing when a complete corpus is already where the tests look ($NES_TEST_ROMS,
# ../shared/test-roms beside the checkout, or DIR). MANIFEST.tsv is written last, so an
# interrupted or failed download never leaves a manifest the tests accept.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-$here/../test-roms}
wanted=$(($(wc -l < "$here/corpus-sources.tsv") - 1))
complete() { # dir -> true when it has a manifest and every file of corpus-sources.tsv
  # MANIFEST.tsv is written last: without it a download was interrupted.
  [ -f "$1/MANIFEST.tsv" ] || return 1
  local path sha source
  while IFS=$'\t' read -r path sha source; do
    [ -f "$1/$path" ] || return 1
  done < <(tail -n +2 "$here/corpus-sources.tsv")
}
for dir in ${NES_TEST_ROMS:+"$NES_TEST_ROMS"} "$here/../../shared/test-roms" "$dest"; do
  if complete "$dir"; then
    echo "corpus already complete in $(cd "$dir" && pwd) ($wanted files)"
    exit 0
  fi
done
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
rm -f "$dest/MANIFEST.tsv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Full commit ids for the short ids in corpus-sources.tsv; a source not listed here is
# fetched by its short id, which GitHub resolves while it is unambiguous.
declare -A full=(
  [christopherpow/nes-test-roms@95d8f621ae55]=95d8f621ae55cee0d09b91519a8989ae0e64753b
  [Amjad50/plastic@ef0cc319a982]=ef0cc319a9821e6d694d89413fb7df0a9e2de5ab
  [nes-open-db/nes-open-db@87ebc489a478]=87ebc489a478dd2b1e1958dfcf7ab38bafef77fd
  [sehugg/lawn-mower-nes@557e9529e0d5]=557e9529e0d53331a894d4f2251843bb5290a1cc
)

fetch_repo() { # repo@short -> extracted directory
  local key=$1 repo=${1%@*} commit=${full[$1]:-${1#*@}}
  local out="$work/${repo//\//_}"
  if [ ! -d "$out" ]; then
    mkdir -p "$out"
    curl -fsSL "https://codeload.github.com/$repo/tar.gz/$commit" | tar -xz -C "$out" --strip-components=1
  fi
  echo "$out"
}

manifest="$work/MANIFEST.tsv"
printf 'path\tsha256\tsource\n' > "$manifest"
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
  printf '%s\t%s\t%s\n' "$path" "$sha" "$source" >> "$manifest"
done
mv "$manifest" "$dest/MANIFEST.tsv"
echo "corpus ready in $dest; run: NES_TEST_ROMS=$dest cargo test"
