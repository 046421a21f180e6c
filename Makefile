# agentview: a terminal viewer for Cursor Agent CLI stream-json sessions.
#
#   make            build src/agentview
#   make run        install what is missing, build, open a bundled recording
#   make test       install what is missing, build, run every test
#   make asan       build with AddressSanitizer and UBSan into src/asan/
#   make bench      generate big recordings, measure speed and memory (not a test)
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean

VERSION   = 0.1.0
PREFIX   ?= /usr/local
BINDIR    = $(PREFIX)/bin
MANDIR    = $(PREFIX)/share/man/man1
DATADIR   = $(PREFIX)/share/agentview

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
AV_CPPFLAGS = -std=c11 -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=700 \
              -DAGENTVIEW_VERSION='"$(VERSION)"' -DAGENTVIEW_DATADIR='"$(DATADIR)"'
ALL_CFLAGS = $(AV_CPPFLAGS) $(WARN) $(WERROR) $(CFLAGS) $(CPPFLAGS) -pthread

# Reading and model layers: no curses here (checked by `make check-layers`).
CORE = util json text lines ahead model tool summary print record input sig runner \
       statusline render view keys theme search diff detail nav replay
# Screen layer: the only files that may include <curses.h>.
UI   = ui pane_transcript pane_timeline statusbar pane_help ui_theme ui_nav pane_detail \
       ui_replay
CORE_OBJ = $(CORE:%=src/%.o)
UI_OBJ   = $(UI:%=src/%.o)

TESTS = $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
TEST_BIN = $(TESTS:%=tests/%)

all: src/agentview

src/agentview: src/main.o src/libcore.a $(UI_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ src/main.o $(UI_OBJ) src/libcore.a $(CURSES_LIBS)

src/libcore.a: $(CORE_OBJ)
	rm -f $@
	$(AR) rcs $@ $(CORE_OBJ)

$(UI_OBJ) src/main.o: ALL_CFLAGS += $(CURSES_CFLAGS)
src/%.o: src/%.c src/*.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

tests/test_%: tests/test_%.c src/libcore.a tests/testutil.h
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< src/libcore.a $(CMOCKA_LIBS)

# Only screen files (the UI list and ui.h) may include curses or ui.h.
check-layers:
	@bad=$$(grep -l -E '#include *(<(n?curses|ncursesw/curses)\.h>|"ui\.h")' \
		$(CORE:%=src/%.c) $(filter-out src/ui.h,$(wildcard src/*.h)) 2>/dev/null || true); \
	if [ -n "$$bad" ]; then echo "curses included outside the screen layer: $$bad"; exit 1; fi

deps-build:
	@sh .ci/deps build
deps-test:
	@sh .ci/deps test
deps-bench:
	@sh .ci/deps bench

# The generator of big recordings for `make bench`, and the timings of keys,
# searches and replays on them without a terminal.
BENCH_BIN = tests/gen_bench tests/bench_view tests/bench_replay tests/pace
tests/gen_bench tests/pace: %: %.c
	$(CC) $(ALL_CFLAGS) -o $@ $<
tests/bench_%: tests/bench_%.c src/libcore.a
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< src/libcore.a

bench: deps-bench
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	@sh tests/bench.sh

run: deps-build
	@$(MAKE) --no-print-directory all
	./src/agentview recordings/demo.ndjson

unit: $(TEST_BIN)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; ./$$t; done

test: deps-test
	@$(MAKE) --no-print-directory WERROR=-Werror all check-layers unit
	@sh tests/run_corpus.sh
	@sh tests/run_screen.sh
	@sh tests/run_runner.sh
	@sh tests/run_replay.sh

asan:
	@mkdir -p src/asan
	$(MAKE) --no-print-directory clean-objs
	$(MAKE) --no-print-directory CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" all $(TEST_BIN)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DATADIR)/themes
	install -m 755 src/agentview $(DESTDIR)$(BINDIR)/agentview
	install -m 644 src/agentview.1 $(DESTDIR)$(MANDIR)/agentview.1
	for t in themes/*.theme; do [ -e "$$t" ] && install -m 644 "$$t" $(DESTDIR)$(DATADIR)/themes/ || true; done

# Regenerate the man page's KEYS section from the key table.
update-man: all
	@./src/agentview --keys-roff >src/keys.roff.tmp
	@awk '/^\.\\" keys-begin/ { print; while ((getline l < "src/keys.roff.tmp") > 0) print l; skip = 1; next } \
	     /^\.\\" keys-end/ { skip = 0 } !skip' src/agentview.1 >src/agentview.1.tmp
	@mv src/agentview.1.tmp src/agentview.1; rm -f src/keys.roff.tmp
	@echo "src/agentview.1: KEYS section updated"

clean-objs:
	rm -f src/*.o src/libcore.a src/agentview $(TEST_BIN) $(BENCH_BIN)

clean: clean-objs
	rm -rf src/asan

.PHONY: all run test unit asan bench install clean clean-objs check-layers deps-build deps-test deps-bench update-man
