# agentview: a terminal viewer for Cursor Agent CLI stream-json sessions.
#
#   make            build src/agentview (first it says which Debian packages
#                   are missing, if any: make run and make test install them)
#   make run        install what is missing, build, open a bundled recording
#   make test       install what is missing, build, run every test
#   make test-agents  the real Claude Code, Gemini CLI, Codex and Copilot
#                   CLIs (from npm, cached in tests/agents/cache/) against a
#                   model server on 127.0.0.1, and their session stores:
#                   tests/agents/run.sh
#   make asan       build with AddressSanitizer and UBSan into src/asan/
#                   (make test runs the unit and corpus tests with it too)
#   make bench      generate big recordings, measure speed and memory (not a test)
#   make fuzz       run each libFuzzer harness of tests/fuzz/ for FUZZ_TIME s
#   make fuzz-cov   source coverage of the corpora the fuzzers found
#   make install    PREFIX=/usr/local DESTDIR=: the binary, the man page, the
#                   themes and the bash, zsh and fish completions
#   make clean

VERSION   = 0.1.0
PREFIX   ?= /usr/local
BINDIR    = $(PREFIX)/bin
MANDIR    = $(PREFIX)/share/man/man1
DATADIR   = $(PREFIX)/share/agentview
# Where bash-completion, zsh and fish look for completions under PREFIX.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

CC       ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wwrite-strings -Wpointer-arith -Wundef -Wvla
# CI and `make test` build with WERROR=-Werror.
WERROR   ?=
# pkg-config's feature macros are already set, at a newer level, below.
CURSES_CFLAGS := $(filter-out -D_XOPEN_SOURCE% -D_DEFAULT_SOURCE,$(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null))
CURSES_LIBS   := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
CMOCKA_LIBS   := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
# md4c, the Markdown parser (Debian's libmd4c-dev ships md4c.pc, and only a
# shared library); everything that links the core links it.
MD4C_CFLAGS := $(shell $(PKG_CONFIG) --cflags md4c 2>/dev/null)
MD4C_LIBS   := $(shell $(PKG_CONFIG) --libs md4c 2>/dev/null || echo -lmd4c)
# SQLite (Debian's libsqlite3-dev), read-only through a VFS that never
# creates or writes a file: Cursor's chat store, Codex's thread index.
SQLITE_LIBS := $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null || echo -lsqlite3)
# What everything that links the core links.
CORE_LIBS   = $(MD4C_LIBS) $(SQLITE_LIBS)
AV_CPPFLAGS = -std=c11 -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=700 $(MD4C_CFLAGS) \
              -DAGENTVIEW_VERSION='"$(VERSION)"' -DAGENTVIEW_DATADIR='"$(DATADIR)"'
ALL_CFLAGS = $(AV_CPPFLAGS) $(WARN) $(WERROR) $(CFLAGS) $(CPPFLAGS) -pthread

# The layers, bottom up (src/README.md says what each file does). A file
# includes headers of its own layer and of those below it, never above
# (`make check-layers`); no two files call each other, directly or
# through others (`make check-circles`). None of these includes curses.
# Reading: bytes, lines, JSON, text (and a reply's Markdown, which the
# screen's model and the HTML page share), signals, watched folders.
READING = util source json json_get json_str text redact markdown markdown_layout \
          markdown_html ahead sig watch store rodb
# The model: sessions, items and calls built from lines by each agent's
# adapter, and the words people read about them; the sources read into it
# (a recording kept as they are read, the COMMAND run); the session list's.
# Each agent's adapter is a file of its own: agent_*.c.
AGENTS  = $(sort $(patsubst src/%.c,%,$(wildcard src/agent_*.c)))
MODEL   = model model_build model_line model_query model_order facts agent $(AGENTS) tool words record \
          input runner remote remote_rows remote_run fleet fleet_read fleet_gap fleet_words
# The screen's model, without curses, which the outputs use too (the HTML
# page draws a call's detail and the theme's colours as the screen does):
# transcript blocks, the status bar, layout, keys, themes, a call's
# detail, search, jumps, replay, the session list's rows.
VIEW    = render status view keys theme search diff detail detail_kind jump \
          replay listview
# Outputs without a screen: the logs, the JSON summary, the tmux line, the
# command line; what y copies and what e and o open; two runs compared;
# the kept sessions, notifications, the session list printed.
OUTPUT  = print print_log print_html print_json print_raw summary statusline options copy open \
          compare keep notify fleet_print fleet_take
CORE = $(READING) $(MODEL) $(VIEW) $(OUTPUT)
# Screen layer: the only files that may include <curses.h>. The loop, the
# layer stack and what the panes share; then the panes.
UI   = ui ui_cell ui_theme ui_jump ui_mouse pane_replay ui_take \
       pane_main pane_transcript pane_timeline pane_status pane_detail pane_search pane_help pane_list
CORE_OBJ = $(CORE:%=src/%.o)
UI_OBJ   = $(UI:%=src/%.o)

TESTS = $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
TEST_BIN = $(TESTS:%=tests/%)
FUZZ  = fuzz_json fuzz_model fuzz_text fuzz_screen fuzz_cursor fuzz_claude fuzz_gemini \
        fuzz_codex fuzz_markdown fuzz_codex_rollout fuzz_gemini_chat fuzz_copilot \
        fuzz_claude_store fuzz_cursor_transcript fuzz_remote
# fuzz_screen also builds the screen's cells (src/ui_cell.c) over the
# curses stub of tests/fuzz/stub/ (the only harness of a screen file).
FUZZ_EXTRA_fuzz_screen = -Itests/fuzz/stub src/ui_cell.c tests/fuzz/stub/curses.c
FUZZ_EXTRA_DEPS = src/ui_cell.c tests/fuzz/stub/curses.c tests/fuzz/stub/curses.h
# fuzz_model with every line read by one adapter (tests/fuzz/fuzz_AGENT.c),
# seeded with that agent's recordings.
FUZZ_AGENTS = fuzz_cursor fuzz_claude fuzz_gemini fuzz_codex fuzz_codex_rollout fuzz_gemini_chat \
	fuzz_copilot fuzz_claude_store fuzz_cursor_transcript
FUZZ_AGENT_SEEDS_fuzz_cursor = $(filter-out recordings/claude-% recordings/gemini-% \
	recordings/codex-% recordings/copilot-%,$(wildcard recordings/*.ndjson)) \
	$(wildcard ../shared/corpus/*.ndjson)
FUZZ_AGENT_SEEDS_fuzz_claude = $(wildcard recordings/claude-*.ndjson)
FUZZ_AGENT_SEEDS_fuzz_gemini = $(wildcard recordings/gemini-*.ndjson)
FUZZ_AGENT_SEEDS_fuzz_codex  = $(wildcard recordings/codex-*.ndjson)
# The agents' own stores: their session files at the end of each run
# (tests/stores/: the snapshots of one run share a name).
FUZZ_AGENT_SEEDS_fuzz_codex_rollout = $(wildcard tests/stores/codex/*/done/sessions/*/*/*/rollout-*.jsonl)
FUZZ_AGENT_SEEDS_fuzz_gemini_chat = $(wildcard tests/stores/gemini/*/done/.gemini/tmp/*/chats/*.jsonl)
FUZZ_AGENT_SEEDS_fuzz_copilot = $(wildcard recordings/copilot-*.ndjson) \
	$(wildcard tests/stores/copilot/*/*/session-state/*/events.jsonl)
# What a remote sends: its own seeds alone (tests/fuzz/seeds/fuzz_remote/).
FUZZ_AGENT_SEEDS_fuzz_remote = $(wildcard tests/fuzz/seeds/fuzz_remote/*)
FUZZ_AGENT_SEEDS_fuzz_claude_store = $(wildcard tests/stores/claude/*/done/projects/*/*.jsonl)
FUZZ_AGENT_SEEDS_fuzz_cursor_transcript = \
	$(wildcard tests/stores/cursor/*/projects/*/agent-transcripts/*/*.jsonl) \
	$(wildcard tests/stores/cursor/*/projects/*/agent-transcripts/*.jsonl)

all: src/agentview

src/agentview: src/main.o src/libcore.a $(UI_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ src/main.o $(UI_OBJ) src/libcore.a $(CURSES_LIBS) \
		$(CORE_LIBS)

src/libcore.a: $(CORE_OBJ)
	rm -f $@
	$(AR) rcs $@ $(CORE_OBJ)

$(UI_OBJ) src/main.o: ALL_CFLAGS += $(CURSES_CFLAGS)
src/%.o: src/%.c src/*.h | deps-check
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Every unit test links the shared fixture (a model read from text) too.
TEST_FIX  = tests/fixture.c
TEST_DEPS = $(TEST_FIX) tests/fixture.h tests/testutil.h
tests/test_%: tests/test_%.c src/libcore.a $(TEST_DEPS)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(TEST_FIX) src/libcore.a $(CMOCKA_LIBS) $(CORE_LIBS)

# The made-up agent of the test that an agent is one file.
tests/test_agent_loom $(ASAN_DIR)/test_agent_loom: tests/agent_loom.c

# The developer's guide names every source file.
check-guide:
	@bad=; for f in src/*.c; do grep -qF "\`$${f#src/}\`" src/README.md || \
		bad="$$bad $${f#src/}"; done; \
	if [ -n "$$bad" ]; then echo "src/README.md does not name:$$bad"; exit 1; fi

# The C is as clang-format (.clang-format) writes it.
FORMAT_FILES = $(wildcard src/*.c src/*.h tests/*.c tests/*.h tests/fuzz/*.c tests/fuzz/*.h)
format-check:
	@bad=; for f in $(FORMAT_FILES); do \
		clang-format "$$f" | cmp -s "$$f" - || bad="$$bad $$f"; done; \
	if [ -n "$$bad" ]; then echo "not as clang-format writes them:$$bad"; \
		echo "(make format rewrites them)"; exit 1; fi
format:
	@clang-format -i $(FORMAT_FILES)

# The layers hold: includes only of a file's own layer and those below,
# curses only in the screen's (glyph.h is a header of its own).
check-layers:
	@sh tests/check_layers.sh "reading=$(READING) glyph" "model=$(MODEL)" "view=$(VIEW)" \
		"output=$(OUTPUT)" "screen=$(UI)" "program=main"

# No two files use each other, directly or through others (from the
# objects' symbols), but the circles still to undo (issue 21: an agent's
# knowledge in its adapter), each written as
# check-circles finds it: it fails on any other circle, and on one of
# these once it is gone, so that the list only shrinks.
CIRCLES_KNOWN = agent,agent_claude,agent_claude_store,agent_codex,agent_codex_rollout,agent_copilot,agent_cursor,agent_cursor_transcript,agent_gemini,agent_gemini_chat,model,model_build,model_query,tool
check-circles: $(CORE_OBJ) $(UI_OBJ) src/main.o
	@sh tests/check_circles.sh '$(CIRCLES_KNOWN)' $^

# clang's -Wcomma and -Wcast-qual over every src/*.c, with the build's
# flags and -Werror (-fsyntax-only: a few seconds). CLANG_LATER are the
# files whose warnings their owners still fix (issue 21: open.c, text.c's
# Markdown escaping): checked without these two, and the check fails once
# one has none left, so that the list only shrinks.
CLANG       ?= clang
CLANG_WARN   = -Wcomma -Wcast-qual
CLANG_LATER  = src/open.c src/text.c
CLANG_FLAGS  = -fsyntax-only $(AV_CPPFLAGS) $(CURSES_CFLAGS) $(WARN) -Werror
check-clang: | deps-check
	@bad=0; for f in $(filter-out $(CLANG_LATER),$(wildcard src/*.c)); do \
		$(CLANG) $(CLANG_FLAGS) $(CLANG_WARN) "$$f" || bad=1; done; \
	for f in $(CLANG_LATER); do \
		$(CLANG) $(CLANG_FLAGS) $(CLANG_WARN:-W%=-Wno-%) "$$f" || bad=1; \
		if $(CLANG) $(CLANG_FLAGS) $(CLANG_WARN) "$$f" 2>/dev/null; then bad=1; \
			echo "$$f: no $(CLANG_WARN) warning left: take it off CLANG_LATER"; fi; \
	done; exit $$bad

# Before anything is compiled: the Debian packages the build needs that
# are missing, said with how to get them (make run and make test install
# them first). Cheap enough for every make: one dpkg-query.
deps-check:
	@CC='$(CC)' PKG_CONFIG='$(PKG_CONFIG)' sh .ci/deps --check build
deps-build:
	@sh .ci/deps build
deps-test:
	@sh .ci/deps test
deps-bench:
	@sh .ci/deps bench
deps-agents:
	@sh .ci/deps agents

# The generator of big recordings for `make bench`, and the timings of keys,
# searches and replays on them without a terminal.
BENCH_BIN = tests/gen_bench tests/gen_stores tests/bench_view tests/bench_replay tests/bench_fleet tests/pace \
            tests/bench_markdown
tests/gen_bench tests/gen_stores tests/pace: %: %.c
	$(CC) $(ALL_CFLAGS) -o $@ $<
tests/bench_%: tests/bench_%.c tests/bench_reply.h src/libcore.a
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< src/libcore.a $(CORE_LIBS)

bench: deps-bench
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	@sh tests/bench.sh
deps-fuzz:
	@sh .ci/deps fuzz

# make run and make test build on every core (nproc), unless they were
# given -j themselves (then the jobserver they got is used).
NPROC    := $(shell nproc 2>/dev/null || echo 1)
PARALLEL  = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

run: deps-build
	@$(MAKE) --no-print-directory $(PARALLEL) all
	./src/agentview recordings/demo.ndjson

unit: $(TEST_BIN)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; ./$$t; done

# The same binaries in a strange environment (tmux, NO_COLOR, missing
# folders, every signal ignored): each sets what it depends on.
unit-env: $(TEST_BIN)
	@sh tests/unit_env.sh $(TEST_BIN)

# Everything CI runs: the unit tests as built, under ASan+UBSan and under
# valgrind, the threaded ones under TSan; the fuzz harnesses' checks on the seeds; the corpus with the
# normal binary (and valgrind) and with the ASan one; the HTML page of every
# recording, parsed and in headless Chromium; hostile input (sizes,
# bytes, escape sequences, peak memory); faults around the input and the
# recording; the session list without a screen (with the normal binary and
# the ASan one); the check of missing packages before the first build; what
# `make install` lays out, and its completions in bash, zsh and fish.
# Everything is built first, in parallel; the unit tiers then run on every
# core (valgrind's, the longest, first), the shell tests one at a time but
# for the two run_remote runs, which mostly wait on their sshds: at once
# (tests/pair.sh).
test: deps-test
	@$(MAKE) --no-print-directory $(PARALLEL) WERROR=-Werror all check-layers check-circles check-clang check-guide format-check \
		$(TEST_BIN) \
		asan $(TSAN_TESTS) $(FUZZ:%=$(ASAN_DIR)/%)
	@$(MAKE) --no-print-directory $(PARALLEL) WERROR=-Werror unit-valgrind unit unit-env unit-asan unit-tsan fuzz-seeds
	@sh tests/run_corpus.sh
	@$(ASAN_ENV) AGENTVIEW=$(ASAN_DIR)/agentview VALGRIND=no sh tests/run_corpus.sh
	@sh tests/run_agents_offline.sh
	@sh tests/run_html.sh
	@sh tests/run_redact.sh
	@sh tests/run_hostile.sh
	@sh tests/run_faults.sh
	@sh tests/run_fleet.sh
	@$(ASAN_ENV) AGENTVIEW=$(ASAN_DIR)/agentview sh tests/run_fleet.sh
	@sh tests/run_screen.sh
	@sh tests/run_take.sh
	@sh tests/run_list.sh
	@$(ASAN_ENV) AGENTVIEW=$(ASAN_DIR)/agentview sh tests/run_list.sh
	@sh tests/pair.sh 'sh tests/run_remote.sh' \
		'$(ASAN_ENV) AGENTVIEW=$(ASAN_DIR)/agentview sh tests/run_remote.sh'
	@sh tests/run_runner.sh
	@sh tests/run_replay.sh
	@sh tests/run_deps.sh
	@sh tests/run_install.sh
	@sh tests/run_completion.sh

# The real-CLI tier (issues 14, 22, 23): installs the pinned CLIs and
# ccusage with npm (Node.js 20 or newer), runs each scenario of
# tests/agents/scenarios.json with each against tests/agents/server.py on
# loopback and checks their streams, then runs each with its own session
# store, headless and in tmux, and checks the stores.
test-agents: deps-agents
	@$(MAKE) --no-print-directory WERROR=-Werror all
	@bash tests/agents/run.sh

# ASan + UBSan build in its own directory, so that it never clobbers the
# normal one: src/asan/agentview and src/asan/test_*.
ASAN_DIR   = src/asan
ASAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=all
ASAN_OBJ   = $(CORE:%=$(ASAN_DIR)/%.o)
ASAN_TESTS = $(TESTS:%=$(ASAN_DIR)/%)
ASAN_ENV   = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
             UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Memcheck: any error, or any leak that is not memory still reachable.
VALGRIND   = valgrind -q --error-exitcode=99 --leak-check=full \
             --show-leak-kinds=definite,indirect,possible \
             --errors-for-leak-kinds=definite,indirect,possible

$(UI:%=$(ASAN_DIR)/%.o) $(ASAN_DIR)/main.o: ALL_CFLAGS += $(CURSES_CFLAGS)
$(ASAN_DIR)/%.o: src/%.c src/*.h | deps-check
	@mkdir -p $(ASAN_DIR)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) -c -o $@ $<

$(ASAN_DIR)/libcore.a: $(ASAN_OBJ)
	rm -f $@
	$(AR) rcs $@ $(ASAN_OBJ)

$(ASAN_DIR)/agentview: $(ASAN_DIR)/main.o $(ASAN_DIR)/libcore.a $(UI:%=$(ASAN_DIR)/%.o)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $(ASAN_DIR)/main.o \
		$(UI:%=$(ASAN_DIR)/%.o) $(ASAN_DIR)/libcore.a $(CURSES_LIBS) $(CORE_LIBS)

$(ASAN_DIR)/test_%: tests/test_%.c $(ASAN_DIR)/libcore.a $(TEST_DEPS)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) -Isrc -o $@ $< $(TEST_FIX) $(ASAN_DIR)/libcore.a \
		$(CMOCKA_LIBS) $(CORE_LIBS)

asan: $(ASAN_DIR)/agentview $(ASAN_TESTS)

# The fuzz harnesses without libFuzzer (tests/fuzz/driver.c), under ASan
# and UBSan: their checks on every seed, and they keep building.
$(ASAN_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c tests/fuzz/fuzz.h $(ASAN_DIR)/libcore.a
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) -Isrc -o $@ $< tests/fuzz/driver.c \
		$(FUZZ_EXTRA_fuzz_$*) $(ASAN_DIR)/libcore.a $(CORE_LIBS)
$(ASAN_DIR)/fuzz_screen: $(FUZZ_EXTRA_DEPS)
# The unit test and the harness of the Markdown module share their checks.
tests/test_markdown $(ASAN_DIR)/test_markdown $(ASAN_DIR)/fuzz_markdown \
	tests/fuzz/build/fuzz_markdown: tests/markdown_check.h
$(FUZZ_AGENTS:%=$(ASAN_DIR)/%) $(FUZZ_AGENTS:%=tests/fuzz/build/%): tests/fuzz/fuzz_model.c
# Each harness runs on the recordings (an adapter's: its agent's), and on
# its own seeds, when it has some (tests/fuzz/seeds/HARNESS/).
fuzz-seeds: $(FUZZ:%=$(ASAN_DIR)/%)
	@set -e; seeds="recordings/*.ndjson recordings/*.txt $(wildcard ../shared/corpus/*.ndjson)"; \
	$(foreach h,$(FUZZ),$(ASAN_ENV) $(ASAN_DIR)/$(h) $(or $(FUZZ_AGENT_SEEDS_$(h)),$$seeds) \
		$(wildcard tests/fuzz/seeds/$(h)/*);) true

# The unit tests under ASan and UBSan, then under valgrind's memcheck.
unit-asan: $(ASAN_TESTS)
	@set -e; for t in $(ASAN_TESTS); do echo "== asan $$t"; \
		out=$$($(ASAN_ENV) ./$$t 2>&1) || { echo "$$out"; exit 1; }; done
unit-valgrind: $(TEST_BIN)
	@set -e; for t in $(TEST_BIN); do echo "== valgrind $$t"; \
		out=$$($(VALGRIND) ./$$t 2>&1) || { echo "$$out"; exit 1; }; done

# The tests of the code that runs on two threads (the parser thread of
# src/ahead.c, the search helper of src/search.c) under ThreadSanitizer.
TSAN_DIR   = src/tsan
TSAN_FLAGS = -O1 -g -fsanitize=thread
TSAN_TESTS = $(TSAN_DIR)/test_ahead $(TSAN_DIR)/test_search
$(TSAN_DIR)/%.o: src/%.c src/*.h | deps-check
	@mkdir -p $(TSAN_DIR)
	$(CC) $(ALL_CFLAGS) $(TSAN_FLAGS) -c -o $@ $<
$(TSAN_DIR)/libcore.a: $(CORE:%=$(TSAN_DIR)/%.o)
	rm -f $@
	$(AR) rcs $@ $^
$(TSAN_DIR)/test_%: tests/test_%.c $(TSAN_DIR)/libcore.a $(TEST_DEPS)
	$(CC) $(ALL_CFLAGS) $(TSAN_FLAGS) -Isrc -o $@ $< $(TEST_FIX) $(TSAN_DIR)/libcore.a \
		$(CMOCKA_LIBS) $(CORE_LIBS)
# A kernel with more address randomization than this TSan knows cannot run
# it at all ("unexpected memory mapping"): said, and skipped.
unit-tsan: $(TSAN_TESTS)
	@set -e; for t in $(TSAN_TESTS); do echo "== tsan $$t"; \
		out=$$(TSAN_OPTIONS=halt_on_error=1 ./$$t 2>&1) && continue; \
		case $$out in *"unexpected memory mapping"*) \
			echo "tsan: cannot run on this kernel (address randomization): skipped"; \
			exit 0;; esac; echo "$$out"; exit 1; done

# libFuzzer harnesses: clang, the core built with ASan and UBSan into
# tests/fuzz/build/, seeds from recordings/ and ../shared/corpus/; what the
# fuzzers find stays in tests/fuzz/corpus/ (git-ignored), crashes in
# tests/fuzz/crashes/.
FUZZ_CC    = clang
FUZZ_TIME ?= 60
FUZZ_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
             -fno-sanitize-recover=all
FUZZ_OBJ   = $(CORE:%=tests/fuzz/build/%.o)
FUZZ_BIN   = $(FUZZ:%=tests/fuzz/build/%)
FUZZ_SEEDS = recordings $(wildcard ../shared/corpus)

tests/fuzz/build/%.o: src/%.c src/*.h
	@mkdir -p tests/fuzz/build
	$(FUZZ_CC) $(AV_CPPFLAGS) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

tests/fuzz/build/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(AV_CPPFLAGS) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -Isrc -o $@ $< \
		$(FUZZ_EXTRA_fuzz_$*) $(FUZZ_OBJ) $(CORE_LIBS)
tests/fuzz/build/fuzz_screen: $(FUZZ_EXTRA_DEPS)

.PRECIOUS: tests/fuzz/build/%.o
fuzz-build: deps-fuzz
	@$(MAKE) --no-print-directory $(FUZZ_BIN)

# Options per harness: the reading and text harnesses work line by line and
# run faster on short inputs; the model harness wants whole sessions.
FUZZ_ARGS_fuzz_json  = -max_len=8192 -dict=tests/fuzz/fuzz_json.dict
FUZZ_ARGS_fuzz_model = -max_len=16384 -dict=tests/fuzz/fuzz_model.dict
FUZZ_ARGS_fuzz_text  = -max_len=4096 -dict=tests/fuzz/fuzz_text.dict
FUZZ_ARGS_fuzz_screen = -max_len=4096
FUZZ_ARGS_fuzz_markdown = -max_len=16384 -dict=tests/fuzz/fuzz_markdown.dict
$(foreach h,$(FUZZ_AGENTS),$(eval FUZZ_ARGS_$(h) = -max_len=16384 -dict=tests/fuzz/$(h).dict))
# An adapter's harness starts from its agent's recordings, copied into a
# folder of their own (libFuzzer reads seeds from folders).
FUZZ_SEED_DIR = tests/fuzz/build/seeds
define fuzz_run
	@mkdir -p tests/fuzz/corpus/$(1) tests/fuzz/crashes
	$(if $(FUZZ_AGENT_SEEDS_$(1)),@rm -rf $(FUZZ_SEED_DIR)-$(1); mkdir -p $(FUZZ_SEED_DIR)-$(1); cp $(FUZZ_AGENT_SEEDS_$(1)) $(FUZZ_SEED_DIR)-$(1)/)
	@echo "== $(1) for $(FUZZ_TIME) s"
	tests/fuzz/build/$(1) -max_total_time=$(FUZZ_TIME) -timeout=20 -print_final_stats=1 \
		-artifact_prefix=tests/fuzz/crashes/$(1)- $(FUZZ_ARGS_$(1)) \
		tests/fuzz/corpus/$(1) $(if $(FUZZ_AGENT_SEEDS_$(1)),$(FUZZ_SEED_DIR)-$(1),$(FUZZ_SEEDS)) \
		$(wildcard tests/fuzz/seeds/$(1))

endef

fuzz: fuzz-build
	$(foreach h,$(FUZZ),$(call fuzz_run,$(h)))

# Source coverage of what the fuzzers found: each harness built with
# clang's coverage mapping (and the plain driver) runs its corpus once;
# llvm-cov reports lines and branches of src/ per file.
FUZZ_COV = tests/fuzz/build/cov
$(FUZZ_COV)/%: tests/fuzz/%.c tests/fuzz/driver.c tests/fuzz/fuzz.h src/*.c src/*.h
	@mkdir -p $(FUZZ_COV)
	$(FUZZ_CC) $(AV_CPPFLAGS) -O1 -g -fprofile-instr-generate -fcoverage-mapping \
		-Isrc -o $@ $< tests/fuzz/driver.c $(FUZZ_EXTRA_$*) $(CORE:%=src/%.c) $(CORE_LIBS)
$(FUZZ_COV)/fuzz_screen: $(FUZZ_EXTRA_DEPS)

fuzz-cov: deps-fuzz $(FUZZ:%=$(FUZZ_COV)/%)
	@set -e; for h in $(FUZZ); do \
		rm -f $(FUZZ_COV)/$$h.profraw; \
		find tests/fuzz/corpus/$$h -type f | xargs -r env \
			LLVM_PROFILE_FILE=$(FUZZ_COV)/$$h.profraw $(FUZZ_COV)/$$h >/dev/null; \
		llvm-profdata merge -o $(FUZZ_COV)/$$h.profdata $(FUZZ_COV)/$$h.profraw; \
		echo "== $$h"; \
		llvm-cov report $(FUZZ_COV)/$$h -instr-profile=$(FUZZ_COV)/$$h.profdata \
			$(CORE:%=src/%.c) $$(test $$h != fuzz_screen || echo src/ui_cell.c); \
	done

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DATADIR)/themes
	install -m 755 src/agentview $(DESTDIR)$(BINDIR)/agentview
	install -m 644 src/agentview.1 $(DESTDIR)$(MANDIR)/agentview.1
	for t in themes/*.theme; do [ -e "$$t" ] && install -m 644 "$$t" $(DESTDIR)$(DATADIR)/themes/ || true; done
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 644 src/completions/agentview.bash $(DESTDIR)$(BASHCOMPDIR)/agentview
	install -m 644 src/completions/_agentview $(DESTDIR)$(ZSHCOMPDIR)/_agentview
	install -m 644 src/completions/agentview.fish $(DESTDIR)$(FISHCOMPDIR)/agentview.fish

# Regenerate the man page's OPTIONS and KEYS sections from the option and
# key tables (between the lines '.\" NAME-begin' and '.\" NAME-end').
update-man: all
	@set -e; for s in options keys; do \
		./src/agentview --roff-$$s >src/$$s.roff.tmp; \
		b='.\" '$$s-begin e='.\" '$$s-end f=src/$$s.roff.tmp awk \
			'index($$0, ENVIRON["b"]) == 1 { print; while ((getline l < ENVIRON["f"]) > 0) print l; skip = 1; next } \
			 index($$0, ENVIRON["e"]) == 1 { skip = 0 } !skip' src/agentview.1 >src/agentview.1.tmp; \
		mv src/agentview.1.tmp src/agentview.1; rm -f src/$$s.roff.tmp; \
	done
	@echo "src/agentview.1: OPTIONS and KEYS sections updated"

# Regenerate the shell completions of src/completions/ from the option table.
COMPLETIONS = src/completions/agentview.bash src/completions/_agentview \
              src/completions/agentview.fish
update-completions: all
	@mkdir -p src/completions
	@./src/agentview --shell-completion bash >src/completions/agentview.bash
	@./src/agentview --shell-completion zsh >src/completions/_agentview
	@./src/agentview --shell-completion fish >src/completions/agentview.fish
	@echo "src/completions: bash, zsh and fish completions updated"

clean-objs:
	rm -f src/*.o src/libcore.a src/agentview $(TEST_BIN) $(BENCH_BIN)
	rm -rf $(ASAN_DIR) $(TSAN_DIR)

clean: clean-objs
	rm -rf tests/fuzz/build

.PHONY: check-guide format format-check all run test test-agents unit unit-env unit-asan unit-tsan unit-valgrind asan bench fuzz fuzz-seeds fuzz-cov \
	fuzz-build install clean clean-objs check-layers check-circles check-clang deps-check deps-build deps-test deps-bench \
	deps-fuzz deps-agents update-man update-completions
