# arena-go.mk: the build rules of an Arena Go bot (part of the Go kit; a bot's Makefile includes it).
#
#     BOT := build/bot               # the program bot.toml's `command` starts
#     ARENA_KIT ?= /runtime          # where Arena's build step puts the kit
#     include $(ARENA_KIT)/go/arena-go.mk
#
# The bot is the Go package (package main) of the folder, built in GOPATH mode (no go.mod, no network) with
# Debian's Go and Debian's Go libraries (/usr/share/gocode: grpc-go, protobuf-go). The Go kit is put together by
# `arena runtimes install` under .runtime/cpp/go (bound read-only at /runtime/go in the build): this file, the
# generated protocol code (import "arena/v1") and the SDK (import "arena/arenabot") in gopath/src, and cache-seed/,
# a Go build cache holding those libraries already compiled. The build cache (GOCACHE) is the folder the build step
# keeps for each bot between its builds (ARENA_BUILD_CACHE); the first build of a bot starts it from cache-seed, so
# no bot compiles grpc-go itself. Outside Arena (`make ARENA_KIT=<checkout>/.runtime/cpp`) Go's own cache is used.

GO_KIT := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
GO ?= go
GO_SOURCES := $(wildcard *.go)

# -trimpath: cache keys do not depend on where the kit and the folder are, so cache-seed (built by `arena runtimes
# install` on the host) is valid in the sandbox
export GO111MODULE := off
export GOPATH := $(abspath $(GO_KIT))/gopath:/usr/share/gocode
export GOFLAGS := -trimpath
export GOTOOLCHAIN := local
export GOTELEMETRY := off
ifneq ($(ARENA_BUILD_CACHE),)
export GOCACHE := $(ARENA_BUILD_CACHE)/go
endif

.PHONY: all clean
.DELETE_ON_ERROR:

all: $(BOT)

$(BOT): $(GO_SOURCES) $(GO_KIT)/arena-go.mk
	@mkdir -p $(dir $@)
	@if [ -n "$(ARENA_BUILD_CACHE)" ] && [ ! -d "$(GOCACHE)" ] && [ -d "$(GO_KIT)/cache-seed" ]; then \
	  mkdir -p "$(GOCACHE)" && cp -R "$(GO_KIT)/cache-seed/." "$(GOCACHE)/"; fi
	$(GO) build -o $@ .

clean:
	rm -rf $(dir $(BOT))
