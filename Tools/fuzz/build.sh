#!/usr/bin/env bash
# Builds Tools/fuzz's libFuzzer target and seed writer into $1 (default .build/fuzz) with the
# clang of the Swift toolchain (it ships libFuzzer and the sanitizers' runtimes).
set -euo pipefail
out=${1:-.build/fuzz}
cc=${FUZZ_CC:-clang}
mkdir -p "$out"
flags=(-g -O1 -fuse-ld=lld -ISources/CVipsShim/jpeg -ISources/CVipsShim/include
  $(pkg-config --cflags vips glib-2.0))
"$cc" "${flags[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  Tools/fuzz/jpeg_skip_fuzz.c Sources/CVipsShim/jpeg/cvips_jpeg_skip.c \
  -ljpeg $(pkg-config --libs glib-2.0) -o "$out/jpeg_skip_fuzz"
"$cc" -O1 -fuse-ld=lld Tools/fuzz/make_seeds.c -ljpeg -o "$out/make_seeds"
