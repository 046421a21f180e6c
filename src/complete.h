/* complete.h: the shell completions of agentview, written from the option
 * table (options.h): its options, the words of --format and --color, the
 * theme names agentview lists, files, and the command after "--". The
 * scripts are committed under src/completions/ (`make update-completions`
 * writes them; test_options checks they are what this gives). */
#ifndef AGENTVIEW_COMPLETE_H
#define AGENTVIEW_COMPLETE_H

#include "util.h"

enum shell { SHELL_BASH, SHELL_ZSH, SHELL_FISH };

/* Append the completion script of shell sh to out. */
void complete_script(struct buf *out, enum shell sh);

#endif
