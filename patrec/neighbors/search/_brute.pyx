# Exact brute-force k-nearest-neighbour search.
#
# Design
# ------
# Every query is compared with every training sample; what makes it fast is how.
#
# * Selection: each query keeps its k best candidates in a bounded max-heap
#   (_heap.pxd), so choosing the neighbours costs O(log k) only for the few candidates
#   that beat the current k-th best, never a sort or partition of a whole row.  The
#   order is (reduced distance, training index): ties go to the lower index.
#
# * Memory: queries are taken in blocks of `block_queries` rows and the training set
#   in chunks of `block_train` rows; no n_query x n_train matrix ever exists.  The
#   results are written straight into the caller's (n_query, k) output arrays, which
#   double as the heaps.
#
# * `knn_direct` computes every distance with the shared kernels of _distances.pxd.
#   It serves every metric.
#
# * `knn_gemm` (euclidean only) gets a block of distances from one GEMM,
#   |q - t|^2 = |q|^2 + |t|^2 - 2 q.t, from scipy's BLAS (sgemm for float32, dgemm for
#   float64), on data centred at the training mean (translation changes no distance
#   but shrinks the norms, hence the rounding error).  The GEMM itself subtracts the
#   dot products from |t|^2 / 2 (beta = 1 on a block that already holds the half
#   norms), so it hands over |t|^2 / 2 - q.t.  The expansion cancels badly
#   when the distance is small next to the norms, so it is used only as a filter: a
#   candidate is re-checked with the directly computed distance whenever its GEMM
#   value minus a rounding-error bound,
#       slack * (|q|^2 + |t|^2) + floor   with   slack = 8 (n_features + 8) eps,
#                                               floor = 8 (n_features + 8) tiny,
#   does not exceed the current k-th best (eps: the GEMM dtype's unit roundoff,
#   tiny: its smallest normal number).  Why this bound holds: rounding the centred
#   rows to the GEMM dtype moves q - t by at most eps (|q| + |t|); the two norms
#   and the GEMM's value (a sum of n_features + 1 terms: the half norm and the
#   products, added in whatever order the BLAS chooses) each carry at most
#   (n_features + 1) eps times |q|^2 + |t|^2 (Higham's gamma_n bound, since
#   |t|^2 / 2 + sum |q_i t_i| <= |q|^2 + |t|^2); the filter's own operations and the
#   direct distance add a few eps more; the factor 8 leaves room to spare.
#   Underflow (subnormal numbers) breaks relative bounds but its absolute error
#   is far below `floor`.  Overflow is kept out: the
#   Python side never picks a GEMM dtype in which the training norms come near
#   its largest number, and a query whose norm does (far from the training set)
#   is compared directly with every sample.
#   Only directly computed distances enter the heap, so the neighbours and
#   distances are exactly those of `knn_direct`.  For float64 data the filter may
#   run in float32 (sgemm: twice dgemm's speed, half its memory traffic): the bound
#   then uses float32's eps and the re-check stays in float64.
#
# * The filter's cost next to the GEMM's (what _filter_row does).  The test is
#   halved and rearranged so that a query's limit is computed once per change of
#   its k-th best:
#       |t|^2 / 2 - q.t - (slack / 2) |t|^2 <= (k-th + floor - keep |q|^2) / 2
#   with keep = 1 - slack.  A row of the GEMM block is scanned in groups of GROUP
#   candidates by a branch-free loop against the looser limit + (slack / 2) max |t|^2
#   (the chunk's largest norm): one load, one comparison and one blend per
#   candidate, which the compiler vectorises; only a group where something passes
#   is looked at candidate by candidate.  Right after a query's row is scanned, the
#   next chunk's half norms are copied into it (the row is still in the L1 cache),
#   which spares the BLAS a pass of its own that zeroes the block (beta = 0).
#   A looser test lets through more, never fewer, candidates, and its one extra
#   rounding is far inside the factor 8.
#   In a query's first chunk the heap is empty and every improvement of the k-th
#   best so far would be re-checked, about k ln(chunk / k) direct distances: the k
#   candidates with the smallest filter values are taken first instead (re-checked,
#   or deferred as below), so the limit starts near its final value.
#
# * Deferred re-checks (k <= DEFER_MAX_K, from DEFER_MIN_FEATURES features on).  The
#   k-th best keeps improving from chunk to chunk, and re-checking each candidate
#   that beats it at the time costs about k (1 + ln(number of chunks)) direct
#   distances per query, of which only k stay; with many features each one reads a
#   training row from memory.  Instead a candidate that passes the filter gets
#   bounds on its direct distance from the filter's own error bound (see _take)
#   and waits in a list.  The k smallest upper bounds so far bound the final
#   k-th best as a heap of re-checked distances would, up to the error, and the
#   filter's limit uses the lesser of the two.  After the last chunk only the
#   waiting candidates whose lower bound is still within it are re-checked, about
#   k.  A full list is cut to those the bound has not ruled out since, and
#   re-checked at once if that leaves it more than half full (many equal
#   distances).  With few features a re-check costs no more than this bookkeeping:
#   there the filter re-checks at once (the crossover measured: the performance
#   page, "measurements behind the code").
#
# * Blocks: 1 024 queries (the GEMM packs the training chunk once per query block,
#   so fewer, larger query blocks pack less) against as many training rows as keep
#   the block of dot products within about 1 MiB, or 8 MiB from 256 features on,
#   where the GEMM's flops per entry hide the slower cache (_train_block).
#
# Callers (patrec/neighbors/search/brute.py) validate everything first: C-contiguous arrays
# of one dtype, matching feature counts, 1 <= k <= n_train.  Both loops release the
# GIL; the Python side runs ranges of query rows in threads.  Every few milliseconds
# of work they look for Ctrl-C (patrec/_signals.pxd) and stop with KeyboardInterrupt.

from libc.stdlib cimport free, malloc
from libc.string cimport memcpy
from libc.math cimport INFINITY
from libc.float cimport DBL_EPSILON, DBL_MAX, DBL_MIN, FLT_EPSILON, FLT_MAX, FLT_MIN
from scipy.linalg.cython_blas cimport dgemm, sgemm

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._sums cimport sum_of_squares
from patrec._typedefs cimport float32_t, float64_t, floating, intp_t
from patrec.neighbors.search._distances cimport MetricKind, rdist, sqeuclidean_rdist
from patrec.neighbors.search._heap cimport (NO_INDEX, heap_better, heap_init, heap_push,
                                            heap_sort)

cdef enum:
    GROUP = 32  # candidates tested together by the GEMM filter
    QUERY_BLOCK = 1024  # queries per GEMM (see _train_block)
    # re-checks are put off for k up to DEFER_MAX_K from DEFER_MIN_FEATURES on
    DEFER_MAX_K = 128
    DEFER_MIN_FEATURES = 256


cdef struct Deferred:
    # The re-checks one query has put off (see "Deferred re-checks" above).
    double* upper  # heap of the k smallest upper bounds so far; upper[0] the k-th
    intp_t* upper_idx
    double* lower  # the pending candidates' lower bounds
    intp_t* pending  # and their training indices
    intp_t count
    intp_t capacity  # room in lower/pending


cdef struct Chunk:
    # A training chunk as the GEMM filter scans it for the queries of a block: what
    # every offer of one query needs besides the query's own heap (values of the
    # fused types are held as void* / double and read back in their own type,
    # exactly)
    const void* train   # the whole training set (floating), row-major
    intp_t n_features
    intp_t k
    intp_t offset       # the chunk's first training row
    intp_t n_train      # its rows
    const void* norms   # their squared norms |t_j|^2 (gemm_t)
    double norm_max     # the largest of them
    double keep         # the filter's rule (see _filter_row), in gemm_t
    double half_slack
    double floor


cdef inline intp_t _train_block(intp_t block_queries, intp_t n_features,
                                size_t itemsize) noexcept nogil:
    """Training rows per GEMM for a block of queries.

    The GEMM packs its operands before multiplying: the training chunk once per
    query block and the query block once per training chunk, so both blocks should
    be large.  But the filter reads the block of dot products back right after the
    GEMM wrote it, which is fast only while it stays in cache: about 1 MiB when the
    GEMM spends few flops per entry; when it spends many (n_features >= 256) the
    slower cache matters less than larger blocks, 8 MiB (the sizes measured: the
    performance page, "measurements behind the code").
    """
    cdef size_t budget = (8 if n_features >= 256 else 1) << 20
    return max(128, min(8192, <intp_t> (budget // (itemsize * block_queries))))


def knn_direct(int kind, double p, const floating[:, ::1] queries,
               const floating[:, ::1] train, floating[:, ::1] out_dist,
               intp_t[:, ::1] out_idx, intp_t block_queries=16,
               intp_t block_train=512):
    """Fill ``out_dist``/``out_idx`` with the k nearest training rows of each query.

    ``out_dist`` receives reduced distances, best first.
    """
    cdef intp_t n_queries = queries.shape[0], n_train = train.shape[0]
    cdef intp_t n_features = train.shape[1], k = out_idx.shape[1]
    cdef intp_t q0, q1, t0, t1, i, j
    cdef MetricKind metric = <MetricKind> kind
    cdef floating d
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    if n_queries == 0:
        return
    with nogil:
        for i in range(n_queries):
            heap_init(&out_dist[i, 0], &out_idx[i, 0], k)
        q0 = 0
        while q0 < n_queries:
            q1 = min(q0 + block_queries, n_queries)
            t0 = 0
            while t0 < n_train:
                t1 = min(t0 + block_train, n_train)
                for i in range(q0, q1):
                    for j in range(t0, t1):
                        d = rdist(metric, p, &queries[i, 0], &train[j, 0], n_features)
                        if d <= out_dist[i, 0]:
                            heap_push(&out_dist[i, 0], &out_idx[i, 0], k, d, j)
                if stop_after(&watch, (q1 - q0) * (t1 - t0) * n_features):
                    stopped = True
                    break
                t0 = t1
            if stopped:
                break
            for i in range(q0, q1):
                heap_sort(&out_dist[i, 0], &out_idx[i, 0], k)
            q0 = q1
    if stopped:
        raise_interrupt()


ctypedef fused gemm_t:
    # the dtype the GEMM filter runs in (see knn_gemm)
    float32_t
    float64_t


cdef inline void _gemm(gemm_t* a, gemm_t* b, gemm_t* c, int m, int n,
                       int k) noexcept nogil:
    """c (column-major m x n) -= a^T b with a a (k x m) and b a (k x n) column block.

    Called with a = training chunk and b = query block, both row-major with k columns,
    so that c[j + i * m] loses <query i, train j>.  (Updating c, beta = 1, spares the
    BLAS its pass that zeroes c for beta = 0: c already holds |t_j|^2 / 2.)
    """
    cdef char trans_a = b'T', trans_b = b'N'
    cdef gemm_t minus_one = -1, one = 1
    if gemm_t is float32_t:
        sgemm(&trans_a, &trans_b, &m, &n, &k, &minus_one, a, &k, b, &k, &one, c, &m)
    else:
        dgemm(&trans_a, &trans_b, &m, &n, &k, &minus_one, a, &k, b, &k, &one, c, &m)


cdef inline gemm_t _half_norms(const gemm_t* norms, intp_t n,
                               gemm_t* half_norms) noexcept nogil:
    """half_norms[j] = norms[j] / 2; returns the largest norm."""
    cdef intp_t j
    cdef gemm_t largest = 0
    for j in range(n):
        half_norms[j] = norms[j] / 2
        largest = max(largest, norms[j])
    return largest


cdef inline gemm_t _filter_limit(double kth, gemm_t keep, gemm_t query_sqnorm,
                                 double floor) noexcept nogil:
    """Half the most a candidate's keep * (|q|^2 + |t|^2) - 2 q.t may be."""
    return <gemm_t> ((kth + floor - keep * query_sqnorm) / 2)


cdef inline gemm_t _filter_value(const gemm_t* gaps, const gemm_t* norms,
                                 gemm_t half_slack, intp_t j) noexcept nogil:
    """Candidate j's filter value: half of keep |t_j|^2 - 2 q.t_j (see _filter_row)."""
    return gaps[j] - half_slack * norms[j]


cdef inline void _filter_row(const floating* query, const gemm_t* gaps,
                             const Chunk* chunk, floating* kth, intp_t* heap_idx,
                             gemm_t query_sqnorm, gemm_t* best_values,
                             intp_t* best_idx, Deferred* later,
                             intp_t* rechecked) noexcept nogil:
    """Offer one query the candidates of a training chunk that pass the GEMM filter.

    The ``chunk`` is the training set's rows from ``offset`` on; ``gaps[j]`` =
    |t_j|^2 / 2 - q.t_j as the GEMM computed it, ``norms[j]`` = |t_j|^2,
    ``norm_max`` their largest.  Candidate j may enter only if
        keep * (|q|^2 + |t_j|^2) - 2 q.t_j <= k-th best + floor,
    tested halved: its filter value (_filter_value) <= limit, the k-th best being
    the least bound known (_kth_bound).  A group of candidates is first tested at
    once against the looser limit + half_slack norm_max (a branch-free loop on the
    gaps alone), and only a group where some gap passes is looked at candidate by
    candidate; a candidate that passes both tests is taken (_take).

    ``best_values``/``best_idx`` (room for k) are given for the query's first chunk,
    where nothing bounds the k-th best yet: the k candidates with the smallest
    filter values are taken first, so that the limit starts near its final value
    and few others pass (otherwise every improvement of the k-th best so far would
    be taken on the way).  They are skipped in the scan that follows.
    """
    cdef const gemm_t* norms = <const gemm_t*> chunk.norms
    cdef intp_t n_train = chunk.n_train, k = chunk.k
    cdef gemm_t norm_max = <gemm_t> chunk.norm_max, keep = <gemm_t> chunk.keep
    cdef gemm_t half_slack = <gemm_t> chunk.half_slack
    cdef double floor = chunk.floor
    cdef intp_t j = 0, g, group_end, chosen_idx = NO_INDEX
    cdef gemm_t value, chosen_value = -INFINITY
    cdef gemm_t limit, loose
    cdef bint select = best_values != NULL and k < n_train
    if select:
        heap_init(best_values, best_idx, k)
        for g in range(n_train):
            value = _filter_value(gaps, norms, half_slack, g)
            if value <= best_values[0]:
                heap_push(best_values, best_idx, k, value, g)
        for j in range(k):
            g = best_idx[j]
            _take(query, chunk, g, gaps[g], norms[g], query_sqnorm, kth, heap_idx,
                  later, rechecked)
        # the chosen candidates are those up to this one in the heap order
        chosen_value, chosen_idx = best_values[0], best_idx[0]
    limit = _filter_limit(_kth_bound(kth, later), keep, query_sqnorm, floor)
    loose = limit + half_slack * norm_max
    j = 0
    while j < n_train:
        group_end = min(j + GROUP, n_train)
        if _any_at_most(&gaps[j], group_end - j, loose):
            for g in range(j, group_end):
                if gaps[g] > loose:
                    continue
                value = _filter_value(gaps, norms, half_slack, g)
                if value <= limit and heap_better(chosen_value, chosen_idx, value, g):
                    _take(query, chunk, g, gaps[g], norms[g], query_sqnorm, kth,
                          heap_idx, later, rechecked)
                    limit = _filter_limit(_kth_bound(kth, later), keep, query_sqnorm,
                                          floor)
                    loose = limit + half_slack * norm_max
        j = group_end


cdef inline double _kth_bound(const floating* kth, const Deferred* later) noexcept nogil:
    """The least known upper bound on the query's final k-th best distance."""
    if later == NULL:
        return kth[0]
    return min(<double> kth[0], later.upper[0])


cdef inline void _take(const floating* query, const Chunk* chunk, intp_t g,
                       double gap, double train_sqnorm, double query_sqnorm,
                       floating* kth, intp_t* heap_idx, Deferred* later,
                       intp_t* rechecked) noexcept nogil:
    """Re-check candidate g of the chunk (training row ``index`` = offset + g)
    that passed the filter now, or put it off.

    Put off, it gets the bounds  estimate - error  and  estimate + 2 error  on its
    direct distance, with estimate = |q|^2 + 2 gap and error = slack (|q|^2 + |t|^2)
    + floor the filter's own bound (doubled on the upper side, for the roundings of
    this arithmetic), slack = 1 - keep.  ``rechecked`` counts the distances
    computed directly.  A full list is first cut to the candidates the bound has
    not ruled out since, and re-checked whole when that leaves it more than half
    full.
    """
    cdef const floating* train = <const floating*> chunk.train
    cdef intp_t n_features = chunk.n_features, k = chunk.k
    cdef intp_t index = chunk.offset + g
    cdef double slack = 1.0 - chunk.keep, floor = chunk.floor
    cdef double estimate, error
    if later == NULL:
        _recheck(query, train, n_features, index, kth, heap_idx, k, rechecked)
        return
    estimate = query_sqnorm + 2 * gap
    error = slack * (query_sqnorm + train_sqnorm) + floor
    heap_push(later.upper, later.upper_idx, k, estimate + 2 * error, index)
    later.lower[later.count] = estimate - error
    later.pending[later.count] = index
    later.count += 1
    if later.count == later.capacity:
        _settle(query, train, n_features, kth, heap_idx, k, later, False, rechecked)
        if later.count > later.capacity // 2:
            _settle(query, train, n_features, kth, heap_idx, k, later, True,
                    rechecked)


cdef inline void _recheck(const floating* query, const floating* train,
                          intp_t n_features, intp_t index, floating* kth,
                          intp_t* heap_idx, intp_t k, intp_t* rechecked) noexcept nogil:
    """Offer candidate ``index`` with its directly computed distance."""
    heap_push(kth, heap_idx, k,
              sqeuclidean_rdist(query, &train[index * n_features], n_features), index)
    rechecked[0] += 1


cdef inline void _settle(const floating* query, const floating* train,
                         intp_t n_features, floating* kth, intp_t* heap_idx, intp_t k,
                         Deferred* later, bint recheck,
                         intp_t* rechecked) noexcept nogil:
    """Drop the pending candidates the bound rules out; re-check the others when
    ``recheck`` (which empties the list), else keep them pending."""
    cdef intp_t j, kept = 0, index
    for j in range(later.count):
        if later.lower[j] > _kth_bound(kth, later):
            continue
        index = later.pending[j]
        if recheck:
            _recheck(query, train, n_features, index, kth, heap_idx, k, rechecked)
        else:
            later.lower[kept] = later.lower[j]
            later.pending[kept] = index
            kept += 1
    later.count = kept


cdef inline bint _any_at_most(const gemm_t* values, intp_t n,
                              gemm_t limit) noexcept nogil:
    """Is any of the n values at most ``limit``?  (A loop without branches.)

    Written so that compilers vectorise it with plain SSE2: an integer flag OR-ed
    with each comparison for float32 (compare, AND, OR), a float64 flag for
    float64 (an integer flag would mix widths that SSE2 cannot compare).
    """
    cdef intp_t g
    cdef int int_hit = 0
    cdef gemm_t hit = 0
    if gemm_t is float32_t:
        for g in range(n):
            int_hit |= values[g] <= limit
    else:
        for g in range(n):
            hit = 1 if values[g] <= limit else hit
        int_hit = hit != 0
    return int_hit


cdef inline void _direct_block(const floating* query, const floating* train,
                               intp_t n_train, intp_t n_features, intp_t offset,
                               floating* kth, intp_t* heap_idx,
                               intp_t k) noexcept nogil:
    """Offer every sample of a training chunk with its direct distance."""
    cdef intp_t j
    cdef floating d
    for j in range(n_train):
        d = sqeuclidean_rdist(query, &train[j * n_features], n_features)
        if d <= kth[0]:
            heap_push(kth, heap_idx, k, d, offset + j)


def knn_gemm(const floating[:, ::1] queries, const floating[:, ::1] train,
             const gemm_t[:, ::1] train_centered, const gemm_t[::1] train_sqnorms,
             const float64_t[::1] center, floating[:, ::1] out_dist,
             intp_t[:, ::1] out_idx, intp_t block_queries=0,
             intp_t block_train=0, int defer=-1):
    """Squared-euclidean k-NN, GEMM-filtered and exactly re-checked (see above).

    ``train_centered`` is ``train - center`` rounded to the GEMM dtype (float32 or
    float64, the data's own or float32 for float64 data) and ``train_sqnorms`` its
    squared row norms.  ``out_dist`` receives squared distances computed directly
    from ``queries`` and ``train``, best first.  The block shapes (0: chosen) and
    ``defer`` (-1: by the rule above, 0: never, 1: whenever k <= DEFER_MAX_K) only
    change the speed, and exist for the tests.  Returns the number of distances
    computed directly (re-checks and rows compared directly).
    """
    cdef intp_t n_queries = queries.shape[0], n_train = train.shape[0]
    cdef intp_t n_features = train.shape[1], k = out_idx.shape[1]
    cdef intp_t q0, q1, t0, t1, t2, i, f, bq, bt, bt_next, row
    # the unit roundoff of the GEMM dtype sets the error bound
    cdef double eps = FLT_EPSILON / 2 if gemm_t is float32_t else DBL_EPSILON / 2
    cdef double tiny = FLT_MIN if gemm_t is float32_t else DBL_MIN
    cdef gemm_t keep = <gemm_t> (1.0 - 8.0 * (n_features + 8) * eps)
    cdef gemm_t half_slack = <gemm_t> ((1.0 - <double> keep) / 2)
    cdef double floor = 8.0 * (n_features + 8) * tiny
    # a query norm above this could overflow the filter: such rows go direct
    cdef double query_norm_limit = (FLT_MAX if gemm_t is float32_t else DBL_MAX) / 64
    cdef gemm_t* query_block = NULL
    cdef gemm_t* query_sqnorms = NULL
    cdef gemm_t* gaps = NULL  # |t_j|^2 / 2 - q_i.t_j, column-major (bt x bq)
    cdef gemm_t* half_buffer = NULL
    cdef gemm_t* half_norms  # the next chunk's |t_j|^2 / 2
    cdef gemm_t* best_values = NULL  # the first chunk's best filter values
    cdef intp_t* best_idx = NULL
    cdef gemm_t norm_max, norm_max_next = 0
    # the block's deferred re-checks (none for k > DEFER_MAX_K)
    cdef intp_t capacity = 0
    cdef Deferred* deferred = NULL
    cdef double* upper = NULL
    cdef intp_t* upper_idx = NULL
    cdef double* lower = NULL
    cdef intp_t* pending = NULL
    cdef intp_t rechecked = 0
    cdef Chunk chunk
    cdef SignalWatch watch
    cdef bint stopped = False, out_of_memory
    watch.work = 0
    if n_queries == 0:
        return 0
    chunk.train = &train[0, 0]
    chunk.n_features, chunk.k = n_features, k
    chunk.keep, chunk.half_slack, chunk.floor = keep, half_slack, floor
    if defer < 0:
        defer = n_features >= DEFER_MIN_FEATURES
    defer = defer and k <= DEFER_MAX_K
    if defer:
        capacity = 2 * k + 32
    if block_queries <= 0:
        block_queries = QUERY_BLOCK
    block_queries = min(block_queries, n_queries)
    if block_train <= 0:
        block_train = _train_block(block_queries, n_features, sizeof(gemm_t))
    block_train = min(block_train, n_train)
    with nogil:
        query_block = <gemm_t*> malloc(block_queries * n_features * sizeof(gemm_t))
        query_sqnorms = <gemm_t*> malloc(block_queries * sizeof(gemm_t))
        gaps = <gemm_t*> malloc(block_queries * block_train * sizeof(gemm_t))
        half_buffer = <gemm_t*> malloc(2 * block_train * sizeof(gemm_t))
        best_values = <gemm_t*> malloc(k * sizeof(gemm_t))
        best_idx = <intp_t*> malloc(k * sizeof(intp_t))
        if defer:
            deferred = <Deferred*> malloc(block_queries * sizeof(Deferred))
            upper = <double*> malloc(block_queries * k * sizeof(double))
            upper_idx = <intp_t*> malloc(block_queries * k * sizeof(intp_t))
            lower = <double*> malloc(block_queries * capacity * sizeof(double))
            pending = <intp_t*> malloc(block_queries * capacity * sizeof(intp_t))
        out_of_memory = (
            query_block == NULL or query_sqnorms == NULL or gaps == NULL
            or half_buffer == NULL or best_values == NULL or best_idx == NULL
            or (defer and (deferred == NULL or upper == NULL or upper_idx == NULL
                           or lower == NULL or pending == NULL)))
        if not out_of_memory:
            for i in range(n_queries):
                heap_init(&out_dist[i, 0], &out_idx[i, 0], k)
        q0 = 0
        while not out_of_memory and q0 < n_queries:
            q1 = min(q0 + block_queries, n_queries)
            bq = q1 - q0
            # centre the query block exactly as the training set was centred
            for i in range(bq):
                for f in range(n_features):
                    query_block[i * n_features + f] = <gemm_t> (
                        <float64_t> queries[q0 + i, f] - center[f])
                query_sqnorms[i] = <gemm_t> sum_of_squares(&query_block[i * n_features],
                                                           n_features)
                if defer:
                    deferred[i].upper = &upper[i * k]
                    deferred[i].upper_idx = &upper_idx[i * k]
                    deferred[i].lower = &lower[i * capacity]
                    deferred[i].pending = &pending[i * capacity]
                    deferred[i].count = 0
                    deferred[i].capacity = capacity
                    heap_init(deferred[i].upper, deferred[i].upper_idx, k)
            # the GEMM subtracts the dot products from the half norms already in
            # `gaps`: set them for the first chunk (the scan of each chunk sets them
            # for the next one, row by row)
            bt = block_train
            half_norms = half_buffer
            norm_max = _half_norms(&train_sqnorms[0], bt, half_norms)
            for i in range(bq):
                memcpy(&gaps[i * bt], half_norms, bt * sizeof(gemm_t))
            t0 = 0
            while t0 < n_train:
                t1 = t0 + bt
                _gemm(<gemm_t*> &train_centered[t0, 0], query_block, gaps,
                      <int> bt, <int> bq, <int> n_features)
                # the next chunk's half norms, in the other half of the buffer; its
                # rows are no longer than this chunk's, so writing row i of the next
                # chunk's layout overwrites only rows of this one already scanned
                t2 = min(t1 + block_train, n_train)
                bt_next = t2 - t1
                half_norms = half_buffer + (block_train if half_norms == half_buffer
                                            else 0)
                if bt_next > 0:
                    norm_max_next = _half_norms(&train_sqnorms[t1], bt_next, half_norms)
                chunk.offset, chunk.n_train = t0, bt
                chunk.norms, chunk.norm_max = &train_sqnorms[t0], norm_max
                for i in range(bq):
                    row = q0 + i
                    if query_sqnorms[i] <= query_norm_limit:  # (False for NaN too)
                        _filter_row(&queries[row, 0], &gaps[i * bt], &chunk,
                                    &out_dist[row, 0], &out_idx[row, 0],
                                    query_sqnorms[i],
                                    best_values if t0 == 0 else NULL, best_idx,
                                    &deferred[i] if defer else NULL, &rechecked)
                    else:
                        _direct_block(&queries[row, 0], &train[t0, 0], bt,
                                      n_features, t0, &out_dist[row, 0],
                                      &out_idx[row, 0], k)
                        rechecked += bt
                    if bt_next > 0:
                        memcpy(&gaps[i * bt_next], half_norms, bt_next * sizeof(gemm_t))
                if stop_after(&watch, bq * bt * n_features):
                    stopped = True
                    break
                t0, bt, norm_max = t1, bt_next, norm_max_next
            if stopped:
                break
            for i in range(bq):
                row = q0 + i
                if defer:
                    _settle(&queries[row, 0], &train[0, 0], n_features,
                            &out_dist[row, 0], &out_idx[row, 0], k, &deferred[i], True,
                            &rechecked)
                heap_sort(&out_dist[row, 0], &out_idx[row, 0], k)
            q0 = q1
        free(query_block)
        free(query_sqnorms)
        free(gaps)
        free(half_buffer)
        free(best_values)
        free(best_idx)
        free(deferred)
        free(upper)
        free(upper_idx)
        free(lower)
        free(pending)
    if out_of_memory:
        raise MemoryError()
    if stopped:
        raise_interrupt()
    return rechecked
