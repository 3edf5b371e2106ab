# What every build of the pure core shares (src/core/Makefile for tests and
# tools, fuzz/Makefile for the fuzzers): its folders, its libraries, and
# the lexicon, model and conversation phrase tables generated into
# $(OUT)/gen.  One list, so a
# new folder or library cannot reach one build and miss the other.
# Needs TOP and OUT set before it is included; both builds default to
# their "all", not to the first rule here.

.DEFAULT_GOAL := all

DIRS      := base text conversation analyze webhooks webhooks/providers \
             gateway reviews
# one include root: an include names its folder ("base/behave_json.h")
CORE_INCS := -I$(TOP)/src/core -I$(OUT)/gen
LDLIBS    := -lcjson -lutf8proc -lcrypto -lm

LEXICON   := $(sort $(wildcard $(TOP)/src/core/text/lexicon/*.tsv))
GEN       := $(OUT)/gen/behave_lexicon_data.c
MODEL     := $(TOP)/src/core/text/model/concepts.tsv \
             $(TOP)/src/core/text/model/weights.tsv \
             $(TOP)/src/core/text/model/weights.bin
GENM      := $(OUT)/gen/behave_model_data.c
RISK      := $(TOP)/src/core/text/model/risk.tsv \
             $(TOP)/src/core/text/model/risk.bin
GENR      := $(OUT)/gen/behave_risk_data.c
PHRASES   := $(sort $(wildcard $(TOP)/src/core/conversation/phrases/*.tsv))
GENP      := $(OUT)/gen/behave_conv_phrases_data.c
TURNS     := $(TOP)/src/core/conversation/learned/turns.tsv
GENT      := $(OUT)/gen/behave_conv_learned_data.c
# the descriptions the Redis scripts share with the core (generated headers)
DESCR     := $(sort $(foreach d,$(DIRS),$(wildcard $(TOP)/src/core/$(d)/*.layout \
                                                  $(TOP)/src/core/$(d)/*.fields)))
GENH      := $(OUT)/gen/behave_conv_state_layout.h \
             $(OUT)/gen/behave_gw_hot_layout.h \
             $(OUT)/gen/behave_review_fields.h
CORE_SRCS := $(sort $(foreach d,$(DIRS),$(wildcard $(TOP)/src/core/$(d)/*.c)))
CORE_HDRS := $(foreach d,$(DIRS),$(wildcard $(TOP)/src/core/$(d)/*.h))
CORE_OBJS := $(patsubst $(TOP)/%.c,$(OUT)/obj/%.o,$(CORE_SRCS)) \
             $(OUT)/obj/gen/behave_lexicon_data.o \
             $(OUT)/obj/gen/behave_model_data.o \
             $(OUT)/obj/gen/behave_risk_data.o \
             $(OUT)/obj/gen/behave_conv_phrases_data.o \
             $(OUT)/obj/gen/behave_conv_learned_data.o

# a generated table: its generator (the first prerequisite) reads the rest
behave_gen = @mkdir -p $(dir $@) && echo perl $< $@ && perl $< $@ $(filter-out $<,$^)

# the packed rows (weights.bin, risk.bin) are read beside their .tsv
$(GEN):  $(TOP)/scripts/gen-lexicon $(LEXICON) ; $(behave_gen)
$(GENM): $(TOP)/scripts/gen-model $(MODEL) ; $(behave_gen)
$(GENR): $(TOP)/scripts/gen-risk $(RISK) ; $(behave_gen)
$(GENP): $(TOP)/scripts/gen-phrases $(PHRASES) ; $(behave_gen)
$(GENT): $(TOP)/scripts/gen-turns $(TURNS) ; $(behave_gen)

# the core's share of scripts/gen-redis-scripts: its headers, no script
$(GENH) &: $(DESCR) $(TOP)/scripts/gen-redis-scripts
	@mkdir -p $(OUT)/gen
	perl $(TOP)/scripts/gen-redis-scripts $(OUT)/gen $(DESCR)
