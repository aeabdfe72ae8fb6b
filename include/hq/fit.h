/*
 * fit — Garmin's FIT files decoded as a stream (lib/format: it knows
 * nothing of the store; the importer in lib/read maps what comes out to
 * workouts and samples).
 *
 * Bytes go in as pieces of any size (hq_fit_feed, then hq_fit_end) and each
 * data message comes out to a callback as soon as its last byte is in: its
 * global message number, its time and its fields, raw, as the file wrote
 * them. What a decoder holds is the 16 local definitions (at most 255
 * fields each), one message's fields (at most 255 x 255 bytes) and a few
 * counters: the same whatever the file's size. Developer fields are
 * skipped by the sizes their definition gives and never held.
 *
 * The protocol as read here (as Garmin's FIT SDK and fitdecode read it):
 * - the file header (12 or 14 bytes, ".FIT"; its CRC checked when the
 *   14-byte header stores one: 0 means "not computed") and the file CRC
 *   after the data (CRC-16/ARC over header and data) are checked;
 * - files may be chained: another header may follow a file's CRC, and its
 *   messages follow (msg->file counts them from 0); each file starts with
 *   no definitions, no last timestamp and no accumulated distance;
 * - definitions in either byte order; a local type may be redefined, the
 *   newest definition wins;
 * - normal and compressed-timestamp record headers: a compressed header's
 *   5-bit offset advances the last full timestamp (field 253 of any
 *   message), with a rollover of 32 s when the offset is below the old
 *   low bits;
 * - base types with their invalid values ("present but invalid" is not a
 *   value: the getters say 0); a field whose size is not a multiple of its
 *   base type (Coros writes uint32 fields of size 1) is kept as bytes and
 *   has no value, as the SDK reads it;
 * - time: date_time is seconds since 1989-12-31T00:00:00Z (Unix
 *   HQ_FIT_EPOCH); values below 0x10000000 are seconds since the device
 *   was switched on, not dates (hq_fit_time_relative says which). Times
 *   here are Unix seconds (raw + HQ_FIT_EPOCH) either way, so a relative
 *   time reads as a day in 1990 until the caller decides what to do.
 *
 * A file that cannot be read fails whole: hq_fit_feed or hq_fit_end
 * returns -1 with e saying "byte N: why" (hq_fit_error_offset gives N)
 * and the decoder stays failed. The messages handed out before were
 * decoded correctly, but the file is not intact: the caller's import rolls
 * back. What fails, with the byte it names:
 * - a header that is not FIT: a size other than 12 or 14, no ".FIT"
 *   (at the header's first byte; also a corrupt header of a chained file);
 *   a header CRC that does not match (at the CRC);
 * - a file CRC that does not match (at the CRC);
 * - a data message whose local type has no definition in this file, an
 *   architecture other than 0 or 1, a base type the protocol does not have
 *   (at the record header or the byte);
 * - a record that runs past the data size the header gives (at the record);
 * - the input ending inside a file: truncated, or a file with no CRC (at
 *   the end of the input);
 * - the callback returning non-zero (its own error, at the message).
 * What is skipped, not failed: developer fields, unknown messages and
 * fields, fields of a size that is not a multiple of their base type.
 *
 * Ownership: hq_fit_new/hq_fit_free. A message and its fields are borrowed
 * for the callback only. An importer reads a file so:
 *
 *     struct hq_fit *d = hq_fit_new(on_message, ctx);
 *     while ((n = hq_input_read(in, buf, sizeof buf)) > 0)
 *             if (hq_fit_feed(d, buf, n, e) != 0)
 *                     break;            (e says "byte N: why")
 *     ... n < 0: a read error; else hq_fit_end(d, e) ...
 *     hq_fit_free(d);
 *
 * and on_message switches on m->global, reading what it needs with
 * hq_fit_file_id(), hq_fit_record() and the others below.
 */
#ifndef HQ_FIT_H
#define HQ_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"

#define HQ_FIT_EPOCH 631065600          /* 1989-12-31T00:00:00Z */
#define HQ_FIT_RELATIVE_MAX 0x10000000  /* raw times below: since power-on */
#define HQ_FIT_NO_TIME INT64_MIN        /* no time (absent or invalid) */

/* Global message numbers the importer reads. */
enum {
	HQ_FIT_FILE_ID = 0,
	HQ_FIT_SPORT = 12,
	HQ_FIT_SESSION = 18,
	HQ_FIT_LAP = 19,
	HQ_FIT_RECORD = 20,
	HQ_FIT_EVENT = 21,
	HQ_FIT_DEVICE_INFO = 23,
	HQ_FIT_ACTIVITY = 34,
	HQ_FIT_HR = 132,
	HQ_FIT_FIELD_DESCRIPTION = 206,
	HQ_FIT_DEVELOPER_DATA_ID = 207,
};

/* Base types: the definition's byte & 0x1F. */
enum hq_fit_type {
	HQ_FIT_ENUM, HQ_FIT_SINT8, HQ_FIT_UINT8, HQ_FIT_SINT16, HQ_FIT_UINT16,
	HQ_FIT_SINT32, HQ_FIT_UINT32, HQ_FIT_STRING, HQ_FIT_FLOAT32,
	HQ_FIT_FLOAT64, HQ_FIT_UINT8Z, HQ_FIT_UINT16Z, HQ_FIT_UINT32Z,
	HQ_FIT_BYTE, HQ_FIT_SINT64, HQ_FIT_UINT64, HQ_FIT_UINT64Z,
	HQ_FIT_NTYPES
};

/* event (21): event 0 is the timer; a pause is a timer stop of any kind
 * (stop, stop_all, stop_disable, stop_disable_all), the next start
 * resumes. */
enum {
	HQ_FIT_EVENT_TIMER = 0,
	HQ_FIT_EVENT_SESSION = 8,
	HQ_FIT_EVENT_LAP = 9,
	HQ_FIT_EVENT_ACTIVITY = 26,
};
enum {
	HQ_FIT_START = 0,
	HQ_FIT_STOP = 1,
	HQ_FIT_MARKER = 3,
	HQ_FIT_STOP_ALL = 4,
	HQ_FIT_STOP_DISABLE = 8,
	HQ_FIT_STOP_DISABLE_ALL = 9,
};

/* One field of a data message as the file wrote it. */
struct hq_fit_field {
	uint8_t num;           /* field definition number (253 timestamp...) */
	uint8_t type;          /* enum hq_fit_type */
	uint8_t size;          /* bytes */
	uint8_t count;         /* values: size / the type's size; 0 when the
	                        * size is no multiple (the field is bytes only;
	                        * a string counts 1) */
	uint8_t big_endian;    /* the definition's architecture */
	const unsigned char *raw;   /* size bytes */
};

struct hq_fit_msg {
	uint16_t global;       /* global message number */
	uint8_t local;         /* local message type 0-15 */
	uint8_t compressed;    /* came with a compressed-timestamp header */
	int file;              /* which of chained files, from 0 */
	long long offset;      /* byte of the record header in the input */
	/* The message's time: field 253 when a valid uint32, else the
	 * compressed header's; Unix seconds, or HQ_FIT_NO_TIME. */
	int64_t time;
	/* record (20): compressed_speed_distance's distance accumulated as
	 * the SDK does (1/16 m; seeded by a record's full distance), or -1. */
	int64_t acc_distance;
	/* hr (132): event_timestamp's values, raw (1/1024 s), accumulated as
	 * the SDK does (hq_fit_hr). */
	const uint32_t *hr_event;
	int hr_nevent;
	int nfields;
	const struct hq_fit_field *field;
	int ndev;              /* developer fields skipped ... */
	unsigned dev_bytes;    /* ... and their bytes */
	const uint8_t *at;     /* internal: field number -> index + 1 */
};

/* A file's header. */
struct hq_fit_header {
	long long offset;      /* in the input */
	uint8_t size;          /* 12 or 14 */
	uint8_t protocol;      /* high nibble major, low minor: 0x10, 0x20 */
	uint16_t profile;      /* as written ... */
	int profile_major, profile_minor;   /* ... and read: > 2199 is
	                        * major*1000 + minor, else major*100 + minor */
	uint32_t data_size;
	uint16_t crc;          /* the header's own (0: none, or 12 bytes) */
};

/* Return 0 to go on, or -1 with e set to stop the decoding. */
typedef int hq_fit_fn(void *arg, const struct hq_fit_msg *m,
    struct hq_err *e);

struct hq_fit;

struct hq_fit *hq_fit_new(hq_fit_fn *fn, void *arg);
void hq_fit_free(struct hq_fit *d);

/* The next n bytes of the input (n may be 0): 0, or -1 with e set. */
int hq_fit_feed(struct hq_fit *d, const void *p, size_t n, struct hq_err *e);
/* The input has ended: 0 when it ended after a file's CRC, else -1 with e
 * set (an empty input is not FIT either). */
int hq_fit_end(struct hq_fit *d, struct hq_err *e);

/* 1 when the decoder failed because the input ended inside a file (its
 * header read): truncated, or no file CRC. The messages handed out before
 * were whole. */
int hq_fit_truncated(const struct hq_fit *d);
long long hq_fit_error_offset(const struct hq_fit *d);  /* -1: none */
int hq_fit_files(const struct hq_fit *d);               /* headers read */
/* The latest header read (NULL before the first). */
const struct hq_fit_header *hq_fit_header(const struct hq_fit *d);

/* 1 when the first n bytes look like a FIT file's header (input.c's sniff
 * signature). */
int hq_fit_sniff(const unsigned char *p, size_t n);

/* FIT's CRC-16 (CRC-16/ARC: reflected 0xA001, initial 0) of n bytes,
 * continuing from crc (0 to start). */
uint16_t hq_fit_crc(uint16_t crc, const void *p, size_t n);

/* ---- values ---------------------------------------------------------- */

/* The field numbered num of m (the last one when a definition repeats a
 * number), or NULL. */
const struct hq_fit_field *hq_fit_find(const struct hq_fit_msg *m,
    unsigned num);
/* Value i of a field, raw (no scale): 1 with *v set, or 0 when there is
 * none (past count, a string, the type's invalid value; a byte field is
 * invalid only when all its bytes are 0xFF). The integer form gives the
 * bits of a 64-bit unsigned value above INT64_MAX as they are. */
int hq_fit_value(const struct hq_fit_field *f, unsigned i, double *v);
int hq_fit_int(const struct hq_fit_field *f, unsigned i, int64_t *v);
/* Field num's first value / scale - offset (the profile's rule), or NAN. */
double hq_fit_num(const struct hq_fit_msg *m, unsigned num, double scale,
    double offset);
/* Field num as a date_time (a single uint32): Unix seconds, or
 * HQ_FIT_NO_TIME. */
int64_t hq_fit_time(const struct hq_fit_msg *m, unsigned num);
/* A string field (up to its first NUL) into buf, cut to n - 1 bytes and
 * NUL-terminated; its length, 0 when absent. The bytes are the file's:
 * the caller checks UTF-8 (the import writer does). */
size_t hq_fit_str(const struct hq_fit_msg *m, unsigned num, char *buf,
    size_t n);

/* Whether a Unix time from a FIT file is device-relative (raw below
 * 0x10000000: seconds since power-on, not a date). */
int hq_fit_time_relative(int64_t t);
/* Semicircles to degrees (raw * 180 / 2^31). */
double hq_fit_degrees(int64_t semicircles);

/* ---- the messages the importer reads --------------------------------- */
/* Each fills its struct from a message of its global number (0, or -1 for
 * another message): numbers with scale and offset applied, NAN when
 * absent or invalid; enums and counts -1 when absent; times Unix seconds
 * or HQ_FIT_NO_TIME; positions in degrees, NAN also when out of range
 * (a latitude past 90, a longitude past 180). */

struct hq_fit_file_id {
	int type;              /* file: 4 activity, 2 settings, ... */
	int manufacturer;      /* 1 garmin, 32 wahoo_fitness, 294 coros, ... */
	int product;           /* Garmin's product numbers when the
	                        * manufacturer is 1, 13, 15 or 89 */
	int64_t serial;        /* uint32z: -1 when 0 (invalid) or absent */
	int64_t time_created;
	char product_name[64];
};
int hq_fit_file_id(const struct hq_fit_msg *m, struct hq_fit_file_id *f);

struct hq_fit_sport_msg {
	int sport, sub_sport;
	char name[64];
};
int hq_fit_sport(const struct hq_fit_msg *m, struct hq_fit_sport_msg *s);

/* session (18) and lap (19) share the summary fields. */
struct hq_fit_summary {
	int64_t time;          /* 253: when it was written (the end) */
	int64_t start_time;
	int message_index;
	int sport, sub_sport;
	int event, event_type;
	double total_elapsed_time, total_timer_time;   /* s */
	double total_distance;                         /* m */
	double total_calories;                         /* kcal */
	double avg_speed, max_speed;                   /* m/s (enhanced when
	                                                * written) */
	double avg_heart_rate, max_heart_rate;         /* bpm */
	double avg_cadence, max_cadence;               /* rpm */
	double avg_power, max_power;                   /* W */
	double total_ascent, total_descent;            /* m */
	double start_lat, start_lon;                   /* degrees */
	/* session only */
	int first_lap_index, num_laps;
	/* lap only */
	int lap_trigger;
	double end_lat, end_lon;
};
int hq_fit_session(const struct hq_fit_msg *m, struct hq_fit_summary *s);
int hq_fit_lap(const struct hq_fit_msg *m, struct hq_fit_summary *s);

struct hq_fit_record {
	int64_t time;          /* msg->time (compressed headers included) */
	double lat, lon;       /* degrees */
	double altitude;       /* m: enhanced_altitude, else altitude */
	double heart_rate;     /* bpm (0 is a value: Zwift writes it) */
	double cadence;        /* rpm, field 4 (running: strides/min) */
	double fractional_cadence;   /* rpm, to add to cadence */
	double distance;       /* m, cumulative: distance, else the
	                        * accumulated compressed_speed_distance */
	double speed;          /* m/s: enhanced_speed, speed, else the
	                        * compressed_speed_distance's */
	double power;          /* W */
	double temperature;    /* deg C */
};
int hq_fit_record(const struct hq_fit_msg *m, struct hq_fit_record *r);

struct hq_fit_event {
	int64_t time;
	int event, event_type, event_group;
	int64_t data;          /* data, else data16; -1 */
	int timer_trigger;     /* data for a timer event: 0 manual, 1 auto,
	                        * 2 fitness_equipment; else -1 */
};
int hq_fit_event(const struct hq_fit_msg *m, struct hq_fit_event *ev);
/* 1 when ev pauses the timer, 2 when it starts it, else 0. */
int hq_fit_event_timer(const struct hq_fit_event *ev);

/* hr (132): heart beats an HRM-Swim, HRM-Tri or HRM-Pro stored while it
 * could not send them. A message with a timestamp anchors the others: its
 * one event time is at time + fractional; those after are event times
 * (event / 1024 s) relative to it. */
struct hq_fit_hr {
	int64_t time;          /* 253, or HQ_FIT_NO_TIME */
	double fractional;     /* s: fractional_timestamp, else time256; NAN */
	const struct hq_fit_field *bpm;   /* filtered_bpm (uint8 array) */
	int nevent;            /* event_timestamp's values */
	const uint32_t *event; /* raw, 1/1024 s */
};
int hq_fit_hr(const struct hq_fit_msg *m, struct hq_fit_hr *hr);

struct hq_fit_device_info {
	int64_t time;
	int device_index, device_type, manufacturer, product, source_type;
	int64_t serial;        /* -1: none */
	double software_version;
	char product_name[64];
	char descriptor[64];
};
int hq_fit_device_info(const struct hq_fit_msg *m,
    struct hq_fit_device_info *di);

struct hq_fit_activity {
	int64_t time;
	int64_t local_timestamp;   /* wall clock as Unix seconds: minus time
	                            * is the UTC offset (none when relative:
	                            * Zwift writes 0) */
	double total_timer_time;
	int num_sessions, type, event, event_type;
};
int hq_fit_activity(const struct hq_fit_msg *m, struct hq_fit_activity *a);

/* Names of the enum values the reference lists (snake_case), or NULL. */
const char *hq_fit_sport_name(int sport);
const char *hq_fit_sub_sport_name(int sub_sport);
/* The FIT profile's names (lib/format/fit_profile.c, written from Garmin's
 * FIT SDK by scripts/fit-profile.mjs), or NULL: a manufacturer's word
 * ("wahoo_fitness"), its name for people ("Wahoo", "Hammerhead"), and a
 * product's for Garmin's numbers ("Edge 1040"; manufacturers 1, 13, 15
 * and 89 use them). */
const char *hq_fit_manufacturer_name(int manufacturer);
const char *hq_fit_maker_name(int manufacturer);
const char *hq_fit_product_name(int manufacturer, int product);

#endif
