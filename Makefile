# The kit's one entry point. `make help` lists the targets.
#
# Student:     make lab1 && make check
# Instructor:  make grade LAB=1 SUBMISSIONS=dir/    make release
# Lecturer:    make demo LAB=2                      make bench LAB=1 IMPL=reference
# Maintainer:  make test

include common/mk/config.mk

LAB_DIRS := $(sort $(wildcard labs/lab[0-9]*-*))
LAB_NUMS := $(foreach d,$(LAB_DIRS),$(patsubst lab%,%,$(firstword $(subst -, ,$(notdir $(d))))))
LAB_TARGETS := $(addprefix lab,$(LAB_NUMS))
LAST_LAB := build/last-lab
# make check and make bench act on LAB=N, or on the lab built last.
LAB ?= $(shell cat $(LAST_LAB) 2>/dev/null)

LAB_MAKE = $(MAKE) --no-print-directory -f common/mk/lab.mk

.PHONY: help deps $(LAB_TARGETS) check test bench demo grade similarity release clean gpu-deps-fetch

# The student copy (make release) has no reference/: there help names only
# what works in it.
STUDENT_COPY := $(if $(wildcard reference),,1)

help:
	@echo "Targets:"
	@echo "  make deps                       install the Debian packages the kit needs (root or sudo)"
	@echo "  make labN                       build lab N from your files in labs/labN-*/ (N: $(LAB_NUMS))"
ifeq ($(STUDENT_COPY),)
	@echo "  make labN IMPL=reference        ... from the reference solution"
endif
	@echo "  make labN SUBMISSION=DIR        ... from a folder holding only the student's files"
	@echo "  make check [LAB=N]              run the tests of the lab built last (RESULTS=file.json for Gradescope JSON)"
ifeq ($(STUDENT_COPY),)
	@echo "  make bench LAB=N [IMPL=...]     benchmark: CSV and PNG plot under build/bench/labN/"
	@echo "  make demo LAB=N                 the reference run with its pictures (labs that have one)"
	@echo "  make grade LAB=N SUBMISSIONS=DIR [JOBS=4]   grade a class's submissions (instructors)"
	@echo "  make similarity LAB=N SUBMISSIONS=DIR   pairs of submissions unusually alike: HTML and CSV (instructors)"
	@echo "  make release                    the student copy: no reference, hidden tests or mutants"
	@echo "  make test [JOBS=n]              the kit's own test suite (what CI runs), n runs at once (default: the cores)"
	@echo "  make gpu-deps-fetch             stage in .gpudeps/ the Debian packages a GPU host lacks (then autograder/gpu-host/run there)"
else
	@echo "  make bench LAB=N [BENCH_QUICK=1]   benchmark your code: CSV and PNG plot under build/bench/labN/"
	@echo "  make demo LAB=N                 your code's run with its pictures (labs 1, 2, 4, 5, 7)"
endif
	@echo "  make clean                      remove build/"

deps:
	$(SUDO) apt-get update
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	    $$(grep -v '^#' common/mk/debian-packages.txt)

$(LAB_TARGETS): lab%:
	@$(LAB_MAKE) LAB=$* all
	@echo $* > $(LAST_LAB)

require_lab = $(if $(LAB),,$(error no lab built yet: run 'make labN' first, or name one with LAB=N))

check:
	$(require_lab)
	@$(LAB_MAKE) LAB=$(LAB) check

bench:
	$(require_lab)
	@$(LAB_MAKE) LAB=$(LAB) bench

# The lecturer's demo runs the reference; in the student copy, the student's code.
DEMO_IMPL = $(or $(IMPL),$(if $(STUDENT_COPY),skeleton,reference))
demo:
	$(require_lab)
	@grep -q '^demo:' $(wildcard labs/lab$(LAB)-*/lab.mk) || { echo "lab $(LAB) has no demo target: run its driver (see its README)" >&2; exit 2; }
	@$(LAB_MAKE) LAB=$(LAB) IMPL=$(DEMO_IMPL) demo

grade:
	$(require_lab)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade LAB=N SUBMISSIONS=DIR [JOBS=n] [OUT=dir] [SLURM=1 [SLURM_OPTS='...']]" >&2; exit 2; }
	autograder/grade $(if $(JOBS),-j $(JOBS)) $(if $(OUT),-o $(OUT)) $(if $(SLURM),--slurm $(if $(SLURM_OPTS),--slurm-opts '$(SLURM_OPTS)')) $(LAB) $(SUBMISSIONS)

similarity:
	@test -n "$(LAB)" && test -n "$(SUBMISSIONS)" || { echo "usage: make similarity LAB=N SUBMISSIONS=DIR [OUT=dir]" >&2; exit 2; }
	autograder/similarity $(if $(OUT),-o $(OUT)) $(LAB) $(SUBMISSIONS)

release:
	autograder/release $(if $(OUT),$(OUT))

test:
	@test -x autograder/selftest/run || { echo "make test is the kit maintainers' own suite, not part of the student copy: make labN && make check tests your code" >&2; exit 2; }
	SELFTEST_JOBS=$(JOBS) autograder/selftest/run

# On a machine with apt: the Debian packages a GPU host without a package
# registry needs (Check, json-c, bubblewrap, pyelftools, GCC 12's offload
# runtime), for autograder/gpu-host/run to unpack there.
gpu-deps-fetch:
	autograder/gpu-host/deps.sh fetch .gpudeps

clean:
	rm -rf build
