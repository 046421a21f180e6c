/* fleet_take.c: one session of the list taken from its file, for the
 * list's Y, o and e. */
#include "fleet_take.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "model.h"
#include "print.h"
#include "remote.h"
#include "source.h"

/* The session that starts at offset of the file at path, as agent
 * (--agent's, or -1) reads it: the file mapped in *file, and the session's
 * lines (to the next session's start: a model reads them to tell) made
 * the source *src over it. False with the reason in err. */
static bool
session_open(const char *path, uint64_t offset, int agent, struct source *file, struct source *src,
	     struct buf *err)
{
	struct model *m;
	struct line ln;
	size_t end;
	unsigned si;

	if (source_open_path(file, path, false, err) != 0)
		return false;
	if (offset >= file->size) {
		buf_addf(err, "the session is no longer in its file");
		source_close(file);
		return false;
	}
	m = model_new();
	m->agent = agent;
	m->ahead_min = SIZE_MAX;
	file->scan = (size_t)offset;
	si = model_add_source(m, file);
	end = file->size;
	while (source_next_line(file, &ln)) {
		model_add_line(m, si, &ln, TIME_NONE);
		if (m->nses > 1) {
			end = (size_t)ln.off;
			break;
		}
	}
	model_free(m);
	source_open_over(src, path, file->data + offset, end - (size_t)offset);
	return true;
}

/* A model of the session of src, every line read, ended unless open (it
 * still runs or waits); with p's format, its log to out as it is read. */
static struct model *
session_model(struct source *src, int agent, bool open, const struct format *fmt, FILE *out)
{
	struct model *m = model_new();
	struct printer *p = NULL;
	struct line ln;
	unsigned si;

	m->agent = agent;
	m->ahead_min = SIZE_MAX;
	si = model_add_source(m, src);
	if (fmt != NULL)
		p = printer_new(m, fmt, out);
	while (source_next_line(src, &ln)) {
		uint32_t ev = model_add_line(m, si, &ln, TIME_NONE);

		if (p != NULL)
			printer_line(p, src, &ln, ev);
	}
	if (!open)
		model_end_source(m, si);
	if (p != NULL) {
		printer_finish(p);
		printer_free(p);
	}
	return m;
}

bool
fleet_session_text(const char *path, uint64_t offset, int agent, bool open, struct buf *out,
		   struct buf *err)
{
	struct source file, src;
	char *text = NULL;
	size_t n = 0;
	FILE *fp;

	if (!session_open(path, offset, agent, &file, &src, err))
		return false;
	fp = open_memstream(&text, &n);
	if (fp == NULL)
		die("open_memstream: %s", strerror(errno));
	model_free(session_model(&src, agent, open, &format_text, fp));
	fclose(fp);
	buf_add(out, text, n);
	free(text);
	source_close(&src);
	source_close(&file);
	return true;
}

bool
fleet_session_resume(const char *path, uint64_t offset, int agent, struct buf *out, struct buf *why)
{
	struct source file, src;
	struct model *m;
	bool ok;

	if (!session_open(path, offset, agent, &file, &src, why))
		return false;
	m = session_model(&src, agent, true, NULL, NULL);
	/* A remote session's: over ssh, on its host. */
	ok = m->nses > 0
		     ? copy_resume_on(m, 0, remote_host_of(path), remote_port_of(path), out, why)
		     : false;
	if (m->nses == 0)
		buf_adds(why, "no session there any more");
	model_free(m);
	source_close(&src);
	source_close(&file);
	return ok;
}

bool
fleet_session_cwd(const char *path, uint64_t offset, int agent, struct buf *out, struct buf *why)
{
	struct source file, src;
	struct buf dir = {0};
	struct model *m;
	bool ok = false;

	if (!session_open(path, offset, agent, &file, &src, why))
		return false;
	m = session_model(&src, agent, true, NULL, NULL);
	if (m->nses == 0 || !model_session_cwd(m, 0, &dir) || dir.n == 0)
		buf_adds(why, "the session does not say its folder");
	else if (dir.p[0] != '/' || memchr(dir.p, '\0', dir.n) != NULL)
		buf_adds(why, "the session's folder is not an absolute path: not opened");
	else
		ok = true;
	if (ok)
		buf_add(out, dir.p, dir.n);
	buf_free(&dir);
	model_free(m);
	source_close(&src);
	source_close(&file);
	return ok;
}
