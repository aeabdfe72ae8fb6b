/*
 * fuzz — what a fuzz target (tests/fuzz/fuzz_*.c) and the engine that runs
 * it share. A target defines LLVMFuzzerTestOneInput() and the bytes and
 * words that matter to its input (fuzz_hot, fuzz_words); the engine is
 * libFuzzer (make FUZZER=1 CC=clang) or, in the default build, mutate.c:
 * a main() that mutates the files it is given deterministically, so that
 * every CI run fuzzes each target under ASan+UBSan:
 *
 *     fuzz_X [-n ITERATIONS] [-s SEED] [-f WORD] [-m MB] [-t SECONDS]
 *            [-o FILE] FILE...
 *
 * Iteration i runs file i % nfiles: unmutated the first time round, then
 * mangled by a few edits. -f gives the target a word (a format, a
 * provider); under libFuzzer $HQ_FUZZ_FORMAT does. -m fails the run when
 * the peak RSS passes MB (default 2048), -t when one input takes longer
 * than SECONDS (default 20); -o writes each input to FILE before it runs,
 * so that after a crash FILE holds the input that crashed.
 *
 * Nothing here is hq's API: the targets call the library as the commands
 * do, and a crash, a sanitizer report, a leak, a hang or memory past the
 * bound is the failure; errors the library reports are not.
 */
#ifndef HQ_FUZZ_H
#define HQ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "hq/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Defined by each target: bytes worth writing over others, and words worth
 * inserting (NULL-terminated). */
extern const char fuzz_hot[];
extern const char *const fuzz_words[];

/* -f WORD (or $HQ_FUZZ_FORMAT), else NULL. */
const char *fuzz_word(void);

/* The unmutated file the current input was made from, or NULL (libFuzzer:
 * there is none). A target may take what to do from it, as hq-ingest
 * takes a format from a file's first bytes. */
extern const unsigned char *fuzz_seed;
extern size_t fuzz_seed_len;

/* The input as a file, opened as a user's file is (seekable, with a
 * size): a memfd whose path ("/proc/self/fd/N") goes to path. Returns the
 * descriptor, which the target closes; aborts when it cannot. */
int fuzz_as_file(const uint8_t *data, size_t size, char *path, size_t n);

/* A few random edits to b; rng is the xorshift state. */
void fuzz_mutate(struct hq_buf *b, uint64_t *rng);

/*
 * The input imported as hq-ingest imports a file, into a store of the
 * engine's (a temporary file, removed at exit): opened by its path as a
 * user's file (hq_reader_open: sniffed, or read as the format of the
 * --format word family), read by its reader, the clinical records' step,
 * then committed (commit: the rollups, the same activity, all that depends
 * on the rows, then the workouts' figures kept as hq-ingest keeps them) or
 * rolled back. The store starts
 * again empty after FUZZ_COMMITS commits, so that it stays small. check,
 * when not NULL, runs after the reader is chosen (its format's name):
 * what a target compares on the input itself. Aborts when the store cannot
 * be made; errors of the import are the input's, not failures.
 */
#define FUZZ_COMMITS 64
void fuzz_import(const uint8_t *data, size_t size, const char *family,
    int commit, void (*check)(const char *format, const uint8_t *data,
    size_t size));

#endif
