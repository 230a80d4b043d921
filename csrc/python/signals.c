/*
 * signals.c -- Ctrl-C for the core's long loops.  The core calls nc_poll.stop now and then
 * with the GIL released; every 20 ms of wall time this takes the GIL, runs the pending signal
 * handlers (SIGINT raises KeyboardInterrupt in the main thread) and asks the core to stop if a
 * handler raised.  Between checks a poll costs one clock read.
 */
#include "bindings.h"

#include <time.h>

#define CHECK_EVERY_NS 20000000LL

static long long now_ns(void)
{
#if defined(_WIN32)
    return (long long)clock() * (1000000000LL / CLOCKS_PER_SEC);
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
#endif
}

static _Thread_local long long next_check_ns;

static int stop_on_signal(void *ctx)
{
    (void)ctx;
    long long now = now_ns();
    if (now < next_check_ns)
        return 0;
    next_check_ns = now + CHECK_EVERY_NS;
    PyGILState_STATE state = PyGILState_Ensure();
    int raised = PyErr_CheckSignals() < 0;
    PyGILState_Release(state);
    return raised;
}

nc_poll nb_signal_poll(void)
{
    next_check_ns = now_ns() + CHECK_EVERY_NS;
    nc_poll poll = {stop_on_signal, NULL};
    return poll;
}

PyObject *nb_status_error(int status)
{
    if (PyErr_Occurred())
        return NULL;
    switch (status) {
    case NC_NOMEM: return PyErr_NoMemory();
    case NC_STOPPED: PyErr_SetNone(PyExc_KeyboardInterrupt); return NULL;
    default: PyErr_SetString(PyExc_ValueError, "invalid arguments"); return NULL;
    }
}
