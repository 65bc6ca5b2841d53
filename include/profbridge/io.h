/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/io.h -- byte sources and sinks.
 *
 * A pb_source is where a reader takes bytes from: a file, stdin ("-") or a
 * caller's memory. gzip input is decompressed transparently (detected by its
 * magic bytes, never by the file name), so every plugin reads plain bytes and
 * error offsets refer to the decompressed stream.
 *
 * Every source is read through the one descriptor it opened: nothing is
 * opened twice by name, so FIFOs, pipes and /dev/stdin work like files. Its
 * bytes are bounded (pb_source_set_limits): an endless or inflating input
 * stops with PB_ELIMIT, not with the machine out of memory.
 *
 * A pb_sink is where a writer puts bytes. A file sink follows symbolic links
 * to the file they name; a regular (or new) file is written into a temporary
 * file beside it, fsync'ed and renamed over it only in pb_sink_commit(), so
 * a failed or killed run never leaves a truncated output, and an input that
 * is also the output stays intact until then. The old file's mode (and
 * owner, where allowed) is kept. A device, FIFO or socket is written in
 * place. Freeing an uncommitted sink removes the temporary file;
 * pb_sink_catch_signals() removes it on SIGINT, SIGTERM, SIGHUP and SIGXFSZ.
 * docs/architecture.md ("Outputs and inputs") has the rules and the reasons.
 *
 * Errors (error.h): every function here that takes a pb_error resets it on
 * entry; the open functions fail with PB_EINVAL (and a message) for a NULL
 * `out` or path, and set *out to NULL on every failure. The other functions
 * take a source or sink that must not be NULL (not checked).
 *
 * Thread safety: a source or a sink is used by one thread at a time;
 * distinct ones are independent. pb_sink_catch_signals and
 * pb_sink_remove_temps act on the whole process (see each).
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

/*
 * Input limits. The size limit is 4 GiB: ten times the biggest real
 * profiles we know of, yet reached before an endless stream (/dev/zero, a
 * runaway pipe) takes a machine's memory. A gzip input may inflate at most
 * 250:1 once more than 64 MiB came out of it: real profiles compress 5:1 to
 * about 110:1 (measured on the LLVM and GraalVM test profiles), deflate
 * cannot exceed about 1032:1, and a gzip bomb sits near that ceiling.
 * Below the floor any ratio is allowed (small, very regular files are
 * harmless).
 */
#define PB_DEFAULT_MAX_INPUT_SIZE ((uint64_t)4 << 30)
#define PB_DEFAULT_MAX_INFLATION 250
#define PB_INFLATION_FLOOR ((uint64_t)64 << 20)
#define PB_NO_LIMIT UINT64_MAX

typedef struct pb_source pb_source;
typedef struct pb_sink pb_sink;

/*
 * Opens `path` for reading ("-" = standard input). On success *out owns the
 * source; free it with pb_source_free(). Returns 0, PB_EINVAL (NULL out or
 * path), PB_EIO (err names the file and the OS reason), PB_EFORMAT (a
 * broken gzip header) or PB_ENOMEM.
 */
int pb_source_open_file(pb_source **out, const char *path, pb_error *err) PB_WARN_UNUSED;

/*
 * A source over `len` bytes at `data`, which the caller keeps alive until
 * pb_source_free(). `name` (may be NULL: "<memory>") is used in messages.
 * gzip data is decompressed as for files. data may be NULL when len is 0.
 * Returns 0, PB_EINVAL (NULL out, or NULL data with len > 0) or PB_ENOMEM.
 */
int pb_source_open_memory(pb_source **out, const void *data, size_t len, const char *name,
                          pb_error *err) PB_WARN_UNUSED;

/*
 * Sets the source's limits: `max_size` bytes of (decompressed) content,
 * gzip inflating at most `max_inflation`:1 past PB_INFLATION_FLOOR. 0 keeps
 * a limit as it is (a new source has the defaults), PB_NO_LIMIT removes it.
 * Reading past a limit fails with PB_ELIMIT, naming the limit and the offset.
 * Cannot fail.
 */
void pb_source_set_limits(pb_source *src, uint64_t max_size, uint64_t max_inflation);

/*
 * Progress of reading a source, for a caller that shows it (the CLI's
 * --progress). `done` counts the bytes taken from the file, pipe or memory so
 * far (compressed bytes for gzip input, so that it meets `total`); `total` is
 * the size of a regular file or of the memory (past the descriptor's offset
 * at open), 0 when unknown (a pipe, a terminal).
 */
typedef void (*pb_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* How many bytes the source reads between two calls of its pb_progress_fn. */
#define PB_PROGRESS_STEP ((uint64_t)1 << 20)

/*
 * Calls fn(ctx, done, total) as the source is read: each time at least
 * PB_PROGRESS_STEP bytes more were read than at the previous call, and once
 * at the end of the input (done == total when the total is known; a mapped
 * file reports its whole size when it is mapped). The calls come from the
 * reading thread, inside pb_source_read and its kin; fn must not use `src`.
 * fn == NULL stops the calls. `ctx` stays the caller's, and must outlive the
 * reading (or the next pb_source_set_progress).
 */
void pb_source_set_progress(pb_source *src, pb_progress_fn fn, void *ctx);

/*
 * Like pb_source_read_all, but a regular, uncompressed file is mapped
 * (read-only) instead of copied when nothing but the peek was consumed.
 * The bytes stay valid until pb_source_free. Returns what
 * pb_source_read_all returns (0, PB_EIO, PB_EFORMAT, PB_ELIMIT, PB_ENOMEM).
 */
int pb_source_map(pb_source *src, const uint8_t **data, size_t *len, pb_error *err) PB_WARN_UNUSED;

/*
 * Says that bytes [0, upto) of what pb_source_map gave will not be needed
 * soon: a mapped file's whole pages there leave the process's resident
 * memory (they stay valid: touched again, they are read again from the
 * file). A copied input stays as it is. Never fails. A reader that walks a
 * big file once calls it behind its cursor, so the file's pages and the
 * model built from them are not all resident at once.
 */
void pb_source_map_done_before(pb_source *src, size_t upto);

/*
 * The same for bytes [from, to) of what pb_source_map gave (the whole
 * pages inside them): for a section read once, in order, that lies after
 * another still being read (a raw profile's counters, next to its data
 * records). Never fails.
 */
void pb_source_map_done_range(pb_source *src, size_t from, size_t to);

/*
 * Goes back to the first byte, to read the input again: a memory source, or
 * a regular file through the descriptor it has open (its name is not opened
 * again). Returns 0, or PB_EUNSUPPORTED for a stream (pipe, FIFO, terminal),
 * whose bytes are gone (the source is then as it was), or what restarting
 * the reading returns (PB_EIO, PB_ENOMEM; the source is then unusable).
 */
int pb_source_rewind(pb_source *src, pb_error *err) PB_WARN_UNUSED;

/* Frees the source; NULL is allowed. */
void pb_source_free(pb_source *src);

/* The name used in messages: the path, "<stdin>" or the memory name.
 * Borrowed until pb_source_free. */
const char *pb_source_name(const pb_source *src);

/* 1 if the underlying bytes are gzip-compressed. */
int pb_source_is_gzip(const pb_source *src);

/*
 * Shows the first min(PB_PEEK_MAX, size) bytes of the (decompressed) content
 * without consuming them. *head stays valid until the next call on `src`.
 * Returns 0, PB_EIO, PB_EFORMAT (a broken gzip stream) or PB_ELIMIT.
 */
int pb_source_peek(pb_source *src, const uint8_t **head, size_t *len, pb_error *err) PB_WARN_UNUSED;

/*
 * Reads up to `n` bytes into buf; *got is 0 only at the end of the content.
 * Returns 0, PB_EIO, PB_EFORMAT (broken gzip stream) or PB_ELIMIT (a limit
 * of pb_source_set_limits passed). After a failure the source's position is
 * unspecified: free it (or pb_source_rewind a file).
 */
int pb_source_read(pb_source *src, void *buf, size_t n, size_t *got, pb_error *err) PB_WARN_UNUSED;

/*
 * Reads everything not yet consumed and hands it out as one block owned by
 * the source (valid until pb_source_free). Binary readers use this; streaming
 * readers use pb_source_read. Returns 0, PB_EIO, PB_EFORMAT, PB_ELIMIT or
 * PB_ENOMEM.
 */
int pb_source_read_all(pb_source *src, const uint8_t **data, size_t *len, pb_error *err) PB_WARN_UNUSED;

/*
 * Opens a sink for `path` ("-" = standard output). With gzip != 0 the bytes
 * are gzip-compressed. A regular or new file changes only in
 * pb_sink_commit(); a device, FIFO or socket is opened and written in place.
 * Returns 0, PB_EINVAL (NULL out or path), PB_EIO (err names `path`: a
 * directory, a missing directory, no permission) or PB_ENOMEM.
 */
int pb_sink_open_file(pb_sink **out, const char *path, int gzip, pb_error *err) PB_WARN_UNUSED;

/*
 * Checks, creating nothing, that pb_sink_open_file(path) could succeed: the
 * output is not a directory, each symbolic link to it may be followed (the
 * fs.protected_symlinks rule, applied whatever the kernel's setting), an
 * existing output could be opened for writing, and its directory exists and
 * is writable. Commands call it before reading
 * their inputs, so a long merge does not fail at its end. Returns 0,
 * PB_EINVAL (path NULL) or PB_EIO.
 */
int pb_sink_check(const char *path, pb_error *err) PB_WARN_UNUSED;

/*
 * Before any input is read: whether writing `path` would destroy one of the
 * `n` inputs (two names are one file when they have the same device and
 * inode, through any link; an input "-" is standard input; NULL entries are
 * skipped). `path` NULL, "-" or not existing: nothing to check.
 * With `report` nonzero, `path` is a report (a listing, dump, SVG, HTML or
 * JSON summary), never meant to replace a profile: it is refused when it is
 * any input. With `report` zero it is a profile: a regular file is written
 * through a temporary file and renamed, so an input that is the output stays
 * whole until then (`merge a.profdata -o a.profdata` is allowed, as
 * llvm-profdata allows it); only an output written in place (a device, a
 * FIFO) that is also an input is refused.
 * Returns 0, or PB_EINVAL (inputs NULL with n > 0, or the output is an
 * input: err names `path` as its source and the input in its message).
 * Nothing is created or changed.
 */
int pb_sink_check_inputs(const char *path, const char *const *inputs, size_t n, int report,
                         pb_error *err) PB_WARN_UNUSED;

/*
 * Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGXFSZ (those whose
 * action is the default) that remove the temporary files of open sinks and
 * then let the signal act as it would have. Programs with their own handlers
 * call pb_sink_remove_temps() from them instead. Returns 0 or -1 (errno;
 * no pb_error: it is process-wide). Call it once, from one thread, before
 * other threads start.
 */
int pb_sink_catch_signals(void);

/* Removes the temporary files of every open file sink. Async-signal-safe. */
void pb_sink_remove_temps(void);

/* A sink that collects the bytes in memory (see pb_sink_memory). Returns 0,
 * PB_EINVAL (out NULL) or PB_ENOMEM. */
int pb_sink_open_memory(pb_sink **out, pb_error *err) PB_WARN_UNUSED;

/* Appends bytes (buffered). Returns 0, PB_EIO or PB_ENOMEM. A sink that
 * failed once fails every later write and its commit (PB_EIO): a caller may
 * check only the commit. */
int pb_sink_write(pb_sink *s, const void *data, size_t n, pb_error *err) PB_WARN_UNUSED;

/* printf into the sink. Returns 0, PB_EINVAL (a bad format), PB_EIO or PB_ENOMEM. */
int pb_sink_printf(pb_sink *s, pb_error *err, const char *fmt, ...) PB_PRINTF(3, 4);

/* Bytes written so far (uncompressed). */
uint64_t pb_sink_offset(const pb_sink *s);

/*
 * Flushes and, for files, renames the temporary file over the target.
 * Returns 0 or PB_EIO; after a failure the target is untouched.
 */
int pb_sink_commit(pb_sink *s, pb_error *err) PB_WARN_UNUSED;

/* Frees the sink; an uncommitted file sink removes its temporary file (the
 * target stays as it was). NULL is allowed. */
void pb_sink_free(pb_sink *s);

/* Memory sinks: the bytes written so far (borrowed until the next write or
 * pb_sink_free); never NULL for a memory sink. NULL for file sinks (*len
 * untouched). len may be NULL. */
const uint8_t *pb_sink_memory(const pb_sink *s, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
