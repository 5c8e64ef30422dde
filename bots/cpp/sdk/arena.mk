# arena.mk: the build rules of an Arena C++ bot (part of the C++ kit; a bot's Makefile includes it).
#
#     BOT := build/bot           # the program bot.toml's `command` starts
#     SOURCES := bot.cpp         # the bot's own sources
#     ARENA_KIT ?= /runtime      # where Arena's build step puts the kit
#     include $(ARENA_KIT)/arena.mk
#
# The kit is this file, arena_bot.hpp and the protocol's proto/arena/v1/*.proto, put together by `arena runtimes
# install` in .runtime/cpp, which the build step binds read-only at /runtime. The protocol's C++ code is generated
# from those .proto files with protoc and grpc_cpp_plugin (Debian: protobuf-compiler-grpc) into build/gen, compiled
# once into build/obj, and linked against Debian's libgrpc++ and libprotobuf, which the sandbox's /usr provides at
# run time. Everything made goes under build/ (the kit is read-only).

# the kit's folder: the one this file is in (read now, before another include changes MAKEFILE_LIST)
KIT_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
BUILD ?= build
CXX ?= g++
CXXFLAGS ?= -std=c++17 -O2 -Wall
# The generated code is big and not where a bot spends its time: compiling it without optimisation halves the build.
GEN_CXXFLAGS ?= -std=c++17 -O0
PROTOC ?= protoc
GRPC_PLUGIN ?= $(shell command -v grpc_cpp_plugin)
LDLIBS += $(shell pkg-config --libs grpc++ protobuf) -lpthread

PROTO_NAMES := arena thebes minos
GEN := $(BUILD)/gen
GEN_SOURCES := $(PROTO_NAMES:%=$(GEN)/arena/v1/%.pb.cc) $(GEN)/arena/v1/arena.grpc.pb.cc
GEN_OBJECTS := $(GEN_SOURCES:$(GEN)/%.cc=$(BUILD)/obj/%.o)
BOT_OBJECTS := $(SOURCES:%.cpp=$(BUILD)/obj/%.o)

.PHONY: all clean
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BOT)

$(BOT): $(BOT_OBJECTS) $(GEN_OBJECTS)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(GEN)/arena/v1/%.pb.cc $(GEN)/arena/v1/%.pb.h: $(KIT_DIR)/proto/arena/v1/%.proto
	@mkdir -p $(GEN)
	$(PROTOC) -I$(KIT_DIR)/proto --cpp_out=$(GEN) $<

$(GEN)/arena/v1/arena.grpc.pb.cc $(GEN)/arena/v1/arena.grpc.pb.h: $(KIT_DIR)/proto/arena/v1/arena.proto
	@mkdir -p $(GEN)
	$(PROTOC) -I$(KIT_DIR)/proto --grpc_out=$(GEN) --plugin=protoc-gen-grpc=$(GRPC_PLUGIN) $<

$(BUILD)/obj/arena/v1/%.o: $(GEN)/arena/v1/%.cc $(PROTO_NAMES:%=$(GEN)/arena/v1/%.pb.h)
	@mkdir -p $(dir $@)
	$(CXX) $(GEN_CXXFLAGS) -I$(GEN) -c -o $@ $<

$(BUILD)/obj/%.o: %.cpp $(KIT_DIR)/arena_bot.hpp $(PROTO_NAMES:%=$(GEN)/arena/v1/%.pb.h) $(GEN)/arena/v1/arena.grpc.pb.h
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -I$(GEN) -I$(KIT_DIR) -c -o $@ $<

clean:
	rm -rf $(BUILD)
