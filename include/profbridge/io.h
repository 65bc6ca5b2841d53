/*
 * profbridge/io.h -- byte sources and sinks.
 *
 * A pb_source is where a reader takes bytes from: a file, stdin ("-") or a
 * caller's memory. gzip input is decompressed transparently (detected by its
 * magic bytes, never by the file name), so every plugin reads plain bytes and
 * error offsets refer to the decompressed stream.
 *
 * A pb_sink is where a writer puts bytes. A file sink writes into a temporary
 * file beside the target and renames it over the target only in
 * pb_sink_commit(), so a failed run never leaves a truncated output. Freeing
 * an uncommitted sink removes the temporary file.
 */
#ifndef PROFBRIDGE_IO_H
#define PROFBRIDGE_IO_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes a probe sees at most (pb_source_peek). */
#define PB_PEEK_MAX 4096

typedef struct pb_source pb_source;
typedef struct pb_sink pb_sink;

/*
 * Opens `path` for reading ("-" = standard input). On success *out owns the
 * source; free it with pb_source_free(). Returns 0, PB_EIO (err names the
 * file and the OS reason) or PB_ENOMEM.
 */
int pb_source_open_file(pb_source **out, const char *path, pb_error *err) PB_WARN_UNUSED;

/*
 * A source over `len` bytes at `data`, which the caller keeps alive until
 * pb_source_free(). `name` (may be NULL: "<memory>") is used in messages.
 * gzip data is decompressed as for files.
 */
int pb_source_open_memory(pb_source **out, const void *data, size_t len, const char *name,
                          pb_error *err) PB_WARN_UNUSED;

/* Frees the source; NULL is allowed. */
void pb_source_free(pb_source *src);

/* The name used in messages: the path, "<stdin>" or the memory name. Borrowed. */
const char *pb_source_name(const pb_source *src);

/* 1 if the underlying bytes are gzip-compressed. */
int pb_source_is_gzip(const pb_source *src);

/*
 * Shows the first min(PB_PEEK_MAX, size) bytes of the (decompressed) content
 * without consuming them. *head stays valid until the next call on `src`.
 * Returns 0, PB_EIO or PB_EFORMAT (a broken gzip stream).
 */
int pb_source_peek(pb_source *src, const uint8_t **head, size_t *len, pb_error *err) PB_WARN_UNUSED;

/*
 * Reads up to `n` bytes into buf; *got is 0 only at the end of the content.
 * Returns 0, PB_EIO or PB_EFORMAT (broken gzip stream).
 */
int pb_source_read(pb_source *src, void *buf, size_t n, size_t *got, pb_error *err) PB_WARN_UNUSED;

/*
 * Reads everything not yet consumed and hands it out as one block owned by
 * the source (valid until pb_source_free). Binary readers use this; streaming
 * readers use pb_source_read. Returns 0, PB_EIO, PB_EFORMAT or PB_ENOMEM.
 */
int pb_source_read_all(pb_source *src, const uint8_t **data, size_t *len, pb_error *err) PB_WARN_UNUSED;

/*
 * Opens a sink for `path` ("-" = standard output). With gzip != 0 the bytes
 * are gzip-compressed. Nothing appears at `path` before pb_sink_commit().
 */
int pb_sink_open_file(pb_sink **out, const char *path, int gzip, pb_error *err) PB_WARN_UNUSED;

/* A sink that collects the bytes in memory (see pb_sink_memory). */
int pb_sink_open_memory(pb_sink **out, pb_error *err) PB_WARN_UNUSED;

/* Appends bytes (buffered). Returns 0, PB_EIO or PB_ENOMEM. */
int pb_sink_write(pb_sink *s, const void *data, size_t n, pb_error *err) PB_WARN_UNUSED;

/* printf into the sink. Returns 0, PB_EIO or PB_ENOMEM. */
int pb_sink_printf(pb_sink *s, pb_error *err, const char *fmt, ...) PB_PRINTF(3, 4);

/* Bytes written so far (uncompressed). */
uint64_t pb_sink_offset(const pb_sink *s);

/*
 * Flushes and, for files, renames the temporary file over the target.
 * Returns 0 or PB_EIO; after a failure the target is untouched.
 */
int pb_sink_commit(pb_sink *s, pb_error *err) PB_WARN_UNUSED;

/* Frees the sink; an uncommitted file sink removes its temporary file. */
void pb_sink_free(pb_sink *s);

/* Memory sinks: the bytes written so far (borrowed). NULL for file sinks. */
const uint8_t *pb_sink_memory(const pb_sink *s, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
