# The MPI checker programs' layer (autograder/mpi_checker/mpi_checker.h): a lab's
# checker program adds these to its <driver>_SRCS and <driver>_LDFLAGS.
# Included by common/mk/lab.mk before the lab's lab.mk.
# (hints.c: the checkers' hints, as the tests give them: autograder/runner/hints.h)
CHECKER_SRCS := autograder/mpi_checker/completion.c autograder/runner/hints.c
CHECKER_MPI_SRCS := $(CHECKER_SRCS) autograder/mpi_checker/mpi_guard.c autograder/mpi_checker/mpi_chaos.c autograder/mpi_checker/watchdog.c autograder/mpi_checker/stuck.c
# The calls mpi_guard.c wraps: each reference to MPI_X goes to __wrap_MPI_X;
# and PMPI_Send, PMPI_Isend, which mpi_chaos.c wraps where a lab's own PMPI
# layer calls them (a send that chaos makes synchronous).
CHECKER_WRAPPED := MPI_Send MPI_Ssend MPI_Recv MPI_Sendrecv MPI_Probe MPI_Iprobe MPI_Isend MPI_Issend MPI_Irecv \
    MPI_Request_free MPI_Wait MPI_Waitall MPI_Waitany MPI_Waitsome MPI_Test MPI_Testall MPI_Testany \
    MPI_Testsome MPI_Barrier MPI_Bcast MPI_Reduce MPI_Allreduce MPI_Gather MPI_Gatherv MPI_Scatterv \
    MPI_Allgather MPI_Alltoall MPI_Alltoallv MPI_Finalize PMPI_Send PMPI_Isend
CHECKER_MPI_LDFLAGS := $(foreach f,$(CHECKER_WRAPPED),-Wl,--wrap=$(f)) -lrt -pthread
