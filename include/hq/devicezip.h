/*
 * devicezip — device files packed: a gzip of a FIT, TCX or GPX file
 * (Strava's bulk export writes .fit.gz, .tcx.gz, .gpx.gz) and a zip of
 * many (Garmin Connect's and Strava's bulk exports, a folder zipped),
 * read as a stream (a gzip through zlib, its members' CRC-32 and length
 * checked; a zip through libarchive), each file then by its own reader
 * (fitfile.h, trackfile.h), sniffed from content. One layer of gzip is
 * read: a gzip inside a gzip fails. What a file unpacks to, every entry
 * and layer, is at most 100 times the bytes of it read, past 16 MiB: a
 * bomb fails the file (a zip: the whole zip) there.
 *
 * A zip is one import (one transaction); each file in it is a part of it
 * (ingest.h) that may fail alone: a file that cannot be read (a broken
 * FIT, malformed XML) is taken back whole and warned about, naming
 * zip:entry and its byte or line, and the others are kept. Entries that
 * are no device file (Strava's CSVs, photos) are skipped and counted in
 * one warning; a .gz inside the zip is read through, and so is a zip
 * inside the zip (Garmin Connect's export holds its uploaded files in
 * zips), its files parts of its part, one level deep: a zip inside that
 * is skipped with a warning. A lone .gz is a file: what fails in it fails
 * the import.
 *
 * The zip is claimed by sniffing when the first bytes show an entry named
 * .fit, .tcx, .gpx (also .gz) or .zip and nothing of Apple's export
 * (apple_health_export/, export.xml, workout-routes/): Apple's export
 * zip holds GPX routes and is the Apple reader's. Any zip is read as
 * device files when --format says fit, tcx or gpx (then every file in it
 * is read as that format).
 */
#ifndef HQ_DEVICEZIP_H
#define HQ_DEVICEZIP_H

#include <stddef.h>

#include "hq/err.h"
#include "hq/reader.h"

struct hq_ingest;
struct hq_input;

int hq_devicezip_sniff_zip(const unsigned char *p, size_t n);
int hq_devicezip_sniff_gz(const unsigned char *p, size_t n);
int hq_devicezip_read_zip(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);
int hq_devicezip_read_gz(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);

#endif
