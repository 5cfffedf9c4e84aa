# The compiled branch-and-bound tree: one object that owns the tree's arrays, its
# bounds and its metric (what each array holds: the header of _bnb_tree.pyx).  Built
# by `tree.build_search_tree` (through `make_search_tree`), searched by the loops of
# _bnb_tree.pyx, read by `BranchBoundTree.explain` and the plots.

from patrec._typedefs cimport intp_t
from patrec.neighbors.search._distances cimport MetricKind


cdef struct Tree:
    # the C view of a SearchTree that the loops take: pointers into its arrays
    # (which it keeps alive), set once when it is made
    const intp_t* node_start
    const intp_t* node_end
    const intp_t* node_child
    const intp_t* node_nchild
    const double* radius     # (NULL in the lean euclidean k-d tree, as to_center)
    const double* to_center
    const intp_t* order
    const intp_t* kd_nodes   # euclidean k-d search: per node (child, dim, start, end)
    const void* kd_cuts      # ... and (low, high) of a child in its parent's cut feature
    const void* kd_spans     # ... and (low, high) of a node in its own cut feature
    const void* data         # the floating arrays: float32 or float64 (itemsize)
    const void* centers      # (NULL in the lean euclidean k-d tree)
    const void* low
    const void* high
    intp_t itemsize
    intp_t n_features
    MetricKind kind
    double p
    double grow
    double tiny
    bint use_boxes


cdef class SearchTree:
    cdef readonly object data, order, to_center
    # (None in the lean euclidean k-d tree: its properties read kd_nodes instead)
    cdef object _node_start, _node_end, _node_child, _node_nchild, _nchild_of_kd
    cdef readonly object centers, radius, low, high, kd_nodes, kd_cuts, kd_spans
    cdef readonly int kind
    cdef readonly double p, grow, tiny
    cdef readonly bint use_boxes
    cdef readonly intp_t depth
    cdef Tree view
