# Builds one lab. The top-level Makefile calls it as
#   make -f common/mk/lab.mk LAB=N all      [IMPL=... | SUBMISSION=DIR] [BUILD=DIR] [OPT=...]
#   make -f common/mk/lab.mk LAB=N tests    (as all, without the drivers: what make check reads)
#   make -f common/mk/lab.mk LAB=N check    [RESULTS=FILE] [CHECK_ARGS=...] [CHAOS_SEED=N]
#
# The student's files (the lab's STUDENT_FILES, its one source of truth) are
# taken from labs/labN-*/ by default (IMPL=skeleton), from the kit's
# solution (REF_DIR, not in the student copy) with the IMPL that names it,
# or from SUBMISSION=DIR. Everything else (headers, drivers,
# tests, common code) always comes from the kit, so a submission cannot
# replace a header or a test.
#
# Each lab's labs/labN-*/lab.mk sets:
#   STUDENT_FILES   the files the student edits (.c or .cu)
#   OPTIONAL_FILES  those of them a hand-in may leave out (a challenge): the
#                   skeleton's stub is built in their place, as in grading
#   DRIVERS         programs built from the kit's sources plus the student's objects
#   <driver>_SRCS   the kit sources of each driver
#   <driver>_LDFLAGS  its own link flags
#   LAB_CFLAGS, LAB_LDLIBS, LAB_KIT_SRCS (extra kit sources linked everywhere),
#   LAB_LD (the linker, default gcc), CHECK_ENV, CHECK_CMD (default: the test binary),
#   EXTRA_TARGETS   more files `all` must build (with rules of their own:
#                   an offload probe)
#   SANDBOX_RANKS, SANDBOX_THREADS, SANDBOX_MEM_MB  what the grading sandbox
#                   must allow the lab's largest test (defaults below)
#   and the lab's own `bench` and `demo` targets.
# Its tests' labs/labN-name/tests/tests.mk (where the tests need more than the
# test binary), included after it, sets:
#   TEST_PROGRAMS   programs the tests run, built as DRIVERS are, with
#                   <program>_SRCS and <program>_LDFLAGS (an MPI checker
#                   program's: CHECKER_MPI_SRCS and CHECKER_MPI_LDFLAGS,
#                   autograder/mpi_checker/checker.mk)
#   TEST_DRIVERS    the lab's DRIVERS that tests run too (make tests builds
#                   them; the other drivers only make all)
#   TEST_SRCS       the test sources (default: labs/labN-name/tests/*.c)
#   TEST_STUDENT_OBJS, TEST_LD (the test binary's student objects and linker:
#                   default all of them and LAB_LD),
#   EXTRA_TARGETS += test programs with rules of their own
# Only the tests' objects see autograder/'s headers and Check's (TEST_CFLAGS):
# the lab's and common code never include them.

include common/mk/config.mk

LAB_DIR  := $(firstword $(wildcard labs/lab$(LAB)-*))
ifeq ($(LAB_DIR),)
$(error there is no lab $(LAB): labs/ holds $(notdir $(wildcard labs/lab*)))
endif
LAB_NAME := $(notdir $(LAB_DIR))
REF_DIR  := labs/$(LAB_NAME)/solution
TEST_DIR := $(LAB_DIR)/tests
BUILD    ?= build/lab$(LAB)
KIT_BUILD ?= build/kit/lab$(LAB)
# The architectures the .cu objects were built for (below; a lab.mk's own
# rules for GPU code depend on CUDA_STAMP too).
KIT_CUDA_STAMP := $(KIT_BUILD)/cuda-arch
CUDA_STAMP     := $(BUILD)/student/cuda-arch

DRIVERS :=
TEST_DRIVERS :=
TEST_PROGRAMS :=
EXTRA_TARGETS :=
LAB_CFLAGS :=
LAB_LDLIBS :=
LAB_KIT_SRCS :=
LAB_LD = $(CC)
include $(LAB_DIR)/lab.mk
# The grading sandbox's size (the instructors' grading reads them): the
# most processes one test runs at once (MPI ranks), the OpenMP threads each
# may start, the address space of one process. A lab's lab.mk states its own.
SANDBOX_RANKS   ?= 1
SANDBOX_THREADS ?= 32
SANDBOX_MEM_MB  ?= 4096
include autograder/mpi_checker/checker.mk
-include $(TEST_DIR)/tests.mk
include autograder/perf/perf.mk
TEST_SRCS ?= $(wildcard $(TEST_DIR)/*.c)
CHECK_CMD ?= $(BUILD)/test_lab$(LAB)
# The student objects linked into the test binary, and its linker: all of
# them and LAB_LD, unless the lab loads some at run time instead (lab 4's
# offload stage, whose runtime must not start before the tests fork).
TEST_STUDENT_OBJS ?= $(STUDENT_OBJS)
TEST_LD ?= $(LAB_LD)

ifneq ($(SUBMISSION),)
SRC_DIR := $(patsubst %/,%,$(SUBMISSION))
else ifeq ($(IMPL),reference)
SRC_DIR := $(REF_DIR)
else ifeq ($(filter-out skeleton,$(IMPL)),)
SRC_DIR := $(LAB_DIR)
else
$(error IMPL must be 'skeleton' or 'reference', got '$(IMPL)')
endif

# The folder the student's files are named by in the build's messages
# (the #line of each copy, below): SRC_DIR, the files the student edits.
# The kit's self-test builds patched copies of the reference under the
# reference's folder's name (SHOWN_DIR=labs/labN-name/solution), so that
# the files a patch leaves alone are copied to the very text of the
# reference's build, and nvcc's objects come from the cache (cu_cache.mk).
SHOWN_DIR ?= $(SRC_DIR)

# The student copy's record of the kit's given files as released (.kit/:
# their SHA-256, and the skeleton of each optional file). Those this
# lab's build reads (its folder, common/, autograder/ but other labs'
# tests, the Makefile) that no longer match are named by make labN and
# make check, since the grade is built with the kit's.
GIVEN_DIR := .kit
GIVEN_SUMS := $(wildcard $(GIVEN_DIR)/given.sha256)
ifneq ($(GIVEN_SUMS),)
ifneq ($(filter all tests check,$(MAKECMDGOALS)),)
GIVEN_CHANGED := $(shell awk '$$2 ~ "^($(LAB_DIR)/|common/|autograder/|Makefile$$)"' \
    $(GIVEN_SUMS) | sha256sum --quiet -c 2>/dev/null | sed -n 's/: FAILED.*//p')
endif
endif
# (make check: the optional files the build took from the skeleton.)
STUB_NOTE = for f in $$(cat $(BUILD)/stubbed 2>/dev/null); do echo "note: $$(cat $(BUILD)/source) has no $$f (optional): built with the skeleton's stub in its place, as the grader builds it"; done
GIVEN_NOTE = $(foreach f,$(GIVEN_CHANGED),echo "note: $(f) is not the kit's as released: your grade is built with the kit's own $(notdir $(f)), not this one" >&2;)

# Student code gets a section per function and per datum, so that every call
# it makes, even between two static functions of one file, shows in its
# object as a relocation (the call rules, below, read them). Debug
# information changes no code; it lets a hang's line name the function and
# line it was stuck in (autograder/mpi_checker/stuck.h). DWARF 4: binutils 2.40's
# addr2line reads a DWARF 5 file table with a #line in it as the copy's
# file (build/.../student/x.c), not the student's.
STUDENT_SECTIONS = -ffunction-sections -fdata-sections
# -D_DEFAULT_SOURCE: -std=c17 alone hides M_PI (and POSIX's calls) from
# the student's files.
STUDENT_CFLAGS = $(CSTD) -D_DEFAULT_SOURCE $(OPT) -g -gdwarf-4 $(WARN) -fPIC $(STUDENT_SECTIONS) -I$(LAB_DIR) -Icommon $(LAB_CFLAGS)
KIT_CFLAGS     = $(CSTD) $(KIT_OPT) $(WARN) -I$(LAB_DIR) -Icommon $(LAB_CFLAGS)
TEST_CFLAGS    = -Iautograder $(CHECK_CFLAGS)
KIT_NVCCFLAGS  = $(NVCCFLAGS) -I$(LAB_DIR) -Icommon
# -lineinfo (line tables only, the same code): compute-sanitizer's reports
# name the student's file and line (autograder/cuda/compute_sanitizer.h).
STUDENT_NVCCFLAGS = $(NVCCFLAGS) -lineinfo -Xcompiler -fPIC $(addprefix -Xcompiler ,$(STUDENT_SECTIONS)) -I$(LAB_DIR) -Icommon

STUDENT_OBJS := $(addprefix $(BUILD)/student/,$(addsuffix .o,$(basename $(STUDENT_FILES))))
kit_obj = $(addprefix $(KIT_BUILD)/,$(addsuffix .o,$(basename $(1))))
COMMON_OBJS  := $(call kit_obj,$(wildcard common/*.c) $(LAB_KIT_SRCS))
# An archive, so that a program links only the common code it uses (the
# matmult driver pulls in OpenBLAS; lab 2 never does).
COMMON_LIB   := $(KIT_BUILD)/libkitcommon.a
GRADER_OBJS  := $(call kit_obj,$(wildcard autograder/runner/*.c) autograder/mpi_checker/stuck.c)
TEST_OBJS    := $(call kit_obj,$(TEST_SRCS))
TEST_PROGRAM_OBJS := $(call kit_obj,$(foreach p,$(TEST_PROGRAMS),$($(p)_SRCS)))
$(TEST_OBJS) $(GRADER_OBJS) $(TEST_PROGRAM_OBJS): KIT_CFLAGS += $(TEST_CFLAGS)
TEST_BIN     := $(BUILD)/test_lab$(LAB)

# A lab with CUDA: its test program (and the helper make bench and make
# demo run first, common/bench/bench_lib.sh) asks before any GPU test
# whether the build holds code for this host's GPUs
# (common/cuda/gpu_image.h): a build for another GPU is the build's fault,
# said in one line, never a crash of the student's code.
LAB_CUDA := $(strip $(filter %.cu,$(STUDENT_FILES) $(LAB_KIT_SRCS) $(TEST_SRCS) \
    $(foreach d,$(DRIVERS) $(TEST_PROGRAMS),$($(d)_SRCS))))
ifneq ($(LAB_CUDA),)
GPU_IMAGE_OBJ   := $(call kit_obj,common/cuda/gpu_image.cu)
GPU_IMAGE_CHECK := $(BUILD)/gpu_image_check
$(GPU_IMAGE_OBJ): KIT_NVCCFLAGS += -DKIT_CUDA_BUILT='"$(CUDA_BUILT)"' -DKIT_LAB=$(LAB)
$(GPU_IMAGE_CHECK): $(call kit_obj,common/cuda/gpu_image_check.c) $(GPU_IMAGE_OBJ) $(COMMON_LIB)
	$(CC) -o $@ $^ $(CUDA_LIBS) -ldl
endif

# Every .cu object depends on the architectures it was built for: a build
# for other ones (CUDA_ARCH, another host's GPUs) compiles them again. The
# stamps change only when the architectures do, and are written by every
# make that builds (all, kit, or objects named one by one); a make check
# and a lookup of a variable (grading's, in a sandbox that cannot write the
# kit's folder) leave them as they are.
CUDA_STAMP_TEXT := $(CUDA_GENCODE)
ifneq ($(LAB_CUDA),)
ifneq ($(filter-out check print-%,$(or $(MAKECMDGOALS),all)),)
$(foreach f,$(KIT_CUDA_STAMP) $(CUDA_STAMP),$(shell mkdir -p $(dir $(f)) && \
    { echo '$(CUDA_STAMP_TEXT)' | cmp -s - $(f) || echo '$(CUDA_STAMP_TEXT)' > $(f); }))
endif
endif
# The lab's name reaches its tests from here only (ag_main, runner.h).
$(TEST_OBJS): KIT_CFLAGS += -DAG_LAB='"$(LAB_NAME)"'

.PHONY: all tests kit check
.DELETE_ON_ERROR:

# Its time is the last successful build's (make check's test of a file
# edited since): the test program's own is not, when a file saved again
# unchanged rebuilt nothing. `tests` builds only what make check reads (the
# student's objects, whose calls it checks, and the programs the tests run),
# not the other drivers: grading builds a submission so, and the kit's
# self-test its patched references.
BUILT := $(BUILD)/built
all tests: $(STUDENT_OBJS) $(TEST_BIN) $(addprefix $(BUILD)/,$(TEST_PROGRAMS) $(TEST_DRIVERS)) $(EXTRA_TARGETS) $(GPU_IMAGE_CHECK)
	@touch $(BUILT)
	@$(GIVEN_NOTE)
	@echo "lab $(LAB) ($(LAB_NAME)) built from $(SRC_DIR) into $(BUILD)"
	$(if $(LAB_CUDA),@echo "lab$(LAB): CUDA built for $(CUDA_BUILT) ($(CUDA_ARCH_WHY))")

all: $(addprefix $(BUILD)/,$(DRIVERS))

# The kit's objects alone (its self-test builds them once, then each
# variant of the student's files).
kit: $(COMMON_LIB) $(GRADER_OBJS) $(TEST_OBJS) $(GPU_IMAGE_OBJ) $(foreach d,$(DRIVERS) $(TEST_PROGRAMS),$(call kit_obj,$($(d)_SRCS))) \
    $(if $(GPU_IMAGE_CHECK),$(call kit_obj,common/cuda/gpu_image_check.c))

# Copy the student's files in only when building, and only when they changed,
# so that make rebuilds exactly what it must. A missing file stops the build
# with its name. Each copy starts with a #line naming the file the student
# edits, so that compiler, sanitizer and debugger messages point there and
# not at the copy (whose edits would be lost); it is compiled in the build
# folder, so a submission's own headers never replace the kit's.
ifneq ($(filter all tests,$(MAKECMDGOALS)),)
MISSING := $(strip $(foreach f,$(filter-out $(OPTIONAL_FILES),$(STUDENT_FILES)),$(if $(wildcard $(SRC_DIR)/$(f)),,$(f))))
ifneq ($(MISSING),)
$(error $(SRC_DIR) lacks the student file(s) of lab $(LAB): $(MISSING)$(if $(OPTIONAL_FILES), (optional, may be left out: $(OPTIONAL_FILES))))
endif
# A hand-in is built as the grader builds it only with the kit's own given
# files: one the student changed could make it compile here and not there.
ifneq ($(SUBMISSION),)
ifneq ($(GIVEN_CHANGED),)
$(error make lab$(LAB) SUBMISSION=$(SUBMISSION): not the kit's as released (changed or removed): $(GIVEN_CHANGED). The grader builds your files with the kit's own, where they may not compile or may score otherwise, so this build would not be the grader's: undo the change (the copy of the kit you were given has the file), then run this again)
endif
endif
# An optional file left out is built from the skeleton's stub, as the
# grader builds it: in the student copy the release's untouched skeleton
# (.kit/skeleton), since the one in labs/ may hold the student's own work.
STUBBED := $(strip $(foreach f,$(OPTIONAL_FILES),$(if $(wildcard $(SRC_DIR)/$(f)),,$(f))))
STUB_DIR := $(firstword $(wildcard $(GIVEN_DIR)/skeleton/$(LAB_DIR)) $(LAB_DIR))
STUDENT_SRCS := $(foreach f,$(STUDENT_FILES),$(if $(filter $(f),$(STUBBED)),$(STUB_DIR),$(SRC_DIR))/$(f))
COPY_ERR := $(shell mkdir -p $(BUILD)/student && for s in $(STUDENT_SRCS); do f=$$(basename "$$s"); \
    case $$s in ($(SRC_DIR)/*) shown=$(SHOWN_DIR)/$$f ;; (*) shown=$$s ;; esac; \
    t="$(BUILD)/student/.$$f.new"; { printf '\043line 1 "%s"\n' "$$shown" && cat "$$s"; } >"$$t" && \
    { cmp -s "$$t" "$(BUILD)/student/$$f" && rm -f "$$t" || mv -f "$$t" "$(BUILD)/student/$$f"; } || echo "$$f"; done; \
    echo "$(SRC_DIR)" > $(BUILD)/source; echo "$(STUBBED)" > $(BUILD)/stubbed)
ifneq ($(COPY_ERR),)
$(error could not copy $(COPY_ERR) from $(SRC_DIR))
endif
endif

$(BUILD)/student/%.o: $(BUILD)/student/%.c
	$(COMPILER_LAUNCHER) $(CC) $(STUDENT_CFLAGS) -c $< -o $@

$(BUILD)/student/%.o: $(BUILD)/student/%.cu $(CUDA_STAMP)
	$(COMPILER_LAUNCHER) $(NVCC) $(STUDENT_NVCCFLAGS) -c $< -o $@
include common/mk/cu_cache.mk

$(KIT_BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(COMPILER_LAUNCHER) $(CC) $(KIT_CFLAGS) -MMD -MP -c $< -o $@

$(KIT_BUILD)/%.o: %.cu $(KIT_CUDA_STAMP)
	@mkdir -p $(@D)
	$(COMPILER_LAUNCHER) $(NVCC) $(KIT_NVCCFLAGS) -c $< -o $@

# Student objects depend on the lab's headers too.
$(STUDENT_OBJS): $(wildcard $(LAB_DIR)/*.h) $(wildcard common/*.h)

$(COMMON_LIB): $(COMMON_OBJS)
	@rm -f $@
	ar rcs $@ $^

# SANITIZE (a lab's lab.mk: address,undefined): the test program and the
# programs the tests run (TEST_PROGRAMS: the MPI checker programs) link the
# student's C files built again with those sanitizers (nvcc's objects, the
# drivers and the benchmarks keep the plain ones): a read one past a buffer
# that leaves the answer unchanged stops the test, and
# autograder/runner/sanitizer_report.c makes the report its message (in a
# checker program, its options: no leak check, the report's own status;
# the launcher quotes the report's first error).
# A compiler without the sanitizers' runtime (a GPU host's own GCC, say)
# builds the tests without them, and says so. Every make of a lab asks
# (grading's lookups of a variable too): where the compiler names each
# runtime library (GCC's libasan.so...), that answers; otherwise a link of
# an empty program does, a tenth of a second more.
san_comma := ,
SAN_RUNTIMES := $(patsubst address,libasan.so,$(patsubst undefined,libubsan.so,$(patsubst thread,libtsan.so,$(subst $(san_comma), ,$(SANITIZE)))))
ifneq ($(SANITIZE),)
ifneq ($(words $(shell for l in $(SAN_RUNTIMES); do f=$$($(CC) -print-file-name=$$l) && [ -e "$$f" ] && echo "$$f"; done 2>/dev/null)),$(words $(SAN_RUNTIMES)))
ifeq ($(shell echo 'int main(void){return 0;}' | $(CC) -fsanitize=$(SANITIZE) -x c - -o /dev/null 2>/dev/null && echo ok),)
$(info note: $(CC) cannot link -fsanitize=$(SANITIZE) here; the tests are built without the sanitizers)
SANITIZE :=
endif
endif
endif
SAN_FLAGS := $(if $(SANITIZE),-g -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer)
# The sanitized objects at -O2 where OPT asks for -O3: the sanitizers'
# checks in -O3's unrolled loops can double a file's compile time (lab 1's
# reference matmult.c: 1.8 s, 0.9 s at -O2), and grading builds every
# submission so. OPT's other flags stay (-march, FMA contraction), and -O2
# reorders no floating-point sum either: the tests see the same results.
SAN_OPT := $(if $(filter -O3,$(OPT)),-O2)
STUDENT_C_OBJS := $(addprefix $(BUILD)/student/,$(addsuffix .o,$(basename $(filter %.c,$(STUDENT_FILES)))))
# The objects of $(1), each student C object swapped for its sanitized build.
san_objs = $(if $(SANITIZE),$(foreach o,$(1),$(if $(filter $(o),$(STUDENT_C_OBJS)),$(patsubst $(BUILD)/student/%,$(BUILD)/student-san/%,$(o)),$(o))),$(1))
TEST_STUDENT_OBJS := $(call san_objs,$(TEST_STUDENT_OBJS))
SAN_OPTIONS_OBJ := $(if $(SANITIZE),$(call kit_obj,autograder/runner/sanitizer_report.c))
# Their frames name the student's files as /student/FILE (the report's
# reader picks the student's lines by that; the #line of the copy names the
# folder the file came from).
$(BUILD)/student-san/%.o: $(BUILD)/student/%.c $(wildcard $(LAB_DIR)/*.h) $(wildcard common/*.h)
	@mkdir -p $(@D)
	$(COMPILER_LAUNCHER) $(CC) $(STUDENT_CFLAGS) $(SAN_OPT) $(SAN_FLAGS) -fdebug-prefix-map=$(SHOWN_DIR)=/student -c $< -o $@

define test_program_rule
$(BUILD)/$(1): $(call san_objs,$(STUDENT_OBJS)) $(call kit_obj,$($(1)_SRCS)) $(SAN_OPTIONS_OBJ) $(COMMON_LIB)
	$$(LAB_LD) $$(SAN_FLAGS) -o $$@ $$^ $$($(1)_LDFLAGS) $$(LAB_LDLIBS) -ldl -lm
endef
$(foreach p,$(TEST_PROGRAMS),$(eval $(call test_program_rule,$(p))))

# The link of a test program (the one below, and the sanitizer's after it).
link_test = $(TEST_LD) $(SAN_FLAGS) -o $@ $^ $(LAB_LDLIBS) $(CHECK_LIBS) -ldl -lm
$(TEST_BIN): $(TEST_STUDENT_OBJS) $(TEST_OBJS) $(GRADER_OBJS) $(GPU_IMAGE_OBJ) $(COMMON_LIB)
	$(link_test)

# A lab with compute-sanitizer tests (autograder/cuda/compute_sanitizer.h):
# the test program again without the tests students do not see: the one the
# tool runs. The tool must read it, and grading keeps the test program
# itself execute-only (this one it leaves readable).
ifneq ($(filter $(COMPUTE_SANITIZER_SRCS),$(TEST_SRCS)),)
SANITIZER_BIN := $(TEST_BIN)_sanitizer
all tests: $(SANITIZER_BIN)
$(SANITIZER_BIN): $(TEST_STUDENT_OBJS) $(filter-out %/hidden_lab$(LAB).o,$(TEST_OBJS)) $(GRADER_OBJS) $(GPU_IMAGE_OBJ) $(COMMON_LIB)
	$(link_test)
endif

define driver_rule
$(BUILD)/$(1): $(STUDENT_OBJS) $(call kit_obj,$($(1)_SRCS)) $(COMMON_LIB)
	$$(LAB_LD) -o $$@ $$^ $$($(1)_LDFLAGS) $$(LAB_LDLIBS) -ldl -lm
endef
$(foreach d,$(DRIVERS),$(eval $(call driver_rule,$(d))))

# The call rules (labs/labN-name/tests/calls.conf: calls a student function may
# not make or must make) are checked in the student's objects first; the
# tests of a function that breaks one fail with the reason. The class's
# grading checks them itself, outside the sandbox, and passes CALL_VIOLATIONS=FILE.
CALLS_CONF := $(wildcard $(TEST_DIR)/calls.conf)
ifeq ($(CALL_VIOLATIONS),)
ifneq ($(CALLS_CONF),)
CALL_VIOLATIONS := $(BUILD)/call-violations
CHECK_CALLS = PYTHONPATH=autograder$${PYTHONPATH:+:$$PYTHONPATH} python3 -m callrules.calls -o $(CALL_VIOLATIONS) $(CALLS_CONF) $(STUDENT_OBJS)
endif
endif

# make check never runs code older than the student's files: a file edited
# since the last build, or a build that failed (its copy is then newer than
# the test program), is refused in one line. Grading (CALL_VIOLATIONS given)
# builds just before and checks in a sandbox: no such test there, and no
# hang budget (AG_HANG_BUDGET, runner.h): every test gets its own limit,
# and it repeats the tests a race can pass by luck itself (repeat.conf).
ifneq ($(origin CALL_VIOLATIONS),command line)
STALE_CHECK = src=$$(cat $(BUILD)/source 2>/dev/null); \
    case "$$src" in $(LAB_DIR)) again= ;; $(REF_DIR)) again=" IMPL=reference" ;; *) again=" SUBMISSION=$$src" ;; esac; \
    for f in $(STUDENT_FILES); do \
    if [ "$$src/$$f" -nt $(BUILT) ] || [ $(BUILD)/student/$$f -nt $(BUILT) ]; then \
    echo "lab $(LAB): $$src/$$f is newer than the last successful build: run 'make lab$(LAB)$$again' (and fix what it reports) before make check" >&2; exit 2; fi; done
STUDENT_CHECK_ENV = AG_HANG_BUDGET=$${AG_HANG_BUDGET:-60} $(if $(wildcard $(TEST_DIR)/repeat.conf),AG_REPEAT_CONF=$(TEST_DIR)/repeat.conf)
endif

# Chaos schedules (autograder/runner/chaos.h): the tests of chaos.conf run
# again under seeds, here and in grading; CHAOS_SEED=N replays one seed,
# CHAOS=0 leaves them quiet (a maintainer's count of what chaos adds).
CHAOS_ENV = $(if $(filter 0,$(CHAOS)),,$(if $(wildcard $(TEST_DIR)/chaos.conf),AG_CHAOS_CONF=$(TEST_DIR)/chaos.conf)) \
    $(if $(CHAOS_SEED),AG_CHAOS_REPLAY=$(CHAOS_SEED))

check:
	@test -x $(TEST_BIN) || { echo "lab $(LAB) is not built: run 'make lab$(LAB)' first" >&2; exit 2; }
	@$(STALE_CHECK)
	@echo "lab $(LAB) ($(LAB_NAME)), built from $$(cat $(BUILD)/source 2>/dev/null)"
	@$(GIVEN_NOTE)
	@$(STUB_NOTE)
	@$(CHECK_CALLS)
	@AG_CALL_VIOLATIONS=$(CALL_VIOLATIONS) AG_CALLS_CONF=$(CALLS_CONF) $(STUDENT_CHECK_ENV) $(CHAOS_ENV) $(CHECK_ENV) $(CHECK_CMD) $(if $(RESULTS),--results $(RESULTS)) $(CHECK_ARGS)

# make bench runs the lab's bench.sh; make demo its demo.sh, where it has
# one (a lab.mk may write a demo recipe of its own instead: lab 1's).
.PHONY: bench
bench:
	@$(LAB_DIR)/bench.sh
ifneq ($(wildcard $(LAB_DIR)/demo.sh),)
.PHONY: demo
demo:
	@$(LAB_DIR)/demo.sh
endif

-include $(shell find $(KIT_BUILD) -name '*.d' 2>/dev/null)
