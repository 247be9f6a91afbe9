/* A timeline callback that calls back into its own engine (C99 + pthreads).
 * The engine emits its events while it holds its internal lock; the C ABI
 * must deliver them to the host on a thread of its own, so that a callback
 * may ask for the engine's statistics, poll and cancel jobs, submit a job,
 * and even destroy the engine. Each scenario runs on a thread of its own,
 * watched: one that has not finished after 60 s (a deadlock) fails the test
 * instead of hanging it. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <time.h>

#include "capi_test_util.h"

enum { big_parts = 256 }; /* enough partitions that a job is still running when the callback cancels it */

/* The small circuit's witness (x = 5, y = 7), repeated as `n` partitions. */
struct witness {
    uint8_t in[64], aux[128];
    cuzk_partition p[big_parts];
};

static void make_witness(struct witness* w)
{
    size_t i;
    small_witness(w->in, w->aux, 5, 7);
    for (i = 0; i < big_parts; ++i) {
        CHECK(cuzk_partition_init(&w->p[i]) == CUZK_OK);
        w->p[i].inputs = w->in;
        w->p[i].num_inputs = 2;
        w->p[i].aux = w->aux;
        w->p[i].num_aux = 4;
    }
}

/* What a scenario shares with its callback. */
struct ctx {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    cuzk_engine* eng;
    uint32_t key;
    struct witness* w;
    cuzk_job* job;          /* published by the scenario once submitted */
    cuzk_job* inner;        /* submitted by the callback */
    int destroy_in_callback;
    int cancelled, destroyed, destroying, destroy_returned;
    long events, on_host_thread, after_destroy, other_thread, bad;
    long inner_done;        /* JOB_DONE events of the inner job */
    pthread_t host, first;  /* the scenario's thread; the first callback's thread */
    int have_first;
};

static void ctx_init(struct ctx* c, struct witness* w, int destroy_in_callback)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    c->w = w;
    c->destroy_in_callback = destroy_in_callback;
    c->host = pthread_self();
}

/* Waits (at most 30 s) until the scenario has published its job; NULL if never. */
static cuzk_job* published_job(struct ctx* c)
{
    struct timespec until;
    cuzk_job* j;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 30;
    pthread_mutex_lock(&c->mu);
    while (!c->job && pthread_cond_timedwait(&c->cv, &c->mu, &until) == 0) {
    }
    j = c->job;
    pthread_mutex_unlock(&c->mu);
    return j;
}

/* Counts the event and checks the thread it arrived on. */
static void note_event(struct ctx* c, const cuzk_event* ev)
{
    pthread_mutex_lock(&c->mu);
    ++c->events;
    if (c->destroy_returned) ++c->after_destroy;
    if (pthread_equal(pthread_self(), c->host)) ++c->on_host_thread;
    if (!c->have_first) {
        c->first = pthread_self();
        c->have_first = 1;
    } else if (!pthread_equal(pthread_self(), c->first)) {
        ++c->other_thread;
    }
    if (c->inner && strcmp(ev->name, "JOB_DONE") == 0 && strcmp(ev->job, cuzk_job_id(c->inner)) == 0)
        ++c->inner_done;
    pthread_mutex_unlock(&c->mu);
}

/* Once: cancel the scenario's job, then submit a one-partition job, or
 * destroy the engine. */
static void act_once(struct ctx* c, cuzk_job* job)
{
    int32_t ended = -1, st = -1;
    int bad = 0;
    cuzk_job* inner = NULL;
    if (c->cancelled) return;
    if (cuzk_job_poll(&st, job) != CUZK_OK) ++bad;
    if (cuzk_job_cancel(&ended, job) != CUZK_OK || ended != 1) ++bad;
    if (c->destroy_in_callback) cuzk_engine_destroy(c->eng);
    else if (cuzk_engine_submit(&inner, c->eng, c->key, c->w->p, 1, NULL) != CUZK_OK) ++bad;
    pthread_mutex_lock(&c->mu);
    c->cancelled = 1;
    c->bad += bad;
    c->inner = inner;
    if (c->destroy_in_callback) c->destroyed = c->destroy_returned = 1;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

static void on_event(void* user_data, const cuzk_event* ev)
{
    struct ctx* c = (struct ctx*)user_data;
    cuzk_engine_stats s;
    cuzk_job* job;
    cuzk_status st;
    int bad;
    note_event(c, ev);
    if (c->destroyed) return; /* the engine handle is gone (only this thread writes it) */
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    st = cuzk_engine_stats_get(&s, c->eng);
    pthread_mutex_lock(&c->mu);
    /* While the scenario destroys the engine, the events still queued are
     * delivered, and the handle is already invalid. */
    bad = st == CUZK_OK ? s.jobs_submitted < 1 : !(st == CUZK_ERR_INVALID_HANDLE && c->destroying);
    pthread_mutex_unlock(&c->mu);
    job = published_job(c);
    if (bad || !job) {
        pthread_mutex_lock(&c->mu);
        ++c->bad;
        pthread_mutex_unlock(&c->mu);
        return;
    }
    act_once(c, job);
}

/* ---- the scenarios -------------------------------------------------------------------------- */
struct scenario {
    cuzk_key* key;
    cuzk_pce* pce;
    int destroy_in_callback;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int finished;
};

/* Makes the engine with the callback, adds the key and submits the big job,
 * published to the callback through c->job. */
static cuzk_job* start_scenario(struct scenario* sc_, struct ctx* c, struct witness* w)
{
    cuzk_timeline_callbacks cb;
    cuzk_engine_options o;
    cuzk_job* job = NULL;
    make_witness(w);
    ctx_init(c, w, sc_->destroy_in_callback);
    CHECK(cuzk_timeline_callbacks_init(&cb) == CUZK_OK);
    cb.user_data = c;
    cb.on_event = on_event;
    CHECK(cuzk_engine_options_init(&o) == CUZK_OK);
    o.timeline_callbacks = &cb;
    CHECK_CREATE(CUZK_OK, cuzk_engine_create(&c->eng, &o, err, sizeof err));
    CHECK_STATUS(CUZK_OK, cuzk_engine_add_key(&c->key, c->eng, sc_->key, sc_->pce, "small", 0), cuzk_engine_last_error,
                 c->eng);
    CHECK_STATUS(CUZK_OK, cuzk_engine_submit(&job, c->eng, c->key, w->p, big_parts, NULL), cuzk_engine_last_error,
                 c->eng);
    pthread_mutex_lock(&c->mu);
    c->job = job;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    return job;
}

/* The callback submitted a job: it completes, and destroying the engine
 * delivers every event emitted before it returns. */
static void finish_with_inner_job(struct ctx* c)
{
    cuzk_job* inner;
    cuzk_status st = CUZK_OK;
    int32_t failed = -2;
    pthread_mutex_lock(&c->mu);
    while (!c->cancelled) pthread_cond_wait(&c->cv, &c->mu); /* the callback has submitted its job */
    inner = c->inner;
    pthread_mutex_unlock(&c->mu);
    CHECK(inner != NULL);
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(inner, -1), cuzk_job_last_error, inner);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&st, &failed, inner), cuzk_job_last_error, inner);
    CHECK(st == CUZK_OK);
    pthread_mutex_lock(&c->mu);
    c->destroying = 1;
    pthread_mutex_unlock(&c->mu);
    cuzk_engine_destroy(c->eng);
    pthread_mutex_lock(&c->mu);
    c->destroy_returned = 1;
    CHECK(c->inner_done == 1);
    pthread_mutex_unlock(&c->mu);
    cuzk_job_destroy(inner);
}

/* The callback destroyed the engine: the handle is invalid. */
static void finish_destroyed(struct ctx* c)
{
    cuzk_engine_stats s;
    pthread_mutex_lock(&c->mu);
    while (!c->destroyed) pthread_cond_wait(&c->cv, &c->mu);
    pthread_mutex_unlock(&c->mu);
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    CHECK(cuzk_engine_stats_get(&s, c->eng) == CUZK_ERR_INVALID_HANDLE);
    CHECK(strstr(LAST_ERROR(cuzk_engine_last_error, c->eng), "not a live cuzk_engine") != NULL);
    cuzk_engine_destroy(c->eng); /* a destroyed handle: nothing happens */
}

static void run_scenario(struct scenario* sc_)
{
    static struct witness w;
    struct ctx c;
    cuzk_job* job = start_scenario(sc_, &c, &w);
    cuzk_status st = CUZK_OK;
    int32_t failed = -2;
    /* The callback cancelled the job (at its first event). */
    CHECK_STATUS(CUZK_OK, cuzk_job_wait(job, -1), cuzk_job_last_error, job);
    CHECK_STATUS(CUZK_OK, cuzk_job_status(&st, &failed, job), cuzk_job_last_error, job);
    CHECK(st == CUZK_ERR_CANCELLED);
    if (!sc_->destroy_in_callback) finish_with_inner_job(&c);
    else finish_destroyed(&c);
    pthread_mutex_lock(&c.mu);
    CHECK(c.cancelled == 1);
    CHECK(c.events >= 1);
    CHECK(c.bad == 0);
    CHECK(c.on_host_thread == 0); /* never on the thread calling into the engine */
    CHECK(c.other_thread == 0);   /* always the same (delivery) thread */
    CHECK(c.after_destroy == 0);
    pthread_mutex_unlock(&c.mu);
    cuzk_job_destroy(job);
}

static void* scenario_thread(void* arg)
{
    struct scenario* s = (struct scenario*)arg;
    run_scenario(s);
    pthread_mutex_lock(&s->mu);
    s->finished = 1;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Runs one scenario on a thread; a scenario still running after 60 s is a deadlock. */
static void watched(cuzk_key* key, cuzk_pce* pce, int destroy_in_callback, const char* name)
{
    struct scenario s;
    struct timespec until;
    pthread_t t;
    int rc = 0;
    CASE(name);
    memset(&s, 0, sizeof s);
    s.key = key;
    s.pce = pce;
    s.destroy_in_callback = destroy_in_callback;
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    CHECK(pthread_create(&t, NULL, scenario_thread, &s) == 0);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 60;
    pthread_mutex_lock(&s.mu);
    while (!s.finished && rc == 0) rc = pthread_cond_timedwait(&s.cv, &s.mu, &until);
    if (!s.finished) {
        fprintf(stderr, "scenario '%s' has not finished after 60 s: the timeline callback deadlocked\n", name);
        fflush(stderr);
        _Exit(1); /* the stuck threads cannot be joined */
    }
    pthread_mutex_unlock(&s.mu);
    CHECK(pthread_join(t, NULL) == 0);
    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
}

static void case_calls_back(cuzk_key* key, cuzk_pce* pce)
{
    watched(key, pce, 0, "stats, poll, cancel and submit from the callback");
}

static void case_destroys(cuzk_key* key, cuzk_pce* pce)
{
    watched(key, pce, 1, "destroy the engine from its callback");
}

int main(void)
{
    cuzk_pce* pce = record_small_circuit();
    cuzk_key* key = NULL;
    CHECK_CREATE(CUZK_OK, cuzk_key_setup_dev(&key, pce, CUZK_CONVENTION_BELLPERSON, 1, err, sizeof err));
    case_calls_back(key, pce);
    case_destroys(key, pce);
    cuzk_key_destroy(key);
    cuzk_pce_destroy(pce);
    return g_checks < 20;
}
