# The student's .cu objects through a cache (included by lab.mk after its
# pattern rule, which these per-file rules override).
#
# nvcc takes seconds a file, and the kit's self-test builds a lab many times
# and the bench-refusal suite three times, most of them with .cu files that
# did not change: an object is reused when the source, every header it may
# include (the lab's and common's) and the command line are the same (keyed
# by their SHA-1; a cache that cannot be written is only not used, and an
# object enters it by a rename, so parallel builds never read half of one).
# CU_CACHE= (empty) turns it off. A failed compile fails the build and
# leaves neither an object nor a cache entry: only the cache's own writing
# may fail quietly, never nvcc.
CU_CACHE ?= build/cu-cache

ifneq ($(CU_CACHE),)
define cached_cu_rule
$(BUILD)/student/$(1).o: $(BUILD)/student/$(1).cu $(CUDA_STAMP)
	@key=$$$$( { echo '$$(NVCC) $$(STUDENT_NVCCFLAGS)'; cat $$< $$(wildcard $(LAB_DIR)/*.h common/*.h common/*/*.h); } | sha1sum | cut -c1-20); \
	if cp "$(CU_CACHE)/$(1)-$$$$key.o" $$@ 2>/dev/null; then echo "nvcc $(1).cu: unchanged, object reused"; \
	else echo "$$(NVCC) $$(STUDENT_NVCCFLAGS) -c $$< -o $$@"; \
	$$(COMPILER_LAUNCHER) $$(NVCC) $$(STUDENT_NVCCFLAGS) -c $$< -o $$@ || { rm -f $$@; exit 1; }; \
	{ mkdir -p $(CU_CACHE) && cp $$@ "$(CU_CACHE)/$(1)-$$$$key.o.tmp$$$$$$$$" && mv "$(CU_CACHE)/$(1)-$$$$key.o.tmp$$$$$$$$" "$(CU_CACHE)/$(1)-$$$$key.o"; } 2>/dev/null || true; fi
endef
$(foreach f,$(basename $(filter %.cu,$(STUDENT_FILES))),$(eval $(call cached_cu_rule,$(f))))
endif
