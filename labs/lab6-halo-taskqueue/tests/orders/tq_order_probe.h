/* Lab 6: the memory orders of the student's taskqueue.c, as written.
 *
 * Included before taskqueue.c (gcc -include) when the kit builds
 * lab6_tq_orders. Every C11 atomic of <stdatomic.h> (atomic_*_explicit,
 * atomic_*, atomic_thread_fence) is a macro over GCC's __atomic_ builtins,
 * which take the memory order as an argument; each builtin is redefined
 * here to log its address, kind and order (tq_probe_note) and then run as
 * written (a macro does not expand inside its own expansion). x86 runs a
 * relaxed store exactly as a release store, and ThreadSanitizer cannot see
 * a lock taken with a relaxed compare-and-swap; the log shows the order
 * the code asked for, whatever the machine does with it. */
#ifndef KIT_LAB6_TQ_ORDER_PROBE_H
#define KIT_LAB6_TQ_ORDER_PROBE_H

#include <stdatomic.h>

typedef enum { TQP_LOAD, TQP_STORE, TQP_RMW, TQP_CAS_OK, TQP_CAS_FAILED, TQP_FENCE } tq_probe_kind;

/* Logs one operation (addr NULL for a fence); returns 0. */
int tq_probe_note(const volatile void *addr, tq_probe_kind kind, int order);

#define __atomic_load(P, R, MO) (tq_probe_note((P), TQP_LOAD, (MO)), __atomic_load((P), (R), (MO)))
#define __atomic_load_n(P, MO) (tq_probe_note((P), TQP_LOAD, (MO)), __atomic_load_n((P), (MO)))
#define __atomic_store(P, V, MO) (tq_probe_note((P), TQP_STORE, (MO)), __atomic_store((P), (V), (MO)))
#define __atomic_store_n(P, V, MO) (tq_probe_note((P), TQP_STORE, (MO)), __atomic_store_n((P), (V), (MO)))
#define __atomic_exchange(P, V, R, MO) (tq_probe_note((P), TQP_RMW, (MO)), __atomic_exchange((P), (V), (R), (MO)))
#define __atomic_exchange_n(P, V, MO) (tq_probe_note((P), TQP_RMW, (MO)), __atomic_exchange_n((P), (V), (MO)))
#define TQP_CAS(call, P, S, F)                                                                  \
    __extension__({                                                                             \
        _Bool tqp_ok_ = (call);                                                                 \
        tq_probe_note((P), tqp_ok_ ? TQP_CAS_OK : TQP_CAS_FAILED, tqp_ok_ ? (int)(S) : (int)(F)); \
        tqp_ok_;                                                                                \
    })
#define __atomic_compare_exchange(P, E, D, W, S, F) TQP_CAS(__atomic_compare_exchange((P), (E), (D), (W), (S), (F)), P, S, F)
#define __atomic_compare_exchange_n(P, E, D, W, S, F) \
    TQP_CAS(__atomic_compare_exchange_n((P), (E), (D), (W), (S), (F)), P, S, F)
#define TQP_RMW(name, P, V, MO) (tq_probe_note((P), TQP_RMW, (MO)), name((P), (V), (MO)))
#define __atomic_fetch_add(P, V, MO) TQP_RMW(__atomic_fetch_add, P, V, MO)
#define __atomic_fetch_sub(P, V, MO) TQP_RMW(__atomic_fetch_sub, P, V, MO)
#define __atomic_fetch_and(P, V, MO) TQP_RMW(__atomic_fetch_and, P, V, MO)
#define __atomic_fetch_or(P, V, MO) TQP_RMW(__atomic_fetch_or, P, V, MO)
#define __atomic_fetch_xor(P, V, MO) TQP_RMW(__atomic_fetch_xor, P, V, MO)
#define __atomic_add_fetch(P, V, MO) TQP_RMW(__atomic_add_fetch, P, V, MO)
#define __atomic_sub_fetch(P, V, MO) TQP_RMW(__atomic_sub_fetch, P, V, MO)
#define __atomic_and_fetch(P, V, MO) TQP_RMW(__atomic_and_fetch, P, V, MO)
#define __atomic_or_fetch(P, V, MO) TQP_RMW(__atomic_or_fetch, P, V, MO)
#define __atomic_xor_fetch(P, V, MO) TQP_RMW(__atomic_xor_fetch, P, V, MO)
#define __atomic_thread_fence(MO) (tq_probe_note(0, TQP_FENCE, (MO)), __atomic_thread_fence(MO))

#endif
