# arena-java.mk: the build rules of an Arena Java bot (part of the Java kit; a bot's Makefile includes it).
#
#     BOT := build/bot               # the program bot.toml's `command` starts: a launcher of the JVM
#     MAIN := RandomBot              # the class with main()
#     ARENA_KIT ?= /runtime          # where Arena's build step puts the kit
#     include $(ARENA_KIT)/java/arena-java.mk
#
# The bot's *.java files (in the folder and below it) are compiled with Debian's JDK against the Java kit's
# arena-kit.jar (the protocol's classes, package arena.v1, and the SDK, package arena.bot, compiled once by `arena
# runtimes install`) and Debian's grpc-java, protobuf-java and netty (/usr/share/java). The kit's jar is copied
# into build/ (at play time a bot sees only its folder and /usr); the launcher starts the JVM with limits that
# fit the sandbox (memory, threads). No build cache is needed: javac compiles only the bot's own files.

JAVA_KIT := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
BUILD_DIR := $(patsubst %/,%,$(dir $(BOT)))
# the JDK by its own folder (/usr/bin/javac is a link through /etc/alternatives, which the sandbox does not show)
JAVA_HOME := $(shell cat $(JAVA_KIT)/java-home.txt)
JAVAC ?= $(JAVA_HOME)/bin/javac
JAVA_SOURCES := $(shell find . -name '*.java' -not -path './$(BUILD_DIR)/*')
SYSTEM_JARS := $(shell cat $(JAVA_KIT)/classpath.txt)
# the JVM inside the sandbox: a small heap, serial GC and one compiler thread (threads count against its process
# limit), and a metaspace and code cache that fit its address-space limit. The sandbox has no network interface,
# so netty could not read a hardware address for its channel ids and warned so at the top of every bot's log: it
# is given a fixed one (a locally administered address; the ids only need to differ within the one process)
JAVA_OPTS ?= -Xmx256m -Xss512k -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 \
  -XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=128m -XX:CompressedClassSpaceSize=64m -Xshare:auto \
  -Dio.netty.machineId=02:00:00:00:00:01

.PHONY: all clean
.DELETE_ON_ERROR:

all: $(BOT)

$(BOT): $(JAVA_SOURCES) $(JAVA_KIT)/arena-kit.jar $(JAVA_KIT)/arena-java.mk
	@mkdir -p $(BUILD_DIR)/classes
	cp $(JAVA_KIT)/arena-kit.jar $(BUILD_DIR)/arena-kit.jar
	$(JAVAC) -encoding UTF-8 -nowarn -cp $(BUILD_DIR)/arena-kit.jar:$(SYSTEM_JARS) -d $(BUILD_DIR)/classes $(JAVA_SOURCES)
	printf '#!/usr/bin/sh\n# made by arena-java.mk: starts the bot in the JVM\nhere=$$(dirname "$$0")\nMALLOC_ARENA_MAX=2 exec %s/bin/java %s -cp "$$here/classes:$$here/arena-kit.jar:%s" %s "$$@"\n' \
	  '$(JAVA_HOME)' '$(JAVA_OPTS)' '$(SYSTEM_JARS)' '$(MAIN)' > $@
	chmod +x $@

clean:
	rm -rf $(BUILD_DIR)
