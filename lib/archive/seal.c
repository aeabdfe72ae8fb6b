/*
 * seal — zstd then XChaCha20-Poly1305 secretstream (seal.h). The object
 * format is seal.h's; this file keeps it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "hq/buf.h"
#include "hq/seal.h"

#define MAGIC "HQA1"
#define CHUNK (64 * 1024)
#define ABYTES crypto_secretstream_xchacha20poly1305_ABYTES
#define HEADER crypto_secretstream_xchacha20poly1305_HEADERBYTES
#define TAG_FINAL crypto_secretstream_xchacha20poly1305_TAG_FINAL

int
hq_seal_init(struct hq_err *e)
{
	if (sodium_init() < 0) {
		hq_err_set(e, "libsodium cannot start");
		return -1;
	}
	return 0;
}

void
hq_seal_key_new(unsigned char key[HQ_SEAL_KEY])
{
	crypto_secretstream_xchacha20poly1305_keygen(key);
}

int
hq_seal_key_derive(const char *pass, const unsigned char salt[HQ_SEAL_SALT],
    unsigned long long ops, size_t mem, unsigned char key[HQ_SEAL_KEY],
    struct hq_err *e)
{
	if (ops < crypto_pwhash_OPSLIMIT_MIN || ops > 64 ||
	    mem < crypto_pwhash_MEMLIMIT_MIN || mem > (1u << 30)) {
		hq_err_set(e, "the archive's passphrase settings are out of range "
		    "(ops %llu, memory %zu)", ops, mem);
		return -1;
	}
	if (crypto_pwhash(key, HQ_SEAL_KEY, pass, strlen(pass), salt, ops, mem,
	    crypto_pwhash_ALG_ARGON2ID13)) {
		hq_err_set(e, "not enough memory to derive the key (%zu MiB)",
		    mem >> 20);
		return -1;
	}
	return 0;
}

void
hq_seal_key_check(const unsigned char key[HQ_SEAL_KEY],
    unsigned char check[HQ_SEAL_CHECK])
{
	static const char what[] = "hq-archive key check";

	crypto_generichash(check, HQ_SEAL_CHECK, (const unsigned char *)what,
	    sizeof what - 1, key, HQ_SEAL_KEY);
}

void
hq_seal_hex(const unsigned char *bin, size_t n, char *hex)
{
	sodium_bin2hex(hex, 2 * n + 1, bin, n);
}

int
hq_seal_key_load(const char *path, unsigned char key[HQ_SEAL_KEY],
    struct hq_err *e)
{
	char text[2 * HQ_SEAL_KEY + 2];
	struct stat st;
	size_t n, len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		hq_err_set(e, "%s: %s%s", path, strerror(errno), errno == ENOENT ?
		    " (make one with hq-archive init, or restore with --passphrase)" : "");
		return -1;
	}
	if (fstat(fd, &st) || (st.st_mode & 077)) {
		hq_err_set(e, "%s: others may read this key: chmod 600 %s", path, path);
		close(fd);
		return -1;
	}
	n = 0;
	for (;;) {
		ssize_t r = read(fd, text + n, sizeof text - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n == sizeof text)
			break;
	}
	close(fd);
	len = n;
	if (len && text[len - 1] == '\n')
		len--;
	if (len != 2 * HQ_SEAL_KEY || sodium_hex2bin(key, HQ_SEAL_KEY, text, len,
	    NULL, &n, NULL) || n != HQ_SEAL_KEY) {
		sodium_memzero(text, sizeof text);
		hq_err_set(e, "%s: not an hq-archive key (64 hex digits)", path);
		return -1;
	}
	sodium_memzero(text, sizeof text);
	return 0;
}

int
hq_seal_key_save(const char *path, const unsigned char key[HQ_SEAL_KEY],
    struct hq_err *e)
{
	char text[2 * HQ_SEAL_KEY + 2];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		return -1;
	}
	hq_seal_hex(key, HQ_SEAL_KEY, text);
	text[2 * HQ_SEAL_KEY] = '\n';
	if (write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1) ||
	    fsync(fd) || close(fd)) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		unlink(path);
		sodium_memzero(text, sizeof text);
		return -1;
	}
	sodium_memzero(text, sizeof text);
	return 0;
}

/* The writer side: plaintext (zstd's output) in, sealed chunks out. */
struct sealer {
	crypto_secretstream_xchacha20poly1305_state st;
	unsigned char buf[CHUNK], ct[CHUNK + ABYTES];
	size_t n;
	const char *ad;
	FILE *out;
	crypto_generichash_state hash;
};

static int
put(struct sealer *s, const void *p, size_t n)
{
	crypto_generichash_update(&s->hash, p, n);
	return fwrite(p, 1, n, s->out) == n ? 0 : -1;
}

static int
flush_chunk(struct sealer *s, unsigned char tag)
{
	unsigned long long clen;

	crypto_secretstream_xchacha20poly1305_push(&s->st, s->ct, &clen, s->buf,
	    s->n, (const unsigned char *)s->ad, strlen(s->ad), tag);
	s->n = 0;
	return put(s, s->ct, (size_t)clen);
}

static int
seal_write(struct sealer *s, const unsigned char *p, size_t len)
{
	while (len) {
		size_t k = CHUNK - s->n < len ? CHUNK - s->n : len;
		memcpy(s->buf + s->n, p, k);
		s->n += k;
		p += k;
		len -= k;
		if (s->n == CHUNK && flush_chunk(s, 0))
			return -1;
	}
	return 0;
}

int
hq_seal_stream(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    FILE *in, FILE *out, unsigned char hash[32], struct hq_err *e)
{
	struct sealer *s = sodium_malloc(sizeof *s);
	unsigned char hdr[HEADER];
	size_t in_cap = ZSTD_CStreamInSize(), out_cap = ZSTD_CStreamOutSize();
	unsigned char *ib = hq_xmalloc(in_cap), *ob = hq_xmalloc(out_cap);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	int rc = -1;

	if (!s || !cc) {
		hq_err_set(e, "out of memory");
		goto done;
	}
	s->n = 0;
	s->ad = ad;
	s->out = out;
	crypto_generichash_init(&s->hash, NULL, 0, 32);
	crypto_secretstream_xchacha20poly1305_init_push(&s->st, hdr, key);
	/* level 1: on a store's pages 1 % larger than level 3 for 0.37x
	 * the CPU (zstd -1 and -3 of a year's store: 19.84 and 19.65 MB,
	 * 0.19 and 0.40 s); level 3 was a third of a push's CPU */
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1);
	/* the AEAD covers integrity: zstd's own checksum would be 4 bytes of
	 * nothing */
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 0);
	if (put(s, MAGIC, 4) || put(s, hdr, sizeof hdr))
		goto write_failed;
	for (;;) {
		size_t n = fread(ib, 1, in_cap, in), r;
		int last = n < in_cap;
		ZSTD_inBuffer zi = { ib, n, 0 };

		if (last && ferror(in)) {
			hq_err_set(e, "read failed: %s", strerror(errno));
			goto done;
		}
		do {
			ZSTD_outBuffer zo = { ob, out_cap, 0 };
			r = ZSTD_compressStream2(cc, &zo, &zi,
			    last ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(r)) {
				hq_err_set(e, "zstd: %s", ZSTD_getErrorName(r));
				goto done;
			}
			if (seal_write(s, ob, zo.pos))
				goto write_failed;
		} while (last ? r != 0 : zi.pos < zi.size);
		if (last)
			break;
	}
	if (flush_chunk(s, TAG_FINAL) || fflush(out))
		goto write_failed;
	crypto_generichash_final(&s->hash, hash, 32);
	rc = 0;
	goto done;
write_failed:
	hq_err_set(e, "write failed: %s", strerror(errno));
done:
	if (s)
		sodium_free(s);
	ZSTD_freeCCtx(cc);
	free(ib);
	free(ob);
	return rc;
}

/* A scratch file of ours: 0600, replaced. */
static FILE *
create_private(const char *path, struct hq_err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FILE *f;

	if (fd < 0 || !(f = fdopen(fd, "wb"))) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return f;
}

/* No fsync: these are scratch files (an object on its way up, a segment
 * on its way into a store); the remote's copy and the store are synced
 * where they are written. */
static int
close_private(FILE *f, const char *path, struct hq_err *e)
{
	int bad = fflush(f) != 0;

	if (fclose(f) || bad) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* fi sealed into out (hash: the sealed bytes' BLAKE2b-256), or, hash
 * NULL, fi opened into out; out created 0600 and removed on failure:
 * never half a file. 0, or -1. */
static int
file_through(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    FILE *fi, const char *out, unsigned char *hash, struct hq_err *e)
{
	FILE *fo;
	int rc;

	if (!(fo = create_private(out, e)))
		return -1;
	rc = hash ? hq_seal_stream(key, ad, fi, fo, hash, e) :
	    hq_seal_open_stream(key, ad, fi, fo, 0, e);
	if (close_private(fo, out, rc ? NULL : e) && rc == 0)
		rc = -1;
	if (rc)
		unlink(out);
	return rc;
}

static int
path_through(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    const char *in, const char *out, unsigned char *hash, struct hq_err *e)
{
	FILE *fi = fopen(in, "rb");
	int rc;

	if (!fi) {
		hq_err_set(e, "%s: %s", in, strerror(errno));
		return -1;
	}
	rc = file_through(key, ad, fi, out, hash, e);
	fclose(fi);
	return rc;
}

int
hq_seal_file(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    FILE *in, const char *out, unsigned char hash[32], struct hq_err *e)
{
	return file_through(key, ad, in, out, hash, e);
}

/* The object's magic and its secretstream header, st made ready to
 * pull its chunks: HQ_SEAL_OK, or the failure with e set. */
static int
open_header(const unsigned char key[HQ_SEAL_KEY], FILE *in,
    crypto_secretstream_xchacha20poly1305_state *st, struct hq_err *e)
{
	unsigned char hdr[HEADER], magic[4];

	if (fread(magic, 1, 4, in) != 4 || memcmp(magic, MAGIC, 4)) {
		hq_err_set(e, "not an hq-archive object");
		return HQ_SEAL_NOT_OURS;
	}
	if (fread(hdr, 1, sizeof hdr, in) != sizeof hdr ||
	    crypto_secretstream_xchacha20poly1305_init_pull(st, hdr, key)) {
		hq_err_set(e, "truncated (no final chunk)");
		return HQ_SEAL_TRUNCATED;
	}
	return HQ_SEAL_OK;
}

/* Which failure a chunk that fails its check (n bytes read) says. The MAC
 * cannot tell a wrong key from another object's bytes or a damaged first
 * chunk: the caller, which checked the key, can. */
static int
chunk_failed(int first, size_t n, FILE *in, struct hq_err *e)
{
	if (first) {
		hq_err_set(e, "cannot be opened: not this object, "
		    "or damaged, or another key");
		return HQ_SEAL_FIRST;
	} else if (n < CHUNK + ABYTES && feof(in)) {
		hq_err_set(e, "truncated or damaged (its last "
		    "chunk fails)");
		return HQ_SEAL_TRUNCATED;
	}
	hq_err_set(e, "damaged or altered (a chunk fails "
	    "its check)");
	return HQ_SEAL_DAMAGED;
}

/* One opened chunk's plen bytes through zstd into out, *total counting
 * what was written against max (0: no bound), *zr zstd's last answer:
 * HQ_SEAL_OK, HQ_SEAL_DAMAGED, or -1, with e set. */
static int
inflate_chunk(ZSTD_DCtx *dc, const unsigned char *pt, size_t plen,
    unsigned char *ob, size_t out_cap, FILE *out, uint64_t max,
    uint64_t *total, size_t *zr, struct hq_err *e)
{
	ZSTD_inBuffer zi = { pt, plen, 0 };

	while (zi.pos < zi.size) {
		ZSTD_outBuffer zo = { ob, out_cap, 0 };
		*zr = ZSTD_decompressStream(dc, &zo, &zi);
		if (ZSTD_isError(*zr)) {
			hq_err_set(e, "damaged (zstd: %s)", ZSTD_getErrorName(*zr));
			return HQ_SEAL_DAMAGED;
		}
		*total += zo.pos;
		if (max && *total > max) {
			hq_err_set(e, "larger than %llu bytes once opened",
			    (unsigned long long)max);
			return -1;
		}
		if (fwrite(ob, 1, zo.pos, out) != zo.pos) {
			hq_err_set(e, "write failed: %s", strerror(errno));
			return -1;
		}
	}
	return HQ_SEAL_OK;
}

/* After the final chunk: nothing more in in, zstd's frame ended (zr, its
 * last answer, 0), out flushed. HQ_SEAL_OK, or the failure with e set. */
static int
check_stream_end(FILE *in, FILE *out, size_t zr, struct hq_err *e)
{
	if (fgetc(in) != EOF) {
		hq_err_set(e, "damaged (bytes after the final chunk)");
		return HQ_SEAL_DAMAGED;
	}
	if (zr != 0) {
		hq_err_set(e, "damaged (the compressed stream does not end)");
		return HQ_SEAL_DAMAGED;
	}
	if (fflush(out)) {
		hq_err_set(e, "write failed: %s", strerror(errno));
		return -1;
	}
	return HQ_SEAL_OK;
}

int
hq_seal_open_stream(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    FILE *in, FILE *out, uint64_t max, struct hq_err *e)
{
	unsigned char *ct = hq_xmalloc(CHUNK + ABYTES), *pt = sodium_malloc(CHUNK);
	unsigned char tag = 0;
	crypto_secretstream_xchacha20poly1305_state st;
	size_t out_cap = ZSTD_DStreamOutSize(), zr = 1;
	unsigned char *ob = hq_xmalloc(out_cap);
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	uint64_t total = 0;
	int rc = -1, first = 1;

	if (!pt || !dc) {
		hq_err_set(e, "out of memory");
		goto done;
	}
	/* an 8 MiB window at most: a crafted frame cannot ask for more */
	ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 23);
	if ((rc = open_header(key, in, &st, e)) != HQ_SEAL_OK)
		goto done;
	rc = -1;
	while (tag != TAG_FINAL) {
		size_t n = fread(ct, 1, CHUNK + ABYTES, in);
		unsigned long long plen;

		if (ferror(in)) {
			hq_err_set(e, "read failed: %s", strerror(errno));
			goto done;
		}
		if (n < ABYTES) {
			hq_err_set(e, "truncated (no final chunk)");
			rc = HQ_SEAL_TRUNCATED;
			goto done;
		}
		if (crypto_secretstream_xchacha20poly1305_pull(&st, pt, &plen, &tag,
		    ct, n, (const unsigned char *)ad, strlen(ad))) {
			rc = chunk_failed(first, n, in, e);
			goto done;
		}
		first = 0;
		if (tag != TAG_FINAL && n < CHUNK + ABYTES) {
			hq_err_set(e, "truncated (no final chunk)");
			rc = HQ_SEAL_TRUNCATED;
			goto done;
		}
		if ((rc = inflate_chunk(dc, pt, (size_t)plen, ob, out_cap, out,
		    max, &total, &zr, e)) != HQ_SEAL_OK)
			goto done;
		rc = -1;
	}
	rc = check_stream_end(in, out, zr, e);
done:
	if (pt)
		sodium_free(pt);
	sodium_memzero(&st, sizeof st);
	ZSTD_freeDCtx(dc);
	free(ct);
	free(ob);
	return rc;
}

int
hq_seal_open_file(const unsigned char key[HQ_SEAL_KEY], const char *ad,
    const char *in, const char *out, struct hq_err *e)
{
	return path_through(key, ad, in, out, NULL, e);
}

void
hq_seal_hash_mem(const void *p, size_t n, char hex[65])
{
	unsigned char h[32];

	crypto_generichash(h, 32, p, n, NULL, 0);
	hq_seal_hex(h, 32, hex);
}

int
hq_seal_hash_file(const char *path, char hex[65], struct hq_err *e)
{
	crypto_generichash_state st;
	unsigned char *b = hq_xmalloc(CHUNK), h[32];
	FILE *f = fopen(path, "rb");
	size_t n;
	int bad;

	if (!f) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		free(b);
		return -1;
	}
	crypto_generichash_init(&st, NULL, 0, 32);
	while ((n = fread(b, 1, CHUNK, f)) > 0)
		crypto_generichash_update(&st, b, n);
	bad = ferror(f);
	fclose(f);
	free(b);
	if (bad) {
		hq_err_set(e, "%s: read failed", path);
		return -1;
	}
	crypto_generichash_final(&st, h, 32);
	hq_seal_hex(h, 32, hex);
	return 0;
}
