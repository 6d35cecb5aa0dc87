#!/usr/bin/env bash
# Builds every example game module from source into modules/out/NAME.wasm, with Debian's Rust 1.63 and its
# wasm32 standard library (apt-get install rustc libstd-rust-dev-wasm32 lld; installed here when missing),
# or any rustc given as RUSTC that has the wasm32-unknown-unknown target (rustup target add ...).
# The SDK (modules/sdk) is built once as an rlib, then each module (modules/<name>/src/lib.rs) against it.
set -euo pipefail
cd "$(dirname "$0")"

rustc=${RUSTC_WASM:-/usr/bin/rustc}
if [ ! -x "$rustc" ] || [ ! -d /usr/lib/rustlib/wasm32-unknown-unknown ] && [ -z "${RUSTC_WASM:-}" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq rustc libstd-rust-dev-wasm32 lld >/dev/null
fi

target=wasm32-unknown-unknown
build=out/build
mkdir -p out "$build"
flags=(--remap-path-prefix "$PWD=." --edition 2021 --target "$target" -C opt-level=3 -C panic=abort -C debuginfo=0 -C strip=symbols -C lto=fat -C codegen-units=1)

"$rustc" "${flags[@]}" --crate-type rlib --crate-name arena_game sdk/src/lib.rs -o "$build/libarena_game.rlib"
for dir in */; do
  name=${dir%/}
  [ "$name" = sdk ] || [ "$name" = out ] || [ -f "$name/src/lib.rs" ] || continue
  [ "$name" = sdk ] || [ "$name" = out ] && continue
  "$rustc" "${flags[@]}" --crate-type cdylib --crate-name "${name//-/_}_module" \
    --extern arena_game="$build/libarena_game.rlib" -L "$build" \
    -C link-arg=-zstack-size=1048576 \
    "$name/src/lib.rs" -o "out/$name.wasm"
  echo "modules/out/$name.wasm ($(stat -c %s "out/$name.wasm") bytes)"
done
