/* pane_status.c: the status bar, drawn: what status.c makes of the model
 * and of the screen's state (follow, news, a note, the search, a replay,
 * the command). */
#include "ui.h"

#include <stdio.h>
#include <string.h>

#include "status.h"

void
pane_status_draw(struct ui *u)
{
	const struct rect *r = &u->lay.status;
	struct status_in in = {0};
	uint64_t done, total;
	char recerr[512];
	struct buf mode = {0}, pos = {0}, detail = {0};

	if (r->h <= 0 || r->w <= 0)
		return;
	in.following = ui_following(u);
	in.new_events = u->ts.follow ? 0 : u->ts.unseen;
	in.compact = u->lay.kind == LAYOUT_NARROW || u->lay.kind == LAYOUT_TINY;
	in.progress = -1;
	input_progress(u->in, &done, &total);
	if (!input_done(u->in) && total > 0 && done < total && !u->in->follow)
		in.progress = (int)(done * 100 / total);
	if (u->note[0] != '\0')
		in.note = u->note;
	if (u->opt.run != NULL) {
		in.command = true;
		in.command_running = !u->opt.run->reaped;
	}
	in.nav = pane_search_status(u);
	in.where = pane_search_where(u);
	/* A recording that stopped must not go unnoticed: it stays shown. */
	if (u->in->rec != NULL && u->in->rec->err != 0) {
		snprintf(recerr, sizeof recerr, "recording to %s failed: %s", u->in->rec->path,
			 strerror(u->in->rec->err));
		in.note = recerr;
	}
	if (pane_replay_describe(u, &mode, &pos, &detail)) {
		in.mode = mode.n > 0 ? mode.p : NULL;
		in.position = pos.p;
		in.detail = detail.p;
	}
	status_build(u->m, &in, r->w, &u->line);
	ui_draw_rline(u, r->y, r->x, &u->line, ROLE_NORMAL);
	buf_free(&mode);
	buf_free(&pos);
	buf_free(&detail);
}
