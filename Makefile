# The kit's one entry point. `make help` lists the targets (in the
# student copy, those that work there).

include common/mk/config.mk

LAB_DIRS := $(sort $(wildcard labs/lab[0-9]*-*))
LAB_NUMS := $(foreach d,$(LAB_DIRS),$(patsubst lab%,%,$(firstword $(subst -, ,$(notdir $(d))))))
LAB_TARGETS := $(addprefix lab,$(LAB_NUMS))
LAST_LAB := build/last-lab
# make check and make bench act on LAB=N, or on the lab built last.
LAB ?= $(shell cat $(LAST_LAB) 2>/dev/null)

LAB_MAKE = $(MAKE) --no-print-directory -f common/mk/lab.mk

.PHONY: help deps $(LAB_TARGETS) check test bench demo timeline grade export similarity release clean gpu-deps-fetch image
.PHONY: standing history nickname

# The student copy has no reference solutions: there help names only what
# works in it.
STUDENT_COPY := $(if $(wildcard labs/*/solution),,1)

help:
	@echo "Targets:"
	@echo "  make deps                       install the Debian packages students use (root or sudo)"
ifeq ($(STUDENT_COPY),)
	@echo "  make deps ROLE=instructor|maintainer   ... and those of grading (instructor) or of make test too (maintainer)"
endif
	@echo "  make labN                       build lab N from your files in labs/labN-*/ (N: $(LAB_NUMS))"
ifeq ($(STUDENT_COPY),)
	@echo "  make labN IMPL=reference        ... from the reference solution"
endif
	@echo "  make labN SUBMISSION=DIR        ... from a folder holding only the student's files"
	@echo "  make check [LAB=N]              run the tests of the lab built last (RESULTS=file.json for Gradescope JSON)"
	@echo "  make check SCHED=slurm|lsf      ... on a GPU node of a cluster, through its scheduler (SCHED_OPTS='-p gpu -t 20')"
	@echo "  make standing LAB=N             the class standing of lab N from the runs recorded on the cluster (course.conf)"
	@echo "  make history LAB=N              your own recorded runs of lab N: points, figures, code hash"
	@echo "  make nickname NAME=...          the name the class standing shows for your next runs"
ifeq ($(STUDENT_COPY),)
	@echo "  make bench LAB=N [IMPL=...]     benchmark: CSV and PNG plot under build/bench/labN/"
	@echo "  make demo LAB=N                 the lecturer's demo: the reference's one picture of the lab's lesson and its page"
	@echo "                                  for the projector, build/demo/labN/index.html (SCHED=slurm|lsf: on a GPU node)"
	@echo "  make timeline LAB=4|5|6         the timeline of your code's ranks: kernels, copies, MPI calls (build/timeline/labN/)"
	@echo "  make grade LAB=N SUBMISSIONS=DIR [JOBS=1]   grade a class's submissions (instructors; JOBS>1 with NO_PERF=1)"
	@echo "  make similarity LAB=N SUBMISSIONS=DIR   pairs of submissions unusually alike: HTML and CSV (instructors)"
	@echo "  make export LAB=N FORMAT=canvas|moodle|csv   the LMS's grade-import CSV of a graded lab (instructors;"
	@echo "                                  PARTIAL=awarded|scaled: a CPU-only grading; HOLD=id,id: grades held for review)"
	@echo "  make release                    the student copy: no reference, hidden tests or mutants"
	@echo "  make image [IMAGE_OUT=DIR]      the students' environment as an OCI image for a cluster (Apptainer, Podman): build/image/kit.oci.tar"
	@echo "  make test [JOBS=n]              the kit's own test suite (what CI runs), n runs at once (default: the cores)"
	@echo "  make gpu-deps-fetch             stage in .gpudeps/ the Debian packages a GPU host lacks (then autograder/gpu-host/run there)"
else
	@echo "  make bench LAB=N [BENCH_QUICK=1]   benchmark your code: CSV and PNG plot under build/bench/labN/"
	@echo "  make demo LAB=N                 your code's run with its picture and page, build/demo/labN/index.html"
	@echo "  make timeline LAB=4|5|6         the timeline of your code's ranks: kernels, copies, MPI calls (build/timeline/labN/)"
endif
	@echo "  make clean                      remove build/"

# The students' packages by default (none starts a service); ROLE=instructor
# or maintainer adds those of grading and of the self-test
# (common/mk/debian-packages.txt marks each package's role).
ROLE ?= student
deps:
	$(if $(and $(STUDENT_COPY),$(filter-out student,$(ROLE))),$(error make deps ROLE=$(ROLE) is for the course's instructors and the kit's maintainers; your copy needs only make deps))
	common/mk/deps install $(ROLE)

$(LAB_TARGETS): lab%:
	@$(LAB_MAKE) LAB=$* all
	@echo $* > $(LAST_LAB)

require_lab = $(if $(LAB),,$(error no lab built yet: run 'make labN' first, or name one with LAB=N))

# SCHED=slurm|lsf: the tests (or the benchmark) run on a compute node
# through the scheduler, SCHED_OPTS its options (autograder/sched/submit).
check:
	$(require_lab)
	@$(if $(SCHED),SCHED_OPTS='$(SCHED_OPTS)' autograder/sched/submit $(SCHED) check $(LAB) $(if $(RESULTS),RESULTS=$(abspath $(RESULTS))),$(LAB_MAKE) LAB=$(LAB) check)

# The class standing (autograder/standing/): the records make check
# SCHED=... writes where course.conf sets a spool.
STANDING = PYTHONPATH=autograder$${PYTHONPATH:+:$$PYTHONPATH} python3 -m standing
standing history:
	$(require_lab)
	@$(STANDING) $@ $(LAB)

# NAME reaches the shell through the environment: any quote in it stays
# a character of the name, which the standing then judges.
nickname: export KIT_NICKNAME = $(NAME)
nickname:
	@test -n "$$KIT_NICKNAME" || { echo "usage: make nickname NAME=your-board-name" >&2; exit 2; }
	@$(STANDING) nickname "$$KIT_NICKNAME"

bench:
	$(require_lab)
	@$(if $(SCHED),SCHED_OPTS='$(SCHED_OPTS)' autograder/sched/submit $(SCHED) bench $(LAB),$(LAB_MAKE) LAB=$(LAB) bench)

# The lecturer's demo runs the reference; in the student copy, the student's
# code (labs/labN-*/demo.sh; its last line names the page it wrote).
# make timeline runs the same of the student's own code, labs 4 to 6.
# SCHED=slurm|lsf: on a compute node (autograder/sched/submit).
DEMO_IMPL = $(or $(IMPL),$(if $(STUDENT_COPY),skeleton,reference))
demo:
	$(require_lab)
	@test -x $(wildcard labs/lab$(LAB)-*)/demo.sh || { echo "lab $(LAB) has no demo.sh" >&2; exit 2; }
	@$(if $(SCHED),SCHED_OPTS='$(SCHED_OPTS)' autograder/sched/submit $(SCHED) demo $(LAB) IMPL=$(DEMO_IMPL),$(LAB_MAKE) LAB=$(LAB) IMPL=$(DEMO_IMPL) demo)

timeline:
	$(require_lab)
	@case "$(LAB)" in 4|5|6) ;; *) echo "make timeline: labs 4, 5 and 6 have one (their ranks' kernels, copies and MPI calls), lab $(LAB) has none" >&2; exit 2 ;; esac
	@$(if $(SCHED),SCHED_OPTS='$(SCHED_OPTS)' autograder/sched/submit $(SCHED) timeline $(LAB) IMPL=$(or $(IMPL),skeleton),$(LAB_MAKE) LAB=$(LAB) IMPL=$(or $(IMPL),skeleton) DEMO_MODE=timeline demo)

# The instructors' and maintainers' targets; in the student copy each
# answers in one line (their tools are not in it).
INSTRUCTOR_TARGETS := grade export similarity release test gpu-deps-fetch image
ifeq ($(STUDENT_COPY),)
grade:
	$(require_lab)
	@common/mk/deps need instructor 'make grade'
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade LAB=N SUBMISSIONS=DIR [JOBS=n] [OUT=dir] [ONLY=id,id FORCE=1] [NO_PERF=1] [CPU_ONLY=1|0] [ROSTER=csv] [DEADLINE=iso LATE_PER_DAY=% LATE_CAP=%] [MANUAL=csv] [HOLD=id,id|none] [LEADERBOARD=0] [SLURM=1 [SLURM_OPTS='...']]" >&2; exit 2; }
	instructor/grade $(if $(JOBS),-j $(JOBS)) $(if $(OUT),-o $(OUT)) $(if $(ONLY),--only '$(ONLY)') $(if $(FORCE),--force) \
	  $(if $(NO_PERF),--no-perf) $(if $(filter 1,$(CPU_ONLY)),--cpu-only)$(if $(filter 0,$(CPU_ONLY)),--no-cpu-only) $(if $(ROSTER),--roster '$(ROSTER)') \
	  $(if $(DEADLINE),--deadline '$(DEADLINE)') $(if $(LATE_PER_DAY),--late-per-day $(LATE_PER_DAY)) \
	  $(if $(LATE_CAP),--late-cap $(LATE_CAP)) $(if $(MANUAL),--manual '$(MANUAL)') $(if $(HOLD),--hold '$(HOLD)') $(if $(filter 0,$(LEADERBOARD)),--no-leaderboard) \
	  $(if $(SLURM),--slurm $(if $(SLURM_OPTS),--slurm-opts '$(SLURM_OPTS)')) $(LAB) $(SUBMISSIONS)

# The LMS's grade-import CSV of a graded lab.
export:
	@test -n "$(LAB)" && test -n "$(FORMAT)" || { echo "usage: make export LAB=N FORMAT=canvas|moodle|csv [OUT=dir] [ASSIGNMENT='Lab 2 (4711)'] [PARTIAL=awarded|scaled] [HOLD=id,id|none]" >&2; exit 2; }
	instructor/export $(if $(OUT),-o $(OUT)) $(if $(ASSIGNMENT),--assignment '$(ASSIGNMENT)') $(if $(PARTIAL),--partial '$(PARTIAL)') $(if $(HOLD),--hold '$(HOLD)') $(LAB) $(FORMAT)

similarity:
	@common/mk/deps need instructor 'make similarity'
	@test -n "$(LAB)" && test -n "$(SUBMISSIONS)" || { echo "usage: make similarity LAB=N SUBMISSIONS=DIR [ROSTER=csv] [OUT=dir] [GRADES=dir] [BASE='file ...'] [KEEP=term] [ARCHIVE=dir]" >&2; exit 2; }
	instructor/similarity $(if $(OUT),-o $(OUT)) $(if $(GRADES),--grades '$(GRADES)') $(if $(ROSTER),--roster $(ROSTER)) $(foreach b,$(BASE),--base '$(b)') \
	  $(if $(KEEP),--keep '$(KEEP)') $(if $(ARCHIVE),--archive '$(ARCHIVE)') $(LAB) $(SUBMISSIONS)

release:
	instructor/release $(if $(OUT),$(OUT))

# The students' environment from Debian's registry, for clusters without root
# or Debian (the course's image; KIT_IMAGE in course.conf runs make check
# SCHED=... in it).
image:
	@common/mk/deps need instructor 'make image'
	instructor/image/build $(if $(IMAGE_OUT),$(IMAGE_OUT))

# The self-test's packages (Slurm, a browser, shellcheck) are the
# maintainers': installed here on first need as root, named otherwise.
test:
	@common/mk/deps need maintainer 'make test'
	SELFTEST_JOBS=$(JOBS) maintainer/selftest/run_all

# On a machine with apt: the Debian packages a GPU host without a package
# registry needs (Check, json-c, bubblewrap, pyelftools, GCC 12's offload
# runtime), for autograder/gpu-host/run to unpack there. GPU_DEPS=demos:
# the demos' set instead (gnuplot, no offload compilers) in .gpudeps-demos.
gpu-deps-fetch:
	autograder/gpu-host/deps.sh fetch $(if $(filter demos,$(GPU_DEPS)),.gpudeps-demos demos,.gpudeps)
else
$(INSTRUCTOR_TARGETS):
	$(error make $@ is for the course's instructors and the kit's maintainers, not part of your copy; make help lists yours)
endif

clean:
	rm -rf build
