# The C types shared by every compiled module of patrec.
#
# `floating` is the fused type of the kernels: each is compiled once for float32 and
# once for float64, so float32 input stays float32 all the way through.
# `intp_t` indexes arrays (numpy's intp, the same size as a pointer).

ctypedef float float32_t
ctypedef double float64_t
ctypedef Py_ssize_t intp_t

ctypedef fused floating:
    float32_t
    float64_t
