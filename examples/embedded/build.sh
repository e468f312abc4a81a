#!/usr/bin/env bash
# Builds examples/embedded/tictactoe.c for a Cortex-M4F against the C ABI's no_std static
# library, runs it under QEMU and prints its footprint.
#
#   bash examples/embedded/build.sh [PROFILE [FEATURES]]     (at the repository root)
#
# PROFILE is the cargo profile of the library: `embedded` (the default: opt-level "s" and fat
# LTO, Cargo.toml) or `release` (the hosted builds' settings). FEATURES are the C ABI's cargo
# features on top of no_std: none by default (df-pn only), `pns` for the PNS and PN² engines. Needs the Rust target
# thumbv7em-none-eabihf (added here when missing), clang, rust-lld (it comes with rustup's
# toolchain), arm-none-eabi-size and qemu-system-arm (Debian: clang, binutils-arm-none-eabi,
# qemu-system-arm; scripts/install-deps installs them). Exits non-zero unless the program
# runs and finds tic-tac-toe's known values.
set -euo pipefail
cd "$(dirname "$0")/../.."
profile=${1:-embedded}
features=${2:-}
target=thumbv7em-none-eabihf
out=target/embedded/$profile${features:+-$features}
mkdir -p "$out"

# (grep reads the whole list: with -q it could stop early and fail the pipe under pipefail.)
if ! rustup target list --installed | grep -x "$target" >/dev/null; then
    rustup target add "$target"
fi
cargo rustc --quiet -p proofnum-capi --lib --profile "$profile" --no-default-features \
    --features "$features" --target "$target" --crate-type staticlib
library=target/$target/$profile/libproofnum.a

# The C side: no C library, -Os; every function and object in its own section so that the
# linker keeps only what main reaches.
cflags=(--target="$target" -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -Os -std=c11
    -ffreestanding -ffunction-sections -fdata-sections -Wall -Wextra -Werror -Iinclude)
for source in startup tictactoe; do
    clang "${cflags[@]}" -c "examples/embedded/$source.c" -o "$out/$source.o"
done
host=$(rustc -vV | sed -n 's/^host: //p')
lld=$(rustc --print sysroot)/lib/rustlib/$host/bin/rust-lld
"$lld" -flavor gnu -T examples/embedded/mps2-an386.ld --gc-sections -Map "$out/tictactoe.map" \
    -o "$out/tictactoe.elf" "$out/startup.o" "$out/tictactoe.o" "$library"

# Run it: mps2-an386 is a Cortex-M4 board; semihosting carries the output and the exit
# status; -icount shift=0 makes time count instructions, so SysTick's figures repeat exactly.
rm -f "$out/output.txt"
status=0
timeout 120 qemu-system-arm -M mps2-an386 -display none -monitor none -serial none \
    -icount shift=0 -chardev file,id=semihosting,path="$out/output.txt" \
    -semihosting-config enable=on,chardev=semihosting -kernel "$out/tictactoe.elf" || status=$?
output=$(cat "$out/output.txt" 2>/dev/null || true)
echo "$output"
if [ "$status" -ne 0 ] || ! grep -qx "both values agree with the known ones" <<<"$output"; then
    echo "the embedded program failed (QEMU exit status $status); its output is above" >&2
    exit 1
fi

# The footprint: flash holds text and data's initial values; RAM holds data, bss (the
# solver's static buffer included) and the stack.
read -r text data bss _ < <(arm-none-eabi-size "$out/tictactoe.elf" | tail -n 1)
buffer=$(arm-none-eabi-nm -S -t d "$out/tictactoe.elf" | awk '$4 == "solver_memory" {print $2 + 0}')
stack=$(sed -n 's/^machine stack used: \([0-9]*\) bytes$/\1/p' <<<"$output")
arm-none-eabi-size "$out/tictactoe.elf"
echo "footprint ($profile profile, features: ${features:-none}): flash $((text + data)) bytes (text $text + data $data);" \
    "RAM $((data + bss)) bytes (data $data + bss $bss, of which the solver's buffer $buffer)" \
    "+ $stack bytes of stack used"
