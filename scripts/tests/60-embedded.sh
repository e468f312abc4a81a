# The bare-metal footprint (the guide's "Embedded" chapter): examples/embedded/build.sh builds
# the C ABI's no_std static library for a Cortex-M4F (the `embedded` cargo profile), links
# examples/embedded/tictactoe.c against it with clang and rust-lld, runs it under QEMU
# (mps2-an386, semihosting), fails unless it finds tic-tac-toe's known values, and prints the
# flash and RAM figures (arm-none-eabi-size). About 30 s, most of it the library's build.
SECONDS=0
bash examples/embedded/build.sh embedded
echo "embedded footprint check ran in $SECONDS s"
