/* Questions that must be asked outside the runner's own process: the runner
 * forks every test, and neither the CUDA driver nor an OpenMP offload
 * runtime survives a fork once started. Internal to the grader. */
#ifndef KIT_GRADER_CHILD_PROBE_H
#define KIT_GRADER_CHILD_PROBE_H

/* Runs ask(reason, len) in a child process (under a 60 s alarm) and returns
 * its answer, with the reason it wrote; `what` names the question in the
 * reason when the child fails. */
int ag_ask_child(int (*ask)(char *, int), const char *what, char *reason, int len);

/* How many GPUs there are, and why not more (common/gpu.h, in a child). */
int ag_probe_gpus(char *reason, int len);

#endif
