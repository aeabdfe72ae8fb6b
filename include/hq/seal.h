/*
 * seal — how hq-archive keeps what it sends unreadable to anyone without
 * the key: a file compressed with zstd (level 1, one frame) and sealed
 * with libsodium's XChaCha20-Poly1305 secretstream, in chunks of 64 KiB.
 *
 *     "HQA1" | secretstream header (24 bytes) | chunk...
 *
 * Each chunk is 64 KiB of the compressed stream plus 17 bytes of tag; the
 * last is shorter and tagged FINAL. Every chunk is bound to an associated
 * text (the AD: "hq-archive/1 segment 2020-03 NAME"), so an object moved
 * to another name or month fails to open. Nothing in the object is a
 * length to trust: a truncated object, a flipped byte, bytes after the
 * final chunk are each refused, and what was written of the output is
 * removed. Memory is bounded (two chunks, zstd's buffers, a window of at
 * most 8 MiB) whatever the size.
 *
 * The key: 32 bytes, random (hq_seal_key_new) or derived from a
 * passphrase with Argon2id (hq_seal_key_derive); its check value (a keyed
 * hash of a constant) lets a wrong key be said by name without trying an
 * object. Keys live in caller-owned arrays; callers wipe them with
 * sodium_memzero().
 */
#ifndef HQ_SEAL_H
#define HQ_SEAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/err.h"

#define HQ_SEAL_KEY 32
#define HQ_SEAL_CHECK 16
#define HQ_SEAL_SALT 16
/* Argon2id's cost: 0.6 s and 51 MB on a 2020 laptop; below the 64 MB
 * hq-archive keeps to. Stored with the archive, so it may be raised. */
#define HQ_SEAL_KDF_OPS 3
#define HQ_SEAL_KDF_MEM (48u << 20)
/* What a passphrase archive's clear object may ask, at most. */
#define HQ_SEAL_KDF_OPS_MAX 64
#define HQ_SEAL_KDF_MEM_MAX (1024u << 20)

/* hq_seal_open's failures, beside -1 (I/O, with e set). */
enum {
	HQ_SEAL_OK = 0,
	HQ_SEAL_NOT_OURS = 1,   /* no "HQA1" header: not an hq-archive object */
	HQ_SEAL_FIRST = 2,      /* the first chunk fails: wrong key, another object, or damaged */
	HQ_SEAL_DAMAGED = 3,    /* a later chunk fails, or bytes after the end */
	HQ_SEAL_TRUNCATED = 4,  /* no final chunk */
};

int hq_seal_init(struct hq_err *e);
void hq_seal_key_new(unsigned char key[HQ_SEAL_KEY]);
int hq_seal_key_derive(const char *passphrase, const unsigned char salt[HQ_SEAL_SALT],
    unsigned long long ops, size_t mem, unsigned char key[HQ_SEAL_KEY],
    struct hq_err *e);
void hq_seal_key_check(const unsigned char key[HQ_SEAL_KEY],
    unsigned char check[HQ_SEAL_CHECK]);
/* A key file: 64 hex digits and a newline, mode 0600. Load refuses a file
 * others may read ("chmod 600 FILE"). Save never replaces a file. */
int hq_seal_key_load(const char *path, unsigned char key[HQ_SEAL_KEY],
    struct hq_err *e);
int hq_seal_key_save(const char *path, const unsigned char key[HQ_SEAL_KEY],
    struct hq_err *e);

/* Compress and seal in to out (0600, replaced); hash: BLAKE2b-256 of what
 * was written (for the manifest). 0 or -1. */
int hq_seal_stream(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    FILE *in, FILE *out, unsigned char hash[32], struct hq_err *e);
/* The same into a new file out (0600), never half written. */
int hq_seal_file(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    FILE *in, const char *out, unsigned char hash[32], struct hq_err *e);
/* Open and decompress in to out, at most max bytes of output (0: no
 * bound): HQ_SEAL_OK, one of the failures above (e says which), or -1. */
int hq_seal_open_stream(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    FILE *in, FILE *out, uint64_t max, struct hq_err *e);
/* The same to a file, removed on any failure. */
int hq_seal_open_file(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    const char *in, const char *out, struct hq_err *e);

/* BLAKE2b-256 of a file, as 64 hex digits and a NUL (libsodium's SHA-256
 * took a quarter of a push's CPU; BLAKE2b is several times faster). */
int hq_seal_hash_file(const char *path, char hex[65], struct hq_err *e);
void hq_seal_hash_mem(const void *p, size_t n, char hex[65]);
void hq_seal_hex(const unsigned char *bin, size_t n, char *hex);

#endif
