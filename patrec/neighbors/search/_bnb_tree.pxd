# The compiled branch-and-bound tree: one object that owns the tree's arrays, its
# bounds and its metric (what each array holds: the header of _bnb_tree.pyx).  Built
# by `tree.build_search_tree` (through `make_search_tree`), searched by the loops of
# _bnb_tree.pyx, read by `BranchBoundTree.explain` and the plots.

from patrec._typedefs cimport intp_t


cdef class SearchTree:
    cdef readonly object data, order, to_center
    cdef readonly object node_start, node_end, node_child, node_nchild
    cdef readonly object centers, radius, low, high, kd_nodes, kd_cuts
    cdef readonly int kind
    cdef readonly double p, grow, tiny
    cdef readonly bint use_boxes
    cdef readonly intp_t depth
