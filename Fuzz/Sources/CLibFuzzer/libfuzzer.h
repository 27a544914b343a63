// libFuzzer's driver entry point, for a fuzz target that has its own `main`.
// https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library
// Defined in the toolchain's libclang_rt.fuzzer_no_main-x86_64.a, which Scripts/fuzz-extractor.sh links;
// declared here in C so Swift calls it with the C calling convention.
#ifndef SEARCHLIGHT_CLIBFUZZER_H
#define SEARCHLIGHT_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
