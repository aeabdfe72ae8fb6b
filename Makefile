# hq — see README.md. Sources are found by wildcard (HACKING.md).
.SUFFIXES:
.SECONDARY:

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
BUILD    ?= build
VERSION  := 0.1.0

PKGS     := sqlite3 libxml-2.0 libcjson libcurl libarchive zlib libsodium libzstd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
# libcurl is not linked: lib/base/curl.c opens it when first used, so that
# the commands that never reach a network do not load it and its 30
# libraries at every start
PKG_LIBS   := $(shell pkg-config --libs $(filter-out libcurl,$(PKGS)))

CC       ?= cc
OPT      ?= -O2 -g
WARN     := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wvla -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN     += -Werror
endif
ifeq ($(SANITIZE),1)
OPT      := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
            -fno-sanitize-recover=undefined
LDSAN    := -fsanitize=address,undefined
endif
ifeq ($(SANITIZE),thread)
OPT      := -O1 -g -fno-omit-frame-pointer -fsanitize=thread
LDSAN    := -fsanitize=thread
endif
ifeq ($(FUZZER),1)
OPT      := -O1 -g -fno-omit-frame-pointer \
            -fsanitize=fuzzer-no-link,address,undefined \
            -fno-sanitize-recover=undefined -DFUZZING_ENGINE
LDSAN    := -fsanitize=address,undefined
LDFUZZ   := -fsanitize=fuzzer
endif
CFLAGS_ALL  = -std=c17 -D_GNU_SOURCE -DHQ_VERSION='"$(VERSION)"' \
              -Iinclude $(PKG_CFLAGS) $(WARN) $(OPT) $(CFLAGS)
LDFLAGS_ALL = $(LDSAN) $(LDFLAGS)
LIBS_ALL    = $(PKG_LIBS) -lm -lpthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

# lib/LAYER/x.c and lib/LAYER/SUB/x.c (HACKING.md, Layers); lib/x.c too, so a
# file added at the top still builds until it is put in its layer (the
# layering check, scripts/layers.pl, names it).
LIB_SRC  := $(sort $(wildcard lib/*.c lib/*/*.c lib/*/*/*.c))
CMD_SRC  := $(sort $(wildcard cmd/*.c))
# tests/fuzz: a target each (fuzz_*.c), linked with the engine mutate.c
# (fuzz.h); FUZZER=1 CC=clang links them with libFuzzer instead.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
TOOL_SRC := $(sort $(wildcard scripts/*.c bench/*.c)) $(FUZZ_SRC)
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CMDS     := $(CMD_SRC:cmd/%.c=$(BUILD)/bin/%)
TOOLS    := $(foreach s,$(TOOL_SRC),$(BUILD)/tools/$(basename $(notdir $(s))))
UNITS    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LIBHQ    := $(BUILD)/libhq.a
# fish loads a command's completion by its name: one file per command,
# completions/hq.fish with the command's name in its last line.
FISHCOMP := $(CMDS:$(BUILD)/bin/%=$(BUILD)/completions/fish/%.fish)

all: $(CMDS) $(TOOLS) $(FISHCOMP)

$(BUILD)/completions/fish/%.fish: completions/hq.fish
	@mkdir -p $(dir $@)
	$(Q)sed 's/^complete -c hq /complete -c $* /' $< >$@

# -MMD -MP: each object depends on the headers it includes, no more.
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

-include $(patsubst %.c,$(BUILD)/obj/%.d,$(LIB_SRC) $(CMD_SRC) $(TOOL_SRC) $(UNIT_SRC) tests/fuzz/mutate.c)

$(LIBHQ): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $(LIB_OBJ)

$(BUILD)/bin/%: $(BUILD)/obj/cmd/%.o $(LIBHQ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIBHQ) $(LIBS_ALL)

define tool_rule
$(BUILD)/tools/$(basename $(notdir $(1))): $(BUILD)/obj/$(basename $(1)).o $(LIBHQ)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(LDFLAGS_ALL) -o $$@ $$< $$(LIBHQ) $$(LIBS_ALL)
endef
$(foreach s,$(filter-out $(FUZZ_SRC),$(TOOL_SRC)),$(eval $(call tool_rule,$(s))))

$(BUILD)/tools/fuzz_%: $(BUILD)/obj/tests/fuzz/fuzz_%.o \
    $(BUILD)/obj/tests/fuzz/mutate.o $(LIBHQ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) $(LDFUZZ) -o $@ $(filter %.o,$^) $(LIBHQ) $(LIBS_ALL)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIBHQ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(LIBHQ) $(LIBS_ALL)

# The README's test command. Unit tests first (TAP), then the CLI suite.
# Each test's TAP is kept in BUILD/tap (scripts/tap-keep.sh); when one
# fails, scripts/tap-failures.sh prints after prove's summary which file,
# which test and its got/expected; after a pass, the files that took the
# most CPU (scripts/tap-slowest.sh), where CI's time goes.
TAP = $(abspath $(BUILD))/tap
check: all $(UNITS) layers
	@rm -rf $(TAP)
	HQ_BUILD=$(abspath $(BUILD)) prove --exec 'bash scripts/tap-keep.sh $(TAP)' $(UNITS) || \
	    { sh scripts/tap-failures.sh $(TAP); exit 1; }
	HQ_BUILD=$(abspath $(BUILD)) prove -j2 --exec 'bash scripts/tap-keep.sh $(TAP)' tests/cli/*.t || \
	    { sh scripts/tap-failures.sh $(TAP); exit 1; }
	@echo "the test files that took the most CPU:"; sh scripts/tap-slowest.sh $(TAP)

# The tests that read the clock (scripts/clock-tests.sh lists them: CLI
# and unit) under Debian's faketime at three moments: 03:30 UTC on a
# Monday (Sunday still in Los Angeles), noon, and 23:30 UTC on a Sunday
# (Monday already in Berlin). CI runs it after make check; no test may
# depend on the hour or the date.
CLOCK_AT = '2026-12-07 03:30:00' '2026-12-09 12:00:00' '2026-12-13 23:30:00'
check-clock: all $(UNITS)
	@for at in $(CLOCK_AT); do \
	    echo "== the clock at $$at UTC"; rm -rf $(TAP); \
	    TZ=UTC faketime "$$at" env MAN_DISABLE_SECCOMP=1 \
	        HQ_BUILD=$(abspath $(BUILD)) \
	        prove -j2 --exec 'bash scripts/tap-keep.sh $(TAP)' \
	        $$(sh scripts/clock-tests.sh $(BUILD)) || \
	        { sh scripts/tap-failures.sh $(TAP); exit 1; }; \
	done

units: $(UNITS)
	HQ_BUILD=$(abspath $(BUILD)) prove --exec '' $(UNITS)

bench: all
	HQ_BUILD=$(abspath $(BUILD)) sh bench/run.sh

demo:
	sh scripts/deps.sh
	$(MAKE) all
	HQ_BUILD=$(abspath $(BUILD)) sh scripts/demo.sh

deps:
	sh scripts/deps.sh

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	         $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(BASHCOMPDIR) \
	         $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	cp $(CMDS) $(DESTDIR)$(BINDIR)/
	cp man/*.1 $(DESTDIR)$(MANDIR)/man1/
	cp man/*.7 $(DESTDIR)$(MANDIR)/man7/
	cp completions/hq.bash $(DESTDIR)$(BASHCOMPDIR)/hq
	for c in $(filter-out hq,$(notdir $(CMDS))); do \
	  ln -sf hq $(DESTDIR)$(BASHCOMPDIR)/$$c; done
	cp completions/_hq $(DESTDIR)$(ZSHCOMPDIR)/_hq
	cp $(FISHCOMP) $(DESTDIR)$(FISHCOMPDIR)/

uninstall:
	for c in $(notdir $(CMDS)); do \
	  rm -f $(DESTDIR)$(BINDIR)/$$c $(DESTDIR)$(MANDIR)/man1/$$c.1 \
	        $(DESTDIR)$(BASHCOMPDIR)/$$c $(DESTDIR)$(FISHCOMPDIR)/$$c.fish; done
	rm -f $(DESTDIR)$(MANDIR)/man7/hq.7 $(DESTDIR)$(BASHCOMPDIR)/hq \
	      $(DESTDIR)$(ZSHCOMPDIR)/_hq

clean:
	rm -rf $(BUILD)

# The layering check reads what the compiler saw, the .d files written
# beside lib/'s and cmd/'s objects (HACKING.md, Layers), so it builds them;
# then the sizes of files and functions (HACKING.md, Sizes).
layers: $(LIB_OBJ) $(CMD_SRC:%.c=$(BUILD)/obj/%.o)
	perl scripts/layers.pl . $(BUILD)
	perl scripts/sizes.pl .

.PHONY: all check check-clock layers units bench demo deps install uninstall clean
