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
#   but shrinks the norms, hence the rounding error).  The expansion cancels badly
#   when the distance is small next to the norms, so it is used only as a filter: a
#   candidate is re-checked with the directly computed distance whenever its GEMM
#   value minus a rounding-error bound,
#       slack * (|q|^2 + |t|^2) + floor   with   slack = 8 (n_features + 8) eps,
#                                               floor = 8 (n_features + 8) tiny,
#   does not exceed the current k-th best (eps: the GEMM dtype's unit roundoff,
#   tiny: its smallest normal number).  Why this bound holds: rounding the centred
#   rows to the GEMM dtype moves q - t by at most eps (|q| + |t|); the two norms
#   and the dot product each carry at most n_features eps times |q|^2 + |t|^2
#   (Higham's gamma_n bound, whatever the BLAS summation order); the filter's own
#   three operations and the direct distance add a few eps more; the factor 8
#   leaves room to spare.  Underflow (subnormal numbers) breaks relative bounds
#   but its absolute error is far below `floor`.  Overflow is kept out: the
#   Python side never picks a GEMM dtype in which the training norms come near
#   its largest number, and a query whose norm does (far from the training set)
#   is compared directly with every sample.
#   Only directly computed distances enter the heap, so the neighbours and
#   distances are exactly those of `knn_direct`.  For float64 data with many
#   features the filter may run in float32 (sgemm, twice dgemm's speed): the bound
#   then uses float32's eps and the re-check stays in float64.
#
# Callers (patrec/neighbors/brute.py) validate everything first: C-contiguous arrays
# of one dtype, matching feature counts, 1 <= k <= n_train.  Both loops release the
# GIL; the Python side runs ranges of query rows in threads.  Every few milliseconds
# of work they look for Ctrl-C (patrec/_signals.pxd) and stop with KeyboardInterrupt.

from libc.stdlib cimport free, malloc
from libc.float cimport DBL_EPSILON, DBL_MAX, DBL_MIN, FLT_EPSILON, FLT_MAX, FLT_MIN
from scipy.linalg.cython_blas cimport dgemm, sgemm

from patrec._signals cimport SignalWatch, raise_interrupt, stop_after
from patrec._sums cimport sum_of_squares
from patrec._typedefs cimport float32_t, float64_t, floating, intp_t
from patrec.neighbors._distances cimport MetricKind, rdist, sqeuclidean_rdist
from patrec.neighbors._heap cimport heap_init, heap_push, heap_sort

cdef enum:
    GROUP = 64  # candidates tested together by the GEMM filter


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
    """c (column-major m x n) = a^T b with a a (k x m) and b a (k x n) column block.

    Called with a = training chunk and b = query block, both row-major with k columns,
    so that c[j + i * m] = <query i, train j>.
    """
    cdef char trans_a = b'T', trans_b = b'N'
    cdef gemm_t one = 1, zero = 0
    if gemm_t is float32_t:
        sgemm(&trans_a, &trans_b, &m, &n, &k, &one, a, &k, b, &k, &zero, c, &m)
    else:
        dgemm(&trans_a, &trans_b, &m, &n, &k, &one, a, &k, b, &k, &zero, c, &m)


cdef inline gemm_t _recheck(const floating* query, const floating* sample,
                            intp_t n_features, floating* kth, intp_t* heap_idx,
                            intp_t k, intp_t index, gemm_t limit, gemm_t keep,
                            gemm_t query_sqnorm, double floor) noexcept nogil:
    """Offer a candidate with its direct distance; return the (new) filter limit."""
    cdef floating d = sqeuclidean_rdist(query, sample, n_features)
    if heap_push(kth, heap_idx, k, d, index):
        return _filter_limit(kth[0], keep, query_sqnorm, floor)
    return limit


cdef inline gemm_t _filter_limit(double kth, gemm_t keep, gemm_t query_sqnorm,
                                 double floor) noexcept nogil:
    """Half the most a candidate's keep * (|q|^2 + |t|^2) - 2 q.t may be."""
    return <gemm_t> ((kth + floor - keep * query_sqnorm) / 2)


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
             intp_t block_train=0):
    """Squared-euclidean k-NN, GEMM-filtered and exactly re-checked (see above).

    ``train_centered`` is ``train - center`` rounded to the GEMM dtype (float32 or
    float64, the data's own or float32 for float64 data) and ``train_sqnorms`` its
    squared row norms.  ``out_dist`` receives squared distances computed directly
    from ``queries`` and ``train``, best first.
    """
    cdef intp_t n_queries = queries.shape[0], n_train = train.shape[0]
    cdef intp_t n_features = train.shape[1], k = out_idx.shape[1]
    cdef intp_t q0, q1, t0, t1, i, j, f, bq, bt, row
    # the unit roundoff of the GEMM dtype sets the error bound
    cdef double eps = FLT_EPSILON / 2 if gemm_t is float32_t else DBL_EPSILON / 2
    cdef double tiny = FLT_MIN if gemm_t is float32_t else DBL_MIN
    cdef gemm_t keep = <gemm_t> (1.0 - 8.0 * (n_features + 8) * eps)
    cdef gemm_t half_keep = keep / 2
    cdef double floor = 8.0 * (n_features + 8) * tiny
    # a query norm above this could overflow the filter: such rows go direct
    cdef double norm_max = (FLT_MAX if gemm_t is float32_t else DBL_MAX) / 64
    cdef gemm_t limit
    cdef gemm_t* query_block = NULL
    cdef gemm_t* query_sqnorms = NULL
    cdef gemm_t* dots = NULL
    cdef floating* kth
    cdef const gemm_t* dots_row
    cdef const gemm_t* norms
    cdef intp_t g, group_end, passed
    # counting first pays off when a GEMM entry costs many flops
    cdef bint count_first = n_features >= 16
    cdef SignalWatch watch
    cdef bint stopped = False
    watch.work = 0
    if n_queries == 0:
        return
    if block_queries <= 0:  # larger blocks pay off when the GEMM dominates
        block_queries = 256 if n_features >= 256 else 128
    if block_train <= 0:
        block_train = 2048 if n_features >= 256 else 1024
    block_queries = min(block_queries, n_queries)
    block_train = min(block_train, n_train)
    with nogil:
        query_block = <gemm_t*> malloc(block_queries * n_features * sizeof(gemm_t))
        query_sqnorms = <gemm_t*> malloc(block_queries * sizeof(gemm_t))
        dots = <gemm_t*> malloc(block_queries * block_train * sizeof(gemm_t))
        if query_block == NULL or query_sqnorms == NULL or dots == NULL:
            free(query_block)
            free(query_sqnorms)
            free(dots)
            with gil:
                raise MemoryError()
        for i in range(n_queries):
            heap_init(&out_dist[i, 0], &out_idx[i, 0], k)
        q0 = 0
        while q0 < n_queries:
            q1 = min(q0 + block_queries, n_queries)
            bq = q1 - q0
            # centre the query block exactly as the training set was centred
            for i in range(bq):
                for f in range(n_features):
                    query_block[i * n_features + f] = <gemm_t> (
                        <float64_t> queries[q0 + i, f] - center[f])
                query_sqnorms[i] = <gemm_t> sum_of_squares(&query_block[i * n_features],
                                                           n_features)
            t0 = 0
            while t0 < n_train:
                t1 = min(t0 + block_train, n_train)
                bt = t1 - t0
                norms = &train_sqnorms[t0]
                _gemm(<gemm_t*> &train_centered[t0, 0], query_block, dots,
                      <int> bt, <int> bq, <int> n_features)
                for i in range(bq):
                    row = q0 + i
                    kth = &out_dist[row, 0]
                    # candidate j may enter only if
                    #   keep * (|q|^2 + |t_j|^2) - 2 q.t_j <= k-th best,
                    # tested halved (exact in floating point) to spare a product.
                    if not query_sqnorms[i] <= norm_max:  # (also catches NaN)
                        _direct_block(&queries[row, 0], &train[t0, 0], bt,
                                      n_features, t0, kth, &out_idx[row, 0], k)
                        continue
                    limit = _filter_limit(kth[0], keep, query_sqnorms[i], floor)
                    dots_row = &dots[i * bt]
                    if not count_first:
                        for j in range(bt):
                            if half_keep * norms[j] - dots_row[j] <= limit:
                                limit = _recheck(&queries[row, 0], &train[t0 + j, 0],
                                                 n_features, kth, &out_idx[row, 0], k,
                                                 t0 + j, limit, keep, query_sqnorms[i],
                                                 floor)
                        continue
                    j = 0
                    while j < bt:
                        # count the candidates of a group that pass (a loop the
                        # compiler vectorises); look at them one by one only if any
                        group_end = min(j + GROUP, bt)
                        passed = 0
                        for g in range(j, group_end):
                            passed += half_keep * norms[g] - dots_row[g] <= limit
                        if passed:
                            for g in range(j, group_end):
                                if half_keep * norms[g] - dots_row[g] <= limit:
                                    limit = _recheck(&queries[row, 0], &train[t0 + g, 0],
                                                     n_features, kth, &out_idx[row, 0],
                                                     k, t0 + g, limit, keep,
                                                     query_sqnorms[i], floor)
                        j = group_end
                t0 = t1
                if stop_after(&watch, bq * bt * n_features):
                    stopped = True
                    break
            if stopped:
                break
            for i in range(q0, q1):
                heap_sort(&out_dist[i, 0], &out_idx[i, 0], k)
            q0 = q1
        free(query_block)
        free(query_sqnorms)
        free(dots)
    if stopped:
        raise_interrupt()
